"""What every resource module of the API shares: the blueprint class, the context its views
close over, and the checks of a posted state.

Each resource module (games, play, validate, records, lookups, operations) has a `build(ctx)`
that adds its views as closures over `ctx`'s precomputed objects (the app's guard and cache,
`ext`, and the marshmallow envelopes, `schemas`): views get them by closure, not through
`current_app`, whose proxy lookup costs a few µs on every request (docs/performance.md). What
the spec says of routes in several modules (parameters, problem answers): service/api/spec.py."""
from __future__ import annotations

import hashlib

import orjson
from flask import request
from flask_smorest import Blueprint

from engine import registry
from engine.errors import InputError, shown
from engine.game import InvalidDeal
from engine.referee import REFEREE

from ..cache import cache_key
from ..compression import answer_is_cached
from ..jsonio import OrjsonParser
from ..trust import SEAT_TOKEN_HEADER, Posted
from .spec import problem_docs


class RefereeBlueprint(Blueprint):
    """flask-smorest's Blueprint, reading request bodies with orjson."""

    ARGUMENTS_PARSER = OrjsonParser()


def state_in(ext, posted, seat: str | None = None) -> Posted:
    """The posted state opened by the guard (service/trust.py): verified or unsealed, its
    binding read, the seat's token checked; with strict sequencing, the latest of its game."""
    guard = ext.guard
    got = guard.incoming(posted)
    # A player not seated needs no token: the engine answers 422 player_unknown, as for the
    # id "referee" asked for without the referee key (seat lists are no secret).
    if guard.sealed and seat is not None and seat in (got.state.get("players") or ()):
        guard.require_seat(got.meta, seat, request.headers.get(SEAT_TOKEN_HEADER))
    return got


def check_game(named, state) -> None:
    """A request may name its state's game (`game`: a typed client's discriminator, the only
    name a sealed state shows it): another game than the state's is 422 game_mismatch, before
    the action or the player is read as that game's."""
    if named is not None and isinstance(state, dict) and state.get("game") != named:
        raise InputError(f"the request names the game {named!r}, but its state is a state of "
                         f"{shown(state.get('game'))}", "game", "game_mismatch")


def refusal_json(refusal, lang: str) -> dict:
    """A refusal as answered: the engine's JSON in `lang`, and where it cites a rule
    ("daifugo D9") `rule_url`, the link that lands on it in that language's rules page
    (`/v1/games/daifugo/rules.en.html#D9`: every rule number is its heading's id)."""
    return with_rule_url(refusal.to_json(lang), lang)


def with_rule_url(out: dict, lang: str) -> dict:
    """A refusal's JSON (`out`, changed in place) with its `rule_url` where it cites a rule of
    a game with a rules page: the spec's refusal models require it wherever a refusal is
    answered (/v1/validate, a replay's stop, a record's discrepancy)."""
    game, _, number = out.get("rule", "").partition(" ")
    if number and getattr(registry.get(game), "rules_doc", None):  # a game with a rules page
        out["rule_url"] = f"{request.script_root}/v1/games/{game}/rules.{lang}.html#{number}"
    return out


def asks_as_referee(ext, player) -> bool:
    """Whether the caller asks as the table's referee ("referee", with the referee key): it
    then sees everything in every trust mode. Without the key that id is no seat at all."""
    return player == REFEREE and ext.guard.is_referee(request.headers.get("Authorization"))


def check_latest(ext, got: Posted) -> None:
    if ext.guard.sequencer is not None and got.meta is not None:
        ext.guard.sequencer.check(got.meta.game_id, got.meta.move)


def check_player_ids(ext, players: list, path: str) -> None:
    """Ids are echoed in every answer: a huge one would make states too big to post back."""
    limit = ext.settings.max_player_id_length
    for i, pid in enumerate(players):
        if len(pid) > limit:
            raise InvalidDeal(f"a player id has at most {limit} characters "
                              "(CARDREF_MAX_PLAYER_ID_LENGTH)", f"{path}[{i}]")


def cached_json(ext, namespace: str, identity: bytes, compute) -> bytes:
    """Bytes of the answer, from the cache when present (only for work that costs more than a
    Redis round trip and repeats: enumerations and lookups). Sent as they are, their
    compressed bodies are cached beside them (service/compression.py)."""
    cache = ext.cache
    key = cache_key(namespace, hashlib.sha256(identity).hexdigest())
    body = cache.get(key)
    if body is None:
        body = orjson.dumps(compute())
        cache.set(key, body)
    answer_is_cached(key, body)
    return body


class Context:
    """What the views of every resource module close over: the marshmallow envelopes
    (`schemas`, built once per app), the app's guard, cache and settings (`ext`), and the
    blueprint of the versioned API (`api`, "v1"), which games, play and records each add their
    routes to, in the spec's order."""

    __slots__ = ("api", "ext", "schemas")

    def __init__(self, schemas, ext):
        self.schemas = schemas
        self.ext = ext
        self.api = RefereeBlueprint("v1", __name__, url_prefix="/v1", description="Adjudication")

    def problems(self, *codes: int):
        """Document the v1 route's problem+json answers (`codes`)."""
        return problem_docs(self.api, self.schemas, *codes)
