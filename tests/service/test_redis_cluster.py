"""Two service instances (gunicorn, each its own port) on one Redis Cluster of 3 masters and 3
replicas (tests/redis_cluster.py): they share the cache and strict sequencing's move records,
and a master killed mid-run is replaced by its replica — cached lookups answer 200 throughout,
strict sequencing answers 503 only while the cluster fails over and neither loses a move nor
takes one twice."""
from __future__ import annotations

import random
import re
import threading
import time

import httpx
import pytest
import redis

from bench import payloads
from engine import adjudicate
from engine.cards import deck_52
from tests.redis_cluster import RedisCluster
from tests.service.serving import gunicorn_service

# One cluster and one pair of services for the whole file, on one xdist worker (loadgroup).
pytestmark = [pytest.mark.drill, pytest.mark.xdist_group("redis_cluster")]

PLAYERS = ["ann", "bob", "cho"]
TIMEOUT = httpx.Timeout(20.0)  # a loaded machine answers late, never wrongly


@pytest.fixture(scope="module")
def cluster_and_services(tmp_path_factory):
    cluster = RedisCluster()
    try:
        cluster.start()
        env = {"CARDREF_REDIS_URL": cluster.url, "CARDREF_SEQUENCE": "strict",
               "CARDREF_SEQUENCE_REQUIRE_AOF": "1", "CARDREF_STATE_SECRET": "cluster-secret",
               "CARDREF_REDIS_TIMEOUT_SECONDS": "0.5"}
        with gunicorn_service(tmp_path_factory.mktemp("one"), **env) as one, \
                gunicorn_service(tmp_path_factory.mktemp("two"), **env) as two:
            yield cluster, one, two
    finally:
        cluster.close()


def _bare(state: dict) -> dict:
    """The game state inside a signed one, for the engine's own legal_actions."""
    return {k: v for k, v in state.items() if k not in ("meta", "signature")}


class Table:
    """One game of Man played over HTTP, each move posted to the next instance in turn; a 503
    is answered by posting the same action on the same state again (what a client does)."""

    def __init__(self, http: httpx.Client, bases: list[str], rnd: random.Random):
        self.http, self.bases, self.rnd = http, bases, rnd
        self.turn = 0
        self.unavailable: list[float] = []   # when each 503 came
        self.history: list[tuple[dict, dict]] = []  # (state, action) of every accepted move
        dealt = self._post("/v1/games/man/deal", {"players": PLAYERS})
        assert dealt.status_code == 201, dealt.text
        body = dealt.json()
        self.game_id, self.state, self.to_act = body["game_id"], body["state"], body["to_act"]

    def _post(self, path: str, body: dict) -> httpx.Response:
        base = self.bases[self.turn % len(self.bases)]
        self.turn += 1
        return self.http.post(base + path, json=body)

    def legal(self, state: dict, to_act: list) -> list[dict]:
        return [a for p in to_act for a in adjudicate.legal_actions(_bare(state), p)]

    def lasting(self, legal: list[dict]) -> list[dict]:
        """The actions to choose from: mostly draws and discards, never one that ends the deal
        nor a man (bench/payloads.lasting_choices): the test posts as many moves as the
        failover takes, and the game must outlast them."""
        return payloads.lasting_choices(_bare(self.state), legal, self.rnd)

    def move(self, retry_until: float | None = None) -> int:
        """Post one legal action until it is taken (503s retried until `retry_until`); the
        number of 503s on the way."""
        action = self.rnd.choice(self.lasting(self.legal(self.state, self.to_act)))
        refused = 0
        while True:
            resp = self._post("/v1/validate", {"state": self.state, "action": action})
            if resp.status_code != 503:
                break
            refused += 1
            self.unavailable.append(time.monotonic())
            assert retry_until is not None and time.monotonic() < retry_until, \
                f"503 where none was expected: {resp.text}"
            time.sleep(0.05)
        # 409 here would be a move lost (the record behind the state it issued) or taken twice
        assert resp.status_code == 200, resp.text
        out = resp.json()
        assert out["valid"] and out["state"]["meta"]["move"] == len(self.history) + 1, out
        assert out["status"] != "finished", "the deal ended: play a longer game"
        self.history.append((self.state, action))
        self.state, self.to_act = out["state"], out["to_act"]
        return refused


def _cluster_record(cluster: RedisCluster, game_id: str) -> str:
    key = f"cardref:seq:{game_id}"
    return cluster.master_of_key(key).client.get(key)


def test_readyz_reports_the_cluster_its_masters_replicas_and_durability(cluster_and_services):
    _, one, two = cluster_and_services
    for base in (one, two):
        ready = httpx.get(base + "/readyz", timeout=TIMEOUT)
        assert ready.status_code == 200, ready.text
        body = ready.json()
        assert body["cache"] == {"backend": "redis", "redis": "ok", "ready": True,
                                 "cluster": {"state": "ok", "masters": 3, "replicas": 3}}
        assert body["sequence"] == "strict" and body["sequence_durability"] == "aof"


def test_a_lookup_computed_by_one_instance_is_a_cache_hit_on_the_other(cluster_and_services):
    cluster, one, two = cluster_and_services
    body = {"cards": ["S5", "H5", "D5", "C5"], "level": "2"}
    sets, gets = cluster.command_calls("set"), cluster.command_calls("get")
    first = httpx.post(one + "/v1/games/guandan/classify", json=body, timeout=TIMEOUT)
    assert first.status_code == 200, first.text
    # computed by the first: looked up (a miss), then stored
    assert (cluster.command_calls("get") - gets, cluster.command_calls("set") - sets) == (1, 1)
    second = httpx.post(two + "/v1/games/guandan/classify", json=body, timeout=TIMEOUT)
    assert second.status_code == 200 and second.content == first.content
    # the other instance only read it: a hit, nothing computed or stored again
    assert (cluster.command_calls("get") - gets, cluster.command_calls("set") - sets) == (2, 1)


def test_a_move_accepted_on_one_instance_makes_the_older_state_409_on_the_other(
        cluster_and_services):
    _, one, two = cluster_and_services
    with httpx.Client(timeout=TIMEOUT) as http:
        table = Table(http, [one, two], random.Random(7))
        table.move()  # dealt on one, moved on two
        older, action = table.history[-1]
        for base in (one, two):
            again = http.post(base + "/v1/validate", json={"state": older, "action": action})
            assert again.status_code == 200  # the same action again: the move already taken
        others = [a for a in table.legal(older, [p for p in PLAYERS]) if a != action]
        stale = http.post(one + "/v1/legal-actions", json={"state": older, "player": "ann"})
        assert stale.status_code == 409 and stale.json()["code"] == "state_superseded"
        if others:
            forked = http.post(one + "/v1/validate", json={"state": older, "action": others[0]})
            assert forked.status_code == 409 and forked.json()["code"] == "state_superseded"


def _lookups_until(stop: threading.Event, bases: list[str], statuses: list) -> None:
    """Cached lookups of ever new hands (their keys on every master), in turn on each
    instance, until `stop`: (when it was answered, its status or error) each."""
    rnd = random.Random(11)
    with httpx.Client(timeout=TIMEOUT) as http:
        i = 0
        while not stop.is_set():
            body = {"cards": rnd.sample(deck_52(), rnd.randint(1, 5)), "level": "2"}
            try:
                status = http.post(bases[i % 2] + "/v1/games/guandan/classify",
                                   json=body).status_code
            except httpx.HTTPError as err:  # counted, never lost with the thread
                status = repr(err)
            statuses.append((time.monotonic(), status))
            i += 1


def _ready(http: httpx.Client, base: str) -> bool:
    try:
        return http.get(base + "/readyz").status_code == 200
    except httpx.HTTPError:
        return False


def test_a_killed_master_is_replaced_by_its_replica_without_losing_or_doubling_a_move(
        cluster_and_services):
    cluster, one, two = cluster_and_services
    statuses: list = []
    stop = threading.Event()
    lookups = threading.Thread(target=_lookups_until, args=(stop, [one, two], statuses))
    lookups.start()
    try:
        with httpx.Client(timeout=TIMEOUT) as http:
            table = Table(http, [one, two], random.Random(3))
            for _ in range(5):
                table.move()
            killed = cluster.master_of_key(f"cardref:seq:{table.game_id}")
            killed.kill()
            killed_at = time.monotonic()
            replica = cluster.replica_of(killed)
            # moves go on while the cluster fails over: a 503 is retried with the same action
            while True:
                table.move(retry_until=killed_at + 60)
                try:
                    if replica.role() == "master" and all(
                            n.state_ok() for n in cluster.nodes if n.alive()):
                        break
                except redis.RedisError:
                    pass  # a node busy electing answers next time
                assert time.monotonic() < killed_at + 60, "no failover within 60 s"
            deadline = time.monotonic() + 30
            while not (_ready(http, one) and _ready(http, two)):
                assert time.monotonic() < deadline, "the services not ready after the failover"
                time.sleep(0.1)
            ready_at = time.monotonic()
            for _ in range(5):
                table.move()  # no 503 once the cluster and both instances are ready again
            accepted = len(table.history)

            # Counted: the store holds exactly the moves accepted, each once.
            assert _cluster_record(cluster, table.game_id).startswith(f"{accepted}:")
            first_state, first_action = table.history[0]
            stale = http.post(one + "/v1/validate",
                              json={"state": first_state, "action": first_action})
            assert stale.status_code == 409, stale.text
            assert re.search(rf"the game is at move {accepted}\b", stale.json()["detail"])
            assert all(killed_at <= t <= ready_at for t in table.unavailable)
    finally:
        stop.set()
        lookups.join(timeout=60)
    answers = [status for _, status in statuses]
    assert set(answers) == {200}, {s: answers.count(s) for s in set(answers)}
    assert any(killed_at <= t <= ready_at for t, _ in statuses), "no lookup during the failover"
