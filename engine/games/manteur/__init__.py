"""Manteur (Poker Menteur, liar's poker with cards) — rules: docs/rules/manteur.md.

- `declarations`: the declaration model (`Declaration`, JSON `{type, ranks?, kickers?}`), its
  parse with precise errors, the total order of B9, the "must be higher" refusals of B8 and
  the option values that affect them (`DeclarationRules`, rows B-a B-b B-c B-f).
- `truth`: the truth test of B11 with jokers wild and its proof (B12); the `check` and
  `compare` lookups.
- `ladder`: every declaration in B9 order; what may follow a declaration.
- `options`, `state`, `actions`, `phases` (deal and the round machine, B13–B18 and B-d B-e
  B-g B-h), `messages`, `views`, `game`.
"""
from .game import ManteurGame

GAME = ManteurGame()  # found and registered by engine/registry.py

__all__ = ["GAME", "ManteurGame"]
