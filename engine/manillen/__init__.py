"""Manillen (Belgian Manille): 4 players in partnerships, and the seed's 2- and 3-player forms.
Rules as adjudicated: docs/rules/manillen.md."""
from engine.registry import register

from .game import ManillenGame

GAME = register(ManillenGame())

__all__ = ["GAME", "ManillenGame"]
