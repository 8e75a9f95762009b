"""The real service under gunicorn on a loopback port, for the tests that need it whole."""
from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from tests.redis_server import free_port

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def gunicorn_service(tmp: Path, **env: str) -> Iterator[str]:
    """Start the service (2 workers, the product's gunicorn config and `env`), wait until
    /healthz answers, yield its base URL; stop it after."""
    port = free_port()
    full_env = {**os.environ, "HOME": str(tmp), "PROMETHEUS_MULTIPROC_DIR": str(tmp), **env}
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "service" / "gunicorn_conf.py"),
         "--bind", f"127.0.0.1:{port}", "--workers", "2", "service.wsgi:app"],
        cwd=ROOT, env=full_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(base + "/healthz", timeout=2) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                pass
            assert proc.poll() is None, proc.stdout.read().decode()
            assert time.monotonic() < deadline, "gunicorn did not come up"
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=15)
