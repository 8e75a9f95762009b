"""Guandan combinations (§4, §5) with the wild hearts (§6), their order (§3) and readings (W-11).

A *reading* says what a set of cards is played as: `type`, `rank`, `length` (and, as a witness,
what each wild stands for). One set of cards may have several readings (W-11: at level 4,
♥4 ♥4 8 8 9 9 is a tube to 9, a tube to 10 or a plate to 9), so a play is the pair
(cards, reading), and two substitutions of the wilds that give the same type, rank and length
are the same play: `Reading` equality and hashing ignore `wilds`.

Vocabulary:

- *level order* (L-3): 2 < … < K < A < level rank < BJ < RJ; `level_value` gives 2…17. Used for
  singles, pairs, triples, full houses (by the triple) and N-of-a-kind bombs.
- *natural order* (L-4, L-6): A(1), 2, …, K, A(14); sequences are named by their top card, so
  A-2-3-4-5 has rank "5" and 10-J-Q-K-A rank "A"; `sequence_top` gives 5…14. Used for straights,
  tubes, plates (D13) and straight flushes.
- *the wild* (W-1): the heart card of the level rank, `"H" + level`; two of them in the 108.

Cards are canonical strings of `engine.cards`; `level` is a rank string ("2" … "A", "T" taken
for "10"). The option values that change combinations are the frozen `ComboRules`.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence  # not typing's: isinstance through it costs ~1 µs
from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from typing import Any

from engine.cards import JOKERS, RANKS, parse_cards
from engine.errors import shown

TYPES: tuple[str, ...] = ("single", "pair", "triple", "full_house", "straight", "tube", "plate",
                          "bomb", "straight_flush", "four_jokers")
BOMB_TYPES = frozenset({"bomb", "straight_flush", "four_jokers"})
SEQUENCE_TYPES = frozenset({"straight", "tube", "plate", "straight_flush"})
SET_TYPES = frozenset({"single", "pair", "triple", "bomb"})

# Fixed lengths; a bomb is 4 … max_bomb cards (B-1, D9).
MAX_PLAY = 10  # the most cards one play holds: a bomb of ten (B-1)
LENGTH = {"single": 1, "pair": 2, "triple": 3, "full_house": 5, "straight": 5, "tube": 6,
          "plate": 6, "straight_flush": 5, "four_jokers": 4}
# Sequences: positions of the run (A low = 1, A high = 14) and cards per position.
RUN = {"straight": (5, 1), "straight_flush": (5, 1), "tube": (3, 2), "plate": (2, 3)}

_POSITION = {r: i + 1 for i, r in enumerate(RANKS)}  # natural position, A = 1 … K = 13


@dataclass(frozen=True)
class ComboRules:
    """The option values (rules page §10) that change what a combination is or how it ranks.

    Defaults are the `seed` preset (which, for combinations, equals `official`).
    """

    max_bomb: int = 10
    """D9: largest N-of-a-kind bomb (B-6); `8` in the alternative."""
    flush_as_straight: bool = False
    """D10: five natural same-suit consecutive cards may also be called a plain straight."""
    wild_self_first: bool = False
    """D11: a wild must stand for itself when the cards have any reading that way (W-13)."""
    fullhouse_same_rank: bool = False
    """D12: five cards that all read as one rank are also a full house (not only a 5-bomb)."""
    sequence_order: str = "natural"
    """D13: "natural" compares tubes and plates by natural top; "level" by the top's level order."""

    def __post_init__(self) -> None:
        if not 4 <= self.max_bomb <= 10:
            raise ValueError("max_bomb (D9) must be between 4 and 10")
        if self.sequence_order not in ("natural", "level"):
            raise ValueError('sequence_order (D13) must be "natural" or "level"')


SEED_RULES = ComboRules()
OFFICIAL_RULES = ComboRules()
PRESETS: dict[str, ComboRules] = {"seed": SEED_RULES, "official": OFFICIAL_RULES,
                                  "pagat": SEED_RULES}


def rules_from_options(options: Mapping[str, Any] | None = None) -> ComboRules:
    """A `ComboRules` from option values named as on the rules page (D9 `max_bomb`, D10
    `allow_as_straight`, D11 `wild_self_first`, D12 `fullhouse_same_rank`, D13 `sequence_order`);
    other keys are ignored (they belong to play, tribute or levels)."""
    if not options:
        return SEED_RULES
    return ComboRules(
        max_bomb=int(options.get("max_bomb", 10)),
        flush_as_straight=bool(options.get("allow_as_straight", False)),
        wild_self_first=bool(options.get("wild_self_first", False)),
        fullhouse_same_rank=bool(options.get("fullhouse_same_rank", False)),
        sequence_order=str(options.get("sequence_order", "natural")),
    )


@dataclass(frozen=True)
class Reading:
    """What a play is: `type` (one of TYPES), `rank` (the rank that compares; None only for
    four jokers), `length` (number of cards) and `wilds` (what each wild stands for, in order,
    as card strings; a wild standing for itself is its own card, e.g. "H7" at level 7).

    `wilds` is a witness, not identity: equality and hashing use (type, rank, length) only.
    """

    type: str
    rank: str | None
    length: int
    wilds: tuple[str, ...] = field(default=(), compare=False)


class ComboError(ValueError):
    """A play refused for what its cards are. `code` is the refusal code, `rule` the rule number
    it cites (docs/rules/guandan.md), `readings` the readings involved (e.g. the ambiguous ones)."""

    def __init__(self, code: str, rule: str, message: str, readings: Sequence[Reading] = ()):
        super().__init__(message)
        self.code = code
        self.rule = rule
        self.readings = list(readings)


# --- ranks and order ----------------------------------------------------------------------

def parse_level(level: object) -> str:
    """The level rank as a canonical rank string ("2" … "10", "J", "Q", "K", "A")."""
    if isinstance(level, int) and not isinstance(level, bool) and 2 <= level <= 10:
        return str(level)
    if isinstance(level, str):
        text = level.strip().upper()
        if text == "T":
            text = "10"
        if text in _POSITION:
            return text
    raise ValueError(f"{shown(level)} is not a level rank (expected '2' … '10', 'J', 'Q', 'K', 'A')")


def wild_card(level: str) -> str:
    """W-1: the wild is the heart of the level rank."""
    return "H" + level


def level_value(rank: str, level: str) -> int:
    """L-3: 2…K = 2…13, A = 14, the level rank 15, BJ 16, RJ 17."""
    if rank == "RJ":
        return 17
    if rank == "BJ":
        return 16
    if rank == level:
        return 15
    return 14 if rank == "A" else _POSITION[rank]


def sequence_top(rank: str) -> int:
    """L-4/L-6: natural value of a sequence's top card (A on top is 14; A is never a top as 1)."""
    return 14 if rank == "A" else _POSITION[rank]


def _rank_at(position: int) -> str:
    return RANKS[(position - 1) % 13]


def is_bomb(reading: Reading) -> bool:
    return reading.type in BOMB_TYPES


def power(reading: Reading, level: str, rules: ComboRules = SEED_RULES) -> tuple[int, int]:
    """A compare key. Bombs: (tier, value) with tier 8/10 for 4/5 cards, 11 for a straight
    flush, 2·N for N ≥ 6, 99 for four jokers (B-1, B-3, B-4, B-5). Non-bombs: (0, value), where
    value is the level order of the rank or the sequence top (C-8, D13); comparable only with
    the same type and length."""
    t = reading.type
    if t == "four_jokers":
        return (99, 0)
    rank = reading.rank or ""
    if t == "bomb":
        return (2 * reading.length, level_value(rank, level))
    if t == "straight_flush":
        return (11, sequence_top(rank))
    if t in ("tube", "plate") and rules.sequence_order == "level":
        return (0, level_value(rank, level))
    if t in SEQUENCE_TYPES:
        return (0, sequence_top(rank))
    return (0, level_value(rank, level))


def beats(reading: Reading, table: Reading, level: str, rules: ComboRules = SEED_RULES) -> bool:
    """Whether `reading` may be played on `table` (C-8, C-9, B-1, B-2): a bomb beats any
    non-bomb and a weaker bomb; a non-bomb beats only a strictly higher one of the same type
    and length; nothing beats four jokers; ties never beat."""
    level = parse_level(level)
    mine, theirs = reading.type in BOMB_TYPES, table.type in BOMB_TYPES
    if mine != theirs:
        return mine
    if mine:
        return power(reading, level, rules) > power(table, level, rules)
    if reading.type != table.type or reading.length != table.length:
        return False
    return power(reading, level, rules)[1] > power(table, level, rules)[1]


# --- canonical wilds (shared with the enumerator's tables) ---------------------------------

def full_house_pair_for_wilds(triple: str, level: str) -> str:
    """The rank two wilds stand for as the pair of a full house: themselves (the level) unless
    the triple is the level rank, then "2" (or "3" at level 2), so the five cards do not read
    as one rank (D12)."""
    if triple != level:
        return level
    return "2" if level != "2" else "3"


def canonical_wilds(rtype: str, rank: str | None, naturals: Sequence[str], n_wilds: int,
                    level: str) -> tuple[str, ...]:
    """The one witness `wilds` tuple given for a reading (the enumerator builds the same):
    sets: the heart of the rank; full house: triple first, then pair; sequences: the missing
    cards in ascending position, hearts, except a plain straight whose natural cards are all
    hearts uses spades and a straight flush uses the flush suit."""
    if not n_wilds or rank is None:
        return ()
    if rtype in SET_TYPES:
        return ("H" + rank,) * n_wilds
    if rtype == "full_house":
        kt = sum(1 for c in naturals if c[1:] == rank)
        jt = max(0, 3 - kt)
        jp = n_wilds - jt
        others = [c for c in naturals if c not in JOKERS and c[1:] != rank]
        if others:
            pair = others[0][1:]
        elif kt > 3:
            pair = rank
        else:
            pair = full_house_pair_for_wilds(rank, level)
        return ("H" + rank,) * jt + ("H" + pair,) * jp
    width, per = RUN[rtype]
    top = sequence_top(rank)
    have = Counter(c[1:] for c in naturals)
    suits = {c[0] for c in naturals}
    if rtype == "straight_flush":
        suit = next(iter(suits)) if suits else "H"
    elif rtype == "straight" and suits == {"H"}:
        suit = "S"
    else:
        suit = "H"
    out: list[str] = []
    for position in range(top - width + 1, top + 1):
        r = _rank_at(position)
        out += [suit + r] * (per - have[r])
    return tuple(out)


# --- readings of exactly some cards --------------------------------------------------------

def _run_top(positions: Counter[int], width: int, per: int) -> int | None:
    """Top of a run of `width` consecutive positions holding `per` cards each, A low or high."""
    if len(positions) != width or any(c != per for c in positions.values()):
        return None
    ps = sorted(positions)
    if ps[-1] - ps[0] == width - 1:
        return ps[-1]
    if ps[0] == 1:  # A high
        high = sorted(14 if p == 1 else p for p in ps)
        if high[-1] - high[0] == width - 1:
            return 14
    return None


def _shapes(counts: Counter[Any], n: int, bj: int, rj: int, rules: ComboRules) -> list[tuple[str, str | None]]:
    """(type, rank) of every reading of cards whose wilds have all been given ranks: `counts`
    maps natural position (1…13) to cards, `bj`/`rj` count jokers. Suits are the caller's."""
    out: list[tuple[str, str | None]] = []
    jokers = bj + rj
    if jokers == n:
        if n == 1:
            out.append(("single", "BJ" if bj else "RJ"))
        elif n == 2 and (bj == 2 or rj == 2):
            out.append(("pair", "BJ" if bj else "RJ"))  # C-2: two identical jokers only
        elif n == 4 and bj == 2 and rj == 2:
            out.append(("four_jokers", None))  # B-5
        return out
    if jokers:
        # C-4: only a full house can mix jokers (as its pair) with other cards.
        if n == 5 and (bj == 2) != (rj == 2) and jokers == 2 and len(counts) == 1:
            (p, c), = counts.items()
            if c == 3:
                out.append(("full_house", _rank_at(p)))
        return out
    if len(counts) == 1:
        (p, m), = counts.items()
        rank = _rank_at(p)
        if m <= 3:
            out.append((("single", "pair", "triple")[m - 1], rank))
        elif m <= rules.max_bomb:
            out.append(("bomb", rank))  # B-3, D9
        if m == 5 and rules.fullhouse_same_rank:
            out.append(("full_house", rank))  # D12 alternative
        return out
    if n == 5 and len(counts) == 2:
        for p, c in counts.items():
            if c == 3:
                out.append(("full_house", _rank_at(p)))  # C-4
    if n == 5:
        top = _run_top(counts, 5, 1)
        if top is not None:
            out.append(("straight", _rank_at(top)))  # C-5 (suits decided by the caller)
    if n == 6:
        top = _run_top(counts, 3, 2)
        if top is not None:
            out.append(("tube", _rank_at(top)))  # C-6
        top = _run_top(counts, 2, 3)
        if top is not None:
            out.append(("plate", _rank_at(top)))  # C-7
    return out


def _readings(cards: list[str], level: str, rules: ComboRules, self_only: bool
              ) -> dict[tuple[str, str | None], Reading]:
    """Every reading of `cards`, by (type, rank) (all have len(cards) cards)."""
    wild = wild_card(level)
    n = len(cards)
    n_wilds = cards.count(wild)
    bj, rj = cards.count("BJ"), cards.count("RJ")
    naturals = [c for c in cards if c != wild and c not in JOKERS]
    # keyed by what identifies a Reading (its type, rank and length: not its wilds), so a
    # reading is built once
    found: dict[tuple[str, str | None], Reading] = {}

    def add(rtype: str, rank: str | None) -> None:
        key = (rtype, rank)
        if key not in found:
            found[key] = Reading(rtype, rank, n, canonical_wilds(rtype, rank, naturals, n_wilds, level))

    if n == 0:
        return found
    if n_wilds == n:  # W-4, W-5: wilds alone are level cards
        if n <= 2:
            add(("single", "pair")[n - 1], level)
        return found
    base = Counter(_POSITION[c[1:]] for c in naturals)
    suits = {c[0] for c in naturals}
    one_suit = len(suits) == 1
    if self_only:
        assignments: Iterable[tuple[int, ...]] = [(_POSITION[level],) * n_wilds]
    else:
        assignments = combinations_with_replacement(range(1, 14), n_wilds)
    for assigned in assignments:
        if assigned:
            counts = base.copy()
            counts.update(assigned)
        else:  # no wild to place: the naturals' counts as they are (_shapes only reads them)
            counts = base
        for rtype, rank in _shapes(counts, n, bj, rj, rules):
            if rtype == "straight":
                if self_only:  # the wilds are hearts
                    flush = one_suit and suits == {"H"}
                    if flush:
                        add("straight_flush", rank)
                    if not flush or rules.flush_as_straight:
                        add("straight", rank)
                    continue
                if one_suit:
                    add("straight_flush", rank)  # B-4 (wilds declared in the suit, W-10)
                if n_wilds or not one_suit or rules.flush_as_straight:
                    add("straight", rank)  # C-5, W-10, D10
            else:
                add(rtype, rank)
    return found


def readings(cards: Iterable[str], level: object, rules: ComboRules = SEED_RULES) -> list[Reading]:
    """Every reading of exactly these cards (§4–§6), each (type, rank, length) once, in TYPES
    order then by rank; empty when the cards form no combination. Cards are parsed (CardError
    on a bad token); with D11 the wilds stand for themselves whenever that gives a reading."""
    cards = parse_cards(cards)
    level = parse_level(level)
    found = _readings(cards, level, rules, False)
    if rules.wild_self_first and wild_card(level) in cards and found:
        own = _readings(cards, level, rules, True)
        if own:
            found = own
    if len(found) < 2:  # most plays read one way: nothing to order
        return list(found.values())
    return sorted(found.values(), key=lambda r: (TYPES.index(r.type), r.length,
                                                  power(r, level, rules)))


# --- JSON -----------------------------------------------------------------------------------

def reading_to_json(reading: Reading) -> dict[str, Any]:
    """{"type", "rank", "length", "wilds"}; rank is null for four jokers."""
    return {"type": reading.type, "rank": reading.rank, "length": reading.length,
            "wilds": list(reading.wilds)}


_TOPS = {  # lowest legal top per sequence type (L-6)
    "straight": 5, "straight_flush": 5, "tube": 3, "plate": 2,
}


def reading_from_json(data: object) -> Reading:
    """A reading from a client: {"type", "rank", "length"?, "wilds"?}. `length` may be left out
    except for a bomb; `wilds` is optional and informational (a play is matched on type, rank
    and length). Raises ValueError naming what is wrong."""
    if not isinstance(data, Mapping):
        raise ValueError("a reading must be an object {type, rank, length?}")
    unknown = set(data) - {"type", "rank", "length", "wilds"}
    if unknown:
        raise ValueError(f"unknown reading field(s): {', '.join(sorted(map(str, unknown)))}")
    rtype = data.get("type")
    if rtype not in TYPES:
        raise ValueError(f"reading type {shown(rtype)} is not one of {', '.join(TYPES)}")
    length = data.get("length")
    if length is not None and (not isinstance(length, int) or isinstance(length, bool)):
        raise ValueError("reading length must be an integer")
    if rtype == "bomb":
        if length is None:
            raise ValueError("a bomb reading needs its length (4 … 10 cards)")
        if not 4 <= length <= 10:
            raise ValueError(f"a bomb has 4 to 10 cards, not {length}")
    else:
        if length is None:
            length = LENGTH[rtype]
        elif length != LENGTH[rtype]:
            raise ValueError(f"a {rtype} has exactly {LENGTH[rtype]} cards, not {length}")
    raw = data.get("rank")
    if rtype == "four_jokers":
        if raw is not None:
            raise ValueError("a four_jokers reading has rank null")
        rank = None
    else:
        if not isinstance(raw, str):
            raise ValueError(f"a {rtype} reading needs a rank string")
        text = raw.strip().upper()
        rank = "10" if text == "T" else text
        if rank in JOKERS:
            if rtype not in ("single", "pair"):
                raise ValueError(f"a {rtype} cannot be of jokers (C-3, L-5)")
        elif rank not in _POSITION:
            raise ValueError(f"{shown(raw)} is not a rank ('2' … '10', 'J', 'Q', 'K', 'A', 'BJ', 'RJ')")
        elif rtype in _TOPS and sequence_top(rank) < _TOPS[rtype]:
            raise ValueError(f"a {rtype} is named by its top card; {rank} cannot be one (L-6)")
    wilds = data.get("wilds", ())
    if wilds is None:
        wilds = ()
    if not isinstance(wilds, (list, tuple)) or len(wilds) > 2:
        raise ValueError("reading wilds must be a list of at most two cards")
    wilds = tuple(parse_cards(wilds))
    if any(c in JOKERS for c in wilds):
        raise ValueError("a wild never stands for a joker (W-2)")
    return Reading(rtype, rank, length, wilds)


# --- the lookup and the W-11 choice ---------------------------------------------------------

def classify(cards: Iterable[str], level: object, rules: ComboRules = SEED_RULES,
             table: Reading | Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The `classify` lookup: {"readings": [reading JSON…]} and, when a table reading is given,
    each reading JSON also carries "beats" (bool), and "beats" at the top lists whether any does."""
    level = parse_level(level)
    if table is not None and not isinstance(table, Reading):
        table = reading_from_json(table)
    found = readings(cards, level, rules)
    out = []
    for r in found:
        item = reading_to_json(r)
        if table is not None:
            item["beats"] = beats(r, table, level, rules)
        out.append(item)
    answer: dict[str, Any] = {"readings": out}
    if table is not None:
        answer["beats"] = any(item["beats"] for item in out)
    return answer


def choose_reading(cards: Iterable[str], level: object, rules: ComboRules = SEED_RULES,
                   declared: Reading | Mapping[str, Any] | None = None,
                   table: Reading | None = None) -> Reading:
    """The reading a play is adjudicated under (W-11), or ComboError:

    - `not_a_combination` (rule 4): the cards have no reading;
    - `reading_not_available` (W-11): the declared reading is not one of the cards' readings;
    - `does_not_beat` (C-8; B-2 when the table is a bomb): following, and the (declared or every)
      reading does not beat the table;
    - `ambiguous_reading` (W-11): nothing declared and several readings are legal
      (`readings` lists them).
    """
    level = parse_level(level)
    if declared is not None and not isinstance(declared, Reading):
        declared = reading_from_json(declared)
    found = readings(cards, level, rules)
    if not found:
        raise ComboError("not_a_combination", "4", "these cards form no combination")
    if declared is not None:
        match = [r for r in found if r == declared]
        if not match:
            raise ComboError("reading_not_available", "W-11",
                             "the declared reading is not a reading of these cards", found)
        legal = match
    else:
        legal = found
    if table is not None:
        legal = [r for r in legal if beats(r, table, level, rules)]
        if not legal:
            rule = "B-2" if is_bomb(table) else "C-8"
            raise ComboError("does_not_beat", rule, "no reading of these cards beats the table",
                             found)
    if len(legal) > 1:
        raise ComboError("ambiguous_reading", "W-11",
                         "these cards have several legal readings; declare one", legal)
    return legal[0]


__all__ = [
    "BOMB_TYPES", "ComboError", "ComboRules", "LENGTH", "MAX_PLAY", "OFFICIAL_RULES", "PRESETS", "Reading",
    "SEED_RULES", "SEQUENCE_TYPES", "SET_TYPES", "TYPES", "beats", "canonical_wilds", "choose_reading",
    "classify", "full_house_pair_for_wilds", "is_bomb", "level_value", "parse_level", "power",
    "reading_from_json", "reading_to_json", "readings", "rules_from_options", "sequence_top",
    "wild_card",
]
