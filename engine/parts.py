"""The optional parts of a game: what a game declares beside its five operations, one small
frozen value per part (engine/game.py `Game.match`, `physical`, `referee`, `sheet`).

A game that leaves a part out (None, or the default RefereeRules) has none of it, and the
engine behaves as the part's docstring says for that case. A part holds the game's
declarations and the game's functions (hooks) the engine calls for it; the engine's own
features that read a part live elsewhere (engine/adjudicate.py, engine/referee.py,
engine/sheets.py), so this module imports only plain values and the interface can import it.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from .fields import Field
from .values import Action, Refusal, Transition

# What a referee's ledger entry may be (engine/referee.py), and a sanction's effect that needs
# nothing of the game: the act is undone and the turn stays.
WARNING: Final = "warning"
PENALTY: Final = "penalty"
TAKEN_BACK: Final = "taken_back"


@dataclass(frozen=True)
class Match:
    """A match carried from deal to deal: a finished deal answers a summary (`next_match`),
    and the next deal's request gives it back as `match` (the service signs or seals it, so
    any client may carry it). Without a Match (`Game.match` None) every deal stands alone: a
    deal request's `match` may carry nothing, and finished deals answer `next_match` null.

    `fields`: what a deal request's `match` may carry, each Field optional (`required=False`:
    a match's first deal carries none); the engine checks them (a 422 naming the field) and
    hands them to `deal` as `setup.match`. The spec publishes them as `<Game>Match` and, all
    present, as `<Game>MatchSummary`: the summary must carry exactly these keys. The engine
    adds its own key, the referee's ledger (engine/features.py), to every game with a Match.

    `next_match(state)`: the summary of a finished deal (JSON-native values only; None while
    the deal is in progress). Leave it None when the state declares a field `next_match`
    (engine/state.py), which is then the summary. Must be a pure function of the state, and
    the next deal dealt from it must go on where this one ended (the conformance tests deal
    every summary of random play-outs)."""

    fields: Mapping[str, Field]
    next_match: Callable[[Any], dict[str, Any] | None] | None = None


@dataclass(frozen=True)
class PhysicalDeals:
    """Deals of the cards of a real table, entered by a referee: a deal request may give each
    seat's hand (`setup.hands`) instead of a deck or a seed. Without it (`Game.physical` None)
    the engine refuses hands (deal_invalid) and the spec publishes no `hands`.

    `table_fields`: with hands, what else a physical deal puts face up that the game must be
    told (Man's start cards), and what the rules decide at random there (Daifugo's first
    leader): a deal request's `table`, checked by the engine, handed to `deal` as
    `setup.table`; the spec publishes it as `<Game>Table`. With a deck, only the random part
    applies. Empty: the cards alone say it all, and the engine refuses a `table`. `deal` must
    take what the rules decide at random from `setup.table` or the cards, never the seed.

    `names_unseen_draw(state_json, action_json)`: whether a posted action names cards taken
    from a stock whose order nobody knows (Man's drawn and turned cards, 3.10; Manteur's
    cards received and dealt, B.6). The engine refuses a named card that lies elsewhere (it
    knows every hand as the referee entered it), so under sealing such an act is the
    referee's (adjudicate.is_referee_act): a seat naming its own draws could otherwise learn
    which unseen cards are out of the stock (docs/security.md, "Physical deals"). It runs on
    every sealed /v1/validate before anything is decoded: read only the few fields it needs
    from the JSON as posted, and answer False for anything malformed (validate words what is
    wrong). None: the game never names drawn cards."""

    table_fields: Mapping[str, Field] = field(default_factory=dict)
    names_unseen_draw: Callable[[Mapping[str, Any], Mapping[str, Any]], bool] | None = None


@dataclass(frozen=True)
class Sanction:
    """What a game's rules page gives for one refused act in referee mode.

    `effect`: TAKEN_BACK (the act is undone and the turn stays) or a consequence of the game's
    own (RefereeRules.sanction_effect: Guandan's lost right to play, Manillen's lost deal);
    `ledger`: the entry recorded against the offender — a warning, a penalty of `points` in
    the game's own unit (RefereeRules.penalty_kind; it counts in the totals like any penalty),
    or None."""

    rule: str            # the rules page's number of the sanction (cited as "<game> <rule>")
    en: str              # the sanction in words
    ja: str
    effect: str = TAKEN_BACK
    ledger: Literal["warning", "penalty"] | None = WARNING
    points: int = 0

    def __post_init__(self) -> None:
        if self.ledger not in (None, WARNING, PENALTY) or \
                (self.ledger == PENALTY) != (self.points > 0):
            raise ValueError(f"sanction {self.rule}: a penalty has points, nothing else has")


@dataclass(frozen=True)
class RefereeRules:
    """How the table's referee (engine/referee.py, docs/referee.md) touches this game. Every
    game has a referee: one may record warnings and penalties against any seat, and withdraw
    them. The default (`RefereeRules()`) fits a game with no match standing of its own and no
    referee mode: penalties in points, one score delta against the seat, nothing sanctioned.

    `penalty_kind`: the unit a penalty counts in, the `kind` of its score deltas: `points`,
    `level` or `rank` (count against a seat by shrinking) or `penalty` (by growing).

    `sanctions`: referee mode (the game's option `violations`: `referee`, built by
    engine/referee.py violations_option): the refusal codes whose act is recorded and
    sanctioned instead of refused, each with its Sanction. Every code must be one of the
    game's `refusals`, and its rules page lists it with its source. Empty: every refusal stays
    a refusal.

    `count_penalty(state, player, delta, reason)`: a referee's penalty against `player` (or its
    withdrawal: the opposite `delta`), `delta` already signed in the game's unit
    (engine/referee.py penalty_sign), counted in the game's own match standing: what
    `next_match` carries and what decides the match's end. Returns the state so changed, the
    score deltas that say it (of `penalty_kind`, to whoever holds the standing: the seat, or
    its team) and any events (a player reaching a limit …). None: the state stays as it is
    and one delta of `penalty_kind` goes against the seat.

    `sanction_effect(state, action, refusal, sanction)`: the game's own consequence of a
    sanctioned act whose effect is not TAKEN_BACK; the engine then records the irregularity
    and the ledger entry. Required when a sanction has such an effect.

    `legal_actions(state)`: the game's own referee-only acts (ActionType.referee_only) the
    referee may post now (Guandan's void hand and forfeit), each naming its seat. None: those
    of them the seats' `legal_actions` list.

    The hooks obey the Game's guarantees: pure, deterministic, never changing `state`."""

    penalty_kind: str = "points"
    sanctions: Mapping[str, Sanction] = field(default_factory=dict)
    count_penalty: Callable[[Any, str, int, str], Transition[Any]] | None = None
    sanction_effect: Callable[[Any, Action, Refusal, Sanction], Transition[Any]] | None = None
    legal_actions: Callable[[Any], list[Action]] | None = None

    def __post_init__(self) -> None:
        own = sorted(s.rule for s in self.sanctions.values() if s.effect != TAKEN_BACK)
        if own and self.sanction_effect is None:
            raise ValueError(f"sanctions {own} have an effect of the game's own: declare "
                             "sanction_effect")


@dataclass(frozen=True)
class SheetLayout:
    """How the game's score sheet reads (engine/sheets.py: a match record's deals, row by row,
    with the score deltas, the referee's marks and the totals, which the sheet adds itself).
    Without it (`Game.sheet` None) a sheet has one column per seat and one row per deal
    showing the deltas alone.

    `columns(players, names)`: the sheet's columns (engine/sheets.py SheetColumn), one per
    target of the game's score deltas, headed for people (`names`: seat -> the name a
    record's tags give). None: one column per seat; a game whose teams or score holders take
    the deltas lists those.

    `lines(deal)`: what the sheet shows of one checked deal (engine/sheets.py CheckedDeal) in
    the game's own scoring: its rows (engine/sheets.py SheetLine; one, or several for a game
    whose deal is played in rounds), each with the game's words per column and the outcome.
    None: one row, the deltas alone."""

    columns: Callable[[Sequence[str], Mapping[str, str]], list[Any]] | None = None
    lines: Callable[[Any], list[Any]] | None = None


@dataclass(frozen=True)
class ReportedDeals:
    """Deals a table reports without their moves (an event's table without a referee,
    docs/events.md "Reported results"): each deal's outcome in the game's own terms, scored by
    the game's own scoring code. Without it (`Game.reported` None) an event's table of the
    game can report only its places.

    `deal`: the msgspec Struct type of one deal's report (`forbid_unknown_fields=True`), in the
    words a table reports it: Guandan's finishing order; Daifugo's finishing order and fouls;
    Man's winner, loser and how the chain multiplied; Manillen's card points per side with the
    trump, no-trump and doublings; Manteur's loser of each round. The engine decodes each
    reported deal with it (a 422 naming the field); the spec publishes it as
    `<Game>ReportedDeal`.

    `score(options, players, deals)`: the match standings (engine/summary.py Standings, the
    same form `Game.standings` gives) after `deals`, a match's first deal first, at a table
    seated `players` in seat order under the resolved `options` (as DealSetup.options). It
    must call the functions a played deal's end calls (the game's scoring, its match carried
    from deal to deal), never a copy of them, so that a reported deal and the record of the
    same deal score the same. Raises InputError with a path inside the list (`[k].field`) for
    a report the rules cannot produce (a seat named twice, card points that do not add up).

    `of_deal(state)`: the report a finished deal's final state gives: what its table would
    report. The conformance tests score the reports of random matches' deals and compare the
    result with `Game.standings` of the match's last state.

    `fields`: each field of `deal`, in its order, as a form asks for it (GET /v1/games
    `reported_deal`, from which the table and director pages build their forms without
    knowing the game): its kind in the fields vocabulary (engine/fields.py: `player` a seat,
    `player_list` seats in order, `enum` and `str_list_list` with `choices`, `bool`, `int_map`
    a number per side) and its words in English and Japanese. tests/engine/
    test_reported_fields.py holds them to `deal`'s own fields and types.

    `sides`: the ids an `int_map` field is keyed by, per number of players (Manillen's
    `team_0_2`, `dealer`…); a number of players not listed: each seat's own id."""

    deal: type
    score: Callable[[Mapping[str, Any], Sequence[str], Sequence[Any]], Any]
    of_deal: Callable[[Any], Any]
    fields: Mapping[str, Field] = field(default_factory=dict)
    sides: Mapping[int, tuple[str, ...]] = field(default_factory=dict)

    def describe(self, lang: str = "en") -> dict[str, Any]:
        """The reported deal as GET /v1/games publishes it, its words in `lang`: its fields
        in order (as options are described, with `name`) and the sides of its number maps."""
        return {"fields": [{"name": name, **f.describe(lang)} for name, f in self.fields.items()],
                "sides": {str(n): list(ids) for n, ids in self.sides.items()}}
