"""Operations: liveness (GET /healthz) and readiness (GET /readyz). The spec (openapi.json,
openapi.yaml), its docs page and the other pages the app serves are installed by
`install_pages`; /metrics by service/metrics.py."""
from __future__ import annotations

import flask
import swagger_ui_bundle
from flask import Flask, Response, request, send_from_directory

from engine import ENGINE_VERSION, registry

from .. import event_pages, examples, pages
from ..errors import request_lang
from ..jsonio import json_response
from .common import RefereeBlueprint


def build(ctx) -> RefereeBlueprint:
    """The ops blueprint: health and readiness."""
    schemas, ext = ctx.schemas, ctx.ext
    ops = RefereeBlueprint("ops", __name__, description="Health and readiness")

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
            "redis": _redis_in_use(ext.settings),
            "signing": "enabled" if ext.guard.signer.enabled else "disabled",
            "sealing": "enabled" if ext.guard.sealed else "disabled",
            "sequence": "strict" if ext.guard.sequencer is not None else "stateless",
            "games": [g.id for g in registry.all_games()],
        }
        if durability is not None:
            body["sequence_durability"] = durability
        return json_response(body, 200 if ready else 503)

    return ops


def _redis_in_use(settings) -> dict:
    """Which Redis the service uses, never its URL (it may hold a password)."""
    if settings.redis_embedded_dir:
        return {"kind": "embedded", "data_dir": settings.redis_embedded_dir}
    return {"kind": "configured" if settings.redis_url else "none"}


def install_pages(app: Flask, api) -> None:
    """The app's own routes beside the API's blueprints: the spec as YAML (openapi.json is
    flask-smorest's), its docs page (Swagger UI) and assets, the referee's table page and the
    index page. Not in the spec."""
    spec_yaml: list[str] = []  # rendered on first request: the spec is fixed once built

    @app.get("/openapi.yaml")
    def openapi_yaml():
        if not spec_yaml:
            spec_yaml.append(api.spec.to_yaml())
        return Response(spec_yaml[0], mimetype="application/yaml")

    @app.get("/docs/assets/<path:filename>")
    def swagger_assets(filename: str):
        return send_from_directory(swagger_ui_bundle.swagger_ui_path, filename)

    # Swagger UI started from a file, not flask-smorest's inline script, which the page's
    # Content-Security-Policy refuses (service/headers.py); /docs/ (with the slash) is the
    # same page as /docs.
    def swagger_ui():
        return pages.docs_page(api.spec.title, flask.url_for("api-docs.openapi_json"),
                               app.config["OPENAPI_SWAGGER_UI_URL"],
                               f"{request.script_root}/docs/init.js",
                               app.config["OPENAPI_SWAGGER_UI_CONFIG"])

    app.view_functions["api-docs.openapi_swagger_ui"] = swagger_ui
    app.add_url_rule("/docs/", endpoint="docs_slash", view_func=swagger_ui)

    @app.get("/docs/init.js")
    def swagger_init():
        return pages.docs_script()

    # The referee's table page (service/table/: plain HTML, CSS and ES modules, no build step), a
    # client of the public API like any other front end.
    @app.get("/table")
    def table_page():
        return pages.table_page()

    # Its service worker, which lets a reload open the page while the service is out of reach:
    # filled in with the cache's version; its scope is the page itself (<root>/table).
    @app.get("/table/sw.js")
    def table_service_worker():
        return pages.table_service_worker(request.script_root)

    @app.get("/table/<path:filename>")
    def table_assets(filename: str):
        return send_from_directory(pages.TABLE_DIR, filename, max_age=0)

    # The live events' pages: the director's (/director) and the public event page
    # (/events/<id>), and the director's QR codes (service/event_pages.py).
    event_pages.install(app)

    @app.get("/")
    def index():
        return pages.index_page(pages.chosen_language(request.args.get("lang"), request_lang()),
                                request.script_root)
