"""gunicorn settings: gevent workers, one per core, Prometheus multiprocess mode, no control
socket under $HOME.

Worker model (measured by bench/fault_drills.py and bench/validate_vs_floor.py;
docs/performance.md): sync workers let two clients that trickle a body stall the whole service until the
worker timeout; gthread needs a thread per slow client and pays GIL contention on the CPU-bound
routes; gevent holds a slow client in a greenlet for nothing and keeps sync's throughput.

Slow clients are cut off: the request line and headers must arrive within the keep-alive time
(gevent bounds the header read by it), the body within CARDREF_BODY_TIMEOUT_SECONDS of the headers
(`pre_request` below bounds every body read by that deadline, then shuts the read side: the app
sees a truncated body and answers 400). gunicorn's own `timeout` stays the watchdog of a worker
that stops answering its heartbeat.
"""
import os
import shutil
import socket
import sys
import tempfile
import time

bind = os.environ.get("CARDREF_BIND", "0.0.0.0:8000")
from service.config import cpu_limit  # noqa: E402
from service.logs import gunicorn_logconfig  # noqa: E402

# One worker per CPU the container may use (its cgroup quota, not the host's core count).
workers = int(os.environ.get("CARDREF_WORKERS") or cpu_limit())
_worker_model = os.environ.get("CARDREF_WORKER_CLASS") or "gevent"
# gevent: gunicorn's gevent worker, stopping without a traceback on Ctrl-C (service/workers.py).
worker_class = {"gevent": "service.workers.GeventWorker"}.get(_worker_model, _worker_model)
threads = int(os.environ.get("CARDREF_THREADS") or 1)  # gthread only
worker_connections = int(os.environ.get("CARDREF_WORKER_CONNECTIONS") or 1000)  # gevent, gthread
timeout = int(os.environ.get("CARDREF_WORKER_TIMEOUT") or 30)
graceful_timeout = int(os.environ.get("CARDREF_GRACEFUL_TIMEOUT") or 10)
# Keep-alive: gevent and gthread keep connections open this long between requests; the sync
# worker closes every connection (gunicorn: it cannot hold one while serving another).
keepalive = int(os.environ.get("CARDREF_KEEPALIVE_SECONDS") or 5)
body_timeout = float(os.environ.get("CARDREF_BODY_TIMEOUT_SECONDS") or 10)
yield_after_request = _worker_model == "gevent"
# Logs are JSON lines (CARDREF_LOG_FORMAT=text for plain ones). The access log is the app's
# (logger card_referee.access, one JSON line per request with its X-Request-ID), on under
# `card-referee serve` (CARDREF_ACCESS_LOG=off to silence it); gunicorn's own stays off.
accesslog = None
logger_class = "service.workers.Logger"  # gunicorn's access log off unless asked for
logconfig_dict = gunicorn_logconfig((os.environ.get("CARDREF_LOG_FORMAT") or "json").lower(),
                                    (os.environ.get("CARDREF_LOG_LEVEL") or "INFO").upper())
control_socket_disable = True  # gunicorn ≥ 25 would open one under $HOME

_own_metrics_dir = None
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    _own_metrics_dir = os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(
        prefix="cardref-metrics-")


def when_ready(server):
    """Say where the data is kept, the addresses phones open (as a QR code too, on a terminal)
    and the director's page with its key (docs/operations.md, "Running at a venue"), once the
    master listens."""
    from service.addresses import reachable_links
    from service.config import EMBEDDED_REDIS_DIR_ENV

    redis = bool(os.environ.get("CARDREF_REDIS_URL"))
    if redis and os.environ.get(EMBEDDED_REDIS_DIR_ENV):
        server.log.info("Redis: embedded (started by card-referee serve); its data is kept in %s "
                        "(append-only file: copy that folder to back it up)",
                        os.environ[EMBEDDED_REDIS_DIR_ENV])
    elif redis:
        server.log.info("Redis: the one CARDREF_REDIS_URL names")
    else:
        server.log.info("Redis: none (in-process cache only; no live events, no strict "
                        "sequencing)")
    director_page = None
    for listener in server.LISTENERS:
        address = listener.sock.getsockname()
        if listener.sock.family not in (socket.AF_INET, socket.AF_INET6):
            continue
        links = reachable_links(str(address[0]), int(address[1]))
        if links:
            server.log.info("Phones and other computers on this network open: %s",
                            "  ".join(links))
            terminal_qr(links[0], sys.stderr)
        else:
            server.log.info("Listening on %s:%s, which other devices cannot reach: set "
                            "CARDREF_BIND=0.0.0.0:%s to let phones on this network in",
                            address[0], address[1], address[1])
        # the page opened where the phones reach it: the links and QR codes it makes start
        # with its own address (docs/director.md)
        director_page = director_page or (
            (links[0] if links else own_link(str(address[0]), int(address[1]))) + "director")
    if redis:  # live events need a Redis
        server.log.info("%s", director_line(director_page, dict(os.environ)))


def own_link(host: str, port: int) -> str:
    """The service's address as this machine itself opens it, for when no other device reaches
    it: loopback when it listens on every address (or on loopback), else the one address it
    listens on."""
    if host in ("0.0.0.0", ""):
        host = "127.0.0.1"
    elif host in ("::", "[::]"):
        host = "::1"
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def director_line(page: str | None, env: dict) -> str:
    """What the director reads at start: the director's page and which key creates events. The
    key itself only when it is the one serve keeps in its data folder (an operator's keys are
    never printed); its link then carries it in the fragment, which the page puts in its key
    field and the browser never sends to the service (docs/director.md)."""
    from urllib.parse import quote

    from service.config import KEPT_DIRECTOR_KEY_ENV

    page = page or "/director (at the address in front of this service)"
    kept_file = env.get(KEPT_DIRECTOR_KEY_ENV)
    key = env.get("CARDREF_DIRECTOR_KEYS") or ""
    if kept_file and key:
        return (f"Director's page: {page}#key={quote(key, safe='')} — director key: {key} "
                f"(kept in {kept_file})")
    if key:
        return f"Director's page: {page} — director key: one of CARDREF_DIRECTOR_KEYS"
    return (f"Director's page: {page} — no director key is set (CARDREF_DIRECTOR_KEYS), so no "
            "event can be created here")


def terminal_qr(link: str, out) -> bool:
    """The link as a QR code a phone's camera reads off the screen, written to `out` when it is
    a terminal (never into a log file or a container's log). Half-block characters (half the
    height) where the terminal's encoding has them, else segno's ANSI colours. True if written."""
    import segno

    try:
        if not out.isatty():
            return False
    except (AttributeError, ValueError):  # closed, or no file behind it
        return False
    code = segno.make(link, error="m", boost_error=False)
    try:
        "\u2580\u2584\u2588".encode(out.encoding or "ascii")
        compact = True
    except (LookupError, UnicodeEncodeError):
        compact = False
    code.terminal(out=out, compact=compact)
    out.flush()
    return True


def on_exit(server):
    """The metrics directory made above leaves with the server (one the caller set stays)."""
    if _own_metrics_dir:
        shutil.rmtree(_own_metrics_dir, ignore_errors=True)


def pre_request(worker, req):
    """Bound the whole body read by one deadline (a per-recv timeout would not stop a trickle)."""
    unreader = req.unreader
    sock = getattr(unreader, "sock", None)
    if sock is None or body_timeout <= 0:
        return
    deadline = time.monotonic() + body_timeout
    recv_chunk = type(unreader).chunk.__get__(unreader)

    def chunk(size_hint=None):
        remaining = deadline - time.monotonic()
        if remaining > 0:
            prior = sock.gettimeout()
            sock.settimeout(remaining)
            try:
                return recv_chunk(size_hint)
            except (TimeoutError, socket.timeout):
                pass
            finally:
                try:
                    sock.settimeout(prior)
                except OSError:
                    pass
        try:  # too slow: end of input from here on; the answer still goes out
            sock.shutdown(socket.SHUT_RD)
        except OSError:
            pass
        return b""

    unreader.chunk = chunk


def post_request(worker, req, environ, resp):
    req.unreader.__dict__.pop("chunk", None)
    if yield_after_request:
        # gevent never preempts: a kept-alive client whose next request is always already there
        # would keep its greenlet running and starve every other connection of the worker (p99
        # of 0.4–1 s at 8 connections, /healthz included). Yield once per request.
        time.sleep(0)  # patched by gevent: gevent.sleep(0)


# gunicorn answers what it cannot hand to the app (a request line or header it cannot read, one
# too long or too large, a malformed chunked body) itself, as an HTML page. Its one writer of
# those, gunicorn.util.write_error (called only by Worker.handle_error, which keeps choosing the
# status and logging), is swapped for one writing application/problem+json with a stable code.
SERVER_PROBLEM_CODES = {414: "uri_too_long", 431: "headers_too_large", 500: "internal_error"}


def write_problem(sock, status_int, reason, mesg):
    import json

    from gunicorn import util

    from service.errors import TITLES

    code = SERVER_PROBLEM_CODES.get(status_int, "request_malformed")
    body = {"type": "about:blank", "title": TITLES[code][0], "status": status_int, "code": code}
    if mesg and status_int < 500:
        body["detail"] = mesg
    payload = json.dumps(body).encode()
    head = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
            f"Content-Type: application/problem+json\r\nContent-Language: en\r\n"
            f"Content-Length: {len(payload)}\r\n\r\n").encode("latin-1")
    util.write_nonblock(sock, head + payload)


def post_worker_init(worker):
    from gunicorn import util

    util.write_error = write_problem


def worker_exit(server, worker):
    """The worker's counts not yet written to its metrics files (service/metrics.py)."""
    from service.metrics import flush_all

    flush_all()


def child_exit(server, worker):
    from service.metrics import mark_worker_dead

    mark_worker_dead(worker.pid)
