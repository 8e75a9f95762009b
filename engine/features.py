"""What the engine gives every game, composed over the game interface in this one place.

A game (engine/game.py) declares only its own rules: its actions, events and match values. The
engine's features that wrap every game add to what the game publishes here, when the registry
registers it (engine/registry.py `register`), and nowhere else:

- the referee's ledger (engine/referee.py): its three referee-only actions (warning, penalty,
  withdraw) and their events join every game's declared actions and events; a game with
  sanctions (referee mode, `Game.referee`) also reports `irregularity_sanctioned`; and a game
  with a match (`Game.match`) carries the ledger among its match values (`referee_ledger`).

The engine's other features read a game through the interface and the registry, and change
nothing of it: the referee's view, sanctions and the ledger's legal actions (engine/referee.py,
called by engine/adjudicate.py), match records (engine/records.py) and score sheets
(engine/sheets.py).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from . import referee
from .game import Game


def _declared(game: Game[Any], name: str) -> bool:
    """Whether the game's class (or a class it extends below Game) declares `name`."""
    return any(name in kind.__dict__ for kind in type(game).__mro__
               if kind is not Game and issubclass(kind, Game))


def compose(game: Game[Any]) -> Game[Any]:
    """The game with the engine's features added to what it publishes (idempotent)."""
    if _declared(game, "actions"):
        game.actions = tuple(a for a in game.actions
                             if a.name not in referee.LEDGER_ACTION_TYPES) + \
            referee.LEDGER_ACTIONS
        game.__dict__.pop("_referee_actions", None)  # Game.referee_actions, recomputed
    if _declared(game, "events"):
        extra = referee.LEDGER_EVENTS + \
            ((referee.IRREGULARITY_EVENT,) if game.referee.sanctions else ())
        names = {e.name for e in extra}
        game.events = tuple(e for e in game.events if e.name not in names) + extra
    if game.match is not None and game.match.fields:
        game.match = replace(game.match, fields={**game.match.fields,
                                                 referee.MATCH_KEY: referee.MATCH_FIELD})
    return game
