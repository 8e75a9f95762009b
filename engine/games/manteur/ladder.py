"""Every declaration the options allow, in the order of B9, and what may follow a declaration.

The ladder is built once per set of declaration options (a few thousand declarations; cached)
and answers two questions of the round machine:
- `top_reached(last)`: nothing is higher than `last`, so accepting it is pointless (B8);
- `representatives(last)`: for each hand type and each first named rank (or none named), the
  lowest declaration higher than `last` — the bounded set `legal_actions` lists (any other
  higher declaration is legal too).
"""
from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache
from itertools import combinations
from typing import Iterable, Iterator

from .declarations import (
    RANK_VALUE,
    SHAPES,
    Declaration,
    DeclarationError,
    DeclarationRules,
    check_type_allowed,
    sort_key,
)


def _desc(ranks: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(ranks, key=lambda r: -RANK_VALUE[r]))


def enumerate_declarations(rules: DeclarationRules) -> list[Declaration]:
    """Every valid declaration under `rules` (B5, B6, B7, B10, options), unordered."""
    deck = rules.ranks
    out: list[Declaration] = []

    def kicker_sets(exclude: set[str], limit: int, below: str | None = None) -> Iterator[tuple[str, ...]]:
        pool = [r for r in deck if r not in exclude
                and (below is None or RANK_VALUE[r] < RANK_VALUE[below])]
        for n in range(limit + 1):
            for combo in combinations(pool, n):
                yield _desc(combo)

    for t in rules.type_order:
        try:
            check_type_allowed(t, rules)
        except DeclarationError:
            continue
        out.append(Declaration(t))
        shape = SHAPES[t]
        if t in ("high_card", "pair", "three_of_a_kind", "four_of_a_kind", "five_of_a_kind"):
            for r in deck:
                for k in kicker_sets({r}, shape.max_kickers, r if t == "high_card" else None):
                    out.append(Declaration(t, (r,), k))
        elif t == "two_pair":
            for h in deck:
                out.append(Declaration(t, (h,)))
                for lo in deck:
                    if RANK_VALUE[lo] < RANK_VALUE[h]:
                        for k in kicker_sets({h, lo}, 1):
                            out.append(Declaration(t, (h, lo), k))
        elif t == "full_house":
            for a in deck:
                out.append(Declaration(t, (a,)))
                out.extend(Declaration(t, (a, b)) for b in deck if b != a)
        elif t in ("straight", "straight_flush"):
            out.extend(Declaration(t, (top,)) for top in rules.straights())
        elif t == "flush":
            for n in range(1, 6):
                out.extend(Declaration(t, _desc(c)) for c in combinations(deck, n))
    return out


class Ladder:
    """The declarations of one rule set, sorted by B9, grouped by (type, first named rank)."""

    def __init__(self, rules: DeclarationRules):
        self.rules = rules
        pairs = sorted(((sort_key(d, rules), d) for d in enumerate_declarations(rules)),
                       key=lambda p: p[0])
        self.keys = [k for k, _ in pairs]
        self.declarations = [d for _, d in pairs]
        # group ends: a group is contiguous, its key starts (type position, first rank or 0)
        self.groups: list[tuple[int, int]] = []
        start = 0
        for i in range(1, len(self.keys) + 1):
            if i == len(self.keys) or self.keys[i][:2] != self.keys[start][:2]:
                self.groups.append((start, i))
                start = i

    def _after(self, last: Declaration | None) -> int:
        return 0 if last is None else bisect_right(self.keys, sort_key(last, self.rules))

    def top_reached(self, last: Declaration | None) -> bool:
        return self._after(last) >= len(self.keys)

    def representatives(self, last: Declaration | None) -> list[Declaration]:
        p = self._after(last)
        return [self.declarations[max(start, p)] for start, end in self.groups if end > p]


@lru_cache(maxsize=32)
def ladder(rules: DeclarationRules) -> Ladder:
    return Ladder(rules)
