"""Daifugo plays: what a set of cards is as a play, whether it may follow the field, what it
triggers, which reading the player meant, and every legal play of a hand.

Rule numbers are those of docs/rules/daifugo.md (D1-D25, U1-U20, options D-a..D-s).

Vocabulary
----------
* A **play** (`Play`) is one *reading* of the cards put down: a single, a set (2+ cards of one
  rank) or stairs (3+ consecutive cards of one suit). Jokers are wild in sets and stairs (D7);
  a play of jokers only (a lone joker, or the two jokers together) is never wild: it is the
  strongest play of its size (D7, U9).
* `Play.jokers` lists, in the order the jokers appear in `Play.cards`, the card each joker
  stands for (the action's `jokers` field):
    - a card `<suit><rank>` ("S2", "H10");
    - `*<rank>` ("*7"): the joker of a 5- or 6-card set, when all four suits of the rank are
      already in the set (UECda keeps it in row 4);
    - `<suit>-` / `<suit>+`: a joker standing in stairs just below the lowest / just above the
      highest rank of the stair order (standard form: below 3 / above 2, UECda columns 0 and
      14; seed form: the numbers 0 and 15).
* Strength order (D2): 3 < 4 < ... < K < A < 2 (indices 1..13, the UECda columns); reversed
  while `FieldState.reversed` (revolution XOR J-back, D12/D16). The lone joker stays strongest.
* `FieldState` is what the predicates need of the field: the top play, revolution, J-back and
  the lock. `apply_play` gives the field after a play and everything the play triggers;
  `cleared(field)` is the field after it clears (revolution kept, J-back and lock ended).

Refusal codes are stable snake_case; `REFUSALS[code]` gives (rule, English, Japanese).
"""
from __future__ import annotations

from dataclasses import dataclass, field as dc_field, replace
from functools import lru_cache
from itertools import combinations
from typing import Any, Iterable, Iterator, Optional, Sequence

from engine.cards import JOKERS, RANKS, SUITS, deck_52, first_repeated, parse_cards

from .rules import SEED, PlayRules

SINGLE, SET, STAIRS = "single", "set", "stairs"

# D2: strength order, index = UECda column (3 -> 1 ... A -> 12, 2 -> 13).
ORDER: tuple[str, ...] = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
STRENGTH = {r: i + 1 for i, r in enumerate(ORDER)}
# Seed-form stairs numbers (seed ③): A = 1 or 14, 2 = 2, ..., J 11, Q 12, K 13; joker 0-15.
SEED_NUMBER = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
               "J": 11, "Q": 12, "K": 13}
_SEED_RANK = {v: k for k, v in SEED_NUMBER.items()}
_SEED_RANK.update({1: "A", 14: "A"})
_MAXPOS = {"standard": 14, "seed": 15}

REFUSALS: dict[str, tuple[str, str, str]] = {
    "cards_empty": ("D5", "A play needs at least one card.", "カードを1枚以上出してください。"),
    "cards_duplicate": ("D5", "{card} is listed twice.", "{card}が2回含まれています。"),
    "jokers_not_in_game": ("D1", "This game is played with fewer jokers.",
                           "このゲームのジョーカーの枚数を超えています。"),
    "not_a_combination": ("D5", "These cards are not a single, a set of one rank or stairs.",
                          "1枚出し・同じ数字の組・階段のいずれにもなっていません。"),
    "stairs_off": ("D5", "Stairs are not played under these rules.",
                   "このルールでは階段は出せません。"),
    "joker_reading_invalid": ("D7", "The jokers cannot stand for those cards here.",
                              "ジョーカーはそのカードの代わりになれません。"),
    "joker_alone_not_wild": ("D7", "Jokers played on their own stand for no card.",
                             "ジョーカーだけで出す場合は、ほかのカードの代わりにはなりません。"),
    "ambiguous_reading": ("D7", "The jokers can be read more than one way: say what each "
                          "stands for.", "ジョーカーの読み方が複数あります。何の代わりか指定してください。"),
    "form_mismatch": ("D6", "The play must have the same form as the field.",
                      "場と同じ形(1枚・組・階段)で出してください。"),
    "count_mismatch": ("D6", "The play must have as many cards as the field.",
                       "場と同じ枚数で出してください。"),
    "not_stronger": ("D6", "The play must be strictly stronger than the field.",
                     "場より強いカードでなければ出せません。"),
    "suit_locked": ("D14", "The field is locked to its suits.", "縛りのため、同じマークでしか出せません。"),
    "number_locked": ("D14", "The field is locked to the next step up.",
                      "縛りのため、次の数字でしか出せません。"),
    "spade3_return_after_pass": ("D15", "A player who has passed cannot return the joker "
                                 "with the spade 3.", "パスした後はスペ3返しはできません。"),
    "jack_back_off": ("D16", "J-back is not declared under these rules.",
                      "このルールではJバックは宣言できません。"),
    "jack_back_needs_jack": ("D16", "J-back is declared with a J.",
                             "JバックはJを出すときに宣言します。"),
    "jack_back_limit_reached": ("D16", "J-back has been used as often as this deal allows.",
                                "このゲームで使えるJバックの回数を使い切りました。"),
}


class PlayError(ValueError):
    """A play refused: `code` (see REFUSALS), `rule`, and for `ambiguous_reading` or a bad
    `jokers` list the possible `readings` (each a list of stand-ins, as `Play.jokers`)."""

    def __init__(self, code: str, readings: Sequence[Sequence[str]] = (),
                 details: Optional[dict[str, Any]] = None):
        self.code = code
        self.rule, self.en, self.ja = REFUSALS[code]
        self.readings = [list(r) for r in readings]
        self.details = dict(details or {})
        if "{" in self.en:  # a message naming its details (cards_duplicate's {card})
            self.en, self.ja = self.en.format_map(self.details), self.ja.format_map(self.details)
        if self.readings:
            self.details.setdefault("readings", self.readings)
        super().__init__(f"{code} ({self.rule}): {self.en}")


class AmbiguousReading(PlayError):
    """More than one legal reading of the jokers (code `ambiguous_reading`)."""

    def __init__(self, readings: Sequence[Sequence[str]]):
        super().__init__("ambiguous_reading", readings)


# --------------------------------------------------------------------------------------------
# Plays
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Play:
    """One reading of the cards put down.

    cards       the cards, canonical, in the order given
    form        "single" | "set" | "stairs"
    jokers      the stand-in of each joker, in the order the jokers appear in `cards`;
                empty for a play of jokers only
    rank        single/set: the rank read; None for a play of jokers only
    suit        stairs: the suit
    low, high   stairs: first and last position (standard: 0..14, seed: 0..15);
                single/set: the strength index (1..13), 14 for a play of jokers only
    stairs_form stairs: "standard" | "seed"
    """
    cards: tuple[str, ...]
    form: str
    jokers: tuple[str, ...] = ()
    rank: Optional[str] = None
    suit: Optional[str] = None
    low: int = 0
    high: int = 0
    stairs_form: Optional[str] = None

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def real_cards(self) -> tuple[str, ...]:
        return tuple(c for c in self.cards if c not in JOKERS)

    @property
    def has_joker(self) -> bool:
        return any(c in JOKERS for c in self.cards)

    @property
    def jokers_only(self) -> bool:
        """A lone joker or the joker pair: never wild, strongest of its size (D7)."""
        return self.form != STAIRS and self.rank is None

    @property
    def is_lone_joker(self) -> bool:
        return self.form == SINGLE and self.rank is None

    @property
    def ranks(self) -> tuple[Optional[str], ...]:
        """The rank each card reads as (jokers as their stand-in; None: no rank)."""
        if self.form != STAIRS:
            return (self.rank,) * self.size
        return tuple(_pos_rank(self.stairs_form, p) for p in range(self.low, self.high + 1))

    @property
    def suits(self) -> frozenset[str]:
        """The suits the play shows, jokers under the suit they stand in (U12)."""
        if self.form == STAIRS:
            # a stairs reading always has its suit (_stairs_readings); no check on this hot path
            return frozenset((self.suit,))  # type: ignore[arg-type]
        out = {c[0] for c in self.real_cards}
        out.update(j[0] for j in self.jokers if j[0] in SUITS)
        return frozenset(out)

    def count(self, rank: str) -> int:
        """How many cards of the play read as `rank` (jokers included)."""
        return sum(1 for r in self.ranks if r == rank)

    def key(self, rules: PlayRules = SEED) -> tuple[Any, ...]:
        """Identity of the play for listing: readings that differ only in which joker stands
        where, or (without a suit lock) in the suit a set's joker stands for, are one play."""
        stand = self.jokers
        if self.form == SET and not rules.suits_matter:
            stand = tuple("*" + (self.rank or "") for _ in stand)
        return (self.form, self.stairs_form, self.rank, self.suit, self.low, self.high,
                tuple(sorted(self.cards)), tuple(sorted(stand)))

    def to_action(self) -> dict[str, Any]:
        """The fields of a `play` action for this reading."""
        out: dict[str, Any] = {"cards": list(self.cards)}
        if self.jokers:
            out["jokers"] = list(self.jokers)
        return out

    def __str__(self) -> str:
        txt = " ".join(self.cards)
        if self.jokers:
            txt += " (joker" + ("s" if len(self.jokers) > 1 else "") + " as " + \
                   ", ".join(self.jokers) + ")"
        return txt


def _pos_rank(form: Optional[str], pos: int) -> Optional[str]:
    if form == "seed":
        return _SEED_RANK.get(pos)
    return ORDER[pos - 1] if 1 <= pos <= 13 else None


def _stand_name(form: str, suit: str, pos: int) -> str:
    rank = _pos_rank(form, pos)
    if rank is not None:
        return suit + rank
    return suit + ("-" if pos == 0 else "+")


def _real_positions(form: str, rank: str) -> tuple[int, ...]:
    if form == "seed":
        return (1, 14) if rank == "A" else (SEED_NUMBER[rank],)
    return (STRENGTH[rank],)


def _all_readings(cards: Sequence[str], rules: PlayRules) -> list[Play]:
    """Every reading of `cards` (already canonical) as a play, one per distinct multiset of
    stand-ins; [] when the cards are no play under `rules`."""
    cards = tuple(cards)
    n = len(cards)
    if n == 0 or len(set(cards)) != n:
        return []
    reals = [c for c in cards if c not in JOKERS]
    nj = n - len(reals)
    if nj > rules.jokers:
        return []
    if not reals:
        if nj == 1:
            return [Play(cards, SINGLE, (), None, None, 14, 14)]
        return [Play(cards, SET, (), None, None, 14, 14)]  # the joker pair (D7, seed 追加①)
    out: list[Play] = []
    ranks = {c[1:] for c in reals}
    if len(ranks) == 1:
        rank = reals[0][1:]
        idx = STRENGTH[rank]
        if n == 1:
            out.append(Play(cards, SINGLE, (), rank, None, idx, idx))
        else:
            free = [s for s in SUITS if s + rank not in reals]
            stars = max(0, nj - len(free))
            for suits in combinations(free, nj - stars):
                stand = tuple(s + rank for s in suits) + ("*" + rank,) * stars
                out.append(Play(cards, SET, stand, rank, None, idx, idx))
    if rules.stairs != "off" and n >= 3 and len({c[0] for c in reals}) == 1:
        out.extend(_stairs_readings(cards, reals, nj, rules.stairs))
    return out


def _stairs_readings(cards: tuple[str, ...], reals: list[str], nj: int,
                     form: str) -> Iterator[Play]:
    suit = reals[0][0]
    n = len(cards)
    maxpos = _MAXPOS[form]
    choices = [_real_positions(form, c[1:]) for c in reals]
    seen = set()

    def place(i: int, used: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if i == len(choices):
            yield used
            return
        for p in choices[i]:
            if p not in used:
                yield from place(i + 1, used + (p,))

    for used in place(0, ()):
        lo, hi = min(used), max(used)
        if hi - lo + 1 > n:
            continue
        for a in range(max(0, hi - n + 1), min(lo, maxpos - n + 1) + 1):
            holes = [p for p in range(a, a + n) if p not in used]
            stand = tuple(_stand_name(form, suit, p) for p in holes)
            if (a, stand) in seen:
                continue
            seen.add((a, stand))
            yield Play(cards, STAIRS, stand, None, suit, a, a + n - 1, form)


def readings(cards: Iterable[str], rules: PlayRules = SEED) -> list[Play]:
    """Every way the cards can be read as a play under `rules`, each distinct play once (see
    `Play.key`); [] when they are no play. Field-independent: filter with `can_follow`."""
    out, seen = [], set()
    for play in _all_readings(tuple(parse_cards(cards)), rules):
        k = play.key(rules)
        if k not in seen:
            seen.add(k)
            out.append(play)
    return out


def _parse_stand_in(token: object) -> str:
    if not isinstance(token, str):
        raise PlayError("joker_reading_invalid", details={"token": repr(token)})
    text = token.strip().upper()
    if len(text) >= 2 and text[0] in SUITS + ("*",):
        rest = "10" if text[1:] == "T" else text[1:]
        if rest in RANKS or (text[0] != "*" and rest in ("-", "+")):
            return text[0] + rest
    raise PlayError("joker_reading_invalid", details={"token": token})


def read_play(cards: Iterable[str], jokers: Optional[Sequence[str]], rules: PlayRules = SEED
              ) -> Play:
    """The one reading of `cards` the stand-ins `jokers` name (field-independent); with no
    `jokers`, the only reading there is (AmbiguousReading when there are several). Raises
    PlayError for cards that are no play or stand-ins no reading has."""
    cards = tuple(parse_cards(cards))
    all_ = _check_cards(cards, rules)
    n_jokers = sum(1 for c in cards if c in JOKERS)
    given = tuple(_parse_stand_in(t) for t in (jokers or ()))
    if all(c in JOKERS for c in cards) and given:
        raise PlayError("joker_alone_not_wild")
    if not given:
        plays = _dedupe(all_, rules)
        if len(plays) == 1:
            return plays[0]
        if n_jokers:
            raise AmbiguousReading([p.jokers for p in plays])
    if len(given) != n_jokers:
        raise PlayError("joker_reading_invalid", [p.jokers for p in _dedupe(all_, rules)],
                        {"expected": n_jokers})
    for play in all_:
        if sorted(play.jokers) == sorted(given):
            return replace(play, jokers=given)
    raise PlayError("joker_reading_invalid", [p.jokers for p in _dedupe(all_, rules)])


def _check_cards(cards: tuple[str, ...], rules: PlayRules) -> list[Play]:
    if not cards:
        raise PlayError("cards_empty")
    if len(set(cards)) != len(cards):
        raise PlayError("cards_duplicate", details={"card": first_repeated(cards)})
    if sum(1 for c in cards if c in JOKERS) > rules.jokers:
        raise PlayError("jokers_not_in_game")
    all_ = _all_readings(cards, rules)
    if not all_:
        if rules.stairs == "off" and len(cards) >= 3 and \
                _all_readings(cards, replace(rules, stairs="standard")):
            raise PlayError("stairs_off")
        raise PlayError("not_a_combination")
    return all_


def _dedupe(plays: Iterable[Play], rules: PlayRules) -> list[Play]:
    out, seen = [], set()
    for p in plays:
        k = p.key(rules)
        if k not in seen:
            seen.add(k)
            out.append(p)
    return out


# --------------------------------------------------------------------------------------------
# The field
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class FieldState:
    """What the play predicates need of the field.

    top            the last play on the field; None when the field is clear (a lead)
    revolution     D12: a revolution is in force (lasts the deal, toggled by revolutions)
    jack_back      D16: J-back reversal in force (ends when the field clears)
    locked_suits   D14: the suits every play must show; None: no suit lock
    sequence_lock  D14 / D-j: every play must be exactly one step stronger than the top
    """
    top: Optional[Play] = None
    revolution: bool = False
    jack_back: bool = False
    locked_suits: Optional[frozenset[str]] = None
    sequence_lock: bool = False

    @property
    def reversed(self) -> bool:
        """Strength order reversed: revolution XOR J-back (D12, D16)."""
        return self.revolution != self.jack_back

    @property
    def locked(self) -> bool:
        return self.locked_suits is not None or self.sequence_lock


def cleared(field: FieldState) -> FieldState:
    """The field after it clears (D9): empty, J-back and lock ended, revolution kept."""
    return FieldState(revolution=field.revolution)


def _beats(play: Play, top: Play, rev: bool) -> bool:
    """D6 strength test once form and count are known to fit."""
    if top.form == STAIRS:
        if play.stairs_form == "seed":
            return play.high <= top.high - 1 if rev else play.low >= top.low + 1
        return play.high < top.low if rev else play.low > top.high
    if play.form == STAIRS:  # seed-form stairs on a single: its weak end must beat the top
        if top.jokers_only:
            return False
        rank = _pos_rank("seed", play.high if rev else play.low)
        if rank is None:
            return False
        return STRENGTH[rank] < top.low if rev else STRENGTH[rank] > top.low
    if top.jokers_only:
        return False
    if play.jokers_only:
        return True
    return play.low < top.low if rev else play.low > top.low


def is_next_step(play: Play, top: Play, reversed_: bool) -> bool:
    """D14 / D-j: `play` is exactly one step stronger than `top` (the sequence locks)."""
    if play.jokers_only or top.jokers_only:
        return False
    if top.form == STAIRS and play.form == STAIRS:
        if play.stairs_form == "seed":
            return play.high == top.high - 1 if reversed_ else play.low == top.low + 1
        return play.high == top.low - 1 if reversed_ else play.low == top.high + 1
    if STAIRS in (top.form, play.form):
        return False
    return play.low == top.low + (-1 if reversed_ else 1)


def is_spade3_return(play: Play, field: FieldState, rules: PlayRules) -> bool:
    """D15: the real ♠3 alone on a lone joker (`single_joker`), or on any play holding a
    joker (`any_joker`). A joker standing as ♠3 never returns (U10)."""
    top = field.top
    if top is None or rules.spade3_return == "off" or play.cards != ("S3",):
        return False
    if rules.spade3_return == "single_joker":
        return top.is_lone_joker
    return top.has_joker


def can_follow(play: Play, field: FieldState, rules: PlayRules = SEED, *,
               has_passed: bool = False) -> tuple[bool, Optional[str]]:
    """(True, None) when `play` may go on `field`, else (False, code). Checks, in order:
    spade-3 return (D15), form and count (D6; seed-form stairs may go on a single, D5),
    strength (D6) and lock (D14; a lone joker is exempt when `lone_joker_ignores_lock`).
    A lead (empty field) takes any play. `has_passed` matters only for the spade-3 return."""
    top = field.top
    if top is None:
        return True, None
    if is_spade3_return(play, field, rules):
        return (False, "spade3_return_after_pass") if has_passed else (True, None)
    if top.form == STAIRS:
        if play.form != STAIRS:
            return False, "form_mismatch"
        if play.size != top.size:
            return False, "count_mismatch"
    elif play.form == STAIRS:
        if not (play.stairs_form == "seed" and top.form == SINGLE):
            return False, "form_mismatch"
    elif play.size != top.size:
        return False, "count_mismatch"
    if not _beats(play, top, field.reversed):
        return False, "not_stronger"
    if not (play.is_lone_joker and rules.lone_joker_ignores_lock):
        if field.locked_suits is not None and play.suits != field.locked_suits:
            return False, "suit_locked"
        if field.sequence_lock and not is_next_step(play, top, field.reversed):
            return False, "number_locked"
    return True, None


# --------------------------------------------------------------------------------------------
# What a play triggers
# --------------------------------------------------------------------------------------------

def is_revolution(play: Play, rules: PlayRules = SEED) -> bool:
    """D12 / U7: a set of `set_revolution_min`+ cards (jokers count), stairs of
    `stairs_revolution_min`+ cards, or (D22, `triple_nine_revolution`) exactly three 9s."""
    if play.form == SET and play.rank is not None:
        if play.size >= rules.set_revolution_min:
            return True
        return rules.triple_nine_revolution and play.size == 3 and play.rank == "9"
    if play.form == STAIRS:
        return rules.stairs_revolution_min is not None and play.size >= rules.stairs_revolution_min
    return False


def is_eight_cut(play: Play, rules: PlayRules = SEED) -> bool:
    """D13 / U11: 8s (a joker standing as an 8 counts; a lone joker never is an 8), and
    stairs through 8 when `eight_cut_in_stairs`."""
    if not rules.eight_cut:
        return False
    if play.form == STAIRS:
        return rules.eight_cut_in_stairs and "8" in play.ranks
    return play.rank == "8"


def is_double_nine_cut(play: Play, rules: PlayRules = SEED) -> bool:
    """D21 (99 救急車): exactly two cards read as 9s clear the field like an 8-cut."""
    return rules.double_nine_cut and play.form == SET and play.size == 2 and play.rank == "9"


def triggers_jack_back(play: Play, rules: PlayRules = SEED, declared: bool = False) -> bool:
    """D16: whether the play toggles the J-back reversal (a joker standing as J counts)."""
    if "J" not in play.ranks or rules.jack_back == "off":
        return False
    if rules.jack_back == "declared":
        return declared
    return rules.jack_back == "any" or play.form != STAIRS


def check_jack_back_declaration(play: Play, rules: PlayRules, used: int = 0
                                ) -> tuple[bool, Optional[str]]:
    """D16 (seed ⑤): may this play carry the "J-BACK" declaration, `used` declarations having
    been made this deal?"""
    if rules.jack_back != "declared":
        return False, "jack_back_off"
    if "J" not in play.ranks:
        return False, "jack_back_needs_jack"
    if rules.jack_back_limit is not None and used >= rules.jack_back_limit:
        return False, "jack_back_limit_reached"
    return True, None


def five_skips(play: Play, rules: PlayRules = SEED) -> int:
    """D17 / D-m: players skipped after the player (per 5, or one if any 5)."""
    fives = play.count("5")
    if rules.five_skip == "per_card":
        return fives
    return 1 if rules.five_skip == "per_play" and fives else 0


def seven_pass_count(play: Play, rules: PlayRules = SEED) -> int:
    """D18: cards the player gives the next player (one per 7 played)."""
    return play.count("7") if rules.seven_pass else 0


def ten_discard_count(play: Play, rules: PlayRules = SEED) -> int:
    """D19: cards the player discards (one per 10 played)."""
    return play.count("10") if rules.ten_discard else 0


def reverses_direction(play: Play, rules: PlayRules = SEED) -> bool:
    """D20 / D-o: whether the direction of play turns round."""
    if rules.reverse_rank is None:
        return False
    n = play.count(str(rules.reverse_rank))
    return n % 2 == 1 if rules.reverse_even_cancels else n > 0


def forbidden_finish(play: Play, field: FieldState, rules: PlayRules = SEED) -> tuple[str, ...]:
    """D24 / D-k: the reasons (from `rules.forbidden_finish`) why finishing with `play` on
    `field` is a foul finish; () when it is not. Real cards count: joker = any joker card,
    top_rank = a real 2 (a real 3 while the order is reversed), eight = a real 8, jack = a real J,
    spade3_return = the play is a spade-3 return."""
    reals = [c[1:] for c in play.real_cards]
    top = "3" if field.reversed else "2"
    test = {"joker": lambda: play.has_joker, "top_rank": lambda: top in reals,
            "eight": lambda: "8" in reals, "jack": lambda: "J" in reals,
            "spade3_return": lambda: is_spade3_return(play, field, rules)}
    return tuple(f for f in rules.forbidden_finish if test[f]())


@dataclass(frozen=True)
class Outcome:
    """Everything one play does (`apply_play`). The player who played leads after a clear.

    field           the field after the play (already cleared when `clears`)
    clears          the field clears at once; clear_reason one of "spade3_return",
                    "eight_cut", "double_nine_cut", "strongest"
    revolution      the play toggled the revolution; jack_back: it toggled J-back
    lock            "formed" | "broken" | None
    skips, seven_pass, ten_discard  counts for D17, D18, D19; reverses: D20
    """
    field: FieldState
    clears: bool = False
    clear_reason: Optional[str] = None
    revolution: bool = False
    jack_back: bool = False
    lock: Optional[str] = None
    spade3_return: bool = False
    eight_cut: bool = False
    skips: int = 0
    seven_pass: int = 0
    ten_discard: int = 0
    reverses: bool = False
    effects: tuple[str, ...] = dc_field(default=())


def apply_play(field: FieldState, play: Play, rules: PlayRules = SEED, *,
               jack_back_declared: bool = False,
               pool: Optional[Sequence[str]] = None) -> Outcome:
    """The field after `play` (assumed legal: check `can_follow` first) and what it triggers.
    `pool`: the cards that could still answer, for `strongest_play_clears` (D9); default the
    whole deck (52 + `rules.jokers` jokers) less the play, i.e. "the strongest card" in the
    absolute sense of seed ⑧."""
    rev = field.reversed
    top = field.top
    sp3 = is_spade3_return(play, field, rules)
    revo = is_revolution(play, rules)
    jb = triggers_jack_back(play, rules, jack_back_declared)
    new_rev = field.revolution != revo
    new_jb = field.jack_back != jb
    locked_suits, seq = field.locked_suits, field.sequence_lock
    lock = None
    if sp3:
        pass  # D15: the return ignores the lock and forms none
    elif play.is_lone_joker and rules.lone_joker_ignores_lock:
        if field.locked and rules.lone_joker_clears_lock:
            locked_suits, seq, lock = None, False, "broken"
    elif top is not None and not field.locked and rules.lock != "off":
        same_suits = bool(play.suits) and play.suits == top.suits
        step = is_next_step(play, top, rev)
        if rules.lock == "suit" and same_suits:
            locked_suits, lock = play.suits, "formed"
        elif rules.lock == "suit_and_sequence" and same_suits and step:
            locked_suits, seq, lock = play.suits, True, "formed"
        elif rules.lock == "number" and step:
            seq, lock = True, "formed"
    eight = is_eight_cut(play, rules)
    after = FieldState(play, new_rev, new_jb, locked_suits, seq)
    reason = None
    if sp3 and rules.spade3_clears:
        reason = "spade3_return"
    elif eight:
        reason = "eight_cut"
    elif is_double_nine_cut(play, rules):
        reason = "double_nine_cut"
    elif rules.strongest_play_clears and is_unbeatable(after, rules, pool):
        reason = "strongest"
    if reason:
        after = cleared(after)
    effects = tuple(name for name, on in (
        ("spade3_return", sp3), ("revolution", revo), ("jack_back", jb), ("eight_cut", eight),
        ("lock_" + (lock or ""), lock is not None), ("clear", reason is not None)) if on)
    return Outcome(after, reason is not None, reason, revo, jb, lock, sp3, eight,
                   five_skips(play, rules), seven_pass_count(play, rules),
                   ten_discard_count(play, rules), reverses_direction(play, rules), effects)


def full_deck(rules: PlayRules = SEED) -> list[str]:
    """The deck of `rules`: 52 cards and the first `rules.jokers` of BJ, RJ."""
    return deck_52() + list(JOKERS[:rules.jokers])


def is_unbeatable(field: FieldState, rules: PlayRules = SEED,
                  pool: Optional[Sequence[str]] = None) -> bool:
    """D9 (seed ⑧ 最強のカード): no play of `pool` (default: the deck less the top play) can
    follow `field`."""
    if field.top is None:
        return False
    if pool is None:
        return _unbeatable_in_deck(field, rules)
    return next(_iter_legal(tuple(pool), field, rules, False, True), None) is None


@lru_cache(maxsize=4096)
def _unbeatable_in_deck(field: FieldState, rules: PlayRules) -> bool:
    """is_unbeatable against the whole deck less the top play: it depends on the field and
    the rules only, so it is memoized (per worker)."""
    # is_unbeatable, the one caller, answered an empty field itself (field.top is a Play here)
    used = set(field.top.cards)  # type: ignore[union-attr]
    pool = tuple(c for c in full_deck(rules) if c not in used)
    return next(_iter_legal(pool, field, rules, False, True), None) is None


# --------------------------------------------------------------------------------------------
# Inference and enumeration
# --------------------------------------------------------------------------------------------

def infer_reading(cards: Iterable[str], jokers: Optional[Sequence[str]], field: FieldState,
                  rules: PlayRules = SEED, *, has_passed: bool = False) -> Play:
    """The play a `play` action means on `field`. With `jokers` given, that reading, checked;
    without, the only legal reading (AmbiguousReading, carrying the readings, when several
    are legal; the first reading's refusal when none is). Raises PlayError."""
    if jokers:
        play = read_play(cards, jokers, rules)
        ok, code = can_follow(play, field, rules, has_passed=has_passed)
        if not ok:
            assert code is not None, "can_follow names its refusal whenever it refuses"
            raise PlayError(code)
        return play
    all_ = _check_cards(tuple(parse_cards(cards)), rules)
    plays = all_ if len(all_) == 1 else _dedupe(all_, rules)
    verdicts = [(p, can_follow(p, field, rules, has_passed=has_passed)) for p in plays]
    legal = [p for p, (ok, _) in verdicts if ok]
    if len(legal) == 1:
        return legal[0]
    if legal:
        raise AmbiguousReading([p.jokers for p in legal])
    refusal = verdicts[0][1][1]
    assert refusal is not None, "no reading is legal, so can_follow refused the first, naming why"
    raise PlayError(refusal)


def legal_plays(hand: Iterable[str], field: FieldState, rules: PlayRules = SEED, *,
                has_passed: bool = False) -> list[Play]:
    """Every legal play of `hand` on `field`, each once (one reading per `Play.key`)."""
    return list(_iter_legal(tuple(parse_cards(hand)), field, rules, has_passed))


def _iter_legal(hand: tuple[str, ...], field: FieldState, rules: PlayRules,
                has_passed: bool, exists_only: bool = False) -> Iterator[Play]:
    seen = set()
    for cards in _candidates(hand, field, rules, exists_only):
        for play in _all_readings(cards, rules):
            k = play.key(rules)
            if k in seen:
                continue
            if can_follow(play, field, rules, has_passed=has_passed)[0]:
                seen.add(k)
                yield play


def _candidates(hand: tuple[str, ...], field: FieldState, rules: PlayRules,
                exists_only: bool = False) -> Iterator[tuple[str, ...]]:
    """Card subsets of the hand that may read as a play fitting the field's form and count
    (a superset of what can follow; `can_follow` decides). `exists_only`: enough subsets to
    find one legal play if there is any (a longer seed stair on a single implies its 3-card
    weak end)."""
    top = field.top
    reals = sorted({c for c in hand if c not in JOKERS}, key=_sort_key)
    jokers = sorted({c for c in hand if c in JOKERS})[:rules.jokers]
    joker_sets = [js for k in range(len(jokers) + 1) for js in combinations(jokers, k)]
    sets_ok = top is None or top.form != STAIRS
    stairs_ok = rules.stairs != "off" and (
        top is None or top.form == STAIRS or (rules.stairs == "seed" and top.form == SINGLE))
    size = top.size if top is not None else None
    if top is not None and "S3" in reals and rules.spade3_return != "off":
        yield ("S3",)
    if top is not None and top.jokers_only:
        return  # D7: only the spade-3 return answers a play of jokers only
    if sets_ok:
        by_rank: dict[str, list[str]] = {}
        for c in reals:
            by_rank.setdefault(c[1:], []).append(c)
        if size in (None, 1):
            for c in reals:
                yield (c,)
            for j in jokers:
                yield (j,)
        for group in by_rank.values():
            for k in range(1, len(group) + 1):
                for combo in combinations(group, k):
                    for js in joker_sets:
                        n = k + len(js)
                        if n >= 2 and (size is None or n == size):
                            yield combo + js
        if len(jokers) == 2 and size in (None, 2):
            yield tuple(jokers)
    if stairs_ok:
        # `size` is top.size here (top a stairs play): an int, not None
        lengths: Optional[list[int]] = \
            [size] if top is not None and top.form == STAIRS else None  # type: ignore[list-item]
        if exists_only and top is not None and top.form == SINGLE:
            lengths = [3]
        yield from _stairs_candidates(reals, jokers, rules.stairs, lengths)


def _stairs_candidates(reals: list[str], jokers: list[str], form: str,
                       lengths: Optional[list[int]]) -> Iterator[tuple[str, ...]]:
    maxpos = _MAXPOS[form]
    for suit in SUITS:
        at: dict[int, str] = {}
        for c in reals:
            if c[0] == suit:
                for p in _real_positions(form, c[1:]):
                    at[p] = c
        if not at:
            continue
        for n in (lengths or range(3, maxpos + 2)):
            for a in range(0, maxpos - n + 2):
                window = range(a, a + n)
                have = [p for p in window if p in at]
                need = n - len(have)
                if need > len(jokers) or not have:
                    continue
                # keep all held cards, or turn up to len(jokers) - need of them into jokers
                for drop in range(0, len(jokers) - need + 1):
                    for dropped in combinations(have, drop):
                        used = [at[p] for p in have if p not in dropped]
                        if not used or len(set(used)) != len(used):
                            continue
                        for js in combinations(jokers, need + drop):
                            yield tuple(used) + js


def _sort_key(card: str) -> tuple[int, int]:
    return STRENGTH[card[1:]], SUITS.index(card[0])
