"""Guandan (掼蛋): the pure rules core. Rules: docs/rules/guandan.md.

Modules so far:

- `combos`: what a set of cards *is* — every reading of exactly those cards (§4–§6: singles,
  pairs, triples, full houses, straights, tubes, plates, N-of-a-kind bombs, straight flushes,
  the four-joker bomb, with the two wild hearts of the level rank), their order (L-3, L-4, C-8,
  C-9, B-1…B-6), the JSON form of a reading, the `classify` lookup and the declared-reading
  choice of W-11 (`choose_reading`).
- `moves`: every legal play of a hand, leading or following, each exactly once, fast.

No game state, phases or HTTP here; the game (registration, tribute, levels) is built on top.
"""
