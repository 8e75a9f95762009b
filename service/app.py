"""The app factory. Everything a request needs is built here once per process."""
from __future__ import annotations

import logging
from http import HTTPStatus
from types import SimpleNamespace

import swagger_ui_bundle
from flask import Flask, Response, send_from_directory
from flask_smorest import Api

from engine import registry

from . import errors, metrics
from .cache import Cache
from .config import Settings
from .errors import PROBLEM_MIME
from .jsonio import OrjsonProvider
from .routes import build_blueprints
from .schemas import ProblemSchema, Schemas, state_components, state_field_ref
from .sequence import Sequencer
from .trust import Guard

API_DESCRIPTION = """\
Card Referee adjudicates card games statelessly: post a game state and a proposed action, get
back whether it is legal (and which rule it breaks if not), the next state, who may act next and
the score deltas. Every state the service returns is the whole game; nothing is kept between
requests. Errors are `application/problem+json` with a stable `code`; an illegal action is not
an error (200, `valid: false`). Rules, numbered as refusals cite them: `docs/rules/<game>.md`.
"""


class RefereeApi(Api):
    """flask-smorest's Api with our problem+json errors instead of its own error payload,
    documented as such (its default error responses point at our Problem schema)."""

    ERROR_SCHEMA = ProblemSchema
    DEFAULT_RESPONSE_CONTENT_TYPE = "application/json"

    def _register_responses(self):
        from flask_smorest.utils import prepare_response

        for code in (400, 403, 404, 413, 415, 422, 500):
            response = {"description": HTTPStatus(code).phrase, "schema": ProblemSchema}
            prepare_response(response, self.spec, PROBLEM_MIME)
            self.spec.components.response(HTTPStatus(code).name, response, lazy=True)
        response = {"description": "Error (application/problem+json with a stable `code`)",
                    "schema": ProblemSchema}
        prepare_response(response, self.spec, PROBLEM_MIME)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)

    def _register_pagination_header(self):
        """No route paginates: no PaginationMetadata schema in the spec (issue #14: no unused
        schemas)."""

    def handle_http_exception(self, error):
        return errors.handle_http_exception(error)


class RefereeFlask(Flask):
    """Flask, remembering which views are coroutines: flask-smorest asks `ensure_sync` at every
    decorator layer of every request, and each answer costs an `inspect` call (measured ~9 per
    /v1/validate request, ~35 µs)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._sync_views: dict = {}

    def ensure_sync(self, func):
        try:
            return self._sync_views[func]
        except KeyError:
            synced = self._sync_views[func] = super().ensure_sync(func)
            return synced
        except TypeError:  # unhashable callable: ask every time
            return super().ensure_sync(func)


def create_app(settings: Settings | None = None) -> Flask:
    settings = settings or Settings.from_env()
    logging.basicConfig(level=settings.log_level)
    app = RefereeFlask("card_referee")
    app.json = OrjsonProvider(app)
    app.config.update(
        MAX_CONTENT_LENGTH=settings.max_body_bytes,
        API_TITLE="Card Referee",
        API_VERSION="1.0.0",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="/docs",
        OPENAPI_SWAGGER_UI_URL="/docs/assets/",  # served from the swagger-ui-bundle package, no CDN
        API_SPEC_OPTIONS={"info": {"description": API_DESCRIPTION}},
    )
    games = registry.all_games()
    app.extensions["card_referee"] = SimpleNamespace(
        settings=settings,
        guard=Guard(settings.state_secrets, settings.seal_keys, settings.referee_keys,
                    Sequencer(settings.redis_url, settings.sequence_ttl_seconds,
                              settings.redis_timeout_seconds)
                    if settings.sequence == "strict" else None),
        cache=Cache(settings.cache_size, settings.redis_url, settings.cache_ttl_seconds,
                    settings.redis_timeout_seconds, settings.redis_retry_seconds),
    )
    api = RefereeApi(app)
    api.ma_plugin.converter.add_attribute_function(state_field_ref)
    for name, component in state_components(games).items():
        api.spec.components.schema(name, component=component)
    schemas = Schemas(games)
    for blp in build_blueprints(schemas, app.extensions["card_referee"]):
        api.register_blueprint(blp)
    errors.register(app)
    app.extensions["card_referee"].api = api

    spec_yaml: list[str] = []  # rendered on first request: the spec is fixed once built

    @app.get("/openapi.yaml")
    def openapi_yaml():
        if not spec_yaml:
            spec_yaml.append(api.spec.to_yaml())
        return Response(spec_yaml[0], mimetype="application/yaml")

    @app.get("/docs/assets/<path:filename>")
    def swagger_assets(filename: str):
        return send_from_directory(swagger_ui_bundle.swagger_ui_path, filename)

    if settings.metrics:
        metrics.install(app)
    return app
