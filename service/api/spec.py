"""What the spec says of routes in several resource modules: the parameters they share, their
problem+json answers, and the mark of a view that the app calls without flask-smorest's
wrapper layers."""
from __future__ import annotations

from flask_smorest import Blueprint

from ..trust import HOST_TOKEN_HEADER, SEAT_TOKEN_HEADER, TOKEN_MAX_LENGTH

PROBLEM_RESPONSES = {
    400: "Malformed JSON (`json_malformed`)",
    415: "Body not declared as JSON (`unsupported_media_type`)",
    403: "State signature invalid (`state_signature_invalid`), a seat's token missing "
         "(`seat_token_invalid`), a match's host token missing (`host_token_invalid`) or a "
         "referee act without the referee key (`referee_key_required`)",
    404: "Unknown game (`game_unknown`)",
    413: "Body too large (`body_too_large`) or past a limit (`limit_exceeded`)",
    422: "Request, state, action or options invalid (`request_invalid`, `state_invalid`, "
         "`action_invalid`, `options_invalid`, `deal_invalid`, `player_unknown`, "
         "`game_mismatch`; `json_duplicate_key`: an object names a key twice)",
}


# `{game}` in paths, documented as the registry's ids (`GameId`); routed as any segment (an
# unknown game answers 404 game_unknown) under the rule metrics label routes by.
GAME_PARAMETER = {"in": "path", "name": "game", "required": True,
                  "schema": {"$ref": "#/components/schemas/GameId"}}
# Sealing on (docs/security.md): the seat's token handed out with the deal, proving the caller
# is the seat it acts or asks for; ignored when states are not sealed. Declared so a generated
# client types it (a referee's act carries the referee key in Authorization instead).
SEAT_TOKEN_PARAMETER = {"in": "header", "name": SEAT_TOKEN_HEADER, "required": False,
                        "description": "sealing on: the token of the seat that acts (validate) "
                                       "or asks (legal actions, view), from the deal's "
                                       "`seat_tokens`; ignored when states are not sealed",
                        "schema": {"type": "string", "maxLength": TOKEN_MAX_LENGTH}}
# Sealing on: a deal from a match's next_match answers every seat's token, so it is the host's
# (the match's host token, answered with each of its deals) or the referee's (the key).
HOST_TOKEN_PARAMETER = {"in": "header", "name": HOST_TOKEN_HEADER, "required": False,
                        "description": "sealing on: the match's `host_token`, answered with "
                                       "each of its deals; needed to deal its next deal from "
                                       "its `next_match` without the referee key; ignored "
                                       "when states are not sealed",
                        "schema": {"type": "string", "maxLength": TOKEN_MAX_LENGTH}}


def problem_response(description: str) -> dict:
    """A problem+json answer as the spec documents one."""
    return {"description": description,
            "content": {"application/problem+json": {
                "schema": {"$ref": "#/components/schemas/Problem"}}}}


def problem_docs(blp: Blueprint, schemas, *codes: int):
    """Document problem+json answers. A plain doc entry, not alt_response: each alt_response
    adds a wrapper layer to every request (measured ~5 µs each on the hot path)."""
    return blp.doc(responses={str(code): problem_response(PROBLEM_RESPONSES[code])
                              for code in codes})


def called_directly(view):
    """Mark a view that reads its own body and returns a Response: flask-smorest's decorators
    above it only document it (response, doc), so the app calls it without their wrapper
    layers (each resolves `current_app` and unpacks the answer; ~8 µs of /v1/validate).
    `functools.wraps` carries the mark up to the outermost wrapper (service/app.py swaps it)."""
    view.direct_view = view
    return view
