"""Guandan (掼蛋): four players in fixed partnerships climb from level 2 to A with two packs
and four jokers. Rules: docs/rules/guandan.md.

Modules: `combos` (what a set of cards is: readings with the wilds, their order, W-11),
`moves` (every legal play of a hand, fast), `options` (D1–D14, presets), `state` (the state
declared once), `phases` (deal, tribute, return, tricks), `scoring` (levels, the A rules, the
next deal's match), `messages` (refusals), `views`, `game` (the Game interface).
"""
from .game import GuandanGame

GAME = GuandanGame()  # found and registered by engine/registry.py

__all__ = ["GAME", "GuandanGame"]
