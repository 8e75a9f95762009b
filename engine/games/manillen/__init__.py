"""Manillen (Belgian Manille): 4 players in partnerships, and the seed's 2- and 3-player forms.
Rules as adjudicated: docs/rules/manillen.md."""
from .game import ManillenGame

GAME = ManillenGame()  # found and registered by engine/registry.py

__all__ = ["GAME", "ManillenGame"]
