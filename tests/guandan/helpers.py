"""Brute force for the Guandan enumeration tests: every sub-multiset of a hand, read by
`combos.readings`, deduplicated — the definition of a play the enumerator must match."""
from __future__ import annotations

from collections import Counter
from itertools import product

from engine.guandan.combos import LENGTH, SEED_RULES, ComboRules, Reading, beats, readings
from engine.cards import RANKS


def sub_multisets(hand):
    counts = sorted(Counter(hand).items())
    for picks in product(*[range(n + 1) for _, n in counts]):
        cards = []
        for (card, _), k in zip(counts, picks):
            cards += [card] * k
        if cards:
            yield tuple(cards)


def brute_plays(hand, level, rules: ComboRules = SEED_RULES, table: Reading | None = None):
    """{(sorted cards, reading): wilds} over every sub-multiset."""
    out = {}
    for cards in sub_multisets(hand):
        for r in readings(cards, level, rules):
            if table is None or beats(r, table, level, rules):
                out[(cards, r)] = r.wilds
    return out


def as_plays(plays):
    """The enumerator's list as the same dict; asserts each play appears once."""
    out = {}
    for cards, r in plays:
        key = (tuple(sorted(cards)), r)
        assert key not in out, f"play listed twice: {key}"
        out[key] = r.wilds
    return out


def every_reading(max_bomb: int = 10) -> list[Reading]:
    """Every (type, rank, length) that exists, for random table readings."""
    out = []
    for r in RANKS:
        for t in ("single", "pair", "triple", "full_house"):
            out.append(Reading(t, r, LENGTH[t]))
        for m in range(4, max_bomb + 1):
            out.append(Reading("bomb", r, m))
    for j in ("BJ", "RJ"):
        out += [Reading("single", j, 1), Reading("pair", j, 2)]
    tops = {"straight": 5, "straight_flush": 5, "tube": 3, "plate": 2}
    for t, low in tops.items():
        for top in range(low, 15):
            out.append(Reading(t, RANKS[(top - 1) % 13], LENGTH[t]))
    out.append(Reading("four_jokers", None, 4))
    return out
