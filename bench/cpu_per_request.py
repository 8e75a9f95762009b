"""Capacity per core: POST /v1/validate requests answered per CPU-second of the service's
gunicorn processes, for each game — the number docs/scaling.md sizes instances by.

wrk drives the service (gunicorn, 2 gevent workers, service/gunicorn_conf.py, a signed mid-game
state of bench/validate_vs_floor.py) for a few seconds; the CPU time its processes used
(utime + stime from /proc) divides the requests answered. On a busy machine req/s moves with
the neighbours' load, CPU time per request far less: it counts only the time the service ran.
The floor (bench/floor_app.py) is measured the same way, for the framework's own share.

Usage: python bench/cpu_per_request.py [--games man,guandan] [--duration 8] [--connections 16]
           [--all-endpoints]
Needs `wrk` (Debian package wrk) and Linux (/proc).
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from validate_vs_floor import (  # noqa: E402
    _first_legal,
    mid_game_state,
    request_body,
    start_gunicorn,
)

from tests.redis_server import free_port  # noqa: E402

GAMES = ("man", "manillen", "guandan", "daifugo", "manteur")
TICKS = os.sysconf("SC_CLK_TCK")


def _tree(pid: int) -> list[int]:
    """The process and its children (gunicorn's master and workers)."""
    pids = [pid]
    for task in Path(f"/proc/{pid}/task").iterdir():
        children = (task / "children").read_text().split()
        pids += [int(c) for c in children]
    return pids


def _cpu_seconds(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (after pid, comm)
    return total / TICKS


def _wrk(url: str, body: bytes, connections: int, duration: int) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        body_file = Path(tmp) / "body.json"
        body_file.write_bytes(body)
        script = Path(tmp) / "post.lua"
        script.write_text('wrk.method = "POST"\n'
                          f'local f = io.open("{body_file}", "rb")\nwrk.body = f:read("*a")\n'
                          'f:close()\nwrk.headers["Content-Type"] = "application/json"\n')
        out = subprocess.run(["wrk", "-t", "2", "-c", str(connections), "-d", f"{duration}s",
                              "-s", str(script), url], capture_output=True, text=True,
                             check=True).stdout
    non_2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    assert non_2xx is None, out
    return int(re.search(r"(\d+) requests in", out).group(1))


def player_body(game: str, secret: str) -> bytes:
    """A /v1/view or /v1/legal-actions request: the signed mid-game state of request_body and
    the player whose action it validates."""
    import json

    state = mid_game_state(game)
    player = _first_legal(state)["player"]
    signed = json.loads(request_body(game, secret))["state"]
    return json.dumps({"state": signed, "player": player}).encode()


def per_cpu_second(app: str, path: str, env: dict, body: bytes, connections: int,
                   duration: int) -> tuple[int, float]:
    """(requests answered, CPU-seconds the server used) under wrk for `duration` s."""
    port = free_port()
    proc = start_gunicorn(app, port, env)
    try:
        url = f"http://127.0.0.1:{port}{path}"
        _wrk(url, body, connections, 1)  # warm: imports, caches, connections
        pids = _tree(proc.pid)
        before = _cpu_seconds(pids)
        requests = _wrk(url, body, connections, duration)
        return requests, _cpu_seconds(pids) - before
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--duration", type=int, default=8)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--secret", default="bench-secret")
    parser.add_argument("--all-endpoints", action="store_true",
                        help="also /v1/view and /v1/legal-actions of each game's state")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        print("wrk is not installed (apt-get install wrk)", file=sys.stderr)
        return 2
    home = tempfile.mkdtemp()
    base = {**os.environ, "HOME": home, "CARDREF_ACCESS_LOG": ""}
    floor_env = {**base, "PYTHONPATH": str(ROOT / "bench")}
    print(f"{time.strftime('%Y-%m-%d %H:%M %Z')}  load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} CPUs; wrk {args.connections} connections, {args.duration} s")
    print(f"{'what':<22}{'requests':>10}{'CPU s':>8}{'req per CPU-s':>15}{'CPU ms/req':>12}")
    rows = [("floor", "floor_app:app", "/floor", floor_env, b"{}")]
    for game in args.games.split(","):
        env = {**base, "CARDREF_STATE_SECRET": args.secret,
               "PROMETHEUS_MULTIPROC_DIR": tempfile.mkdtemp()}
        rows.append((f"validate {game}", "service.wsgi:app", "/v1/validate", env,
                     request_body(game, args.secret)))
        if args.all_endpoints:
            for endpoint in ("view", "legal-actions"):
                rows.append((f"{endpoint} {game}", "service.wsgi:app", f"/v1/{endpoint}", env,
                             player_body(game, args.secret)))
    for name, app, path, env, body in rows:
        requests, cpu = per_cpu_second(app, path, env, body, args.connections, args.duration)
        print(f"{name:<22}{requests:>10}{cpu:>8.2f}{requests / cpu:>15.0f}"
              f"{1000 * cpu / requests:>12.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
