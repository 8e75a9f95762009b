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

from flask import Flask, Response
from prometheus_client import (CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram,
                               generate_latest, multiprocess)

from engine import ENGINE_VERSION, registry as games

# When the WSGI call began (set by service/app.py): the latency's start, and the access log's.
STARTED_ENV = "cardref.started"
BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


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
    children: dict[tuple, tuple] = {}
    labelled: dict[tuple, object] = {}

    def _child(metric, **labels):
        """A metric's labelled child, cached (labels() validates and locks on every call)."""
        key = (id(metric), *labels.values())
        child = labelled.get(key)
        if child is None:
            child = labelled[key] = metric.labels(**labels)
        return child

    def observe(req, response: Response) -> None:
        """Count and time one answer (called by the app's one after-request hook)."""
        environ = req.environ
        started = environ.get(STARTED_ENV)
        if started is None:
            return
        rule = req.url_rule
        key = (req.method, rule.rule if rule is not None else "<unmatched>",
               response.status_code)
        pair = children.get(key)
        if pair is None:
            labels = {"method": key[0], "route": key[1], "status": str(key[2])}
            pair = children[key] = (requests_total.labels(**labels), latency.labels(**labels))
        pair[0].inc()
        pair[1].observe(time.perf_counter() - started)
        game = environ.get("cardref.game")
        refusal = environ.get("cardref.refusal")
        problem = environ.get("cardref.problem")
        if game is not None:
            if games.get(game) is None:  # a client's string: never a label of its own
                game = "<unknown>"
            outcome = problem or ("refused" if refusal else "ok")
            _child(by_game, game=game, route=key[1], outcome=outcome).inc()
            if refusal:
                _child(refusals, game=game, code=refusal).inc()
        if problem is not None:
            _child(problems, code=problem, status=str(key[2])).inc()

    @app.get("/metrics")
    def metrics():
        if multiproc:
            collect_from = CollectorRegistry()
            multiprocess.MultiProcessCollector(collect_from)
        else:
            collect_from = registry
        return Response(generate_latest(collect_from), mimetype=CONTENT_TYPE_LATEST)

    return observe


def mark_worker_dead(pid: int) -> None:
    """gunicorn child_exit hook: drop a dead worker's live gauges."""
    multiprocess.mark_process_dead(pid)
