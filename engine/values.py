"""The values that cross the game interface (engine/game.py): what a game is told (DealSetup),
what it answers (Transition, ScoreDelta, Event, Refusal), what it is asked to apply (Action),
what it declares beside its rules (Lookup), and the two values of every state's `status`.

Plain frozen values and nothing of the engine's machinery: this module imports only the
engine's errors and field vocabulary, so every other module (the interface, the referee, the
games) may import it without an import circle (tests/engine/test_import_graph.py).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping  # not typing's: isinstance through it costs ~1 µs
from dataclasses import dataclass, field as dc_field
from typing import Any, Generic, TypeVar

from .fields import Field

S = TypeVar("S")

IN_PROGRESS = "in_progress"  # the values of every state's `status`
FINISHED = "finished"


# ---------------------------------------------------------------- what crosses the interface

@dataclass(frozen=True)
class ScoreDelta:
    """One change of score. kind: points | level | penalty | rank. `extra` carries e.g. the
    `from`/`to` of a level change; it is merged into the JSON object. `reason` says why in
    English (for logs and records); `text` says it for people, {"en": …, "ja": …}: every game
    gives it on every delta (a table shows it in the player's language)."""

    target: str
    kind: str
    delta: int
    reason: str
    extra: Mapping[str, Any] = dc_field(default_factory=dict)
    text: Mapping[str, str] | None = None

    def to_json(self, game: str | None = None) -> dict[str, Any]:
        """`game`: the answer's game, named on the delta (adjudicate names it on everything
        it answers, so a client picks each game's model by it)."""
        out = {"target": self.target, "kind": self.kind, "delta": self.delta,
               "reason": self.reason, **self.extra}
        if self.text is not None:
            out["text"] = dict(self.text)
        if game is not None:
            out["game"] = game
        return out


@dataclass(frozen=True)
class Event:
    """Something that happened and a table should show ("man_called", "boom", "call" …)."""

    type: str
    data: Mapping[str, Any] = dc_field(default_factory=dict)

    def to_json(self, game: str | None = None) -> dict[str, Any]:
        """`game`: the answer's game (games share event types with different fields)."""
        if game is None:
            return {"type": self.type, **self.data}
        return {"type": self.type, "game": game, **self.data}


@dataclass(frozen=True)
class Action:
    """A parsed action: its type, the acting seat's id, and its declared fields, canonical."""

    type: str
    player: str
    fields: Mapping[str, Any] = dc_field(default_factory=dict)
    # What a game knew of the action when it listed it and its words need (Guandan: the play's
    # reading), for its own action_text: never in the JSON, never compared.
    note: Any = dc_field(default=None, compare=False, repr=False)

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)

    def to_json(self, game: str | None = None) -> dict[str, Any]:
        """`game`: named on listed actions (games share action types with different fields)."""
        if game is None:
            return {"type": self.type, "player": self.player, **self.fields}
        return {"type": self.type, "game": game, "player": self.player, **self.fields}


@dataclass(frozen=True)
class Transition(Generic[S]):
    """What a legal action did: the next state, score deltas and events."""

    state: S
    score_deltas: tuple[ScoreDelta, ...] = ()
    events: tuple[Event, ...] = ()


class _Unfilled(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"


def _shown(value: Any) -> Any:
    if isinstance(value, Mapping):
        return value  # a text {en, ja}: each template picks its language (`{x_text[ja]}`)
    if value is None:
        return "null"
    if isinstance(value, (list, tuple)):
        return " ".join(map(str, value))
    return str(value)


class Refusal(Exception):
    """An action that is well formed but not legal now. Not an HTTP error: the API answers
    200 with valid=false, the code, the message in the caller's language and the rule."""

    def __init__(self, code: str, en: str, ja: str, rule: str = "",
                 details: Mapping[str, Any] | None = None):
        super().__init__(en)
        self.code = code
        self.en = en
        self.ja = ja
        self.rule = rule
        self.details = dict(details or {})
        self.game = ""  # set by the engine when it answers the refusal (adjudicate)

    @classmethod
    def from_templates(cls, game_id: str, code: str, rule: str, en: str, ja: str,
                       fill: Mapping[str, Any], details: Mapping[str, Any] | None = None
                       ) -> "Refusal":
        """A refusal from a game's catalogue: `{placeholders}` of both messages filled from
        `fill` (None as "null", a list as its items, a missing one as "?"), the rule cited as
        "<game> <rule>"; `details` (default: `fill`) travel with it."""
        values = _Unfilled({k: _shown(v) for k, v in fill.items()})
        return cls(code, en.format_map(values), ja.format_map(values), rule=f"{game_id} {rule}",
                   details=fill if details is None else details)

    def message(self, lang: str = "en") -> str:
        return self.ja if lang == "ja" else self.en

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message(lang)}
        if self.game:
            out["game"] = self.game
        if self.rule:
            out["rule"] = self.rule
        if self.details:
            out["details"] = self.details
        return out


def number_out_of_range() -> Refusal:
    """The engine's refusal, the same in every game, of an action that would take a score or
    count past ±(2^53 − 1), the largest integer every JSON client holds exactly: the engine
    checks every answer for it (adjudicate), and a game refuses so itself where its own rules
    would otherwise grow a number past it (Manillen's doubling calls)."""
    return Refusal("number_out_of_range",
                   "This action would take a score or count past ±(2^53 − 1), the largest "
                   "integer every JSON client holds exactly; it is refused.",
                   "この操作を行うと得点や数がJSONで正確に扱える範囲(±(2^53 − 1))を超えるため、"
                   "受け付けられません。")


# ---------------------------------------------------------------- declarations

@dataclass(frozen=True)
class Lookup:
    """A game-specific question (e.g. Man's man numbers of a hand). `handler` is pure: the
    parsed request and the caller's language ("en" or "ja", the service's Accept-Language)
    in, a JSON-able answer out, every explanation in it in that language. `cacheable`: the answer costs more to compute
    than a shared-cache round trip (≈0.1–0.3 ms to Redis here), so the service keeps it in its
    cache (Redis, or its in-process LRU) under the engine version. A cheap lookup says False
    and memoizes in the engine instead (docs/performance.md: never cache what is cheaper to recompute)."""

    name: str
    summary: str
    summary_ja: str  # the summary in Japanese (GET /v1/games with Accept-Language: ja)
    request: Mapping[str, Field]
    response: Mapping[str, Field]
    handler: Callable[[dict[str, Any], str], dict[str, Any]]
    cacheable: bool = True


@dataclass(frozen=True)
class DealSetup:
    """Everything a deal needs, already checked by the engine: seat order, resolved options,
    the seed (or an explicit deck, top card first, for physical deals entered by a referee),
    the dealer's id (None: the game's default) and the previous match state (game-defined)."""

    players: tuple[str, ...]
    options: Mapping[str, Any]
    seed: str
    dealer: str | None = None
    match: Mapping[str, Any] | None = None
    deck: tuple[str, ...] | None = None
    # Each seat's cards given exactly (a physical table entered by a referee, or a game recorded
    # elsewhere), for games that declare `physical` (engine/parts.py PhysicalDeals); the game
    # checks deck and counts.
    hands: Mapping[str, tuple[str, ...]] | None = None
    # What else lies face up on a physical table, and what the rules decide at random there
    # (the game's `physical.table_fields`: Man's start card, Manillen's turned trump and cut,
    # Daifugo's random first leader …), parsed; None when not given. With `deck` only the random
    # decisions: the rest follows from the deck's order.
    table: Mapping[str, Any] | None = None
    # The salt of the seed commitment (engine/rng.py), drawn by the engine: a GameState carries
    # it as `seed_salt` (the engine sets it); a game with a state of its own writes it there.
    seed_salt: str = ""

    @property
    def physical(self) -> bool:
        """A deal of the cards on a real table (a deck's order or each seat's hand): what the
        rules decide at random comes from `table` or follows from the cards, never the seed."""
        return self.hands is not None or self.deck is not None
