"""Rule 4: the numbers a hand can "make" (まんできる数字), with how each is made.

Called on every man check and every to_act/legal_actions listing, so the work is cached on the
sorted tuple of card values (suits never matter here).
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import product
from typing import Any, Iterable

from engine.cards import JOKERS, SUITS

VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
         "J": 11, "Q": 12, "K": 13}
LABEL = {1: "A", 11: "J", 12: "Q", 13: "K"}
REACH_LIMIT = 13  # 2.2 / 4: a hand is in reach while its plain total is 13 or less
# Each card's value, looked up at once: every to_act and call reads the hands' values. A
# joker is not in it, as it has no value (VALUE[rank_of(joker)] fails alike).
_CARD_VALUE = {suit + rank: v for suit in SUITS for rank, v in VALUE.items()}


def card_value(card: str) -> int:
    """1.2: A=1, 2-10 face value, J=11, Q=12, K=13."""
    return _CARD_VALUE[card]


def hand_total(cards: Iterable[str]) -> int:
    """The plain total (A=1) that decides reach (2.2) and the end-of-turn call (6.1)."""
    value = _CARD_VALUE
    return sum([value[c] for c in cards])


def in_reach(cards: Iterable[str]) -> bool:
    return hand_total(cards) <= REACH_LIMIT


def _label(value: int) -> str:
    return LABEL.get(value, str(value))


@lru_cache(maxsize=8192)
def _analyse(values: tuple[int, ...]) -> tuple[
        bool, int, tuple[tuple[int, tuple[tuple[str, str], ...]], ...]]:
    """(reach, total, ((number, derivations), ...)) for a sorted tuple of card values, each
    derivation in English and in Japanese ("A as 10 + 3", "A(10として) + 3")."""
    total = sum(values)
    if total > REACH_LIMIT:
        return False, total, ()  # 4: only a hand in reach makes numbers
    found: dict[int, list[tuple[str, str]]] = {}

    def add(number: int, how: tuple[str, str]) -> None:
        if 1 <= number <= 13:  # 4: results outside 1-13 make nothing
            ways = found.setdefault(number, [])
            if how not in ways:
                ways.append(how)

    counts = Counter(values)
    groups = sorted(v for v, c in counts.items() if c >= 2)
    # 4.2: each rank held twice or more is either kept whole or collapsed to one card.
    for collapse in product((False, True), repeat=len(groups)):
        collapsed = {g for g, on in zip(groups, collapse) if on}
        hand = []
        for v in sorted(counts):
            hand += [v] * (1 if v in collapsed else counts[v])
        note = note_ja = ""
        if collapsed:
            once = sorted(collapsed)
            note = " (" + ", ".join(f"{_label(g)}s counted once" for g in once) + ")"
            note_ja = "(" + "、".join(f"{_label(g)}は1枚として数える" for g in once) + ")"
        aces = hand.count(1)
        others = [v for v in hand if v != 1]
        # 4.4: an A may count as 10 only while that hand's total stays 13 or less.
        for tens in range(aces + 1):
            eff = [10] * tens + [1] * (aces - tens) + others
            labels = [("A as 10", "A(10として)")] * tens + [("A", "A")] * (aces - tens) + \
                [(_label(v), _label(v)) for v in others]
            if tens and sum(eff) > REACH_LIMIT:
                continue
            add(sum(eff), (" + ".join(en for en, _ in labels) + note,
                           " + ".join(ja for _, ja in labels) + note_ja))  # 4.1 / 4.2 (4.4)
            if len(eff) == 2:  # 4.3: two cards also subtract, multiply and divide
                (a, la), (b, lb) = sorted(zip(eff, labels), reverse=True)
                add(a - b, (f"{la[0]} − {lb[0]}{note}", f"{la[1]} − {lb[1]}{note_ja}"))
                add(a * b, (f"{lb[0]} × {la[0]}{note}", f"{lb[1]} × {la[1]}{note_ja}"))
                if a % b == 0:
                    add(a // b, (f"{la[0]} ÷ {lb[0]}{note}", f"{la[1]} ÷ {lb[1]}{note_ja}"))
    return True, total, tuple((k, tuple(found[k])) for k in sorted(found))


def _values(cards: Iterable[str]) -> tuple[int, ...]:
    value = _CARD_VALUE
    return tuple(sorted([value[c] for c in cards]))


@lru_cache(maxsize=8192)
def _numbers(values: tuple[int, ...]) -> frozenset[int]:
    return frozenset(n for n, _ in _analyse(values)[2])


def man_numbers(cards: Iterable[str]) -> frozenset[int]:
    """The numbers (1-13) this hand can man; empty when not in reach (4)."""
    return _numbers(_values(cards))


def can_make(cards: Iterable[str], number: int) -> bool:
    return number in _numbers(_values(cards))


def analyse(cards: Iterable[str], lang: str = "en") -> dict[str, Any]:
    """The man-numbers lookup's answer: reach, total, numbers and derivations (keys strings),
    the derivations in `lang` ("en" or "ja")."""
    reach, total, found = _analyse(_values(cards))
    pick = 1 if lang == "ja" else 0
    return {"reach": reach, "total": total, "numbers": [n for n, _ in found],
            "derivations": {str(n): [how[pick] for how in ways] for n, ways in found}}


def lookup_man_numbers(request: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    """The man-numbers lookup's handler (the Lookup itself is declared in lookups.py); its
    derivations in the caller's language."""
    hand = request["hand"]
    if any(card in JOKERS for card in hand):
        # 1.1: Man has no jokers, so such a hand is never in reach. (The core's "cards" field
        # admits jokers and the spec follows it, so the request itself is well formed.)
        total = hand_total(c for c in hand if c not in JOKERS)
        return {"reach": False, "total": total, "numbers": [], "derivations": {}}
    return analyse(hand, lang)
