"""orjson for every JSON body in and out: measured at 0.86 of the floor against stdlib's 0.76."""
from __future__ import annotations

from typing import Any, cast

import marshmallow as ma
import orjson
from flask import Flask, Request, Response
from flask.json.provider import JSONProvider
from webargs import core
from webargs.flaskparser import FlaskParser, abort, is_json_request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from .json_keys import refuse_duplicate_keys


class OrjsonProvider(JSONProvider):
    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return orjson.dumps(obj).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return orjson.loads(s)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        obj = self._prepare_response_obj(args, kwargs)
        app = cast(Flask, self._app)  # flask types it as the sansio App: it is the Flask app
        return app.response_class(orjson.dumps(obj), mimetype="application/json")


def json_response(body: Any, status: int = 200) -> Response:
    """A prebuilt response: flask-smorest documents the schema and passes it through as is."""
    return Response(orjson.dumps(body), status=status, content_type="application/json")


_BODY_KEY = "card_referee.body"


def body_bytes(req: Request) -> bytes:
    """The request body, at most MAX_CONTENT_LENGTH bytes (413 beyond). A body sent without a
    length (chunked) is read here up to the limit: werkzeug would cut it short silently, and
    the truncated JSON would then read as malformed (400) instead of too large."""
    environ = req.environ
    cached = environ.get(_BODY_KEY)
    if cached is not None:
        return cached
    declared = environ.get("CONTENT_LENGTH")
    if declared and "chunked" not in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
        if declared.isdigit() and declared.isascii() and environ.get("wsgi.input_terminated"):
            # What werkzeug's get_data does here (a server that ends the stream at the
            # declared length: gunicorn), without its stream wrappers: ~8 µs a request.
            limit = req.max_content_length
            if limit is not None and int(declared) > limit:
                raise RequestEntityTooLarge()
            data = environ["wsgi.input"].read(int(declared))
            if len(data) != int(declared):
                # The stream ended early: the client closed, or the body deadline shut it
                # (service/gunicorn_conf.py). Never adjudicate part of a body.
                _incomplete(f"The body ended after {len(data)} of its {declared} bytes.")
        else:  # a declared length: werkzeug enforces the limit
            data = req.get_data(cache=True)
    else:
        limit = req.max_content_length
        try:
            data = environ["wsgi.input"].read(limit + 1) if limit is not None else req.get_data()
        except Exception as err:  # noqa: BLE001 - the server's reader of a chunked body
            _chunked_failed(err)
        if limit is not None and len(data) > limit:
            abort(413, messages={"json": [f"The body exceeds {limit} bytes."]})
    environ[_BODY_KEY] = data
    return data


class BodyIncomplete(HTTPException):
    """400 body_incomplete: the body stopped before its declared end."""
    code = 400


def _incomplete(text: str):
    raise BodyIncomplete(description=text)


def _chunked_failed(err: Exception):
    """A chunked body the server could not read to its end: cut off (gunicorn's NoMoreData,
    the client gone or the body deadline) is 400 body_incomplete; a malformed chunk (an invalid
    size, a missing terminator) is 400 request_malformed. Anything else is not the client's."""
    try:
        from gunicorn.http.errors import NoMoreData, ParseException
    except ImportError:  # not under gunicorn
        raise err from None
    if isinstance(err, NoMoreData):
        _incomplete("The chunked body ended before its last chunk.")
    if isinstance(err, ParseException):
        raise BadChunkedBody(description=f"Malformed chunked body: {err}.")
    raise err


class BadChunkedBody(HTTPException):
    code = 400


def raw_json_body(req: Request, required: bool) -> Any:
    """The body parsed with orjson (which reads an integer beyond 64 bits as a float instead of
    a value no JSON encoder here can write back). A body not declared JSON is refused with 415;
    when not `required`, an empty one reads as missing. Malformed JSON raises JSONDecodeError;
    an object naming a key twice raises DuplicateKey (service/json_keys.py)."""
    if req.environ.get("CONTENT_TYPE") != "application/json" and not is_json_request(req):
        if required or body_bytes(req):
            abort(415, messages={"json": ["Content-Type must be application/json."]})
        return core.missing
    data = body_bytes(req)
    value = orjson.loads(data)
    refuse_duplicate_keys(data, value)  # 422 json_duplicate_key, never last-one-wins
    return value


def load_body(schema, req: Request) -> dict:
    """The request body checked by a marshmallow schema, for the hottest route: what webargs
    does for the others (same errors: 415, 400 json_malformed, 422 with field paths), without
    its per-request machinery (~20 µs of /v1/validate). A schema may vouch for a body already
    in shape itself (`quick_load`, the same result as `load`, else None: marshmallow then
    loads it, and words what is wrong)."""
    try:
        data = raw_json_body(req, required=True)
    except (orjson.JSONDecodeError, UnicodeDecodeError) as err:
        invalid_json(err)
    quick_load = getattr(schema, "quick_load", None)
    if quick_load is not None:
        loaded = quick_load(data)
        if loaded is not None:
            return loaded
    try:
        return schema.load(data)
    except ma.ValidationError as err:
        abort(422, messages={"json": err.messages})


class OrjsonParser(FlaskParser):
    """webargs, reading request bodies with orjson (raw_json_body); webargs itself answers a
    malformed body."""

    def _raw_load_json(self, req: Request) -> Any:
        try:
            return raw_json_body(req, required=False)
        except orjson.JSONDecodeError as err:
            # webargs reads a decode error with an empty `doc` as "no body" (missing, then 422
            # "Missing data"); orjson leaves `doc` empty for a body that is not UTF-8. Only an
            # empty body is missing; any other is malformed (400), as on /v1/validate.
            if not body_bytes(req):
                return core.missing
            invalid_json(err)

    def _handle_invalid_json_error(self, error, req, *args, **kwargs):
        invalid_json(error)


def _current_request() -> Request:
    from flask import request

    return request._get_current_object()  # type: ignore[attr-defined]  # flask types the proxy as what it proxies


def invalid_json(err: Exception):
    """400 json_malformed, saying where: line and column (the parser's own words after)."""
    if not isinstance(err, UnicodeDecodeError):
        # orjson words a body that is not UTF-8 (latin-1, UTF-16) as "str is not valid UTF-8"
        # at line 1, column 1; say where it stops being UTF-8 instead (an error path only).
        try:
            request_body = body_bytes(_current_request())
            request_body.decode("utf-8")
        except UnicodeDecodeError as not_utf8:
            err = not_utf8
        except Exception:  # noqa: BLE001 - no body at hand: the parser's own words
            pass
    if isinstance(err, UnicodeDecodeError):
        text = f"Invalid JSON body: not UTF-8 at byte {err.start}."
    else:
        line, col = getattr(err, "lineno", None), getattr(err, "colno", None)
        reason = getattr(err, "msg", None) or str(err)
        text = (f"Invalid JSON body at line {line}, column {col}: {reason}."
                if line is not None else f"Invalid JSON body: {reason}.")
    abort(400, messages={"json": [text]}, message=text)
