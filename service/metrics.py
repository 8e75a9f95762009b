"""Prometheus metrics at /metrics, on prometheus_client directly.

prometheus-flask-exporter measured ~15% of a /v1/validate request here (it resolves label
children and reads several request proxies on every request); this keeps the same two series —
a request counter and a latency histogram by method, route and status — with the label children
cached, for a few microseconds. Under gunicorn (PROMETHEUS_MULTIPROC_DIR set by
service/gunicorn_conf.py) every worker writes its own files and /metrics merges them.
"""
from __future__ import annotations

import os
import time
from http import HTTPStatus

from flask import Flask, Response
from prometheus_client import (CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram,
                               generate_latest, multiprocess)

from engine import ENGINE_VERSION, registry as games

# When the WSGI call began (set by service/app.py): the latency's start, and the access log's.
STARTED_ENV = "cardref.started"
BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


# Every label value is one of a fixed set: a client's made-up method, path, game or code would
# otherwise make a label set (files, memory and /metrics size) of its own per request. Unknown
# methods and codes fold into OTHER; an unmatched path is one route, UNMATCHED; a status outside
# the standard ones is OTHER.
OTHER = "other"
UNMATCHED = "<unmatched>"
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE",
                     "CONNECT"})
STATUSES = frozenset(s.value for s in HTTPStatus)


def _declared_codes() -> tuple[frozenset, frozenset]:
    """(problem codes, refusal codes) a game or the service declares: the only code labels."""
    from engine.adjudicate import ENGINE_REFUSAL_DETAILS

    from .errors import problem_codes

    refusals = set(ENGINE_REFUSAL_DETAILS)
    for game in games.all_games():
        refusals.update(game.refusals)
    return frozenset(problem_codes()), frozenset(refusals)


def install(app: Flask):
    """The metrics' series and GET /metrics; returns the per-answer `observe(req, response)`."""
    multiproc = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))
    # In multiprocess mode values live in per-worker files and /metrics collects them into a
    # fresh registry; otherwise each app gets its own registry (tests build many apps).
    registry = None if multiproc else CollectorRegistry()
    requests_total = Counter("cardref_http_requests_total", "HTTP requests answered",
                             ["method", "route", "status"], registry=registry)
    latency = Histogram("cardref_http_request_duration_seconds", "HTTP request latency",
                        ["method", "route", "status"], buckets=BUCKETS, registry=registry)
    by_game = Counter("cardref_game_requests_total",
                      "Adjudication requests by game, route and outcome (ok, refused or a "
                      "problem code)", ["game", "route", "outcome"], registry=registry)
    refusals = Counter("cardref_refusals_total", "Refused actions by game and refusal code",
                       ["game", "code"], registry=registry)
    problems = Counter("cardref_problems_total", "Error answers (problem+json) by code",
                       ["code", "status"], registry=registry)
    info = Gauge("cardref_info", "Card Referee build", ["engine_version"], registry=registry,
                 multiprocess_mode="max")
    info.labels(engine_version=ENGINE_VERSION).set(1)
    # Labelled children, cached (labels() validates and locks on every call), as their bound
    # inc/observe: by (method, route, status), by (game, route, outcome), by (game, code) and
    # by (code, status).
    by_answer: dict[tuple, tuple] = {}
    problem_codes, refusal_codes = _declared_codes()
    by_game_children: dict[tuple, object] = {}
    refusal_children: dict[tuple, object] = {}
    problem_children: dict[tuple, object] = {}

    def observe(req, response: Response) -> None:
        """Count and time one answer (called by the app's one after-request hook)."""
        environ = req.environ
        started = environ.get(STARTED_ENV)
        if started is None:
            return
        rule = req.url_rule
        route = rule.rule if rule is not None else UNMATCHED
        status = response.status_code
        key = (req.method, route, status)
        pair = by_answer.get(key)
        if pair is None:
            # Not seen before: fold the values outside the fixed sets. The children are cached
            # by the folded labels (status as a string), and by the raw key only when nothing
            # was folded: a made-up method never grows this cache either.
            method = key[0] if key[0] in METHODS else OTHER
            status_label = str(status) if status in STATUSES else OTHER
            folded = (method, route, status_label)
            pair = by_answer.get(folded)
            if pair is None:
                labels = {"method": method, "route": route, "status": status_label}
                pair = by_answer[folded] = (requests_total.labels(**labels).inc,
                                            latency.labels(**labels).observe)
            if folded == (key[0], route, str(status)):
                by_answer[key] = pair
        pair[0]()
        pair[1](time.perf_counter() - started)
        game = environ.get("cardref.game")
        refusal = environ.get("cardref.refusal")
        problem = environ.get("cardref.problem")
        if problem is not None and problem not in problem_codes:
            problem = OTHER
        if refusal and refusal not in refusal_codes:
            refusal = OTHER
        if game is not None:
            if games.get(game) is None:  # a client's string: never a label of its own
                game = "<unknown>"
            outcome = problem or ("refused" if refusal else "ok")
            inc = by_game_children.get((game, route, outcome))
            if inc is None:
                inc = by_game_children[(game, route, outcome)] = by_game.labels(
                    game=game, route=route, outcome=outcome).inc
            inc()
            if refusal:
                inc = refusal_children.get((game, refusal))
                if inc is None:
                    inc = refusal_children[(game, refusal)] = refusals.labels(
                        game=game, code=refusal).inc
                inc()
        if problem is not None:
            inc = problem_children.get((problem, status))
            if inc is None:
                inc = problem_children[(problem, status)] = problems.labels(
                    code=problem, status=str(status) if status in STATUSES else OTHER).inc
            inc()

    @app.get("/metrics")
    def metrics():
        if multiproc:
            collect_from = CollectorRegistry()
            multiprocess.MultiProcessCollector(collect_from)
        else:
            collect_from = registry
        return Response(generate_latest(collect_from), content_type=CONTENT_TYPE_LATEST)

    return observe


def mark_worker_dead(pid: int) -> None:
    """gunicorn child_exit hook: drop a dead worker's live gauges."""
    multiprocess.mark_process_dead(pid)
