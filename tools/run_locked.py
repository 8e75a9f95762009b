"""Run a command holding an exclusive lock on a file (what `make` builds .venv under).

usage: python tools/run_locked.py LOCKFILE COMMAND [ARG...]

`make serve` and `make test` started together on a fresh clone must install .venv once: the
first takes the lock and installs, the second waits, then finds the install done.

The lock is the kernel's (flock), not a lock directory made with mkdir: it goes with the last
process holding it, so an install killed half-way (Ctrl-C, kill -9, a closed terminal) leaves
nothing behind that would block the next make forever. The command is exec'd with the locked
file open, so the lock lasts exactly as long as the command and every process it starts (pip):
an orphaned pip still holds it, and no second install runs beside it.
"""
from __future__ import annotations

import fcntl
import os
import sys


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__.splitlines()[2], file=sys.stderr)
        return 2
    path, command = argv[1], argv[2:]
    if os.path.isdir(path):
        # The lock directory of the former Makefile, left by a make killed while installing.
        os.rmdir(path)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print(f"waiting for another make to finish installing .venv (lock {path})",
              file=sys.stderr, flush=True)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except KeyboardInterrupt:
            return 130
    os.set_inheritable(fd, True)
    try:
        os.execvp(command[0], command)
    except OSError as err:
        print(f"run_locked: cannot run {command[0]}: {err.strerror}", file=sys.stderr)
        return 127


if __name__ == "__main__":
    sys.exit(main(sys.argv))
