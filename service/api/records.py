"""Match records: check a whole record (POST /v1/records/check), write its score sheet (POST
/v1/records/sheet) and verify a deal's seed against its commitment (POST /v1/verify-deal)."""
from __future__ import annotations

from typing import Any

import orjson
from flask import Response, request

from engine import records, sheets
from engine.errors import InputError

from .. import examples, pages
from ..errors import LimitExceeded, request_lang
from ..jsonio import invalid_json, json_response, raw_json_body
from .common import check_player_ids, with_rule_url
from .spec import called_directly

# A score sheet's formats by media type (POST /v1/records/sheet): `?format=` names one, else
# Accept chooses; text/plain when neither does.
SHEET_MEDIA_TYPES = {media: fmt for fmt, media in sheets.MEDIA_TYPES.items()}
CONSISTENT_HEADER = "Card-Referee-Consistent"
DIGEST_HEADER = "Card-Referee-Digest"
SHEET_PARAMETERS = [
    {"name": "format", "in": "query", "required": False,
     "schema": {"type": "string", "enum": list(sheets.FORMATS)},
     "description": "text, csv or html; without it the Accept header chooses among text/plain, "
                    "text/csv and text/html (default text/plain)"},
    {"name": "lang", "in": "query", "required": False,
     "schema": {"type": "string", "enum": list(pages.LANGUAGES)},
     "description": "The sheet's language, over Accept-Language"}]
_SHEET_HEADERS = {
    CONSISTENT_HEADER: {"description": "`true` when the check found no discrepancy; `false`: "
                                       "the sheet stops where the check stopped",
                        "schema": {"type": "string", "enum": ["true", "false"]}},
    DIGEST_HEADER: {"description": "the record's digest (`sha256:` and 64 hex digits)",
                    "schema": {"type": "string"}}}


def build(ctx) -> None:
    """The records' routes, added to the v1 blueprint (`ctx.api`)."""
    api, schemas, ext = ctx.api, ctx.schemas, ctx.ext

    @api.route("/records/check", methods=["POST"])
    @api.response(200, schemas.record_check_response, example=examples.response("checkRecord"))
    @ctx.problems(400, 404, 413, 415, 422)
    @api.doc(operationId="checkRecord",
             summary="Replay a whole match record deal after deal; its totals, digest and "
                     "first discrepancy",
             requestBody={"required": True, "content": {"application/json": {
                 "schema": {"$ref": "#/components/schemas/MatchRecord"},
                 "example": examples.request("checkRecord")}}})
    @called_directly
    def check_record():
        # The same in every trust mode: a record carries no state and the answer issues none
        # (its next_match values are neither signed nor sealed), so there is nothing to guard.
        req = request._get_current_object()  # type: ignore[attr-defined]  # flask types the proxy as what it proxies
        lang = request_lang(req)
        report = records.check_record(record_in(ext, req), lang=lang)
        req.environ["cardref.game"] = report["game"]
        found = report["discrepancy"]
        if found is not None:
            req.environ["cardref.refusal"] = found["code"]
            if "refusal" in found:  # answered as every refusal is: with its rule's link
                with_rule_url(found["refusal"], lang)
        return json_response(report)

    @api.route("/verify-deal", methods=["POST"])
    @api.arguments(schemas.verify_deal_request, example=examples.request("verifyDeal"))
    @api.response(200, schemas.verify_deal_response, example=examples.response("verifyDeal"))
    @ctx.problems(400, 404, 413, 415, 422)
    @api.doc(operationId="verifyDeal",
             summary="Whether a revealed seed and salt make a deal's published commitment, "
                     "and the hands that seed deals")
    def verify_deal(body: dict):
        # The same in every trust mode: whoever holds the revealed seed can deal it offline
        # (engine/rng.py is public), so the hands it answers are no secret.
        request.environ["cardref.game"] = body["game"]
        check_player_ids(ext, body["players"], "players")
        salt = body.get("seed_salt")
        out = records.verify_deal(body["game"], body["players"], body.get("options"),
                                  body["seed"], salt.lower() if salt else None,
                                  body["seed_commitment"], body.get("match"),
                                  body.get("dealer"))
        return json_response(out)

    @api.route("/records/sheet", methods=["POST"])
    @ctx.problems(400, 404, 413, 415, 422)
    @api.doc(operationId="recordSheet",
             summary="A match record's score sheet: text, CSV or a printable HTML page (A4), "
                     "English or Japanese",
             description="The record is checked as `POST /v1/records/check` checks it, then "
                         "written as a score sheet (docs/score-sheets.md): deals as rows, seats "
                         "or teams as columns, the game's own scoring, the referee's warnings "
                         "and penalties marked, the totals, the tags and the digest. A record "
                         "with a discrepancy still answers 200: the sheet shows it up to the "
                         "discrepancy and says where the check stopped "
                         f"(`{CONSISTENT_HEADER}: false`).",
             parameters=SHEET_PARAMETERS,
             requestBody={"required": True, "content": {"application/json": {
                 "schema": {"$ref": "#/components/schemas/MatchRecord"},
                 "example": examples.request("recordSheet")}}},
             responses={"200": {
                 "description": "The score sheet",
                 "headers": _SHEET_HEADERS,
                 "content": {media: {"schema": {"type": "string"}} | (
                     {"example": examples.response("recordSheet")}
                     if media == "text/plain" else {})
                     for media in SHEET_MEDIA_TYPES}}})
    @called_directly
    def record_sheet():
        req = request._get_current_object()  # type: ignore[attr-defined]  # flask types the proxy as what it proxies
        fmt, lang = sheet_format(req), sheet_lang(req)
        record = record_in(ext, req)
        report = records.check_record(record, keep_steps=True, lang=lang)
        req.environ["cardref.game"] = report["game"]
        if report["discrepancy"] is not None:
            req.environ["cardref.refusal"] = report["discrepancy"]["code"]
        response = Response(sheets.render(record, report, fmt, lang),
                            mimetype=sheets.MEDIA_TYPES[fmt],
                            headers={"Content-Language": lang,
                                     CONSISTENT_HEADER: str(report["consistent"]).lower(),
                                     DIGEST_HEADER: report["digest"]})
        return keyed_on_accept(req, response)


def sheet_format(req) -> str:
    """A sheet's format (a match record's, an event's): `?format=` names one, else Accept
    chooses; text when neither does. Another `?format=` is 422 request_invalid."""
    asked = req.args.get("format")
    if asked is None:
        return SHEET_MEDIA_TYPES[req.accept_mimetypes.best_match(list(SHEET_MEDIA_TYPES),
                                                                 "text/plain")]
    if asked not in sheets.FORMATS:
        raise InputError(f"format must be one of {', '.join(sheets.FORMATS)}", "format",
                         code="request_invalid", errors={"format": [
                             f"Must be one of: {', '.join(sheets.FORMATS)}."]})
    return str(asked)


def sheet_lang(req) -> str:
    """A sheet's language: `?lang=`, over Accept-Language."""
    return pages.chosen_language(req.args.get("lang"), request_lang(req))


def keyed_on_accept(req, response: Response) -> Response:
    """A sheet whose format came from Accept (no `?format=`): caches must key on it."""
    if "format" not in req.args:
        response.vary.add("Accept")
    return response


def record_in(ext, req) -> Any:
    """The posted match record (raw JSON: the engine checks its shape and names the path of a
    fault), within the service's bounds (413 limit_exceeded beyond them) and player ids."""
    try:
        record = raw_json_body(req, required=True)
    except (orjson.JSONDecodeError, UnicodeDecodeError) as err:
        invalid_json(err)
    deals, actions = records.record_size(record)
    settings = ext.settings
    if deals > settings.max_record_deals:
        raise LimitExceeded(f"a record checked here has at most {settings.max_record_deals} "
                            f"deals (CARDREF_MAX_RECORD_DEALS), not {deals}", "deals")
    if actions > settings.max_record_actions:
        raise LimitExceeded(f"a record checked here has at most {settings.max_record_actions}"
                            f" actions in all (CARDREF_MAX_RECORD_ACTIONS), not {actions}",
                            "deals")
    players = record.get("players") if isinstance(record, dict) else None
    limit = settings.max_player_id_length
    for i, pid in enumerate(players if isinstance(players, list) else ()):
        if isinstance(pid, str) and len(pid) > limit:
            raise records.InvalidRecord(f"a player id has at most {limit} characters "
                                        "(CARDREF_MAX_PLAYER_ID_LENGTH)", f"players[{i}]")
    return record
