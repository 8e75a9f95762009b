"""Events (docs/events.md "Endpoints and commands"): seat an event's next round (POST
/v1/events/next-round), reveal a round's seed once it is over (POST /v1/events/reveal-round),
and publish the event: its standings (POST /v1/events/standings), its check (POST
/v1/events/check) and its sheet (POST /v1/events/sheet).

The event document is the engine's to read (engine/events/format.py: every fault an
`event_invalid` or another stable code, with the path of what is wrong); the service bounds the
work a document may ask for (`event_in`) and says where a fault is in the request (`in_request`).
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Any, Iterator

import orjson
from flask import Response, request

from engine import records
from engine.errors import InputError
from engine.events import InvalidEvent, digest, next_round, reveal_round
from engine.events.check import check_event
from engine.events.publish import MEDIA_TYPES, sheet, standings_report

from .. import examples
from ..errors import LimitExceeded
from ..jsonio import invalid_json, json_response, raw_json_body
from ..schemas import EVENT_DOCUMENT
from .records import (
    CONSISTENT_HEADER,
    DIGEST_HEADER,
    SHEET_PARAMETERS,
    keyed_on_accept,
    sheet_format,
    sheet_lang,
)
from .spec import called_directly

EVENT_REF = {"$ref": f"#/components/schemas/{EVENT_DOCUMENT}"}
_LANG_PARAMETER = next(p for p in SHEET_PARAMETERS if p["name"] == "lang")
_EVENT_HEADERS = {
    CONSISTENT_HEADER: {"description": "`true` when the event's check found no discrepancy",
                        "schema": {"type": "string", "enum": ["true", "false"]}},
    DIGEST_HEADER: {"description": "the event's digest (`sha256:` and 64 hex digits)",
                    "schema": {"type": "string"}}}


# A request's own fields beside its `event`: a fault the engine finds there keeps its path;
# any other is the document's, and is answered under `event.`.
REQUEST_FIELDS = frozenset({"seed", "seed_salt", "method", "plan", "round"})
_HEAD = re.compile(r"[.\[]")


def _document_body(op: str) -> dict:
    """A request body that is the event document itself."""
    return {"required": True, "content": {"application/json": {
        "schema": EVENT_REF, "example": examples.request(op)}}}


def _answer(description: str, component: str, op: str) -> dict:
    """A 200 answer of the JSON `component`, with its recorded example."""
    return {"200": {"description": description, "content": {"application/json": {
        "schema": {"$ref": f"#/components/schemas/{component}"},
        "example": examples.response(op)}}}}


def build(ctx) -> None:
    """The events' routes, added to the v1 blueprint (`ctx.api`)."""
    api, schemas, ext = ctx.api, ctx.schemas, ctx.ext

    @api.route("/events/next-round", methods=["POST"])
    @api.arguments(schemas.event_next_round_request,
                   example=examples.request("eventNextRound"))
    @ctx.problems(400, 413, 415, 422)
    @api.doc(operationId="eventNextRound",
             summary="Seat an event's next round: the event with the round's tables, byes and "
                     "seed commitment",
             description="The round after the last one, seated by the system's `seating` (or "
                         "`method`; a `plan` seats a `fixed` round) from the event so far and "
                         "the round's seed (docs/events.md \"Seating\"). The answer carries the "
                         "seed's commitment, never the seed: keep seed and salt secret and "
                         "reveal them after the round (`POST /v1/events/reveal-round`). A "
                         "`digest` the event carried is dropped: the document changed.",
             responses={"200": {"description": "The event, its next round seated",
                                "content": {"application/json": {
                                    "schema": EVENT_REF,
                                    "example": examples.response("eventNextRound")}}}})
    def event_next_round(body: dict):
        with in_request():
            event = event_in(ext, body["event"])
            out = next_round(event, body["seed"], body.get("seed_salt"),
                             method=body.get("method"), plan=body.get("plan"))
        return json_response(out)

    @api.route("/events/reveal-round", methods=["POST"])
    @api.arguments(schemas.event_reveal_round_request,
                   example=examples.request("eventRevealRound"))
    @ctx.problems(400, 413, 415, 422)
    @api.doc(operationId="eventRevealRound",
             summary="Reveal a round's seed: the event with the round's seed, salt and the "
                     "same deals' seeds written in",
             description="After the round: the seed and salt are checked against the "
                         "commitment published with the seating (422 `commitment_mismatch` "
                         "when they do not make it) and written into the round, with the same "
                         "deals' seeds (`same_deals`), so anyone holding the event can seat "
                         "the round again and compare (docs/events.md \"Seating\").",
             responses={"200": {"description": "The event, the round's seed revealed",
                                "content": {"application/json": {
                                    "schema": EVENT_REF,
                                    "example": examples.response("eventRevealRound")}}}})
    def event_reveal_round(body: dict):
        with in_request():
            event = event_in(ext, body["event"])
            out = reveal_round(event, body["round"], body["seed"], body.get("seed_salt"))
        return json_response(out)

    _publishing(ctx)


def _publishing(ctx) -> None:
    """The routes that read a whole event and publish what it says."""
    api, ext = ctx.api, ctx.ext

    @api.route("/events/standings", methods=["POST"])
    @ctx.problems(400, 413, 415, 422)
    @api.doc(operationId="eventStandings",
             summary="An event's standings: every tie-break value, each entrant's results "
                     "round by round, the penalties and the event's check",
             description="The event document (docs/events.md) in the body; the standings as "
                         "\"Standings\" says, in the language of `?lang=` or Accept-Language "
                         "(the system in words, the check's messages in both). A table's "
                         "record that does not replay as written is 422 "
                         "`event_record_inconsistent`: the standings cannot count it; any other "
                         "discrepancy is answered in `check`.",
             parameters=[_LANG_PARAMETER], requestBody=_document_body("eventStandings"),
             responses=_answer("The standings report", "EventStandings", "eventStandings"))
    @called_directly
    def event_standings():
        req = request._get_current_object()  # type: ignore[attr-defined]  # flask types the proxy as what it proxies
        lang = sheet_lang(req)
        response = json_response(standings_report(document_in(ext, req), lang))
        response.headers["Content-Language"] = lang
        return response

    @api.route("/events/check", methods=["POST"])
    @ctx.problems(400, 413, 415, 422)
    @api.doc(operationId="checkEvent",
             summary="Check a whole event: every commitment, seating, record, reported result "
                     "and penalty re-derived; the first discrepancy named",
             description="The event document in the body; the answer says whether everything "
                         "in it is what anyone re-deriving it finds (docs/events.md \"Checking "
                         "an event\") and names the first discrepancy with its round, table, "
                         "deal, step and path, in English and Japanese. A discrepancy is an "
                         "answer (200), not an error; a document that is not well formed is "
                         "422.",
             requestBody=_document_body("checkEvent"),
             responses=_answer("The check", "EventCheck", "checkEvent"))
    @called_directly
    def event_check():
        req = request._get_current_object()  # type: ignore[attr-defined]  # flask types the proxy as what it proxies
        return json_response(check_event(document_in(ext, req)))

    @api.route("/events/sheet", methods=["POST"])
    @ctx.problems(400, 413, 415, 422)
    @api.doc(operationId="eventSheet",
             summary="An event's publication: text, CSV or a printable HTML page, English or "
                     "Japanese",
             description="The event document in the body; its publication (docs/events.md "
                         "\"Publication\"): the check's outcome, the standings, a crosstable, "
                         "each round's seating and results (reported ones marked), its deals "
                         "with their seeds once revealed and the penalties. "
                         f"`{CONSISTENT_HEADER}` says whether the check found the event "
                         "consistent.",
             parameters=SHEET_PARAMETERS, requestBody=_document_body("eventSheet"),
             responses={"200": {
                 "description": "The event's sheet", "headers": _EVENT_HEADERS,
                 "content": {media: {"schema": {"type": "string"}} | (
                     {"example": examples.response("eventSheet")}
                     if media == "text/plain" else {}) for media in MEDIA_TYPES.values()}}})
    @called_directly
    def event_sheet():
        req = request._get_current_object()  # type: ignore[attr-defined]  # flask types the proxy as what it proxies
        fmt, lang = sheet_format(req), sheet_lang(req)
        data = document_in(ext, req)
        text = sheet(data, fmt, lang)
        consistent = check_event(data)["consistent"]  # its records replayed once: kept
        response = Response(text, mimetype=MEDIA_TYPES[fmt],
                            headers={"Content-Language": lang,
                                     CONSISTENT_HEADER: str(consistent).lower(),
                                     DIGEST_HEADER: digest(data)})
        return keyed_on_accept(req, response)


def document_in(ext, req) -> Any:
    """The posted event document (raw JSON: the engine reads it and names the path of a
    fault), within the service's bounds (`event_in`)."""
    try:
        data = raw_json_body(req, required=True)
    except (orjson.JSONDecodeError, UnicodeDecodeError) as err:
        invalid_json(err)
    return event_in(ext, data)


@contextmanager
def in_request(field: str = "event") -> Iterator[None]:
    """A fault found in the event document is answered with its path in the request: under
    `field` (the document's place in the request), unless it is of a request field beside it
    (REQUEST_FIELDS: the seed, the plan …), whose path is the request's already."""
    try:
        yield
    except InputError as err:
        if _HEAD.split(err.path, maxsplit=1)[0] not in REQUEST_FIELDS:
            err.path = f"{field}.{err.path}" if err.path else field
            if err.errors:
                err.errors = {f"{field}.{path}": messages for path, messages in err.errors.items()}
        raise


def event_in(ext, event: Any) -> Any:
    """The posted event document, within the service's bounds: each table's match record
    within a record's (`CARDREF_MAX_RECORD_DEALS`, `CARDREF_MAX_RECORD_ACTIONS`), all of them
    within `CARDREF_MAX_EVENT_ACTIONS` actions (413 `limit_exceeded` beyond: replaying them is
    the work), and every id one a record may seat (`CARDREF_MAX_PLAYER_ID_LENGTH`). Counted
    before the engine reads it; what is not of the declared shape is left to the engine."""
    settings = ext.settings
    limit = settings.max_player_id_length
    for path, pid in _ids(event):
        if isinstance(pid, str) and len(pid) > limit:
            raise InvalidEvent(f"an id has at most {limit} characters "
                               "(CARDREF_MAX_PLAYER_ID_LENGTH)", path)
    total = 0
    for path, record in _records(event):
        deals, actions = records.record_size(record)
        if deals > settings.max_record_deals:
            raise LimitExceeded(f"a record checked here has at most {settings.max_record_deals}"
                                f" deals (CARDREF_MAX_RECORD_DEALS), not {deals}",
                                f"{path}.deals")
        if actions > settings.max_record_actions:
            raise LimitExceeded(f"a record checked here has at most "
                                f"{settings.max_record_actions} actions in all "
                                f"(CARDREF_MAX_RECORD_ACTIONS), not {actions}", f"{path}.deals")
        total += actions
        if total > settings.max_event_actions:
            raise LimitExceeded(f"an event checked here has at most "
                                f"{settings.max_event_actions} actions in all its records "
                                "(CARDREF_MAX_EVENT_ACTIONS)", "rounds")
    return event


def _items(value: Any, key: str, path: str) -> Iterator[tuple[str, dict]]:
    """The objects of the list at `value[key]`, with their paths (nothing where it is not a
    list of objects: the engine says what is wrong there)."""
    items = value.get(key) if isinstance(value, dict) else None
    for i, item in enumerate(items if isinstance(items, list) else ()):
        if isinstance(item, dict):
            yield f"{path}{'.' if path else ''}{key}[{i}]", item


def _ids(event: Any) -> Iterator[tuple[str, Any]]:
    """Every id the document gives a player: entrants', team members' and substitutes' (a
    seat's `entrant` and `player` must be one of the first two, which the engine checks)."""
    for path, entrant in _items(event, "entrants", ""):
        yield f"{path}.id", entrant.get("id")
        for member_path, member in _items(entrant, "members", path):
            yield f"{member_path}.id", member.get("id")
    for path, seat in _seats(event):
        substitute = seat.get("substitute")
        if isinstance(substitute, dict):
            yield f"{path}.substitute.id", substitute.get("id")


def _tables(event: Any) -> Iterator[tuple[str, dict]]:
    for round_path, rnd in _items(event, "rounds", ""):
        yield from _items(rnd, "tables", round_path)


def _seats(event: Any) -> Iterator[tuple[str, dict]]:
    for table_path, table in _tables(event):
        yield from _items(table, "seats", table_path)


def _records(event: Any) -> Iterator[tuple[str, Any]]:
    for path, table in _tables(event):
        result = table.get("result")
        if isinstance(result, dict) and result.get("record") is not None:
            yield f"{path}.result.record", result["record"]
