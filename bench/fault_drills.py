"""Fault drills against the real service under gunicorn on loopback (issue #13).

slow   N clients send a POST's headers, then one body byte every INTERVAL s for DURATION s (longer
       than the worker timeout), while GET /healthz is timed over and over on fresh connections;
       prints the slowest /healthz, when the server cut each slow client off, and whether a
       normal POST /v1/validate still works. Target: /healthz within 1 s every time.
kill   a few client threads POST /v1/validate in a loop; one worker is SIGKILLed mid-load; prints
       the requests that failed (only those in flight on the killed worker may) and checks that
       gunicorn respawned it and every request after the kill succeeded.
redis  (the service with a Redis of its own) Redis is stopped mid-load and started again: every
       request still succeeds, /readyz says degraded while it is down and ready again after.

Usage: python bench/fault_drills.py [slow|kill|redis|all] [--worker-class gevent] [--threads 1]
           [--clients 50] [--duration 35] [--worker-timeout 30] [--body-timeout 10]
The worker model and timeouts come from service/gunicorn_conf.py (CARDREF_* variables), so
`--worker-class sync` shows the stall this fixes.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import selectors
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.redis_server import free_port  # noqa: E402


def start_service(port: int, env: dict, workers: int = 2, startup: float = 30.0) -> subprocess.Popen:
    """The service under gunicorn with service/gunicorn_conf.py on 127.0.0.1:port; waits for /healthz."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "service" / "gunicorn_conf.py"),
         "--bind", f"127.0.0.1:{port}", "--workers", str(workers), "service.wsgi:app"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + startup
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return proc
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError("gunicorn did not come up")
        time.sleep(0.1)


def stop_service(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def worker_pids(master: int) -> list[int]:
    try:
        with open(f"/proc/{master}/task/{master}/children") as fh:
            return [int(p) for p in fh.read().split()]
    except OSError:
        return []


def _request(port: int, method: str, path: str, body: bytes | None = None,
             timeout: float = 30.0) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def validate_body(port: int) -> bytes:
    """A real validate request, built through the service itself: a deal and its first legal action."""
    games = json.loads(_request(port, "GET", "/v1/games")[1])["games"]
    game = next((g for g in games if g["id"] == "man"), games[0])
    seats = 4 if game["players"]["min"] <= 4 <= game["players"]["max"] else game["players"]["min"]
    status, dealt = _request(port, "POST", f"/v1/games/{game['id']}/deal",
                             json.dumps({"players": [f"p{i}" for i in range(seats)]}).encode())
    assert status == 201, dealt
    dealt = json.loads(dealt)
    player = dealt["to_act"][0]
    legal = json.loads(_request(port, "POST", "/v1/legal-actions",
                                json.dumps({"state": dealt["state"], "player": player}).encode())[1])
    return json.dumps({"state": dealt["state"], "action": legal["actions"][0]}).encode()


@dataclass
class SlowResult:
    healthz: list[float] = field(default_factory=list)  # seconds per probe
    healthz_errors: int = 0
    healthz_failed_after: list[float] = field(default_factory=list)  # seconds until each error
    cut_off_after: list[float] = field(default_factory=list)  # seconds from headers to the server's answer/EOF
    still_open: int = 0
    validate_status: int = 0
    validate_seconds: float = 0.0

    def summary(self) -> str:
        h = sorted(self.healthz) or [float("nan")]
        cut = sorted(self.cut_off_after)
        failed = (f", gave up after {max(self.healthz_failed_after):.1f} s"
                  if self.healthz_failed_after else "")
        return (f"/healthz probes {len(self.healthz)} answered, {self.healthz_errors} not{failed}: "
                f"median {statistics.median(h) * 1000:.1f} ms, max {h[-1] * 1000:.1f} ms; "
                f"slow clients cut off {len(cut)} "
                + (f"(after {cut[0]:.1f}–{cut[-1]:.1f} s)" if cut else "")
                + f", still open at the end {self.still_open}; "
                f"POST /v1/validate during the drill: {self.validate_status} in "
                f"{self.validate_seconds * 1000:.0f} ms")


def slow_clients_drill(port: int, clients: int = 50, duration: float = 35.0, interval: float = 0.5,
                       probe_every: float = 0.1, probe_timeout: float = 60.0,
                       validate: bytes | None = None) -> SlowResult:
    """`clients` connections trickle a body for `duration` s while /healthz is timed; see module doc."""
    result = SlowResult()
    head = (b"POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100000\r\n\r\n")
    sel = selectors.DefaultSelector()
    socks = []
    for _ in range(clients):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.sendall(head)
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ, time.monotonic())
        socks.append(s)

    stop = threading.Event()

    def probe():
        while not stop.is_set():
            t0 = time.monotonic()
            try:
                status, _ = _request(port, "GET", "/healthz", timeout=probe_timeout)
                ok = status == 200
            except OSError:
                ok = False
            if ok:
                result.healthz.append(time.monotonic() - t0)
            else:
                result.healthz_errors += 1
                result.healthz_failed_after.append(time.monotonic() - t0)
            stop.wait(probe_every)

    prober = threading.Thread(target=probe, daemon=True)
    prober.start()
    start = time.monotonic()
    next_byte = start
    validated = False
    try:
        while time.monotonic() - start < duration:
            now = time.monotonic()
            if now >= next_byte:
                for key in list(sel.get_map().values()):
                    try:
                        key.fileobj.send(b" ")
                    except OSError:
                        pass  # the server closed it: the read side below records when
                next_byte += interval
            for key, _ in sel.select(timeout=max(0.0, min(next_byte - time.monotonic(), 0.05))):
                try:
                    data = key.fileobj.recv(65536)
                except OSError:
                    data = b""
                # the server answered (400 for a cut-off body) or closed: either way it let go
                result.cut_off_after.append(time.monotonic() - key.data)
                sel.unregister(key.fileobj)
                del data
            if validate is not None and not validated and now - start >= duration / 2:
                t0 = time.monotonic()
                try:
                    result.validate_status = _request(port, "POST", "/v1/validate", validate,
                                                      timeout=probe_timeout)[0]
                except OSError:
                    result.validate_status = -1
                result.validate_seconds = time.monotonic() - t0
                validated = True
    finally:
        stop.set()
        prober.join(probe_timeout + 1)
        result.still_open = len(sel.get_map())
        sel.close()
        for s in socks:
            s.close()
    return result


@dataclass
class KillResult:
    ok_before: int = 0
    ok_after: int = 0
    failed: int = 0
    failed_after_recovery: int = 0
    killed: int = 0
    respawned_after: float | None = None
    workers_after: int = 0

    def summary(self) -> str:
        return (f"worker {self.killed} SIGKILLed: requests ok before {self.ok_before}, after "
                f"{self.ok_after}, failed {self.failed} (in flight on the killed worker), failed "
                f"later {self.failed_after_recovery}; replacement worker after "
                f"{self.respawned_after if self.respawned_after is None else round(self.respawned_after, 2)} s, "
                f"{self.workers_after} workers")


def worker_kill_drill(proc: subprocess.Popen, port: int, body: bytes, threads: int = 4,
                      before: float = 2.0, after: float = 3.0) -> KillResult:
    """Load with `threads` clients; SIGKILL one worker after `before` s; keep loading `after` s."""
    result = KillResult()
    lock = threading.Lock()
    stop = threading.Event()
    kill_at: list[float] = []
    failures: list[float] = []

    def client():
        conn = None
        while not stop.is_set():
            try:
                if conn is None:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                conn.request("POST", "/v1/validate", body=body, headers={"Content-Type": "application/json"})
                resp = conn.getresponse()
                resp.read()
                ok = resp.status == 200
            except (OSError, http.client.HTTPException):
                ok = False
                if conn is not None:
                    conn.close()
                conn = None
            with lock:
                if ok:
                    if kill_at:
                        result.ok_after += 1
                    else:
                        result.ok_before += 1
                else:
                    failures.append(time.monotonic())
        if conn is not None:
            conn.close()

    pool = [threading.Thread(target=client, daemon=True) for _ in range(threads)]
    for t in pool:
        t.start()
    time.sleep(before)
    old = worker_pids(proc.pid)
    victim = old[0]
    with lock:
        kill_at.append(time.monotonic())
    os.kill(victim, signal.SIGKILL)
    result.killed = victim
    end = time.monotonic() + after
    while time.monotonic() < end:
        now_pids = worker_pids(proc.pid)
        if result.respawned_after is None and len(now_pids) >= len(old) and victim not in now_pids:
            result.respawned_after = time.monotonic() - kill_at[0]
        time.sleep(0.05)
    stop.set()
    for t in pool:
        t.join(15)
    result.workers_after = len(worker_pids(proc.pid))
    # a request in flight on the killed worker fails (its connection drops); after a grace of
    # one second every request must succeed
    result.failed = len(failures)
    result.failed_after_recovery = sum(1 for f in failures if f > kill_at[0] + 1.0)
    return result


@dataclass
class RedisResult:
    ok: int = 0
    failed: int = 0
    readyz_while_down: str = ""
    readyz_after_restart: str = ""
    recovered_after: float | None = None

    def summary(self) -> str:
        return (f"Redis stopped mid-load: requests ok {self.ok}, failed {self.failed}; /readyz while "
                f"down: {self.readyz_while_down}; after restart: {self.readyz_after_restart} "
                f"(in {self.recovered_after if self.recovered_after is None else round(self.recovered_after, 2)} s)")


def redis_kill_drill(port: int, body: bytes, redis_server, threads: int = 4, before: float = 1.0,
                     down: float = 2.0, recover: float = 10.0) -> RedisResult:
    """Load with `threads` clients; stop Redis after `before` s, start it again `down` s later."""
    result = RedisResult()
    lock = threading.Lock()
    stop = threading.Event()

    def client():
        while not stop.is_set():
            try:
                ok = _request(port, "POST", "/v1/validate", body, timeout=10)[0] == 200
            except OSError:
                ok = False
            with lock:
                if ok:
                    result.ok += 1
                else:
                    result.failed += 1

    def readyz():
        try:
            return json.loads(_request(port, "GET", "/readyz", timeout=5)[1]).get("status", "")
        except (OSError, ValueError):
            return "no answer"

    pool = [threading.Thread(target=client, daemon=True) for _ in range(threads)]
    for t in pool:
        t.start()
    try:
        time.sleep(before)
        redis_server.stop()
        end = time.monotonic() + down
        while time.monotonic() < end:  # every worker must notice: ask a few times
            result.readyz_while_down = readyz()
            time.sleep(0.2)
        redis_server.start()
        t0 = time.monotonic()
        while time.monotonic() - t0 < recover:
            result.readyz_after_restart = readyz()
            if result.readyz_after_restart == "ready":
                result.recovered_after = time.monotonic() - t0
                break
            time.sleep(0.1)
    finally:
        stop.set()
        for t in pool:
            t.join(15)
    return result


def drill_env(args: argparse.Namespace, home: str) -> dict:
    env = {**os.environ, "HOME": home, "CARDREF_ACCESS_LOG": "", "CARDREF_STATE_SECRET": "drill-secret",
           "PROMETHEUS_MULTIPROC_DIR": tempfile.mkdtemp(),
           "CARDREF_WORKER_CLASS": args.worker_class, "CARDREF_THREADS": str(args.threads),
           "CARDREF_WORKER_TIMEOUT": str(args.worker_timeout),
           "CARDREF_BODY_TIMEOUT_SECONDS": str(args.body_timeout)}
    return env


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("drill", nargs="?", choices=["slow", "kill", "redis", "all"], default="all")
    parser.add_argument("--worker-class", default=os.environ.get("CARDREF_WORKER_CLASS") or "gevent")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--duration", type=float, default=35.0)
    parser.add_argument("--worker-timeout", type=int, default=30)
    parser.add_argument("--body-timeout", type=float, default=10.0, help="0: no body deadline")
    parser.add_argument("--probe-timeout", type=float, default=60.0,
                        help="how long one /healthz probe waits for its answer")
    args = parser.parse_args()
    home = tempfile.mkdtemp()
    port = free_port()
    env = drill_env(args, home)
    redis_server = None
    if args.drill in ("redis", "all"):
        from tests.redis_server import RedisProcess

        redis_server = RedisProcess().start()
        env.update(CARDREF_REDIS_URL=redis_server.url, CARDREF_REDIS_RETRY_SECONDS="0.2")
    proc = start_service(port, env)
    verdict = True
    try:
        body = validate_body(port)
        print(f"worker_class={args.worker_class} threads={args.threads} workers=2 "
              f"timeout={args.worker_timeout}s body_timeout={args.body_timeout}s")
        if args.drill in ("slow", "all"):
            res = slow_clients_drill(port, args.clients, args.duration, probe_timeout=args.probe_timeout,
                                     validate=body)
            print(f"slow clients ({args.clients} x 1 byte/0.5 s for {args.duration:g} s): {res.summary()}")
            ok = (res.healthz and max(res.healthz) <= 1.0 and not res.healthz_errors
                  and res.validate_status == 200)
            print("  verdict:", "PASS" if ok else "FAIL (target: /healthz within 1 s every time)")
            verdict &= bool(ok)
        if args.drill in ("kill", "all"):
            res = worker_kill_drill(proc, port, body)
            print(res.summary())
            ok = res.ok_after > 0 and res.failed_after_recovery == 0 and res.respawned_after is not None
            print("  verdict:", "PASS" if ok else "FAIL")
            verdict &= ok
        if args.drill in ("redis", "all"):
            res = redis_kill_drill(port, body, redis_server)
            print(res.summary())
            ok = (res.failed == 0 and res.ok > 0 and res.readyz_while_down == "degraded"
                  and res.readyz_after_restart == "ready")
            print("  verdict:", "PASS" if ok else "FAIL")
            verdict &= ok
    finally:
        stop_service(proc)
        if redis_server is not None:
            redis_server.close()
        shutil.rmtree(home, ignore_errors=True)
    return 0 if verdict else 1


if __name__ == "__main__":
    sys.exit(main())
