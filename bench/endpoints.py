"""`make bench`: every endpoint against the framework floor, in one run, one table.

The floor (bench/floor_app.py: bare Flask answering a constant small JSON) and the service run
under gunicorn with 2 workers of the same model (service/gunicorn_conf.py: gevent), on
loopback; wrk drives each row at 32 connections (req/s) and at 8 (p50, p99). The floor is
measured again before every two rows, and each row is divided by the mean of the floor runs just
before and after it: ratios measured minutes apart on a shared machine mean little, ratios of
neighbours cancel most of its drift. The rows are bench/payloads.py's (tests/bench checks the
service accepts every one). A cold row sends each of its bodies once (another cache key each
time: a miss); `reused` in its note says it ran out of fresh ones. Its fresh bodies follow the
machine: unless --cold says how many, the floor is measured first and each wrk run of a cold
row gets twice the requests the floor answered in a run (a cold row does its work on every
request: it answers slower than the bare floor), so a cold row stays cold and its cached row is
judged.

A replay row is one request of 100 or 1,000 actions (a 1,000-action request takes a worker
~0.1–0.2 s). At 32 connections for 2 s such a row completes a handful of requests, most of the
run's requests are still queued when wrk stops (and keep the server busy into the next run),
and its req/s is noise. Replay rows are therefore run at 4 connections (both workers busy,
one request waiting on each: the server runs flat out as at 32, and little is left in flight
at the end), one run giving both req/s and p50/p99, for as long as it takes to complete
--min-requests requests (default 100): a first run of --duration gives the rate, and if it
completed fewer, a second run long enough for them (at most 120 s) is the row's measurement.
After a replay run the bench waits for the requests left in flight. The replay verdict is
computed from these runs, and not judged when either row completed fewer than --min-requests.

The cache is Redis (CARDREF_REDIS_URL, else database 13 of 127.0.0.1:6379 when it answers), as
deployed; without one, the in-process cache, as the header line says.

Prints a markdown table (paste it into docs/performance.md) and the targets' verdicts:
    /v1/validate, each game: req/s ratio >= 0.80 @32 and p99 ratio <= 1.5 @8
    every endpoint at a typical state: req/s ratio >= 0.30
    /v1/replay: cost per action at 1,000 actions <= 1.5x its cost at 100; answer size too
    a cached lookup >= 3x the req/s of computing it
    Guandan's 27-card leader: its legal actions <= 15 KB on the wire as a browser asks (br);
      the plays of cards a player picked <= 2 KB, at >= 0.50 of the floor
and compression's cost: each compressed row's req/s and p50 beside its uncompressed twin's.
--rows TEXT runs only the rows whose case contains TEXT (after --only): on a shared machine,
the few rows a change is about.
and, for every row below 0.30 of the floor, where its time goes: the row's own requests
profiled in process (bench/hot_paths.py).

Usage: python bench/endpoints.py [--duration 2] [--only validate,lookup] [--rows TEXT] [--cold N]
           [--min-requests 100] [--profile-requests 100] [--worker-class gevent] [--strict]
Needs `wrk` (Debian: apt-get install wrk).
"""
from __future__ import annotations

import argparse
import datetime
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import hot_paths, payloads  # noqa: E402
from bench.validate_vs_floor import start_gunicorn  # noqa: E402
from tests.redis_server import answers, free_port  # noqa: E402

BENCH_REDIS = "redis://127.0.0.1:6379/13"  # the bench's own database of a shared Redis
WRK_THREADS = 2
# Rows whose one request is long (a replay of hundreds of actions): measured at LONG_CONNECTIONS
# for long enough to complete --min-requests requests, at most LONG_MAX_SECONDS a run.
LONG_GROUPS = {"replay"}
LONG_CONNECTIONS = 4
LONG_MAX_SECONDS = 120
# Fresh bodies a wrk run of a cold row gets, per request the floor answered in a run of the
# same length: a cold row answers slower than the bare floor, but the floor's rate drifts.
COLD_MARGIN = 2


@dataclass
class Run:
    rps: float
    p50: float
    p99: float
    requests: int
    errors: int


_LUA = """
wrk.method = "POST"
{headers}
local bodies = {{}}
for line in io.lines("{bodies}") do bodies[#bodies + 1] = line end
local count = 0
function setup(thread)
  thread:set("tid", count)
  count = count + 1
end
local n = 0
function request()
  -- thread t sends bodies t+1, t+1+T, t+1+2T, ...: each body once until they run out
  local i = (n * {threads} + (tid or 0)) % #bodies + 1
  n = n + 1
  return wrk.format(nil, nil, nil, bodies[i])
end
"""


def _ms(value: str, unit: str) -> float:
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def wrk(url: str, bodies: list[bytes], headers: dict, connections: int, duration: float,
        workdir: str) -> Run:
    body_file = os.path.join(workdir, "bodies.txt")
    with open(body_file, "wb") as f:
        f.write(b"\n".join(bodies) + b"\n")
    header_lines = "\n".join(f'wrk.headers["{k}"] = "{v}"' for k, v in
                             {"Content-Type": "application/json", **headers}.items())
    script = os.path.join(workdir, "bench.lua")
    with open(script, "w") as f:
        f.write(_LUA.format(headers=header_lines, bodies=body_file, threads=WRK_THREADS))
    out = subprocess.run(["wrk", "-t", str(WRK_THREADS), "-c", str(connections),
                          "-d", f"{duration}s", "--timeout", "10s", "--latency", "-s", script, url],
                         capture_output=True, text=True, check=True).stdout
    if re.search(r"\b0 requests in", out) and duration < 30:
        # Nothing answered within the run (a slow row, or a machine too busy to start one):
        # once more, longer, rather than a row of zeros.
        return wrk(url, bodies, headers, connections, duration * 4, workdir)
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50 = re.search(r"50%\s+([\d.]+)(us|ms|s)", out)
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    errors = sum(int(m) for m in re.findall(r"Non-2xx or 3xx responses: (\d+)", out))
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)",
                              out)
    if socket_errors:
        errors += sum(int(x) for x in socket_errors.groups())
    return Run(rps, _ms(*p50.groups()), _ms(*p99.groups()), requests, errors)


def machine() -> str:
    model, cores = platform.processor() or "?", os.cpu_count()
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        found = re.search(r"Model name:\s+(.+)", lscpu)
        model = found.group(1).strip() if found else model
    except OSError:
        pass
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return f"{model}, {cores} cores (load average {load} at the start)"


def check(url: str, case: payloads.Case) -> None:
    """Each row's first body answered as the row expects before any timing: a refused body
    measured fast would be a lie."""
    req = urllib.request.Request(url + case.path, data=case.bodies[0],
                                 headers={"Content-Type": "application/json", **case.headers})
    try:
        with urllib.request.urlopen(req, timeout=30) as answer:
            status = answer.status
    except urllib.error.HTTPError as err:
        raise SystemExit(f"{case.group} {case.name}: {err.code} {err.read()[:300]!r}") from None
    if status != case.status:
        raise SystemExit(f"{case.group} {case.name}: answered {status}, not {case.status}")


def answer_size(url: str, case: payloads.Case) -> int:
    """The bytes of the row's answer on the wire (urllib does not decompress: a compressed
    answer counts as sent)."""
    req = urllib.request.Request(url + case.path, data=case.bodies[0],
                                 headers={"Content-Type": "application/json", **case.headers})
    with urllib.request.urlopen(req, timeout=60) as answer:
        return len(answer.read())


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--duration", type=int, default=2, help="seconds of each wrk run")
    parser.add_argument("--only", default="", help="groups to run, comma-separated "
                        "(validate, legal-actions, view, deal, replay, lookup)")
    parser.add_argument("--rows", action="append", default=[], metavar="TEXT",
                        help="only the rows whose case contains TEXT (repeatable; after "
                        "--only): a few rows measured on a shared machine")
    parser.add_argument("--cold", type=int, default=None,
                        help="distinct bodies of a cold row, per wrk run (a sixth as many "
                        "states for the cold 27-card enumeration); default: twice the requests "
                        "the floor answers in a run, measured first")
    parser.add_argument("--min-requests", type=int, default=100,
                        help="requests a replay row completes at the least (its run is made "
                        f"long enough, up to {LONG_MAX_SECONDS} s)")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when a target is not met (for a CI gate)")
    parser.add_argument("--profile-requests", type=int, default=100,
                        help="requests profiled in process for each row below 0.30 (0: none)")
    parser.add_argument("--worker-class", default=os.environ.get("CARDREF_WORKER_CLASS") or "gevent")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        print("make bench needs wrk, the HTTP load generator: apt-get install wrk "
              "(Debian/Ubuntu), brew install wrk (macOS)", file=sys.stderr)
        return 2

    started = time.monotonic()
    header = (f"{datetime.date.today().isoformat()} · {machine()} · gunicorn 2 × "
              f"{args.worker_class} workers each")
    redis_url = os.environ.get("CARDREF_REDIS_URL") or (BENCH_REDIS if answers(BENCH_REDIS)
                                                         else None)
    groups = set(args.only.split(",")) if args.only else None
    home = tempfile.mkdtemp(prefix="cardref-bench-")
    work = tempfile.mkdtemp(prefix="cardref-bench-wrk-")
    base_env = {**os.environ, "HOME": home, "CARDREF_ACCESS_LOG": "",
                "CARDREF_WORKER_CLASS": args.worker_class, "CARDREF_LOG_LEVEL": "WARNING"}
    for key in ("CARDREF_STATE_SECRET", "CARDREF_SEAL_KEYS", "CARDREF_SEQUENCE"):
        base_env.pop(key, None)
    if redis_url:
        base_env.update(CARDREF_REDIS_URL=redis_url, CARDREF_CACHE_TTL_SECONDS="900")
    servers, urls = [], {}
    try:
        port = free_port()
        servers.append(start_gunicorn("floor_app:app", port,
                                      {**base_env, "PYTHONPATH": str(ROOT / "bench")}))
        urls["floor"] = f"http://127.0.0.1:{port}"
        cold, cold_why = cold_count(args, groups, urls["floor"], work)
        print(f"building the requests ({cold} distinct bodies per cold run)…", file=sys.stderr)
        # Each wrk run of a cold row gets its own slice of bodies: two runs per row.
        cases = payloads.all_cases(cold_count=2 * cold, seed=int.from_bytes(os.urandom(8)))
        if groups:
            cases = [c for c in cases if c.group in groups]
        if args.rows:
            cases = [c for c in cases if any(text in c.name for text in args.rows)]
        for mode in {c.service for c in cases}:
            port = free_port()
            servers.append(start_gunicorn("service.wsgi:app", port, {
                **base_env, **payloads.SERVICE_ENV[mode],
                "PROMETHEUS_MULTIPROC_DIR": tempfile.mkdtemp(prefix="cardref-bench-metrics-")}))
            urls[mode] = f"http://127.0.0.1:{port}"
        for case in cases:
            check(urls[case.service], case)
        sizes = {c.name: answer_size(urls[c.service], c) for c in cases
                 if c.group == "replay" or c.size_limit}
        print(header)
        print(f"cache: {'Redis ' + redis_url if redis_url else 'in-process (no Redis answered)'}"
              f" · wrk {WRK_THREADS} threads, {args.duration:g} s a run, 32 connections for "
              "req/s, 8 for p50/p99")
        if any(c.cold for c in cases):
            print(f"cold rows: {cold:,} fresh bodies a run ({cold_why})")
        if any(c.group in LONG_GROUPS for c in cases):
            print(f"replay rows: {LONG_CONNECTIONS} connections for req/s and p50/p99, each row "
                  f"run until it completes at least {args.min_requests} requests "
                  f"(up to {LONG_MAX_SECONDS} s); the note says how many")
        rows = measure(cases, urls, args, work)
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=30)
        shutil.rmtree(home, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)
    print_table(rows)
    verdict = print_verdicts(rows, sizes, args.min_requests)
    print_hot_paths(rows, args.profile_requests)
    print(f"\n({time.monotonic() - started:.0f} s)")
    # A measurement, not a gate: the table and verdicts are the output (docs/performance.md
    # says which targets are missed and why); --strict makes a missed target exit 1.
    return 1 if args.strict and not verdict else 0


def cold_count(args, groups: set | None, floor_url: str, work: str) -> tuple[int, str]:
    """(fresh bodies per wrk run of a cold row, why that many): --cold, or COLD_MARGIN times
    the requests the floor answers in one run at 32 connections, measured now (a fixed count
    ran out on a fast machine, and a reused body is a cache hit in a cold row)."""
    if args.cold is not None:
        return args.cold, "--cold"
    if groups is not None and not groups & {"legal-actions", "lookup"}:
        return 2, "no cold rows run"
    floor = wrk(floor_url + "/floor", [b"{}"], {}, 32, args.duration, work)
    count = max(1000, math.ceil(COLD_MARGIN * floor.rps * args.duration / 100) * 100)
    return count, (f"{COLD_MARGIN} × the floor's {floor.rps:,.0f} req/s × {args.duration:g} s, "
                   "measured first")


def long_run(url: str, case: payloads.Case, args, work: str) -> Run:
    """A replay row's one run: at LONG_CONNECTIONS, long enough to complete --min-requests
    requests (a first run of --duration gives the rate; fewer completed, a second run sized
    from it, at most LONG_MAX_SECONDS, is the measurement)."""
    run = wrk(url, case.bodies, case.headers, LONG_CONNECTIONS, args.duration, work)
    drain(run)
    if run.requests < args.min_requests:
        seconds = (math.ceil(1.2 * args.min_requests / run.rps) if run.rps
                   else LONG_MAX_SECONDS)
        run = wrk(url, case.bodies, case.headers, LONG_CONNECTIONS,
                  min(max(seconds, args.duration), LONG_MAX_SECONDS), work)
        drain(run)
    return run


def drain(run: Run) -> None:
    """Wait for the requests wrk left in flight when it stopped (LONG_CONNECTIONS of them at
    most: about a p99's work on each worker, waited twice over), so that the next run
    measures an idle server."""
    time.sleep(min(30.0, 2 * run.p99 / 1000))


def measure(cases, urls, args, work) -> list[dict]:
    """floor, two rows, floor, two rows, …, floor; each row against its two neighbours."""
    floor_body = [b"{}"]
    floors: list[tuple[Run, Run]] = []
    measured: list[tuple[payloads.Case, Run, Run, int]] = []

    def floor_run():
        floors.append((wrk(urls["floor"] + "/floor", floor_body, {}, 32, args.duration, work),
                       wrk(urls["floor"] + "/floor", floor_body, {}, 8, args.duration, work)))

    for i, case in enumerate(cases):
        if i % 2 == 0:
            floor_run()
        url = urls[case.service] + case.path
        if case.group in LONG_GROUPS:
            at32 = at8 = long_run(url, case, args, work)
        else:
            if case.cold:
                half = len(case.bodies) // 2
                bodies32, bodies8 = case.bodies[:half], case.bodies[half:]
            else:
                bodies32 = bodies8 = case.bodies
            at32 = wrk(url, bodies32, case.headers, 32, args.duration, work)
            at8 = wrk(url, bodies8, case.headers, 8, args.duration, work)
        measured.append((case, at32, at8, len(floors) - 1))
        print(f"  {case.group} {case.name}: {at32.rps:.0f} req/s", file=sys.stderr)
    floor_run()
    rows = []
    for case, at32, at8, before in measured:
        around = floors[before], floors[before + 1]
        floor_rps = statistics.mean(f[0].rps for f in around)
        floor_p99 = statistics.mean(f[1].p99 for f in around)
        floor_p50 = statistics.mean(f[1].p50 for f in around)
        notes = [case.note] if case.note else []
        if case.group in LONG_GROUPS:
            notes.append(f"{LONG_CONNECTIONS} connections: {at32.requests} requests")
        if case.cold and max(at32.requests, at8.requests) > len(bodies_of(case)) // 2:
            notes.append("reused: more requests than fresh bodies (raise --cold)")
        errors = at32.errors + (at8.errors if at8 is not at32 else 0)
        if errors:
            notes.append(f"{errors} errors or non-2xx answers")
        rows.append({"case": case, "rps": at32.rps, "p50": at8.p50, "p99": at8.p99,
                     "requests": at32.requests,
                     "floor_rps": floor_rps, "floor_p50": floor_p50, "floor_p99": floor_p99,
                     "ratio": at32.rps / floor_rps if floor_rps else 0.0,
                     "p99_ratio": at8.p99 / floor_p99 if floor_p99 else 0.0,
                     "notes": "; ".join(notes)})
    return rows


def bodies_of(case):
    return case.bodies


def print_table(rows: list[dict]) -> None:
    floor_rps = statistics.median(r["floor_rps"] for r in rows)
    floor_p50 = statistics.median(r["floor_p50"] for r in rows)
    floor_p99 = statistics.median(r["floor_p99"] for r in rows)
    print()
    print("| endpoint | case | req/s @32 | ratio | p50 ms @8 | p99 ms @8 | p99 ratio | note |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    print(f"| floor | constant small JSON (median of its runs) | {floor_rps:,.0f} | 1.00 | "
          f"{floor_p50:.2f} | {floor_p99:.2f} | 1.00 | |")
    for r in rows:
        case = r["case"]
        print(f"| {case.group} | {case.name} | {r['rps']:,.0f} | {r['ratio']:.2f} | "
              f"{r['p50']:.2f} | {r['p99']:.2f} | {r['p99_ratio']:.2f} | {r['notes']} |")


def _find(rows, group, name):
    for r in rows:
        if r["case"].group == group and r["case"].name == name:
            return r
    return None


def print_hot_paths(rows: list[dict], requests: int) -> None:
    """Why a row is below 0.30 of the floor: its requests profiled in process
    (bench/hot_paths.py), the project functions its time goes through."""
    slow = [r for r in rows if r["ratio"] < 0.30]
    if not slow or requests <= 0:
        return
    print(f"\nHot paths of the rows below 0.30 (in process, cProfile, {requests} requests or a "
          "cold row's bodies; share of the row's time, wrappers left out):")
    for r in slow:
        case = r["case"]
        print(f"- {case.group} {case.name}:")
        print("\n".join(hot_paths.lines(case, requests, top=6)))


def print_verdicts(rows: list[dict], sizes: dict[str, int], min_requests: int) -> bool:
    """Each target met or not, by how much. True when all are met."""
    lines, ok = [], True

    def verdict(met: bool, text: str):
        nonlocal ok
        ok = ok and met
        lines.append(f"- {'met' if met else 'NOT MET'}: {text}")

    for r in rows:
        if r["case"].group == "validate" and r["case"].name.endswith(("signed", "sealed")):
            verdict(r["ratio"] >= 0.80 and r["p99_ratio"] <= 1.5,
                    f"validate {r['case'].name}: req/s {r['ratio']:.2f} of the floor (>= 0.80), "
                    f"p99 {r['p99_ratio']:.2f}x (<= 1.5)")
    # "Typical": every row but the deliberately heavy ones (cold enumerations of a whole
    # 27-card hand, long replays, cold costly lookups), which the table lists beside.
    heavy = [r for r in rows if r["ratio"] < 0.30]
    for r in heavy:
        lines.append(f"- below 0.30: {r['case'].group} {r['case'].name} at {r['ratio']:.2f}"
                     + (f" ({r['case'].note})" if r["case"].note else ""))
    short, long_ = (_find(rows, "replay", f"man, {n} actions") for n in payloads.REPLAY_LENGTHS)
    if short and long_:
        n_short, n_long = payloads.REPLAY_LENGTHS
        fewest = min(short["requests"], long_["requests"])
        counts = (f"{short['rps']:,.1f} and {long_['rps']:,.1f} req/s, from "
                  f"{short['requests']} and {long_['requests']} requests")
        if fewest < min_requests or not long_["rps"]:
            lines.append(f"- not judged: replay cost per action ({counts}; fewer than "
                         f"--min-requests {min_requests} within {LONG_MAX_SECONDS} s: the "
                         "machine too busy)")
        else:
            cost = (short["rps"] / long_["rps"]) / (n_long / n_short)
            verdict(cost <= 1.5, f"replay cost per action at {n_long} actions {cost:.2f}x its "
                    f"cost at {n_short} (<= 1.5; {counts})")
        size = (sizes[long_["case"].name] / n_long) / (sizes[short["case"].name] / n_short)
        verdict(size <= 1.5, f"replay answer bytes per action at {n_long} actions {size:.2f}x "
                f"those at {n_short} (<= 1.5; {sizes[short['case'].name]:,} and "
                f"{sizes[long_['case'].name]:,} bytes)")
    for r in rows:
        case = r["case"]
        if case.size_limit and case.name in sizes:
            verdict(sizes[case.name] <= case.size_limit,
                    f"{case.group} {case.name}: {sizes[case.name]:,} bytes on the wire "
                    f"(<= {case.size_limit:,})")
        if case.min_ratio:
            verdict(r["ratio"] >= case.min_ratio, f"{case.group} {case.name}: req/s "
                    f"{r['ratio']:.2f} of the floor (>= {case.min_ratio:.2f})")
        plain = _find(rows, case.group, case.plain_twin) if case.plain_twin else None
        if plain and plain["rps"]:
            lines.append(f"- compression's cost: {case.group} {case.name} at "
                         f"{r['rps']:,.0f} req/s, {r['rps'] / plain['rps']:.2f} of "
                         f"{plain['case'].name}'s {plain['rps']:,.0f} (p50 {r['p50']:.2f} ms "
                         f"against {plain['p50']:.2f})")
    for cold in (r for r in rows if r["case"].cold):
        cached = _find(rows, cold["case"].group, cold["case"].name.replace("cold", "cached"))
        if cached and "reused" in cold["notes"]:
            lines.append(f"- not judged: {cached['case'].name} (its cold row reused bodies, so "
                         "it was partly cached too)")
        elif cached and cold["rps"] > 0:
            speedup = cached["rps"] / cold["rps"]
            verdict(speedup >= 3, f"{cold['case'].group} {cached['case'].name}: "
                    f"{speedup:.1f}x the req/s of computing it (>= 3)")
    print("\nTargets:")
    print("\n".join(lines))
    return ok


if __name__ == "__main__":
    sys.exit(main())
