"""Card order, card points and the trick winner (A1, A2, A27)."""
from __future__ import annotations

from typing import Sequence

# A1: in every suit, high to low: 10 (the manille), A, K, Q, J, 9, 8, 7.
ORDER: tuple[str, ...] = ("10", "A", "K", "Q", "J", "9", "8", "7")
_STRENGTH = {rank: len(ORDER) - i for i, rank in enumerate(ORDER)}
# A2: 10=5, A=4, K=3, Q=2, J=1, the rest 0 -- 15 a suit, 60 a deal.
_POINTS = {"10": 5, "A": 4, "K": 3, "Q": 2, "J": 1}

SUITS = ("S", "H", "D", "C")


def suit(card: str) -> str:
    return card[0]


def strength(card: str) -> int:
    """Higher is stronger within a suit (10 → 8 … 7 → 1)."""
    return _STRENGTH[card[1:]]


def points(card: str) -> int:
    return _POINTS.get(card[1:], 0)


def total_points(cards: Sequence[str]) -> int:
    return sum(_POINTS.get(c[1:], 0) for c in cards)


def beats(card: str, best: str, trump: str | None) -> bool:
    """Whether `card`, played later, takes the trick from the current winning card `best`.

    A27: a trump beats any non-trump; otherwise only a higher card of the winning card's suit
    wins (a discard of a third suit never wins). `trump` is a suit letter, or None (no-trump).
    """
    cs, bs = card[0], best[0]
    if cs == bs:
        return _STRENGTH[card[1:]] > _STRENGTH[best[1:]]
    return trump is not None and cs == trump


def winner_offset(cards: Sequence[str], trump: str | None) -> int:
    """Index (in play order) of the card that wins the trick so far (A27)."""
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], trump):
            best = i
    return best


def sort_key(card: str) -> tuple[int, int]:
    """Display order: suit S H D C, then strongest first."""
    return SUITS.index(card[0]), -_STRENGTH[card[1:]]
