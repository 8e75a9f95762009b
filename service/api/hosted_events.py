"""Hosted events (docs/hosted-events.md): events the service keeps in Redis
(service/event_store.py), changed by whoever holds the right credential, seen by anyone.

Who may do what, all in `Authorization: Bearer …`:
- a **director key** (CARDREF_DIRECTOR_KEYS) creates events, and gives an event a new director
  token (a lost or revoked one);
- a **director token** (answered at the creation) manages its one event: entrants, rounds,
  results, penalties, tokens, the document;
- a **table token** (one per table, answered when a round starts) writes its table's result in
  its round, while the round is open; with signing or sealing on, a record that adds a referee
  act (a penalty, a chombo, a deal from the cards) also needs the referee key, in
  `X-Referee-Key` (require_referee_for_acts);
- nobody needs anything to read an event's public view (`GET /v1/events/{id}`).

Every change is one compare-and-set on the event's version: the director's changes name the
version they were computed from (`If-Match: "<version>"`; another version: 409
version_conflict); a table's result may name it, and without it is applied to the latest
version (it replaces only that table's result). A change sent with an `Idempotency-Key` is
answered again as the first time when sent again (same key, same request); the key with
another request is refused (409 idempotency_key_reused).

The engine computes every document (engine/events/: parse_event, next_round, reveal_round,
standings); nothing here knows a game's rules.
"""
from __future__ import annotations

import dataclasses
import datetime
import hashlib
import re
import secrets
import threading
import time
from types import SimpleNamespace
from typing import Any, Callable, Sequence

import msgspec
import orjson
from flask import Response, request
from webargs import core

from engine import records
from engine.errors import InputError, shown
from engine.events import digest, next_round, parse_event, reveal_round
from engine.events.format import parse_table_result
from engine.events.seating import deal_seeds
from engine.events.standings import (
    as_json,
    keep_replay,
    reading,
    replayed,
    standings,
    table_outcome,
    table_places,
)

from .. import event_store
from ..cache import cache_key
from ..compression import answer_is_cached
from ..errors import problem
from ..event_store import (
    CALL_REASONS,
    BaseMismatch,
    Change,
    DocumentMoved,
    EventStore,
    EventsUnavailable,
    IdempotencyKeyReused,
    RefereeCall,
    Retry,
    Snapshot,
    Token,
    TokenRevoked,
    VersionConflict,
)
from ..jsonio import body_bytes, invalid_json, raw_json_body
from ..trust import REFEREE_KEY_HEADER, TOKEN_MAX_LENGTH, Guard, RefereeActsNeedKey
from .common import RefereeBlueprint
from .spec import called_directly

IDEMPOTENCY_HEADER = "Idempotency-Key"
# A table's result computed from the document without results is written again on a newer
# version of the same document (other tables wrote meanwhile) up to this many times: a write
# costs a round trip, not a new check, and 50 tables pushing at once collide often.
_FRAME_RETRIES = 64
_ID_PATTERN = "^[A-Za-z0-9_-]{22}$"


class DirectorKeyRequired(InputError):
    """Creating an event without a director key (403)."""

    code = "director_key_required"
    http_status = 403


class EventTokenInvalid(InputError):
    """A change or a director's read without a token of this event allowed to make it (403):
    missing, wrong, revoked, another event's, another table's or round's."""

    code = "event_token_invalid"
    http_status = 403


class ConfirmationNotAllowed(InputError):
    """A table's token sending a seat's confirmation its page cannot vouch for (403): a table
    confirms by its seats' taps (`via: "table"`); `director` is the director's word alone."""

    code = "confirmation_not_allowed"
    http_status = 403


# Which `via` of a seat's confirmation each token may send (docs/events.md "Confirmations"):
# the engine cannot tell who wrote a result, the service can. A way the service checks itself
# (a player's PIN, one day) is one more entry here.
_CONFIRMING = {"table": ("table",), "director": ("table", "director")}


def _confirmations_allowed(token: Token, result: Any) -> None:
    """Each confirmation in a reported result is one the token may send (403
    confirmation_not_allowed at the first that is not, nothing written). A body of another
    shape is the document's to refuse (422)."""
    reported = result.get("reported") if isinstance(result, dict) else None
    confirmed = reported.get("confirmed") if isinstance(reported, dict) else None
    allowed = _CONFIRMING.get(token.role, ())
    for j, confirmation in enumerate(confirmed if isinstance(confirmed, list) else []):
        via = confirmation.get("via") if isinstance(confirmation, dict) else None
        # a way no token sends is no confirmation at all: the document's to refuse (422)
        if via in _CONFIRMING["director"] and via not in allowed:
            said = " or ".join(f'"{v}"' for v in allowed)
            refused = ConfirmationNotAllowed(
                f"this token confirms a seat only as {said}: \"{via}\" is not its to say (the "
                "director attests a seat that signed the score sheet, with the director token)",
                f"reported.confirmed[{j}].via")
            refused.ja = (f"このトークンが送れる席の確認は {said} だけです: \"{via}\" は送れません"
                          "(記録用紙に署名した席の確認は、ディレクターが自分のトークンで入力します)")
            raise refused


class EventDealUnknown(InputError):
    """A deal request naming an event's same deal the service does not have (422): no such
    event kept here, round seated or same deal (`deal` past the event's `same_deals`)."""

    code = "event_deal_unknown"
    http_status = 422


class EventDealConflict(InputError):
    """A deal request naming an event's committed deal beside a seed, salt, deck, hands or
    table of its own (422): the committed deal's cards are the event's, not the caller's."""

    code = "event_deal_conflict"
    http_status = 422


class EventNotFound(InputError):
    """No event of this id is kept here (404), or no such round, table, seat or entrant."""

    code = "event_not_found"
    http_status = 404


class RecordNotPublic(InputError):
    """A table's record asked for while its round is open (403): an open round's hands and
    moves are nobody's to see but its table's, until the round is closed."""

    code = "record_not_public"
    http_status = 403


class VersionRequired(InputError):
    """A director's change without `If-Match` naming the version it was computed from (428)."""

    code = "version_required"
    http_status = 428


class EventStateConflict(InputError):
    """A change the event's progress does not allow now (409): `round_not_closed`,
    `round_closed`, `event_published`."""

    http_status = 409


# ------------------------------------------------------------------ the spec

def _problems(**statuses: str) -> dict[str, Any]:
    ref = {"$ref": "#/components/schemas/Problem"}
    return {status[1:]: {"description": text,
                         "content": {"application/problem+json": {"schema": ref}}}
            for status, text in statuses.items()}


_COMMON_PROBLEMS = {
    "_400": "Malformed JSON (`json_malformed`)",
    "_404": "No such event here (`event_not_found`: an unknown id, or no such round, table, "
            "seat, entrant or token)",
    "_413": "Body too large (`body_too_large`) or a record past a limit (`limit_exceeded`)",
    "_415": "Body not declared as JSON (`unsupported_media_type`)",
    "_422": "The change makes no valid event (`event_invalid`, `event_record_inconsistent`, "
            "`reported_result_inconsistent`, "
            "`plan_invalid`, `options_invalid`, `game_unknown`, `event_version_unsupported`, "
            "`json_duplicate_key`; `request_invalid`)",
    "_503": "The events' store does not answer (`events_unavailable`); with an "
            "Idempotency-Key the same request may be sent again",
}
_CHANGE_PROBLEMS = {
    **_COMMON_PROBLEMS,
    "_403": "No token of this event allowed to make this change (`event_token_invalid`)",
    "_409": "The event moved on (`version_conflict`: the answer's `ETag` is its version now), "
            "the Idempotency-Key was used for another request (`idempotency_key_reused`), or "
            "the event's progress does not allow it (`round_not_closed`, `round_closed`, "
            "`event_published`)",
    "_428": "A director's change without `If-Match` (`version_required`)",
}
EVENT_ID_PARAMETER = {"in": "path", "name": "eid", "required": True,
                      "description": "the event's id, answered when it was created",
                      "schema": {"type": "string", "pattern": _ID_PATTERN}}
IF_MATCH_PARAMETER = {"in": "header", "name": "If-Match", "required": True,
                      "description": "the event's version the change was computed from, as "
                                     "the ETag of the answer that gave it (`\"7\"`)",
                      "schema": {"type": "string", "maxLength": 32}}
IDEMPOTENCY_PARAMETER = {"in": "header", "name": IDEMPOTENCY_HEADER, "required": False,
                         "description": "any random string (a UUID): the same request sent "
                                        "again with it is answered as the first time, for "
                                        "24 hours",
                         "schema": {"type": "string", "pattern": "^[\\x21-\\x7e]{1,128}$"}}
REFEREE_KEY_PARAMETER = {
    "in": "header", "name": REFEREE_KEY_HEADER, "required": False,
    "description": "with signing or sealing on: a key of CARDREF_REFEREE_KEYS, beside the "
                   "table's token in Authorization, for a record that adds a referee act (a deal "
                   "from the cards, match values, a dealer past the first deal, a warning, "
                   "penalty or withdrawal, a game's referee-only action such as Man's chombo); "
                   "not needed with the director token, nor with neither signing nor sealing on",
    "schema": {"type": "string"}}
_CONFIRMATION_PROBLEM = (
    "; a table's token sending a confirmation other than `via: \"table\"` "
    "(`confirmation_not_allowed`, its path in `errors`)")
_REFEREE_ACTS_PROBLEM = (
    "; with signing or sealing on, a table's record adding a referee act without the referee "
    "key in X-Referee-Key (`referee_key_required`, the act's path in `errors`)")
_CHANGED = {"type": "object", "required": ["id", "version"], "properties": {
    "id": {"type": "string"}, "version": {"type": "integer", "minimum": 1}},
    "additionalProperties": True}
_OBJECT = {"type": "object", "additionalProperties": True}


_NULLABLE_TEXT = {"type": "string", "nullable": True}
_TOTALS = {"type": "object", "additionalProperties": {"type": "integer"},
           "description": "points by the record's targets (a player's id, or a team's)"}
_PLAYERS = {"type": "array", "items": {"type": "string"}, "description": "the record's `players`"}
# A table's record as the public view shows it: while its round is open, its progress; once
# closed, its summary (the whole record: …/tables/{t}/record).
_PROGRESS_SCHEMA = {"type": "object", "required": ["players", "deals_finished", "deals", "totals"],
             "description": "an open round's record: its finished deals' totals, never a "
                            "seed, a hand or a move",
             "properties": {"players": _PLAYERS, "deals_finished": {"type": "integer"},
                            "deals": {"type": "array", "items": {
                                "type": "object", "required": ["totals"],
                                "properties": {"totals": _TOTALS}}},
                            "totals": _TOTALS}}
_SUMMARY_SCHEMA = {"type": "object", "required": ["players", "deals", "totals", "actions", "digest"],
            "description": "a closed round's record summed up: how each deal was dealt (no "
                           "cards: the whole record is `getEventTableRecord`'s), its totals, "
                           "the match's, the record's actions and digest",
            "properties": {"players": _PLAYERS,
                           "deals": {"type": "array", "items": {
                               "type": "object", "required": ["deal", "totals"],
                               "properties": {
                                   "deal": {"type": "object", "additionalProperties": False,
                                            "properties": {k: _NULLABLE_TEXT
                                                           for k in ("seed", "seed_salt",
                                                                     "seed_commitment",
                                                                     "dealer")}},
                                   "totals": _TOTALS}}},
                           "totals": _TOTALS, "actions": {"type": "integer"},
                           "digest": {"type": "string"}}}
_SHOWN_TABLE = {"type": "object", "required": ["number", "seats"], "additionalProperties": True,
                "properties": {
                    "number": {"type": "integer"},
                    "seats": {"type": "array", "items": _OBJECT},
                    "places": {"type": "object", "additionalProperties": {"type": "integer"},
                               "description": "each entrant's place at the table, once it has "
                                              "a result"},
                    "result": {"type": "object", "additionalProperties": False,
                               "description": "a record as `progress` (round open) or "
                                              "`summary` (closed); a reported result as "
                                              "reported",
                               "properties": {"progress": _PROGRESS_SCHEMA, "summary": _SUMMARY_SCHEMA,
                                              "reported": _OBJECT}}}}
_PUBLIC_VIEW = {
    "type": "object", "required": ["id", "version", "published", "event", "standings"],
    "properties": {
        "id": {"type": "string"}, "version": {"type": "integer"},
        "published": {"type": "boolean"},
        "event": {"type": "object", "additionalProperties": True,
                  "description": "the event document (`EventDocument`) as anyone may see it: "
                                 "each table's record reduced (`progress`, `summary`), its "
                                 "`places` added",
                  "properties": {"rounds": {"type": "array", "items": {
                      "type": "object", "additionalProperties": True,
                      "properties": {"tables": {"type": "array", "items": _SHOWN_TABLE}}}}}},
        "standings": {"type": "array", "items": _OBJECT}}}


def _json_answer(status: int, schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {str(status): {"description": description,
                          "headers": {"ETag": {"description": "the event's version",
                                               "schema": {"type": "string"}}},
                          "content": {"application/json": {"schema": schema}}}}


def _body(schema: dict[str, Any], required: bool = True) -> dict[str, Any]:
    return {"required": required, "content": {"application/json": {"schema": schema}}}


def _schema_of(kind: type[msgspec.Struct]) -> dict[str, Any]:
    """A request body as the engine declares it (engine/events/format.py), in OpenAPI 3.0."""
    from engine.state import openapi_schema

    from ..schemas import _without_empty_required

    schema: dict[str, Any] = _without_empty_required(openapi_schema(kind, kind.__doc__ or ""))
    return schema


def _table_result_schema(kind: type[msgspec.Struct]) -> dict[str, Any]:
    """A table's result as a request body: a reported result's deals typed as the event
    document types them, `ReportedDeal` (anyOf each game's `<Game>ReportedDeal`), so a client
    generated from the spec sends each deal in its game's shape."""
    schema = _schema_of(kind)
    reported = schema["properties"]["reported"]["properties"]
    reported["deals"]["items"] = {"$ref": "#/components/schemas/ReportedDeal"}
    return schema


def _public_key(eid: str, version: int, stamp: str) -> str:
    """The cache's name for an event's public view at one change."""
    return cache_key("event-public", hashlib.sha256(
        f"{eid}\x00{version}\x00{stamp}".encode()).hexdigest())


def _record_key(eid: str, version: int, stamp: str, number: int, table: int) -> str:
    """The cache's name for a table's record answered at one change."""
    return cache_key("event-record", hashlib.sha256(
        f"{eid}\x00{version}\x00{stamp}\x00{number}\x00{table}".encode()).hexdigest())


def _closed_record(snap: Snapshot, number: int, table: int) -> bytes:
    """Table `table`'s record in round `number` (`snap`: the document without results and
    that table's result), as the document holds it; refused while the round is open."""
    rnd = _round(snap, number)
    _table(rnd, table)
    if rnd.get("seed") is None:
        raise RecordNotPublic(f"round {number} is open: its tables' records are public once "
                              "it is closed", "number")
    kept = (snap.results or {}).get(event_store.result_field(number, table))
    record = orjson.loads(kept).get("record") if kept else None
    if record is None:
        raise EventNotFound(f"table {table} of round {number} has no match record (a reported "
                            "result, or none)", "table")
    return orjson.dumps(record)


# ------------------------------------------------------------------ the routes

# What every director's change declares in the spec: the event, the version it was computed
# from, its Idempotency-Key, and its answers.
_DIRECTOR_CHANGE: dict[str, Any] = dict(
    parameters=[EVENT_ID_PARAMETER, IF_MATCH_PARAMETER, IDEMPOTENCY_PARAMETER],
    responses={**_json_answer(200, _CHANGED, "Changed: the new version"),
               **_problems(**_CHANGE_PROBLEMS)})


def build(ctx) -> RefereeBlueprint:
    """The hosted events' routes, on a blueprint of their own (/v1/events)."""
    from engine.events.format import Entrant, Penalty, Person, TableResult

    ext = ctx.ext
    settings = ext.settings
    kept_in = EventStore(settings.redis_url, settings.redis_timeout_seconds,
                         settings.redis_retry_seconds) if settings.redis_url else None
    # the deal route (service/api/play.py) looks an event's committed deal up in it
    ext.event_store = kept_in
    director_keys = [k.encode() for k in settings.director_keys]
    blp = RefereeBlueprint("hosted_events", __name__, url_prefix="/v1/events",
                           description="Events the service keeps: a director manages one, "
                                       "tables write their results, anyone reads the "
                                       "standings (docs/hosted-events.md)")

    # The routes come in groups, a function each; they share the helpers below through `h`
    # (each group binds the names it uses at its start, so its routes read as closures do).
    _error_handlers(blp)
    h = SimpleNamespace(ext=ext, settings=settings, kept_in=kept_in, director_keys=director_keys,
                        Entrant=Entrant, Penalty=Penalty, Person=Person, TableResult=TableResult)
    _who_asks(h)
    _table_writers(h)
    _answers(h)
    _creating_routes(blp, h)
    _reading_routes(blp, h)
    _entrant_routes(blp, h)
    _round_routes(blp, h)
    _table_routes(blp, h)
    _substitute_routes(blp, h)
    _director_routes(blp, h)
    _token_routes(blp, h)
    _call_routes(blp, h)
    return blp


def _error_handlers(blp: RefereeBlueprint) -> None:
    """The answers to the store's refusals, on the blueprint."""
    @blp.errorhandler(VersionConflict)
    def _conflict(err: VersionConflict):
        return problem(409, "version_conflict", str(err),
                       headers={"ETag": f'"{err.current}"'})

    @blp.errorhandler(BaseMismatch)
    def _base_mismatch(err: BaseMismatch):
        # the stored end named beside the problem: a page that lost its own learns it here
        answer = problem(409, "record_base_mismatch", str(err))
        body = orjson.loads(answer.get_data())
        body["end"] = err.stored or None
        answer.set_data(orjson.dumps(body))
        return answer

    @blp.errorhandler(IdempotencyKeyReused)
    def _reused(err: IdempotencyKeyReused):
        return problem(409, "idempotency_key_reused", str(err))

    @blp.errorhandler(TokenRevoked)
    def _revoked(err: TokenRevoked):
        return problem(403, "event_token_invalid", str(err))

    # app-wide: the deal route reads the store too, for an event's committed deal
    @blp.app_errorhandler(EventsUnavailable)
    def _unavailable(err: EventsUnavailable):
        detail = ("the events' store did not answer in time: whether the change was made is "
                  "unknown; send it again with the same Idempotency-Key to find out"
                  if err.outcome_unknown else
                  "the events' store does not answer; nothing was changed")
        return problem(503, "events_unavailable", detail, headers={"Retry-After": "1"})


def _who_asks(h: SimpleNamespace) -> None:
    """Who asks and what they ask about: the store, the caller's key or token, the event as
    stored, an Idempotency-Key's retry and the version a change names (set on `h`)."""
    kept_in, director_keys = h.kept_in, h.director_keys

    def db() -> EventStore:
        """The store; a service without one keeps no event (404 for any id)."""
        if kept_in is None:
            raise EventNotFound("no event of this id is kept here", "eid")
        return kept_in

    # -- who asks ------------------------------------------------------------------------
    def bearer() -> str | None:
        scheme, _, value = (request.headers.get("Authorization") or "").partition(" ")
        value = value.strip()
        return value if scheme.lower() == "bearer" and value else None

    def require_director_key() -> str:
        given = bearer()
        raw = given.encode("utf-8", "surrogatepass") if given else b""
        for key in director_keys:
            if given and secrets.compare_digest(raw, key):
                return key.decode()
        raise DirectorKeyRequired(
            "creating an event needs Authorization: Bearer <a key of CARDREF_DIRECTOR_KEYS>"
            + ("" if director_keys else " (none is configured here, so nobody may)"))

    def snapshot(eid: str, results: bool = True) -> Snapshot:
        """The event as stored; `results=False`: without its tables' results."""
        found = db().get(eid, results) if kept_in is not None and \
            event_store.EVENT_ID.fullmatch(eid) else None
        if found is None:
            raise EventNotFound("no event of this id is kept here", "eid")
        return found

    def version_of(eid: str) -> int:
        """The event's version, without its document (404: no such event)."""
        found = db().version(eid) if kept_in is not None and \
            event_store.EVENT_ID.fullmatch(eid) else None
        if found is None:
            raise EventNotFound("no event of this id is kept here", "eid")
        return found

    def token_of(eid: str, *, table: tuple[int, int] | None = None) -> Token:
        """The caller's token: the event's director token, or (where `table` names a round
        and table) that table's token. An unknown event is 404 before any token is read."""
        version_of(eid)
        given = bearer()
        return allowed(db().token(eid, given) if kept_in is not None and given else None,
                       table)

    def allowed(token: Token | None, table: tuple[int, int] | None) -> Token:
        """The caller's token if it may make the change (`table`: a table's, of that round
        and table), else EventTokenInvalid saying why."""
        if token is not None and token.role == "director":
            return token
        if token is not None and table is not None and (token.round, token.table) == table:
            return token
        if token is not None and table is not None:
            raise EventTokenInvalid(f"this token writes table {token.table} of round "
                                    f"{token.round} only")
        raise EventTokenInvalid(
            "this needs Authorization: Bearer <the event's director token>"
            + (" or the table's token" if table is not None else "")
            + ": none was sent, or it is not one of this event's, or it was revoked")

    def retry_of(token_id: str) -> Retry | None:
        key = request.headers.get(IDEMPOTENCY_HEADER)
        if key is None:
            return None
        if not event_store.IDEMPOTENCY_KEY.fullmatch(key):
            raise InputError("an Idempotency-Key is 1–128 visible ASCII characters",
                             IDEMPOTENCY_HEADER, code="request_invalid")
        what = b"\x00".join([request.method.encode(), request.path.encode(), token_id.encode(),
                             request.get_data()])
        return Retry(key, what)

    def expected_version(snap: Snapshot, required: bool) -> int | None:
        raw = request.headers.get("If-Match")
        if raw is None:
            if required:
                raise VersionRequired("a director's change names the version it was computed "
                                      "from: If-Match: \"<version>\" (the ETag of the answer "
                                      "that gave the document)")
            return None
        value = raw.strip().removeprefix("W/").strip('"')
        if not value.isdigit() or len(value) > 15:
            raise InputError("If-Match is the event's version, as an ETag: \"7\"", "If-Match",
                             code="request_invalid")
        if int(value) != snap.version:
            raise VersionConflict(f"the event is at version {snap.version}, not {value}",
                                  snap.version)
        return int(value)

    h.db = db
    h.bearer = bearer
    h.require_director_key = require_director_key
    h.snapshot = snapshot
    h.version_of = version_of
    h.token_of = token_of
    h.allowed = allowed
    h.retry_of = retry_of
    h.expected_version = expected_version


def _table_writers(h: SimpleNamespace) -> None:
    """A table's writer, known in one read of the store and kept per process for its appends
    (set on `h`)."""
    db, bearer, allowed = h.db, h.bearer, h.allowed

    def table_writer(eid: str, table: tuple[int, int], fresh: bool = False
                     ) -> tuple[Token, int, bool, str]:
        """token_of(eid, table=table) in one read of the store, with what an append needs
        besides: (the token, the event's version, whether it is published, its document's
        frame stamp). Unless `fresh`, from what this process read last for the same token
        and event, without asking the store: the append's script checks again that the
        token still exists, the document is that one and the event not published."""
        given = bearer() or ""
        mark = (eid, hashlib.sha256(given.encode("utf-8", "surrogatepass")).digest())
        kept, frame_stamp = _WRITERS.get(mark), _FRAMES.get(eid)
        if not fresh and kept is not None and frame_stamp is not None:
            return allowed(kept, table), 0, False, frame_stamp
        found = db().push_context(eid, event_store.token_id_of(given)) if \
            event_store.EVENT_ID.fullmatch(eid) else None
        if found is None:
            raise EventNotFound("no event of this id is kept here", "eid")
        version, published, frame_stamp, raw = found
        token = allowed(event_store.verified(given, raw) if given else None, table)
        if given and frame_stamp and not published:
            _bounded(_WRITERS, _WRITERS_KEEP)[mark] = token
            _bounded(_FRAMES, _WRITERS_KEEP)[eid] = frame_stamp
        return token, version, published, frame_stamp

    def forget_writer(eid: str) -> None:
        """What table_writer kept for this caller and event (its token was revoked)."""
        given = bearer() or ""
        _WRITERS.pop((eid, hashlib.sha256(given.encode("utf-8", "surrogatepass")).digest()),
                     None)

    h.table_writer = table_writer
    h.forget_writer = forget_writer


def _answers(h: SimpleNamespace) -> None:
    """An answer with its version, and a change made as a compare-and-set (set on `h`)."""
    db, snapshot, retry_of, expected_version = h.db, h.snapshot, h.retry_of, h.expected_version

    def answered(body: bytes, status: int = 200, version: int | None = None) -> Response:
        """The answer, its ETag the event's version (read from a change's small answer
        unless given)."""
        if version is None:
            version = orjson.loads(body).get("version")
        response = Response(body, status=status, content_type="application/json")
        if version:
            response.headers["ETag"] = f'"{version}"'
        return response

    def changed(eid: str, token: Token, compute: Callable[[Snapshot], tuple[Change, dict]],
                *, version_required: bool = True, status: int = 200,
                results: bool = True, rewritable: Callable[[], bool] = lambda: True
                ) -> Response:
        """Apply `compute` (the event as stored → what changes and what the answer adds) as
        a compare-and-set on the version; a table's change without If-Match is computed again
        on the newer version when another change came first. `results=False`: `compute`
        reads the document without its tables' results (a table's own result), and its
        change is written again unchanged on a newer version where only tables' results
        changed — unless `rewritable()` says the change read a result too (then it is
        computed again: that result may be what changed)."""
        retry = retry_of(token.id)
        if retry is not None:
            kept = db().kept_answer(eid, retry)
            if kept is not None:
                return answered(kept, status)
        snap = snapshot(eid, results)
        expected = expected_version(snap, version_required)
        computed = rewritten = 0
        pending: tuple[Change, dict] | None = None
        while True:
            if pending is None:
                if snap.published:
                    raise EventStateConflict("the event is published: it changes no more", "",
                                             code="event_published")
                pending = compute(snap)
                computed += 1
            change, extra = pending

            def answer(version: int, extra: dict = extra) -> bytes:
                return orjson.dumps({"id": eid, "version": version, **extra})
            try:
                _version, body = db().change(eid, snap.version, change, answer, retry,
                                              acting=token.id, base=snap)
                return answered(body, status)
            except VersionConflict as err:
                if expected is not None:
                    raise
                if not results and err.frame == snap.frame and rewritten < _FRAME_RETRIES \
                        and rewritable():
                    # only other tables' results changed: a change computed from the
                    # document without them stands, and is written on the newer version
                    snap = dataclasses.replace(snap, version=err.current)
                    rewritten += 1
                    continue
                if computed >= event_store.APPLY_ATTEMPTS:
                    raise
                snap = snapshot(eid, results)
                pending = None

    h.answered = answered
    h.changed = changed


def _creating_routes(blp: RefereeBlueprint, h: SimpleNamespace) -> None:
    """Creating an event."""
    (kept_in,
     db,
     require_director_key,
     retry_of,
     answered) = (h.kept_in, h.db, h.require_director_key, h.retry_of, h.answered)
    # -- creating ------------------------------------------------------------------------
    @blp.route("", methods=["POST"])
    @blp.doc(operationId="createEvent",
             summary="Create an event kept here (director key): its id and director token",
             description="`Authorization: Bearer <director key>` (CARDREF_DIRECTOR_KEYS). The "
                         "body is the event document (docs/events.md): its entrants and "
                         "system, usually no rounds yet (rounds it brings are revealed). "
                         "The answer's `director_token` manages this event only; keep it.",
             parameters=[IDEMPOTENCY_PARAMETER],
             requestBody=_body({**_OBJECT, "description": "an event document "
                                                           "(`card-referee/event`)"}),
             responses={**_json_answer(201, {"type": "object", "required": [
                 "id", "version", "director_token", "director_token_id"], "properties": {
                 "id": {"type": "string", "pattern": _ID_PATTERN},
                 "version": {"type": "integer"}, "director_token": {"type": "string"},
                 "director_token_id": {"type": "string"}}}, "The event, created"),
                 **_problems(**_COMMON_PROBLEMS, _403="Not a director key "
                                                       "(`director_key_required`)",
                             _409="The Idempotency-Key created another event "
                                  "(`idempotency_key_reused`)")})
    def create_event():
        key = require_director_key()
        if kept_in is None:
            raise EventsUnavailable("this service keeps no events: CARDREF_REDIS_URL is not "
                                    "set")
        document = _body_json()
        parsed = parse_event(document)
        for k, rnd in enumerate(parsed.rounds):
            if rnd.seed is None:
                raise InputError("an event brought here has its rounds revealed (their seeds "
                                 "are nobody's to keep here)", f"rounds[{k}].seed",
                                 code="event_invalid")
        idem = request.headers.get(IDEMPOTENCY_HEADER)
        retry = retry_of("director-key")
        eid = event_store.event_id(key, idem if retry else None)
        if retry is not None:
            kept = db().kept_answer(eid, retry)
            if kept is not None:
                return answered(kept, 201)
        token, record, stored = event_store.new_token("director")
        change = Change(_normal(parsed), {}, {record.id: stored}, {})
        try:
            _version, body = db().change(eid, 0, change, lambda version: orjson.dumps({
                "id": eid, "version": version, "director_token": token,
                "director_token_id": record.id}), retry)
        except VersionConflict:  # only a derived id exists already: its key's record expired
            raise IdempotencyKeyReused("this Idempotency-Key created another event "
                                       "already") from None
        return answered(body, 201)



def _reading_routes(blp: RefereeBlueprint, h: SimpleNamespace) -> None:
    """Reading an event: its public view, a closed table's record, its whole document."""
    (ext,
     kept_in,
     db,
     snapshot,
     token_of) = (h.ext, h.kept_in, h.db, h.snapshot, h.token_of)

    @blp.route("/<eid>", methods=["GET"])
    @blp.doc(operationId="getEvent",
             summary="An event's public view and standings (no key)",
             description="The event document as anyone may see it — no seed before its round "
                         "is closed (they are never in it), and while a round is open each "
                         "table's record shows only its finished deals' totals (`progress`), "
                         "never a hand or a move; once closed, its summary (each deal's seed "
                         "and totals, the record's digest: `summary`), the whole record being "
                         "`getEventTableRecord`'s — with each table's places and the standings "
                         "(docs/events.md \"Standings\"). Its `ETag` names the version and "
                         "the change (`\"7.3f9c…\"`).",
             parameters=[EVENT_ID_PARAMETER],
             responses={**_json_answer(200, _PUBLIC_VIEW, "The public view"),
                 **_problems(_404=_COMMON_PROBLEMS["_404"],
                             _422="A stored record no longer replays "
                                  "(`event_record_inconsistent`)",
                             _503=_COMMON_PROBLEMS["_503"])})
    @called_directly
    def public_view(eid: str):
        def build() -> tuple[int, str, bytes] | None:
            # a new version: built from what changed since the last view built here, only
            # that read from the store
            built = _BUILT.get(eid)
            parts = db().parts(eid, *_held(built))
            if parts is None:
                return None
            return parts.version, parts.stamp, orjson.dumps(public_of(parts, built))
        return cached_at_latest(eid, lambda version, stamp: _public_key(eid, version, stamp),
                                build)

    @blp.route("/<eid>/rounds/<int:number>/tables/<int:table>/record", methods=["GET"])
    @blp.doc(operationId="getEventTableRecord",
             summary="A closed round's table's whole match record (no key)",
             description="The record the table wrote (`card-referee/match-record`), every deal "
                         "and action, as the event document holds it: re-check it anywhere "
                         "(`POST /v1/records/check`). The public view shows it reduced "
                         "(`summary`: each deal's seed and totals, its digest). While the "
                         "round is open nobody may read it here (403 `record_not_public`: "
                         "its hands and moves would show cards still in play). Its `ETag` "
                         "names the event's version and change, as the public view's.",
             parameters=[EVENT_ID_PARAMETER],
             responses={**_json_answer(200, {"$ref": "#/components/schemas/MatchRecord"},
                                       "The table's match record"),
                        **_problems(_403="The round is open (`record_not_public`)",
                                    _404="No such event here, or no such round or table, or "
                                         "the table has no match record (a reported result "
                                         "or none) (`event_not_found`)",
                                    _503=_COMMON_PROBLEMS["_503"])})
    @called_directly
    def table_record(eid: str, number: int, table: int):
        def build() -> tuple[int, str, bytes] | None:
            # the document without its results and this table's result alone, at one version
            snap = db().with_table_result(eid, number, table)
            if snap is None:
                return None
            return snap.version, snap.stamp, _closed_record(snap, number, table)
        return cached_at_latest(
            eid, lambda version, stamp: _record_key(eid, version, stamp, number, table), build)

    def cached_at_latest(eid: str, key_of: Callable[[int, str], str],
                         build: Callable[[], tuple[int, str, bytes] | None]) -> Response:
        """An answer about the event at its latest change, cached by it: its version and its
        change's stamp (a Redis failover may lose a change and give its version's number to
        another document: docs/operations.md), so that most reads find it without reading
        the document. `key_of(version, stamp)` names it in the cache; `build()` reads the
        store and makes it (version, stamp, body), None when there is no such event."""
        found = db().revision(eid) if kept_in is not None and \
            event_store.EVENT_ID.fullmatch(eid) else None
        if found is None:
            raise EventNotFound("no event of this id is kept here", "eid")
        version, stamp = found
        key = key_of(version, stamp)
        body = ext.cache.get(key)
        if body is None:
            made = build()
            if made is None:
                raise EventNotFound("no event of this id is kept here", "eid")
            version, stamp, body = made
            key = key_of(version, stamp)
            ext.cache.set(key, body)
        return cached_answer(key, body, version, stamp)

    def cached_answer(key: str, body: bytes, version: int, stamp: str) -> Response:
        """A cached answer of the event at one change: its compressed bodies cached beside it
        (service/compression.py: compressed once per encoding, not for every request), its
        ETag the version and the change's stamp (`"7.3f9c…"`): a page polling with
        If-None-Match after a failover that lost a change must not be told "not modified" by
        the reused version number."""
        answer_is_cached(key, body)
        # one ETag header, set once (werkzeug checks and scans the headers on every set)
        return Response(body, content_type="application/json", headers=[
            ("ETag", f'"{version}.{stamp}"' if stamp else f'"{version}"')])

    @blp.route("/<eid>/document", methods=["GET"])
    @blp.doc(operationId="getEventDocument",
             summary="The whole event document with its digest (director token)",
             description="What the event is, whole: check it anywhere (`card-referee event "
                         "check`, docs/events.md). Its `ETag` is the event's version.",
             parameters=[EVENT_ID_PARAMETER],
             responses={**_json_answer(200, {**_OBJECT, "description": "an event document "
                                                                       "(`card-referee/event`)"},
                                       "The document"),
                        **_problems(_403=_CHANGE_PROBLEMS["_403"], _404=_COMMON_PROBLEMS["_404"],
                                    _503=_COMMON_PROBLEMS["_503"])})
    def document(eid: str):
        token_of(eid)
        snap = snapshot(eid)
        doc = dict(snap.document)
        doc["digest"] = digest(doc)
        response = Response(orjson.dumps(doc), content_type="application/json")
        response.headers["ETag"] = f'"{snap.version}"'
        return response



def _entrant_routes(blp: RefereeBlueprint, h: SimpleNamespace) -> None:
    """Entrants: registered, checked in, withdrawn."""
    token_of, changed, Entrant = h.token_of, h.changed, h.Entrant

    # -- entrants ------------------------------------------------------------------------
    @blp.route("/<eid>/entrants", methods=["POST"])
    @blp.doc(operationId="addEventEntrant", summary="Register an entrant (late entry once "
                                                     "rounds are seated)",
             description="The entrant (docs/events.md \"Entrants\"). Once a round is seated "
                         "the entrant enters the next round (`entered_round` defaults to it).",
             requestBody=_body(_schema_of(Entrant)), **_DIRECTOR_CHANGE)
    def add_entrant(eid: str):
        token = token_of(eid)
        entrant = _body_json()

        def compute(snap: Snapshot):
            doc = dict(snap.document)
            if not isinstance(entrant, dict):
                raise InputError("an entrant is an object", "", code="event_invalid")
            seated = len(doc.get("rounds", []))
            added = {**entrant}
            if seated:
                added.setdefault("entered_round", seated + 1)
                if not isinstance(added["entered_round"], int) or \
                        added["entered_round"] <= seated:
                    raise InputError(f"rounds 1–{seated} are seated: a late entry enters round "
                                     f"{seated + 1} or later", "entered_round",
                                     code="event_invalid")
            doc["entrants"] = [*doc.get("entrants", []), added]
            return Change.of(_normal(parse_event(doc))), {"entrant": added.get("id")}
        return changed(eid, token, compute)

    @blp.route("/<eid>/entrants/<entrant>/check-in", methods=["POST"])
    @blp.doc(operationId="checkInEventEntrant", summary="Check an entrant in or out",
             description="`{\"checked_in\": true|false}`. Once rounds are seated, checking in "
                         "makes the entrant a late entry of the next round; one who was "
                         "eligible for a seated round withdraws instead.",
             requestBody=_body({"type": "object", "required": ["checked_in"],
                                "additionalProperties": False,
                                "properties": {"checked_in": {"type": "boolean"}}}),
             **_DIRECTOR_CHANGE)
    def check_in(eid: str, entrant: str):
        token = token_of(eid)
        body = _body_json()
        if not isinstance(body, dict) or set(body) != {"checked_in"} or \
                not isinstance(body["checked_in"], bool):
            raise InputError("the body is {\"checked_in\": true|false}", "checked_in",
                             code="request_invalid")

        def compute(snap: Snapshot):
            doc, found = _with_entrant(snap, entrant)
            seated = len(doc.get("rounds", []))
            was_eligible = found.get("checked_in", True) and \
                found.get("entered_round", 1) <= seated
            if body["checked_in"]:
                if not found.get("checked_in", True) and seated:
                    found["entered_round"] = max(found.get("entered_round", 1), seated + 1)
                found.pop("checked_in", None)
            elif was_eligible:
                raise InputError(f"{shown(entrant)} could be seated in a round already "
                                 "seated: withdraw it instead", "checked_in",
                                 code="event_invalid")
            else:
                found["checked_in"] = False
            return Change.of(_normal(parse_event(doc))), {"entrant": entrant}
        return changed(eid, token, compute)

    @blp.route("/<eid>/entrants/<entrant>/withdraw", methods=["POST"])
    @blp.doc(operationId="withdrawEventEntrant",
             summary="Withdraw an entrant from the next round on", **_DIRECTOR_CHANGE)
    def withdraw(eid: str, entrant: str):
        token = token_of(eid)

        def compute(snap: Snapshot):
            doc, found = _with_entrant(snap, entrant)
            if found.get("withdrawn_round") is not None:
                raise InputError(f"{shown(entrant)} has withdrawn already", "withdrawn_round",
                                 code="event_invalid")
            nxt = len(doc.get("rounds", [])) + 1
            if found.get("entered_round", 1) >= nxt:  # never seatable yet: not checked in
                found["checked_in"] = False
            else:
                found["withdrawn_round"] = nxt
            return Change.of(_normal(parse_event(doc))), {"entrant": entrant}
        return changed(eid, token, compute)



def _round_routes(blp: RefereeBlueprint, h: SimpleNamespace) -> None:
    """Rounds: started, closed, their same deals."""
    (db,
     bearer,
     snapshot,
     version_of,
     token_of,
     answered,
     changed) = (h.db, h.bearer, h.snapshot, h.version_of, h.token_of, h.answered, h.changed)
    # -- rounds --------------------------------------------------------------------------
    @blp.route("/<eid>/rounds", methods=["POST"])
    @blp.doc(operationId="startEventRound",
             summary="Seat and start the next round; one table token per table",
             description="The service draws the round's seed and salt, keeps them secret "
                         "until the round is closed, seats the round (engine next_round: "
                         "`method` and a fixed round's `plan` as there) and answers one token "
                         "per table, each writing that table's result of this round only.",
             requestBody=_body({"type": "object", "additionalProperties": False,
                                "properties": {
                                    "method": {"type": "string",
                                               "enum": ["random", "swiss", "fixed"]},
                                    "plan": _OBJECT}}, required=False),
             **_DIRECTOR_CHANGE)
    def start_round(eid: str):
        token = token_of(eid)
        body = _body_json(required=False)
        if body is None:
            body = {}
        if not isinstance(body, dict) or not set(body) <= {"method", "plan"}:
            raise InputError("the body is {\"method\"?, \"plan\"?}", "", code="request_invalid")

        def compute(snap: Snapshot):
            doc = snap.document
            rounds = doc.get("rounds", [])
            if rounds and rounds[-1].get("seed") is None:
                raise EventStateConflict(f"round {len(rounds)} is not closed", "rounds",
                                         code="round_not_closed")
            seed, salt = secrets.token_hex(16), secrets.token_hex(16)
            seated = next_round(doc, seed, salt, method=body.get("method"),
                                plan=body.get("plan"))
            number = len(seated["rounds"])
            rnd = seated["rounds"][-1]
            change = Change.of(_normal(parse_event(seated)))
            change.secrets[f"round:{number}"] = orjson.dumps(
                {"seed": seed, "salt": salt}).decode()
            tables = []
            for table in rnd["tables"]:
                given, record, stored = event_store.new_token("table", number, table["number"])
                change.tokens[record.id] = stored
                tables.append({"number": table["number"], "token": given,
                               "token_id": record.id})
            return change, {"round": number, "seed_commitment": rnd["seed_commitment"],
                            "tables": tables}
        return changed(eid, token, compute)

    @blp.route("/<eid>/rounds/<int:number>/close", methods=["POST"])
    @blp.doc(operationId="closeEventRound",
             summary="Close a round: its seeds revealed into the document, its table tokens "
                     "revoked", **_DIRECTOR_CHANGE)
    def close_round(eid: str, number: int):
        token = token_of(eid)

        def compute(snap: Snapshot):
            rnd = _round(snap, number)
            if rnd.get("seed") is not None:
                raise EventStateConflict(f"round {number} is closed already", "rounds",
                                         code="round_closed")
            kept = db().secret(eid, number)
            if kept is None:  # a change racing this one closed it: the CAS refuses ours
                raise VersionConflict("the round's seed is no longer kept", snap.version + 1)
            change = Change.of(_normal(parse_event(
                reveal_round(snap.document, number, kept["seed"], kept["salt"]))))
            change.secrets[f"round:{number}"] = ""
            for old in db().tokens(eid):
                if old.role == "table" and old.round == number:
                    change.tokens[old.id] = ""
            return change, {"round": number, "seed": kept["seed"], "seed_salt": kept["salt"]}
        response = changed(eid, token, compute)
        # its tables' calls for the referee end with it (live status, beside the change). The
        # round is closed whatever happens here: a store that fails now leaves the calls to
        # GET …/calls, which drops a closed round's.
        try:
            db().clear_calls(eid, *((c.round, c.table) for c in db().referee_calls(eid)
                                    if c.round == number))
        except EventsUnavailable:
            pass
        return response

    @blp.route("/<eid>/rounds/<int:number>/deals", methods=["GET"])
    @blp.doc(operationId="getEventRoundDeals",
             summary="A round's same-deals seeds, for its tables to deal (table token of the "
                     "round, or the director token)",
             description="Deal k's seed, salt and commitment. Under sealing a table token is "
                         "given only each deal's `seed_commitment` while the round is open (it "
                         "deals them by `event_deal`); the director token, and anyone once the "
                         "round is closed, the seeds too.",
             parameters=[EVENT_ID_PARAMETER],
             responses={**_json_answer(200, {"type": "object", "properties": {
                 "round": {"type": "integer"}, "deals": {"type": "array", "items": _OBJECT}}},
                 "Deal k's seed, salt and commitment by deal number"),
                 **_problems(_403=_CHANGE_PROBLEMS["_403"], _404=_COMMON_PROBLEMS["_404"],
                             _503=_COMMON_PROBLEMS["_503"])})
    def round_deals(eid: str, number: int):
        version_of(eid)
        given = bearer()
        token = db().token(eid, given) if given else None
        if token is None or (token.role != "director" and token.round != number):
            raise EventTokenInvalid("a round's deals are for its tables' tokens and the "
                                    "director's")
        snap = snapshot(eid, results=False)
        rnd = _round(snap, number)
        if rnd.get("seed") is not None:
            return answered(orjson.dumps({"round": number, "deals": rnd.get("deals", [])}))
        return answered(orjson.dumps({"round": number, "deals": _open_round_deals(
            db(), eid, number, rnd, h.ext.guard.sealed and token.role != "director")}))



def _open_round_deals(store: EventStore, eid: str, number: int, rnd: dict[str, Any],
                      commitments_only: bool) -> list[dict[str, Any]]:
    """An open round's same deals as GET …/rounds/{n}/deals answers them: each deal's seed,
    salt and commitment, or (`commitments_only`: a table's token under sealing) its commitment
    alone. Sealing promises secrecy: a table deals its same deals by name (`event_deal` on the
    deal route) and checks their commitments, so it is told no seed of a round still in play
    (every table's hands). Signing promises integrity only: a table there may see its seeds
    (docs/hosted-events.md)."""
    if commitments_only:
        return [{"seed_commitment": d["seed_commitment"]} for d in rnd.get("deals", [])]
    kept = store.secret(eid, number)
    if kept is None:
        raise EventNotFound("this round's seed is not kept here", "number")
    return deal_seeds(kept["seed"], kept["salt"], len(rnd.get("deals", [])))


def _table_routes(blp: RefereeBlueprint, h: SimpleNamespace) -> None:
    """A table's result, whole or appended."""
    (ext,
     db,
     token_of,
     changed,
     TableResult) = (h.ext, h.db, h.token_of, h.changed, h.TableResult)
    _append_route(blp, h)

    @blp.route("/<eid>/rounds/<int:number>/tables/<int:table>/result", methods=["PUT"])
    @blp.doc(operationId="putEventTableResult",
             summary="A table's result: its match record (checked by replay) or a reported "
                     "result (table token of that table and round, or the director token)",
             description="Each replaces the table's "
                         "result (`null`: none again). A table's token writes while its "
                         "round is open; the "
                         "director corrects any table. `If-Match` is optional here: without "
                         "it the result is written on the event's latest version. A record's "
                         "answer names its `end`, the base of the next append "
                         "(appendEventTableRecord): a table pushes its whole record first, "
                         "then only what it adds.",
             parameters=[EVENT_ID_PARAMETER, {**IF_MATCH_PARAMETER, "required": False},
                         IDEMPOTENCY_PARAMETER, REFEREE_KEY_PARAMETER],
             requestBody=_body({**_table_result_schema(TableResult), "nullable": True}),
             responses={**_DIRECTOR_CHANGE["responses"],
                        **_problems(_403=_CHANGE_PROBLEMS["_403"] + _REFEREE_ACTS_PROBLEM
                                    + _CONFIRMATION_PROBLEM)})
    def table_result(eid: str, number: int, table: int):
        token = token_of(eid, table=(number, table))
        result = _body_json()
        _confirmations_allowed(token, result)
        record = result.get("record") if isinstance(result, dict) and \
            isinstance(result.get("record"), dict) else None
        checked_record = _checked_record(ext.settings, record) if record is not None else None
        replay = checked_record[:2] if checked_record is not None else None
        # where the record ends: what the table's next push may append to
        end = records.record_end(record, checked_record[2]) \
            if record is not None and checked_record is not None else None
        guard, referee_key = ext.guard, request.headers.get(REFEREE_KEY_HEADER)
        # The referee's acts the record holds, where they need the referee key: a table's push
        # under signing or sealing without the key (the director's needs none)
        acts = records.referee_acts(record) if record is not None and token.role == "table" \
            and guard.enabled and not guard.is_referee_key(referee_key) else []
        stored_read: list[bool] = []  # whether compute read the table's stored result

        def compute(snap: Snapshot):
            # `snap`: the document without its tables' results (event_store: each is kept
            # apart), which is all a table's result is checked against
            rnd = _round(snap, number)
            if token.role == "table" and rnd.get("seed") is not None:
                raise EventStateConflict(f"round {number} is closed: only the director "
                                         "corrects its results", "rounds",
                                         code="round_closed")
            where = next((k for k, t in enumerate(rnd.get("tables", []))
                          if t["number"] == table), None)
            if where is None:
                raise EventNotFound(f"the round has no table {table}", "table")
            if acts:
                # the acts this push adds to what is stored: those need the referee key
                held = rnd["tables"][where]["result"] if "result" in rnd["tables"][where] \
                    else db().table_record(eid, number, table)[0]
                stored_read.append(True)
                require_referee_for_acts(
                    guard, records.new_referee_acts(record, (held or {}).get("record")),
                    referee_key)
            # A table's result depends on nothing but its table, and the document without
            # results was checked whole when it was written: the engine checks the event with
            # this table alone in it (`_table_alone`), a few ms however large the event.
            alone = _table_alone(snap.document, number, where, result)
            path = f"rounds[{number - 1}].tables[{where}]"
            try:
                with reading():
                    parsed = parse_event(alone)
                    checked = parsed.rounds[number - 1].tables[0]
                    if replay is not None and checked.result is not None and \
                            checked.result.record is not None:
                        keep_replay(*replay, checked.result.record)  # replayed above
                    # placed as the standings will place it: a reported result whose places
                    # or scores are not what its deals score to is refused now, not in every
                    # later view
                    table_outcome(parsed, checked, f"rounds[{number - 1}].tables[0]")
            except InputError as err:  # named where the table is in the event
                err.path = err.path.replace(f"rounds[{number - 1}].tables[0]", path, 1)
                raise
            stored = None if checked.result is None else msgspec.to_builtins(checked.result)
            change = Change.of_result(number, table, stored)
            if end is not None and checked.result is not None and \
                    checked.result.record is not None:
                _remember(end)
                _hold((eid, number, table), end.key, 0)
                change.ends[event_store.result_field(number, table)] = end.key.hex()
            if "result" in rnd["tables"][where]:
                # a document stored whole, before each result was kept apart: its results
                # are kept apart from now on
                doc = _copy(snap)
                doc["rounds"][number - 1]["tables"][where].pop("result")
                change.document = doc
            return change, {"round": number, "table": table,
                            **({"end": end.position()} if end is not None else {})}
        return changed(eid, token, compute, version_required=False, results=False,
                       rewritable=lambda: not stored_read)



def _substitute_routes(blp: RefereeBlueprint, h: SimpleNamespace) -> None:
    """A substitute in a seat for one round."""
    token_of, changed, Person = h.token_of, h.changed, h.Person

    @blp.route("/<eid>/rounds/<int:number>/tables/<int:table>/seats/<int:seat>/substitute",
               methods=["PUT"])
    @blp.doc(operationId="putEventSubstitute",
             summary="A substitute takes a seat for one round (null: none)",
             description="`{\"id\", \"name\"}` or `null`; seats count from 1 in seat order.",
             requestBody=_body({**_schema_of(Person), "nullable": True}), **_DIRECTOR_CHANGE)
    def substitute(eid: str, number: int, table: int, seat: int):
        token = token_of(eid)
        person = _body_json()

        def compute(snap: Snapshot):
            _round(snap, number)
            doc = _copy(snap)
            seats = _table(doc["rounds"][number - 1], table)["seats"]
            if not 1 <= seat <= len(seats):
                raise EventNotFound(f"a table has seats 1–{len(seats)}", "seat")
            if person is None:
                seats[seat - 1].pop("substitute", None)
            else:
                seats[seat - 1]["substitute"] = person
            return Change.of(_normal(parse_event(doc))), {"round": number, "table": table}
        return changed(eid, token, compute)



_CHANGED_PROPERTIES: dict[str, Any] = _CHANGED["properties"]  # type: ignore[assignment]
_RECORD_END = {
    "type": "object", "nullable": True, "required": ["key", "deals", "actions", "result"],
    "description": "where the table's stored record ends: the base of its next append",
    "properties": {
        "key": {"type": "string", "pattern": "^[0-9a-f]{64}$",
                "description": "the prefix key of the whole record (docs/hosted-events.md)"},
        "deals": {"type": "integer", "minimum": 1},
        "actions": {"type": "integer", "minimum": 0,
                    "description": "the last deal's actions"},
        "result": {"type": "boolean", "description": "whether the last deal's result is "
                                                    "written"}}}
_APPEND_BODY = {
    "type": "object", "required": ["base"], "additionalProperties": False,
    "properties": {
        "base": {"type": "string", "pattern": "^[0-9a-f]{64}$",
                 "description": "the key of the stored record's end, as the last push's "
                                "answer named it (`end.key`)"},
        "actions": {"type": "array", "items": _OBJECT,
                    "description": "more actions of the record's last deal, as a record "
                                   "writes them"},
        "result": {**_OBJECT, "description": "the last deal's written result (replacing any)"},
        "deals": {"type": "array", "items": _OBJECT,
                  "description": "new deals, each as a record writes it, with its `actions` "
                                 "(`[]`: none yet)"},
        "totals": {**_OBJECT, "nullable": True,
                   "description": "the new record's totals (left out: it has none)"},
        "digest": {"type": "string", "nullable": True,
                   "description": "the new record's digest (left out: it has none)"}}}
_HEX_KEY = re.compile(r"[0-9a-f]{64}")


def _open_to_append(snapshot: Callable[..., Snapshot], eid: str, number: int, table: int,
                    role: str, published: bool, frame_stamp: str) -> None:
    """What a table's append needs of the event: not published, the round and table seated,
    the round open to a table's token (the round's state read once per document written:
    `_ROUNDS` by frame stamp)."""
    if published:
        raise EventStateConflict("the event is published: it changes no more", "",
                                 code="event_published")
    rounds = _ROUNDS.get((eid, frame_stamp)) if frame_stamp else None
    if rounds is None:
        rounds = _rounds_of(snapshot(eid, results=False))
    if not 1 <= number <= len(rounds):
        raise EventNotFound(f"round {number} is not seated", "number")
    closed, tables = rounds[number - 1]
    if table not in tables:
        raise EventNotFound(f"the round has no table {table}", "table")
    if role == "table" and closed:
        raise EventStateConflict(f"round {number} is closed: only the director corrects its "
                                 "results", "rounds", code="round_closed")


def _append_route(blp: RefereeBlueprint, h: SimpleNamespace) -> None:
    """A table's push of only what its record adds."""
    ext, db, table_writer, forget_writer, retry_of, answered, snapshot = (
        h.ext, h.db, h.table_writer, h.forget_writer, h.retry_of, h.answered, h.snapshot)

    @blp.route("/<eid>/rounds/<int:number>/tables/<int:table>/record", methods=["POST"])
    @blp.doc(operationId="appendEventTableRecord",
             summary="Append to a table's match record: only what it adds (table token of "
                     "that table and round, or the director token)",
             description="The body names the stored record's end it extends (`base`: the "
                         "`end.key` of the last push's answer) and carries only what is new: "
                         "the last deal's new actions and its result, new deals, the new "
                         "record's totals and digest. Checked as the whole record would be "
                         "(same codes, same limits); the table's result is then that record, "
                         "as if pushed whole (putEventTableResult). A base that is not the "
                         "stored end (a lost push, a director's correction, another device) "
                         "is refused, 409 `record_base_mismatch`, its `end` the stored end's "
                         "key (null: none an append may extend): push the whole record.",
             parameters=[EVENT_ID_PARAMETER, IDEMPOTENCY_PARAMETER, REFEREE_KEY_PARAMETER],
             requestBody=_body(_APPEND_BODY),
             responses={**_json_answer(200, {**_CHANGED, "properties": {
                 **_CHANGED_PROPERTIES, "round": {"type": "integer"},
                 "table": {"type": "integer"}, "end": _RECORD_END}},
                 "Appended: the new version and the record's new end"),
                 **_problems(**{**{k: v for k, v in _CHANGE_PROBLEMS.items() if k != "_428"},
                                "_403": _CHANGE_PROBLEMS["_403"] + _REFEREE_ACTS_PROBLEM,
                                "_409": _CHANGE_PROBLEMS["_409"] + "; an append whose base is "
                                        "not the stored record's end (`record_base_mismatch`)"})})
    @called_directly
    def append_record(eid: str, number: int, table: int):
        token, version, published, frame_stamp = table_writer(eid, (number, table))
        parts = _body_json()
        if not isinstance(parts, dict) or not isinstance(parts.get("base"), str) or \
                not _HEX_KEY.fullmatch(parts["base"]):
            raise InputError("an append names its base: the key of the stored record's end "
                             "(64 hex digits), as the last push's answer gave it (`end.key`)",
                             "base", code="request_invalid")
        retry = retry_of(token.id)

        def appended(parts: dict[str, Any]) -> records.Appended:
            """The append checked against the stored record's end (kept here, or made once
            from the stored record)."""
            base = parts["base"]
            end = _ENDS.get(bytes.fromhex(base))
            if end is None:
                # another process's append: caught up from the last end of this record kept
                # here, reading only the appends made since (most often one)
                held, counted = _TABLE_ENDS.get((eid, number, table), (b"", 0))
                seen = counted if counted is not None and held in _ENDS else 0
                tail, stored = db().table_tail(eid, number, table, seen)
                end = _caught_up(tail, stored, base, (eid, number, table), seen)
            if end is None:
                result, stored = db().table_record(eid, number, table)
                if stored == base and result is not None:
                    end = _end_of(result.get("record"), (eid, number, table))
                if end is None or end.key.hex() != base:
                    raise BaseMismatch("the table's stored record does not end where this "
                                       "append begins: push the whole record", stored)
            _within_limits(ext.settings, *records.append_size(end, parts), "deals")
            try:
                done = records.append(end, parts)
            except InputError as err:
                raise InputError(err.message, err.path, code="event_invalid") from None
            _consistent(done.report)
            if token.role == "table":
                # every referee act an append carries is new (the stored record holds none of
                # its entries): a table's needs the referee key under signing or sealing
                require_referee_for_acts(ext.guard, records.appended_referee_acts(end, parts),
                                         request.headers.get(REFEREE_KEY_HEADER), within="")
            return done

        try:
            _open_to_append(snapshot, eid, number, table, token.role, published, frame_stamp)
            done = appended(parts)
        except (InputError, BaseMismatch) as err:
            # a retry of an append that was written: answered as then, whatever came since
            kept = db().kept_answer(eid, retry) if retry is not None else None
            if kept is not None:
                return answered(kept)
            if isinstance(err, InputError) and not isinstance(err, EventStateConflict):
                # refused against its base: a base that is no longer the stored end is the
                # refusal to give (the page pushes whole), whatever the append said
                stored = db().record_end(eid, number, table)
                if stored != parts["base"]:
                    raise BaseMismatch("the table's stored record does not end where this "
                                       "append begins: push the whole record", stored) from None
            raise
        assert done.end is not None, "a consistent record has an end"
        keep_replay(done.report, done.state)
        _remember(done.end)
        # stored with the base it extends: a process that kept an earlier end of this record
        # catches up from it (`_caught_up`), not from the whole record
        part = orjson.dumps({**done.part, "base": parts["base"]})
        extra = {"round": number, "table": table, "end": done.end.position()}

        def answer(version: int) -> bytes:
            return orjson.dumps({"id": eid, "version": version, **extra})
        for _ in range(event_store.APPLY_ATTEMPTS):
            try:
                body, count = db().append(eid, frame_stamp, number, table, parts["base"],
                                          done.end.key.hex(), part, answer, retry,
                                          acting=token.id)
                if count is not None:
                    _hold((eid, number, table), done.end.key, count)
                return answered(body)
            except DocumentMoved:
                # the director wrote the document since (or published): the append stands if
                # the round is still open to it and its table still seated there
                token, version, published, frame_stamp = table_writer(eid, (number, table),
                                                                      fresh=True)
                _open_to_append(snapshot, eid, number, table, token.role, published, frame_stamp)
            except TokenRevoked:
                forget_writer(eid)
                raise
        raise VersionConflict("the event's document changed too often meanwhile: send it "
                              "again", version)


def _caught_up(tail: list[dict[str, Any]], stored: str, base: str,
               table: tuple[str, int, int], seen: int) -> records.RecordEnd | None:
    """The end `base` names, made from an earlier end of the same record kept here and the
    appends stored since (`tail`, each with its base: those after the first `seen` of the
    record's appends): an append after others this process did not see replays those, not the
    whole record. None when no end of the tail is kept here, or `base` is not the stored
    end."""
    if stored != base:
        return None
    start = next((k for k in range(len(tail) - 1, -1, -1)
                  if bytes.fromhex(str(tail[k].get("base", ""))) in _ENDS), None)
    if start is None:
        return None
    end: records.RecordEnd | None = _ENDS[bytes.fromhex(tail[start]["base"])]
    for k, part in enumerate(tail[start:], start=start + 1):
        assert end is not None
        try:
            done = records.append(end, {k: v for k, v in part.items() if k != "base"})
        except InputError:
            return None  # stored checked: not expected; the whole record decides
        end = done.end if done.report["consistent"] else None
        if end is None:
            return None
        _remember(end)
        _hold(table, end.key, seen + k)
    return end if end is not None and end.key.hex() == base else None


def _end_of(record: Any, table: tuple[str, int, int]) -> records.RecordEnd | None:
    """The end of `table`'s stored record, replayed here once (an append after another
    process's)."""
    if not isinstance(record, dict):
        return None
    report, _, checkpoint = _replayed_from(record)
    end = records.record_end(record, checkpoint) if report["consistent"] else None
    if end is not None:
        _remember(end)
        _hold(table, end.key, None)
    return end


def _director_routes(blp: RefereeBlueprint, h: SimpleNamespace) -> None:
    """The director's penalties and publication."""
    token_of, changed, Penalty = h.token_of, h.changed, h.Penalty

    @blp.route("/<eid>/penalties", methods=["POST"])
    @blp.doc(operationId="addEventPenalty", summary="The director's penalty",
             description="docs/events.md \"Penalties\"; `round` defaults to the last seated.",
             requestBody=_body(_schema_of(Penalty)), **_DIRECTOR_CHANGE)
    def add_penalty(eid: str):
        token = token_of(eid)
        penalty = _body_json()
        if not isinstance(penalty, dict):
            raise InputError("a penalty is an object", "", code="event_invalid")

        def compute(snap: Snapshot):
            doc = dict(snap.document)
            given = {"round": max(len(doc.get("rounds", [])), 1), **penalty}
            doc["penalties"] = [*doc.get("penalties", []), given]
            return Change.of(_normal(parse_event(doc))), {}
        return changed(eid, token, compute)

    @blp.route("/<eid>/publish", methods=["POST"])
    @blp.doc(operationId="publishEvent",
             summary="Publish the event: final, it changes no more; its digest answered",
             **_DIRECTOR_CHANGE)
    def publish(eid: str):
        token = token_of(eid)

        def compute(snap: Snapshot):
            rounds = snap.document.get("rounds", [])
            if rounds and rounds[-1].get("seed") is None:
                raise EventStateConflict(f"round {len(rounds)} is not closed", "rounds",
                                         code="round_not_closed")
            change = Change.of(snap.document)
            change.event["published"] = "1"
            return change, {"published": True, "digest": digest(snap.document)}
        return changed(eid, token, compute)



def _token_routes(blp: RefereeBlueprint, h: SimpleNamespace) -> None:
    """Tokens: listed, revoked, given anew."""
    (db,
     require_director_key,
     version_of,
     token_of,
     answered,
     changed) = (h.db, h.require_director_key, h.version_of, h.token_of, h.answered, h.changed)
    # -- tokens --------------------------------------------------------------------------
    @blp.route("/<eid>/tokens", methods=["GET"])
    @blp.doc(operationId="listEventTokens",
             summary="The event's live tokens: ids and roles, never the tokens (director)",
             parameters=[EVENT_ID_PARAMETER],
             responses={**_json_answer(200, {"type": "object", "properties": {
                 "tokens": {"type": "array", "items": _OBJECT}}}, "The tokens"),
                 **_problems(_403=_CHANGE_PROBLEMS["_403"], _404=_COMMON_PROBLEMS["_404"],
                             _503=_COMMON_PROBLEMS["_503"])})
    def list_tokens(eid: str):
        token_of(eid)
        return answered(orjson.dumps({"tokens": [
            {"token_id": t.id, "role": t.role, **({"round": t.round, "table": t.table}
                                                  if t.role == "table" else {})}
            for t in db().tokens(eid)]}))

    @blp.route("/<eid>/tokens/<token_id>", methods=["DELETE"])
    @blp.doc(operationId="revokeEventToken", summary="Revoke a token (director)",
             parameters=[EVENT_ID_PARAMETER],
             responses={"204": {"description": "Revoked"},
                        **_problems(_403=_CHANGE_PROBLEMS["_403"],
                                    _404=_COMMON_PROBLEMS["_404"],
                                    _503=_COMMON_PROBLEMS["_503"])})
    def revoke(eid: str, token_id: str):
        token_of(eid)
        if not db().revoke(eid, token_id):
            raise EventNotFound("no live token of this id", "token_id")
        return Response(status=204)

    @blp.route("/<eid>/rounds/<int:number>/tables/<int:table>/token", methods=["POST"])
    @blp.doc(operationId="newEventTableToken",
             summary="A new token for a table of an open round, replacing its others "
                     "(director)",
             parameters=[EVENT_ID_PARAMETER, IDEMPOTENCY_PARAMETER],
             responses={**_json_answer(200, _CHANGED, "The table's new token"),
                        **_problems(**{k: v for k, v in _CHANGE_PROBLEMS.items()
                                       if k != "_428"})})
    def new_table_token(eid: str, number: int, table: int):
        token = token_of(eid)

        def compute(snap: Snapshot):
            rnd = _round(snap, number)
            _table(rnd, table)
            if rnd.get("seed") is not None:
                raise EventStateConflict(f"round {number} is closed", "rounds",
                                         code="round_closed")
            given, record, stored = event_store.new_token("table", number, table)
            change = Change.of(snap.document)
            for old in db().tokens(eid):
                if old.role == "table" and (old.round, old.table) == (number, table):
                    change.tokens[old.id] = ""
            change.tokens[record.id] = stored
            return change, {"round": number, "table": table, "token": given,
                            "token_id": record.id}
        return changed(eid, token, compute, version_required=False)

    @blp.route("/<eid>/director-token", methods=["POST"])
    @blp.doc(operationId="newEventDirectorToken",
             summary="A new director token for the event (director key): for a lost or "
                     "revoked one",
             parameters=[EVENT_ID_PARAMETER, IDEMPOTENCY_PARAMETER],
             responses={**_json_answer(200, _CHANGED, "The new director token"),
                        **_problems(**{**{k: v for k, v in _CHANGE_PROBLEMS.items()
                                          if k != "_428"},
                                       "_403": "Not a director key (`director_key_required`)"})})
    def new_director_token(eid: str):
        require_director_key()
        version_of(eid)

        def compute(snap: Snapshot):
            given, record, stored = event_store.new_token("director")
            change = Change.of(snap.document)
            change.tokens[record.id] = stored
            return change, {"director_token": given, "director_token_id": record.id}
        return changed(eid, Token("", "director"), compute, version_required=False)



def require_referee_for_acts(guard: Guard, acts: Sequence[str], referee_key: str | None,
                             within: str = "record.") -> None:
    """A table's push that adds referee acts to its table's record (`acts`, their paths in
    the record: engine/records.py `new_referee_acts` of the record pushed and the one stored,
    so acts pushed before are not asked again) needs, with signing or sealing on, the referee
    key in X-Referee-Key beside the table token: otherwise 403 referee_key_required naming the
    first, and nothing is stored (docs/security.md, "Hosted events"). Called for a whole record
    pushed and for actions appended to the stored one alike; the caller leaves out the
    director's changes (its token needs no key). With neither on nothing is asked, as for any
    referee act: a plain state is anyone's to edit. `within`: where the acts' paths are in the
    request's body (a whole push's record, or an append's own parts)."""
    if not acts or not guard.enabled or guard.is_referee_key(referee_key):
        return
    more = len(acts) - 1
    refused = RefereeActsNeedKey(
        f"this record adds a referee act ({acts[0]}" + (f" and {more} more" if more else "")
        + "): a deal from the cards, match values, a dealer past the first deal or an action "
          "only a referee posts (the ledger's warning, penalty and withdraw, a game's own such as "
          f"Man's chombo); send {REFEREE_KEY_HEADER}: <a key of CARDREF_REFEREE_KEYS> beside the "
          "table's token" + ("" if guard.has_referee_keys else
                             " (none is configured here, so nobody may)"),
        f"{within}{acts[0]}")
    refused.ja = (f"この記録は審判の行為({acts[0]}" + (f" ほか {more} 件" if more else "")
                  + ")を加えます。卓のトークンと並べて "
                  f"{REFEREE_KEY_HEADER} に審判用キー(CARDREF_REFEREE_KEYS の一つ)を送ってください"
                  + ("" if guard.has_referee_keys else
                     "(ここには設定されていないので、誰も加えられません)"))
    raise refused


# ------------------------------------------------------------------ an event's committed deal

# The header an event's token comes in to the deal route, where Authorization carries the
# referee key (service/api/play.py).
EVENT_TOKEN_HEADER = "X-Event-Token"
EVENT_DEAL_FIELDS = ("seed", "seed_salt", "deck", "hands", "table")


@dataclasses.dataclass(frozen=True)
class CommittedDeal:
    """One of a round's same deals as the round committed to it."""
    seed: str
    salt: str
    commitment: str


def committed_deal(store: EventStore | None, body: dict[str, Any],
                   headers: Any) -> CommittedDeal | None:
    """The committed deal a deal request (`body`, its `headers`) names (`event_deal`: event,
    round, deal k), None when it names none. The caller holds the event's director token or a (live) table token of that
    round: a round's deals are its tables' (GET …/rounds/{n}/deals). The seed and salt are the
    round's kept secret while it is open, its revealed deals once closed; the caller learns
    neither from here, only the deal (its commitment is the one published with the seating).
    Generic: nothing here knows a game."""
    token = headers.get(EVENT_TOKEN_HEADER)
    if token is not None and len(token) > TOKEN_MAX_LENGTH:
        # the spec's bound on the header, held on every deal (as X-Host-Token's): a request
        # outside the contract is refused whether or not it names an event's deal
        raise InputError(f"{EVENT_TOKEN_HEADER} has at most {TOKEN_MAX_LENGTH} characters",
                         EVENT_TOKEN_HEADER, "request_invalid")
    ref = body.get("event_deal")
    if ref is None:
        return None
    mixed = [k for k in EVENT_DEAL_FIELDS if body.get(k) is not None]
    if mixed:
        raise EventDealConflict(
            f"an event's committed deal is dealt from the round's own seed: not with {mixed[0]}",
            mixed[0])
    eid, number, k = ref["event"], ref["round"], ref["deal"]
    if store is None or store.version(eid) is None:
        raise EventDealUnknown("no event of this id is kept here", "event_deal.event")
    held = store.token(eid, token) if token else None
    if held is None or (held.role != "director" and held.round != number):
        raise EventTokenInvalid(
            f"an event's committed deal needs {EVENT_TOKEN_HEADER}: the event's director token "
            "or a table token of that round (none was sent, or it is not one of this event's, "
            "or it was revoked)", EVENT_TOKEN_HEADER)
    snap = store.get(eid, results=False)
    rounds = snap.document.get("rounds", []) if snap is not None else []
    if not 1 <= number <= len(rounds):
        raise EventDealUnknown(f"round {number} is not seated", "event_deal.round")
    rnd = rounds[number - 1]
    same = rnd.get("deals") or []
    if not 1 <= k <= len(same):
        raise EventDealUnknown(f"round {number} commits {len(same)} same deal(s), not deal {k}: "
                               "a deal past them is the service's to draw", "event_deal.deal")
    if rnd.get("seed") is not None:  # closed: its deals' seeds are in the document
        dealt = same[k - 1]
    else:
        kept = store.secret(eid, number)
        if kept is None:
            raise EventDealUnknown("this round's seed is not kept here", "event_deal.round")
        dealt = deal_seeds(kept["seed"], kept["salt"], k)[k - 1]
    if not dealt.get("seed_salt"):
        # a round committed without a salt (seated outside this service): the engine salts
        # every deal's commitment, so this deal would not make the published one
        raise EventDealUnknown(f"round {number}'s deals were committed without a salt: deal "
                               "them from their seeds (a referee act)", "event_deal.round")
    return CommittedDeal(dealt["seed"], dealt["seed_salt"], dealt["seed_commitment"])


_CALL_SCHEMA = {"type": "object", "required": ["round", "table", "called_at", "reason",
                                              "waiting_seconds"], "properties": {
    "round": {"type": "integer", "minimum": 1}, "table": {"type": "integer", "minimum": 1},
    "called_at": {"type": "string", "format": "date-time",
                  "description": "when the table called (UTC, the service's clock)"},
    "reason": {"type": "string", "enum": list(CALL_REASONS), "nullable": True,
               "description": "why, when the table said: ruling (a question on the rules), "
                              "irregularity (a misdeal, a card exposed, a revoke), dispute "
                              "(the players disagree), result (help with the result)"},
    "waiting_seconds": {"type": "integer", "minimum": 0,
                        "description": "how long the call has waited (the service's clock: "
                                       "no page needs to agree with it)"}}}
_TABLE_CALL_PROBLEMS = {
    "_403": "Not this table's token of its open round (`event_token_invalid`); the director "
            "clears and reads calls but makes none",
    "_404": _COMMON_PROBLEMS["_404"],
    "_409": "The round is closed (`round_closed`)",
    "_503": _COMMON_PROBLEMS["_503"],
}


def _call_answer(status: int, schema: dict[str, Any], description: str) -> dict[str, Any]:
    """A call's answer: no ETag (a call is no version of the event). The schema copied: the
    spec's YAML would otherwise share it by an anchor."""
    return {str(status): {"description": description,
                          "content": {"application/json": {"schema": orjson.loads(
                              orjson.dumps(schema))}}}}


def _call_json(call: RefereeCall, now: float) -> dict[str, Any]:
    at = datetime.datetime.fromtimestamp(call.at, datetime.timezone.utc)
    return {"round": call.round, "table": call.table,
            "called_at": at.isoformat(timespec="seconds").replace("+00:00", "Z"),
            "reason": call.reason, "waiting_seconds": max(0, int(now - call.at))}


def _call_routes(blp: RefereeBlueprint, h: SimpleNamespace) -> None:
    """A table calling the referee: live status beside the event (service/event_store.py
    `calls`), never in its document nor its public view, and no change of its version."""
    db, snapshot, token_of, answered = h.db, h.snapshot, h.token_of, h.answered
    table_parameters = [EVENT_ID_PARAMETER,
                        {"in": "path", "name": "number", "required": True,
                         "schema": {"type": "integer", "minimum": 1}},
                        {"in": "path", "name": "table", "required": True,
                         "schema": {"type": "integer", "minimum": 1}}]

    def open_table(eid: str, number: int, table: int) -> None:
        """The round is seated and open, and has this table (404, 409 round_closed)."""
        rnd = _round(snapshot(eid, results=False), number)
        _table(rnd, table)
        if rnd.get("seed") is not None:
            raise EventStateConflict(f"round {number} is closed: its tables call no referee",
                                     "rounds", code="round_closed")

    @blp.route("/<eid>/rounds/<int:number>/tables/<int:table>/call", methods=["POST"])
    @blp.doc(operationId="callEventReferee",
             summary="The table calls the referee (its table token, while its round is open)",
             description="The body is empty or `{\"reason\": …}`, one of a fixed list (no free "
                         "text: the director's page shows it). A table already waiting keeps "
                         "its first call (200, its time); a new one is 201. The call is live "
                         "status, not the event: the event's version does not change and the "
                         "public view never shows it. The director or the table clears it "
                         "(DELETE); closing the round ends its calls.",
             parameters=table_parameters,
             requestBody=_body({"type": "object", "additionalProperties": False, "properties": {
                 "reason": {"type": "string", "enum": list(CALL_REASONS), "nullable": True}}},
                 required=False),
             responses={**_call_answer(201, _CALL_SCHEMA, "The call, waiting from now"),
                        **_call_answer(200, _CALL_SCHEMA, "The table's call already waiting"),
                        **_problems(**_TABLE_CALL_PROBLEMS,
                                    _422="A reason not in the list (`request_invalid`)")})
    def call_referee(eid: str, number: int, table: int):
        token = token_of(eid, table=(number, table))
        if token.role != "table":
            raise EventTokenInvalid("a table calls the referee with its own token; the "
                                    "director clears calls")
        body = _body_json(required=False)
        reason = None if body is None else body.get("reason") if isinstance(body, dict) else body
        if body is not None and (not isinstance(body, dict) or not set(body) <= {"reason"}
                                 or (reason is not None and reason not in CALL_REASONS)):
            raise InputError("the body is empty or {\"reason\": " +
                             " | ".join(f'\"{r}\"' for r in CALL_REASONS) + " | null}",
                             "reason", code="request_invalid")
        open_table(eid, number, table)
        call, new = db().call_referee(eid, number, table, reason)
        return answered(orjson.dumps(_call_json(call, time.time())), 201 if new else 200,
                        version=0)

    @blp.route("/<eid>/rounds/<int:number>/tables/<int:table>/call", methods=["GET"])
    @blp.doc(operationId="getEventRefereeCall",
             summary="The table's call for the referee, if one is waiting (its table token, or "
                     "the director token)",
             parameters=table_parameters,
             responses={**_call_answer(200, {"type": "object", "required": ["call"],
                                             "properties": {"call": {**_CALL_SCHEMA,
                                                                     "nullable": True}}},
                                       "The call waiting, or null"),
                        **_problems(**_TABLE_CALL_PROBLEMS)})
    def table_call(eid: str, number: int, table: int):
        token_of(eid, table=(number, table))
        open_table(eid, number, table)
        waiting = db().referee_call(eid, number, table)
        return answered(orjson.dumps({"call": None if waiting is None
                                      else _call_json(waiting, time.time())}), version=0)

    @blp.route("/<eid>/rounds/<int:number>/tables/<int:table>/call", methods=["DELETE"])
    @blp.doc(operationId="clearEventRefereeCall",
             summary="Clear the table's call: the referee came, or the table cancels it "
                     "(the director token, or the table's)",
             parameters=table_parameters,
             responses={"204": {"description": "No call waiting any more (none was: the same)"},
                        **_problems(**{k: v for k, v in _TABLE_CALL_PROBLEMS.items()
                                       if k != "_409"})})
    def clear_call(eid: str, number: int, table: int):
        token_of(eid, table=(number, table))
        db().clear_calls(eid, (number, table))
        return Response(status=204)

    @blp.route("/<eid>/calls", methods=["GET"])
    @blp.doc(operationId="listEventRefereeCalls",
             summary="Every table waiting for the referee, the longest waiting first "
                     "(director token)",
             description="The open round's calls (a closed round's are gone). Poll it beside "
                         "the public view: a call changes no version.",
             parameters=[EVENT_ID_PARAMETER],
             responses={**_call_answer(200, {"type": "object", "required": ["calls"],
                                             "properties": {"calls": {
                                                 "type": "array", "items": _CALL_SCHEMA}}},
                                       "The calls waiting"),
                        **_problems(_403=_CHANGE_PROBLEMS["_403"], _404=_COMMON_PROBLEMS["_404"],
                                    _503=_COMMON_PROBLEMS["_503"])})
    def list_calls(eid: str):
        token = token_of(eid)
        if token.role != "director":  # token_of lets only the director through here
            raise EventTokenInvalid("the calls are the director's to read")
        rounds = snapshot(eid, results=False).document.get("rounds", [])
        open_round = len(rounds) if rounds and rounds[-1].get("seed") is None else 0
        waiting: list[RefereeCall] = []
        stale: list[RefereeCall] = []
        for call in db().referee_calls(eid):
            (waiting if call.round == open_round else stale).append(call)
        db().clear_calls(eid, *((c.round, c.table) for c in stale))  # a closed round's
        now = time.time()
        return answered(orjson.dumps({"calls": [_call_json(c, now) for c in waiting]}),
                        version=0)


def _body_json(required: bool = True) -> Any:
    """The body as JSON (400, 415 and 422 json_duplicate_key as everywhere); None for an
    empty body where none is `required`."""
    if not required and not body_bytes(request):
        return None
    try:
        value = raw_json_body(request, required=required)
    except (orjson.JSONDecodeError, UnicodeDecodeError) as err:
        invalid_json(err)
    return None if value is core.missing else value


def _normal(event: Any) -> dict[str, Any]:
    """The document as the engine writes it (defaults left out), without a digest: a stored
    document changes, so a digest is made when it is handed out."""
    out: dict[str, Any] = msgspec.to_builtins(event)
    out.pop("digest", None)
    return out


def _copy(snap: Snapshot) -> dict[str, Any]:
    return orjson.loads(orjson.dumps(snap.document))


def _table_alone(doc: dict[str, Any], number: int, where: int, result: Any
                 ) -> dict[str, Any]:
    """The event with table `where` of round `number` alone in it, holding `result`: its
    entrants, system and penalties, its other rounds without tables or byes (a round's check
    reads its own tables only). What a table's result is checked in: parse_event's verdict on
    it is the whole document's, at the cost of one table."""
    rounds = [{**{k: v for k, v in rnd.items() if k != "byes"}, "tables": []}
              for rnd in doc.get("rounds", [])]
    target = {k: v for k, v in doc["rounds"][number - 1]["tables"][where].items()
              if k != "result"}
    if result is not None:
        target["result"] = result
    rounds[number - 1]["tables"] = [target]
    return {**doc, "rounds": rounds}


def _round(snap: Snapshot, number: int) -> dict[str, Any]:
    rounds = snap.document.get("rounds", [])
    if not 1 <= number <= len(rounds):
        raise EventNotFound(f"round {number} is not seated", "number")
    rnd: dict[str, Any] = rounds[number - 1]
    return rnd


def _table(rnd: dict[str, Any], number: int) -> dict[str, Any]:
    for table in rnd.get("tables", []):
        if table["number"] == number:
            found: dict[str, Any] = table
            return found
    raise EventNotFound(f"the round has no table {number}", "table")


def _with_entrant(snap: Snapshot, entrant: str) -> tuple[dict[str, Any], dict[str, Any]]:
    doc = _copy(snap)
    for found in doc.get("entrants", []):
        if found["id"] == entrant:
            return doc, found
    raise EventNotFound(f"no entrant {shown(entrant)}", "entrant")


# Checkpoints of the records replayed here, by the key of the prefix each replayed
# (engine/records.py replay_from): a table pushes its whole record after every action, and its
# next push, one action longer, replays that action only. Never trusted beyond what it names:
# a record is resumed only from a prefix it has exactly. Per process and bounded (the oldest
# dropped): a worker that did not see a table's last push resumes from the last it saw, or
# replays whole.
_CHECKPOINTS: dict[bytes, records.Checkpoint] = {}
_CHECKPOINTS_KEEP = 1024
_CHECKPOINTS_LOCK = threading.Lock()


def replayed_here(record: Any) -> tuple[dict[str, Any], Any]:
    """A record's check report and final state, resumed from the longest prefix replayed
    here; the replay kept for the standings (engine/events/standings.py `keep`), which read
    the same record next."""
    report, state, _ = _replayed_from(record)
    return report, state


def _replayed_from(record: Any) -> tuple[dict[str, Any], Any, records.Checkpoint | None]:
    """replayed_here's report and state, and the checkpoint at the record's end."""
    report, state, checkpoint = records.replay_from(record, _CHECKPOINTS)
    if checkpoint is not None:
        _keep_checkpoint(checkpoint)
    # and found by identity within the current reading (the view's places of an open
    # round's table read this very record next: not replayed whole again)
    keep_replay(report, state, record)
    return report, state, checkpoint


def _keep_checkpoint(checkpoint: records.Checkpoint) -> None:
    with _CHECKPOINTS_LOCK:
        if checkpoint.key not in _CHECKPOINTS and len(_CHECKPOINTS) >= _CHECKPOINTS_KEEP:
            _CHECKPOINTS.pop(next(iter(_CHECKPOINTS)))
        _CHECKPOINTS[checkpoint.key] = checkpoint


def _check_record(settings, record: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    """A table's record, within the service's bounds and replayed before it is stored: one
    that does not replay as written is refused with the discrepancy's code. Its report and
    final state."""
    report, state, _ = _checked_record(settings, record)
    return report, state


def _checked_record(settings, record: dict[str, Any]
                    ) -> tuple[dict[str, Any], Any, records.Checkpoint | None]:
    """_check_record's report and state, and the checkpoint at the record's end."""
    deals, actions = records.record_size(record)
    _within_limits(settings, deals, actions, "record.deals")
    try:
        report, state, checkpoint = _replayed_from(record)
    except InputError as err:
        raise InputError(err.message, f"record.{err.path}" if err.path else "record",
                         code="event_invalid") from None
    _consistent(report)
    return report, state, checkpoint


def _within_limits(settings, deals: int, actions: int, path: str) -> None:
    from ..errors import LimitExceeded

    if deals > settings.max_record_deals or actions > settings.max_record_actions:
        raise LimitExceeded(f"a record has at most {settings.max_record_deals} deals and "
                            f"{settings.max_record_actions} actions here", path)


def _consistent(report: dict[str, Any]) -> None:
    """A record's replay report, refused (event_record_inconsistent) at its discrepancy."""
    found = report["discrepancy"]
    if found is not None:
        where = ", ".join(f"{k} {found[k]}" for k in ("deal", "step") if found.get(k) is not None)
        raise InputError(f"the record does not replay as written: {found['code']}"
                         + (f" ({where})" if where else ""), "record",
                         code="event_record_inconsistent")


# The ends of the records pushed or read here (engine/records.py RecordEnd), by their key: an
# append names its base's key and resumes from the end kept for it, its replay, prefix key and
# digest chained on from there. Content-named like the checkpoints (a key is its record's
# whole content), per process and bounded; an end not kept here is made once from the stored
# record (another worker's push, a restart).
_ENDS: dict[bytes, records.RecordEnd] = {}
_ENDS_KEEP = 1024


# The last end of each table's record this process saw, by (event, round, table), with how many
# appends the record had taken there since it was written whole (None: not known): an append
# another process took is caught up from there, reading only the appends after those.
_TABLE_ENDS: dict[tuple[str, int, int], tuple[bytes, int | None]] = {}


def _remember(end: records.RecordEnd) -> None:
    with _CHECKPOINTS_LOCK:
        if end.key not in _ENDS and len(_ENDS) >= _ENDS_KEEP:
            _ENDS.pop(next(iter(_ENDS)))
        _ENDS[end.key] = end
    _keep_checkpoint(end.checkpoint)


def _hold(table: tuple[str, int, int], key: bytes, seen: int | None) -> None:
    """`key` is the end of `table`'s record this process saw last, after `seen` appends."""
    with _CHECKPOINTS_LOCK:
        if table not in _TABLE_ENDS and len(_TABLE_ENDS) >= _ENDS_KEEP:
            _TABLE_ENDS.pop(next(iter(_TABLE_ENDS)))
        _TABLE_ENDS[table] = (key, seen)


# What an append checks of the document without results — its rounds, whether each is
# closed, its tables — by the event and the stamp of the change that last wrote that document
# (`framestamp`: new with every write, even after a failover): read and parsed once per
# document, not per push.
_ROUNDS: dict[tuple[str, str], list[tuple[bool, frozenset[int]]]] = {}
_ROUNDS_KEEP = 256

# Who pushes, as last read from the store here: each caller's verified token by the event
# and the SHA-256 of the bearer sent (a wrong secret never finds one), and each event's last
# frame stamp. A table's append checks its token from these, and its script checks in the
# store that the token still exists (a revoked one: 403), the document is still that one and
# the event not published (else they are read again): one round trip a push, not two.
_WRITERS: dict[tuple[str, bytes], Token] = {}
_FRAMES: dict[str, str] = {}
_WRITERS_KEEP = 4096


def _bounded(kept: dict, most: int) -> dict:
    """`kept`, its oldest entry dropped when it holds `most`."""
    if len(kept) >= most:
        kept.pop(next(iter(kept)), None)
    return kept


def _rounds_of(snap: Snapshot) -> list[tuple[bool, frozenset[int]]]:
    rounds = [(rnd.get("seed") is not None,
               frozenset(t["number"] for t in rnd.get("tables") or []))
              for rnd in snap.document.get("rounds") or []]
    if snap.frame_stamp:
        if len(_ROUNDS) >= _ROUNDS_KEEP:
            _ROUNDS.pop(next(iter(_ROUNDS)))
        _ROUNDS[snap.id, snap.frame_stamp] = rounds
    return rounds


def public(snap: Snapshot) -> dict[str, Any]:
    """The public view: the document without what a spectator may not see yet, nor what a
    page does not show — each table's record reduced (`_shown_result`: an open round's to its
    finished deals' totals, a closed round's to its deals' seeds and totals) — with each
    table's places and the standings. A closed round's whole records are answered table by
    table (`GET …/rounds/{n}/tables/{t}/record`): the view stays the size of what a page
    shows, not of every action of every match (4 MB at a 200-entrant event after two rounds).
    Made from the whole document: the route builds each new version's from what changed
    (`public_of`), which must show exactly this."""
    document = snap.document
    with reading():  # each record replayed once: by the places, the standings and the summary
        event = parse_event(document)
        rounds = []
        for rnd, parsed in zip(document.get("rounds", []), event.rounds):
            closed = rnd.get("seed") is not None
            tables = []
            for table, parsed_table in zip(rnd.get("tables", []), parsed.tables):
                # copies, not the document's own (a snapshot is read, never changed here)
                tables.append(_shown_table(event, table, parsed_table, closed))
            rounds.append({**rnd, "tables": tables})
        view = {**document, "rounds": rounds} if "rounds" in document else dict(document)
        return {"id": snap.id, "version": snap.version, "published": snap.published,
                "event": view, "standings": as_json(standings(event))}


# What a closed round's deal shows of how it was dealt: what re-makes it anywhere (its seed,
# salt and commitment: POST /v1/verify-deal) and its dealer. The cards of a deal dealt from the
# cards, and every action, are in the table's record (…/tables/{t}/record).
_DEAL_SHOWN = ("seed", "seed_salt", "seed_commitment", "dealer")


def _shown_table(event: Any, table: dict[str, Any], parsed_table: Any, closed: bool
                 ) -> dict[str, Any]:
    """A table as the public view shows it: its places (the game's own standings: a page
    showing them knows no rules) and its result, a record reduced (`progress` while its round
    is open, `summary` once closed), a reported result as reported."""
    shown = dict(table)
    record = (table.get("result") or {}).get("record")
    # an open round's record first: resumed from its last push's replay where this process
    # made it, and so found again by the places and standings
    progress = _progress(record) if record is not None and not closed else None
    places = table_places(event, parsed_table)
    if places is not None:
        shown["places"] = places
    if progress is not None:
        shown["result"] = {"progress": progress}
    elif record is not None:  # what else the result holds (a reported result) as it is
        shown["result"] = {**{k: v for k, v in table["result"].items() if k != "record"},
                           "summary": _summary(record, replayed(parsed_table.result.record))}
    return shown


def _summary(record: dict[str, Any], replay: Any) -> dict[str, Any]:
    """A closed round's record as the public view shows it: its players, each deal's seed,
    salt, commitment (and dealer) with its totals, the match's totals, how many actions it
    holds and its digest (what `POST /v1/records/check` answers for the whole record, which
    `…/record` answers)."""
    deals: list[dict[str, Any]] = []
    totals: dict[str, int] = {}
    for entry, deal_totals in zip(record.get("deals", []), replay.deal_totals):
        dealt = entry.get("deal") or {}
        deals.append({"deal": {k: dealt[k] for k in _DEAL_SHOWN if k in dealt},
                      "totals": deal_totals})
        for target, value in deal_totals.items():
            totals[target] = totals.get(target, 0) + value
    return {"players": record.get("players", []), "deals": deals, "totals": totals,
            "actions": sum(len(d.get("actions") or []) for d in record.get("deals", [])),
            "digest": replay.digest}


# A record's progress by the SHA-256 of its JSON: every version of the public view shows the
# open round's records again, most of them unchanged since the last.
_PROGRESS: dict[bytes, dict[str, Any]] = {}
_PROGRESS_KEEP = 4096


def _progress(record: dict[str, Any]) -> dict[str, Any]:
    key = hashlib.sha256(orjson.dumps(record, option=orjson.OPT_SORT_KEYS)).digest()
    kept = _PROGRESS.get(key)
    if kept is None:
        if len(_PROGRESS) >= _PROGRESS_KEEP:
            _PROGRESS.pop(next(iter(_PROGRESS)))
        kept = _PROGRESS[key] = _progress_of(record)
    return kept


def _progress_of(record: dict[str, Any]) -> dict[str, Any]:
    report, _ = replayed_here(record)
    finished = [d for d in report["deals"] if d.get("status") == "finished"]
    totals: dict[str, int] = {}
    for deal in finished:
        for target, value in deal["totals"].items():
            totals[target] = totals.get(target, 0) + value
    return {"players": record.get("players", []), "deals_finished": len(finished),
            "deals": [{"totals": d["totals"]} for d in finished], "totals": totals}


# ------------------------------------------------------------------ a new version's view

# Every table's push makes a new version, and nearly every poll of the view finds one: the
# view is built from the parts that changed since the last one built here. By event id, the
# last view's parts (`_Built`): the document without results parsed once per distinct bytes
# (`_Frame`), each table as the view shows it with its outcome, by its result's stored bytes
# (`_Shown`). Never trusted beyond the exact bytes each was made from: compared whole, or
# known by the stamp of the change that wrote them (event_store's `:stamps`, random per change:
# the store sends again only the results whose stamp is not the one a part was made from), never
# by version (a Redis failover may give a version's number to another change). Per process and
# bounded (the least recently built event dropped): a kept event holds its stored bytes once.
_BUILT: dict[str, "_Built"] = {}
_BUILT_KEEP = 16
_BUILT_LOCK = threading.Lock()


@dataclasses.dataclass(frozen=True)
class _Frame:
    """The document without its tables' results, at one write of it: its bytes as stored,
    read, and parsed (parse_event: what every table's result is then checked in); `inner`,
    the results a document stored whole still holds (an event stored before each table's
    result was kept apart: event_store.split), by field."""

    stored: bytes
    data: dict[str, Any]
    event: Any  # engine.events.format.Event, without results
    inner: dict[str, bytes]
    frame_stamp: str = ""  # the write of the document it was read from ("": not known)


@dataclasses.dataclass(frozen=True)
class _Shown:
    """A table with a result as the view shows it (`_shown_table`), and its outcome for the
    standings, made from `stored` (the result's stored bytes) and `seated` (`_seated`: all
    else of the document either depends on)."""

    stored: bytes
    seated: bytes
    table: dict[str, Any]
    outcome: Any  # TableOutcome | None
    stamp: str | None = None  # the stamp of the change that wrote `stored` (None: not known)


@dataclasses.dataclass(frozen=True)
class _Built:
    frame: _Frame
    tables: dict[str, _Shown]


def _seated(frame: _Frame, table: dict[str, Any], closed: bool) -> bytes:
    """What of the document without results a table's view and outcome depend on, besides
    its result: the event's system (its game, options, partners), the table as seated and
    whether its round is closed (checked in the document once: entrants, other rounds). A
    penalty, an entrant or another round's change leaves it as it was."""
    return orjson.dumps([frame.data.get("system"), table, closed])


def clear_view_caches() -> None:
    """Forget every view part built here (a test builds the view again from scratch)."""
    with _BUILT_LOCK:
        _BUILT.clear()
    _PROGRESS.clear()


def _held(built: "_Built | None") -> tuple[str, dict[str, str]]:
    """What a view built here holds, as EventStore.parts asks it: its document's frame stamp
    and each table's result's stamp (those the store need not send again)."""
    if built is None:
        return "", {}
    return built.frame.frame_stamp, {field: shown.stamp for field, shown in built.tables.items()
                                     if shown.stamp is not None}


def public_of(parts: event_store.StoredParts, kept: "_Built | None") -> dict[str, Any]:
    """`public`'s view of the event as stored (`EventStore.parts`, asked with `_held(kept)`:
    what `kept`, the last view built here, holds is not sent again), built again only where it
    changed since: the document without results parsed again only when its bytes changed (a
    round started or closed, an entrant…), a table's result parsed, checked, summed up and
    placed again only when its bytes changed, or what it is seated in (`_seated`); the
    standings computed from the tables' kept outcomes."""
    before = kept.tables if kept is not None else {}
    if parts.document is None:  # the one `kept` was made from (its frame stamp)
        assert kept is not None, "the store leaves out only a document the caller holds"
        frame, same = kept.frame, True
    elif kept is not None and kept.frame.stored == parts.document:
        frame, same = dataclasses.replace(kept.frame, frame_stamp=parts.frame_stamp), True
    else:
        data, inner = event_store.split(orjson.loads(parts.document))
        with reading():
            frame, same = _Frame(parts.document, data, parse_event(data), inner,
                                 parts.frame_stamp), False
    tables: dict[str, _Shown] = {}
    rounds = []
    played: list[list[Any]] = []
    with reading():
        for k, rnd in enumerate(frame.data.get("rounds", [])):
            closed = rnd.get("seed") is not None
            shown_tables: list[dict[str, Any]] = []
            outcomes: list[Any] = []
            for i, table in enumerate(rnd.get("tables", [])):
                field = event_store.result_field(k + 1, table["number"])
                stamp = parts.stamps.get(field)
                found = before.get(field)
                if field not in parts.results and stamp is not None and found is not None \
                        and found.stamp == stamp:
                    stored: bytes | None = found.stored  # not sent again: unchanged since
                else:
                    stored = parts.results.get(field) or frame.inner.get(field)
                    if field not in parts.results:
                        stamp = None  # a result inside the document: known by its bytes
                if stored is None:  # no result: the table as seated, no places
                    shown_tables.append(dict(table))
                    outcomes.append(None)
                    continue
                # the result as stored and its record's appends since: what the table was
                # shown from (NUL is in no JSON text, so the two never run together)
                tail = parts.tails.get(field)
                if tail:
                    stored = stored + b"\0" + tail
                if found is None or found.stored != stored or not (
                        same or found.seated == _seated(frame, table, closed)):
                    found = _table_shown(frame, k, i, table, stored, closed)
                if found.stamp != stamp:
                    found = dataclasses.replace(found, stamp=stamp)
                tables[field] = found
                shown_tables.append(found.table)
                outcomes.append(found.outcome)
            rounds.append({**rnd, "tables": shown_tables})
            played.append(outcomes)
        document = frame.data
        view = {**document, "rounds": rounds} if "rounds" in document else dict(document)
        lines = as_json(standings(frame.event, played))
    with _BUILT_LOCK:
        _BUILT.pop(parts.id, None)
        while len(_BUILT) >= _BUILT_KEEP:
            _BUILT.pop(next(iter(_BUILT)))
        _BUILT[parts.id] = _Built(frame, tables)
    return {"id": parts.id, "version": parts.version, "published": parts.published,
            "event": view, "standings": lines}


def _table_shown(frame: _Frame, k: int, i: int, table: dict[str, Any], stored: bytes,
                 closed: bool) -> _Shown:
    """Table `i` of round `k` (from 0) with the result stored as `stored`, as the view shows
    it: the result checked as parse_event checks it in the whole document (in the document
    parsed without results: parse_table_result), then placed and summed up as `public` does."""
    kept, _, tail = stored.partition(b"\0")
    result = orjson.loads(event_store.result_bytes(kept, tail))
    parsed_table = parse_table_result(frame.event, k, i, result)
    # the record as parsed, the one object the progress, the places and the summary all read
    # (its replay found again by identity within the reading: made once)
    record = parsed_table.result.record if parsed_table.result is not None else None
    held = {**table, "result": result if record is None else {**result, "record": record}}
    shown = _shown_table(frame.event, held, parsed_table, closed)
    return _Shown(stored, _seated(frame, table, closed), shown,
                  table_outcome(frame.event, parsed_table))
