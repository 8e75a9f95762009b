"""Card notation: `<suit><rank>`, suits S H D C, ranks A 2-10 J Q K, jokers BJ and RJ.

Cards are canonical strings everywhere inside the engine and in every state ("S10", "HA",
"BJ"). Input may use `T` for 10 and lower case; output is always canonical. Two-deck games hold
multisets, so hands are lists and duplicates are allowed.
"""
from __future__ import annotations

from collections import Counter
from typing import Iterable, Sequence

from .errors import shown

SUITS: tuple[str, ...] = ("S", "H", "D", "C")
RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKERS: tuple[str, ...] = ("BJ", "RJ")  # black/small, red/big

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_NAMES_JA = {"S": "スペード", "H": "ハート", "D": "ダイヤ", "C": "クラブ"}

# Canonical cards map to themselves: the fast path for states the service itself wrote.
_CANONICAL: frozenset[str] = frozenset([s + r for s in SUITS for r in RANKS] + list(JOKERS))


class CardError(ValueError):
    """A token that is not a card. `token` is the bad input, `index` its place in a list."""

    def __init__(self, token: object, index: int | None = None):
        self.token = token
        self.index = index
        where = f" at position {index}" if index is not None else ""
        super().__init__(f"{shown(token)}{where} is not a card (expected e.g. 'S10', 'HA', 'dt', 'BJ')")


def parse_card(token: object) -> str:
    """Canonical form of one card token; raises CardError naming the token."""
    if isinstance(token, str):
        if token in _CANONICAL:
            return token
        text = token.strip().upper()
        if text in JOKERS:
            return text
        if len(text) >= 2:
            suit, rank = text[0], text[1:]
            if rank == "T":
                rank = "10"
            if suit in SUITS and rank in RANKS:
                return suit + rank
    raise CardError(token)


def parse_cards(tokens: Iterable[object]) -> list[str]:
    """Canonical list of card tokens, order and duplicates kept; the error names the index."""
    out = []
    for index, token in enumerate(tokens):
        try:
            out.append(parse_card(token))
        except CardError:
            raise CardError(token, index) from None
    return out


def is_card(token: object) -> bool:
    return isinstance(token, str) and token in _CANONICAL


def suit_of(card: str) -> str | None:
    """Suit letter, or None for a joker."""
    return None if card in JOKERS else card[0]


def rank_of(card: str) -> str:
    """Rank string ('A', '2' … '10', 'J', 'Q', 'K'), or the joker itself."""
    return card if card in JOKERS else card[1:]


def card(suit: str, rank: str) -> str:
    return parse_card(suit + rank)


def deck_52() -> list[str]:
    """The standard deck in a fixed, documented order: S, H, D, C; A to K within a suit."""
    return [suit + rank for suit in SUITS for rank in RANKS]


def deck_32() -> list[str]:
    """The piquet deck (7 8 9 10 J Q K A in each suit), e.g. for Manillen."""
    short = ("7", "8", "9", "10", "J", "Q", "K", "A")
    return [suit + rank for suit in SUITS for rank in short]


def deck_54() -> list[str]:
    """52 cards and the two jokers."""
    return deck_52() + list(JOKERS)


def double_deck_108() -> list[str]:
    """Two full decks with four jokers (a multiset), e.g. for Guandan."""
    return deck_54() + deck_54()


def first_repeated(cards: Sequence[str]) -> str | None:
    """The first card listed a second time (a `cards_duplicate` refusal names it), else None."""
    seen: set[str] = set()
    for c in cards:
        if c in seen:
            return c
        seen.add(c)
    return None


def same_multiset(a: Sequence[str], b: Sequence[str]) -> bool:
    return Counter(a) == Counter(b)


def multiset_contains(hand: Sequence[str], cards: Sequence[str]) -> bool:
    """True when `cards` can be taken out of `hand`, counting duplicates."""
    if not isinstance(hand, (list, tuple)) or not isinstance(cards, (list, tuple)):
        need = Counter(cards)
        have = Counter(hand)
        return all(have[c] >= n for c, n in need.items())
    # counted in place: a play is a few cards, and two Counters cost more than the counting
    return all(hand.count(c) >= cards.count(c) for c in set(cards))


def remove_cards(hand: Sequence[str], cards: Sequence[str]) -> list[str]:
    """`hand` without one copy of each of `cards` (caller checked multiset_contains)."""
    rest = list(hand)
    for c in cards:
        rest.remove(c)
    return rest


# -- card names for people (legal actions' and summaries' text, GET /v1/games decks) ----------
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
JOKER_NAMES = {"BJ": {"en": "Black Joker", "ja": "黒ジョーカー"},
               "RJ": {"en": "Red Joker", "ja": "赤ジョーカー"}}


def card_label(card: str) -> dict[str, str]:
    """A card's name as a button or a summary prints it, in each language: the suit's symbol and
    the rank ("♠10", "♥A"; the same in both languages, as Japanese tables write them), a joker
    in words. `card` is canonical."""
    joker = JOKER_NAMES.get(card)
    if joker is not None:
        return dict(joker)
    text = SUIT_SYMBOLS[card[0]] + card[1:]
    return {"en": text, "ja": text}


# Every canonical card's name in each language, made once: legal actions name thousands of cards
# per listing (a Guandan lead), and a table lookup costs a tenth of building each name.
NAMES: dict[str, dict[str, str]] = {lang: {c: card_label(c)[lang] for c in _CANONICAL}
                                    for lang in ("en", "ja")}


def cards_label(cards: Sequence[str], lang: str) -> str:
    """Several cards in one language, space-separated ("♠7 ♠8 ♠9"); `cards` canonical."""
    names = NAMES[lang]
    return " ".join([names[c] for c in cards])


def in_table_order(cards: Iterable[str], ranks: Sequence[str]) -> list[str]:
    """`cards` as a table lays a deck out: by suit (♠ ♥ ♦ ♣), each suit in `ranks`' order (a
    game passes its own, lowest first), the jokers last (BJ, then RJ); copies kept together."""
    suit_at = {s: i for i, s in enumerate(SUITS)}
    rank_at = {r: i for i, r in enumerate(ranks)}

    def key(c: str) -> tuple[int, int]:
        if c in JOKERS:
            return len(SUITS), JOKERS.index(c)
        return suit_at[c[0]], rank_at.get(c[1:], len(ranks))
    return sorted(cards, key=key)
