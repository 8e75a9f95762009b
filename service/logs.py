"""Structured logs: one JSON object a line, each carrying the request id of the request it is
about (X-Request-ID, echoed or made by service/app.py). The access log is one such line per
request (logger `card_referee.access`), on by default under `card-referee serve`."""
from __future__ import annotations

import datetime as _dt
import logging
import os
import re

import orjson

REQUEST_ID_HEADER = "X-Request-ID"
REQUEST_ID_ENV = "cardref.request_id"
# What a caller's id may be (echoed in headers and logs): printable, no spaces, 1–128 chars.
_VALID_ID = re.compile(r"^[A-Za-z0-9._:@/+=-]{1,128}$")

_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}


def request_id_from(header: str | None) -> str:
    """The caller's id when it is a sane one, else a fresh one."""
    if header and _VALID_ID.match(header):
        return header
    # uuid.uuid4().hex, made directly (the UUID object costs ~4 µs a request)
    raw = bytearray(os.urandom(16))
    raw[6] = (raw[6] & 0x0F) | 0x40  # version 4
    raw[8] = (raw[8] & 0x3F) | 0x80  # RFC 4122 variant
    return raw.hex()


def request_id(environ: dict) -> str:
    """The request's id, made (or taken from a sane X-Request-ID) the first time it is asked
    for: by the first log line of the request, else by the answer's header."""
    rid = environ.get(REQUEST_ID_ENV)
    if rid is None:
        rid = environ[REQUEST_ID_ENV] = request_id_from(environ.get("HTTP_X_REQUEST_ID"))
    return rid


def current_request_id() -> str | None:
    try:
        from flask import has_request_context, request

        if has_request_context():
            return request_id(request.environ)
    except Exception:  # pragma: no cover - logging must never fail
        pass
    return None


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out = {
            "time": _dt.datetime.fromtimestamp(record.created, _dt.timezone.utc)
                       .isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        rid = getattr(record, "request_id", None) or current_request_id()
        if rid:
            out["request_id"] = rid
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in out and not key.startswith("_"):
                out[key] = value
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return orjson.dumps(out, default=str).decode()


class TextFormatter(logging.Formatter):
    def __init__(self):
        super().__init__("%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        if not getattr(record, "request_id", None):
            record.request_id = current_request_id() or "-"
        return super().format(record)


def formatter(fmt: str) -> logging.Formatter:
    return JsonFormatter() if fmt == "json" else TextFormatter()


_base_factory = logging.getLogRecordFactory()


def _record_factory(*args, **kwargs) -> logging.LogRecord:
    """Every record made while a request is answered carries its id (whatever handler or
    formatter writes it later)."""
    record = _base_factory(*args, **kwargs)
    if not hasattr(record, "request_id"):
        rid = current_request_id()
        if rid:
            record.request_id = rid
    return record


def configure(level: str, fmt: str = "json") -> None:
    """Root logging for the app: a stderr handler with our formatter, unless one is already
    set up (gunicorn's logconfig_dict in service/gunicorn_conf.py, or pytest's)."""
    if logging.getLogRecordFactory() is not _record_factory:
        logging.setLogRecordFactory(_record_factory)
    root = logging.getLogger()
    if not root.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(formatter(fmt))
        root.addHandler(handler)
    root.setLevel(level)


def gunicorn_logconfig(fmt: str, level: str) -> dict:
    """gunicorn's logconfig_dict: its error log and the app's logs, all through one formatter."""
    factory = "service.logs.JsonFormatter" if fmt == "json" else "service.logs.TextFormatter"
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"cardref": {"()": factory}},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "cardref",
                                "stream": "ext://sys.stderr"}},
        "root": {"level": level, "handlers": ["stderr"]},
        "loggers": {
            "gunicorn.error": {"level": level, "handlers": ["stderr"], "propagate": False},
            "gunicorn.access": {"level": "CRITICAL", "propagate": False},
        },
    }
