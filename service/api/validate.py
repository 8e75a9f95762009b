"""Adjudicate one action: POST /v1/validate and its unversioned alias POST /validate, the hot
path (docs/performance.md): the body read by load_body against the same marshmallow envelope
webargs would use (documented by hand to the same effect), the views called without
flask-smorest's wrapper layers (`called_directly`), the answer built as one orjson Response."""
from __future__ import annotations

import hashlib

import orjson
from flask import request

from engine import adjudicate
from engine.adjudicate import Applied

from .. import examples
from ..errors import request_lang
from ..jsonio import json_response, load_body
from ..trust import SEAT_TOKEN_HEADER
from .common import RefereeBlueprint, check_game, check_latest, refusal_json
from .spec import SEAT_TOKEN_PARAMETER, called_directly, problem_docs


def action_digest(move: int, action: dict | None) -> str:
    """Names an accepted action and the move it was applied to (strict sequencing's record):
    the same action on the same state is the same move, answered again as the first time."""
    return hashlib.sha256(orjson.dumps([move, action], option=orjson.OPT_SORT_KEYS)).hexdigest()[:32]


def validate_examples(side: str, op: str) -> dict:
    """Two named examples, an accepted action and a refused one, the request's and the
    answer's under the same names."""
    pick = examples.request if side == "request" else examples.response
    return {name: {"summary": summary, "value": pick(recorded)} for name, summary, recorded in (
        ("accepted", "A legal action: the next state", op),
        ("refused", "An action of a seat whose turn it is not: refused, state unchanged",
         "validateActionRefused"))}


def validate_answer(op: str) -> dict:
    """The answer: an accepted action or a refused one, a `oneOf` told apart by `valid`
    (no discriminator object: OpenAPI's name string values, `valid` is a boolean)."""
    return {"200": {"description": "The action accepted (`valid: true`) or refused "
                                   "(`valid: false`)",
                    "content": {"application/json": {
                        "schema": {"oneOf": [{"$ref": "#/components/schemas/ValidateAccepted"},
                                             {"$ref": "#/components/schemas/ValidateRefused"}]},
                        "examples": validate_examples("response", op)}}}}


def validate_body(schemas, op: str) -> dict:
    return {"required": True, "content": {"application/json": {
        "schema": schemas.validate_request, "examples": validate_examples("request", op)}}}


def build(ctx) -> RefereeBlueprint:
    """POST /v1/validate, added to the v1 blueprint (`ctx.api`); answers the blueprint of its
    unversioned alias."""
    api, schemas, ext = ctx.api, ctx.schemas, ctx.ext

    def _validate(req, body: dict):
        environ = req.environ
        action = body["action"]
        actor = action.get("player") if isinstance(action, dict) else None
        guard = ext.guard
        got = guard.incoming(body["state"])
        if "game" in body:
            check_game(body["game"], got.state)
        # A referee-only action (a chombo recorded, a reported peek) is the referee's, not the
        # seat's it is posted as: the referee key, with or without that seat's token. Sealed,
        # so is a card named as drawn from a physical deal's stock of unknown order: its
        # refusal would tell the seat where an unseen card is not (docs/security.md).
        referee_act = guard.enabled and adjudicate.is_referee_act(got.state, action,
                                                                  sealed=guard.sealed)
        if referee_act:
            # (the same words wherever the named cards lie: the answer tells nothing of them)
            named = "" if adjudicate.is_referee_act(got.state, action) else \
                " naming cards drawn from a stock of unknown order (a physical deal)"
            guard.require_referee(req.headers.get("Authorization"),
                                  f"the action {action.get('type')!r}{named}")
        elif guard.sealed and isinstance(actor, str):
            guard.require_seat(got.meta, actor, req.headers.get(SEAT_TOKEN_HEADER))
        if isinstance(got.state, dict) and isinstance(got.state.get("game"), str):
            environ["cardref.game"] = got.state["game"]
        # Sealed: every part of the answer but the state reaches the acting seat in clear, so
        # `to_act` is the public one (Game.public_to_act), never derived from a hidden hand.
        result = adjudicate.validate(got.state, action, got.trusted, public=guard.sealed)
        if isinstance(result, Applied):
            meta = None if got.meta is None else got.meta.next()
            if guard.sequencer is not None and got.meta is not None:
                guard.sequencer.advance(got.meta.game_id, got.meta.move,
                                        action_digest(got.meta.move, result.action))
            out = {"valid": True, "state": guard.outgoing(result.state, meta),
                   "score_deltas": result.score_deltas, "events": result.events,
                   "to_act": result.to_act, "status": result.status}
            if result.status == "finished":
                # The deal is over: its seed and the commitment's salt are revealed (verify-seed
                # proves the deal against the commitment), and the next deal's match summary is
                # signed or sealed.
                out["seed"] = result.state.get("seed")
                out["seed_salt"] = result.state.get("seed_salt") or None
                out["next_match"] = guard.outgoing_match(result.next_match, meta, result.state)
                if meta is not None:
                    out["lineage"] = meta.lineage()
            if guard.sealed:
                # a referee proved no seat: the referee sees what a spectator sees
                # (trusted: a state the engine itself has just encoded needs no invariant
                # re-check; ~10% of a sealed validate)
                out["view"] = adjudicate.view(result.state, None if referee_act else actor,
                                              trusted=True)
            return json_response(out)
        check_latest(ext, got)
        environ["cardref.refusal"] = result.refusal.code
        # Refused: the state exactly as posted (signature included), unchanged.
        return json_response({"valid": False, "error": refusal_json(result.refusal, request_lang()),
                              "state": body["state"]})

    # The hot path: the body is checked by the same marshmallow schema, read by load_body
    # rather than webargs (documented by hand to the same effect).
    @api.route("/validate", methods=["POST"], parameters=[SEAT_TOKEN_PARAMETER])
    @ctx.problems(400, 403, 404, 413, 415, 422)
    @api.doc(operationId="validateAction", requestBody=validate_body(schemas, "validateAction"),
             responses=validate_answer("validateAction"),
             summary="Adjudicate one action: valid with the next state, or refused with the rule broken")
    @called_directly
    def validate():
        req = request._get_current_object()  # type: ignore[attr-defined]  # the proxy's method; one lookup, not one per attribute
        return _validate(req, load_body(schemas.validate_request, req))

    # The unversioned alias of /v1/validate that front ends were promised.
    alias = RefereeBlueprint("compat", __name__, description="Unversioned aliases")

    @alias.route("/validate", methods=["POST"], parameters=[SEAT_TOKEN_PARAMETER])
    @problem_docs(alias, schemas, 400, 403, 404, 413, 415, 422)
    @alias.doc(operationId="validateActionAlias", requestBody=validate_body(schemas, "validateActionAlias"),
               responses=validate_answer("validateActionAlias"),
               summary="Same as POST /v1/validate")
    @called_directly
    def validate_alias():
        req = request._get_current_object()  # type: ignore[attr-defined]  # flask types the proxy as what it proxies
        return _validate(req, load_body(schemas.validate_request, req))

    return alias
