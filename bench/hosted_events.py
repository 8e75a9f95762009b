"""`make bench`'s hosted-events rows (docs/hosted-events.md, docs/performance.md): a table's
push, the public view of a 200-entrant event, and 50 tables pushing a move a second each.

The event: 200 entrants of Daifugo at tables of 4 (50 tables), 4 deals a round with the same
deals at every table (`same_deals`: the table page pushes its record after every action, its
deals' seeds known), two rounds played and closed with a record at every table (the document
about 4 MB), the third round open, every table's record part-way through its deals. The
records are random legal matches (tests/records.py), one per round made once and given to
every table under its seat ids.

The rows, each against the floor (bench/floor_app.py under the same gunicorn: 2 gevent
workers, service/gunicorn_conf.py), measured just before and after the row as bench/endpoints.py
measures its rows (wrk, 32 connections for req/s, 8 for p50/p99):
- the floor after one Redis script (bench/floor_app.py `/floor/store`): what a durable write
  costs by itself, the ceiling of any push that keeps what it is sent (no target);
- push: as a table page pushes once its first push (the whole record, PUT
  …/tables/{t}/result, made before the run) is in: appends (POST …/tables/{t}/record), each
  one action and the new digest, naming the end the last left; the tables taken in turn
  (each wrk thread its own tables, so a table's next push follows its last, though not
  always on the same worker: a page keeps its connection, wrk's threads share theirs, and a
  worker that did not see a table's last push reads its record from Redis); the req/s ratio
  against the floor, target >= 0.5; and the same pushes with each table on a connection
  (and a wrk thread) of its own, 50 connections: a phone keeping its connection to the
  laptop, every push of a table on the worker that took its last (no target);
- public view: GET /v1/events/{id} of the event at one version (cached by version, its
  compressed bodies beside it), plain and br, target >= 0.5 of the floor; and a closed round's
  table's whole record (GET …/rounds/1/tables/1/record), cached the same way;
- view-new: a new version's view, what a spectator's poll costs while tables push: one
  table's push (its record one action longer, the tables in turn), then the view's GET (a new
  version: built, not found cached), --builds times; the service's CPU ms over each GET (the
  build), mean and median, and the push's beside it;
- 50 tables: one thread per table, each appending one action to its record once a second
  (as a table page does, with an Idempotency-Key, one push in flight, the base its last
  answer named), for --seconds; the
  latency of every push, p50 and p99 printed against 50 ms. The public view is not read
  meanwhile (a row of its own).

The event lives in the Redis CARDREF_REDIS_URL names, else database 13 of 127.0.0.1:6379 (the
bench's, as bench/endpoints.py), and is deleted at the end.

Usage: python bench/hosted_events.py [--duration 2] [--seconds 20] [--tables 50]
                                    [--rows push,view,view-new,tables] [--builds 60]
Needs `wrk` (Debian: apt-get install wrk) and a Redis.
"""
from __future__ import annotations

import argparse
import datetime
import os
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.endpoints import BENCH_REDIS, WRK_THREADS, machine  # noqa: E402
from bench.validate_vs_floor import start_gunicorn  # noqa: E402
from tests.records import pushed, pushed_actions, random_record, record_append  # noqa: E402
from tests.redis_server import answers, free_port  # noqa: E402

GAME = "daifugo"
TABLE_SIZE = 4
DEALS = 4
DIRECTOR_KEY = "bench-director-key"
PLACEHOLDER = "zzseat"  # a template record's seat ids: zzseat0 … (no card or key reads so)
P99_TARGET_MS = 50.0
RATIO_TARGET = 0.5
STORE_FLOOR_ROW = "the floor after one Redis script (any durable push's own ceiling)"
OWN_CONNECTION_ROW = "push, each table on a connection of its own (no catching up)"
DIAGNOSTIC_ROWS = (STORE_FLOOR_ROW, OWN_CONNECTION_ROW)  # no target


# ------------------------------------------------------------------ the event

def document(entrants: int, rounds: int) -> dict[str, Any]:
    return {"format": "card-referee/event", "format_version": 1, "name": "Bench Open",
            "system": {"game": GAME, "table_size": TABLE_SIZE, "rounds": rounds,
                       "round_end": {"kind": "deals", "deals": DEALS}, "same_deals": DEALS,
                       "event_points": [3, 2, 1, 0], "partners": "none", "seating": "swiss"},
            "entrants": [{"id": f"p{i}", "name": f"Player {i}"} for i in range(entrants)]}


def template(seeds: list[dict[str, Any]], seed: int) -> dict[str, Any]:
    """A whole random match of the round's same deals, seated zzseat0 …: every table's."""
    return random_record(GAME, random.Random(seed), deals=DEALS, physical=0.0, comments=0.0,
                         ledger=0.0, players=[f"{PLACEHOLDER}{i}" for i in range(TABLE_SIZE)],
                         seeds=[(s["seed"], s["seed_salt"]) for s in seeds])


def seated(record: dict[str, Any], seats: list[str]) -> dict[str, Any]:
    """The template under a table's seat ids (its digest made again)."""
    from engine import records

    text = orjson.dumps(record).decode()
    for i, seat in enumerate(seats):
        text = text.replace(f"{PLACEHOLDER}{i}", seat)
    out: dict[str, Any] = orjson.loads(text)
    if "digest" in out:
        out["digest"] = records.digest(out)
    return out


def with_digest(record: dict[str, Any]) -> dict[str, Any]:
    """The record with its digest, as a table page pushes it every time."""
    from engine import records

    return {**record, "digest": records.digest(record)}


def end_key(record: dict[str, Any]) -> str:
    """The key of the record's end (hex), as a push's answer names it."""
    from engine import records

    canonical = records._canonical({k: v for k, v in record.items() if k != "digest"})
    last = canonical["deals"][-1]
    key = records.prefix_keys(canonical)[len(canonical["deals"]) - 1, len(last["actions"])]
    if last.get("result") is not None:
        key = records._chain(key, b"R", last["result"])
    return key.hex()


def append_body(whole: dict[str, Any], n: int, base: str | None = None) -> dict[str, Any]:
    """The append that takes the table's record from n − 1 actions to n (`base`: the end the
    last push's answer named, else the key of the record at n − 1)."""
    before, after = with_digest(pushed(whole, n - 1)), with_digest(pushed(whole, n))
    return {**record_append(before, after), "base": base or end_key(before)}


def seat_ids(table: dict[str, Any]) -> list[str]:
    return [s.get("substitute", {}).get("id") or s["entrant"] for s in table["seats"]]


class Client:
    """The service over HTTP (urllib, one connection per request: what a phone does)."""

    def __init__(self, url: str):
        self.url = url

    def call(self, method: str, path: str, body: Any = None, token: str | None = None,
             **headers: str) -> tuple[int, Any, dict[str, str]]:
        data = None if body is None else orjson.dumps(body)
        sent = {"Content-Type": "application/json", **headers}
        if token:
            sent["Authorization"] = f"Bearer {token}"
        req = urllib.request.Request(self.url + path, data=data, method=method, headers=sent)
        try:
            with urllib.request.urlopen(req, timeout=60) as answer:
                return answer.status, orjson.loads(answer.read() or b"null"), dict(answer.headers)
        except urllib.error.HTTPError as err:
            return err.code, orjson.loads(err.read() or b"null"), dict(err.headers)


class Event:
    """The bench's event, run through the API as a venue runs it: created, `closed` rounds
    started, every table's whole record pushed, closed; then the next round started, each
    table's token and seat ids and the round's whole record per table kept for the rows."""

    def __init__(self, client: Client, entrants: int = 200, closed: int = 2):
        self.client = client
        status, body, _ = client.call("POST", "/v1/events", document(entrants, closed + 2),
                                      DIRECTOR_KEY)
        assert status == 201, (status, body)
        self.id, self.director, self.version = body["id"], body["director_token"], body["version"]
        for _ in range(closed):
            self.start_round()
            for table in self.tokens:
                self.push(table, pushed_actions(self.records[table]))
            self.ok(self.change("POST", f"/rounds/{self.round}/close"))
        self.start_round()

    def change(self, method: str, path: str, body: Any = None) -> tuple[int, Any, dict]:
        return self.client.call(method, f"/v1/events/{self.id}{path}", body, self.director,
                                **{"If-Match": f'"{self.version}"'})

    def ok(self, answer: tuple[int, Any, dict]) -> Any:
        status, body, _ = answer
        assert status == 200, (status, body)
        self.version = body["version"]
        return body

    def start_round(self) -> None:
        body = self.ok(self.change("POST", "/rounds", {}))
        self.round = body["round"]
        self.tokens = {t["number"]: t["token"] for t in body["tables"]}
        status, deals, _ = self.client.call(
            "GET", f"/v1/events/{self.id}/rounds/{self.round}/deals", token=self.director)
        assert status == 200, (status, deals)
        status, shown, _ = self.client.call("GET", f"/v1/events/{self.id}")
        assert status == 200, (status, shown)
        tables = shown["event"]["rounds"][self.round - 1]["tables"]
        whole = template(deals["deals"], seed=self.round)
        self.records = {t["number"]: seated(whole, seat_ids(t)) for t in tables}

    def path(self, table: int) -> str:
        return f"/v1/events/{self.id}/rounds/{self.round}/tables/{table}/result"

    def append_path(self, table: int) -> str:
        return f"/v1/events/{self.id}/rounds/{self.round}/tables/{table}/record"

    def push(self, table: int, actions: int, key: str | None = None) -> str:
        """The table's whole record at `actions` actions pushed; the end its answer names."""
        headers = {"Idempotency-Key": key} if key else {}
        status, body, _ = self.client.call(
            "PUT", self.path(table), {"record": with_digest(pushed(self.records[table],
                                                                   actions))},
            self.tokens[table], **headers)
        assert status == 200, (status, body)
        self.version = max(self.version, body["version"])
        return str(body["end"]["key"])


# ------------------------------------------------------------------ the rows

_PUSH_LUA = """
wrk.headers["Content-Type"] = "application/json"
-- the file: per table "P <path> <token> <end key of its whole push>", then per append
-- "E <end key after it>" and its body
local tables, owner, key = {}, {}, nil
for line in io.lines("{bodies}") do
  local kind = string.sub(line, 1, 2)
  if kind == "P " then
    local path, token, first = string.match(line, "^P (%S+) (%S+) (%x+)$")
    tables[#tables + 1] = {path = path, auth = "Bearer " .. token, bodies = {}}
    owner[first] = {#tables, 0}
  elseif kind == "E " then
    key = string.sub(line, 3)
  else
    local t = tables[#tables]
    t.bodies[#t.bodies + 1] = line
    owner[key] = {#tables, #t.bodies}
  end
end
local count = 0
function setup(thread)
  thread:set("tid", count)
  count = count + 1
end
-- thread t pushes tables t+1, t+1+T, ...: as a page does, one push of a table in flight, the
-- next from the end its answer names (a 409's `end` too: then the push after the stored end)
local mine, next, busy, turn = nil, {}, {}, 0
function request()
  if mine == nil then
    mine = {}
    for i = (tid or 0) + 1, #tables, {threads} do
      mine[#mine + 1] = i
      next[i], busy[i] = 1, false
    end
  end
  local chosen = nil
  for _ = 1, #mine do
    turn = turn % #mine + 1
    local i = mine[turn]
    if not busy[i] and next[i] <= #tables[i].bodies then chosen = i break end
  end
  chosen = chosen or mine[turn]  -- every table busy (or done): one more in flight
  busy[chosen] = true
  local t = tables[chosen]
  local body = t.bodies[math.min(next[chosen], #t.bodies)]
  -- headers given replace wrk.headers: the content type too
  return wrk.format("POST", t.path, {["Authorization"] = t.auth,
                                     ["Content-Type"] = "application/json"}, body)
end
function response(status, headers, body)
  local key = string.match(body, '"key":"(%x+)"') or string.match(body, '"end":"(%x+)"')
  local found = key and owner[key]
  if found then
    next[found[1]] = found[2] + 1
    busy[found[1]] = false
  end
end
"""

_GET_LUA = """
wrk.method = "GET"
{headers}
"""


def wrk_run(url: str, script: str, connections: int, duration: float, work: str,
            threads: int = WRK_THREADS) -> Any:
    """One wrk run of a Lua script (bench/endpoints.py's parsing of its output)."""
    import re
    import subprocess

    from bench.endpoints import Run, _ms

    path = os.path.join(work, "hosted.lua")
    with open(path, "w") as f:
        f.write(script)
    out = subprocess.run(["wrk", "-t", str(threads), "-c", str(connections),
                          "-d", f"{duration}s", "--timeout", "10s", "--latency", "-s", path, url],
                         capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50 = re.search(r"50%\s+([\d.]+)(us|ms|s)", out)
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    errors = sum(int(m) for m in re.findall(r"Non-2xx or 3xx responses: (\d+)", out))
    return Run(rps, _ms(*p50.groups()), _ms(*p99.groups()), requests, errors)


def floor_run(floor_url: str, duration: float, work: str) -> Any:
    from bench.endpoints import wrk

    return wrk(floor_url + "/floor", [b"{}"], {}, 32, duration, work)


def push_bodies(ev: Event, start: int, count: int, path: str) -> int:
    """Each table's whole record pushed at `start` actions (its page's first push), then its
    path, token and end, and the appends to start+1 … start+count actions (a push each, the
    end it leaves before it) written for _PUSH_LUA; the appends written."""
    written = 0
    with open(path, "wb") as f:
        for table, token in sorted(ev.tokens.items()):
            whole = ev.records[table]
            last = pushed_actions(whole)
            first = ev.push(table, start)
            f.write(f"P {ev.append_path(table)} {token} {first}\n".encode())
            for n in range(start + 1, min(start + count, last) + 1):
                f.write(f"E {end_key(with_digest(pushed(whole, n)))}\n".encode())
                f.write(orjson.dumps(append_body(whole, n)) + b"\n")
                written += 1
    return written


def fifty_tables(ev: Event, url: str, start: int, seconds: float, tables: int,
                 ends: dict[int, str]) -> tuple[list[float], list[str]]:
    """One thread per table, each appending one action to its record once a second (one
    push in flight, an Idempotency-Key each, the base its last answer named — `ends` at
    first —, a kept-alive connection as a browser keeps it); every push's latency in ms, and
    what each push not answered 200 got."""
    import http.client
    from urllib.parse import urlparse

    where = urlparse(url)
    latencies: list[float] = []
    failures: list[str] = []
    lock = threading.Lock()
    chosen = sorted(ev.tokens)[:tables]
    # each push's body made beforehand (its base put in from the last answer), not while the
    # tables push: the bench's own work is not the service's latency
    made = {table: [append_body(ev.records[table], n, base="-")
                    for n in range(start + 1, min(start + int(seconds) + 2,
                                                  pushed_actions(ev.records[table])) + 1)]
            for table in chosen}
    begin = time.monotonic() + 1.0

    def table_loop(table: int) -> None:
        bodies = made[table]
        base = ends[table]
        conn = http.client.HTTPConnection(where.hostname, where.port, timeout=30)
        # tables start spread over the first second, as phones do
        due = begin + (table % tables) / tables
        for k, body in enumerate(bodies):
            if due - begin >= seconds:
                break
            time.sleep(max(0.0, due - time.monotonic()))
            sent = time.monotonic()
            try:
                conn.request("POST", ev.append_path(table),
                             body=orjson.dumps({**body, "base": base}), headers={
                    "Content-Type": "application/json",
                    "Authorization": f"Bearer {ev.tokens[table]}",
                    "Idempotency-Key": f"bench-{ev.id}-{table}-{start + k + 1}"})
                answer = conn.getresponse()
                said = answer.read()
                outcome = str(answer.status)
                if answer.status == 200:
                    base = orjson.loads(said)["end"]["key"]
            except OSError as err:  # counted, and the push's latency counts as the wait
                outcome = type(err).__name__
                conn.close()
                conn = http.client.HTTPConnection(where.hostname, where.port, timeout=30)
            took = (time.monotonic() - sent) * 1000
            with lock:
                latencies.append(took)
                if outcome != "200":
                    failures.append(outcome)
            due += 1.0
        conn.close()

    threads = [threading.Thread(target=table_loop, args=(t,)) for t in chosen]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, failures


def drain(run: Any) -> None:
    """Wait for the requests wrk left in flight (bench/endpoints.py drain)."""
    time.sleep(min(30.0, 2 * run.p99 / 1000))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--duration", type=int, default=2, help="seconds of each wrk run")
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="seconds the tables push a move a second each")
    parser.add_argument("--tables", type=int, default=50, help="tables pushing at once")
    parser.add_argument("--entrants", type=int, default=200)
    parser.add_argument("--rows", default="push,view,view-new,tables",
                        help="the rows to run, comma-separated: push, view, view-new (a new "
                             "version's view after each push), tables (50 tables pushing)")
    parser.add_argument("--builds", type=int, default=60,
                        help="view-new: the pushes each followed by the view's GET")
    parser.add_argument("--worker-class",
                        default=os.environ.get("CARDREF_WORKER_CLASS") or "gevent")
    args = parser.parse_args()
    wanted = {r.strip() for r in args.rows.split(",") if r.strip()}
    if not wanted or wanted - {"push", "view", "view-new", "tables"}:
        parser.error("--rows takes push, view, view-new and tables, comma-separated")
    if not shutil.which("wrk"):
        print("the hosted-events bench needs wrk: apt-get install wrk", file=sys.stderr)
        return 2
    redis_url = os.environ.get("CARDREF_REDIS_URL") or BENCH_REDIS
    if not answers(redis_url):
        print(f"the hosted-events bench needs a Redis ({redis_url} does not answer)",
              file=sys.stderr)
        return 2
    started = time.monotonic()
    home = tempfile.mkdtemp(prefix="cardref-bench-")
    work = tempfile.mkdtemp(prefix="cardref-bench-wrk-")
    base_env = {**os.environ, "HOME": home, "CARDREF_ACCESS_LOG": "",
                "CARDREF_WORKER_CLASS": args.worker_class, "CARDREF_LOG_LEVEL": "WARNING",
                "CARDREF_REDIS_URL": redis_url, "CARDREF_CACHE_TTL_SECONDS": "900",
                "CARDREF_DIRECTOR_KEYS": DIRECTOR_KEY}
    servers = []
    ev = None
    try:
        port = free_port()
        servers.append(start_gunicorn("floor_app:app", port,
                                      {**base_env, "PYTHONPATH": str(ROOT / "bench")}))
        floor_url = f"http://127.0.0.1:{port}"
        port = free_port()
        servers.append(start_gunicorn("service.wsgi:app", port, {
            **base_env,
            "PROMETHEUS_MULTIPROC_DIR": tempfile.mkdtemp(prefix="cardref-bench-metrics-")}))
        url = f"http://127.0.0.1:{port}"
        print(f"building a {args.entrants}-entrant event (two rounds played through the "
              "API)…", file=sys.stderr)
        ev = Event(Client(url), entrants=args.entrants)
        start = 100  # every table part-way through its round
        ends = {table: ev.push(table, start) for table in ev.tokens}
        print(f"{datetime.date.today().isoformat()} · {machine()} · gunicorn 2 × "
              f"{args.worker_class} workers · Redis {redis_url}")
        print(f"event: {args.entrants} entrants of {GAME}, {len(ev.tokens)} tables, round "
              f"{ev.round} open (two rounds of records closed), each table's record at "
              f"{start} actions of about {pushed_actions(ev.records[1])}")
        fifty, p99, failures = None, 0.0, []
        if "tables" in wanted:
            # (c) 50 tables pushing a move a second each
            print(f"\n{args.tables} tables pushing a move a second each for {args.seconds:g} "
                  "s…", file=sys.stderr)
            latencies, failures = fifty_tables(ev, url, start, args.seconds, args.tables, ends)
            p50, p99 = percentile(latencies, 0.50), percentile(latencies, 0.99)
            fifty = (f"{args.tables} tables, a push a second each for {args.seconds:g} s: "
                     f"{len(latencies)} pushes, p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
                     f"max {max(latencies):.1f} ms"
                     + (f"; {len(failures)} not answered 200 "
                        f"({', '.join(sorted(set(failures)))})" if failures else ""))
            start += int(args.seconds) + 2
        built = None
        if "view-new" in wanted:
            built = new_view_row(ev, url, start, args.builds, servers)
            start += (args.builds + 8) // len(ev.tokens) + 2
        rows = []
        if "push" in wanted:
            push_row(ev, url, floor_url, start, args.duration, work, rows, servers)
        if "view" in wanted:
            view_rows(ev, url, floor_url, args.duration, work, rows, servers)

        print()
        print("| row | req/s @32 | floor req/s | ratio | p50 ms | p99 ms | note |")
        print("|---|---:|---:|---:|---:|---:|---|")
        for name, run, floor, note in rows:
            errors = f"; {run.errors} non-2xx" if run.errors else ""
            print(f"| {name} | {run.rps:,.0f} | {floor:,.0f} | {run.rps / floor:.2f} | "
                  f"{run.p50:.1f} | {run.p99:.1f} | {note}{errors} |")

        if fifty is not None:
            print(f"\n{fifty}")
        if built is not None:
            print(f"\n{built}")
        print("\nTargets:")
        for name, run, floor, _ in rows:
            if name in DIAGNOSTIC_ROWS:
                continue
            ratio = run.rps / floor
            print(f"- {'met' if ratio >= RATIO_TARGET else 'NOT MET'}: {name} at {ratio:.2f} "
                  f"of the floor (>= {RATIO_TARGET})")
        if fifty is not None:
            print(f"- {'met' if p99 < P99_TARGET_MS and not failures else 'NOT MET'}: "
                  f"{args.tables} tables' pushes p99 {p99:.1f} ms (< {P99_TARGET_MS:g})"
                  + (f", {len(failures)} failed" if failures else ""))
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=30)
        if ev is not None:
            import redis

            store = redis.Redis.from_url(redis_url)
            for key in store.scan_iter(f"cardref:ev:{{{ev.id}}}*"):
                store.delete(key)
        shutil.rmtree(home, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)
    print(f"\n({time.monotonic() - started:.0f} s)")
    return 0


def push_row(ev: Event, url: str, floor_url: str, start: int, duration: float, work: str,
             rows: list, servers: list) -> None:
    """(a) a table's push, the record one action longer (from `start` actions): its row added
    to `rows`, and two diagnostic rows: the same pushes with each table on a connection of its
    own, and the floor after one Redis script."""
    from bench.cpu_per_request import _cpu_seconds, _tree
    from bench.endpoints import wrk

    floor_pids, service_pids = _tree(servers[0].pid), _tree(servers[1].pid)
    redis_pids = [redis_pid(ev)]

    def pushes(at: int, threads: int, connections: int = 32) -> tuple[Any, str]:
        """One wrk run of the tables' appends from `at` actions (to each record's end), its
        tables shared by `threads` threads over `connections`: the run and its note (its CPU
        time a request)."""
        bodies = os.path.join(work, f"push-{at}.txt")
        written = push_bodies(ev, at, 10_000, bodies)
        spent, stored = _cpu_seconds(service_pids), _cpu_seconds(redis_pids)
        run = wrk_run(url, _PUSH_LUA.replace("{bodies}", bodies).replace(
            "{threads}", str(threads)), connections, duration, work, threads)
        cpu = (_cpu_seconds(service_pids) - spent) * 1e6 / max(1, run.requests)
        redis_cpu = (_cpu_seconds(redis_pids) - stored) * 1e6 / max(1, run.requests)
        drain(run)
        note = "" if run.requests <= written else "; some tables ran out of appends (the " \
                                                  "last sent again: 409 record_base_mismatch)"
        return run, (f"CPU {cpu:,.0f} µs a request (Redis {redis_cpu:,.0f} more), the floor's "
                     f"{{floor_cpu:,.0f}}: {{ratio:.2f}} by CPU time{note}", cpu)

    spent = _cpu_seconds(floor_pids)
    before = floor_run(floor_url, duration, work)
    floor_cpu = (_cpu_seconds(floor_pids) - spent) * 1e6 / max(1, before.requests)
    shared, (shared_note, shared_cpu) = pushes(start, WRK_THREADS)
    # a thread and a connection per table: a table's pushes reach the worker that took its
    # last (a phone keeping its connection, no proxy between): no catching up
    own, (own_note, own_cpu) = pushes(start, len(ev.tokens), len(ev.tokens))  # pushed whole first
    after = floor_run(floor_url, duration, work)
    floor = statistics.mean([before.rps, after.rps])
    # what a durable write costs by itself: the floor answering after one Redis script
    stored = wrk(floor_url + "/floor/store", [b"{}"], {}, 32, duration, work)
    rows.append((STORE_FLOOR_ROW, stored,
                 floor, "bench/floor_app.py /floor/store: no token, no check, one write"))
    rows.append((OWN_CONNECTION_ROW, own, floor, own_note.format(
        floor_cpu=floor_cpu, ratio=floor_cpu / own_cpu)))
    rows.append(("push: a table's record one action longer (appended)", shared, floor,
                 f"{len(ev.tokens)} tables in turn over shared connections; "
                 + shared_note.format(floor_cpu=floor_cpu, ratio=floor_cpu / shared_cpu)))


def redis_pid(ev: Event) -> int:
    """The pid of the Redis the event lives in (its CPU is counted beside the service's when
    it runs on this machine), from INFO."""
    import redis

    url = os.environ.get("CARDREF_REDIS_URL") or BENCH_REDIS
    return int(redis.Redis.from_url(url).info("server")["process_id"])


def new_view_row(ev: Event, url: str, start: int, builds: int, servers: list) -> str:
    """(d) a new version's view: one table's push (its record one action longer, the tables
    in turn from `start` actions), then GET the view — at a version no worker has built —
    `builds` times (after a few not counted: each worker's first view of the event is built
    whole), one request at a time; the service's CPU time (its gunicorn processes'
    utime + stime, bench/cpu_per_request.py) over each GET and over each push. The line to
    print."""
    from bench.cpu_per_request import _cpu_seconds, _tree

    pids = _tree(servers[1].pid)
    tables = sorted(ev.tokens)
    gets: list[float] = []
    pushes: list[float] = []
    size = 0
    warm = 8  # each worker's first build reads every table: not what a poll costs after
    for k in range(warm + builds):
        table = tables[k % len(tables)]
        spent = _cpu_seconds(pids)
        ev.push(table, start + 1 + k // len(tables))
        between = _cpu_seconds(pids)
        status, body, _ = ev.client.call("GET", f"/v1/events/{ev.id}")
        done = _cpu_seconds(pids)
        assert status == 200 and body["version"] == ev.version, (status, body.get("version"))
        size = len(orjson.dumps(body))
        if k >= warm:
            pushes.append((between - spent) * 1000)
            gets.append((done - between) * 1000)
    return (f"a new version's view ({builds} builds, each after one table's push, one request "
            f"at a time): CPU {statistics.mean(gets):.1f} ms a build (median "
            f"{statistics.median(gets):.1f}, the CPU clock's tick 10 ms), the push's "
            f"{statistics.mean(pushes):.1f} ms; the view {size:,} bytes")


def view_rows(ev: Event, url: str, floor_url: str, duration: float, work: str,
              rows: list, servers: list) -> None:
    """(b) the public view at one version, plain and br, and a closed round's table's whole
    record: their rows added to `rows`, each with its answer's size and its CPU time a request
    against the floor's (the gunicorn processes' utime + stime over the requests wrk counted,
    as bench/cpu_per_request.py measures it: the ratio that holds still when neighbours load
    the machine, which req/s does not). `servers`: the floor's gunicorn, the service's."""
    from bench.cpu_per_request import _cpu_seconds, _tree

    floor_pids, service_pids = _tree(servers[0].pid), _tree(servers[1].pid)

    def timed(pids: list[int], run) -> tuple[Any, float]:
        """wrk's run and the CPU µs a request it cost `pids`."""
        spent = _cpu_seconds(pids)
        done = run()
        return done, (_cpu_seconds(pids) - spent) * 1e6 / max(1, done.requests)

    paths = [("public view, cached", f"/v1/events/{ev.id}"),
             ("a closed table's record, cached", f"/v1/events/{ev.id}/rounds/1/tables/1/record")]
    for label, path in paths:
        ev.client.call("GET", path)  # made once: then cached by version
        for name, headers in (("plain", ""),
                              ("br", 'wrk.headers["Accept-Encoding"] = "gzip, deflate, br, zstd"')):
            before, floor_cpu = timed(floor_pids,
                                      lambda: floor_run(floor_url, duration, work))
            view, cpu = timed(service_pids, lambda: wrk_run(
                url + path, _GET_LUA.format(headers=headers), 32, duration, work))
            drain(view)
            after = floor_run(floor_url, duration, work)
            size = len(urllib.request.urlopen(urllib.request.Request(
                url + path, headers={"Accept-Encoding": "gzip, deflate, br, zstd"}
                if name == "br" else {}), timeout=60).read())
            rows.append((f"{label} ({name})", view, statistics.mean([before.rps, after.rps]),
                         f"{size:,} bytes; CPU {cpu:,.0f} µs a request, the floor's "
                         f"{floor_cpu:,.0f}: {floor_cpu / cpu:.2f} by CPU time"))


if __name__ == "__main__":
    sys.exit(main())
