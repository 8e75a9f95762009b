"""The app factory. Everything a request needs is built here once per process."""
from __future__ import annotations

import hashlib
import logging
import time
from http import HTTPStatus
from types import SimpleNamespace
from typing import cast

from flask import Flask, Response, request
from flask.sessions import SecureCookieSessionInterface
from flask_smorest import Api

from engine import registry

from . import compression, errors, headers, logs, metrics
from .api import build_blueprints, operations, play
from .cache import Cache
from .config import Settings
from .errors import PROBLEM_MIME
from .jsonio import OrjsonProvider
from .request_defaults import publish_request_defaults
from .schemas import (
    ProblemSchema,
    Schemas,
    deal_components,
    event_components,
    event_document_components,
    record_components,
    refusal_components,
    request_components,
    state_components,
    state_field_ref,
)
from .sequence import Sequencer
from .trust import Guard

API_DESCRIPTION = """\
Card Referee adjudicates card games statelessly: post a game state and a proposed action, get
back whether it is legal (and which rule it breaks if not), the next state, who may act next and
the score deltas. Every state the service returns is the whole game; nothing is kept between
requests. Errors are `application/problem+json` with a stable `code`; an illegal action is not
an error (200, `valid: false`). Rules, numbered as refusals cite them:
`GET /v1/games/{game}/rules` (markdown, or HTML with `Accept: text/html` or at `/rules.html`).
Send `Accept-Language: ja` for Japanese messages and rules pages.
Send `X-Request-ID` to trace a request.
"""

# Answers that may be cached by clients and proxies: revalidated by ETag, kept for a while.
CACHEABLE_PATHS = ("/v1/games", "/openapi.json", "/openapi.yaml")
CACHE_CONTROL = "public, max-age=300"
# The request headers that make an answer with an ETag conditional (RFC 9110 §13; Range)
_CONDITIONAL_REQUEST = ("HTTP_IF_NONE_MATCH", "HTTP_IF_MATCH", "HTTP_IF_MODIFIED_SINCE",
                        "HTTP_IF_UNMODIFIED_SINCE", "HTTP_RANGE")
# Answers with no words for a person (no Content-Language / Vary: Accept-Language).
_LANGUAGE_FREE = ("/metrics", "/docs/assets/")
CORS_ALLOW_HEADERS = ["Content-Type", "Authorization", "X-Seat-Token", "X-Host-Token", "X-Request-ID",
                      "Accept-Language", "If-None-Match",
                      "If-Match", "Idempotency-Key",  # hosted events' changes
                      "X-Referee-Key",  # the referee key beside an event table's token
                      "X-Event-Token"]  # an event's token dealing its committed deal
CORS_EXPOSE_HEADERS = ["X-Request-ID", "ETag", "Content-Language", "Retry-After", "Allow",
                       "Card-Referee-Consistent", "Card-Referee-Digest"]  # a score sheet's
log_access = logging.getLogger("card_referee.access")
STARTED_ENV = metrics.STARTED_ENV


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


class NoSessions(SecureCookieSessionInterface):
    """The service keeps nothing between requests and sets no cookie: every request shares one
    null session (which refuses writes) instead of Flask looking for a signing key and making
    a fresh one each time."""

    def __init__(self):
        self._null = self.null_session_class()

    def open_session(self, app, request):
        return self._null


class RefereeFlask(Flask):
    """Flask, remembering which views are coroutines: flask-smorest asks `ensure_sync` at every
    decorator layer of every request, and each answer costs an `inspect` call (measured ~9 per
    /v1/validate request, ~35 µs)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._sync_views: dict = {}
        self.session_interface = NoSessions()

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
    logs.configure(settings.log_level, settings.log_format)
    app = RefereeFlask("card_referee")
    # The body limit as the request's own (Flask reads MAX_CONTENT_LENGTH, set below to the
    # same value, through `current_app` on every ask: ~2 µs a request).
    app.request_class = type("RefereeRequest", (app.request_class,),
                             {"_max_content_length": settings.max_body_bytes})
    app.json = OrjsonProvider(app)
    app.config.update(
        MAX_CONTENT_LENGTH=settings.max_body_bytes,
        API_TITLE="Card Referee",
        API_VERSION="2.0.0",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="/docs",
        OPENAPI_SWAGGER_UI_URL="/docs/assets/",  # served from the swagger-ui-bundle package, no CDN
        # Swagger UI would send the whole spec to validator.swagger.io: never.
        OPENAPI_SWAGGER_UI_CONFIG={"validatorUrl": None},
        API_SPEC_OPTIONS={"info": {"description": API_DESCRIPTION}},
    )
    games = registry.all_games()
    app.extensions["card_referee"] = SimpleNamespace(
        settings=settings,
        guard=Guard(settings.state_secrets, settings.seal_keys, settings.referee_keys,
                    # Settings refuses strict sequencing without a Redis URL
                    Sequencer(cast(str, settings.redis_url), settings.sequence_ttl_seconds,
                              settings.redis_timeout_seconds, settings.sequence_retry_seconds)
                    if settings.sequence == "strict" else None,
                    seat_token_keys=settings.seat_token_keys),
        cache=Cache(settings.cache_size, settings.redis_url, settings.cache_ttl_seconds,
                    settings.redis_timeout_seconds, settings.redis_retry_seconds),
    )
    sequencer = app.extensions["card_referee"].guard.sequencer
    if sequencer is not None:
        # Strict sequencing trusts Redis to keep every move record: say at start-up when it
        # may not (docs/security.md, "What strict mode needs of Redis"); /readyz says it too.
        durability = sequencer.durability()
        if durability != "aof":
            logging.getLogger(__name__).warning(
                "strict sequencing: Redis persistence is %r, not an append-only file: a Redis "
                "restart can roll games back (see docs/security.md)", durability)
    api = RefereeApi(app)
    api.ma_plugin.converter.add_attribute_function(state_field_ref)
    schemas = Schemas(games)
    base_deal = api.ma_plugin.converter.schema2jsonschema(schemas.deal_request)
    for name, component in {**state_components(games),
                             **deal_components(games, base_deal),
                             **event_components(games),
                             **refusal_components(games),
                             **record_components(games),
                             **event_document_components(games)}.items():
        api.spec.components.schema(name, component=component)
    api.spec.components.schema("ValidateAccepted", schema=schemas.validate_accepted)
    api.spec.components.schema("ValidateRefused", schema=schemas.validate_refused)
    for blp in build_blueprints(schemas, app.extensions["card_referee"]):
        api.register_blueprint(blp)
    # The requests that carry a state, as published: typed by game (schemas.request_
    # components), in place of what the marshmallow schemas that load them would say.
    for name, component in request_components(games).items():
        api.spec.components.schemas[name] = component
    # The spec is written at registration; from here on the hot views run unwrapped.
    for endpoint, view in list(app.view_functions.items()):
        direct = getattr(view, "direct_view", None)
        if direct is not None:
            app.view_functions[endpoint] = direct
    errors.register(app)
    app.extensions["card_referee"].api = api
    # Every code a client can get, published (the service's own and each game's input errors,
    # errors.problem_codes): a client can switch on them all, and a new one shows in the spec.
    api.spec.components.schemas["Problem"]["properties"]["code"] = {
        "type": "string", "enum": sorted(errors.problem_codes()),
        "description": "stable: branch on it (docs/integrating.md, Error codes)"}
    # Each game's deal at its own path, typed by the game (service/api/play.py).
    api.spec._paths = play.publish_game_deals(api.spec._paths, games)
    # What a client may omit is not "required" to a generator (service/request_defaults.py).
    publish_request_defaults(api.spec._paths, api.spec.components.schemas)

    operations.install_pages(app, api)

    observe = metrics.install(app) if settings.metrics else None
    compressor = compression.install(app, settings.compress_min_bytes) \
        if settings.compression else None
    _install_request_hooks(app, settings, observe, compressor)
    if settings.cors_origins:
        from flask_cors import CORS

        CORS(app, origins=["*"] if "*" in settings.cors_origins else list(settings.cors_origins),
             allow_headers=CORS_ALLOW_HEADERS, expose_headers=CORS_EXPOSE_HEADERS,
             methods=["GET", "POST", "PUT", "DELETE", "OPTIONS"], max_age=600, vary_header=True,
             send_wildcard="*" in settings.cors_origins)
    return app


def _install_request_hooks(app: Flask, settings: Settings, observe, compressor) -> None:
    """Everything the service adds to every answer, in one after-request hook (each hook and
    each werkzeug header call costs µs on every request): the metrics (`observe`, None when
    off), X-Request-ID echoed (or made), Content-Language and Vary, the cache headers, the
    compression (`compressor`, None when off: service/compression.py) and the access log
    line. The clock starts where the WSGI call does."""
    wsgi_app = app.wsgi_app

    def timed_wsgi_app(environ, start_response):
        environ[STARTED_ENV] = time.perf_counter()
        return wsgi_app(environ, start_response)

    app.wsgi_app = timed_wsgi_app  # type: ignore[method-assign]  # flask's documented way to wrap it

    # Allowed origins are echoed one at a time: caches must key answers on Origin.
    vary_origin = bool(settings.cors_origins) and "*" not in settings.cors_origins
    access_log = settings.access_log
    min_bytes = settings.compress_min_bytes
    # What every answer varies by: its words by Accept-Language (but for _LANGUAGE_FREE
    # paths), its bytes by Accept-Encoding when answers may be compressed.
    vary_words = "Accept-Language, Accept-Encoding" if compressor else "Accept-Language"
    vary_bytes = ("Accept-Encoding",) if compressor else ()

    @app.after_request
    def _after(response: Response) -> Response:
        req = request._get_current_object()  # type: ignore[attr-defined]  # the proxy's method; one lookup, not one per attribute
        environ = req.environ
        if observe is not None:  # before a conditional GET turns a 200 into a 304
            observe(req, response)
        # Appended to the header list directly: werkzeug's Headers.set/setdefault validate
        # and scan on every call (~10 µs for these three); the values are ours and
        # single-line (a caller's request id is one only when it matches logs._VALID_ID).
        header_list = response.headers._list
        header_list.append((logs.REQUEST_ID_HEADER, logs.request_id(environ)))
        # nosniff, no framing, no referrer on every answer; an HTML page's own
        # Content-Security-Policy (service/headers.py, docs/security.md "Headers")
        header_list += headers.EVERY_ANSWER
        path = req.path
        if headers.may_be_html(path) and response.mimetype == "text/html":
            header_list.append((headers.CSP, headers.policy_for(path)))
        has_language = has_vary = False
        for name, _ in header_list:
            lowered = name.lower()
            if lowered == "content-language":
                has_language = True
            elif lowered == "vary":
                has_vary = True
        if not path.startswith(_LANGUAGE_FREE):
            if not has_language:
                header_list.append(("Content-Language", errors.request_lang(req)))
            if has_vary:
                response.vary.update(("Accept-Language", *vary_bytes))
            else:  # the common case, without parsing a header set
                header_list.append(("Vary", vary_words))
        elif vary_bytes:
            if has_vary:
                response.vary.update(vary_bytes)
            else:
                header_list.append(("Vary", vary_bytes[0]))
        if vary_origin:
            response.vary.add("Origin")
        conditional = req.method in ("GET", "HEAD") and response.status_code == 200
        if conditional and (path in CACHEABLE_PATHS or path.endswith(("/rules", "/rules.html"))):
            response.headers["Cache-Control"] = CACHE_CONTROL
            digest = hashlib.sha256(response.get_data())
            digest.update(response.headers.get("Content-Language", "").encode())
            response.set_etag(digest.hexdigest()[:32])
        if compressor is not None and "HTTP_ACCEPT_ENCODING" in environ:
            length = response.content_length  # None: a file sent as it is read
            if length is None or length >= min_bytes:
                response = compression.compress(compressor, response)
        # After compressing: a compressed answer's ETag names its encoding ("…:gzip"). Only
        # a request that asks something of it (werkzeug's make_conditional costs ~25 µs, a
        # tenth of a cached public view, to change nothing else: the server sends the Date)
        if conditional and "ETag" in response.headers and \
                any(name in environ for name in _CONDITIONAL_REQUEST):
            response.make_conditional(req)
        if access_log:
            started = environ.get(STARTED_ENV)
            extra = {"method": req.method, "path": path,  # request_id: logs stamps it
                     "status": response.status_code,
                     "duration_ms": round((time.perf_counter() - started) * 1000, 3)
                     if started else None,
                     "remote": req.remote_addr}
            for key in ("game", "refusal", "problem"):
                value = environ.get(f"cardref.{key}")
                if value:
                    extra[key] = value
            log_access.info("%s %s %s", req.method, path, response.status_code, extra=extra)
        return response
