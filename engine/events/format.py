"""The event document, format 1 (docs/events.md): declared once here as msgspec Structs.

An event is a document computed by pure engine code: who entered (individuals, or fixed teams
whose members sit on one side of a partnership game's table), the system (game, options, table
size, how a round ends, event points per place, tie-breaks, the seating method), and the
rounds played so far (each round's seed commitment, its tables and byes, and each table's
result: a match record or a reported result), with the director's penalties.

The digest is the match records' (engine/records.py): "sha256:" + hex SHA-256 of the
document's RFC 8785 canonical form without its `digest` key.
"""
from __future__ import annotations

import hashlib
import re
from typing import Annotated, Any, Literal, Mapping

import msgspec

from .. import adjudicate, registry
from ..errors import InputError, InvalidOptions, shown
from ..game import Game
from ..records import MatchRecord, canonical_bytes, parse_record
from ..seats import seat_key

FORMAT = "card-referee/event"
FORMAT_VERSION = 1  # the version this reader reads; a higher one is refused, never half-read
DIGEST_PREFIX = "sha256:"

# Bounds checked before anything is walked (a document's work stays proportionate to them).
MAX_ENTRANTS = 2000
MAX_ROUNDS = 64
MAX_SAME_DEALS = 64
MIN_TABLE, MAX_TABLE = 2, 8
MAX_REPORTED_DEALS = 500  # deals one table's reported result lists

SEATING_METHODS = ("random", "swiss", "fixed")
# The tie-breaks the standings apply after event points, in the order the system lists them
# (engine/events/standings.py).
TIE_BREAKS = ("opponents_points", "match_score", "first_places", "head_to_head")


class InvalidEvent(InputError):
    """An event document that is not well formed (HTTP 422): its path names what is wrong."""

    code = "event_invalid"


def _about(text: str) -> msgspec.Meta:
    return msgspec.Meta(description=text)


class _Strict(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    pass


# ---------------------------------------------------------------- entrants

class Person(_Strict):
    """A member of a fixed team, or a substitute: the id they sit under (a seat id of the match
    records) and their name."""

    id: str
    name: str = ""


class Entrant(_Strict):
    """One entrant: the unit that holds a standing. An individual sits under its own `id`; a
    fixed team (system.partners "fixed") is its `members`, who fill one side of a table."""

    id: str
    name: str = ""
    members: Annotated[list[Person], _about(
        "a fixed team's players, as many as a side has seats; none for an individual")] = []
    checked_in: Annotated[bool, _about(
        "false: registered, not seated (until checked in, as a late entry)")] = True
    entered_round: Annotated[int, _about(
        "the first round (from 1) the entrant may be seated: a late entry's")] = 1
    withdrawn_round: Annotated[int | None, _about(
        "the first round the entrant is no longer seated (withdrew before it)")] = None


# ---------------------------------------------------------------- the system

class DealsEnd(_Strict, tag="deals", tag_field="kind"):
    """A round is this many deals at every table."""

    deals: int


class MatchEnd(_Strict, tag="match", tag_field="kind"):
    """A round is one match, ended by the game's own match end."""


class TimeEnd(_Strict, tag="time", tag_field="kind"):
    """A round ends at the bell; `at_bell` says what happens to the deal in progress."""

    minutes: int
    at_bell: Annotated[Literal["finish_deal", "void_deal"], _about(
        "finish_deal: the deal in progress is played out; void_deal: it does not count")]
    note: Annotated[str, _about("the game's own words for the bell, any language")] = ""


class System(_Strict):
    """How the event is played."""

    game: str
    table_size: Annotated[int, _about("seats at every table, 2–8")]
    rounds: Annotated[int, _about("rounds planned")]
    round_end: DealsEnd | MatchEnd | TimeEnd
    event_points: Annotated[list[int], _about(
        "event points by place at a table: [1st, 2nd, …]; a place past the list scores 0")]
    options: Annotated[dict[str, Any], _about("as a deal request's: `preset` and options")] = {}
    partners: Annotated[Literal["none", "fixed", "rotating"], _about(
        "where the game has partnerships at this table size: fixed teams, or individuals whose "
        "partners rotate; none where it has none")] = "none"
    seating: Annotated[Literal["random", "swiss", "fixed"], _about(
        "how next_round seats a round unless told otherwise")] = "swiss"
    bye_points: Annotated[int | None, _about(
        "event points of a bye; null: those of 1st place")] = None
    tie_breaks: list[Literal["opponents_points", "match_score", "first_places",
                             "head_to_head"]] = []
    same_deals: Annotated[int, _about(
        "deal seeds committed per round for the same deals at every table (0: none)")] = 0
    confirmations: Annotated[Literal["none", "seats"], _about(
        "seats: every reported result is confirmed by each seat at its table (a team's "
        "every player), as a score sheet is signed; none: no confirmation is asked")] = "none"


# ---------------------------------------------------------------- rounds

class Seat(_Strict):
    """One seat: the entrant whose standing it counts for, the player seated, and a substitute
    who takes the seat for this round (the standing stays with the entrant)."""

    entrant: str
    player: Annotated[str, _about("the seat id: the individual's id, or a team member's")]
    substitute: Person | None = None


# The engine cannot tell who wrote a document: which writer may say which `via` is the
# service's to decide (service/api/hosted_events.py `_CONFIRMING`).
class Confirmation(_Strict):
    """One seat's confirmation of a reported result: the seat id that confirmed it (the
    player seated, or the substitute in the seat) and how (`table`: a tap on the table's own
    page; `director`: the director attests it, e.g. the seat signed the paper score sheet)."""

    seat: Annotated[str, _about("a seat id of the table (a substitute's in their seat)")]
    via: Annotated[Literal["table", "director"], _about(
        "how the seat confirmed: table, a tap on the table's page; director, the director "
        "attests it (the seat signed the score sheet)")]


class Reported(_Strict):
    """A table's result as the table reports it, without a record: its places, or its deals'
    outcomes (where the game scores them: `Game.reported`), which the engine scores."""

    places: Annotated[dict[str, int] | None, _about(
        "each entrant at the table -> its place (1 = first; equal places for a tie); with "
        "`deals`, derived from them and, when given, checked")] = None
    scores: Annotated[dict[str, int] | None, _about(
        "each entrant's match score; with `deals`, derived (the game's match totals) and, "
        "when given, checked")] = None
    deals: Annotated[list[Any] | None, _about(
        "each deal's outcome as the table reports it, the match's first deal first, in the "
        "game's reported-deal shape (docs/events.md \"Reported results\"), scored by the game's "
        "own code")] = None
    note: str = ""
    confirmed: Annotated[list[Confirmation], _about(
        "the seats that confirmed this result as it stands (a changed result is confirmed "
        "again), each seat once; the event asks for every seat's where system.confirmations "
        "is seats")] = []


class TableResult(_Strict):
    """A table's result: a match record (checked by replay) or a reported result."""

    record: Annotated[dict[str, Any] | None, _about(
        "a card-referee/match-record whose players are the table's seat ids in seat order")] = None
    reported: Reported | None = None


class Table(_Strict):
    number: int
    seats: Annotated[list[Seat], _about("in seat order (the record's `players`)")]
    result: TableResult | None = None


class DealSeed(_Strict):
    """One deal number's seed for the same deals at every table: committed before the round,
    revealed (seed, salt) after it."""

    seed_commitment: str
    seed: str | None = None
    seed_salt: str | None = None


class Round(_Strict):
    method: Literal["random", "swiss", "fixed"]
    seed_commitment: Annotated[str, _about(
        "published with the seating: SHA-256 over the salt and the round's seed (engine/rng.py)")]
    tables: list[Table]
    byes: list[str] = []
    seed: Annotated[str | None, _about("revealed after the round")] = None
    seed_salt: str | None = None
    deals: Annotated[list[DealSeed], _about("the same deals' seeds, by deal number")] = []


class Penalty(_Strict):
    """The director's own penalty: a warning, event points off, or a disqualification (the
    entrant is not seated after its round)."""

    round: Annotated[int, _about("the round (from 1) it was given in")]
    entrant: str
    kind: Literal["warning", "points", "disqualification"]
    reason: str
    points: Annotated[int, _about("with kind points: event points taken off (> 0)")] = 0


class Event(_Strict):
    """A whole event (docs/events.md)."""

    format: Literal["card-referee/event"]
    format_version: int
    system: System
    entrants: list[Entrant]
    name: str = ""
    tags: dict[str, Any] = {}
    rounds: list[Round] = []
    penalties: list[Penalty] = []
    digest: str | None = None


# ---------------------------------------------------------------- who plays

def players_of(entrant: Entrant) -> list[str]:
    """The seat ids an entrant sits under: a team's members', or the individual's own."""
    return [m.id for m in entrant.members] or [entrant.id]


def active_units(event: Event, round_number: int) -> list[str]:
    """The entrants who may be seated in round `round_number` (from 1), in entry order: checked
    in, entered by then, not withdrawn before it, not disqualified in an earlier round."""
    out = set()
    disqualified = {p.entrant for p in event.penalties
                    if p.kind == "disqualification" and p.round < round_number}
    for e in event.entrants:
        if (e.checked_in and e.entered_round <= round_number and e.id not in disqualified
                and (e.withdrawn_round is None or round_number < e.withdrawn_round)):
            out.add(e.id)
    return [e.id for e in event.entrants if e.id in out]


# ---------------------------------------------------------------- digest and reading

def canonical(event: Mapping[str, Any]) -> bytes:
    """The document's canonical serialization without `digest` (records' RFC 8785 form)."""
    return canonical_bytes(event, InvalidEvent)


def digest(event: Mapping[str, Any]) -> str:
    return DIGEST_PREFIX + hashlib.sha256(canonical(event)).hexdigest()


_MSGSPEC_PATH = re.compile(r" - at `\$(.*)`$")


def _bounds(data: Mapping[str, Any]) -> None:
    for key, limit in (("entrants", MAX_ENTRANTS), ("rounds", MAX_ROUNDS)):
        value = data.get(key)
        if isinstance(value, list) and len(value) > limit:
            raise InvalidEvent(f"an event has at most {limit} {key}, not {len(value)}", key)


def parse_event(data: Any) -> Event:
    """The event, declared types and cross-references checked; any fault an InvalidEvent
    (`event_invalid`) naming its path, or `event_version_unsupported` for a newer format."""
    if not isinstance(data, Mapping):
        raise InvalidEvent("an event is a JSON object", "")
    if data.get("format") != FORMAT:
        raise InvalidEvent(f"an event says \"format\": \"{FORMAT}\", not "
                           f"{shown(data.get('format'))}", "format")
    version = data.get("format_version")
    if type(version) is not int or version < 1:
        raise InvalidEvent("format_version is a positive integer", "format_version")
    if version > FORMAT_VERSION:
        raise InvalidEvent(f"this reader reads events up to format_version {FORMAT_VERSION}, "
                           f"not {version}", "format_version", code="event_version_unsupported")
    _bounds(data)
    canonical(data)  # refuses what has no canonical form (fractions, huge integers, surrogates)
    try:
        event = msgspec.convert(data, Event)
    except msgspec.ValidationError as err:
        text = str(err)
        found = _MSGSPEC_PATH.search(text)
        path = found.group(1).lstrip(".") if found else ""
        raise InvalidEvent(text[:found.start()] if found else text, path) from None
    game = check_system(event.system)
    if len(event.rounds) > event.system.rounds:
        raise InvalidEvent(f"the event plans {event.system.rounds} rounds, not "
                           f"{len(event.rounds)}", "rounds")
    _check_entrants(event, game)
    for k, rnd in enumerate(event.rounds):
        _check_round(event, game, k, rnd)
    _check_penalties(event)
    return event


def parse_table_result(event: Event, round_index: int, table_index: int, result: Any) -> Table:
    """Table `table_index` of round `round_index` (both from 0) of `event` holding `result`,
    checked as parse_event checks it in the whole document, each fault named at the same path:
    `event`, a document parse_event read without that table's result (what a reader that
    keeps the rest of the document parsed reads one table's result in)."""
    tw = f"rounds[{round_index}].tables[{table_index}]"
    table = event.rounds[round_index].tables[table_index]
    try:
        canonical_bytes({"result": result}, InvalidEvent)
    except InvalidEvent as err:
        raise _under(err, tw) from None
    try:
        parsed = msgspec.convert(result, TableResult | None)
    except msgspec.ValidationError as err:
        text = str(err)
        found = _MSGSPEC_PATH.search(text)
        path = f"{tw}.result{found.group(1)}" if found else f"{tw}.result"
        raise InvalidEvent(text[:found.start()] if found else text, path) from None
    table = msgspec.structs.replace(table, result=parsed)
    _check_result(event, game_of(event.system), table, tw)
    return table


def game_of(system: System) -> Game[Any]:
    game = registry.get(system.game)
    if game is None:
        raise InvalidEvent(f"unknown game {shown(system.game)}", "system.game",
                           code="game_unknown")
    return game


def side_seats(system: System, game: Game[Any]) -> tuple[tuple[int, ...], ...]:
    """The seat indices of each side at a table (partners together); one side per seat when
    the game has no partnerships at the table size."""
    return game.partnerships.get(system.table_size) or tuple((i,) for i in range(system.table_size))


def unit_size(system: System, game: Game[Any]) -> int:
    """Seats one entrant fills: a side's with fixed teams, else 1."""
    return len(side_seats(system, game)[0]) if system.partners == "fixed" else 1


def _under(err: InputError, prefix: str) -> InputError:
    """The same error, its path (and each of its paths) under `prefix`: a game's own check of
    its options names `options.x`, which in an event is `system.options.x`."""
    moved = {f"{prefix}.{k}": v for k, v in err.errors.items()} if err.errors else None
    out = type(err)(err.message, f"{prefix}.{err.path}" if err.path else prefix, err.code, moved)
    out.ja = err.ja
    return out


def check_system(system: System) -> Game[Any]:
    game = game_of(system)
    n = system.table_size
    if not MIN_TABLE <= n <= MAX_TABLE or not game.min_players <= n <= game.max_players:
        raise InvalidEvent(f"{game.id} is played {game.min_players}–{game.max_players} at a "
                           f"table, and an event seats {MIN_TABLE}–{MAX_TABLE}: not {n}",
                           "system.table_size")
    has_partners = n in game.partnerships
    if has_partners == (system.partners == "none"):
        wanted = "fixed or rotating" if has_partners else "none"
        raise InvalidEvent(f"{game.id} at tables of {n} has "
                           f"{'' if has_partners else 'no '}fixed partners: partners is {wanted}",
                           "system.partners")
    try:  # InvalidOptions (options_invalid) names the option, here under the system
        game.resolve_options(system.options)
        # a table size within the bounds a game still may not deal (Manillen's five)
        adjudicate.deal(game.id, [f"seat{i + 1}" for i in range(n)], system.options, seed="")
    except InvalidOptions as err:
        raise _under(err, "system") from None
    except InputError as err:
        raise InvalidEvent(f"{game.id} does not deal to tables of {n}: {err.message}",
                           "system.table_size") from None
    if system.rounds < 1 or system.rounds > MAX_ROUNDS:
        raise InvalidEvent(f"an event has 1–{MAX_ROUNDS} rounds", "system.rounds")
    end = system.round_end
    if (isinstance(end, DealsEnd) and end.deals < 1) or (isinstance(end, TimeEnd)
                                                         and end.minutes < 1):
        raise InvalidEvent("a round lasts at least one deal or one minute", "system.round_end")
    if not system.event_points:
        raise InvalidEvent("event points are given for at least 1st place", "system.event_points")
    if len(set(system.tie_breaks)) != len(system.tie_breaks):
        raise InvalidEvent("each tie-break is listed once", "system.tie_breaks")
    if not 0 <= system.same_deals <= MAX_SAME_DEALS:
        raise InvalidEvent(f"same_deals is 0–{MAX_SAME_DEALS}", "system.same_deals")
    return game


def _check_entrants(event: Event, game: Game[Any]) -> None:
    size = unit_size(event.system, game)
    ids: dict[str, str] = {seat_key(t): f"the team id {t}" for t in game.team_ids}
    for i, entrant in enumerate(event.entrants):
        where = f"entrants[{i}]"
        _unique(ids, entrant.id, f"{where}.id")
        if event.system.partners == "fixed":
            if len(entrant.members) != size:
                raise InvalidEvent(f"a team has {size} members (a side's seats), not "
                                   f"{len(entrant.members)}", f"{where}.members")
            for j, member in enumerate(entrant.members):
                _unique(ids, member.id, f"{where}.members[{j}].id")
        elif entrant.members:
            raise InvalidEvent("only a fixed team has members", f"{where}.members")
        if entrant.entered_round < 1:
            raise InvalidEvent("rounds count from 1", f"{where}.entered_round")
        if entrant.withdrawn_round is not None and entrant.withdrawn_round <= entrant.entered_round:
            raise InvalidEvent("an entrant withdraws after the round it entered",
                               f"{where}.withdrawn_round")


def _unique(ids: dict[str, str], value: str, path: str) -> None:
    """Ids are seat ids (a record's players): none may look like another (engine/seats.py)."""
    if not value:
        raise InvalidEvent("an id is not empty", path)
    key = seat_key(value)
    if key in ids:
        raise InvalidEvent(f"{shown(value)} looks like {ids[key]}", path)
    ids[key] = shown(value)


def _check_round(event: Event, game: Game[Any], k: int, rnd: Round) -> None:
    """A round's tables and byes name active entrants, each once, each table full and seated
    as its entrants' seats are; a result's record is of the table's seats."""
    where = f"rounds[{k}]"
    active = set(active_units(event, k + 1))
    seen: set[str] = set()
    # Seat ids of the round: a substitute sits at one table, under no id that looks like
    # another seat's of the round or a team id of the game (the record's seats: check_players)
    sitting: dict[str, str] = {seat_key(t): f"the team id {t}" for t in game.team_ids}
    for j, bye in enumerate(rnd.byes):
        _seat_once(bye, active, seen, f"{where}.byes[{j}]")
    for t, table in enumerate(rnd.tables):
        tw = f"{where}.tables[{t}]"
        if len(table.seats) != event.system.table_size:
            raise InvalidEvent(f"a table has {event.system.table_size} seats", f"{tw}.seats")
        for entrant in dict.fromkeys(s.entrant for s in table.seats):
            _seat_once(entrant, active, seen, f"{tw}.seats")
        _check_seats(event, game, table, tw)
        for s, seat in enumerate(table.seats):
            _unique(sitting, _seated(seat), f"{tw}.seats[{s}]")
    if len(rnd.deals) not in (0, event.system.same_deals):
        raise InvalidEvent(f"the same deals commit {event.system.same_deals} seeds",
                           f"{where}.deals")


def _seat_once(entrant: str, active: set[str], seen: set[str], path: str) -> None:
    if entrant not in active:
        raise InvalidEvent(f"{shown(entrant)} is no entrant who may be seated in this round", path)
    if entrant in seen:
        raise InvalidEvent(f"{shown(entrant)} is seated twice in this round", path)
    seen.add(entrant)


def _check_seats(event: Event, game: Game[Any], table: Table, tw: str) -> None:
    sides = side_seats(event.system, game)
    by_id = {e.id: e for e in event.entrants}
    for s, seat in enumerate(table.seats):
        if seat.player not in players_of(by_id[seat.entrant]):
            raise InvalidEvent(f"{shown(seat.player)} does not play for {shown(seat.entrant)}",
                               f"{tw}.seats[{s}].player")
    if event.system.partners == "fixed":
        for side in sides:
            if len({table.seats[i].entrant for i in side}) != 1:
                raise InvalidEvent("a team fills one side's seats", f"{tw}.seats")
    if len({seat_key(_seated(s)) for s in table.seats}) != len(table.seats):
        raise InvalidEvent("a player sits once at a table", f"{tw}.seats")
    _check_result(event, game, table, tw)


def _check_result(event: Event, game: Game[Any], table: Table, tw: str) -> None:
    """The table's result, where it has one: a record of the table's seats, or a reported
    result of its entrants."""
    result = table.result
    if result is None:
        return
    if (result.record is None) == (result.reported is None):
        raise InvalidEvent("a result is a record or a reported result", f"{tw}.result")
    if result.reported is not None:
        _check_reported(game, result.reported, {s.entrant for s in table.seats},
                        f"{tw}.result.reported")
        _check_confirmed(result.reported, seat_ids(table), f"{tw}.result.reported.confirmed")
    else:
        _check_record(event, table, f"{tw}.result.record")


def _seated(seat: Seat) -> str:
    """The seat id a table's record names: the substitute's when one took the seat."""
    return seat.substitute.id if seat.substitute is not None else seat.player


def seat_ids(table: Table) -> list[str]:
    return [_seated(s) for s in table.seats]


def _check_reported(game: Game[Any], reported: Reported, entrants: set[str], path: str) -> None:
    if reported.deals is not None:
        reported_deals(game, reported.deals, f"{path}.deals")  # their shape; scoring: standings
    elif reported.places is None:
        raise InvalidEvent("a reported result gives its places, or its deals where the game "
                           "scores them", f"{path}.places")
    if reported.places is not None and set(reported.places) != entrants:
        raise InvalidEvent("a reported result places every entrant at the table, no other",
                           f"{path}.places")
    for entrant, place in (reported.places or {}).items():
        if not 1 <= place <= len(entrants):
            raise InvalidEvent(f"a place is 1–{len(entrants)}", f"{path}.places.{entrant}")
    if reported.scores is not None and set(reported.scores) != entrants:
        raise InvalidEvent("scores are given for every entrant at the table", f"{path}.scores")


def _check_confirmed(reported: Reported, seats: list[str], path: str) -> None:
    """Each confirmation is by a seat of the table (the seat id sitting there), once."""
    seen: set[str] = set()
    for j, confirmation in enumerate(reported.confirmed):
        if confirmation.seat not in seats:
            raise InvalidEvent(f"{shown(confirmation.seat)} is not seated at this table: only "
                               "its seats confirm its result", f"{path}[{j}].seat")
        if confirmation.seat in seen:
            raise InvalidEvent(f"{shown(confirmation.seat)} confirms once", f"{path}[{j}].seat")
        seen.add(confirmation.seat)


def unconfirmed(event: Event, table: Table) -> list[str]:
    """The table's seats (seat order) whose confirmation its reported result lacks where the
    event asks each seat to confirm one; [] where it asks none, or for a record or no result."""
    reported = table.result.reported if table.result else None
    if reported is None or event.system.confirmations != "seats":
        return []
    done = {c.seat for c in reported.confirmed}
    return [seat for seat in seat_ids(table) if seat not in done]


def reported_deals(game: Game[Any], deals: list[Any], path: str) -> list[Any]:
    """A reported result's deals decoded as the game's reported-deal type
    (`Game.reported.deal`); a deal that does not fit, or a game that scores no reported
    deals, an InvalidEvent naming its path (`….deals[2].order[1]`)."""
    if game.reported is None:
        raise InvalidEvent(f"{game.id} scores no reported deals: a table reports its places",
                           path)
    if len(deals) > MAX_REPORTED_DEALS:
        raise InvalidEvent(f"a reported result lists at most {MAX_REPORTED_DEALS} deals, not "
                           f"{len(deals)}", path)
    out: list[Any] = []
    for j, deal in enumerate(deals):
        try:
            out.append(msgspec.convert(deal, game.reported.deal))
        except msgspec.ValidationError as err:
            text = str(err)
            found = _MSGSPEC_PATH.search(text)
            inner = found.group(1) if found else ""
            raise InvalidEvent(text[:found.start()] if found else text,
                               f"{path}[{j}]{inner}") from None
    return out


def _check_record(event: Event, table: Table, path: str) -> None:
    try:
        record: MatchRecord = parse_record(table.result.record if table.result else None)
    except InputError as err:
        raise InvalidEvent(err.message, f"{path}.{err.path}" if err.path else path) from None
    if record.game != event.system.game:
        raise InvalidEvent(f"a record of {shown(record.game)} at an event of "
                           f"{event.system.game}", f"{path}.game")
    if record.players != seat_ids(table):
        raise InvalidEvent("a table's record seats its players in the table's seat order",
                           f"{path}.players")


def _check_penalties(event: Event) -> None:
    ids = {e.id for e in event.entrants}
    for i, p in enumerate(event.penalties):
        if p.entrant not in ids:
            raise InvalidEvent(f"{shown(p.entrant)} is no entrant", f"penalties[{i}].entrant")
        if not 1 <= p.round <= max(len(event.rounds), 1):
            raise InvalidEvent("a penalty is given in a round played", f"penalties[{i}].round")
        if (p.kind == "points") != (p.points > 0):
            raise InvalidEvent("a points penalty takes points off (> 0); nothing else does",
                               f"penalties[{i}].points")
