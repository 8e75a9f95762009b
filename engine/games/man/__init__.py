"""Man (まん): a shedding game won only by "man" — a hand in reach that makes the number of the
card just played. Rules: docs/rules/man.md."""
from .game import ManGame

GAME = ManGame()  # found and registered by engine/registry.py

__all__ = ["GAME", "ManGame"]
