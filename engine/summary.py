"""The table summarised, and the match standings, the same for every game.

Every view (engine/adjudicate.py view, and so a sealed /v1/validate's) carries, besides the
game's own fields:

- `to_act`: who may act now as every seat can see it (Game.public_to_act, never a hidden hand);
- `summary` (`TableSummary`): labelled facts a person reads without knowing the rules, in both
  languages, with the cards where there are cards (what lies on the table to beat and who
  played it, the trump, the level and its wild card, locks, a revolution, pending draws, the
  doubling factor …), and one line per seat (cards left, a title or role, a team);
- `standings` (`Standings`): each seat's or team's total in the match, in the game's unit, with
  its text, and whether the match is over.

A game builds its summary and standings (Game.summary, Game.standings) from the public part of
the state only, so they never tell a seat a hidden card; the engine adds the three to the view
(`complete_view`). The Structs here are the one declaration: every game's view declares them
(engine/state.py view_struct) and the spec publishes them once as `TableSummary` and
`Standings`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Optional, Sequence

import msgspec

from .cards import cards_label, deck_54

if TYPE_CHECKING:  # a Literal built at run time: to a type checker, a card is its string
    Card = str
else:  # (engine/state.py's Card, declared here too: engine/state.py reads this module)
    Card = Literal[tuple(deck_54())]

__all__ = ["Words", "Fact", "SeatSummary", "TableSummary", "StandingEntry", "Standings",
           "words", "fact", "cards_words", "seat_line", "entry", "complete_view", "VIEW_FIELDS",
           "SUMMARY_COMPONENT", "STANDINGS_COMPONENT", "ordinal", "counted"]

_PART: dict[str, Any] = {"frozen": True, "forbid_unknown_fields": True}

# The spec's names of the two shared schemas (service/schemas.py replaces every inlined copy
# in a view by a reference to them, so they are published once).
SUMMARY_COMPONENT = "TableSummary"
STANDINGS_COMPONENT = "Standings"


class Words(msgspec.Struct, **_PART):
    """A text for people, in English and Japanese."""
    en: str
    ja: str


class Fact(msgspec.Struct, **_PART):
    """One labelled fact of the table. `key` is a stable id a client may test ("to_beat",
    "top_card", "trump", "level", "wild_card", "lock", "revolution", "pending_draw",
    "doubling", "phase" …; docs/integrating.md lists each game's); `label` and `text` are for
    people; `cards` the cards it is about (null: none); `seat` the seat it is about (who played
    the cards to beat, who must act on it; null: none)."""
    key: str
    label: Words
    text: Words
    cards: Optional[tuple[Card, ...]]
    seat: Optional[str]


class SeatSummary(msgspec.Struct, **_PART):
    """One seat at the table: how many cards it holds (null: not told, Guandan P-6), its title
    or role in words (`role`; null: none), its team's id (null: no teams)."""
    seat: str
    cards_left: Optional[int]
    role: Optional[Words]
    team: Optional[str]


class TableSummary(msgspec.Struct, **_PART):
    """The table as a person reads it: facts in the order a table would say them, then the
    seats in seat order."""
    facts: tuple[Fact, ...]
    seats: tuple[SeatSummary, ...]


class StandingEntry(msgspec.Struct, **_PART):
    """One score holder of the match: a seat, or a team (`seats` its members), its total in the
    standings' unit and the total in words (with any second number the game keeps)."""
    id: str
    seats: tuple[str, ...]
    total: int
    text: Words


class Standings(msgspec.Struct, **_PART):
    """The match standings in one form for every game: `unit` says what `total` counts
    (points, levels, penalty points, booms); `finished`: the match is over (a game without
    matches: the deal is)."""
    unit: Words
    entries: tuple[StandingEntry, ...]
    finished: bool


def words(en: str, ja: str) -> Words:
    return Words(en, ja)


def cards_words(cards: Sequence[str]) -> Words:
    """Cards as people read them (engine/cards.py card_label), in both languages."""
    return Words(cards_label(cards, "en"), cards_label(cards, "ja"))


def fact(key: str, label: tuple[str, str], text: tuple[str, str] | Words,
         cards: Sequence[str] | None = None, seat: str | None = None) -> Fact:
    """A fact from its label and text, each given as (English, Japanese)."""
    said = text if isinstance(text, Words) else Words(*text)
    return Fact(key, Words(*label), said, None if cards is None else tuple(cards), seat)


def seat_line(seat: str, cards_left: int | None, title: tuple[str, str] | None = None,
              team: str | None = None) -> SeatSummary:
    return SeatSummary(seat, cards_left, None if title is None else Words(*title), team)


def entry(holder: str, seats: Sequence[str], total: int, text: tuple[str, str]) -> StandingEntry:
    return StandingEntry(holder, tuple(seats), total, Words(*text))


def ordinal(place: int) -> tuple[str, str]:
    """A finishing place in words: ("1st", "1位")."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}", f"{place}位"


# What every view carries besides the game's own fields, declared once (engine/state.py
# view_struct adds them to every game's view).
VIEW_FIELDS: tuple[tuple[str, Any], ...] = (
    ("to_act", tuple[str, ...]),
    ("summary", TableSummary),
    ("standings", Standings),
)


def complete_view(game: Any, state: Any, view: dict[str, Any], viewer: str | None
                  ) -> dict[str, Any]:
    """`view` with the public `to_act`, the game's summary for `viewer` and the standings."""
    view["to_act"] = list(game.public_to_act(state))
    view["summary"] = _json(game.summary(state, viewer))
    view["standings"] = _json(game.standings(state))
    return view


_ENCODE = msgspec.json.Encoder().encode
_DECODE = msgspec.json.Decoder().decode


def _json(value: msgspec.Struct) -> Any:
    """JSON-native (lists, not tuples), as every other part of an answer."""
    return _DECODE(_ENCODE(value))


def counted(n: int, one: str, many: str, ja: str) -> tuple[str, str]:
    """A count with its noun in each language: (“1 point” / “3 points”, “3点”)."""
    return f"{n} {one if abs(n) == 1 else many}", f"{n}{ja}"
