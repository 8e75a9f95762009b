"""What the hidden-information tests (tests/engine/test_hidden_information.py) must know of
Daifugo beyond its conformance facts: the cards a seat cannot see (an exchange's cards stay with the
two seats that know them)."""
from __future__ import annotations

from collections import Counter

from engine.cards import remove_cards
from tests.leaks import Pile, hand_setter


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
            piles.append((hand_setter(p), fixed, remove_cards(j["hands"][p], fixed)))
    return piles
