"""Manteur's truth test (B11, B12) and the `check` / `compare` lookups.

A declaration is true when the hand *contains* the declared combination, jokers standing for
any card of the deck in use (B1, B11):

- the named ranks must really be there (a pair of Ks does not prove "pair of 2s");
- a bigger combination proves a smaller one it contains (three 2s prove "pair of 2s"; a full
  house proves "two pairs", "a pair", "three of a kind"; a straight flush proves "a flush"
  and "a straight" with the same top);
- a straight is named by its top card only: 5-6-7-8-9 does not prove "straight to 8";
- kickers and a flush's named ranks are cards that must be present besides the combination
  (containment, like the ranks);
- whether jokers were used makes no difference (B-i).

`check` answers with the Proof a genuine declarer shows (B12): the fewest cards that prove
the claim, using as few jokers as possible, and the card each joker stands for. It is memoized
on the sorted hand, so calling it per action costs microseconds.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Sequence, cast

from engine.cards import JOKERS, SUITS, rank_of, suit_of

from .declarations import (
    DEFAULT_RULES,
    RANK_VALUE,
    Declaration,
    DeclarationRules,
    compare,
    make_error,
    parse_declaration,
)


@dataclass(frozen=True)
class Proof:
    """The cards that make a declaration true, in the order of the combination (named part
    first, then kickers), jokers included; `jokers` pairs each joker used with the card it
    stands for."""

    cards: tuple[str, ...]
    jokers: tuple[tuple[str, str], ...] = ()

    def stands_for(self) -> dict[str, str]:
        return dict(self.jokers)

    def shown(self) -> tuple[str, ...]:
        """The combination with each joker replaced by the card it stands for."""
        sub = dict(self.jokers)
        return tuple(sub.get(c, c) for c in self.cards)

    def to_json(self) -> dict[str, Any]:
        return {"cards": list(self.cards), "jokers": dict(self.jokers)}


# A requirement is what one candidate combination needs, slot by slot: each slot is
# (rank, suit or None), a suit of None meaning "any card of this rank". `free` slots of a flush
# are ("", suit): any card of that suit whose rank is not named elsewhere in the requirement.
Slot = tuple[str, "str | None"]


def check(hand: Iterable[str], declaration: Declaration,
          rules: DeclarationRules = DEFAULT_RULES) -> Proof | None:
    """The Proof when `hand` (canonical cards, jokers wild) contains `declaration`, else None
    (B11). The declaration is assumed valid under `rules` (see parse_declaration)."""
    return _check(tuple(sorted(hand)), declaration, rules)


def is_true(hand: Iterable[str], declaration: Declaration,
            rules: DeclarationRules = DEFAULT_RULES) -> bool:
    return check(hand, declaration, rules) is not None


@lru_cache(maxsize=16384)
def _check(hand: tuple[str, ...], d: Declaration, rules: DeclarationRules) -> Proof | None:
    jokers = [c for c in hand if c in JOKERS]
    naturals = [c for c in hand if c not in JOKERS]
    # Naturals by rank in S H D C order (any fixed order would do: the proof is deterministic).
    by_rank: dict[str, list[str]] = defaultdict(list)
    for c in sorted(naturals, key=lambda c: SUITS.index(suit_of(c))):
        by_rank[rank_of(c)].append(c)
    best: tuple[int, list[Slot], list[str | None]] | None = None
    for slots in _requirements(d, rules):
        picks = _fill(slots, by_rank, naturals)
        short = picks.count(None)
        if short <= len(jokers) and (best is None or short < best[0]):
            best = (short, slots, picks)
            if not short:
                break
    if best is None:
        return None
    _, slots, picks = best
    missing = [slot for slot, pick in zip(slots, picks) if pick is None]
    stand_ins = iter(zip(jokers, _stand_ins(missing, naturals, rules)))
    cards: list[str] = []
    pairs: list[tuple[str, str]] = []
    for pick in picks:
        if pick is None:
            pair = next(stand_ins)
            pairs.append(pair)
            pick = pair[0]
        cards.append(pick)
    return Proof(tuple(cards), tuple(pairs))


def _fill(slots: Sequence[Slot], by_rank: dict[str, list[str]], naturals: list[str]
          ) -> list[str | None]:
    """A natural card for each slot it can take (each card once), None where a joker must go."""
    taken: set[str] = set()
    picks: list[str | None] = []
    named = {rank for rank, _ in slots if rank}
    spare: list[str] | None = None
    for rank, suit in slots:
        if rank:
            pick = next((c for c in by_rank.get(rank, ()) if c not in taken
                         and (suit is None or suit_of(c) == suit)), None)
        else:  # a flush place whose rank is not named: any other card of the suit, highest first
            if spare is None:
                spare = sorted((c for c in naturals if suit_of(c) == suit
                                and rank_of(c) not in named),
                               key=lambda c: -RANK_VALUE[rank_of(c)])
            pick = next((c for c in spare if c not in taken), None)
        if pick is not None:
            taken.add(pick)
        picks.append(pick)
    return picks


def _stand_ins(missing: list[Slot], naturals: list[str], rules: DeclarationRules) -> list[str]:
    """A concrete card for each slot a joker fills: for a rank, a suit the hand lacks in that
    rank where possible (five of a kind must repeat one); for a flush place, the highest rank
    of the suit not in the hand or the combination."""
    held = set(naturals)
    out: list[str] = []
    for rank, suit in missing:
        if rank and suit:
            card = suit + rank
        elif rank:
            card = next((s + rank for s in SUITS if s + rank not in held), SUITS[0] + rank)
        else:
            flush_suit = cast(str, suit)  # a flush place: its suit, no rank
            card = next(flush_suit + r for r in reversed(rules.ranks) if flush_suit + r not in held)
        held.add(card)
        out.append(card)
    return out


def _requirements(d: Declaration, rules: DeclarationRules) -> Iterable[list[Slot]]:
    """Every concrete way the declaration can be made, as slot lists, highest ranks first."""
    ranks = list(reversed(rules.ranks))  # high to low
    t, named = d.type, d.ranks
    kick: list[Slot] = [(k, None) for k in d.kickers]

    def sets(spec: Sequence[tuple[str, int]]) -> list[Slot]:
        return [(r, None) for r, n in spec for _ in range(n)] + kick

    if t in ("high_card", "pair", "three_of_a_kind", "four_of_a_kind", "five_of_a_kind"):
        n = {"high_card": 1, "pair": 2, "three_of_a_kind": 3, "four_of_a_kind": 4,
             "five_of_a_kind": 5}[t]
        for r in named or ranks:
            yield sets([(r, n)])
    elif t in ("two_pair", "full_house"):
        n1, n2 = (2, 2) if t == "two_pair" else (3, 2)
        firsts = named[:1] or ranks
        for a in firsts:
            seconds = named[1:] or [r for r in ranks if r != a]
            for b in seconds:
                if t == "two_pair" and not named and RANK_VALUE[b] > RANK_VALUE[a]:
                    continue  # unnamed two pairs: each pair of ranks once
                yield sets([(a, n1), (b, n2)])
    elif t in ("straight", "straight_flush"):
        runs = rules.straights()
        tops = named or list(reversed(list(runs)))
        for top in tops:
            for suit in (SUITS if t == "straight_flush" else (None,)):
                yield [(r, suit) for r in runs[top]]
    elif t == "flush":
        for suit in SUITS:
            flush: list[Slot] = [(r, suit) for r in named]
            flush += [("", suit)] * (5 - len(named))
            yield flush
    else:
        raise AssertionError(t)


# ---------------------------------------------------------------- lookups


def parse_hand(cards: Sequence[str], path: str = "hand",
               rules: DeclarationRules = DEFAULT_RULES) -> list[str]:
    """`cards` (already canonical, e.g. from a "cards" field) checked as a Manteur hand: at most
    five cards (B3), each once (B1), all from the deck in use (B-a); raises DeclarationError."""
    if len(cards) > 5:
        raise make_error("hand_too_large", path, count=len(cards))
    jokers = 0
    for i, card in enumerate(cards):
        if card in cards[:i]:
            raise make_error("hand_card_repeated", f"{path}[{i}]", card=card)
        if card in JOKERS:
            jokers += 1
            if jokers > rules.jokers:  # B-a `jokers`: fewer than two in the deck
                raise make_error("hand_card_not_in_deck", f"{path}[{i}]", card=card,
                             deck=f"{rules.deck} + {rules.jokers} joker(s)")
        elif rank_of(card) not in rules.ranks:
            raise make_error("hand_card_not_in_deck", f"{path}[{i}]", card=card, deck=rules.deck)
    return list(cards)


def lookup_rules(options: object, path: str) -> DeclarationRules:
    """The declaration rules of a lookup's `options`, refused as the deal refuses its options
    (422 `options_invalid`, every wrong option named): only the declaration options of B-a,
    B-b, B-c, B-f, each in its declared range (`jokers` 0..2: a deck holds two jokers)."""
    if options is None:
        return DEFAULT_RULES
    from engine.errors import InvalidOptions, shown
    from engine.fields import FieldError

    from .options import OPTIONS

    fields = {o.name: o.field for o in OPTIONS if o.name in DeclarationRules.OPTION_ROWS}
    if not isinstance(options, dict):
        raise InvalidOptions("options must be an object", path)
    wrong: dict[str, list[str]] = {}
    for key, value in options.items():
        fld = fields.get(key)
        if fld is None:
            wrong[f"{path}.{key}"] = [f"unknown option {shown(key)}; a lookup takes "
                                      f"{sorted(fields)}"]
            continue
        try:
            fld.parse(value, f"{path}.{key}")
        except FieldError as err:
            wrong.setdefault(err.path, []).append(err.message)
    if wrong:
        first, messages = next(iter(wrong.items()))
        detail = messages[0] if len(wrong) == 1 else f"{len(wrong)} options are wrong: " + \
            "; ".join(f"{p}: {m[0]}" for p, m in wrong.items())
        raise InvalidOptions(detail, first, errors=wrong)
    return DeclarationRules.from_options(options, path)


def lookup_check(request: dict[str, Any], path: str = "body") -> dict[str, Any]:
    """The `check` lookup: `{hand, declaration, options?}` -> `{truthful, proof}`; proof is
    `{cards, jokers: {joker: card}}` or null for a lie. A malformed hand or declaration raises
    DeclarationError (422) naming the field (`body.hand[2]`, `body.declaration.ranks[0]`)."""
    rules = lookup_rules(request.get("options"), f"{path}.options")
    hand = parse_hand(request["hand"], f"{path}.hand", rules)
    d = parse_declaration(request["declaration"], f"{path}.declaration", rules)
    proof = check(hand, d, rules)
    return {"truthful": proof is not None, "proof": None if proof is None else proof.to_json()}


def lookup_compare(request: dict[str, Any], path: str = "body") -> dict[str, Any]:
    """The `compare` lookup: `{a, b, options?}` -> `{order}`: 1 when a is higher, -1 when b is,
    0 when they are the same declaration (B9)."""
    rules = lookup_rules(request.get("options"), f"{path}.options")
    a = parse_declaration(request["a"], f"{path}.a", rules)
    b = parse_declaration(request["b"], f"{path}.b", rules)
    return {"order": compare(a, b, rules)}


__all__ = ["Proof", "check", "is_true", "parse_hand", "lookup_check", "lookup_compare"]
