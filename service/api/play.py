"""Play: deal (POST /v1/games/{game}/deal), legal actions, a seat's view and replay; validating
an action (POST /v1/validate and its alias, the hot path) is service/api/validate.py's. Who may
shape a deal and what its answer hands out: service/trust.py ("the deal's trust policy")."""
from __future__ import annotations

import copy

import orjson
from flask import Response, request

from engine import adjudicate

from .. import examples, trust
from ..errors import LimitExceeded, request_lang
from ..jsonio import json_response
from ..schemas import pascal
from . import hosted_events, validate
from .common import (
    RefereeBlueprint,
    asks_as_referee,
    cached_json,
    check_game,
    check_latest,
    check_player_ids,
    refusal_json,
    state_in,
)
from .spec import (
    GAME_PARAMETER,
    HOST_TOKEN_PARAMETER,
    PROBLEM_RESPONSES,
    SEAT_TOKEN_PARAMETER,
    problem_response,
)

# An event's token, beside the referee key in Authorization: dealing one of the event's
# committed same deals (`event_deal`; service/api/hosted_events.py committed_deal).
EVENT_TOKEN_PARAMETER = {
    "in": "header", "name": hosted_events.EVENT_TOKEN_HEADER, "required": False,
    "description": "with `event_deal`: the event's table token of that round, or its director "
                   "token (the referee key, if any, stays in Authorization)",
    "schema": {"type": "string", "maxLength": trust.TOKEN_MAX_LENGTH}}
# The deal's problems: the shared ones, and an event's committed deal refused.
_EVENT_DEAL_PROBLEMS = {
    403: "; `event_deal` without a token of that event and round in X-Event-Token "
         "(`event_token_invalid`)",
    422: "; `event_deal` naming no event, round or same deal kept here (`event_deal_unknown`), "
         "or beside a seed, salt, deck, hands or table (`event_deal_conflict`)"}
DEAL_PROBLEMS = {
    **{str(code): problem_response(PROBLEM_RESPONSES[code] + _EVENT_DEAL_PROBLEMS.get(code, ""))
       for code in (400, 403, 404, 413, 415, 422)},
    "503": problem_response("With `event_deal`: the events' store does not answer "
                            "(`events_unavailable`)")}


def build(ctx) -> RefereeBlueprint:
    """Play's routes, added to the v1 blueprint (`ctx.api`) in the spec's order (deal,
    validate, legal actions, view, replay); answers the blueprint of the unversioned alias of
    /v1/validate (service/api/validate.py)."""
    api, schemas, ext = ctx.api, ctx.schemas, ctx.ext

    @api.route("/games/<string:game>/deal", methods=["POST"],
               parameters=[GAME_PARAMETER, HOST_TOKEN_PARAMETER, EVENT_TOKEN_PARAMETER])
    @api.arguments(schemas.deal_request, example=examples.request("deal"))
    @api.response(201, schemas.deal_response, example=examples.response("deal"))
    @api.doc(responses=DEAL_PROBLEMS)
    @api.doc(operationId="deal", summary="Deal a new game (seeded shuffle or an explicit deck)",
             description="For a client that names the game at run time; a typed client posts "
                         "to the game's own path (`/v1/games/man/deal` …), whose body is "
                         "typed by the game (its options, match values and table).",
             # each game's own options and match (service/schemas.py deal_components)
             requestBody={"content": {"application/json": {
                 "schema": {"$ref": "#/components/schemas/DealRequest"}}}})
    def deal(body: dict, game: str):
        request.environ["cardref.game"] = game
        check_player_ids(ext, body["players"], "players")
        meta, match, seed, salt, claim = trust.guard_deal(
            ext.guard, body, game, body["players"], [game, body], request.headers,
            drawn=event_drawn(ext, body))
        out = adjudicate.deal(game, body["players"], body.get("options"), seed,
                              body.get("dealer"), match, body.get("deck"), body.get("hands"),
                              public=ext.guard.sealed, table=body.get("table"),
                              seed_salt=salt)
        trust.claim_match(ext.guard, claim)
        return json_response(trust.dealt(ext.guard, out, meta, body["players"]), 201)

    alias = validate.build(ctx)  # /v1/validate (the hot path) and /validate

    @api.route("/legal-actions", methods=["POST"], parameters=[SEAT_TOKEN_PARAMETER])
    @api.arguments(schemas.legal_actions_request, example=examples.request("legalActions"))
    @api.response(200, schemas.legal_actions_response, example=examples.response("legalActions"))
    @ctx.problems(400, 403, 404, 413, 415, 422)
    @api.doc(operationId="legalActions", summary="Every legal action of a player now")
    def legal_actions(body: dict):
        player, types = body["player"], body.get("types")
        cards, combinations = body.get("cards"), body.get("combinations")
        referee_seen = asks_as_referee(ext, player)
        got = state_in(ext, body["state"], None if referee_seen else player)
        check_game(body.get("game"), got.state)
        check_latest(ext, got)
        state = got.state
        # The state is checked before anything else is made of it: a hand-edited one (say a
        # field nested deeper than orjson writes, for the cache key) is a 422, never a 500.
        game, decoded = adjudicate.load_state(state, got.trusted)

        def compute():
            actions = adjudicate.legal_actions_of(game, decoded, state, player, types,
                                                  referee_seen, cards=cards,
                                                  combinations=combinations)
            # Each names its game: generated clients tell apart the games' same-named actions
            # (`play` in four games) by it (the spec's `Action`).
            return {"actions": [{**a, "game": game.id} for a in actions], "count": len(actions)}
        # Picked cards narrow the work to those cards (Game.legal_actions_of_cards): cheaper
        # than a cache round trip, and each pick another key. Other filters are cached with
        # the question they narrow: a filtered answer is small, and filtering a cached full
        # list would parse it again (~2 ms for a 27-card Guandan lead) on every request.
        if not game.legal_actions_cacheable or cards is not None:
            return json_response(compute())
        # the referee's list is another answer than any seat's (a seat "referee" cannot exist)
        identity = orjson.dumps([state, player, types, combinations,
                                 *(["referee"] if referee_seen else [])],
                                option=orjson.OPT_SORT_KEYS)
        return Response(cached_json(ext, "legal", identity, compute), mimetype="application/json")

    @api.route("/view", methods=["POST"], parameters=[SEAT_TOKEN_PARAMETER])
    @api.arguments(schemas.view_request, example=examples.request("view"))
    @api.response(200, schemas.view_response, example=examples.response("view"))
    @ctx.problems(400, 403, 404, 413, 415, 422)
    @api.doc(operationId="view", summary="The state as one player (or a spectator: null) may see it")
    def view(body: dict):
        referee_seen = asks_as_referee(ext, body["player"])
        got = state_in(ext, body["state"], None if referee_seen else body["player"])
        check_game(body.get("game"), got.state)
        check_latest(ext, got)
        out = {"view": adjudicate.view(got.state, body["player"], got.trusted, referee_seen)}
        if got.meta is not None:  # the view shows the match's totals: say whose match it is
            out["lineage"] = got.meta.lineage()
        return json_response(out)

    @api.route("/replay", methods=["POST"], parameters=[HOST_TOKEN_PARAMETER])
    @api.arguments(schemas.replay_request, example=examples.request("replay"))
    @api.response(200, schemas.replay_response, example=examples.response("replay"))
    @ctx.problems(400, 403, 404, 413, 415, 422)
    @api.doc(operationId="replay",
             summary="Deal, then apply a list of actions; stops at the first refused one")
    def replay(body: dict):
        deal = dict(body["deal"])
        deal["game_id"] = deal.pop("game")
        request.environ["cardref.game"] = deal["game_id"]
        check_player_ids(ext, deal["players"], "deal.players")
        limit = ext.settings.max_replay_actions
        if len(body["actions"]) > limit:
            raise LimitExceeded(f"a replay takes at most {limit} actions "
                                f"(CARDREF_MAX_REPLAY_ACTIONS), not {len(body['actions'])}",
                                "actions")
        meta, deal["match"], deal["seed"], deal["seed_salt"], claim = trust.guard_deal(
            ext.guard, deal, deal["game_id"], deal["players"], [body["deal"], body["actions"]],
            request.headers)
        guard = ext.guard
        trust.require_replay_acts(guard, deal["game_id"], body["actions"], request.headers)
        # views as /v1/view shows them: the referee's needs the referee key; a seat's is the
        # caller's, whom the answer hands every seat's token under sealing (service/trust.py)
        views_for = body.get("views_for", adjudicate.NO_VIEWS)
        out = adjudicate.replay(deal, body["actions"], public=guard.sealed, views_for=views_for,
                                referee_seen=asks_as_referee(ext, views_for))
        trust.claim_match(guard, claim)
        trust.replayed(guard, out, meta, deal["game_id"], deal["players"])
        if out["stopped"] is not None:
            request.environ["cardref.refusal"] = out["stopped"]["error"].code
            out["stopped"]["error"] = refusal_json(out["stopped"]["error"], request_lang())
        return json_response(out)

    return alias


def event_drawn(ext, body: dict) -> tuple[str, str] | None:
    """The seed and salt of the hosted event's committed same deal the deal request names
    (`event_deal`), looked up with the event's token: the service's own, not the caller's (not
    a referee act; docs/hosted-events.md, "Same deals"). None: it names none."""
    committed = hosted_events.committed_deal(getattr(ext, "event_store", None), body,
                                             request.headers)
    return None if committed is None else (committed.seed, committed.salt)


GENERIC_DEAL = "/v1/games/{game}/deal"


def publish_game_deals(paths: dict, games) -> dict:
    """`paths` with `/v1/games/<id>/deal` after the generic deal, one per registered game: the
    same operation (the `{game}` route answers it), its body the game's `<Game>DealRequest`, so
    a generated client refuses another game's option, match value or table at compile time
    (a Guandan option in a Daifugo deal). Spec only: one Flask rule serves them all, so the
    metrics' route label stays the one it was."""
    generic = paths[GENERIC_DEAL]
    out: dict = {}
    for path, item in paths.items():
        out[path] = item
        if path != GENERIC_DEAL:
            continue
        for game in games:
            op = "deal" + pascal(game.id)
            post = copy.deepcopy(generic["post"])
            post.pop("description", None)
            post["operationId"] = op
            post["summary"] = f"Deal a new game of {game.names.get('en', game.id)}"
            post["responses"].pop("404", None)  # the path names a game that exists
            body = post["requestBody"]["content"]["application/json"]
            body["schema"] = {"$ref": f"#/components/schemas/{pascal(game.id)}DealRequest"}
            answer = post["responses"]["201"]["content"]["application/json"]
            for part, example in ((body, examples.request(op)), (answer, examples.response(op))):
                part.pop("example", None)
                if example is not None:
                    part["example"] = example
            out[f"/v1/games/{game.id}/deal"] = {
                "post": post,
                "parameters": [p for p in generic["parameters"] if p.get("in") != "path"]}
    return out
