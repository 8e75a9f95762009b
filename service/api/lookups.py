"""Game lookups: one route per lookup a game declares (POST /v1/games/{game}/{lookup}), its
request and answer envelopes built from the game's declared fields; answers cached where the
lookup says so."""
from __future__ import annotations

import orjson
from flask import Response
from flask_smorest import Blueprint

from engine import adjudicate, registry

from .. import examples
from ..errors import LimitExceeded, request_lang
from ..schemas import schema_from_fields
from .common import RefereeBlueprint, cached_json
from .spec import problem_docs


def build(ctx) -> Blueprint:
    """One route per lookup that a game declares: POST /v1/games/{game}/{lookup}."""
    schemas, ext = ctx.schemas, ctx.ext

    blp = RefereeBlueprint("lookups", __name__, url_prefix="/v1/games",
                           description="Game lookups (cached)")
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
        lang = request_lang()  # the answer's explanations follow Accept-Language
        identity = orjson.dumps([game_id, lk.name, parsed, lang], option=orjson.OPT_SORT_KEYS)
        if lookup.cacheable:
            payload = cached_json(ext, f"lookup:{game_id}:{lk.name}", identity,
                                   lambda: lookup.handler(parsed, lang))
        else:
            payload = orjson.dumps(lookup.handler(parsed, lang))
        return Response(payload, mimetype="application/json")

    view.__name__ = f"lookup_{game_id}_{lk.name}".replace("-", "_")
    op = "".join(p.capitalize() if i else p for i, p in enumerate(
        f"lookup-{game_id}-{lk.name}".replace("_", "-").split("-")))
    view = blp.doc(operationId=op, summary=lk.summary)(view)
    view = problem_docs(blp, schemas, 400, 404, 413, 415, 422)(view)
    view = blp.response(200, response_schema, example=examples.response(op))(view)
    view = blp.arguments(request_schema, example=examples.request(op))(view)
    return view
