"""Events (docs/events.md "Endpoints and commands"): seat an event's next round (POST
/v1/events/next-round) and reveal a round's seed once it is over (POST /v1/events/reveal-round).

The event document is the engine's to read (engine/events/format.py: every fault an
`event_invalid` or another stable code, with the path of what is wrong); the service bounds the
work a document may ask for (`event_in`) and says where a fault is in the request (`in_request`).
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Any, Iterator

from engine import records
from engine.errors import InputError
from engine.events import InvalidEvent, next_round, reveal_round

from .. import examples
from ..errors import LimitExceeded
from ..jsonio import json_response
from ..schemas import EVENT_DOCUMENT

EVENT_REF = {"$ref": f"#/components/schemas/{EVENT_DOCUMENT}"}
# A request's own fields beside its `event`: a fault the engine finds there keeps its path;
# any other is the document's, and is answered under `event.`.
REQUEST_FIELDS = frozenset({"seed", "seed_salt", "method", "plan", "round"})
_HEAD = re.compile(r"[.\[]")


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
