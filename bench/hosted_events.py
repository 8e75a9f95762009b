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
- push: PUT …/tables/{t}/result, each request one table's record grown by one action, the
  tables taken in turn (each wrk thread its own tables, so a table's next push follows its
  last); the req/s ratio against the floor, target >= 0.5;
- public view: GET /v1/events/{id} of the event at one version (cached by version), target >=
  0.5 of the floor;
- 50 tables: one thread per table, each pushing its record grown by one action once a second
  (as a table page does, with an Idempotency-Key, one push in flight), for --seconds; the
  latency of every push, p50 and p99 printed against 50 ms. The public view is not read
  meanwhile (a row of its own).

The event lives in the Redis CARDREF_REDIS_URL names, else database 13 of 127.0.0.1:6379 (the
bench's, as bench/endpoints.py), and is deleted at the end.

Usage: python bench/hosted_events.py [--duration 2] [--seconds 20] [--tables 50]
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
from tests.records import random_record  # noqa: E402
from tests.redis_server import answers, free_port  # noqa: E402

GAME = "daifugo"
TABLE_SIZE = 4
DEALS = 4
DIRECTOR_KEY = "bench-director-key"
PLACEHOLDER = "zzseat"  # a template record's seat ids: zzseat0 … (no card or key reads so)
P99_TARGET_MS = 50.0
RATIO_TARGET = 0.5


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


def prefix(record: dict[str, Any], actions: int) -> dict[str, Any]:
    """The record as a table page pushes it after its first `actions` actions: the deals
    begun, the last one's actions so far (its result once finished), the match's totals and
    digest only once every deal is finished."""
    from engine import records

    deals, left = [], actions
    for entry in record["deals"]:
        if left <= 0:
            break
        taken = entry["actions"][:left]
        left -= len(taken)
        deal = {"deal": entry["deal"], "actions": taken}
        if len(taken) == len(entry["actions"]):
            deal["result"] = entry["result"]
        deals.append(deal)
    out = {k: v for k, v in record.items() if k not in ("deals", "totals", "digest")}
    out["deals"] = deals
    if len(deals) == len(record["deals"]) and all("result" in d for d in deals):
        out["totals"] = record["totals"]
        out["digest"] = records.digest(out)
    return out


def actions_of(record: dict[str, Any]) -> int:
    return sum(len(d["actions"]) for d in record["deals"])


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
                self.push(table, actions_of(self.records[table]))
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

    def push(self, table: int, actions: int, key: str | None = None) -> None:
        headers = {"Idempotency-Key": key} if key else {}
        status, body, _ = self.client.call(
            "PUT", self.path(table), {"record": prefix(self.records[table], actions)},
            self.tokens[table], **headers)
        assert status == 200, (status, body)
        self.version = max(self.version, body["version"])
