"""The games, found here: the service and the engine never import one by name.

A game is a package `engine/games/<id>/` exposing its Game instance as `GAME` (engine/games/
__init__.py). On first use `discover()` imports every package under `engine.games` and
registers its `GAME`, so adding a game is adding a package. Registering composes what the
engine gives every game (engine/features.py: the referee's ledger) into what it publishes.
"""
from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from .features import compose
from .game import Game

_GAMES: dict[str, Game[Any]] = {}
_discovered = False


def register(game: Game[Any]) -> Game[Any]:
    existing = _GAMES.get(game.id)
    if existing is not None and type(existing) is not type(game):
        raise ValueError(f"game id {game.id!r} registered twice")
    # what the engine adds to every game (the referee's ledger …), composed in one place
    _GAMES[game.id] = compose(game)
    return game


def unregister(game_id: str) -> None:
    """For tests that register a toy game."""
    _GAMES.pop(game_id, None)


def discover() -> dict[str, Game[Any]]:
    global _discovered
    if not _discovered:
        from . import games

        for info in pkgutil.iter_modules(games.__path__):
            if info.ispkg:
                game = importlib.import_module(f"{games.__name__}.{info.name}").GAME
                if game.id != info.name:
                    raise ValueError(f"the game package {info.name!r} holds the game {game.id!r}")
                register(game)
        _discovered = True
    return _GAMES


def get(game_id: str) -> Game[Any] | None:
    discover()
    return _GAMES.get(game_id)


def all_games() -> list[Game[Any]]:
    discover()
    return [_GAMES[k] for k in sorted(_GAMES)]
