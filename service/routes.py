"""The endpoints (README "Endpoints"). Each view: envelope checked by marshmallow (flask-smorest),
state verified and decoded by the engine, answer built as a prebuilt orjson Response (the
response schema documents it; flask-smorest passes a Response through without re-dumping)."""
from __future__ import annotations

import hashlib

import orjson
from flask import Response, request
from flask_smorest import Blueprint

from engine import ENGINE_VERSION, adjudicate, records, registry, sheets
from engine.adjudicate import Applied
from engine.referee import REFEREE

from .cache import cache_key
from engine.errors import InputError, shown
from engine.game import InvalidDeal

from . import examples, pages
from .errors import LimitExceeded, request_lang
from .trust import Meta, Posted
from .jsonio import OrjsonParser, invalid_json, json_response, load_body, raw_json_body


class RefereeBlueprint(Blueprint):
    """flask-smorest's Blueprint, reading request bodies with orjson."""

    ARGUMENTS_PARSER = OrjsonParser()

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


# Views get the app's guard and cache (`ext`) by closure, not through `current_app`: each
# proxy lookup costs a few µs on every request.

SEAT_TOKEN_HEADER = "X-Seat-Token"
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
                        "schema": {"type": "string", "maxLength": 512}}
HOST_TOKEN_HEADER = "X-Host-Token"
# Sealing on: a deal from a match's next_match answers every seat's token, so it is the host's
# (the match's host token, answered with each of its deals) or the referee's (the key).
HOST_TOKEN_PARAMETER = {"in": "header", "name": HOST_TOKEN_HEADER, "required": False,
                        "description": "sealing on: the match's `host_token`, answered with "
                                       "each of its deals; needed to deal its next deal from "
                                       "its `next_match` without the referee key; ignored "
                                       "when states are not sealed",
                        "schema": {"type": "string", "maxLength": 512}}


def _state_in(ext, posted, seat: str | None = None) -> Posted:
    """The posted state opened by the guard (service/trust.py): verified or unsealed, its
    binding read, the seat's token checked; with strict sequencing, the latest of its game."""
    guard = ext.guard
    got = guard.incoming(posted)
    # A player not seated needs no token: the engine answers 422 player_unknown, as for the
    # id "referee" asked for without the referee key (seat lists are no secret).
    if guard.sealed and seat is not None and seat in (got.state.get("players") or ()):
        guard.require_seat(got.meta, seat, request.headers.get(SEAT_TOKEN_HEADER))
    return got


def _check_game(named, state) -> None:
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


def _referee_seen(ext, player) -> bool:
    """Whether the caller asks as the table's referee ("referee", with the referee key): it
    then sees everything in every trust mode. Without the key that id is no seat at all."""
    return player == REFEREE and ext.guard.is_referee(request.headers.get("Authorization"))


def action_digest(move: int, action: dict) -> str:
    """Names an accepted action and the move it was applied to (strict sequencing's record):
    the same action on the same state is the same move, answered again as the first time."""
    return hashlib.sha256(orjson.dumps([move, action], option=orjson.OPT_SORT_KEYS)).hexdigest()[:32]


def _check_latest(ext, got: Posted) -> None:
    if ext.guard.sequencer is not None and got.meta is not None:
        ext.guard.sequencer.check(got.meta.game_id, got.meta.move)


def _guarded_deal(ext, body: dict, game: str, players, identity: object
                  ) -> tuple[Meta | None, object, str | None, str | None, tuple | None]:
    """Who may shape this deal, its binding, its seed and seed salt (None: the engine draws
    them) and the next_match it uses (claimed by _claim_match once the engine dealt it). A deck,
    hands, a chosen seed, match values this service did not sign or seal, or a dealer other
    than the one a signed next_match names make it a referee act (the referee key, when states
    are signed or sealed); the previous deal's signed next_match is anyone's to pass on, within
    its lineage: the same game and seats, the next deal (once, under strict sequencing).
    `identity`: the whole request, which a match's next deal is derived from (the same
    request again gets the same deal: game id, seed and salt)."""
    guard = ext.guard
    match, lineage = guard.incoming_match(body.get("match"))
    shaped = any(body.get(k) is not None
                 for k in ("deck", "hands", "table", "seed", "seed_salt")) or \
        (match is not None and lineage is None) or \
        (lineage is not None and body.get("dealer") is not None)
    authorization = request.headers.get("Authorization")
    if shaped:
        guard.require_referee(authorization)
    provenance = "referee" if shaped else "server"
    if not guard.enabled:
        return None, match, body.get("seed"), body.get("seed_salt"), None
    referee = shaped or guard.is_referee(authorization)
    if lineage is None:  # a match begins
        return guard.new_meta(provenance, match_provenance="referee" if referee else "server"), \
            match, body.get("seed"), body.get("seed_salt"), None
    if guard.sealed and not referee:
        # The answer carries every seat's token: only the match's host (or the referee) may
        # deal it. The next_match itself is no secret (it reaches the seat that ended the deal).
        guard.require_host(lineage.match_id, request.headers.get(HOST_TOKEN_HEADER))
    if lineage.game != game or list(lineage.players) != list(players):
        raise InvalidDeal(f"this next_match continues a match of {lineage.game} between "
                          f"{lineage.players} (in seat order); deal that game and those seats, "
                          "or have a referee start a match with its values", "match")
    deal_number = lineage.deal + 1
    request_digest = hashlib.sha256(orjson.dumps(identity, option=orjson.OPT_SORT_KEYS)
                                    ).hexdigest()
    parts = (lineage.match_id, str(deal_number), request_digest)
    seed = body.get("seed") or guard.derive("seed", *parts)[:32]
    salt = body.get("seed_salt") or guard.derive("salt", *parts)[:32]  # 128 bits of hex
    meta = guard.new_meta(provenance, lineage.match_id, deal_number,
                          "referee" if referee and lineage.provenance == "referee" else "server",
                          game_id=guard.derive("game", *parts)[:16])
    return meta, match, seed, salt, (lineage.match_id, deal_number, request_digest)


def _claim_match(ext, claim: tuple | None) -> None:
    """Under strict sequencing a next_match starts one deal: recorded once the engine has
    dealt it (a request the engine refuses, e.g. a typo in its options, uses nothing)."""
    if claim is not None and ext.guard.sequencer is not None:
        ext.guard.sequencer.use_match(*claim)


def _dealt(ext, out: dict, meta: Meta | None, players) -> dict:
    guard = ext.guard
    if guard.sequencer is not None and meta is not None:
        guard.sequencer.start(meta.game_id)
    out["state"] = guard.outgoing(out["state"], meta)
    if meta is not None:
        out["game_id"] = meta.game_id
        out["lineage"] = meta.lineage()
    tokens = guard.seat_tokens(meta, players)
    if tokens is not None:
        out["seat_tokens"] = tokens
        out["host_token"] = guard.host_token(meta)
    return out


def _check_player_ids(ext, players: list, path: str) -> None:
    """Ids are echoed in every answer: a huge one would make states too big to post back."""
    limit = ext.settings.max_player_id_length
    for i, pid in enumerate(players):
        if len(pid) > limit:
            raise InvalidDeal(f"a player id has at most {limit} characters "
                              "(CARDREF_MAX_PLAYER_ID_LENGTH)", f"{path}[{i}]")


def _cached_json(ext, namespace: str, identity: bytes, compute) -> bytes:
    """Bytes of the answer, from the cache when present (only for work that costs more than a
    Redis round trip and repeats: enumerations and lookups)."""
    cache = ext.cache
    key = cache_key(namespace, hashlib.sha256(identity).hexdigest())
    hit = cache.get(key)
    if hit is not None:
        return hit
    body = orjson.dumps(compute())
    cache.set(key, body)
    return body


def _problem_docs(blp: Blueprint, schemas, *codes: int):
    """Document problem+json answers. A plain doc entry, not alt_response: each alt_response
    adds a wrapper layer to every request (measured ~5 µs each on the hot path)."""
    ref = {"$ref": "#/components/schemas/Problem"}
    return blp.doc(responses={
        str(code): {"description": PROBLEM_RESPONSES[code],
                    "content": {"application/problem+json": {"schema": ref}}}
        for code in codes})


_RULES_LANGUAGE_DOC = (
    "In the negotiated language: with `Accept-Language: ja` the Japanese page "
    "(`docs/rules/<game>.ja.md`, a rule-for-rule translation with the same numbers) where the "
    "game has one, else the English page. `Content-Language` names the language served "
    "(`ja` or `en`); the ETag differs per language. `?lang=ja` (or `en`) chooses the language "
    "in the URL itself, for a link to share. In the HTML every numbered rule has its number as "
    "its id: a refusal's `rule` `daifugo D9` is `/v1/games/daifugo/rules.html#D9`.")
_RULES_LANG_PARAMETER = [{"name": "lang", "in": "query", "required": False,
                          "schema": {"type": "string", "enum": list(pages.LANGUAGES)},
                          "description": "The page's language, over Accept-Language"}]


# A score sheet's formats by media type (POST /v1/records/sheet): `?format=` names one, else
# Accept chooses; text/plain when neither does.
SHEET_MEDIA_TYPES = {media: fmt for fmt, media in sheets.MEDIA_TYPES.items()}
CONSISTENT_HEADER = "Card-Referee-Consistent"
DIGEST_HEADER = "Card-Referee-Digest"
_SHEET_PARAMETERS = [
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


def called_directly(view):
    """Mark a view that reads its own body and returns a Response: flask-smorest's decorators
    above it only document it (response, doc), so the app calls it without their wrapper
    layers (each resolves `current_app` and unpacks the answer; ~8 µs of /v1/validate).
    `functools.wraps` carries the mark up to the outermost wrapper (service/app.py swaps it)."""
    view.direct_view = view
    return view


def build_blueprints(schemas, ext) -> list[Blueprint]:
    api = RefereeBlueprint("v1", __name__, url_prefix="/v1", description="Adjudication")
    ops = RefereeBlueprint("ops", __name__, description="Health and readiness")
    problems = lambda *codes: _problem_docs(api, schemas, *codes)  # noqa: E731

    @api.route("/games", methods=["GET"])
    @api.response(200, schemas.games_response, example=examples.response("listGames"))
    @api.doc(operationId="listGames", summary="Every game: names, player counts, presets, options, actions")
    def list_games():
        # Descriptions in the negotiated language; the app adds Content-Language and
        # Vary: Accept-Language, and its ETag hashes the body with Content-Language.
        lang = request_lang()
        games = []
        for g in registry.all_games():
            described = g.describe(lang)
            # Linked by URL: the service serves each rules page (markdown; .html rendered).
            if g.rules_doc:
                described["rules"] = f"{request.script_root}/v1/games/{g.id}/rules"
            games.append(described)
        return json_response({"games": games})

    @api.route("/games/<string:game>/rules", methods=["GET"], parameters=[GAME_PARAMETER])
    @api.doc(operationId="gameRules", summary="The game's rules, numbered as refusals cite them "
             "(text/markdown; text/html when preferred by Accept)",
             description=_RULES_LANGUAGE_DOC, parameters=_RULES_LANG_PARAMETER,
             responses={"200": {"description": "The rules page",
                                "content": {"text/markdown": {"schema": {"type": "string"}},
                                            "text/html": {"schema": {"type": "string"}}}},
                        "404": {"description": "Unknown game (`game_unknown`)",
                                "content": {"application/problem+json": {
                                    "schema": {"$ref": "#/components/schemas/Problem"}}}}})
    def game_rules(game: str):
        best = request.accept_mimetypes.best_match(("text/markdown", "text/html"))
        html = best == "text/html" and request.accept_mimetypes["text/html"] > \
            request.accept_mimetypes["text/markdown"]
        response = rules_page(ext, game, html=html)
        response.vary.add("Accept")  # markdown or HTML by Accept: caches must key on it
        return response

    @api.route("/games/<string:game>/rules.html", methods=["GET"], parameters=[GAME_PARAMETER])
    @api.doc(operationId="gameRulesHtml", summary="The game's rules rendered as HTML",
             description=_RULES_LANGUAGE_DOC, parameters=_RULES_LANG_PARAMETER,
             responses={"200": {"description": "The rules page",
                                "content": {"text/html": {"schema": {"type": "string"}}}},
                        "404": {"description": "Unknown game (`game_unknown`)",
                                "content": {"application/problem+json": {
                                    "schema": {"$ref": "#/components/schemas/Problem"}}}}})
    def game_rules_html(game: str):
        return rules_page(ext, game, html=True)

    @api.route("/games/<string:game>/rules.<string:lang>.html", methods=["GET"],
               parameters=[GAME_PARAMETER])
    @api.doc(operationId="gameRulesHtmlInLanguage",
             summary="The game's rules as HTML in one language (`en`, `ja`): a URL to share",
             parameters=[{"name": "lang", "in": "path", "required": True,
                          "schema": {"type": "string", "enum": list(pages.LANGUAGES)}}],
             responses={"200": {"description": "The rules page",
                                "content": {"text/html": {"schema": {"type": "string"}}}},
                        "404": {"description": "Unknown game (`game_unknown`)",
                                "content": {"application/problem+json": {
                                    "schema": {"$ref": "#/components/schemas/Problem"}}}},
                        "422": {"description": "Unknown language (`request_invalid`)",
                                "content": {"application/problem+json": {
                                    "schema": {"$ref": "#/components/schemas/Problem"}}}}})
    def game_rules_html_in_language(game: str, lang: str):
        return rules_page(ext, game, html=True, lang=lang)

    @api.route("/games/<string:game>/deal", methods=["POST"],
               parameters=[GAME_PARAMETER, HOST_TOKEN_PARAMETER])
    @api.arguments(schemas.deal_request, example=examples.request("deal"))
    @api.response(201, schemas.deal_response, example=examples.response("deal"))
    @problems(400, 403, 404, 413, 415, 422)
    @api.doc(operationId="deal", summary="Deal a new game (seeded shuffle or an explicit deck)",
             # each game's own options and match (service/schemas.py deal_components)
             requestBody={"content": {"application/json": {
                 "schema": {"$ref": "#/components/schemas/DealRequest"}}}})
    def deal(body: dict, game: str):
        request.environ["cardref.game"] = game
        _check_player_ids(ext, body["players"], "players")
        meta, match, seed, salt, claim = _guarded_deal(ext, body, game, body["players"],
                                                       [game, body])
        out = adjudicate.deal(game, body["players"], body.get("options"), seed,
                              body.get("dealer"), match, body.get("deck"), body.get("hands"),
                              public=ext.guard.sealed, table=body.get("table"),
                              seed_salt=salt)
        _claim_match(ext, claim)
        return json_response(_dealt(ext, out, meta, body["players"]), 201)

    def _validate(req, body: dict):
        environ = req.environ
        action = body["action"]
        actor = action.get("player") if isinstance(action, dict) else None
        guard = ext.guard
        got = guard.incoming(body["state"])
        if "game" in body:
            _check_game(body["game"], got.state)
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
        _check_latest(ext, got)
        environ["cardref.refusal"] = result.refusal.code
        # Refused: the state exactly as posted (signature included), unchanged.
        return json_response({"valid": False, "error": refusal_json(result.refusal, request_lang()),
                              "state": body["state"]})

    # The hot path: the body is checked by the same marshmallow schema, read by load_body
    # rather than webargs (documented by hand to the same effect).
    # Two named examples, an accepted action and a refused one, the request's and the answer's
    # under the same names.
    def validate_examples(side: str, op: str) -> dict:
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

    def validate_body(op: str) -> dict:
        return {"required": True, "content": {"application/json": {
            "schema": schemas.validate_request, "examples": validate_examples("request", op)}}}

    @api.route("/validate", methods=["POST"], parameters=[SEAT_TOKEN_PARAMETER])
    @problems(400, 403, 404, 413, 415, 422)
    @api.doc(operationId="validateAction", requestBody=validate_body("validateAction"),
             responses=validate_answer("validateAction"),
             summary="Adjudicate one action: valid with the next state, or refused with the rule broken")
    @called_directly
    def validate():
        req = request._get_current_object()  # one proxy lookup, not one per attribute
        return _validate(req, load_body(schemas.validate_request, req))

    @api.route("/legal-actions", methods=["POST"], parameters=[SEAT_TOKEN_PARAMETER])
    @api.arguments(schemas.legal_actions_request, example=examples.request("legalActions"))
    @api.response(200, schemas.legal_actions_response, example=examples.response("legalActions"))
    @problems(400, 403, 404, 413, 415, 422)
    @api.doc(operationId="legalActions", summary="Every legal action of a player now")
    def legal_actions(body: dict):
        player, types = body["player"], body.get("types")
        referee_seen = _referee_seen(ext, player)
        got = _state_in(ext, body["state"], None if referee_seen else player)
        _check_game(body.get("game"), got.state)
        _check_latest(ext, got)
        state = got.state
        # The state is checked before anything else is made of it: a hand-edited one (say a
        # field nested deeper than orjson writes, for the cache key) is a 422, never a 500.
        game, decoded = adjudicate.load_state(state, got.trusted)

        def compute():
            actions = adjudicate.legal_actions_of(game, decoded, state, player, types,
                                                  referee_seen)
            # Each names its game: generated clients tell apart the games' same-named actions
            # (`play` in four games) by it (the spec's `Action`).
            return {"actions": [{**a, "game": game.id} for a in actions], "count": len(actions)}
        if not game.legal_actions_cacheable:
            return json_response(compute())
        # the referee's list is another answer than any seat's (a seat "referee" cannot exist)
        identity = orjson.dumps([state, player, types, *(["referee"] if referee_seen else [])],
                                option=orjson.OPT_SORT_KEYS)
        return Response(_cached_json(ext, "legal", identity, compute), mimetype="application/json")

    @api.route("/view", methods=["POST"], parameters=[SEAT_TOKEN_PARAMETER])
    @api.arguments(schemas.view_request, example=examples.request("view"))
    @api.response(200, schemas.view_response, example=examples.response("view"))
    @problems(400, 403, 404, 413, 415, 422)
    @api.doc(operationId="view", summary="The state as one player (or a spectator: null) may see it")
    def view(body: dict):
        referee_seen = _referee_seen(ext, body["player"])
        got = _state_in(ext, body["state"], None if referee_seen else body["player"])
        _check_game(body.get("game"), got.state)
        _check_latest(ext, got)
        out = {"view": adjudicate.view(got.state, body["player"], got.trusted, referee_seen)}
        if got.meta is not None:  # the view shows the match's totals: say whose match it is
            out["lineage"] = got.meta.lineage()
        return json_response(out)

    @api.route("/replay", methods=["POST"], parameters=[HOST_TOKEN_PARAMETER])
    @api.arguments(schemas.replay_request, example=examples.request("replay"))
    @api.response(200, schemas.replay_response, example=examples.response("replay"))
    @problems(400, 403, 404, 413, 415, 422)
    @api.doc(operationId="replay",
             summary="Deal, then apply a list of actions; stops at the first refused one")
    def replay(body: dict):
        deal = dict(body["deal"])
        deal["game_id"] = deal.pop("game")
        request.environ["cardref.game"] = deal["game_id"]
        _check_player_ids(ext, deal["players"], "deal.players")
        limit = ext.settings.max_replay_actions
        if len(body["actions"]) > limit:
            raise LimitExceeded(f"a replay takes at most {limit} actions "
                                f"(CARDREF_MAX_REPLAY_ACTIONS), not {len(body['actions'])}",
                                "actions")
        meta, deal["match"], deal["seed"], deal["seed_salt"], claim = _guarded_deal(
            ext, deal, deal["game_id"], deal["players"], [body["deal"], body["actions"]])
        guard = ext.guard
        if guard.enabled:
            # The actions' types only: a replay of a physical deal (hands) needs the referee
            # key as a deal the caller shapes, so its named draws are the referee's already.
            shown = {"game": deal["game_id"]}
            for action in body["actions"]:
                if adjudicate.is_referee_act(shown, action):
                    guard.require_referee(request.headers.get("Authorization"),
                                          f"a replay with the action {action.get('type')!r}")
        out = adjudicate.replay(deal, body["actions"], public=guard.sealed)
        _claim_match(ext, claim)
        out["initial_state"] = guard.outgoing(out["initial_state"], meta)
        final = None if meta is None else meta._replace(move=len(out["steps"]))
        if guard.sequencer is not None and meta is not None:
            guard.sequencer.start(meta.game_id, final.move)
        out["state"] = guard.outgoing(out["state"], final)
        out["next_match"] = guard.outgoing_match(
            out["next_match"], final, {"game": deal["game_id"], "players": deal["players"]})
        if meta is not None:
            out["lineage"] = meta.lineage()
        tokens = guard.seat_tokens(meta, deal["players"])
        if tokens is not None:
            out["seat_tokens"] = tokens
            out["host_token"] = guard.host_token(meta)
        if out["stopped"] is not None:
            request.environ["cardref.refusal"] = out["stopped"]["error"].code
            out["stopped"]["error"] = refusal_json(out["stopped"]["error"], request_lang())
        return json_response(out)

    @api.route("/records/check", methods=["POST"])
    @api.response(200, schemas.record_check_response, example=examples.response("checkRecord"))
    @problems(400, 404, 413, 415, 422)
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
        req = request._get_current_object()
        lang = request_lang(req)
        report = records.check_record(_record_in(ext, req), lang=lang)
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
    @problems(400, 404, 413, 415, 422)
    @api.doc(operationId="verifyDeal",
             summary="Whether a revealed seed and salt make a deal's published commitment, "
                     "and the hands that seed deals")
    def verify_deal(body: dict):
        # The same in every trust mode: whoever holds the revealed seed can deal it offline
        # (engine/rng.py is public), so the hands it answers are no secret.
        request.environ["cardref.game"] = body["game"]
        _check_player_ids(ext, body["players"], "players")
        salt = body.get("seed_salt")
        out = records.verify_deal(body["game"], body["players"], body.get("options"),
                                  body["seed"], salt.lower() if salt else None,
                                  body["seed_commitment"], body.get("match"),
                                  body.get("dealer"))
        return json_response(out)

    @api.route("/records/sheet", methods=["POST"])
    @problems(400, 404, 413, 415, 422)
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
             parameters=_SHEET_PARAMETERS,
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
        req = request._get_current_object()
        asked = req.args.get("format")
        if asked is None:
            best = req.accept_mimetypes.best_match(list(SHEET_MEDIA_TYPES), "text/plain")
            fmt = SHEET_MEDIA_TYPES[best]
        elif asked in sheets.FORMATS:
            fmt = asked
        else:
            raise InputError(f"format must be one of {', '.join(sheets.FORMATS)}", "format",
                             code="request_invalid", errors={"format": [
                                 f"Must be one of: {', '.join(sheets.FORMATS)}."]})
        lang = pages.chosen_language(req.args.get("lang"), request_lang(req))
        record = _record_in(ext, req)
        report = records.check_record(record, keep_steps=True, lang=lang)
        req.environ["cardref.game"] = report["game"]
        if report["discrepancy"] is not None:
            req.environ["cardref.refusal"] = report["discrepancy"]["code"]
        response = Response(sheets.render(record, report, fmt, lang),
                            mimetype=sheets.MEDIA_TYPES[fmt],
                            headers={"Content-Language": lang,
                                     CONSISTENT_HEADER: str(report["consistent"]).lower(),
                                     DIGEST_HEADER: report["digest"]})
        if asked is None:  # the format came from Accept: caches must key on it
            response.vary.add("Accept")
        return response

    # The unversioned alias of /v1/validate that front ends were promised.
    alias = RefereeBlueprint("compat", __name__, description="Unversioned aliases")

    @alias.route("/validate", methods=["POST"], parameters=[SEAT_TOKEN_PARAMETER])
    @_problem_docs(alias, schemas, 400, 403, 404, 413, 415, 422)
    @alias.doc(operationId="validateActionAlias", requestBody=validate_body("validateActionAlias"),
               responses=validate_answer("validateActionAlias"),
               summary="Same as POST /v1/validate")
    @called_directly
    def validate_alias():
        req = request._get_current_object()
        return _validate(req, load_body(schemas.validate_request, req))

    @ops.route("/healthz", methods=["GET"])
    @ops.response(200, schemas.health, example=examples.response("healthz"))
    @ops.doc(operationId="healthz", summary="Liveness: the process answers")
    def healthz():
        return json_response({"status": "ok"})

    @ops.route("/readyz", methods=["GET"])
    @ops.response(200, schemas.ready, example=examples.response("readyz"))
    @ops.doc(operationId="readyz", summary="Readiness: cache backend, Redis, signing; 503 when "
             "not ready (strict sequencing without its Redis)",
             responses={"503": {"description": "Not ready: do not route requests here"}})
    def readyz():
        cache = ext.cache.status()
        # Degraded (cache on Redis, Redis down) still answers every request right: 200.
        # Strict sequencing cannot take an action without its Redis: not ready, 503.
        sequencer = ext.guard.sequencer
        ready = sequencer is None or sequencer.ping()
        durability = None
        if sequencer is not None:
            # What a Redis restart keeps of the move records (docs/security.md): without AOF a
            # restart rolls games back. CARDREF_SEQUENCE_REQUIRE_AOF makes it a condition.
            durability = sequencer.durability() if ready else "unknown"
            if ext.settings.sequence_require_aof and durability != "aof":
                ready = False
        body = {
            "status": ("ready" if cache["ready"] else "degraded") if ready else "not_ready",
            "engine_version": ENGINE_VERSION,
            "cache": cache,
            "signing": "enabled" if ext.guard.signer.enabled else "disabled",
            "sealing": "enabled" if ext.guard.sealed else "disabled",
            "sequence": "strict" if ext.guard.sequencer is not None else "stateless",
            "games": [g.id for g in registry.all_games()],
        }
        if durability is not None:
            body["sequence_durability"] = durability
        return json_response(body, 200 if ready else 503)

    return [api, alias, ops, lookup_blueprint(schemas, ext)]


def _record_in(ext, req) -> object:
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


def rules_page(ext, game_id: str, html: bool, lang: str | None = None) -> Response:
    """The rules page in `lang` (the path's or `?lang=`), else the negotiated language
    (Accept-Language); English when the game has no page in it. Content-Language names the
    language served; the app adds Vary: Accept-Language and an ETag over body and
    Content-Language, so each language has its own."""
    from engine.adjudicate import UnknownGame

    if registry.get(game_id) is None:
        raise UnknownGame(f"no game {game_id!r} is known here", "game")
    lang = pages.chosen_language(lang or request.args.get("lang"), request_lang())
    try:
        text, served = pages.page(pages.rules_dir(ext.settings.rules_dir), game_id,
                                        lang, html, request.script_root)
    except LookupError:
        raise UnknownGame(f"no game {game_id!r} is known here", "game") from None
    except OSError:
        raise UnknownGame(f"the rules of {game_id!r} are not installed here", "game") from None
    mimetype = "text/html" if html else "text/markdown"
    return Response(text, mimetype=mimetype, headers={"Content-Language": served})


def lookup_blueprint(schemas, ext) -> Blueprint:
    """One route per lookup that a game declares: POST /v1/games/{game}/{lookup}."""
    from .schemas import schema_from_fields

    blp = RefereeBlueprint("lookups", __name__, url_prefix="/v1/games", description="Game lookups (cached)")
    for game in registry.all_games():
        for lk in game.lookups:
            stem = "".join(part.capitalize() for part in f"{game.id}-{lk.name}".replace("_", "-").split("-"))
            request_schema = schema_from_fields(f"{stem}Request", dict(lk.request))()
            response_schema = schema_from_fields(f"{stem}Response", dict(lk.response))()
            blp.add_url_rule(
                f"/{game.id}/{lk.name}", endpoint=f"{game.id}_{lk.name}",
                view_func=_lookup_view(blp, schemas, ext, game.id, lk, request_schema,
                                       response_schema),
                methods=["POST"])
    return blp


def _lookup_view(blp: Blueprint, schemas, ext, game_id: str, lk, request_schema, response_schema):
    def view(body: dict):
        limit = ext.settings.max_lookup_items
        for name, value in body.items():
            if isinstance(value, list) and len(value) > limit:
                raise LimitExceeded(f"a lookup takes at most {limit} items in a list "
                                    "(CARDREF_MAX_LOOKUP_ITEMS)", f"body.{name}")
        lookup, parsed = adjudicate.parse_lookup(game_id, lk.name, body)
        identity = orjson.dumps([game_id, lk.name, parsed], option=orjson.OPT_SORT_KEYS)
        if lookup.cacheable:
            payload = _cached_json(ext, f"lookup:{game_id}:{lk.name}", identity,
                                   lambda: lookup.handler(parsed))
        else:
            payload = orjson.dumps(lookup.handler(parsed))
        return Response(payload, mimetype="application/json")

    view.__name__ = f"lookup_{game_id}_{lk.name}".replace("-", "_")
    op = "".join(p.capitalize() if i else p for i, p in enumerate(
        f"lookup-{game_id}-{lk.name}".replace("_", "-").split("-")))
    view = blp.doc(operationId=op, summary=lk.summary)(view)
    view = _problem_docs(blp, schemas, 400, 404, 413, 415, 422)(view)
    view = blp.response(200, response_schema, example=examples.response(op))(view)
    view = blp.arguments(request_schema, example=examples.request(op))(view)
    return view
