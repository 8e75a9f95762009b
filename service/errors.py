"""Every error a client sees: application/problem+json with a stable snake_case `code`.

Illegal actions are not errors (they answer 200, valid=false); these are requests the service
cannot adjudicate at all. No input makes a 500: anything unexpected becomes a 500 problem with
no stack trace, and is logged.
"""
from __future__ import annotations

import logging
import re
from typing import Any

import orjson
from flask import Response, request
from werkzeug.exceptions import HTTPException

from engine.adjudicate import UnknownGame
from engine.game import InputError

from .sequence import MatchSuperseded, RolledBack, SequenceUnavailable, Superseded
from .signing import SignatureError
from .trust import HostTokenInvalid, RefereeKeyRequired, SeatTokenInvalid

log = logging.getLogger(__name__)

PROBLEM_MIME = "application/problem+json"

# code -> (title en, title ja)
TITLES: dict[str, tuple[str, str]] = {
    "json_malformed": ("Malformed JSON", "JSON の形式が正しくありません"),
    "json_duplicate_key": ("A JSON object names a key twice",
                           "JSON のオブジェクトに同じキーが二度あります"),
    "body_incomplete": ("The request body ended before its declared end",
                        "リクエストの本文が途中で終わっています"),
    # The HTTP server's own refusals (service/gunicorn_conf.py: before the app sees a request).
    "request_malformed": ("Malformed HTTP request", "HTTP リクエストの形式が正しくありません"),
    "uri_too_long": ("Request line too long", "リクエスト行が長すぎます"),
    "headers_too_large": ("Request header fields too large", "リクエストヘッダーが大きすぎます"),
    "request_invalid": ("The request does not fit its schema", "リクエストがスキーマに合いません"),
    "state_invalid": ("The state is not a valid state of its game", "状態がそのゲームの状態として正しくありません"),
    "state_version_unsupported": ("Unsupported state version", "対応していない状態のバージョンです"),
    "action_invalid": ("The action is malformed", "アクションの形式が正しくありません"),
    "options_invalid": ("Invalid options", "オプションが正しくありません"),
    "deal_invalid": ("Invalid deal request", "配札のリクエストが正しくありません"),
    "player_unknown": ("No such player at this table", "そのプレイヤーはこの卓にいません"),
    "game_mismatch": ("The request names another game than its state's",
                      "リクエストのゲームが状態のゲームと違います"),
    "game_unknown": ("Unknown game", "不明なゲームです"),
    "record_invalid": ("The match record is malformed", "対局記録の形式が正しくありません"),
    "record_version_unsupported": ("Unsupported match record format_version",
                                   "対応していない対局記録のバージョン(format_version)です"),
    # Events (docs/events.md): the document, a table's record in it, a round's seating and seed.
    "event_invalid": ("The event document is malformed", "大会の文書の形式が正しくありません"),
    "event_version_unsupported": ("Unsupported event format_version",
                                  "対応していない大会の文書のバージョン(format_version)です"),
    "event_record_inconsistent": ("A table's match record does not replay as written",
                                  "卓の対局記録が記録どおりに再現できません"),
    "reported_result_inconsistent": ("A table's reported result is not what its deals score to",
                                     "卓の報告結果がそのディールの採点と一致しません"),
    "plan_invalid": ("The fixed round's plan does not seat every entrant once",
                     "固定の組み合わせが参加者をちょうど一度ずつ座らせていません"),
    "commitment_mismatch": ("The seed and salt do not make the published commitment",
                            "シードとソルトが公開されたコミットメントと一致しません"),
    # Hosted events (docs/hosted-events.md): who may change one, and when.
    "director_key_required": ("Creating an event needs a director key",
                              "大会の作成には大会責任者のキーが必要です"),
    "event_token_invalid": ("No token of this event allowed to do this",
                            "この大会でこれを行えるトークンがありません"),
    "event_not_found": ("No such event here", "その大会はここにありません"),
    "event_deal_unknown": ("No such committed deal of an event here",
                           "大会のその同一配札はここにありません"),
    "event_deal_conflict": ("An event's committed deal takes no seed, salt or cards of the caller's",
                            "大会の同一配札にはシード・ソルト・カードを指定できません"),
    "version_required": ("A director's change names the version it was computed from (If-Match)",
                         "大会責任者の変更には元にした版(If-Match)が必要です"),
    "version_conflict": ("The event has changed since that version",
                         "大会はその版のあとに変更されています"),
    "idempotency_key_reused": ("This Idempotency-Key was used for another request",
                               "この Idempotency-Key は別のリクエストに使われています"),
    "round_not_closed": ("The event's last round is not closed", "大会の最後の回戦が終わっていません"),
    "round_closed": ("The round is closed", "その回戦は終わっています"),
    "confirmation_not_allowed": ("This token may not confirm a seat that way",
                                 "このトークンではその方法で席の確認を送れません"),
    "record_not_public": ("A table's record is public once its round is closed",
                          "卓の記録は回戦が終わってから公開されます"),
    "record_base_mismatch": ("The table's stored record does not end where this append begins",
                             "この追記の起点が、保存されている卓の記録の終わりと一致しません"),
    "event_published": ("The event is published and changes no more",
                        "大会は公開済みで、もう変更できません"),
    "events_unavailable": ("The events' store is unavailable", "大会の保存先が使えません"),
    "not_found": ("Not found", "見つかりません"),
    "method_not_allowed": ("Method not allowed", "このメソッドは使えません"),
    "body_too_large": ("Request body too large", "リクエストが大きすぎます"),
    "referee_key_required": ("This deal needs the referee key", "この配札には審判用キーが必要です"),
    "seat_token_invalid": ("This seat's token is missing or wrong", "この席のトークンがないか、正しくありません"),
    "host_token_invalid": ("This match's host token is missing or wrong",
                           "この対戦のホストトークンがないか、正しくありません"),
    "state_superseded": ("This state is not the game's latest", "この状態は対局の最新の状態ではありません"),
    "sequence_unavailable": ("Strict sequencing is unavailable", "手順の確認ができないため受け付けられません"),
    "sequence_rolled_back": ("Strict sequencing's store lost moves of this game",
                             "手順の記録がこの対局の手を失っているため受け付けられません"),
    "match_superseded": ("This match summary already started a deal",
                         "この対戦の記録はすでに次の配札に使われています"),
    "limit_exceeded": ("Request asks for more than the service's limits",
                       "リクエストがサービスの上限を超えています"),
    "unsupported_media_type": ("Unsupported media type", "対応していないメディアタイプです"),
    "state_signature_invalid": ("State signature invalid", "状態の署名が正しくありません"),
    "internal_error": ("Internal error", "内部エラー"),
    "input_invalid": ("Invalid input", "入力が正しくありません"),
}

# The title of a code a game declares (Game.input_errors, e.g. Manteur's `rank_unknown`): the
# code and the detail say what is wrong; the title is the kind of problem.
GAME_INPUT_TITLE = TITLES["input_invalid"]


def problem_codes() -> dict[str, tuple[str, str]]:
    """Every problem `code` a client can get, with its titles: the service's own and every
    registered game's input errors. The spec's Problem.code lists exactly these, metrics count
    only these (anything else is `other`), and tests/service/test_problem_codes.py checks that
    every code raised in engine/ and service/ is among them and in docs/integrating.md."""
    from engine import registry

    codes = dict(TITLES)
    for game in registry.all_games():
        for code in sorted(game.input_errors):
            codes.setdefault(code, GAME_INPUT_TITLE)
    return codes


# Field messages a client can get (marshmallow's, the engine's fields, the service's own), in
# Japanese. A message not listed here reaches a Japanese reader as the problem's Japanese title
# followed by the English specifics; tests/service/test_ops.py lists the messages each field
# kind and schema can give and fails on any without a Japanese rendering here.
JA_MESSAGES: tuple[tuple[re.Pattern, str], ...] = tuple((re.compile(p + r"\Z", re.S), ja) for p, ja in (
    (r"Missing data for required field\.", "必須の項目がありません。"),
    (r"Unknown field\.", "不明な項目です。"),
    (r"Field may not be null\.", "null にはできません。"),
    (r"Not a valid string\.", "文字列ではありません。"),
    (r"Not a valid integer\.", "整数ではありません。"),
    (r"Not a valid number\.", "数値ではありません。"),
    (r"Not a valid boolean\.", "真偽値(true または false)ではありません。"),
    (r"Not a valid list\.", "リストではありません。"),
    (r"Not a valid mapping type\.", "オブジェクトではありません。"),
    (r"Invalid input type\.", "入力の型が正しくありません。"),
    (r"Invalid value\.", "値が正しくありません。"),
    (r"Shorter than minimum length (\d+)\.", r"長さは \1 以上です。"),
    (r"Longer than maximum length (\d+)\.", r"長さは \1 以下です。"),
    (r"Length must be between (\d+) and (\d+)\.", r"長さは \1 以上 \2 以下です。"),
    (r"Length must be (\d+)\.", r"長さは \1 です。"),
    (r"Must be greater than or equal to (\S+) and less than or equal to (\S+)\.",
     r"\1 以上 \2 以下でなければなりません。"),
    (r"Must be greater than or equal to (\S+)\.", r"\1 以上でなければなりません。"),
    (r"Must be less than or equal to (\S+)\.", r"\1 以下でなければなりません。"),
    (r"Must be one of: (.*)\.", r"次のいずれかでなければなりません: \1。"),
    (r"String does not match expected pattern\.", "文字列の形式が正しくありません。"),
    (r"Content-Type must be application/json\.", "Content-Type は application/json にしてください。"),
    (r"Invalid JSON body at line (\d+), column (\d+): (.*)\.",
     r"JSON の形式が正しくありません(\1 行 \2 列目): \3。"),
    (r"Invalid JSON body: not UTF-8 at byte (\d+)\.", r"JSON が UTF-8 ではありません(\1 バイト目)。"),
    (r"Invalid JSON body: (.*)\.", r"JSON の形式が正しくありません: \1。"),
    (r"the request body does not fit the schema", "リクエストの本文がスキーマに合いません"),
    (r"must be a string", "文字列でなければなりません"),
    (r"does not fit the state's binding \(meta\)", "状態の結び付け(meta)に合いません"),
    (r"duplicate key (.+): a JSON object names each key once",
     r"キー \1 が重複しています: JSON のオブジェクトでは各キーを一度だけ書きます"),
    # engine.fields.Field.parse
    (r"may not be null", "null にはできません"),
    (r"must be a list of cards", "カードのリストでなければなりません"),
    (r"(.+) at position (\d+) is not a card \(expected e\.g\. (.*)\)",
     r"\2 番目の \1 はカードではありません(例: \3)"),
    (r"(.+) is not a card \(expected e\.g\. (.*)\)", r"\1 はカードではありません(例: \2)"),
    (r"(.+) is not a suit \(S, H, D or C\)", r"\1 はスート(S、H、D、C)ではありません"),
    (r"(.+) is not one of (\[.*\])", r"\1 は \2 のいずれでもありません"),
    (r"must be an integer within ±\(2\^53 − 1\)", "±(2^53 − 1) の範囲の整数でなければなりません"),
    (r"must be at least (-?\d+)", r"\1 以上でなければなりません"),
    (r"must be at most (-?\d+)", r"\1 以下でなければなりません"),
    (r"must be true or false", "true か false でなければなりません"),
    (r"must be a non-empty string", "空でない文字列でなければなりません"),
    (r"must be a list of strings", "文字列のリストでなければなりません"),
    (r"must be a list of seat ids", "席 ID のリストでなければなりません"),
    (r"must be a list of integers within ±\(2\^53 − 1\)",
     "±(2^53 − 1) の範囲の整数のリストでなければなりません"),
    (r"must map keys to lists of strings", "キーから文字列のリストへの対応でなければなりません"),
    (r"must map ids to integers within ±\(2\^53 − 1\)",
     "ID から ±(2^53 − 1) の範囲の整数への対応でなければなりません"),
    (r"must be an object \{en, ja\} of non-empty strings",
     "空でない文字列の {en, ja} オブジェクトでなければなりません"),
    (r"must be an object", "オブジェクトでなければなりません"),
    (r"must be a list of objects", "オブジェクトのリストでなければなりません"),
    (r"unknown field", "不明な項目です"),
    (r"missing required field", "必須の項目がありません"),
    (r"unknown option (.+)", r"不明なオプション \1 です"),
    (r"unknown preset (.+); presets: (.+)", r"不明なプリセット \1 です。プリセット: \2"),
    (r"(\d+) options are wrong: (.*)", r"\1 個のオプションが正しくありません: \2"),
))


def translate(message: str) -> str | None:
    """The Japanese of a known message, or None."""
    for pattern, ja in JA_MESSAGES:
        m = pattern.match(message)
        if m:
            return m.expand(ja)
    return None


def _ja(message: str, title_ja: str) -> str:
    return translate(message) or f"{title_ja}。詳細: {message}"


_OWN_CODES = {"BodyIncomplete": "body_incomplete", "BadChunkedBody": "request_malformed"}
_HTTP_CODES = {400: "json_malformed", 404: "not_found", 405: "method_not_allowed",
               413: "body_too_large", 415: "unsupported_media_type", 422: "request_invalid"}


def request_lang(req=None) -> str:
    """'ja' when the caller prefers Japanese (Accept-Language), else 'en'. Asked several times
    per request (messages, Content-Language): parsed once, kept in the request's environ.
    `req`: the request object when the caller holds it (saves the proxy lookup)."""
    if req is None:
        try:
            req = request._get_current_object()  # type: ignore[attr-defined]  # flask types the proxy as what it proxies
        except RuntimeError:  # outside a request
            return "en"
    environ = req.environ
    lang = environ.get("cardref.lang")
    if lang is None:
        header = environ.get("HTTP_ACCEPT_LANGUAGE")
        lang = preferred_language(req.accept_languages) if header else "en"
        environ["cardref.lang"] = lang
    return lang


def preferred_language(accepted) -> str:
    """The caller's most preferred of 'en' and 'ja', by primary subtag (`ja-JP` is Japanese).
    Not werkzeug's best_match: it takes any exact match before a regional one, so
    `ja-JP, en;q=0.5` came out English and `en-US, ja;q=0.5` Japanese."""
    ranked = [(value.replace("_", "-").split("-", 1)[0].lower(), quality)
              for value, quality in sorted(accepted, key=lambda item: -item[1])]  # stable
    named = {primary for primary, _q in ranked}
    for primary, quality in ranked:
        if quality <= 0:
            continue
        if primary in ("en", "ja"):
            return primary
        if primary == "*" and "en" not in named:  # any language not named: our default
            return "en"
    return "en"


def problem(status: int, code: str, detail: str = "", errors: dict | None = None,
            headers: dict | None = None, detail_ja: str = "") -> Response:
    en, ja = TITLES.get(code) or GAME_INPUT_TITLE
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
        body["detail"] = (detail_ja or _ja(detail, ja)) if japanese else detail
    if errors:
        body["errors"] = ({path: [detail_ja if detail_ja and m == detail else _ja(m, ja)
                                  for m in msgs] for path, msgs in errors.items()}
                          if japanese else errors)
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
    own = _OWN_CODES.get(type(error).__name__)
    if own is not None:  # service/jsonio.py's own 400s, each with its code
        return problem(status, own, error.description or "")
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
    return problem(status, code, detail or "", errors, headers)


def _is_json_error(errors: dict) -> bool:
    return any("Invalid JSON" in m for msgs in errors.values() for m in msgs)


class LimitExceeded(InputError):
    """A request asking for more work than the service's limits allow (README: settings)."""
    code = "limit_exceeded"
    http_status = 413


def handle_input_error(error: InputError) -> Response:
    status = 404 if isinstance(error, UnknownGame) else getattr(error, "http_status", 422)
    errors = getattr(error, "errors", None) or ({error.path: [error.message]} if error.path else None)
    # An engine error may carry its own Japanese (Manteur's declaration errors do).
    return problem(status, error.code, error.message, errors,
                   detail_ja=getattr(error, "ja", "") or "")


# Refusals whose problem is the exception's own message under a fixed status and code.
PLAIN_PROBLEMS: dict[type[Exception], tuple[int, str]] = {
    SignatureError: (403, "state_signature_invalid"),
    RefereeKeyRequired: (403, "referee_key_required"),
    SeatTokenInvalid: (403, "seat_token_invalid"),
    HostTokenInvalid: (403, "host_token_invalid"),
    Superseded: (409, "state_superseded"),
    RolledBack: (409, "sequence_rolled_back"),
    MatchSuperseded: (409, "match_superseded"),
}


def handle_plain_problem(error: Exception) -> Response:
    # The most derived class listed: Flask picks this handler by the raised class's MRO.
    status, code = next(PLAIN_PROBLEMS[cls] for cls in type(error).__mro__ if cls in PLAIN_PROBLEMS)
    return problem(status, code, str(error))


def handle_sequence_unavailable(error: SequenceUnavailable) -> Response:
    log.warning("strict sequencing: store unreachable: %s", error)
    if error.outcome_unknown:
        # Never "not taken": the compare-and-set may have landed after the store's answer
        # timed out. The retry is what settles it, and it is safe (service/sequence.py).
        detail = ("strict sequencing's store did not answer in time: whether this action was "
                  "taken is unknown; posting the same action on the same state again is safe "
                  "(if it was taken, it is answered as the first time)")
    else:
        detail = "strict sequencing cannot reach its store; nothing was taken or changed"
    return problem(503, "sequence_unavailable", detail, headers={"Retry-After": "1"})


def handle_unexpected(error: Exception) -> Response:
    if isinstance(error, HTTPException):
        return handle_http_exception(error)
    log.exception("unexpected error answering %s %s", request.method, request.path)
    return problem(500, "internal_error", "an unexpected error occurred; it has been logged")


def register(app) -> None:
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(InputError, handle_input_error)
    for error_class in PLAIN_PROBLEMS:
        app.register_error_handler(error_class, handle_plain_problem)
    app.register_error_handler(SequenceUnavailable, handle_sequence_unavailable)
    app.register_error_handler(Exception, handle_unexpected)
