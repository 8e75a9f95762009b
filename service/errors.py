"""Every error a client sees: application/problem+json with a stable snake_case `code`.

Illegal actions are not errors (they answer 200, valid=false); these are requests the service
cannot adjudicate at all. No input makes a 500: anything unexpected becomes a 500 problem with
no stack trace, and is logged.
"""
from __future__ import annotations

import logging
from typing import Any

import orjson
from flask import Response, request
from werkzeug.exceptions import HTTPException

from engine.adjudicate import UnknownGame
from engine.game import InputError

from .sequence import SequenceUnavailable, Superseded
from .signing import SignatureError
from .trust import RefereeKeyRequired, SeatTokenInvalid

log = logging.getLogger(__name__)

PROBLEM_MIME = "application/problem+json"

# code -> (title en, title ja)
TITLES: dict[str, tuple[str, str]] = {
    "json_malformed": ("Malformed JSON", "JSON の形式が正しくありません"),
    "request_invalid": ("The request does not fit its schema", "リクエストがスキーマに合いません"),
    "state_invalid": ("The state is not a valid state of its game", "状態がそのゲームの状態として正しくありません"),
    "state_version_unsupported": ("Unsupported state version", "対応していない状態のバージョンです"),
    "action_invalid": ("The action is malformed", "アクションの形式が正しくありません"),
    "options_invalid": ("Invalid options", "オプションが正しくありません"),
    "deal_invalid": ("Invalid deal request", "配札のリクエストが正しくありません"),
    "player_unknown": ("No such player at this table", "そのプレイヤーはこの卓にいません"),
    "game_unknown": ("Unknown game", "不明なゲームです"),
    "not_found": ("Not found", "見つかりません"),
    "method_not_allowed": ("Method not allowed", "このメソッドは使えません"),
    "body_too_large": ("Request body too large", "リクエストが大きすぎます"),
    "referee_key_required": ("This deal needs the referee key", "この配札には審判用キーが必要です"),
    "seat_token_invalid": ("This seat's token is missing or wrong", "この席のトークンがないか、正しくありません"),
    "state_superseded": ("This state is not the game's latest", "この状態は対局の最新の状態ではありません"),
    "sequence_unavailable": ("Strict sequencing is unavailable", "手順の確認ができないため受け付けられません"),
    "limit_exceeded": ("Request asks for more than the service's limits",
                       "リクエストがサービスの上限を超えています"),
    "unsupported_media_type": ("Unsupported media type", "対応していないメディアタイプです"),
    "state_signature_invalid": ("State signature invalid", "状態の署名が正しくありません"),
    "internal_error": ("Internal error", "内部エラー"),
    "input_invalid": ("Invalid input", "入力が正しくありません"),
}

_HTTP_CODES = {400: "json_malformed", 404: "not_found", 405: "method_not_allowed",
               413: "body_too_large", 415: "unsupported_media_type", 422: "request_invalid"}


def request_lang() -> str:
    """'ja' when the caller prefers Japanese (Accept-Language), else 'en'."""
    try:
        return "ja" if request.accept_languages.best_match(("en", "ja")) == "ja" else "en"
    except RuntimeError:  # outside a request
        return "en"


def problem(status: int, code: str, detail: str = "", errors: dict | None = None,
            headers: dict | None = None) -> Response:
    en, ja = TITLES.get(code, (code.replace("_", " ").capitalize(), code))
    japanese = request_lang() == "ja"
    try:
        request.environ["cardref.problem"] = code  # for the access log and metrics
    except RuntimeError:  # outside a request
        pass
    body: dict[str, Any] = {"type": "about:blank", "title": ja if japanese else en,
                            "status": status, "code": code}
    if detail:
        # The specifics (field values, limits) come from checks worded in English; a Japanese
        # reader gets the Japanese statement of the problem first, then those specifics.
        body["detail"] = f"{ja}。詳細: {detail}" if japanese else detail
    if errors:
        body["errors"] = errors
    resp = Response(orjson.dumps(body), status=status, mimetype=PROBLEM_MIME)
    for k, v in (headers or {}).items():
        resp.headers[k] = v
    return resp


def _flatten(messages: Any, prefix: str = "") -> dict[str, list[str]]:
    """webargs/marshmallow nested messages -> {"action.type": ["Missing data ..."]}."""
    out: dict[str, list[str]] = {}
    if isinstance(messages, dict):
        for key, value in messages.items():
            path = f"{prefix}.{key}" if prefix else str(key)
            if isinstance(value, list) and all(isinstance(v, str) for v in value):
                out[path] = value
            else:
                out.update(_flatten(value, path))
    elif isinstance(messages, list):
        out[prefix or "_schema"] = [str(m) for m in messages]
    else:
        out[prefix or "_schema"] = [str(messages)]
    return out


def handle_http_exception(error: HTTPException) -> Response:
    status = error.code or 500
    if status >= 500:
        return problem(500, "internal_error")
    code = _HTTP_CODES.get(status, "request_invalid")
    data = getattr(error, "data", None) or {}
    messages = data.get("messages")
    errors = None
    if messages:
        # webargs nests by location ("json"); paths are relative to the body.
        if isinstance(messages, dict) and set(messages) <= {"json", "query", "view_args"}:
            messages = {k2: v2 for v in messages.values() if isinstance(v, dict) for k2, v2 in v.items()} or messages
        errors = _flatten(messages)
        if status == 400 or (status == 422 and _is_json_error(errors)):
            status, code = 400, "json_malformed"
    detail = data.get("message") or (error.description if status != 422 else
                                     "the request body does not fit the schema")
    # Keep what the exception says in headers (405's Allow, RFC 9110), not its content type.
    headers = {k: v for k, v in error.get_headers() if k.lower() != "content-type"}
    headers.update(data.get("headers") or {})
    return problem(status, code, detail, errors, headers)


def _is_json_error(errors: dict) -> bool:
    return any("Invalid JSON" in m for msgs in errors.values() for m in msgs)


class LimitExceeded(InputError):
    """A request asking for more work than the service's limits allow (README: settings)."""
    code = "limit_exceeded"
    http_status = 413


def handle_input_error(error: InputError) -> Response:
    status = 404 if isinstance(error, UnknownGame) else getattr(error, "http_status", 422)
    errors = {error.path: [error.message]} if error.path else None
    return problem(status, error.code, error.message, errors)


def handle_signature_error(error: SignatureError) -> Response:
    return problem(403, "state_signature_invalid", str(error))


def handle_referee_key(error: RefereeKeyRequired) -> Response:
    return problem(403, "referee_key_required", str(error))


def handle_seat_token(error: SeatTokenInvalid) -> Response:
    return problem(403, "seat_token_invalid", str(error))


def handle_superseded(error: Superseded) -> Response:
    return problem(409, "state_superseded", str(error))


def handle_sequence_unavailable(error: SequenceUnavailable) -> Response:
    log.warning("strict sequencing: store unreachable: %s", error)
    return problem(503, "sequence_unavailable",
                   "strict sequencing cannot reach its store; the action was not taken",
                   headers={"Retry-After": "1"})


def handle_unexpected(error: Exception) -> Response:
    if isinstance(error, HTTPException):
        return handle_http_exception(error)
    log.exception("unexpected error answering %s %s", request.method, request.path)
    return problem(500, "internal_error", "an unexpected error occurred; it has been logged")


def register(app) -> None:
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(InputError, handle_input_error)
    app.register_error_handler(SignatureError, handle_signature_error)
    app.register_error_handler(RefereeKeyRequired, handle_referee_key)
    app.register_error_handler(SeatTokenInvalid, handle_seat_token)
    app.register_error_handler(Superseded, handle_superseded)
    app.register_error_handler(SequenceUnavailable, handle_sequence_unavailable)
    app.register_error_handler(Exception, handle_unexpected)
