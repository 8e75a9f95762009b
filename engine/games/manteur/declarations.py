"""Manteur declarations: the model, its parse, its order (B4–B10 of docs/rules/manteur.md).

A declaration is what a player announces without showing the hand, as JSON
`{"type": ..., "ranks": [...], "kickers": [...]}`:

- `type`: one of TYPES, low to high (B5; option B-a may put flush above full house);
- `ranks`: the named ranks of the combination (B6, B10), a prefix of
  high_card `[top]`, pair / three / four / five of a kind `[r]`, two_pair `[high, low]`,
  full_house `[triple, pair]`, straight and straight_flush `[top]`, flush up to five ranks
  highest first. Naming fewer (or none) is allowed and is lower (B6).
- `kickers`: named kickers, highest first (B7), only once every rank of the combination is
  named, and only as many as fit in five cards.

Ranks are the strings of `engine.cards` ("A", "2" … "10", "J", "Q", "K"); input may also use
"T" and lower case. Output is canonical.

`parse_declaration` turns client JSON into a `Declaration` or raises `DeclarationError` (an
`InputError`, so HTTP 422) naming the field, a stable code and the rule. `compare` / `sort_key`
give the total order of B9; `is_higher` gives the Refusal of B8 when a declaration does not
beat the previous one. Everything here is pure.
"""
from __future__ import annotations

from collections.abc import Mapping  # not typing's: isinstance through it costs ~1 µs
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from engine.errors import InputError
from engine.values import Refusal

GAME_ID = "manteur"

# B5: hand types, low to high (the default order; B-a may swap flush and full house).
TYPES: tuple[str, ...] = (
    "high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
    "four_of_a_kind", "straight_flush", "five_of_a_kind")

# B4: A high … 2 low. Values are only used for ordering.
RANK_VALUE: dict[str, int] = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
                              "10": 10, "J": 11, "Q": 12, "K": 13, "A": 14}
STANDARD_RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
PIQUET_RANKS: tuple[str, ...] = ("7", "8", "9", "10", "J", "Q", "K", "A")


@dataclass(frozen=True)
class Shape:
    """What a type may name (B10): how many ranks, how the named ranks must be ordered, how many
    cards the combination itself takes (the rest of five may be named kickers)."""

    max_ranks: int
    cards: int  # cards the combination itself takes
    max_kickers: int = 0  # kickers that fit in the rest of five cards
    ranks_order: str = ""  # "desc": highest first, distinct; "distinct": any order, distinct


SHAPES: dict[str, Shape] = {
    "high_card": Shape(1, 1, 4),
    "pair": Shape(1, 2, 3),
    "two_pair": Shape(2, 4, 1, "desc"),
    "three_of_a_kind": Shape(1, 3, 2),
    "straight": Shape(1, 5),
    "flush": Shape(5, 5, 0, "desc"),
    "full_house": Shape(2, 5, 0, "distinct"),
    "four_of_a_kind": Shape(1, 4, 1),
    "straight_flush": Shape(1, 5),
    "five_of_a_kind": Shape(1, 5),
}

# ---------------------------------------------------------------- the options that matter here

DECKS = ("standard52", "piquet32")
MIN_DECLARATIONS = ("high_card", "one_pair")


@dataclass(frozen=True)
class DeclarationRules:
    """The option values that change what may be declared, the order, or the truth test.
    Defaults are the project defaults (the seed's game). The other options of the table (B-d
    `opener_may_exchange`, B-e `next_round_starter`, B-g `penalty_limit`/`mode`, B-h
    `direction`) belong to the round state machine; B-i has no option (a declaration is about
    content only: natural and joker-made combinations are equal)."""

    deck: str = "standard52"  # B-a `deck`: standard52 | piquet32 (ranks 7..A only)
    jokers: int = 2  # B-a `jokers`: wild jokers in the deck; five_of_a_kind needs one (B5)
    flush_above_full_house: bool | None = None  # B-a: None = follow the deck (true for piquet32)
    allow_straights: bool = True  # B-b `allow_straights` (false also bars straight_flush)
    allow_flushes: bool = True  # B-b `allow_flushes` (false also bars straight_flush)
    min_declaration: str = "high_card"  # B-c `min_declaration`: high_card | one_pair
    ace_low_straight: bool = True  # B-f `ace_low_straight`: A-2-3-4-5 (piquet: A-7-8-9-10)

    def __post_init__(self) -> None:
        if self.deck not in DECKS:
            raise ValueError(f"deck must be one of {list(DECKS)}")
        if isinstance(self.jokers, bool) or not isinstance(self.jokers, int) or self.jokers < 0:
            raise ValueError("jokers must be a non-negative integer")
        if self.min_declaration not in MIN_DECLARATIONS:
            raise ValueError(f"min_declaration must be one of {list(MIN_DECLARATIONS)}")

    # Option names as the game will declare them, with the B-row each settles.
    OPTION_ROWS = {"deck": "B-a", "jokers": "B-a", "flush_above_full_house": "B-a",
                   "allow_straights": "B-b", "allow_flushes": "B-b", "min_declaration": "B-c",
                   "ace_low_straight": "B-f"}

    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None, path: str = "options"
                     ) -> "DeclarationRules":
        """The rules from a game's resolved options (other options are ignored). A bad value
        raises DeclarationError `option_invalid` naming `path.<option>`."""
        kwargs: dict[str, Any] = {}
        for name, row in cls.OPTION_ROWS.items():
            if options is None or name not in options:
                continue
            value = options[name]
            ok = {
                "deck": value in DECKS,
                "jokers": isinstance(value, int) and not isinstance(value, bool) and value >= 0,
                "flush_above_full_house": value is None or isinstance(value, bool),
                "allow_straights": isinstance(value, bool),
                "allow_flushes": isinstance(value, bool),
                "min_declaration": value in MIN_DECLARATIONS,
                "ace_low_straight": isinstance(value, bool),
            }[name]
            if not ok:
                raise make_error("option_invalid", f"{path}.{name}", option=name, row=row,
                             value=_show(value))
            kwargs[name] = value
        return cls(**kwargs)

    @property
    def ranks(self) -> tuple[str, ...]:
        """Ranks of the deck in use, low to high (B4, B-a)."""
        return PIQUET_RANKS if self.deck == "piquet32" else STANDARD_RANKS

    @property
    def flush_over_full_house(self) -> bool:
        """B-a: whether flush ranks above full house (by default only with piquet32)."""
        if self.flush_above_full_house is None:
            return self.deck == "piquet32"
        return self.flush_above_full_house

    @property
    def type_order(self) -> tuple[str, ...]:
        """B5 (with B-a): the hand types low to high."""
        return _type_order(self.flush_over_full_house)

    def straights(self) -> Mapping[str, tuple[str, ...]]:
        """Straight runs by their top rank, low to high: each run lists its five ranks from the
        top down. The ace-low run (B-f) has the A at the bottom and tops at 5 (piquet: 10)."""
        return _straights(self.deck, self.ace_low_straight)


DEFAULT_RULES = DeclarationRules()


@lru_cache(maxsize=4)
def _type_order(flush_over_full_house: bool) -> tuple[str, ...]:
    if not flush_over_full_house:
        return TYPES
    order = list(TYPES)
    i, j = order.index("flush"), order.index("full_house")
    order[i], order[j] = order[j], order[i]
    return tuple(order)


@lru_cache(maxsize=8)
def _straights(deck: str, ace_low: bool) -> Mapping[str, tuple[str, ...]]:
    ranks = PIQUET_RANKS if deck == "piquet32" else STANDARD_RANKS
    runs: dict[str, tuple[str, ...]] = {}
    if ace_low:
        runs[ranks[3]] = tuple(reversed(ranks[:4])) + ("A",)
    for top in range(4, len(ranks)):
        runs[ranks[top]] = tuple(reversed(ranks[top - 4:top + 1]))
    return MappingProxyType(runs)


# ---------------------------------------------------------------- the model


@dataclass(frozen=True)
class Declaration:
    """One declaration, canonical (ranks as engine.cards rank strings). Build it with
    `parse_declaration` to have it checked; constructing one directly checks nothing."""

    type: str
    ranks: tuple[str, ...] = ()
    kickers: tuple[str, ...] = ()

    @property
    def named(self) -> bool:
        """Whether every rank of the combination is named (the condition for kickers)."""
        return len(self.ranks) == SHAPES[self.type].max_ranks

    def to_json(self) -> dict[str, Any]:
        return to_json(self)


def to_json(d: Declaration) -> dict[str, Any]:
    """`{"type", "ranks", "kickers"}`; both lists always present (empty when nothing is named)."""
    return {"type": d.type, "ranks": list(d.ranks), "kickers": list(d.kickers)}


# ---------------------------------------------------------------- errors and refusals

# code: (rule, English, Japanese). Templates use the keyword arguments of _error / _refuse.
ERROR_MESSAGES: dict[str, tuple[str, str, str]] = {
    "declaration_not_object": (
        "B10", "a declaration is an object {{type, ranks?, kickers?}}",
        "宣言は {{type, ranks?, kickers?}} のオブジェクトです"),
    "field_unknown": (
        "B10", "unknown field {key!s}; a declaration has type, ranks and kickers",
        "不明な項目 {key!s} です。宣言の項目は type、ranks、kickers です"),
    "type_missing": (
        "B5", "the hand type is missing (one of {types})", "役(type)がありません({types}のいずれか)"),
    "type_unknown": (
        "B5", "{value} is not a hand type (one of {types})", "{value}は役ではありません({types}のいずれか)"),
    "five_of_a_kind_needs_jokers": (
        "B5", "five of a kind exists only with jokers, and this game has none",
        "ファイブカードはジョーカーがあるときだけ宣言できますが、このゲームにはジョーカーがありません"),
    "straights_not_allowed": (
        "B-b", "straights do not count in this game (allow_straights is off)",
        "このゲームではストレートは役になりません(allow_straights がオフ)"),
    "flushes_not_allowed": (
        "B-b", "flushes do not count in this game (allow_flushes is off)",
        "このゲームではフラッシュは役になりません(allow_flushes がオフ)"),
    "type_below_minimum": (
        "B-c", "the lowest declaration allowed is a pair (min_declaration is one_pair)",
        "宣言できる最低の役はワンペアです(min_declaration が one_pair)"),
    "ranks_not_list": (
        "B10", "ranks must be a list of ranks", "ranks はランクのリストです"),
    "too_many_ranks": (
        "B10", "{type} names at most {limit} rank(s) ({what})",
        "{type_ja}で宣言できるランクは{limit}つまでです({what})"),
    "rank_unknown": (
        "B4", "{value} is not a rank (A, K, Q, J, 10 … 2)",
        "{value}はランクではありません(A、K、Q、J、10〜2)"),
    "rank_not_in_deck": (
        "B-a", "{rank} is not in the {deck} deck (ranks {ranks})",
        "{rank}は{deck}のデッキにありません(ランクは{ranks})"),
    "rank_repeated": (
        "B10", "{rank} is named twice", "{rank}が2回宣言されています"),
    "ranks_not_descending": (
        "B10", "{type} names its ranks highest first: {rank} comes after {previous}",
        "{type_ja}のランクは高い順に宣言します({previous}の次に{rank}は来ません)"),
    "straight_top_invalid": (
        "B10", "a straight is named by its top card, and no straight tops at {rank} "
               "(possible tops: {tops})",
        "ストレートは最も高いカードで宣言します。{rank}が最高位になるストレートはありません(可能なのは{tops})"),
    "ace_low_straight_not_allowed": (
        "B-f", "the A-low straight topped by {rank} is not allowed (ace_low_straight is off)",
        "{rank}が最高位のAから始まるストレートは認められていません(ace_low_straight がオフ)"),
    "kickers_not_list": (
        "B10", "kickers must be a list of ranks", "kickers はランクのリストです"),
    "kickers_not_allowed": (
        "B10", "{type} takes no kickers: its combination uses all five cards",
        "{type_ja}は5枚すべてを使う役なので、キッカーは宣言できません"),
    "kickers_need_ranks": (
        "B10", "name every rank of the {type} before naming kickers",
        "キッカーを宣言する前に{type_ja}のランクをすべて宣言してください"),
    "too_many_kickers": (
        "B10", "{type} leaves room for at most {limit} kicker(s) in five cards",
        "{type_ja}に付けられるキッカーは{limit}枚までです"),
    "kicker_matches_rank": (
        "B10", "a {rank} kicker repeats the rank of the {type}; declare the bigger "
               "combination instead",
        "キッカーの{rank}は{type_ja}のランクと同じです。その場合はより強い役を宣言してください"),
    "kicker_not_below_high_card": (
        "B10", "kickers of a high card are lower cards: {rank} is not below {top}",
        "ハイカードのキッカーはそれより低いカードです。{rank}は{top}より低くありません"),
    "kickers_not_descending": (
        "B7", "kickers are named highest first: {rank} comes after {previous}",
        "キッカーは高い順に宣言します({previous}の次に{rank}は来ません)"),
    "hand_too_large": (
        "B3", "a Manteur hand holds at most 5 cards, not {count}",
        "マントゥールの手札は5枚までです({count}枚ではありません)"),
    "hand_card_repeated": (
        "B1", "{card} is in the hand twice; the deck holds each card once",
        "{card}が手札に2枚あります。デッキに同じカードは1枚しかありません"),
    "hand_card_not_in_deck": (
        "B-a", "{card} is not in the {deck} deck", "{card}は{deck}のデッキにありません"),
    "option_invalid": (
        "B.5", "{value} is not a valid value for option {option} (row {row})",
        "{value}はオプション{option}の値として正しくありません(表の{row})"),
}

# code: (rule, English, Japanese) of is_higher's refusals.
REFUSAL_MESSAGES: dict[str, tuple[str, str, str]] = {
    "declaration_same": (
        "B8", "{new} is the same as the last declaration; each declaration must be strictly "
              "higher than the one before it",
        "{new_ja}は直前の宣言と同じです。宣言は直前の宣言より必ず強くなければなりません"),
    "declaration_type_lower": (
        "B5", "{new} is not higher than {last}: {new_type} ranks below {last_type}",
        "{new_ja}は{last_ja}より強くありません({new_type_ja}は{last_type_ja}より弱い役です)"),
    "declaration_ranks_lower": (
        "B9", "{new} is not higher than {last}: {why}", "{new_ja}は{last_ja}より強くありません({why_ja})"),
    "declaration_kickers_lower": (
        "B9", "{new} is not higher than {last}: {why}", "{new_ja}は{last_ja}より強くありません({why_ja})"),
}

# code -> cited rule ("manteur B10"), for the game's refusal catalogue.
ERRORS: dict[str, str] = {code: f"{GAME_ID} {rule}"
                          for code, (rule, _, _) in ERROR_MESSAGES.items()}
REFUSALS: dict[str, str] = {code: f"{GAME_ID} {rule}"
                            for code, (rule, _, _) in REFUSAL_MESSAGES.items()}


class DeclarationError(InputError):
    """A malformed declaration (or one the options rule out). An InputError, so the service
    answers 422 with `code` and `path` (e.g. "body.declaration.ranks[1]"). `rule` is the cited
    rule ("manteur B10"), `ja` the Japanese message: a caller that prefers to refuse (200,
    valid=false) builds a Refusal with `to_refusal()`."""

    code = "declaration_invalid"

    def __init__(self, message: str, path: str = "", code: str | None = None, *,
                 rule: str = "", ja: str = ""):
        super().__init__(message, path, code)
        self.rule = rule
        self.ja = ja or message

    def to_refusal(self) -> Refusal:
        return Refusal(self.code, f"{self.path}: {self.message}", f"{self.path}: {self.ja}",
                       rule=self.rule, details={"path": self.path})


def make_error(code: str, path: str, **fmt: Any) -> DeclarationError:
    """The DeclarationError for catalogue `code` at `path`, messages filled from `fmt`."""
    rule, en, ja = ERROR_MESSAGES[code]
    if "type" in fmt:
        fmt["type_ja"] = TYPE_JA[fmt["type"]]
    return DeclarationError(en.format(**fmt), path, code, rule=f"{GAME_ID} {rule}",
                            ja=ja.format(**fmt))


def _refuse(code: str, **fmt: Any) -> Refusal:
    rule, en, ja = REFUSAL_MESSAGES[code]
    # the declarations in words, {en, ja}, like the events' `text`
    details = {k: {"en": fmt[k], "ja": fmt[f"{k}_ja"]} for k in ("new", "last")}
    return Refusal(code, en.format(**fmt) + f" (rule {rule})", ja.format(**fmt) + f"(ルール{rule})",
                   rule=f"{GAME_ID} {rule}", details=details)


# ---------------------------------------------------------------- parsing

_RANK_ALIASES = {"T": "10"}


def parse_rank(value: Any) -> str | None:
    """Canonical rank of a token ("a", "t", "10", "K" …), or None."""
    if not isinstance(value, str):
        return None
    text = value.strip().upper()
    text = _RANK_ALIASES.get(text, text)
    return text if text in RANK_VALUE else None


def _rank_list(value: Any, path: str, not_list: str, rules: DeclarationRules) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise make_error(not_list, path)
    out = []
    for i, token in enumerate(value):
        rank = parse_rank(token)
        if rank is None:
            raise make_error("rank_unknown", f"{path}[{i}]", value=_show(token))
        if rank not in rules.ranks:
            raise make_error("rank_not_in_deck", f"{path}[{i}]", rank=rank, deck=rules.deck,
                         ranks=", ".join(reversed(rules.ranks)))
        out.append(rank)
    return out


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


_WHAT = {
    "high_card": "[top card]", "pair": "[rank]", "two_pair": "[higher pair, lower pair]",
    "three_of_a_kind": "[rank]", "straight": "[top card]",
    "flush": "up to five ranks, highest first",
    "full_house": "[triple, pair]", "four_of_a_kind": "[rank]", "straight_flush": "[top card]",
    "five_of_a_kind": "[rank]"}


_TYPES_TEXT = ", ".join(TYPES)  # the types, as a refusal lists them


def parse_declaration(data: Any, path: str = "declaration",
                      rules: DeclarationRules = DEFAULT_RULES) -> Declaration:
    """The Declaration in client JSON `data`, checked against B4–B10 and the options in
    `rules`; raises DeclarationError naming the first offending field under `path`."""
    if not isinstance(data, Mapping):
        raise make_error("declaration_not_object", path)
    for key in data:
        if key not in ("type", "ranks", "kickers"):
            raise make_error("field_unknown", f"{path}.{key}", key=key)
    types = _TYPES_TEXT
    if data.get("type") is None:
        raise make_error("type_missing", f"{path}.type", types=types)
    kind = data["type"]
    if not isinstance(kind, str) or kind not in SHAPES:
        raise make_error("type_unknown", f"{path}.type", value=_show(kind), types=types)
    check_type_allowed(kind, rules, f"{path}.type")
    shape = SHAPES[kind]

    ranks_path = f"{path}.ranks"
    ranks = _rank_list(data.get("ranks"), ranks_path, "ranks_not_list", rules)
    if len(ranks) > shape.max_ranks:
        raise make_error("too_many_ranks", f"{ranks_path}[{shape.max_ranks}]", type=kind,
                     limit=shape.max_ranks, what=_WHAT[kind])
    for i, rank in enumerate(ranks):
        if rank in ranks[:i]:
            raise make_error("rank_repeated", f"{ranks_path}[{i}]", rank=rank)
        if shape.ranks_order == "desc" and i and RANK_VALUE[rank] > RANK_VALUE[ranks[i - 1]]:
            raise make_error("ranks_not_descending", f"{ranks_path}[{i}]", type=kind, rank=rank,
                         previous=ranks[i - 1])
    if kind in ("straight", "straight_flush") and ranks:
        runs = rules.straights()
        if ranks[0] not in runs:
            wheel = _straights(rules.deck, True)
            if not rules.ace_low_straight and ranks[0] in wheel:
                raise make_error("ace_low_straight_not_allowed", f"{ranks_path}[0]", rank=ranks[0])
            raise make_error("straight_top_invalid", f"{ranks_path}[0]", rank=ranks[0],
                         tops=", ".join(runs))

    kick_path = f"{path}.kickers"
    kickers = _rank_list(data.get("kickers"), kick_path, "kickers_not_list", rules)
    decl = Declaration(kind, tuple(ranks), tuple(kickers))
    if kickers:
        if shape.max_kickers == 0:
            raise make_error("kickers_not_allowed", kick_path, type=kind)
        if not decl.named:
            raise make_error("kickers_need_ranks", kick_path, type=kind)
        if len(kickers) > shape.max_kickers:
            raise make_error("too_many_kickers", f"{kick_path}[{shape.max_kickers}]", type=kind,
                         limit=shape.max_kickers)
        for i, rank in enumerate(kickers):
            where = f"{kick_path}[{i}]"
            if rank in ranks:
                raise make_error("kicker_matches_rank", where, rank=rank, type=kind)
            if rank in kickers[:i]:
                raise make_error("rank_repeated", where, rank=rank)
            if kind == "high_card" and RANK_VALUE[rank] > RANK_VALUE[ranks[0]]:
                raise make_error("kicker_not_below_high_card", where, rank=rank, top=ranks[0])
            if i and RANK_VALUE[rank] > RANK_VALUE[kickers[i - 1]]:
                raise make_error("kickers_not_descending", where, rank=rank,
                                 previous=kickers[i - 1])
    return decl


def check_type_allowed(kind: str, rules: DeclarationRules, path: str = "declaration.type") -> None:
    """Raise the DeclarationError when the options rule out hand type `kind` (B5, B-b, B-c)."""
    if kind == "five_of_a_kind" and rules.jokers == 0:
        raise make_error("five_of_a_kind_needs_jokers", path)
    if kind in ("straight", "straight_flush") and not rules.allow_straights:
        raise make_error("straights_not_allowed", path)
    if kind in ("flush", "straight_flush") and not rules.allow_flushes:
        raise make_error("flushes_not_allowed", path)
    if kind == "high_card" and rules.min_declaration == "one_pair":
        raise make_error("type_below_minimum", path)


def validate(d: Declaration, rules: DeclarationRules = DEFAULT_RULES,
             path: str = "declaration") -> Declaration:
    """`d` re-checked as if parsed (e.g. one decoded from a trusted state under new options).
    Memoized: every declare re-checks its declaration under the game's rules, a pure
    function of the two (both frozen); a refusal raises each time (errors are not cached)."""
    try:
        return _validated(d, rules, path)
    except TypeError:  # a declaration built by hand with lists: checked each time
        return parse_declaration(to_json(d), path, rules)


@lru_cache(maxsize=4096)
def _validated(d: Declaration, rules: DeclarationRules, path: str) -> Declaration:
    return parse_declaration(to_json(d), path, rules)


# ---------------------------------------------------------------- the total order (B9)


def sort_key(d: Declaration, rules: DeclarationRules = DEFAULT_RULES) -> tuple[int, ...]:
    """B9 as a tuple: (1) type position (B5, with B-a), (2) the named ranks in poker order,
    each unnamed place 0, below any named rank (B6), (3) the kickers from the highest down,
    each unnamed place 0 (B7). Distinct declarations have distinct keys."""
    shape = SHAPES[d.type]
    named = [RANK_VALUE[r] for r in d.ranks]  # a straight's top: the A-low one tops at 5 (10)
    kick = [RANK_VALUE[r] for r in d.kickers]
    return ((rules.type_order.index(d.type),)
            + tuple(named) + (0,) * (shape.max_ranks - len(named))
            + tuple(kick) + (0,) * (shape.max_kickers - len(kick)))


def compare(a: Declaration, b: Declaration, rules: DeclarationRules = DEFAULT_RULES) -> int:
    """1 when `a` is higher than `b`, -1 when lower, 0 when they are the same declaration (B9)."""
    ka, kb = sort_key(a, rules), sort_key(b, rules)
    return (ka > kb) - (ka < kb)


def is_higher(new: Declaration, last: Declaration | None,
              rules: DeclarationRules = DEFAULT_RULES) -> Refusal | None:
    """None when `new` may follow `last` (B8: strictly higher; anything may open a round),
    else the Refusal saying where it falls short: the same declaration (B8), a lower type (B5),
    lower named ranks (B9, B6 for unnamed ones) or lower kickers (B9, B7)."""
    if last is None:
        return None
    order = compare(new, last, rules)
    if order > 0:
        return None
    fmt = {"new": describe(new), "last": describe(last), "new_ja": describe(new, "ja"),
           "last_ja": describe(last, "ja")}
    if order == 0:
        return _refuse("declaration_same", **fmt)
    if new.type != last.type:
        return _refuse("declaration_type_lower", new_type=_TYPE_EN[new.type],
                       last_type=_TYPE_EN[last.type], new_type_ja=TYPE_JA[new.type],
                       last_type_ja=TYPE_JA[last.type], **fmt)
    for i in range(max(len(new.ranks), len(last.ranks))):
        mine = new.ranks[i] if i < len(new.ranks) else None
        theirs = last.ranks[i] if i < len(last.ranks) else None
        if mine == theirs:
            continue
        if mine is None:
            why = "naming no rank is lower than naming one (B6)"
            why_ja = "ランクを宣言しないほうが宣言するより弱い、B6"
        else:
            why = f"{mine} is lower than {theirs} (B4)"
            why_ja = f"{mine}は{theirs}より低い、B4"
        return _refuse("declaration_ranks_lower", why=why, why_ja=why_ja, **fmt)
    for i in range(max(len(new.kickers), len(last.kickers))):
        mine = new.kickers[i] if i < len(new.kickers) else None
        theirs = last.kickers[i] if i < len(last.kickers) else None
        if mine == theirs:
            continue
        if mine is None:
            why = "naming no kicker is lower than naming one, compared from the highest down (B7)"
            why_ja = "キッカーを宣言しないほうが弱い、高いカードから順に比べる、B7"
        else:
            why = (f"the kicker {mine} is lower than {theirs}; kickers compare from the "
                   "highest down (B7)")
            why_ja = f"キッカーの{mine}は{theirs}より低い、高いカードから順に比べる、B7"
        return _refuse("declaration_kickers_lower", why=why, why_ja=why_ja, **fmt)
    raise AssertionError((new, last))  # unreachable: different keys differ somewhere


# ---------------------------------------------------------------- words

_TYPE_EN = {"high_card": "high card", "pair": "one pair", "two_pair": "two pairs",
            "three_of_a_kind": "three of a kind", "straight": "a straight", "flush": "a flush",
            "full_house": "a full house", "four_of_a_kind": "four of a kind",
            "straight_flush": "a straight flush", "five_of_a_kind": "five of a kind"}
TYPE_JA = {"high_card": "ハイカード", "pair": "ワンペア", "two_pair": "ツーペア",
           "three_of_a_kind": "スリーカード", "straight": "ストレート", "flush": "フラッシュ",
           "full_house": "フルハウス", "four_of_a_kind": "フォーカード",
           "straight_flush": "ストレートフラッシュ", "five_of_a_kind": "ファイブカード"}


def _plural(rank: str) -> str:
    return rank + ("es" if rank == "6" else "s")


def describe(d: Declaration, lang: str = "en") -> str:
    """Words for a declaration ("pair of 2s with 5", "2のワンペアと5")."""
    if lang == "ja":
        return _describe_ja(d)
    r, t = d.ranks, d.type
    if not r:
        text = {"high_card": "a high card", "pair": "a pair"}.get(t, _TYPE_EN[t])
    elif t == "high_card":
        text = f"{r[0]} high"
    elif t == "pair":
        text = f"pair of {_plural(r[0])}"
    elif t == "two_pair":
        text = "two pairs, " + " and ".join(_plural(x) for x in r)
    elif t == "three_of_a_kind":
        text = f"three {_plural(r[0])}"
    elif t == "four_of_a_kind":
        text = f"four {_plural(r[0])}"
    elif t == "five_of_a_kind":
        text = f"five {_plural(r[0])}"
    elif t in ("straight", "straight_flush"):
        text = f"{_TYPE_EN[t][2:]} to {r[0]}"
    elif t == "flush":
        text = "flush " + "-".join(r)
    else:  # full_house
        text = f"full house, {_plural(r[0])}" + (f" over {_plural(r[1])}" if len(r) > 1 else "")
    if d.kickers:
        text += " with " + ", ".join(d.kickers)
    return text


def _describe_ja(d: Declaration) -> str:
    r, t = d.ranks, d.type
    name = TYPE_JA[t]
    if not r:
        text = name
    elif t == "high_card":
        text = f"{r[0]}ハイ"
    elif t in ("straight", "straight_flush"):
        text = f"{r[0]}ハイの{name}"
    elif t == "full_house":
        text = f"{r[0]}が3枚" + (f"、{r[1]}が2枚" if len(r) > 1 else "") + f"の{name}"
    else:
        text = "・".join(r) + f"の{name}"
    if d.kickers:
        text += "と" + "・".join(d.kickers)
    return text
