"""High card: the template game (docs/adding-a-game.md) — rules: rules.md beside this file.

A minimal but complete game, every file of the convention (engine/games/__init__.py) in its
smallest form. Copied to `engine/games/<new id>/` it is a game as it stands: its id is the
package's name (options.py GAME_ID), so nothing in it names itself.
"""
from .game import HighCardGame

GAME = HighCardGame()  # found and registered by engine/registry.py

__all__ = ["GAME", "HighCardGame"]
