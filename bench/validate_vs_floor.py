"""Benchmark: POST /v1/validate against the framework floor, measured in one run.

Both run under gunicorn with 2 workers of the same model on loopback (service/gunicorn_conf.py:
gevent unless CARDREF_WORKER_CLASS or --worker-class says otherwise); wrk drives each at 32 connections
(throughput) and at 8 (latency), floor and service back to back in each of several rounds; the
verdict is the median of the per-round ratios, because this machine is shared and noisy. Prints req/s
and p99 for each and the ratios that the performance targets (docs/performance.md) are stated in:
    /v1/validate req/s  >= 0.80 x floor req/s     (at 32 connections)
    /v1/validate p99    <= 1.5  x floor p99        (at 8 connections)
`make bench` (bench/endpoints.py) measures every endpoint this way; this is validate alone,
over several rounds.

Usage: python bench/validate_vs_floor.py [--game man] [--rounds 5] [--duration 4] [--secret '']
           [--worker-class gevent|sync|gthread] [--threads N]
Needs `wrk` (Debian package wrk).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import payloads  # noqa: E402
from tests.redis_server import free_port  # noqa: E402


def start_gunicorn(app: str, port: int, env: dict) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "service" / "gunicorn_conf.py"),
         "--bind", f"127.0.0.1:{port}", "--workers", "2", app],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120  # a loaded machine starts gunicorn slowly
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return proc
        except Exception as err:  # floor has no /healthz: a 404/405 answer is up too
            if getattr(err, "code", None) in (404, 405):
                return proc
        if time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"{app} did not start")
        time.sleep(0.2)


def wrk(url: str, body_file: str, connections: int, duration: int) -> tuple[float, float]:
    script = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
    script.write('wrk.method = "POST"\n'
                 f'local f = io.open("{body_file}", "rb")\nwrk.body = f:read("*a")\nf:close()\n'
                 'wrk.headers["Content-Type"] = "application/json"\n')
    script.close()
    out = subprocess.run(["wrk", "-t", "2", "-c", str(connections), "-d", f"{duration}s", "--latency",
                          "-s", script.name, url], capture_output=True, text=True, check=True).stdout
    os.unlink(script.name)
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p99_raw = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99_raw.group(2)]
    return rps, float(p99_raw.group(1)) * scale


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="man")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--duration", type=int, default=4)
    parser.add_argument("--secret", default="bench-secret", help="'' to bench without signing")
    parser.add_argument("--worker-class", default=os.environ.get("CARDREF_WORKER_CLASS") or "gevent",
                        help="gunicorn worker model of both the floor and the service")
    parser.add_argument("--threads", type=int, default=int(os.environ.get("CARDREF_THREADS") or 1),
                        help="threads per worker (gthread)")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        print("wrk is not installed (apt-get install wrk)", file=sys.stderr)
        return 2

    home = tempfile.mkdtemp()
    base_env = {**os.environ, "HOME": home, "CARDREF_ACCESS_LOG": "",
                "CARDREF_WORKER_CLASS": args.worker_class, "CARDREF_THREADS": str(args.threads)}
    svc_env = {**base_env, "CARDREF_STATE_SECRET": args.secret,
               "PROMETHEUS_MULTIPROC_DIR": tempfile.mkdtemp()}
    floor_env = {**base_env, "PYTHONPATH": str(ROOT / "bench")}
    # the state as the service signs it (bound to a game id and move number), or plain
    body, _ = payloads.validate_request(args.game, "signed", secret=args.secret)
    body_file = tempfile.NamedTemporaryFile("wb", suffix=".json", delete=False)
    body_file.write(body)
    body_file.close()
    floor_body = tempfile.NamedTemporaryFile("wb", suffix=".json", delete=False)
    floor_body.write(b"{}")
    floor_body.close()

    fport, sport = free_port(), free_port()
    floor = start_gunicorn("floor_app:app", fport, floor_env)
    svc = start_gunicorn("service.wsgi:app", sport, svc_env)
    check = urllib.request.Request(f"http://127.0.0.1:{sport}/v1/validate", data=body,
                                   headers={"Content-Type": "application/json"})
    answer = json.loads(urllib.request.urlopen(check).read())
    assert answer.get("valid") is True, answer
    results: dict[str, list[tuple[float, float]]] = {"floor": [], "validate": []}
    try:
        for _ in range(args.rounds):
            for name, url, bfile in (("floor", f"http://127.0.0.1:{fport}/floor", floor_body.name),
                                     ("validate", f"http://127.0.0.1:{sport}/v1/validate", body_file.name)):
                rps, _ = wrk(url, bfile, 32, args.duration)
                _, p99 = wrk(url, bfile, 8, args.duration)
                results[name].append((rps, p99))
    finally:
        floor.terminate()
        svc.terminate()

    def med(name, i):
        return statistics.median(r[i] for r in results[name])

    # Each round measures the floor and the service back to back, so a ratio per round cancels
    # most of the drift a shared machine has between rounds; the verdict is their median.
    rps_ratio = statistics.median(v[0] / f[0] for f, v in zip(results["floor"], results["validate"]))
    p99_ratio = statistics.median(v[1] / f[1] for f, v in zip(results["floor"], results["validate"]))
    f_rps, f_p99 = med("floor", 0), med("floor", 1)
    v_rps, v_p99 = med("validate", 0), med("validate", 1)
    print(f"game={args.game} state+action body={len(body)} bytes signing={'on' if args.secret else 'off'} "
          f"workers=2 x {args.worker_class}"
          + (f" ({args.threads} threads)" if args.worker_class == "gthread" else "")
          + f" rounds={args.rounds} x {args.duration}s, medians")
    print(f"{'':12}{'req/s @32':>12}{'p99 ms @8':>12}")
    print(f"{'floor':12}{f_rps:12.0f}{f_p99:12.2f}")
    print(f"{'validate':12}{v_rps:12.0f}{v_p99:12.2f}")
    print("per-round req/s ratios: " + " ".join(
        f"{v[0] / f[0]:.2f}" for f, v in zip(results["floor"], results["validate"])))
    print(f"ratio req/s {rps_ratio:.2f} (target >= 0.80)  ratio p99 {p99_ratio:.2f} (target <= 1.50)")
    return 0 if rps_ratio >= 0.80 and p99_ratio <= 1.5 else 1


if __name__ == "__main__":
    sys.exit(main())
