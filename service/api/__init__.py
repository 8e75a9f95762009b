"""The endpoints (README "Endpoints"), one module per resource family: games (the games and
their rules pages), play (deal, legal actions, view, replay), validate (the hot path: POST
/v1/validate and its alias), records (records, score sheets, verify-deal), events (an event's
rounds and its publication, stateless), hosted_events (events kept in Redis), lookups and
operations (health, readiness, the spec and the pages).

Each view: envelope checked by marshmallow (flask-smorest), state verified and decoded by the
engine, answer built as a prebuilt orjson Response (the response schema documents it;
flask-smorest passes a Response through without re-dumping). Each module's `build(ctx)` adds its
views as closures over the shared context (common.Context: the envelopes, the app's guard and
cache), never looked up through `current_app` on a request."""
from __future__ import annotations

from flask_smorest import Blueprint

from . import events, games, hosted_events, lookups, operations, play, records
from .common import Context


def build_blueprints(schemas, ext) -> list[Blueprint]:
    """Every blueprint, in the order the spec lists their paths and tags: v1 (games, play,
    records, events), hosted events, compat (the alias of /v1/validate), ops, lookups."""
    ctx = Context(schemas, ext)
    games.build(ctx)
    alias = play.build(ctx)
    records.build(ctx)
    events.build(ctx)
    return [ctx.api, hosted_events.build(ctx), alias, operations.build(ctx), lookups.build(ctx)]
