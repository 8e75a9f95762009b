"""Fault drills of a hosted event (docs/hosted-events.md, "Failure behaviour"), through HTTP
against the real service under gunicorn and real Redis servers, as a venue meets them: the
service restarted mid-round while the tables keep pushing, the Redis replaced by its replica
promoted (what is kept, and what asynchronous replication does not promise), and two table
pages pushing the same entry at once. After each: nothing lost, nothing counted twice, and the
event document still checks clean (engine.events.check)."""
from __future__ import annotations

import http.client
import json
import random
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest
import redis

from engine.events import parse_event, verify_seating
from engine.events.check import check_event
from engine.events.format import seat_ids
from tests.events.helpers import event
from tests.records import random_record
from tests.redis_server import RedisProcess
from tests.service.serving import gunicorn_service
from tests.table.relay import Relay

pytestmark = pytest.mark.drill  # real servers started, stopped and killed: not in make test-fast

DIRECTOR_KEY = "drills-director-key"


def call(base: str, method: str, path: str, body: dict | None = None, token: str | None = None,
         **headers: str) -> tuple[int, dict, dict]:
    """(status, the answer's JSON, its headers); (0, {}, {}) when nothing answered."""
    data = None if body is None else json.dumps(body).encode()
    sent = {"Content-Type": "application/json"} if data is not None else {}
    sent.update({k.replace("_", "-"): v for k, v in headers.items()})
    if token:
        sent["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(base + path, data=data, headers=sent, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as resp:
            raw = resp.read()
            return resp.status, json.loads(raw) if raw else {}, dict(resp.headers)
    except urllib.error.HTTPError as err:
        raw = err.read()
        return err.code, json.loads(raw) if raw else {}, dict(err.headers)
    except (urllib.error.URLError, http.client.HTTPException, ConnectionError, TimeoutError):
        return 0, {}, {}


def ok(answer: tuple[int, dict, dict], status: int = 200) -> dict:
    assert answer[0] == status, answer
    return answer[1]


class Event:
    """A Daifugo event of 16 entrants at 4 tables of 4, made and run by its director over HTTP."""

    def __init__(self, base: str, rounds: int = 2):
        self.base = base
        made = ok(call(base, "POST", "/v1/events",
                       event(16, rounds=rounds, seating="swiss",
                             round_end={"kind": "deals", "deals": 4}), DIRECTOR_KEY), 201)
        self.id, self.director, self.version = made["id"], made["director_token"], made["version"]
        self.tables: dict[int, str] = {}

    def change(self, method: str, path: str, body: dict | None = None, **headers: str) -> dict:
        done = ok(call(self.base, method, f"/v1/events/{self.id}{path}", body, self.director,
                       If_Match=f'"{self.version}"', **headers))
        self.version = done["version"]
        return done

    def start_round(self) -> dict:
        started = self.change("POST", "/rounds", {})
        self.tables = {t["number"]: t["token"] for t in started["tables"]}
        return started

    def document(self) -> dict:
        return ok(call(self.base, "GET", f"/v1/events/{self.id}/document", token=self.director))

    def public(self) -> dict:
        return ok(call(self.base, "GET", f"/v1/events/{self.id}"))

    def push(self, number: int, table: int, result: dict, key: str | None = None,
             token: str | None = None) -> tuple[int, dict, dict]:
        headers = {"Idempotency_Key": key} if key else {}
        return call(self.base, "PUT", f"/v1/events/{self.id}/rounds/{number}/tables/{table}/result",
                    result, token or self.tables[table], **headers)


def records_for(doc: dict, number: int, seed: int, deals: int = 3) -> dict[int, list[dict]]:
    """Each table's record as its page pushes it: after its first deal, its second, … (each
    push the whole record so far, replacing the last)."""
    out = {}
    for table in parse_event(doc).rounds[number - 1].tables:
        whole = random_record("daifugo", random.Random(seed * 100 + table.number), deals=deals,
                              physical=0.0, comments=0.0, ledger=0.0, players=seat_ids(table))
        steps = []
        for k in range(1, len(whole["deals"]) + 1):
            part = {**whole, "deals": whole["deals"][:k]}
            part.pop("digest", None)
            part.pop("totals", None)
            steps.append({"record": part})
        out[table.number] = steps
    return out


def stored(doc: dict, number: int, table: int) -> dict:
    return next(t for t in doc["rounds"][number - 1]["tables"] if t["number"] == table)["result"]


def assert_checks_clean(doc: dict) -> None:
    checked = check_event(doc)
    assert checked["consistent"], checked["discrepancy"]


def deals_played(public: dict, number: int) -> dict[int, int]:
    rnd = public["event"]["rounds"][number - 1]
    return {t["number"]: t["result"]["progress"]["deals_finished"] for t in rnd["tables"]
            if "result" in t}


# ------------------------------------------------------------------ the service restarted

def test_the_service_restarted_mid_round_loses_no_push_and_counts_none_twice(
        tmp_path: Path, redis_url: str):
    """Four tables push their records deal after deal, each push with its Idempotency-Key and
    sent again with it until answered, as the table page does, while the service is stopped
    and a new one started over the same Redis (behind the same address: a relay, as a load
    balancer or the venue's laptop keeps it). Every push is made exactly once."""
    env = dict(CARDREF_REDIS_URL=redis_url, CARDREF_DIRECTOR_KEYS=DIRECTOR_KEY,
               CARDREF_ACCESS_LOG="off")
    relay = Relay("http://127.0.0.1:1")  # pointed at the service once it runs
    pushes_made = threading.Semaphore(0)
    failures: list = []
    answered: dict[int, list[dict]] = {}
    for name in ("first", "second"):
        (tmp_path / name).mkdir()

    def table_page(ev: Event, number: int, table: int, steps: list[dict]) -> None:
        answered[table] = []
        for result in steps:
            key = str(uuid.uuid4())
            deadline = time.monotonic() + 60
            while True:  # the page's queue: the same push, the same key, until answered
                status, body, _ = ev.push(number, table, result, key)
                if status == 200:
                    answered[table].append(body)
                    break
                if status not in (0, 502, 503) or time.monotonic() > deadline:
                    failures.append((table, status, body))
                    return
                time.sleep(0.05)
            pushes_made.release()
            time.sleep(0.05)  # a deal takes a while

    with gunicorn_service(tmp_path / "first", **env) as first:
        relay.upstream = ("127.0.0.1", int(first.rsplit(":", 1)[1]))
        relay.start()
        ev = Event(relay.base)
        ev.start_round()
        steps = records_for(ev.document(), 1, seed=1, deals=3)
        pages = [threading.Thread(target=table_page, args=(ev, 1, t, steps[t])) for t in steps]
        for page in pages:
            page.start()
        for _ in range(4):  # some tables have pushed, the others are pushing: restart now
            assert pushes_made.acquire(timeout=60)
        relay.stop()  # the old service's connections cut: it stops gracefully, at once
    try:
        with gunicorn_service(tmp_path / "second", **env) as second:
            relay.upstream = ("127.0.0.1", int(second.rsplit(":", 1)[1]))
            relay.start()
            for page in pages:
                page.join(timeout=120)
            assert not failures, failures
            total = sum(len(s) for s in steps.values())
            assert sum(len(a) for a in answered.values()) == total
            # each push made once: the event's versions are its creation, the round, one a push
            assert ev.public()["version"] == 2 + total
            doc = ev.document()
            for table, table_steps in steps.items():
                assert stored(doc, 1, table) == table_steps[-1]
                # a push's answer names the version it made, each a different one
                assert len({a["version"] for a in answered[table]}) == len(table_steps)
            assert deals_played(ev.public(), 1) == {t: len(s) for t, s in steps.items()}
            ev.version = ev.public()["version"]
            ev.change("POST", "/rounds/1/close", {})
            ev.start_round()  # round 2: Swiss, from round 1's standings
            doc = ev.document()
            assert verify_seating(doc, 1)
            assert_checks_clean(doc)
    finally:
        relay.stop()


# ------------------------------------------------------------------ a replica promoted

def _replica_caught_up(master: redis.Redis, replica: redis.Redis) -> bool:
    offset = master.info("replication")["master_repl_offset"]
    info = replica.info("replication")
    return info.get("master_link_status") == "up" and info.get("slave_repl_offset", -1) >= offset


def _wait(what: str, predicate, timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"waiting for {what}"
        time.sleep(0.05)


@pytest.fixture
def master_and_replica():
    """A Redis master and its replica, both with an append-only file (docs/operations.md,
    "Hosted events"), the replica in sync, its link to the master through a relay the test
    may cut (replication stops there: what the master acknowledges next never reaches it)."""
    master = RedisProcess(extra_args=("--appendonly", "yes")).start()
    link = Relay(f"http://127.0.0.1:{master.port}").start()
    replica = RedisProcess(extra_args=("--appendonly", "yes", "--replicaof", "127.0.0.1",
                                       str(link.port))).start()
    try:
        m, r = redis.Redis.from_url(master.url), redis.Redis.from_url(replica.url)
        _wait("the replica to follow its master", lambda: _replica_caught_up(m, r))
        yield master, link, replica
    finally:
        link.stop()
        replica.close()
        master.close()


def test_a_replica_promoted_keeps_what_it_had_and_the_event_goes_on(tmp_path: Path,
                                                                   master_and_replica):
    """The master dies mid-round and its replica is promoted (REPLICAOF NO ONE) behind the
    address the service uses (a relay here; a floating address or a Sentinel-managed name at a
    venue). Promised: every change the replica had received is there, the event goes on, a
    change sent during the failover answers 503 and, sent again with its Idempotency-Key, is
    made once. Not promised (replication is asynchronous, no WAIT): a change acknowledged by
    the master but not yet replicated is lost, and its version's number is given to the next
    change: a table's lost push is made good by its next push (each carries the whole record);
    the public view, cached per change and not per version number, never shows the lost
    change's standings again."""
    master, link, replica = master_and_replica
    to_master, to_replica = redis.Redis.from_url(master.url), redis.Redis.from_url(replica.url)
    redis_relay = Relay(f"http://127.0.0.1:{master.port}").start()
    # Redis behind a relay of this process: a loaded test machine may take longer than the
    # default 0.2 s to pass a command through it (what is tested is the failover, not that)
    with gunicorn_service(tmp_path, CARDREF_REDIS_URL=f"redis://127.0.0.1:{redis_relay.port}/0",
                          CARDREF_DIRECTOR_KEYS=DIRECTOR_KEY, CARDREF_ACCESS_LOG="off",
                          CARDREF_REDIS_TIMEOUT_SECONDS="2") as base:
        try:
            ev = Event(base)
            ev.start_round()
            steps = records_for(ev.document(), 1, seed=2, deals=3)
            for table in steps:
                ok(ev.push(1, table, steps[table][0]))
            _wait("the replica to catch up", lambda: _replica_caught_up(to_master, to_replica))
            replicated = ev.public()
            # table 1's second deal reaches the master only: replication is cut first
            link.stop()
            ok(ev.push(1, 1, steps[1][1]))
            # the public page polls it (each of the service's workers, each its own cache)
            seen = [ev.public() for _ in range(12)]
            assert {p["version"] for p in seen} == {replicated["version"] + 1}
            lost_tag = call(ev.base, "GET", f"/v1/events/{ev.id}")[2]["ETag"]
            # the master dies; the replica is promoted and the address moved to it
            redis_relay.stop()
            master.kill()
            to_replica.execute_command("REPLICAOF", "NO", "ONE")
            # a push sent while the address leads nowhere: 503, its outcome unknown
            status, body, _ = ev.push(1, 2, steps[2][1], key="during-failover")
            assert status == 503 and body["code"] == "events_unavailable", (status, body)
            redis_relay.upstream = ("127.0.0.1", replica.port)
            redis_relay.start()

            # what the replica had is all there, nothing more
            after = ev.public()
            assert after["version"] == replicated["version"]
            assert after == replicated
            assert deals_played(after, 1) == {t: 1 for t in steps}
            # the push sent during the failover, sent again with its key: made once
            again = ok(ev.push(1, 2, steps[2][1], key="during-failover"))
            assert ok(ev.push(1, 2, steps[2][1], key="during-failover")) == again
            assert ev.public()["version"] == replicated["version"] + 1
            # a page that saw the lost change is not told "not modified" by the reused number
            assert call(ev.base, "GET", f"/v1/events/{ev.id}", If_None_Match=lost_tag)[0] == 200
            # the public view is this version's, not the lost one's of the same number
            for _ in range(12):
                assert deals_played(ev.public(), 1) == {1: 1, 2: 2, 3: 1, 4: 1}
            # table 1's lost push is made good by its next one: the whole record so far
            ok(ev.push(1, 1, steps[1][2]))
            for table in (3, 4):
                ok(ev.push(1, table, steps[table][-1]))
            public = ev.public()
            assert deals_played(public, 1) == {1: 3, 2: 2, 3: 3, 4: 3}
            doc = ev.document()
            assert stored(doc, 1, 1) == steps[1][2]
            ev.version = public["version"]
            ev.change("POST", "/rounds/1/close", {})
            ev.start_round()
            doc = ev.document()
            assert verify_seating(doc, 1)
            assert_checks_clean(doc)
        finally:
            redis_relay.stop()


# ------------------------------------------------------------------ one entry, two pages

def test_two_table_pages_pushing_the_same_entry_count_it_once(tmp_path: Path, redis_url: str):
    """Two pages of one table (its link opened on two phones, or a page and its retry) push the
    same entry at the same moment: with the same Idempotency-Key it is one change, both told
    the same; with different keys each replaces the table's result with the same record, and
    the standings count the table's deal once."""
    with gunicorn_service(tmp_path, CARDREF_REDIS_URL=redis_url,
                          CARDREF_DIRECTOR_KEYS=DIRECTOR_KEY, CARDREF_ACCESS_LOG="off") as base:
        ev = Event(base, rounds=1)
        ev.start_round()
        steps = records_for(ev.document(), 1, seed=3, deals=2)

        def at_once(*pushes) -> list[tuple[int, dict, dict]]:
            answers: list = [None] * len(pushes)
            barrier = threading.Barrier(len(pushes))

            def page(i: int, table: int, result: dict, key: str) -> None:
                barrier.wait()
                answers[i] = ev.push(1, table, result, key)

            threads = [threading.Thread(target=page, args=(i, *p)) for i, p in enumerate(pushes)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            return answers

        before = ev.public()["version"]
        same_key = at_once((1, steps[1][0], "table-1-deal-1"), (1, steps[1][0], "table-1-deal-1"))
        assert [a[0] for a in same_key] == [200, 200], same_key
        assert same_key[0][1] == same_key[1][1]  # one change, both told its version
        assert ev.public()["version"] == before + 1

        two_keys = at_once((2, steps[2][0], "phone-a"), (2, steps[2][0], "phone-b"))
        assert [a[0] for a in two_keys] == [200, 200], two_keys
        assert ev.public()["version"] == before + 3  # two writes, no refusal (no If-Match)

        public = ev.public()
        assert deals_played(public, 1) == {1: 1, 2: 1}
        doc = ev.document()
        assert stored(doc, 1, 1) == steps[1][0] and stored(doc, 1, 2) == steps[2][0]
        seated = {s["entrant"] for t in doc["rounds"][0]["tables"] if t["number"] in (1, 2)
                  for s in t["seats"]}
        for line in public["standings"]:
            assert line["played"] == (1 if line["entrant"] in seated else 0), line
        assert_checks_clean(doc)
