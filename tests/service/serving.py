"""The real service under gunicorn on a loopback port, for the tests that need it whole."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from tests.redis_server import free_port

ROOT = Path(__file__).resolve().parents[2]

# The director key of the hosted events' service the browser tests share (tests/conftest.py).
EVENTS_DIRECTOR_KEY = "test-events-director-key"


def _stop(proc: subprocess.Popen) -> bool:
    """SIGTERM, then SIGKILL past 30 s; True when it stopped by itself. (SIGTERM is graceful:
    workers finish what they answer, kept-alive connections included, within the graceful
    timeout of 10 s; past that the master kills them. Allow for it.)"""
    proc.terminate()
    try:
        proc.wait(timeout=30)
        return True
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)
        return False


@contextmanager
def gunicorn_service(tmp: Path, **env: str) -> Iterator[str]:
    """Start the service (2 workers, the product's gunicorn config and `env`), wait until
    /healthz answers, yield its base URL; stop it after."""
    full_env = {**os.environ, "HOME": str(tmp), "PROMETHEUS_MULTIPROC_DIR": str(tmp), **env}
    # The service's log goes to a file, never to a pipe nobody reads while it runs: a full pipe
    # (64 KB of log lines) would block every process of the service at its next log line.
    log_path = tmp / "gunicorn.log"
    for _attempt in range(5):
        port = free_port()
        with open(log_path, "wb") as log:
            proc = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "-c",
                 str(ROOT / "service" / "gunicorn_conf.py"), "--bind", f"127.0.0.1:{port}",
                 "--workers", "2", "service.wsgi:app"],
                cwd=ROOT, env=full_env, stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        # Ours only once our master says it listens there: another test's service may have
        # taken the same free port between free_port() and the bind, and would answer /healthz.
        listening = f"Listening at: {base} ({proc.pid})"
        deadline = time.monotonic() + 30
        while listening not in log_path.read_text(errors="replace"):
            if "Connection in use" in log_path.read_text(errors="replace"):
                proc.kill()
                proc.wait(timeout=10)
                break
            if proc.poll() is not None or time.monotonic() >= deadline:
                # never leave a master (and its workers) running behind a failed start
                _stop(proc)
                raise AssertionError("gunicorn did not come up (its log: "
                                     "CARDREF_LOG_LEVEL must let INFO through):\n"
                                     + log_path.read_text(errors="replace")[-4000:])
            time.sleep(0.1)
        else:
            break
    else:
        raise AssertionError("no free port could be bound in 5 tries")
    try:
        while True:
            try:
                with urllib.request.urlopen(base + "/healthz", timeout=2) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                pass
            assert proc.poll() is None, log_path.read_text(errors="replace")
            assert time.monotonic() < deadline, "gunicorn did not come up"
            time.sleep(0.2)
        yield base
    finally:
        if not _stop(proc):
            raise AssertionError("gunicorn did not stop within 30 s of SIGTERM:\n"
                                 + log_path.read_text(errors="replace")[-4000:])


def answer(base: str, method: str, path: str, body: Any = None, token: str | None = None,
           timeout: float | None = None, **headers: str) -> tuple[Any, dict[str, str]]:
    """A JSON request to a running service (`token` as a bearer; `timeout` seconds, if given,
    to wait for it): the answer's JSON and its headers. A refusal raises urllib's HTTPError."""
    data = None if body is None else json.dumps(body).encode()
    sent = {"Content-Type": "application/json", **headers} if data is not None else dict(headers)
    if token:
        sent["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(base + path, data=data, headers=sent, method=method)
    with urllib.request.urlopen(request, timeout=timeout) as resp:
        return json.load(resp), dict(resp.headers)


def api(base: str, method: str, path: str, body: Any = None, token: str | None = None,
        timeout: float | None = None, **headers: str) -> Any:
    """answer()'s JSON alone."""
    return answer(base, method, path, body, token, timeout, **headers)[0]
