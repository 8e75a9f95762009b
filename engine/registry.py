"""Games register themselves; the service finds them here and never imports one by name.

A game package under `engine/` calls `register(SomeGame())` when imported; `discover()` imports
every subpackage of `engine`, so adding a game is adding a package.
"""
from __future__ import annotations

import importlib
import pkgutil

from .features import compose
from .game import Game

_GAMES: dict[str, Game] = {}
_discovered = False


def register(game: Game) -> Game:
    existing = _GAMES.get(game.id)
    if existing is not None and type(existing) is not type(game):
        raise ValueError(f"game id {game.id!r} registered twice")
    # what the engine adds to every game (the referee's ledger …), composed in one place
    _GAMES[game.id] = compose(game)
    return game


def unregister(game_id: str) -> None:
    """For tests that register a toy game."""
    _GAMES.pop(game_id, None)


def discover() -> dict[str, Game]:
    global _discovered
    if not _discovered:
        import engine

        for info in pkgutil.iter_modules(engine.__path__):
            if info.ispkg:
                importlib.import_module(f"engine.{info.name}")
        _discovered = True
    return _GAMES


def get(game_id: str) -> Game | None:
    discover()
    return _GAMES.get(game_id)


def all_games() -> list[Game]:
    discover()
    return [_GAMES[k] for k in sorted(_GAMES)]
