"""Capacity per core: POST /v1/validate requests answered per CPU-second of the service's
gunicorn processes, for each game, signed and sealed — the number docs/scaling.md sizes
instances by.

wrk drives the service (gunicorn, 2 gevent workers, service/gunicorn_conf.py) with a mid-game
state of bench/payloads.py for a few seconds; the CPU time its processes used (utime + stime
from /proc) divides the requests answered. On a busy machine req/s moves with the neighbours'
load, CPU time per request far less: it counts only the time the service ran. The floor
(bench/floor_app.py) is measured the same way, for the framework's own share.

Two trust modes (--modes): signed, the service run with CARDREF_STATE_SECRET (--secret) and
the state signed as it signs; sealed, the service run with CARDREF_SEAL_KEYS as `make bench`
runs it for its sealed rows (bench/payloads.py, SERVICE_ENV), the state sealed and each request
carrying the acting seat's token (X-Seat-Token). After the rows, CPU µs per request of each
game side by side, signed and sealed.

--rows TEXT adds `make bench`'s rows whose case contains TEXT (bench/payloads.py; rows that
send one body again and again: a cold row's fresh bodies are not for this bench), each with its
own headers (a compressed row's Accept-Encoding) and its ratio to the floor by CPU time: the
floor's CPU per request over the row's, what its req/s ratio would be on a machine of its own.

Usage: python bench/cpu_per_request.py [--games man,guandan] [--modes signed,sealed]
           [--duration 8] [--connections 16] [--all-endpoints] [--rows TEXT ...]
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

from bench import payloads  # noqa: E402
from bench.validate_vs_floor import start_gunicorn  # noqa: E402
from tests.redis_server import free_port  # noqa: E402

MODES = ("signed", "sealed")
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


def _wrk(url: str, body: bytes, headers: dict, connections: int, duration: int) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        body_file = Path(tmp) / "body.json"
        body_file.write_bytes(body)
        script = Path(tmp) / "post.lua"
        header_lines = "".join(f'wrk.headers["{k}"] = "{v}"\n' for k, v in
                               {"Content-Type": "application/json", **headers}.items())
        script.write_text('wrk.method = "POST"\n'
                          f'local f = io.open("{body_file}", "rb")\nwrk.body = f:read("*a")\n'
                          'f:close()\n' + header_lines)
        out = subprocess.run(["wrk", "-t", "2", "-c", str(connections), "-d", f"{duration}s",
                              "-s", str(script), url], capture_output=True, text=True,
                             check=True).stdout
    non_2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    assert non_2xx is None, out
    return int(re.search(r"(\d+) requests in", out).group(1))


def per_cpu_second(app: str, path: str, env: dict, body: bytes, headers: dict,
                   connections: int, duration: int) -> tuple[int, float]:
    """(requests answered, CPU-seconds the server used) under wrk for `duration` s."""
    port = free_port()
    proc = start_gunicorn(app, port, env)
    try:
        url = f"http://127.0.0.1:{port}{path}"
        _wrk(url, body, headers, connections, 1)  # warm: imports, caches, connections
        pids = _tree(proc.pid)
        before = _cpu_seconds(pids)
        requests = _wrk(url, body, headers, connections, duration)
        return requests, _cpu_seconds(pids) - before
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(payloads.GAMES))
    parser.add_argument("--modes", default=",".join(MODES),
                        help="trust modes of the service, comma-separated (signed, sealed)")
    parser.add_argument("--duration", type=int, default=8)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--secret", default=payloads.STATE_SECRET,
                        help="the signed service's secret ('' for a service without signing)")
    parser.add_argument("--all-endpoints", action="store_true",
                        help="also /v1/view and /v1/legal-actions of each game's state")
    parser.add_argument("--rows", action="append", default=[], metavar="TEXT",
                        help="also make bench's rows whose case contains TEXT (repeatable); "
                        "--games '' for those rows alone")
    args = parser.parse_args()
    modes = args.modes.split(",")
    if set(modes) - set(MODES):
        parser.error(f"--modes: one or more of {', '.join(MODES)}")
    if not shutil.which("wrk"):
        print("wrk is not installed (apt-get install wrk)", file=sys.stderr)
        return 2
    home = tempfile.mkdtemp()
    base = {**os.environ, "HOME": home, "CARDREF_ACCESS_LOG": ""}
    for key in ("CARDREF_STATE_SECRET", "CARDREF_SEAL_KEYS", "CARDREF_SEQUENCE"):
        base.pop(key, None)  # each service's trust mode is the one its row names
    floor_env = {**base, "PYTHONPATH": str(ROOT / "bench")}
    service_env = {"signed": {"CARDREF_STATE_SECRET": args.secret},
                   "sealed": payloads.SERVICE_ENV["sealed"]}
    endpoints = ["validate"] + (["view", "legal-actions"] if args.all_endpoints else [])
    # (name, app, path, env, body, headers, (endpoint, game, mode) or None for the floor)
    rows = [("floor", "floor_app:app", "/floor", floor_env, b"{}", {}, None)]
    games = [g for g in args.games.split(",") if g]
    for mode in modes:
        for game in games:
            env = {**base, **service_env[mode], "PROMETHEUS_MULTIPROC_DIR": tempfile.mkdtemp()}
            state = payloads.mid_game(game)
            for endpoint in endpoints:
                build = (payloads.validate_request if endpoint == "validate"
                         else payloads.player_request)
                body, headers = build(game, mode, state, secret=args.secret)
                # signed rows keep the names they always had; sealed ones say so
                name = f"{endpoint} {game}" + (" sealed" if mode == "sealed" else "")
                rows.append((name, "service.wsgi:app", f"/v1/{endpoint}", env, body, headers,
                             (endpoint, game, mode)))
    if args.rows:
        for case in payloads.all_cases(cold_count=2):
            if not case.cold and any(text in case.name for text in args.rows):
                env = {**base, **payloads.SERVICE_ENV[case.service],
                       "PROMETHEUS_MULTIPROC_DIR": tempfile.mkdtemp()}
                rows.append((f"{case.group} {case.name}", "service.wsgi:app", case.path, env,
                             case.bodies[0], case.headers, None))
    width = max(22, 2 + max(len(row[0]) for row in rows))
    print(f"{time.strftime('%Y-%m-%d %H:%M %Z')}  load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} CPUs; wrk {args.connections} connections, {args.duration} s")
    print(f"{'what':<{width}}{'requests':>10}{'CPU s':>8}{'req per CPU-s':>15}{'CPU ms/req':>12}"
          f"{'of the floor':>14}")
    per_request_us: dict[tuple, float] = {}
    floor_ms = 0.0
    for name, app, path, env, body, headers, key in rows:
        requests, cpu = per_cpu_second(app, path, env, body, headers, args.connections,
                                       args.duration)
        ms = 1000 * cpu / requests
        floor_ms = floor_ms or ms  # the floor is the first row
        print(f"{name:<{width}}{requests:>10}{cpu:>8.2f}{requests / cpu:>15.0f}{ms:>12.2f}"
              f"{floor_ms / ms:>14.2f}")
        if key:
            per_request_us[key] = 1e6 * cpu / requests
    if games:
        print_by_game(per_request_us, endpoints, games, modes)
    return 0


def print_by_game(us: dict[tuple, float], endpoints: list[str], games: list[str],
                  modes: list[str]) -> None:
    """CPU µs per request of each game and endpoint, one column a trust mode (and, with both,
    what sealing costs over signing)."""
    both = set(MODES) <= set(modes)
    print("\nCPU µs per request")
    print(f"{'request':<24}" + "".join(f"{m:>10}" for m in modes)
          + (f"{'sealed/signed':>15}" if both else ""))
    for endpoint in endpoints:
        for game in games:
            line = f"{endpoint + ' ' + game:<24}" + "".join(
                f"{us[endpoint, game, m]:>10.0f}" for m in modes)
            if both:
                line += f"{us[endpoint, game, 'sealed'] / us[endpoint, game, 'signed']:>15.2f}"
            print(line)


if __name__ == "__main__":
    sys.exit(main())
