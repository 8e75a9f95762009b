"""Man (まん): a shedding game won only by "man" — a hand in reach that makes the number of the
card just played. Rules: docs/rules/man.md."""
from engine.registry import register

from .game import ManGame

GAME = register(ManGame())

__all__ = ["GAME", "ManGame"]
