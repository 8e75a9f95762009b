"""What the hidden-information tests (tests/engine/test_hidden_information.py) must know of
Daifugo beyond its conformance facts: the cards a seat cannot see (an exchange's cards stay with the
two seats that know them)."""
from __future__ import annotations

from collections import Counter
from typing import Callable

Pile = tuple[Callable[[dict, list], None], list, list]


def _hand(p: str) -> Callable[[dict, list], None]:
    def put(j: dict, cards: list) -> None:
        j["hands"][p] = cards
    return put


def _minus(cards: list, fixed: list) -> list:
    left = list(cards)
    for c in fixed:
        left.remove(c)
    return left


def piles(j: dict, seat: str) -> list[Pile]:
    """Other hands; cards of an exchange stay where they are (its two seats know them)."""
    moved = Counter()
    for e in j["exchange"]:
        moved.update(e["tribute"] or [])
        moved.update(e["returned"] or [])
    piles: list[Pile] = []
    for p in j["players"]:
        if p != seat:
            fixed = [c for c in j["hands"][p] if moved[c]]
            piles.append((_hand(p), fixed, _minus(j["hands"][p], fixed)))
    return piles
