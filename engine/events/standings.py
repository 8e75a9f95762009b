"""The event's standings (docs/events.md "Standings"): how each table placed its entrants,
event points per place, byes and the director's penalties, then the system's tie-breaks in
order and a lot drawn from the event's seeds last, so that no two entrants share a rank.

A table's places come from its result: a match record, replayed (engine/records.py) and
placed by the game's own `Game.standings` of the state the replay ends in (the highest total
first, or the fewest where the game says so: `Game.standings_fewest_first`); a reported
result's deals, scored by the game's own code (`Game.reported`) into the same standings and
placed the same way; or a reported result's places. Nothing here knows any one game: the
standings entries name their seats, and the table's seats name the entrants. Ties share a
place.

Replaying a record is the costly part; its outcome is a pure function of the record, so it is
kept by the SHA-256 of the record's JSON bytes (`replayed`) and the rounds before a swiss round
(engine/events/roster.py) re-derive their points without replaying again.
"""
from __future__ import annotations

import hashlib
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Iterator, Sequence

import orjson

from .. import adjudicate, records
from ..errors import InputError
from .format import Event, InvalidEvent, Round, Table, game_of, reported_deals, seat_ids, side_seats

LOT_PREFIX = b"card-referee/event-lot/v1"
_LOT_BITS = 52  # a lot is an integer JSON holds exactly


class EventRecordInconsistent(InvalidEvent):
    """A table's match record that does not replay as written (HTTP 422): the discrepancy's
    code is in the message, the table's record in the path."""

    code = "event_record_inconsistent"


class ReportedResultInconsistent(InvalidEvent):
    """A table's reported result whose stated places or scores are not what its reported
    deals score to (HTTP 422): the path names the first that disagrees."""

    code = "reported_result_inconsistent"


@dataclass(frozen=True)
class TableOutcome:
    """How a table placed its entrants: `places` (1 = first; ties share), `margins` (each
    entrant's score against the others at the table: the sum over the others of its total
    less theirs, in the game's unit, turned so that more is better; 0 without scores),
    `opponents` (the entrants it played against: not on its own side) and `reported` (the
    result was reported by the table, not a record replayed)."""

    places: dict[str, int]
    margins: dict[str, int]
    opponents: dict[str, tuple[str, ...]]
    reported: bool = False


def bye_points(event: Event) -> int:
    """A bye scores `system.bye_points`, or by default 1st place's event points."""
    s = event.system
    return s.event_points[0] if s.bye_points is None else s.bye_points


def place_points(event: Event, place: int) -> int:
    scale = event.system.event_points
    return scale[place - 1] if place <= len(scale) else 0


@dataclass(frozen=True)
class Replayed:
    """A table's record as its replay left it (engine/records.py replay_record): the first
    discrepancy as (code, deal, step) — deal and step counted from 0 as the check report
    names them, None where it names none — or None; the final standings' entries as (seats,
    total); each deal's totals by score target, in order; each score holder's seats by its id
    (a team's, a seat's own: what a deal's totals name); the record's digest."""

    discrepancy: tuple[str, int | None, int | None] | None
    entries: tuple[tuple[tuple[str, ...], int], ...]
    deal_totals: tuple[dict[str, int], ...]
    holders: dict[str, tuple[str, ...]]
    digest: str


# Replayed records' outcomes by the SHA-256 of the record's JSON as given (orjson's bytes, its
# `digest` included: a record that differs from a kept one in any byte, its digest alone or a
# card under an old digest, is another key and is replayed), not by its canonical form: a
# standings request of 400 records spent most of its time walking each record in Python to
# write that form; orjson writes the same record's bytes in C. parse_event has refused what
# JSON cannot hold (a fraction, NaN), so equal bytes are equal records. A digest is kept, not
# the record (a large event's records would otherwise be held twice); the oldest is dropped
# past the bound.
_REPLAYED: dict[bytes, Replayed] = {}
_KEEP = 65536
_KEY_PREFIX = b"card-referee/event-replayed/v1\0"


def _replay_key(record: Any) -> bytes:
    """The record's key in _REPLAYED: the SHA-256 of its JSON bytes. What orjson cannot write
    (a key that is no string, a lone surrogate, a huge integer) has no canonical form either:
    canonical_bytes refuses it, naming the fault, as the replay would."""
    try:
        written = orjson.dumps(record)
    except orjson.JSONEncodeError:
        written = records.canonical_bytes(record)
    return hashlib.sha256(_KEY_PREFIX + written).digest()


# Within one reading of one document, the records already replayed by their identity (each
# held, so that its id stays its own): see `reading`.
_READING: ContextVar[dict[int, tuple[Any, Replayed]] | None] = ContextVar("event_reading",
                                                                          default=None)


@contextmanager
def reading() -> Iterator[None]:
    """One computation over one document (a check, a report, a sheet): within it a record
    replayed once is found again by identity, not by hashing its JSON again — the
    check re-seats every round from the rounds before it, and hashing a 200-entrant event's
    records once per round cost seconds. Nothing changes the document meanwhile. Nested
    readings are one."""
    token = _READING.set({}) if _READING.get() is None else None
    try:
        yield
    finally:
        if token is not None:
            _READING.reset(token)


def replayed(record: Any) -> Replayed:
    """A record's replay, once per process: the standings, the seating of later swiss rounds
    and the event's check (engine/events/check.py) all read this one."""
    seen = _READING.get()
    if seen is not None:
        known = seen.get(id(record))
        if known is not None and known[0] is record:
            return known[1]
    key = _replay_key(record)
    kept = _REPLAYED.get(key)
    if kept is None:
        kept = _replay(record)
        if len(_REPLAYED) >= _KEEP:
            _REPLAYED.pop(next(iter(_REPLAYED)), None)
        _REPLAYED[key] = kept
    if seen is not None:
        seen[id(record)] = (record, kept)
    return kept


def keep_replay(report: dict[str, Any], state: Any, record: Any = None) -> None:
    """A record's replay made elsewhere (records.replay_record's or replay_from's report and
    final state) kept as `replayed` keeps its own, so the same record read next is not
    replayed again (a table's push: service/api/hosted_events.py); `record`, that record as
    the current `reading` holds it, found by identity (not put in canonical form again)."""
    key = bytes.fromhex(report["digest"].removeprefix(records.DIGEST_PREFIX))
    kept = _REPLAYED.get(key)
    if kept is None:
        if len(_REPLAYED) >= _KEEP:
            _REPLAYED.pop(next(iter(_REPLAYED)), None)
        kept = _REPLAYED[key] = _replayed_of(report, state)
    if record is not None:
        # also under the key `replayed` looks this very record up by (its JSON bytes as
        # given, its digest included: the digest key above is its canonical form's, without
        # it), made from this record's own report: the same record read again outside this
        # reading is not replayed whole
        mine = _replay_key(record)
        own = _REPLAYED.get(mine)
        if own is None:
            if len(_REPLAYED) >= _KEEP:
                _REPLAYED.pop(next(iter(_REPLAYED)), None)
            own = _REPLAYED[mine] = _replayed_of(report, state)
        kept = own
    seen = _READING.get()
    if record is not None and seen is not None:
        seen[id(record)] = (record, kept)


def _replay(record: Any) -> Replayed:
    return _replayed_of(*records.replay_record(record))


def _replayed_of(report: dict[str, Any], state: Any) -> Replayed:
    deals = tuple(dict(d["totals"]) for d in report["deals"])
    if not report["consistent"] or state is None:
        found = report["discrepancy"]
        where = (found["code"], found["deal"], found["step"]) if found else \
            ("deal_unfinished", None, None)
        return Replayed(where, (), deals, {}, report["digest"])
    game = adjudicate.game_by_id(report["game"])
    entries = game.standings(state).entries
    return Replayed(None, tuple((tuple(e.seats), e.total) for e in entries), deals,
                    {e.id: tuple(e.seats) for e in entries}, report["digest"])


def _ranked(values: dict[str, int]) -> dict[str, int]:
    """Places from values, the highest first, equal values sharing a place."""
    return {u: 1 + sum(1 for w in values.values() if w > v) for u, v in values.items()}


def _margins(totals: dict[str, int]) -> dict[str, int]:
    return {u: sum(v - w for x, w in totals.items() if x != u) for u, v in totals.items()}


def table_outcome(event: Event, table: Table, path: str = "") -> TableOutcome | None:
    """The table's outcome, or None while it has no result."""
    if table.result is None:
        return None
    entrants = list(dict.fromkeys(s.entrant for s in table.seats))
    sign = -1 if game_of(event.system).standings_fewest_first else 1
    where = f"{path}.result" if path else "result"
    reported = table.result.reported
    if table.result.record is not None:
        totals = record_totals(table, f"{where}.record")
    elif reported is not None and reported.deals is not None:
        totals = reported_totals(event, table, f"{where}.reported")
    elif reported is not None:
        scores = reported.scores or {}
        turned = {u: sign * scores.get(u, 0) for u in entrants}
        return TableOutcome(dict(reported.places or {}), _margins(turned),
                            opponents(event, table), True)
    else:
        return None
    # a record's totals and a reported match's are placed alike: the highest first (turned)
    turned = {u: sign * totals.get(u, 0) for u in entrants}
    places = _ranked(turned)
    if reported is not None:
        _agrees(reported.places, places, f"{where}.reported.places")
        _agrees(reported.scores, {u: totals.get(u, 0) for u in entrants},
                f"{where}.reported.scores")
    return TableOutcome(places, _margins(turned), opponents(event, table), reported is not None)


def _agrees(stated: dict[str, int] | None, scored: dict[str, int], path: str) -> None:
    """A reported result's stated places or scores, when given, are what its deals score
    (the first that is not, in the table's seat order, named)."""
    for unit, value in scored.items():
        if stated is not None and stated.get(unit) != value:
            raise ReportedResultInconsistent(
                f"{unit} is stated {stated.get(unit)}, and the reported deals give {value}",
                f"{path}.{unit}")


def record_totals(table: Table, path: str) -> dict[str, int]:
    """Each entrant's total in the record's final standings (a team's total to each of its
    entrants: partners that rotate share their side's)."""
    record = table.result.record if table.result else None
    try:
        replay = replayed(record or {})
    except InputError as err:  # a record parse_event let through but the replay refuses
        raise InvalidEvent(err.message, f"{path}.{err.path}" if err.path else path) from None
    if replay.discrepancy is not None:
        raise EventRecordInconsistent("the table's record does not replay as written: "
                                      f"{replay.discrepancy[0]}", path)
    return _entrant_totals(table, replay.entries)


def reported_totals(event: Event, table: Table, path: str) -> dict[str, int]:
    """Each entrant's total in the standings the table's reported deals score to: the game's
    own scoring (`Game.reported.score`) under the event's options, resolved as a deal
    request's are; a deal the rules cannot produce, an InvalidEvent naming its path."""
    game = game_of(event.system)
    reported = table.result.reported if table.result else None
    assert reported is not None and reported.deals is not None and game.reported is not None, \
        "a reported result with deals, of a game that scores them (format._check_reported)"
    deals = reported_deals(game, reported.deals, f"{path}.deals")
    try:
        scored = game.reported.score(game.resolve_options(event.system.options),
                                     seat_ids(table), deals)
    except InputError as err:  # `[k].field`: inside the list of deals
        raise InvalidEvent(err.message, f"{path}.deals{err.path}") from None
    return _entrant_totals(table, tuple((tuple(e.seats), e.total) for e in scored.entries))


def _entrant_totals(table: Table, entries: Sequence[tuple[tuple[str, ...], int]]
                    ) -> dict[str, int]:
    """Each entrant's total from a match's standings entries (seats, total): a holder's total
    to the entrant of each of its seats at the table."""
    entrant_of = dict(zip(seat_ids(table), (s.entrant for s in table.seats)))
    totals: dict[str, int] = {}
    for seats, total in entries:
        for seat in seats:
            if seat in entrant_of:
                totals[entrant_of[seat]] = total
    return totals


def opponents(event: Event, table: Table) -> dict[str, tuple[str, ...]]:
    """Each entrant's opponents at the table: every other entrant not seated on its side."""
    sides = side_seats(event.system, game_of(event.system)) if event.system.partners != "none" \
        else ()
    side_of = {i: k for k, side in enumerate(sides) for i in side}
    out: dict[str, set[str]] = {}
    for i, a in enumerate(table.seats):
        for j, b in enumerate(table.seats):
            if a.entrant != b.entrant and (i not in side_of or side_of.get(i) != side_of.get(j)):
                out.setdefault(a.entrant, set()).add(b.entrant)
    return {u: tuple(sorted(out.get(u, ()))) for u in dict.fromkeys(s.entrant for s in table.seats)}


def outcomes(event: Event, rounds: Sequence[Round]) -> list[list[TableOutcome | None]]:
    """Every table's outcome, round by round (tables in the document's order)."""
    return [[table_outcome(event, t, f"rounds[{k}].tables[{i}]") for i, t in enumerate(r.tables)]
            for k, r in enumerate(rounds)]


def event_points(event: Event, rounds: Sequence[Round],
                 played: list[list[TableOutcome | None]] | None = None) -> dict[str, int]:
    """Each entrant's event points after `rounds` (the first rounds of the event): places
    scored by `system.event_points`, byes by bye_points, less the director's points penalties
    given in those rounds."""
    points = {e.id: 0 for e in event.entrants}
    for rnd, tables in zip(rounds, played if played is not None else outcomes(event, rounds)):
        for unit in rnd.byes:
            points[unit] += bye_points(event)
        for outcome in tables:
            for unit, place in (outcome.places if outcome else {}).items():
                points[unit] += place_points(event, place)
    for p in event.penalties:
        if p.kind == "points" and p.round <= len(rounds):
            points[p.entrant] -= p.points
    return points


def table_places(event: Event, table: Table) -> dict[str, int] | None:
    """The place of each entrant at a table, or None while it has no result."""
    outcome = table_outcome(event, table)
    return None if outcome is None else outcome.places


# ---------------------------------------------------------------- the standings

@dataclass
class Standing:
    """One entrant's line: its rank (1…n, no two alike), event points, the value of every
    tie-break the system declares (`tie_breaks`, in its order) and its lot, what it played,
    its byes, first places and the director's points taken off, whether it was
    disqualified (ranked after every entrant who was not), and how many of its tables'
    results were reported by the table rather than recorded (`reported`)."""

    entrant: str
    rank: int = 0
    event_points: int = 0
    tie_breaks: dict[str, int] = field(default_factory=dict)
    lot: int = 0
    played: int = 0
    byes: int = 0
    first_places: int = 0
    penalty_points: int = 0
    disqualified: bool = False
    reported: int = 0


def lot(event: Event, entrant: str) -> int:
    """The entrant's lot: from the rounds' revealed seeds (a round not yet revealed: its
    commitment), so no one can know it before the seeds are drawn; the higher lot first."""
    h = hashlib.sha256(LOT_PREFIX)
    for rnd in event.rounds:
        h.update(b"\0" + (rnd.seed if rnd.seed is not None else rnd.seed_commitment).encode())
    h.update(b"\0\0" + entrant.encode())
    return int.from_bytes(h.digest()[:8], "big") >> (64 - _LOT_BITS)


def standings(event: Event, played: list[list[TableOutcome | None]] | None = None
              ) -> list[Standing]:
    """Every entrant once, best first (docs/events.md "Standings"). `played`: every table's
    outcome round by round, as `outcomes` gives them, where the caller has them already (the
    tables' results are then not read: `event` may be the document without them)."""
    if played is None:
        played = outcomes(event, event.rounds)
    points = event_points(event, event.rounds, played)
    lines = {e.id: Standing(e.id, event_points=points[e.id], lot=lot(event, e.id))
             for e in event.entrants}
    for rnd, tables in zip(event.rounds, played):
        for unit in rnd.byes:
            lines[unit].byes += 1
        for outcome in tables:
            if outcome is None:
                continue
            for unit, place in outcome.places.items():
                lines[unit].played += 1
                lines[unit].first_places += place == 1
                lines[unit].reported += outcome.reported
    for p in event.penalties:
        if p.kind == "points":
            lines[p.entrant].penalty_points += p.points
        elif p.kind == "disqualification":
            lines[p.entrant].disqualified = True
    values = _tie_break_values(event, played, points)
    for unit, line in lines.items():
        # head_to_head is measured within the group still tied when it is reached (_order):
        # 0 for an entrant no one was tied with there
        line.tie_breaks = {name: values.get(name, {}).get(unit, 0)
                           for name in event.system.tie_breaks}
    dq = [u for u in lines if lines[u].disqualified]
    order = [*_order(event, played, lines, [u for u in lines if u not in dq]),
             *_order(event, played, lines, dq)]
    for rank, unit in enumerate(order, 1):
        lines[unit].rank = rank
    return [lines[u] for u in order]


def _tie_break_values(event: Event, played: list[list[TableOutcome | None]],
                      points: dict[str, int]) -> dict[str, dict[str, int]]:
    """The tie-breaks that do not depend on who else is tied: opponents' event points (every
    opponent met at a table with a result, as often as met), the game's score difference (the
    tables' margins summed) and first places."""
    opp = {u: 0 for u in points}
    score = {u: 0 for u in points}
    firsts = {u: 0 for u in points}
    for tables in played:
        for outcome in tables:
            if outcome is None:
                continue
            for unit, place in outcome.places.items():
                opp[unit] += sum(points[o] for o in outcome.opponents.get(unit, ()))
                score[unit] += outcome.margins.get(unit, 0)
                firsts[unit] += place == 1
    return {"opponents_points": opp, "match_score": score, "first_places": firsts}


def _head_to_head(tables_of: dict[str, list[TableOutcome]], group: Sequence[str]
                  ) -> dict[str, int]:
    """Within a tied group: at every table where members met, each member scores one for
    every member it placed ahead of and loses one for every member placed ahead of it."""
    members = set(group)
    out = {u: 0 for u in group}
    for u in group:
        for outcome in tables_of.get(u, ()):
            mine = outcome.places[u]
            out[u] += sum((mine < place) - (mine > place)
                          for w, place in outcome.places.items() if w != u and w in members)
    return out


def _order(event: Event, played: list[list[TableOutcome | None]], lines: dict[str, Standing],
           group: list[str]) -> list[str]:
    """`group` ranked: event points, then each tie-break in the system's order among those
    still tied, then the lot (and, were two lots alike, the entrant id)."""
    levels: list[str] = ["event_points", *event.system.tie_breaks]
    tables_of: dict[str, list[TableOutcome]] = {}  # each entrant's tables with a result
    for tables in played:
        for outcome in tables:
            if outcome is not None:
                for unit in outcome.places:
                    tables_of.setdefault(unit, []).append(outcome)

    def rank(members: list[str], depth: int) -> list[str]:
        if len(members) < 2 or depth == len(levels):
            return sorted(members, key=lambda u: (-lines[u].lot, u))
        name = levels[depth]
        if name == "event_points":
            value = {u: lines[u].event_points for u in members}
        elif name == "head_to_head":
            value = _head_to_head(tables_of, members)
            for u in members:
                lines[u].tie_breaks[name] = value[u]
        else:
            value = {u: lines[u].tie_breaks[name] for u in members}
        out: list[str] = []
        for v in sorted(set(value.values()), reverse=True):
            out += rank([u for u in members if value[u] == v], depth + 1)
        return out

    return rank(group, 0)


def as_json(lines: Sequence[Standing]) -> list[dict[str, Any]]:
    """The standings as JSON-native values."""
    return [dict(line.__dict__) for line in lines]
