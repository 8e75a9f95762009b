"""Guandan legal-play enumeration speed (engine/games/guandan/moves.py). Not a test.

A fixed seeded set of 300 random 27-card hands, each holding both wild hearts of a random level
(engine.rng.shuffled, seed "guandan-bench"). For every hand: the time to list every legal lead,
and the time to list every legal follow of a table play drawn (seeded) from the leads of the
next hand — a typical table play, weighted as leads occur. Every call is cold: the enumerator
keeps nothing between calls (only import-time tables). Also: plays per hand, and for reference
the brute force (every sub-multiset read by combos.readings) on small 8-card hands.

Usage: python bench/guandan_enumeration.py [--hands 300] [--repeat 3]
Targets (issue): lead median ≤ 5 ms, follow median ≤ 1 ms.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.cards import RANKS, double_deck_108  # noqa: E402
from engine.games.guandan.combos import readings  # noqa: E402
from engine.games.guandan.moves import legal_follows, legal_leads  # noqa: E402
from engine.rng import shuffled  # noqa: E402

SEED = "guandan-bench"


def hands(count: int) -> list[tuple[str, list[str]]]:
    out = []
    for i in range(count):
        level = shuffled(list(RANKS), SEED, f"level/{i}")[0]
        wild = "H" + level
        rest = double_deck_108()
        rest.remove(wild)
        rest.remove(wild)
        out.append((level, [wild, wild] + shuffled(rest, SEED, f"hand/{i}")[:25]))
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def timed(fn, repeat: int) -> float:
    """Best of `repeat` cold calls (each call rebuilds everything), in ms."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def brute(hand, level):
    counts = sorted(Counter(hand).items())
    found = set()

    def walk(i, cards):
        if i == len(counts):
            if cards:
                for r in readings(cards, level):
                    found.add((tuple(sorted(cards)), r))
            return
        card, n = counts[i]
        for k in range(n + 1):
            walk(i + 1, cards + [card] * k)

    walk(0, [])
    return found


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    sample = hands(args.hands)
    lead_ms, follow_ms, counts, follow_counts = [], [], [], []
    per_type: dict[str, list[float]] = {}
    tables = []
    for i in range(len(sample)):
        nlevel, nhand = sample[(i + 1) % len(sample)]
        leads = legal_leads(nhand, nlevel)
        pick = shuffled(range(len(leads)), SEED, f"table/{i}")[0]
        tables.append(leads[pick][1])
    for (level, hand), table in zip(sample, tables):
        lead_ms.append(timed(lambda: legal_leads(hand, level), args.repeat))
        follow_ms.append(timed(lambda: legal_follows(hand, level, table), args.repeat))
        per_type.setdefault(table.type, []).append(follow_ms[-1])
        counts.append(len(legal_leads(hand, level)))
        follow_counts.append(len(legal_follows(hand, level, table)))
    print(f"{len(sample)} hands of 27 cards with both wilds (seed {SEED!r}), "
          f"{args.repeat} cold call(s) each, best taken")
    print(f"leads:   median {statistics.median(lead_ms):6.2f} ms   p95 {pct(lead_ms, .95):6.2f} ms"
          f"   plays median {statistics.median(counts):.0f} (min {min(counts)}, max {max(counts)})")
    print(f"follows: median {statistics.median(follow_ms):6.2f} ms   p95 {pct(follow_ms, .95):6.2f} ms"
          f"   plays median {statistics.median(follow_counts):.0f}")
    for t in sorted(per_type, key=lambda t: -len(per_type[t])):
        v = per_type[t]
        print(f"   on a {t:15} ({len(v):3} tables): median {statistics.median(v):5.2f} ms")
    # Reference: brute force over sub-multisets, on 8-card hands only (2^27 is out of reach).
    small = [(lv, h[:8]) for lv, h in sample[:20]]
    start = time.perf_counter()
    for lv, h in small:
        brute(h, lv)
    brute_ms = (time.perf_counter() - start) * 1000 / len(small)
    start = time.perf_counter()
    for lv, h in small:
        legal_leads(h, lv)
    fast_ms = (time.perf_counter() - start) * 1000 / len(small)
    print(f"brute force on 8-card hands: {brute_ms:.2f} ms vs {fast_ms:.3f} ms "
          f"(×{brute_ms / fast_ms:.0f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
