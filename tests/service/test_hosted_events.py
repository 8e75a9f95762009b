"""Hosted events (docs/hosted-events.md) against the real Redis: a whole event through the API,
every change a compare-and-set on the version (races lose nothing), retries answered as the
first time, strangers' tokens refused, nothing secret in the public view, and the event still
there for a new app over the same Redis."""
from __future__ import annotations

import copy
import random
import threading

import orjson
import pytest
import redis
from hypothesis import given, settings, strategies as st
from openapi_schema_validator import OAS30Validator

from engine import records
from engine.events import parse_event, verify_seating
from engine.events.format import seat_ids
from engine.events.standings import as_json, standings
from service.app import create_app
from service.config import Settings
from tests.events.helpers import event
from tests.records import pushed, random_record, record_append
from tests.sizing import examples

DIRECTOR_KEY = "test-director-key"
KEY = {"Authorization": f"Bearer {DIRECTOR_KEY}"}


def app_client(redis_url: str, **settings):
    settings.setdefault("metrics", False)
    return create_app(Settings(redis_url=redis_url, director_keys=(DIRECTOR_KEY,),
                               **settings)).test_client()


@pytest.fixture
def client(redis_url):
    return app_client(redis_url)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Hosted:
    """One event created through the API, with its director's headers and its version."""

    def __init__(self, client, document: dict | None = None):
        self.client = client
        resp = client.post("/v1/events", json=document or event(8, rounds=2, seating="swiss"),
                           headers=KEY)
        assert resp.status_code == 201, resp.get_json()
        body = resp.get_json()
        self.id, self.version = body["id"], body["version"]
        self.director = bearer(body["director_token"])
        self.tables: dict[int, str] = {}

    def at(self, version: int | None = None) -> dict[str, str]:
        return {**self.director, "If-Match": f'"{self.version if version is None else version}"'}

    def ok(self, resp, status: int = 200) -> dict:
        assert resp.status_code == status, resp.get_json()
        body = resp.get_json()
        self.version = body["version"]
        assert resp.headers["ETag"] == f'"{self.version}"'
        return body

    def post(self, path: str, json=None, **headers):
        return self.client.post(f"/v1/events/{self.id}{path}", json=json,
                                headers={**self.at(), **headers})

    def start_round(self, **body) -> dict:
        started = self.ok(self.post("/rounds", json=body or None))
        self.tables = {t["number"]: t["token"] for t in started["tables"]}
        return started

    def document(self) -> dict:
        resp = self.client.get(f"/v1/events/{self.id}/document", headers=self.director)
        assert resp.status_code == 200, resp.get_json()
        assert resp.headers["ETag"] == f'"{self.version}"'
        return resp.get_json()

    def put_result(self, number: int, table: int, result: dict, token: str | None = None,
                   **headers):
        return self.client.put(f"/v1/events/{self.id}/rounds/{number}/tables/{table}/result",
                               json=result, headers={**bearer(token or self.tables[table]),
                                                     **headers})


def record_for(doc: dict, number: int, table: int, seed: int, deals: int = 1) -> dict:
    tables = parse_event(doc).rounds[number - 1].tables
    seats = next(t for t in tables if t.number == table)
    return random_record(doc["system"]["game"], random.Random(seed), deals=deals, physical=0.0,
                         comments=0.0, ledger=0.0, players=seat_ids(seats))


def reported_for(doc: dict, number: int, table: int) -> dict:
    rnd = doc["rounds"][number - 1]
    seats = next(t for t in rnd["tables"] if t["number"] == table)["seats"]
    units = list(dict.fromkeys(s["entrant"] for s in seats))
    return {"reported": {"places": {u: i + 1 for i, u in enumerate(units)},
                         "scores": {u: 10 - i for i, u in enumerate(units)}}}


# ------------------------------------------------------------------ a whole event

def test_a_whole_event_runs_through_the_api(client):
    ev = Hosted(client)
    assert ev.version == 1
    late = ev.ok(ev.post("/entrants", json={"id": "late", "name": "Late Comer",
                                           "checked_in": False}))
    assert late["version"] == 2
    ev.ok(ev.post("/entrants/late/check-in", json={"checked_in": True}))
    ev.ok(ev.post("/entrants/p7/withdraw"))  # before round 1: simply not checked in
    started = ev.start_round()
    assert started["round"] == 1 and len(started["tables"]) == 2
    doc = ev.document()
    assert "seed" not in doc["rounds"][0] and doc["rounds"][0]["seed_commitment"] == \
        started["seed_commitment"]

    # the tables report themselves: table 1 its record deal after deal, table 2 as reported
    partial = record_for(doc, 1, 1, seed=1, deals=2)
    first_deal = {**partial, "deals": partial["deals"][:1]}
    first_deal.pop("digest", None)
    first_deal.pop("totals", None)
    ev.ok(ev.put_result(1, 1, {"record": first_deal}))
    ev.ok(ev.put_result(1, 1, {"record": partial}))
    ev.ok(ev.put_result(1, 2, reported_for(doc, 1, 2)))

    polled = client.get(f"/v1/events/{ev.id}")
    assert client.get(f"/v1/events/{ev.id}", headers={
        "If-None-Match": polled.headers["ETag"]}).status_code == 304  # nothing changed since
    seen = polled.get_json()
    shown = seen["event"]["rounds"][0]["tables"][0]["result"]
    assert "record" not in shown and shown["progress"]["deals_finished"] >= 1
    assert "seed" not in str(seen["event"]["rounds"][0]["tables"])  # no deal's seed, no hand

    # the director corrects a result, penalises, closes the round: its seeds revealed
    ev.ok(ev.put_result(1, 2, reported_for(doc, 1, 2), token=ev.director["Authorization"][7:],
                        **{"If-Match": f'"{ev.version}"'}))
    ev.ok(ev.post("/penalties", json={"entrant": "p0", "kind": "points", "points": 1,
                                      "reason": "late to the table"}))
    closed = ev.ok(ev.post("/rounds/1/close"))
    assert verify_seating(ev.document(), 1)
    assert ev.document()["rounds"][0]["seed"] == closed["seed"]

    ev.start_round()
    doc = ev.document()
    for table in ev.tables:
        ev.ok(ev.put_result(2, table, {"record": record_for(doc, 2, table, seed=10 + table)}))
    ev.ok(ev.post("/rounds/2/close"))
    published = ev.ok(ev.post("/publish"))

    doc = ev.document()
    assert published["digest"] == doc["digest"] and verify_seating(doc, 2)
    view = client.get(f"/v1/events/{ev.id}").get_json()
    assert view["published"] is True
    assert view["standings"] == as_json(standings(parse_event(doc)))
    summary = view["event"]["rounds"][1]["tables"][0]["result"]["summary"]  # once closed
    whole = doc["rounds"][1]["tables"][0]["result"]["record"]
    assert summary["digest"] == records.digest(whole)
    assert client.get(f"/v1/events/{ev.id}/rounds/2/tables/1/record").get_json() == whole
    refused = ev.post("/entrants", json={"id": "after", "name": "Too Late"})
    assert refused.status_code == 409 and refused.get_json()["code"] == "event_published"


def test_late_entries_withdrawals_and_substitutes_keep_every_round_verifiable(client):
    ev = Hosted(client, event(8, rounds=2, seating="random"))
    ev.start_round()
    late = ev.ok(ev.post("/entrants", json={"id": "late", "name": "Late"}))
    assert late["entrant"] == "late"
    entrants = {e["id"]: e for e in ev.document()["entrants"]}
    assert entrants["late"]["entered_round"] == 2  # a late entry of the next round
    out = ev.post("/entrants/p1/check-in", json={"checked_in": False})
    assert out.status_code == 422 and out.get_json()["code"] == "event_invalid"
    ev.ok(ev.post("/entrants/p1/withdraw"))
    seats = ev.document()["rounds"][0]["tables"][0]["seats"]
    ev.ok(client.put(f"/v1/events/{ev.id}/rounds/1/tables/1/seats/2/substitute",
                     json={"id": "sub", "name": "Sub"}, headers=ev.at()))
    doc = ev.document()
    assert doc["rounds"][0]["tables"][0]["seats"][1]["substitute"]["id"] == "sub"
    record = record_for(doc, 1, 1, seed=4)
    assert record["players"][1] == "sub"  # the table's record seats the substitute
    ev.ok(ev.put_result(1, 1, {"record": record}))
    ev.ok(ev.put_result(1, 2, reported_for(doc, 1, 2)))
    ev.ok(ev.post("/rounds/1/close"))
    ev.start_round()
    doc = ev.document()
    seated = {s["entrant"] for t in doc["rounds"][1]["tables"] for s in t["seats"]}
    assert "late" in seated | set(doc["rounds"][1].get("byes", [])) and "p1" not in seated
    assert seats[1]["entrant"] in {e["id"] for e in doc["entrants"]}
    ev.ok(ev.post("/rounds/2/close"))
    assert verify_seating(ev.document(), 1) and verify_seating(ev.document(), 2)


def test_a_record_that_does_not_replay_is_refused_and_nothing_is_stored(client):
    ev = Hosted(client)
    ev.start_round()
    record = record_for(ev.document(), 1, 1, seed=3)
    record["totals"] = {p: 7 for p in record["players"]}
    record.pop("digest", None)
    resp = ev.put_result(1, 1, {"record": record})
    assert resp.status_code == 422 and resp.get_json()["code"] == "event_record_inconsistent"
    assert "totals_differ" in resp.get_json()["detail"]
    assert "result" not in ev.document()["rounds"][0]["tables"][0]
    ev.ok(ev.put_result(1, 1, reported_for(ev.document(), 1, 1)))
    ev.ok(client.put(f"/v1/events/{ev.id}/rounds/1/tables/1/result", data=b"null",
                     content_type="application/json", headers=bearer(ev.tables[1])))
    # null: the table has no result again
    assert "result" not in ev.document()["rounds"][0]["tables"][0]


def test_a_reported_result_is_scored_from_its_deals_and_refused_when_it_says_otherwise(client):
    ev = Hosted(client, event(8, rounds=1, seating="random"))
    ev.start_round()
    seats = [s["player"] for s in ev.document()["rounds"][0]["tables"][0]["seats"]]
    deals = [{"out": seats[:3]}]  # the first out is 大富豪, the last left holding cards 大貧民
    wrong = {"reported": {"deals": deals, "places": {seats[0]: 4, seats[1]: 1, seats[2]: 2,
                                                     seats[3]: 3}}}
    resp = ev.put_result(1, 1, wrong)
    assert resp.status_code == 422 and resp.get_json()["code"] == "reported_result_inconsistent"
    ev.ok(ev.put_result(1, 1, {"reported": {"deals": deals}}))
    line = {s["entrant"]: s for s in client.get(f"/v1/events/{ev.id}").get_json()["standings"]}
    assert line[seats[0]]["first_places"] == 1 and line[seats[3]]["first_places"] == 0


def test_a_body_naming_a_key_twice_is_refused(client):
    ev = Hosted(client)
    resp = client.post(f"/v1/events/{ev.id}/entrants", headers=ev.at(),
                       data=b'{"id": "a", "id": "b", "name": "A"}',
                       content_type="application/json")
    assert resp.status_code == 422 and resp.get_json()["code"] == "json_duplicate_key"
    resp = client.post("/v1/events", headers=KEY, content_type="application/json",
                       data=b'{"format": "card-referee/event", "format": "x"}')
    assert resp.status_code == 422 and resp.get_json()["code"] == "json_duplicate_key"


def test_a_directors_change_names_its_version(client):
    ev = Hosted(client)
    resp = client.post(f"/v1/events/{ev.id}/entrants", json={"id": "x", "name": "X"},
                       headers=ev.director)
    assert resp.status_code == 428 and resp.get_json()["code"] == "version_required"
    stale = ev.post("/entrants", json={"id": "x", "name": "X"}, **{"If-Match": '"7"'})
    assert stale.status_code == 409 and stale.get_json()["code"] == "version_conflict"
    assert stale.headers["ETag"] == '"1"'


def test_a_round_starts_after_the_last_one_is_closed(client):
    ev = Hosted(client)
    ev.start_round()
    resp = ev.post("/rounds")
    assert resp.status_code == 409 and resp.get_json()["code"] == "round_not_closed"
    ev.ok(ev.post("/rounds/1/close"))
    late = ev.post("/rounds/1/close")
    assert late.status_code == 409 and late.get_json()["code"] == "round_closed"


# ------------------------------------------------------------------ races and retries

def test_two_changes_on_one_version_one_wins_and_nothing_is_lost(client):
    ev = Hosted(client)
    answers: list = []
    barrier = threading.Barrier(2)

    def register(who: str):
        barrier.wait()
        answers.append(ev.post("/entrants", json={"id": who, "name": who.upper()},
                               **{"If-Match": '"1"'}))

    threads = [threading.Thread(target=register, args=(w,)) for w in ("aa", "bb")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = sorted(a.status_code for a in answers)
    assert codes == [200, 409], [a.get_json() for a in answers]
    loser = next(a for a in answers if a.status_code == 409)
    assert loser.get_json()["code"] == "version_conflict" and loser.headers["ETag"] == '"2"'
    ev.version = 2
    ids = [e["id"] for e in ev.document()["entrants"]]
    assert len([i for i in ids if i in ("aa", "bb")]) == 1


def test_tables_pushing_at_once_lose_no_result(client):
    ev = Hosted(client, event(16, rounds=1, seating="random"))
    ev.start_round()
    doc = ev.document()
    failures: list = []
    barrier = threading.Barrier(len(ev.tables))

    def push(table: int):
        barrier.wait()
        for _ in range(3):
            resp = ev.put_result(1, table, reported_for(doc, 1, table))
            if resp.status_code != 200:
                failures.append(resp.get_json())

    threads = [threading.Thread(target=push, args=(t,)) for t in ev.tables]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures
    ev.version = client.get(f"/v1/events/{ev.id}").get_json()["version"]
    assert ev.version == 2 + 3 * len(ev.tables)
    assert all("result" in t for t in ev.document()["rounds"][0]["tables"])


def test_a_retry_with_the_same_idempotency_key_is_answered_as_the_first_time(client):
    ev = Hosted(client)
    first = ev.post("/rounds", **{"Idempotency-Key": "start-1"})
    again = ev.post("/rounds", **{"Idempotency-Key": "start-1"})  # its answer was lost
    assert first.status_code == again.status_code == 200
    assert first.get_json() == again.get_json()  # the same table tokens, the same version
    assert client.get(f"/v1/events/{ev.id}").get_json()["version"] == 2
    other = ev.post("/entrants", json={"id": "zz", "name": "Z"},
                    **{"Idempotency-Key": "start-1", "If-Match": '"2"'})
    assert other.status_code == 409 and other.get_json()["code"] == "idempotency_key_reused"


def test_creating_an_event_again_with_its_idempotency_key_gives_the_same_event(client):
    doc = event(8, rounds=1)
    first = client.post("/v1/events", json=doc, headers={**KEY, "Idempotency-Key": "new-ev"})
    again = client.post("/v1/events", json=doc, headers={**KEY, "Idempotency-Key": "new-ev"})
    assert first.status_code == again.status_code == 201
    assert first.get_json() == again.get_json()
    doc["name"] = "Another"
    other = client.post("/v1/events", json=doc, headers={**KEY, "Idempotency-Key": "new-ev"})
    assert other.status_code == 409 and other.get_json()["code"] == "idempotency_key_reused"


# ------------------------------------------------------------------ strangers

def test_strangers_write_nothing(client):
    a, b = Hosted(client), Hosted(client)
    a.start_round()
    b.start_round()
    doc = a.document()
    table_two = a.tables[2]

    def code(resp):
        return resp.status_code, resp.get_json()["code"]

    # a table token writes its own table of its round only, and nothing of the director's
    assert code(a.put_result(1, 1, reported_for(doc, 1, 1), token=table_two)) == \
        (403, "event_token_invalid")
    assert code(client.get(f"/v1/events/{a.id}/document", headers=bearer(table_two))) == \
        (403, "event_token_invalid")
    assert code(client.post(f"/v1/events/{a.id}/rounds/1/close",
                            headers={**bearer(table_two), "If-Match": f'"{a.version}"'})) == \
        (403, "event_token_invalid")
    # event A's tokens are nothing at event B
    assert code(b.put_result(1, 1, reported_for(b.document(), 1, 1), token=a.tables[1])) == \
        (403, "event_token_invalid")
    assert code(client.post(f"/v1/events/{b.id}/entrants", json={"id": "q", "name": "Q"},
                            headers={**a.director, "If-Match": f'"{b.version}"'})) == \
        (403, "event_token_invalid")
    # a revoked token is nothing
    token_id = table_two.partition(".")[0]
    assert client.delete(f"/v1/events/{a.id}/tokens/{token_id}",
                         headers=a.director).status_code == 204
    assert code(a.put_result(1, 2, reported_for(doc, 1, 2), token=table_two)) == \
        (403, "event_token_invalid")
    # a guessed id, a director key that is not one, no key
    assert code(client.get("/v1/events/AAAAAAAAAAAAAAAAAAAAAA")) == (404, "event_not_found")
    assert code(client.post("/v1/events", json=event(8),
                            headers=bearer("not-the-key"))) == (403, "director_key_required")
    assert code(client.post(f"/v1/events/{a.id}/rounds/1/close")) == \
        (403, "event_token_invalid")
    # a table's token writes while its round is open; the round closed, its tokens are gone
    a.ok(a.put_result(1, 1, reported_for(doc, 1, 1)))
    a.ok(a.post("/rounds/1/close"))
    assert code(a.put_result(1, 1, reported_for(doc, 1, 1))) == (403, "event_token_invalid")


def test_a_table_gets_a_new_token_and_the_director_a_new_director_token(client):
    ev = Hosted(client)
    ev.start_round()
    old = ev.tables[1]
    renewed = ev.ok(client.post(f"/v1/events/{ev.id}/rounds/1/tables/1/token",
                                headers=ev.director))
    assert ev.put_result(1, 1, reported_for(ev.document(), 1, 1), token=old).status_code == 403
    ev.ok(ev.put_result(1, 1, reported_for(ev.document(), 1, 1), token=renewed["token"]))
    fresh = ev.ok(client.post(f"/v1/events/{ev.id}/director-token", headers=KEY))
    listed = client.get(f"/v1/events/{ev.id}/tokens", headers=bearer(fresh["director_token"]))
    roles = [t["role"] for t in listed.get_json()["tokens"]]
    assert roles.count("director") == 2 and roles.count("table") == 2


def test_tokens_are_kept_only_as_digests(client, redis_url):
    ev = Hosted(client)
    started = ev.post("/rounds", **{"Idempotency-Key": "kept-answer"})
    secrets_given = [ev.director["Authorization"][7:].partition(".")[2]] + [
        t["token"].partition(".")[2] for t in started.get_json()["tables"]]
    store = redis.Redis.from_url(redis_url)
    kept = b"".join(store.dump(k) or b"" for k in store.scan_iter(f"cardref:ev:{{{ev.id}}}*"))
    for secret in secrets_given:
        assert secret.encode() not in kept


# ------------------------------------------------------------------ a table's push

def grown(record: dict, actions: int) -> dict:
    """The record after its first `actions` actions (tests/records.py `pushed`), without the
    match's totals and digest even once every deal is finished: a copy, its own to change."""
    cut = pushed(record, actions)
    return copy.deepcopy({k: v for k, v in cut.items() if k not in ("totals", "digest")})


def put_none(ev: Hosted, number: int, table: int):
    """A table's result `null`: it has none again."""
    return ev.client.put(f"/v1/events/{ev.id}/rounds/{number}/tables/{table}/result",
                         data=b"null", content_type="application/json",
                         headers=bearer(ev.tables[table]))


def test_a_push_writes_its_tables_result_alone_and_the_document_reads_whole(client, redis_url):
    ev = Hosted(client, event(8, rounds=1, same_deals=2))
    ev.start_round()
    doc = ev.document()
    record = record_for(doc, 1, 1, seed=2, deals=2)
    store = redis.Redis.from_url(redis_url)
    key = f"cardref:ev:{{{ev.id}}}"
    frame = store.hget(key, "doc")
    for n in (3, 4, 9):
        ev.ok(ev.put_result(1, 1, {"record": grown(record, n)}))
        assert store.hget(key, "doc") == frame  # the document without results: not rewritten
        assert orjson.loads(store.hget(f"{key}:results", "1.1")) == {"record": grown(record, n)}
    ev.ok(ev.put_result(1, 2, reported_for(doc, 1, 2)))
    whole = ev.document()
    assert whole["rounds"][0]["tables"][0]["result"] == {"record": grown(record, 9)}
    assert whole["rounds"][0]["tables"][1]["result"] == reported_for(doc, 1, 2)
    ev.ok(put_none(ev, 1, 1))  # none again
    assert "result" not in ev.document()["rounds"][0]["tables"][0]
    assert not store.hexists(f"{key}:results", "1.1")


@settings(max_examples=examples(4), deadline=None)
@given(data=st.data())
def test_a_longer_record_with_a_changed_earlier_action_is_refused_not_resumed(redis_url, data):
    client = app_client(redis_url)
    ev = Hosted(client, event(8, rounds=1, same_deals=2))
    ev.start_round()
    record = record_for(ev.document(), 1, 1, seed=data.draw(st.integers(0, 99)), deals=2)
    flat = [(k, i) for k, d in enumerate(record["deals"]) for i in range(len(d["actions"]))]
    stored = data.draw(st.integers(2, len(flat) - 1))
    ev.ok(ev.put_result(1, 1, {"record": grown(record, stored)}))
    longer = grown(record, data.draw(st.integers(stored, len(flat))))
    k, i = flat[data.draw(st.integers(0, stored - 1))]  # what the stored record had
    entry = longer["deals"][k]["actions"][i]
    entry["score_deltas"] = [*entry.get("score_deltas", []),
                             {"target": longer["players"][0], "kind": "bonus", "delta": 7}]
    resp = ev.put_result(1, 1, {"record": longer})
    assert resp.status_code == 422, resp.get_json()
    problem = resp.get_json()
    assert problem["code"] == "event_record_inconsistent"
    assert f"score_differs (deal {k}, step {i})" in problem["detail"]
    assert ev.document()["rounds"][0]["tables"][0]["result"] == \
        {"record": grown(record, stored)}  # nothing stored


def test_a_document_stored_whole_still_reads_and_takes_pushes(client, redis_url):
    # an event stored before each table's result was kept apart: its results in its document
    ev = Hosted(client, event(8, rounds=1))
    ev.start_round()
    doc = ev.document()
    ev.ok(ev.put_result(1, 1, reported_for(doc, 1, 1)))
    ev.ok(ev.put_result(1, 2, reported_for(doc, 1, 2)))
    whole = ev.document()
    store = redis.Redis.from_url(redis_url)
    key = f"cardref:ev:{{{ev.id}}}"
    store.hset(key, "doc", orjson.dumps({k: v for k, v in whole.items() if k != "digest"}))
    store.delete(f"{key}:results")
    assert ev.document() == whole
    assert client.get(f"/v1/events/{ev.id}").get_json() == from_scratch(redis_url, ev.id)
    ev.ok(put_none(ev, 1, 1))
    after = ev.document()
    assert "result" not in after["rounds"][0]["tables"][0]
    assert after["rounds"][0]["tables"][1]["result"] == reported_for(doc, 1, 2)


# ------------------------------------------------------------------ the public view

def test_the_public_view_shows_no_deal_of_an_open_round(client):
    ev = Hosted(client, event(8, rounds=1, same_deals=2))
    ev.start_round()
    doc = ev.document()
    deals = client.get(f"/v1/events/{ev.id}/rounds/1/deals", headers=bearer(ev.tables[1]))
    seeds = [d["seed"] for d in deals.get_json()["deals"]]
    assert len(seeds) == 2
    ev.ok(ev.put_result(1, 1, {"record": record_for(doc, 1, 1, seed=5, deals=2)}))
    text = client.get(f"/v1/events/{ev.id}").get_data(as_text=True)
    assert not any(seed in text for seed in seeds)
    record = ev.document()["rounds"][0]["tables"][0]["result"]["record"]
    for entry in record["deals"]:
        if "seed" in entry["deal"]:
            assert entry["deal"]["seed"] not in text
        for hand in (entry["deal"].get("hands") or {}).values():
            assert str(hand)[1:-1] not in text
    assert client.get(f"/v1/events/{ev.id}/rounds/1/deals").status_code == 403


def test_a_closed_rounds_records_are_public_table_by_table_and_summed_up_in_the_view(client):
    ev = Hosted(client, event(8, rounds=2, same_deals=2))
    ev.start_round()
    doc = ev.document()
    ev.ok(ev.put_result(1, 1, {"record": record_for(doc, 1, 1, seed=3, deals=2)}))
    ev.ok(ev.put_result(1, 2, reported_for(doc, 1, 2)))
    path = f"/v1/events/{ev.id}/rounds/1/tables/%d/record"
    refused = client.get(path % 1)  # the round is open: its hands and moves are not public
    assert refused.status_code == 403 and refused.get_json()["code"] == "record_not_public"
    assert "seed" not in refused.get_data(as_text=True)
    ev.ok(ev.post("/rounds/1/close"))

    whole = ev.document()["rounds"][0]["tables"][0]["result"]["record"]
    answer = client.get(path % 1)
    assert answer.status_code == 200 and answer.get_json() == whole
    assert answer.headers["ETag"].startswith(f'"{ev.version}.')
    checked = client.post("/v1/records/check", json=answer.get_json()).get_json()
    assert checked["consistent"] is True
    for table, code in ((2, "event_not_found"), (9, "event_not_found")):  # reported; none
        missing = client.get(path % table)
        assert missing.status_code == 404 and missing.get_json()["code"] == code
    assert client.get(f"/v1/events/{ev.id}/rounds/3/tables/1/record").status_code == 404

    view = client.get(f"/v1/events/{ev.id}").get_json()
    shown = view["event"]["rounds"][0]["tables"][0]
    summary = shown["result"]["summary"]
    assert set(shown["result"]) == {"summary"} and "actions" not in str(summary["deals"])
    assert summary["digest"] == checked["digest"] == records.digest(whole)
    assert summary["players"] == whole["players"]
    assert summary["actions"] == sum(len(d["actions"]) for d in whole["deals"])
    assert [d["deal"] for d in summary["deals"]] == [
        {k: d["deal"][k] for k in ("seed", "seed_salt", "seed_commitment") if k in d["deal"]}
        for d in whole["deals"]]
    assert [d["totals"] for d in summary["deals"]] == [d["totals"] for d in checked["deals"]]
    assert summary["totals"] == checked["totals"]
    assert set(shown["places"]) == {s["entrant"] for s in shown["seats"]}
    assert view["event"]["rounds"][0]["tables"][1]["result"] == reported_for(doc, 1, 2)
    # both answers as the spec declares them (the summary's deal holds no cards)
    spec = client.get("/openapi.json").get_json()
    for path, answer in (("/v1/events/{eid}", view),
                         ("/v1/events/{eid}/rounds/{number}/tables/{table}/record", whole)):
        schema = spec["paths"][path]["get"]["responses"]["200"]["content"][
            "application/json"]["schema"]
        validator = OAS30Validator({**schema, "components": spec["components"]})
        assert not [e.message for e in validator.iter_errors(answer)], path


def from_scratch(redis_url: str, eid: str) -> dict:
    """The public view made from the whole document (`public`) with no replay, progress or
    checkpoint kept from before (the view parts public_of keeps are left as they are: the
    next version's view is built from them)."""
    from engine.events import standings as standings_module
    from service.api import hosted_events as hosted
    from service.event_store import EventStore

    hosted._PROGRESS.clear()
    hosted._CHECKPOINTS.clear()
    standings_module._REPLAYED.clear()
    snap = EventStore(redis_url, 5.0).get(eid)
    assert snap is not None
    return orjson.loads(orjson.dumps(hosted.public(snap)))


@settings(max_examples=examples(6), deadline=None)
@given(steps=st.lists(st.tuples(st.sampled_from(["push", "push", "append", "append",
                                                 "reported", "none", "penalty", "substitute",
                                                 "close", "start"]),
                                st.integers(0, 99)), min_size=4, max_size=16),
       fresh=st.lists(st.booleans(), min_size=16, max_size=16))
def test_a_new_versions_view_is_the_view_made_from_scratch(redis_url, steps, fresh):
    # each version's view is built from what changed since the last (public_of): after any
    # pushes, corrections, reported results, penalties, substitutes, closes and new rounds it
    # is the view made from the whole document with nothing kept (`fresh`: the view's parts
    # forgotten first now and then, as a worker that did not build the last version's)
    from service.api import hosted_events as hosted

    client = app_client(redis_url)
    ev = Hosted(client, event(8, rounds=3, same_deals=2))
    ev.start_round()
    number, open_, whole = 1, True, {}
    at: dict[tuple[int, int], tuple[int, dict]] = {}  # a table's record pushed: actions, end
    for k, (step, n) in enumerate(steps):
        table = 1 + n % 2
        if step == "push" and open_:
            record = whole.setdefault((number, table), record_for(
                ev.document(), number, table, seed=n, deals=2))
            total = sum(len(d["actions"]) for d in record["deals"])
            actions = 1 + n * total // 100  # now and then shorter than the last: a correction
            answer = ev.ok(ev.put_result(number, table, {"record": record if actions >= total
                                                         else grown(record, actions)}))
            if actions < total:
                at[number, table] = (actions, answer["end"])
        elif step == "append" and open_ and any(r == number for r, _ in at):
            # the page's appends: only what the record adds, from the end the last answer named
            # (a table of this round whose record was pushed)
            pushed_here = sorted(t for r, t in at if r == number)
            table = pushed_here[n % len(pushed_here)]
            record, (actions, end) = whole[number, table], at[number, table]
            total = sum(len(d["actions"]) for d in record["deals"])
            # a few actions, or all but the last (its first deal finished: the view changes)
            more = min(total - 1, actions + 1 + n % 3) if n % 2 else total - 1
            if more <= actions:
                continue
            answer = ev.ok(client.post(
                f"/v1/events/{ev.id}/rounds/{number}/tables/{table}/record",
                json={**record_append(grown(record, actions), grown(record, more)),
                      "base": end["key"]}, headers=bearer(ev.tables[table])))
            at[number, table] = (more, answer["end"])
        elif step == "reported" and open_:
            ev.ok(ev.put_result(number, table, reported_for(ev.document(), number, table)))
            at.pop((number, table), None)
        elif step == "none" and open_:
            ev.ok(put_none(ev, number, table))
            at.pop((number, table), None)
        elif step == "penalty":
            ev.ok(ev.post("/penalties", json={"entrant": f"p{n % 8}", "kind": "points",
                                              "points": 1 + n % 3, "reason": "slow play"}))
        elif step == "substitute" and open_:
            resp = client.put(f"/v1/events/{ev.id}/rounds/{number}/tables/{table}/seats/"
                              f"{1 + n % 4}/substitute", json={"id": f"sub{k}", "name": "Sub"},
                              headers=ev.at())
            if resp.status_code != 200:  # a table with a result already takes none
                continue
            ev.ok(resp)
        elif step == "close" and open_:
            ev.ok(ev.post(f"/rounds/{number}/close"))
            open_ = False
        elif step == "start" and not open_ and number < 3:
            ev.start_round()
            number, open_ = number + 1, True
        else:
            continue
        if fresh[k]:
            hosted.clear_view_caches()
        resp = client.get(f"/v1/events/{ev.id}")
        assert resp.status_code == 200, resp.get_json()
        view = resp.get_json()
        assert view["version"] == ev.version
        assert view == from_scratch(redis_url, ev.id)


def test_a_new_versions_view_reads_again_only_the_tables_that_changed(client, monkeypatch):
    from service.api import hosted_events as hosted
    from service.event_store import EventStore

    ev = Hosted(client, event(12, rounds=2, same_deals=2))
    ev.start_round()
    doc = ev.document()
    records_of = {t: record_for(doc, 1, t, seed=t, deals=2) for t in ev.tables}
    for t, record in records_of.items():
        ev.ok(ev.put_result(1, t, {"record": grown(record, 5)}))
    assert client.get(f"/v1/events/{ev.id}").status_code == 200
    made: list[tuple[int, int]] = []
    real = hosted._table_shown
    monkeypatch.setattr(hosted, "_table_shown", lambda frame, k, i, *rest: (
        made.append((k, i)), real(frame, k, i, *rest))[1])
    # what the store sends for each build: only the results (and document) not held here
    read: list = []
    parts = EventStore.parts
    monkeypatch.setattr(EventStore, "parts", lambda self, *a, **k: (
        read.append(parts(self, *a, **k)), read[-1])[1])
    ev.ok(ev.put_result(1, 2, {"record": grown(records_of[2], 6)}))
    view = client.get(f"/v1/events/{ev.id}").get_json()
    assert made == [(0, 1)]  # table 2 of round 1 alone
    assert sorted(read[-1].results) == ["1.2"] and read[-1].document is None
    assert sorted(read[-1].stamps) == ["1.1", "1.2", "1.3"]
    end = ev.ok(ev.put_result(1, 3, {"record": grown(records_of[3], 6)}))["end"]
    ev.ok(client.post(f"/v1/events/{ev.id}/rounds/1/tables/3/record", headers=bearer(
        ev.tables[3]), json={**record_append(grown(records_of[3], 6), grown(records_of[3], 8)),
                             "base": end["key"]}))
    made.clear()
    view = client.get(f"/v1/events/{ev.id}").get_json()
    assert made == [(0, 2)] and sorted(read[-1].results) == ["1.3"]  # an append: read again
    assert view["event"]["rounds"][0]["tables"][2]["result"]["progress"] == \
        hosted._progress_of(grown(records_of[3], 8))
    view = client.get(f"/v1/events/{ev.id}").get_json()
    assert view["event"]["rounds"][0]["tables"][1]["result"]["progress"] == \
        hosted._progress_of(grown(records_of[2], 6))
    # a penalty changes the document without results, not what any table is seated in
    ev.ok(ev.post("/penalties", json={"entrant": "p0", "kind": "warning", "reason": "late"}))
    made.clear()
    assert client.get(f"/v1/events/{ev.id}").status_code == 200
    assert made == []
    assert read[-1].results == {} and read[-1].document is not None
    ev.ok(ev.post("/rounds/1/close"))  # every table of the round shown summed up now
    assert client.get(f"/v1/events/{ev.id}").status_code == 200
    assert sorted(made) == [(0, 0), (0, 1), (0, 2)]
    assert read[-1].results == {}  # from the results held here: only how they are shown changed


@pytest.mark.parametrize("route", ["view", "record"])
def test_a_cached_answer_of_an_event_is_compressed_once_per_encoding_and_304_by_its_tag(
        monkeypatch, redis_url, route):
    from tests.service.test_compression import DECODE, ENCODINGS, recording_app

    # the service's cache noting every key written: a compressed body made is a key written
    client, cache = recording_app(monkeypatch, redis_url=redis_url,
                                  director_keys=(DIRECTOR_KEY,))
    ev = Hosted(client, event(8, rounds=2, same_deals=2))
    ev.start_round()
    doc = ev.document()
    for table in ev.tables:
        ev.ok(ev.put_result(1, table, {"record": record_for(doc, 1, table, seed=table,
                                                            deals=2)}))
    ev.ok(ev.post("/rounds/1/close"))
    path = f"/v1/events/{ev.id}" + ("" if route == "view" else "/rounds/1/tables/1/record")
    plain = client.get(path, headers={"Accept-Encoding": "identity"})
    assert plain.status_code == 200 and len(plain.data) > 1024
    tag = plain.headers["ETag"]
    assert tag == f'"{ev.version}.{tag.strip(chr(34)).split(".")[1]}"'
    before = len(cache.compressed_keys())
    for encoding in ENCODINGS:
        answers = [client.get(path, headers={"Accept-Encoding": encoding}) for _ in range(3)]
        for answer in answers:
            assert answer.headers["Content-Encoding"] == encoding
            assert DECODE[encoding](answer.data) == plain.data
            assert answer.headers["ETag"] == f'{tag[:-1]}:{encoding}"'
        # this encoding's tag: not modified; another encoding's tag names other bytes
        same = client.get(path, headers={"Accept-Encoding": encoding,
                                         "If-None-Match": answers[0].headers["ETag"]})
        assert same.status_code == 304 and not same.data
        other = client.get(path, headers={"Accept-Encoding": encoding, "If-None-Match": tag})
        assert other.status_code == 200 and DECODE[encoding](other.data) == plain.data
    # each encoding's body made once and kept beside the answer, not made for each request
    made = cache.compressed_keys()[before:]
    assert sorted(k.rsplit(":", 1)[1] for k in made) == sorted(ENCODINGS)
    assert client.get(path, headers={"If-None-Match": tag}).status_code == 304


# ------------------------------------------------------------------ durability

def test_a_new_app_over_the_same_redis_keeps_the_event(client, redis_url):
    ev = Hosted(client)
    ev.start_round()
    before = ev.document()
    ev.client = app_client(redis_url)  # the service restarted
    assert ev.document() == before
    ev.ok(ev.put_result(1, 1, reported_for(before, 1, 1)))
    ev.ok(ev.post("/rounds/1/close"))
    assert verify_seating(ev.document(), 1)


def test_a_change_refused_while_redis_stalls_is_made_once_when_sent_again(own_redis):
    client = app_client(own_redis.url, redis_timeout_seconds=0.2, redis_retry_seconds=0.5)
    ev = Hosted(client)
    own_redis.pause()  # what was sent runs when it resumes; no answer comes in time
    try:
        lost = ev.post("/rounds", **{"Idempotency-Key": "late-answer"})
    finally:
        own_redis.resume()
    assert lost.status_code == 503 and lost.get_json()["code"] == "events_unavailable"
    assert lost.headers["Retry-After"] == "1"
    again = ev.post("/rounds", **{"Idempotency-Key": "late-answer"})
    assert again.status_code == 200, again.get_json()
    once_more = ev.post("/rounds", **{"Idempotency-Key": "late-answer"})
    assert once_more.get_json() == again.get_json()
    ev.version = again.get_json()["version"]
    assert ev.version == 2 == client.get(f"/v1/events/{ev.id}").get_json()["version"]  # once
    assert len(ev.document()["rounds"]) == 1


def test_without_redis_no_event_is_kept_and_none_can_be_created():
    client = create_app(Settings(metrics=False, director_keys=(DIRECTOR_KEY,))).test_client()
    assert client.get("/v1/events/AAAAAAAAAAAAAAAAAAAAAA").status_code == 404
    resp = client.post("/v1/events", json=event(8), headers=KEY)
    assert resp.status_code == 503 and resp.get_json()["code"] == "events_unavailable"


# ------------------------------------------------------------------ properties

@settings(max_examples=examples(4), deadline=None)
@given(entrants=st.integers(4, 13), seating=st.sampled_from(["swiss", "random"]),
       reported=st.lists(st.booleans(), min_size=8, max_size=8), data=st.data())
def test_any_small_event_run_through_the_api_re_checks_clean(redis_url, entrants, seating,
                                                             reported, data):
    client = app_client(redis_url)
    ev = Hosted(client, event(entrants, rounds=2, seating=seating))
    for number in (1, 2):
        ev.start_round()
        doc = ev.document()
        for k, table in enumerate(ev.tables):
            result = reported_for(doc, number, table) if reported[k % 8] else \
                {"record": record_for(doc, number, table, seed=data.draw(st.integers(0, 99)))}
            ev.ok(ev.put_result(number, table, result))
        view = client.get(f"/v1/events/{ev.id}").get_json()
        assert all("record" not in (t.get("result") or {})
                   for t in view["event"]["rounds"][-1]["tables"])
        ev.ok(ev.post(f"/rounds/{number}/close"))
    doc = ev.document()
    assert verify_seating(doc, 1) and verify_seating(doc, 2)
    assert client.get(f"/v1/events/{ev.id}").get_json()["standings"] == \
        as_json(standings(parse_event(doc)))


# ------------------------------------------------------------------ a Redis Cluster

@pytest.mark.drill
def test_an_event_on_a_redis_cluster_keeps_its_keys_on_one_node():
    from tests.redis_cluster import RedisCluster

    cluster = RedisCluster()
    try:
        cluster.start()
        client = app_client(cluster.url, redis_timeout_seconds=1.0)
        ev = Hosted(client, event(8, rounds=1, seating="random"))
        ev.start_round()
        doc = ev.document()
        whole = record_for(doc, 1, 1, seed=7)
        # a part of the record pushed, the rest appended (the appends' lines and the results'
        # stamps are keys of the event's too), the view read from what changed
        end = ev.ok(ev.put_result(1, 1, {"record": grown(whole, 3)},
                                  **{"Idempotency-Key": "c1"}))["end"]
        ev.ok(client.post(f"/v1/events/{ev.id}/rounds/1/tables/1/record", headers=bearer(
            ev.tables[1]), json={**record_append(grown(whole, 3), whole), "base": end["key"]}))
        assert client.get(f"/v1/events/{ev.id}").status_code == 200
        ev.ok(ev.put_result(1, 2, reported_for(doc, 1, 2)))
        assert client.get(f"/v1/events/{ev.id}").status_code == 200
        ev.ok(ev.post("/rounds/1/close"))
        assert ev.document()["rounds"][0]["tables"][0]["result"] == {"record": whole}
        assert verify_seating(ev.document(), 1)
        node = cluster.master_of_key(f"cardref:ev:{{{ev.id}}}")
        keys = {k if isinstance(k, str) else k.decode()
                for k in node.client.scan_iter(f"cardref:ev:{{{ev.id}}}*")}
        assert {f"cardref:ev:{{{ev.id}}}", f"cardref:ev:{{{ev.id}}}:tokens",
                f"cardref:ev:{{{ev.id}}}:stamps"} <= keys
        assert any(":idem:" in k for k in keys)
    finally:
        cluster.close()
