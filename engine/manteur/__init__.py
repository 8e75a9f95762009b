"""Manteur (Poker Menteur, liar's poker with cards) — rules: docs/rules/manteur.md.

The pure rules core so far:

- `declarations`: the declaration model (`Declaration`, JSON `{type, ranks?, kickers?}`), its
  parse with precise errors (`parse_declaration`, `DeclarationError`), the total order of rule
  B9 (`compare`, `sort_key`), "must be higher" refusals (`is_higher`, rule B8) and the option
  values that affect all of these (`DeclarationRules`, rows B-a B-b B-c B-f of the option table).
- `truth`: the truth test of rule B11 with jokers wild (`check` -> `Proof` or None) and the
  `check` / `compare` lookup handlers.

Nothing registers a game yet (the registry imports this package; registration comes with the
state machine).
"""
