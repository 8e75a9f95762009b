"""The games and their rules pages: GET /v1/games, /v1/games/{game}/rules (markdown or HTML),
rules.html and rules.<lang>.html."""
from __future__ import annotations

from flask import Response, request

from engine import registry

from .. import examples, pages
from ..errors import request_lang
from ..jsonio import json_response
from .spec import GAME_PARAMETER

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


def build(ctx) -> None:
    """The games' routes, added to the v1 blueprint (`ctx.api`)."""
    api, schemas, ext = ctx.api, ctx.schemas, ctx.ext

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
