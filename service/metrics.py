"""Prometheus metrics at /metrics, on prometheus_client directly.

prometheus-flask-exporter measured ~15% of a /v1/validate request here (it resolves label
children and reads several request proxies on every request); this keeps the same two series —
a request counter and a latency histogram by method, route and status — with the label children
cached, for a few microseconds. Under gunicorn (PROMETHEUS_MULTIPROC_DIR set by
service/gunicorn_conf.py) every worker writes its own files and /metrics merges them.

Writing them is what costs: in multiprocess mode every `inc` takes a lock and writes the
worker's mmap file, four of them an answer (~12 % of an in-process /v1/validate). So an answer
is counted in the worker's memory (`_Pending`) and the sums are written at most once a
`FLUSH_SECONDS`: by the next answer after it, by a background flusher when the worker is idle,
before this worker answers /metrics, and when the worker exits (gunicorn's worker_exit hook).
Another worker's last second may not be in a scrape yet; Prometheus scrapes every 15 s or more.
"""
from __future__ import annotations

import bisect
import glob
import os
import threading
import time
import weakref
from collections.abc import Iterable
from http import HTTPStatus

from flask import Flask, Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.metrics_core import Metric

from engine import ENGINE_VERSION, registry as games

# When the WSGI call began (set by service/app.py): the latency's start, and the access log's.
STARTED_ENV = "cardref.started"
BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
FLUSH_SECONDS = 1.0


class _Pending:
    """What one app's answers added since the last flush: counts by bound `inc`, and for each
    latency histogram child its sum and its counts per bucket (prometheus_client's own buckets:
    an observation goes to the first upper bound it does not exceed, +Inf last)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.counts: dict = {}
        self.latencies: dict = {}
        self.due = time.perf_counter() + FLUSH_SECONDS
        _all_pending.add(self)

    def add(self, inc) -> None:
        self.counts[inc] = self.counts.get(inc, 0) + 1

    def add_latency(self, child, seconds: float) -> None:
        sums = self.latencies.get(child)
        if sums is None:
            sums = self.latencies[child] = [0.0] + [0] * (len(BUCKETS) + 1)
        sums[0] += seconds
        sums[1 + bisect.bisect_left(BUCKETS, seconds)] += 1

    def flush(self) -> None:
        with self.lock:
            counts, self.counts = self.counts, {}
            latencies, self.latencies = self.latencies, {}
            self.due = time.perf_counter() + FLUSH_SECONDS
        for inc, n in counts.items():
            inc(n)
        for child, sums in latencies.items():
            # Histogram.observe writes _sum and one bucket per observation; these are the same
            # writes, summed (tests/service/test_ops.py holds the scrape to the answers given).
            child._sum.inc(sums[0])
            for bucket, n in zip(child._buckets, sums[1:]):
                if n:
                    bucket.inc(n)


_all_pending: "weakref.WeakSet[_Pending]" = weakref.WeakSet()
_flusher_pid: int | None = None


def flush_all() -> None:
    """Write every app's pending counts (the background flusher, and gunicorn's worker_exit)."""
    for pending in list(_all_pending):
        pending.flush()


def _start_flusher() -> None:
    """One daemon flusher per process (a greenlet under gevent's patched threading), started
    by the first answer after a fork: an idle worker's last counts reach the files too."""
    global _flusher_pid
    _flusher_pid = os.getpid()

    def run() -> None:
        while True:
            time.sleep(FLUSH_SECONDS)
            now = time.perf_counter()
            for pending in list(_all_pending):
                if now >= pending.due and (pending.counts or pending.latencies):
                    pending.flush()

    threading.Thread(target=run, name="metrics-flusher", daemon=True).start()


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
    # Labelled children, cached (labels() validates and locks on every call): by (method, route,
    # status) the counter's bound inc and the histogram child, by (game, route, outcome), by
    # (game, code) and by (code, status) the counters' bound inc.
    by_answer: dict[tuple, tuple] = {}
    pending = _Pending()
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
                                            latency.labels(**labels))
            if folded == (key[0], route, str(status)):
                by_answer[key] = pair
        now = time.perf_counter()
        with pending.lock:
            first = not pending.counts  # the first answer since a flush
            pending.add(pair[0])
            pending.add_latency(pair[1], now - started)
            _count_outcome(environ, route, status)
        # This process's flusher, from its first answer on (checked once a flush, not once an
        # answer): a burst shorter than FLUSH_SECONDS, then silence, still reaches the files.
        if first and _flusher_pid != os.getpid():
            _start_flusher()
        if now >= pending.due:
            pending.flush()

    def _count_outcome(environ, route: str, status: int) -> None:
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
            pending.add(inc)
            if refusal:
                inc = refusal_children.get((game, refusal))
                if inc is None:
                    inc = refusal_children[(game, refusal)] = refusals.labels(
                        game=game, code=refusal).inc
                pending.add(inc)
        if problem is not None:
            inc = problem_children.get((problem, status))
            if inc is None:
                inc = problem_children[(problem, status)] = problems.labels(
                    code=problem, status=str(status) if status in STATUSES else OTHER).inc
            pending.add(inc)

    @app.get("/metrics")
    def metrics():
        pending.flush()  # this worker's answers so far; the others' within FLUSH_SECONDS
        if registry is None:  # multiprocess mode: a fresh registry over the workers' files
            collect_from = CollectorRegistry()
            _WorkersFiles(collect_from)
        else:
            collect_from = registry
        return Response(generate_latest(collect_from), content_type=CONTENT_TYPE_LATEST)

    return observe


class _WorkersFiles(multiprocess.MultiProcessCollector):
    """The workers' files, merged, leaving out a file another worker is creating this instant.

    prometheus_client creates a worker's file before it sizes it, so a scrape can find it at 0
    bytes; its reader then raises (struct.error) and the whole scrape answered 500
    (prometheus/client_python#1199, open). An empty file holds no value yet: leaving it out
    loses nothing, and the next scrape reads it sized."""

    def collect(self) -> Iterable[Metric]:
        files = glob.glob(os.path.join(self._path, "*.db"))
        return self.merge([f for f in files if _holds_values(f)], accumulate=True)


def _holds_values(path: str) -> bool:
    try:
        return os.path.getsize(path) > 0
    except OSError:  # gone since the glob (a dead worker's live gauge): nothing to read
        return False


def mark_worker_dead(pid: int) -> None:
    """gunicorn child_exit hook: drop a dead worker's live gauges."""
    multiprocess.mark_process_dead(pid)
