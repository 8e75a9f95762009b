"""A table's push of only what its record adds (POST …/tables/{t}/record, docs/hosted-events.md
"Appends"): appends build exactly the record whole pushes build, a stale base changes nothing,
a bad append is refused as the whole record would be, a retry counts once, and a process that
never saw the table's pushes (another worker, a restart) still answers right."""
from __future__ import annotations

import random

import orjson
import pytest
from hypothesis import Phase, given, settings, strategies as st

from engine.events.check import check_event
from service.api import hosted_events
from tests.events.helpers import event
from tests.records import record_append, record_cut
from tests.service.test_hosted_events import Hosted, app_client, bearer, record_for
from tests.sizing import examples


def append(ev: Hosted, number: int, table: int, body: dict, token: str | None = None,
           **headers):
    return ev.client.post(f"/v1/events/{ev.id}/rounds/{number}/tables/{table}/record",
                          json=body, headers={**bearer(token or ev.tables[table]), **headers})


def forget_every_end() -> None:
    """This process as another worker is: it saw none of the pushes."""
    hosted_events._ENDS.clear()
    hosted_events._TABLE_ENDS.clear()
    hosted_events._CHECKPOINTS.clear()
    hosted_events._ROUNDS.clear()
    hosted_events._WRITERS.clear()
    hosted_events._FRAMES.clear()


def open_round(redis_url: str, seed: int) -> tuple[Hosted, dict]:
    ev = Hosted(app_client(redis_url), event(8, rounds=1))
    ev.start_round()
    return ev, record_for(ev.document(), 1, 1, seed=seed, deals=3)


def table_result(ev: Hosted) -> dict:
    return ev.document()["rounds"][0]["tables"][0].get("result")


@settings(max_examples=examples(6), deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(data=st.data())
def test_appends_build_the_record_whole_pushes_build(redis_url, data):
    ev, record = open_round(redis_url, data.draw(st.integers(0, 999)))
    total = sum(len(d["actions"]) for d in record["deals"])
    at = data.draw(st.integers(0, 3))
    stored = record_cut(record, at)
    end = ev.ok(ev.put_result(1, 1, {"record": stored}))["end"]
    stale = None
    while at < total:
        at = min(total, at + data.draw(st.sampled_from([1, 1, 1, 2, 3, 8, 25])))
        grown = record_cut(record, at, with_result=data.draw(st.booleans()) or at == total)
        how = data.draw(st.sampled_from(["append"] * 6 + ["whole", "stale", "forget"]))
        if how == "stale" and stale is not None:
            before, version = ev.document(), ev.version
            resp = append(ev, 1, 1, {**record_append(stored, grown), "base": stale})
            assert resp.status_code == 409, resp.get_json()
            assert resp.get_json()["code"] == "record_base_mismatch"
            assert resp.get_json()["end"] == end["key"]  # the stored end, named
            assert ev.document() == before and ev.version == version  # nothing changed
            continue
        if how == "whole":
            answer = ev.ok(ev.put_result(1, 1, {"record": grown}))
        else:
            if how == "forget":
                forget_every_end()
            answer = ev.ok(append(ev, 1, 1, {**record_append(stored, grown),
                                             "base": end["key"]}))
        assert answer["end"]["deals"] == len(grown["deals"])
        assert answer["end"]["actions"] == len(grown["deals"][-1]["actions"])
        stale, end, stored = end["key"], answer["end"], grown
        assert table_result(ev) == {"record": grown}
    document = ev.document()
    assert check_event(document)["consistent"], check_event(document)
    assert ev.client.get(f"/v1/events/{ev.id}").status_code == 200


def test_an_append_that_breaks_the_replay_is_refused_at_its_step_and_nothing_changes(redis_url):
    ev, record = open_round(redis_url, 4)
    stored, grown = record_cut(record, 3), record_cut(record, 8)
    end = ev.ok(ev.put_result(1, 1, {"record": stored}))["end"]
    part = {**record_append(stored, grown), "base": end["key"]}
    part["actions"][2]["score_deltas"] = [{"target": record["players"][0], "kind": "bonus",
                                           "delta": 7}]
    part.pop("digest")
    version = ev.version
    resp = append(ev, 1, 1, part)
    assert resp.status_code == 422, resp.get_json()
    problem = resp.get_json()
    assert problem["code"] == "event_record_inconsistent"
    assert "score_differs (deal 0, step 5)" in problem["detail"]
    assert table_result(ev) == {"record": stored} and ev.version == version
    # and one not well formed is refused at its own path
    resp = append(ev, 1, 1, {"base": end["key"], "actions": [{"action": 3}]})
    assert resp.status_code == 422 and resp.get_json()["code"] == "event_invalid"
    assert list(resp.get_json()["errors"]) == ["actions[0].action"]
    resp = append(ev, 1, 1, {"base": "x", "actions": []})
    assert resp.status_code == 422 and resp.get_json()["code"] == "request_invalid"


def test_an_append_past_the_record_limits_is_refused(redis_url):
    ev = Hosted(app_client(redis_url, max_record_actions=6), event(8, rounds=1, same_deals=2))
    ev.start_round()
    record = record_for(ev.document(), 1, 1, seed=5, deals=2)
    stored, grown = record_cut(record, 4), record_cut(record, 7)
    end = ev.ok(ev.put_result(1, 1, {"record": stored}))["end"]
    resp = append(ev, 1, 1, {**record_append(stored, grown), "base": end["key"]})
    assert resp.status_code == 413 and resp.get_json()["code"] == "limit_exceeded"


@pytest.mark.parametrize("forget", [False, True])
def test_a_retry_with_the_same_idempotency_key_is_answered_the_same_and_counted_once(
        redis_url, forget):
    ev, record = open_round(redis_url, 6)
    stored, grown = record_cut(record, 2), record_cut(record, 5)
    end = ev.ok(ev.put_result(1, 1, {"record": stored}))["end"]
    body = {**record_append(stored, grown), "base": end["key"]}
    first = append(ev, 1, 1, body, **{"Idempotency-Key": "push-7"})
    assert first.status_code == 200, first.get_json()
    version = ev.version = first.get_json()["version"]
    if forget:
        forget_every_end()
    again = append(ev, 1, 1, body, **{"Idempotency-Key": "push-7"})
    assert again.status_code == 200 and again.get_json() == first.get_json()
    assert table_result(ev) == {"record": grown}
    assert ev.client.get(f"/v1/events/{ev.id}").get_json()["version"] == version
    other = append(ev, 1, 1, {**body, "actions": []}, **{"Idempotency-Key": "push-7"})
    assert other.status_code == 409 and other.get_json()["code"] == "idempotency_key_reused"


def test_a_process_that_saw_no_push_resumes_from_the_stored_record(redis_url):
    ev, record = open_round(redis_url, 7)
    other = Hosted.__new__(Hosted)  # the same event through another app: another worker
    other.__dict__.update(ev.__dict__, client=app_client(redis_url))
    cuts = [record_cut(record, n) for n in (2, 6, 9, 15)]
    end = ev.ok(ev.put_result(1, 1, {"record": cuts[0]}))["end"]
    for k, grown in enumerate(cuts[1:]):
        forget_every_end()
        who = other if k % 2 else ev
        end = who.ok(append(who, 1, 1, {**record_append(cuts[k], grown), "base": end["key"]}))["end"]
    assert table_result(ev) == {"record": cuts[-1]}


def test_a_closed_round_takes_appends_from_the_director_only(redis_url):
    ev, record = open_round(redis_url, 8)
    doc = ev.document()
    stored, grown = record_cut(record, 3), record_cut(record, 4)
    end = ev.ok(ev.put_result(1, 1, {"record": stored}))["end"]
    for table in doc["rounds"][0]["tables"][1:]:
        ev.ok(ev.put_result(1, table["number"], {"reported": {"places": {
            u: i + 1 for i, u in enumerate(dict.fromkeys(s["entrant"] for s in table["seats"]))}}}))
    ev.ok(ev.post("/rounds/1/close"))
    body = {**record_append(stored, grown), "base": end["key"]}
    resp = append(ev, 1, 1, body)  # closing the round revoked the tables' tokens
    assert resp.status_code == 403 and resp.get_json()["code"] == "event_token_invalid"
    assert ev.put_result(1, 1, {"record": grown}).status_code == 403  # as a whole push is
    director = ev.director["Authorization"].removeprefix("Bearer ")
    ev.ok(append(ev, 1, 1, body, token=director))
    assert table_result(ev) == {"record": grown}
    # a reported result has no end: an append to it is a base mismatch, its end null
    resp = append(ev, 1, 2, {"base": end["key"], "actions": []}, token=director)
    assert resp.status_code == 409 and resp.get_json()["end"] is None


def test_a_directors_rewrite_of_the_result_ends_the_appends(redis_url):
    ev, record = open_round(redis_url, 9)
    stored, grown = record_cut(record, 3), record_cut(record, 6)
    end = ev.ok(ev.put_result(1, 1, {"record": stored}))["end"]
    ev.ok(append(ev, 1, 1, {**record_append(stored, grown), "base": end["key"]}))
    doc = ev.document()
    seats = doc["rounds"][0]["tables"][0]["seats"]
    ev.ok(ev.put_result(1, 1, {"reported": {"places": {
        u: i + 1 for i, u in enumerate(dict.fromkeys(s["entrant"] for s in seats))}}},
        token=ev.director["Authorization"].removeprefix("Bearer ")))
    resp = append(ev, 1, 1, {**record_append(grown, record_cut(record, 7)),
                             "base": end["key"]})
    assert resp.status_code == 409 and resp.get_json()["code"] == "record_base_mismatch"
    assert "record" not in table_result(ev)


def test_appends_of_random_sizes_from_random_seeds(redis_url):
    rnd = random.Random(11)
    ev, record = open_round(redis_url, rnd.randint(0, 999))
    total = sum(len(d["actions"]) for d in record["deals"])
    stored = record_cut(record, 1)
    end = ev.ok(ev.put_result(1, 1, {"record": stored}))["end"]
    at = 1
    while at < total:
        at = min(total, at + rnd.randint(1, 4))
        grown = record_cut(record, at)
        end = ev.ok(append(ev, 1, 1, {**record_append(stored, grown), "base": end["key"]}))["end"]
        stored = grown
    assert table_result(ev) == {"record": record_cut(record, total)}


def test_appends_go_on_after_a_directors_change_to_the_document(redis_url):
    ev, record = open_round(redis_url, 12)
    cuts = [record_cut(record, n) for n in (2, 5, 8)]
    end = ev.ok(ev.put_result(1, 1, {"record": cuts[0]}))["end"]
    end = ev.ok(append(ev, 1, 1, {**record_append(cuts[0], cuts[1]), "base": end["key"]}))["end"]
    entrant = ev.document()["entrants"][0]["id"]
    ev.ok(ev.post("/penalties", json={"entrant": entrant, "kind": "warning", "reason": "late"}))
    # the document moved on; the table's record did not: its next append still lands
    ev.ok(append(ev, 1, 1, {**record_append(cuts[1], cuts[2]), "base": end["key"]}))
    document = ev.document()
    assert document["rounds"][0]["tables"][0]["result"] == {"record": cuts[2]}
    assert document["penalties"][0]["entrant"] == entrant


def test_a_revoked_token_appends_nothing(redis_url):
    ev, record = open_round(redis_url, 13)
    cuts = [record_cut(record, n) for n in (2, 4, 6)]
    end = ev.ok(ev.put_result(1, 1, {"record": cuts[0]}))["end"]
    end = ev.ok(append(ev, 1, 1, {**record_append(cuts[0], cuts[1]), "base": end["key"]}))["end"]
    token_id = ev.tables[1].split(".")[0]
    assert ev.client.delete(f"/v1/events/{ev.id}/tokens/{token_id}",
                            headers=ev.director).status_code == 204
    for _ in range(2):  # known to this process as a writer a moment ago: refused all the same
        resp = append(ev, 1, 1, {**record_append(cuts[1], cuts[2]), "base": end["key"]})
        assert resp.status_code == 403 and resp.get_json()["code"] == "event_token_invalid"
    assert table_result(ev) == {"record": cuts[1]}
    wrong = ev.tables[2].split(".")[0] + ".not-its-secret"
    resp = append(ev, 1, 2, {"base": end["key"], "actions": []}, token=wrong)
    assert resp.status_code == 403


def test_a_process_that_missed_some_appends_catches_up_from_an_end_it_kept(redis_url,
                                                                           monkeypatch):
    ev, record = open_round(redis_url, 14)
    cuts = [record_cut(record, n) for n in (2, 4, 6, 8, 10)]
    ends = [ev.ok(ev.put_result(1, 1, {"record": cuts[0]}))["end"]]
    for k in (1, 2, 3):
        ends.append(ev.ok(append(ev, 1, 1, {**record_append(cuts[k - 1], cuts[k]),
                                            "base": ends[-1]["key"]}))["end"])
    for gone in ends[2:]:  # as another worker took these appends
        hosted_events._ENDS.pop(bytes.fromhex(gone["key"]))

    def whole_replay(record):
        raise AssertionError("replayed whole")
    monkeypatch.setattr(hosted_events, "_end_of", whole_replay)
    ev.ok(append(ev, 1, 1, {**record_append(cuts[3], cuts[4]), "base": ends[-1]["key"]}))
    assert table_result(ev) == {"record": cuts[4]}


def test_a_process_that_missed_appends_reads_only_the_appends_since_its_last_end(redis_url,
                                                                                monkeypatch):
    """The store answers the appends after those this process had seen at the last end it
    kept of the table's record: what it missed, not every append since the whole push (a long
    match's tail is thousands of lines)."""
    from service.event_store import EventStore

    ev, record = open_round(redis_url, 15)
    cuts = [record_cut(record, n) for n in range(2, 16, 2)]
    ends = [ev.ok(ev.put_result(1, 1, {"record": cuts[0]}))["end"]]
    for k in range(1, 6):
        ends.append(ev.ok(append(ev, 1, 1, {**record_append(cuts[k - 1], cuts[k]),
                                            "base": ends[-1]["key"]}))["end"])
    for gone in ends[4:]:  # as another worker took these two appends
        hosted_events._ENDS.pop(bytes.fromhex(gone["key"]))
    hosted_events._TABLE_ENDS[ev.id, 1, 1] = (bytes.fromhex(ends[3]["key"]), 3)
    read: list[list[dict]] = []
    table_tail = EventStore.table_tail

    def spied(self, *args, **kwargs):
        tail, stored = table_tail(self, *args, **kwargs)
        read.append(tail)
        return tail, stored
    monkeypatch.setattr(EventStore, "table_tail", spied)
    ev.ok(append(ev, 1, 1, {**record_append(cuts[5], cuts[6]), "base": ends[-1]["key"]}))
    assert [part["base"] for part in read[0]] == [ends[3]["key"], ends[4]["key"]]
    assert table_result(ev) == {"record": cuts[6]}
    store = EventStore(redis_url, 5.0)
    whole, _ = store.table_tail(ev.id, 1, 1)
    assert [part["base"] for part in whole] == [end["key"] for end in ends]
    assert store.table_tail(ev.id, 1, 1, seen=5)[0] == whole[5:]
    assert store.table_tail(ev.id, 1, 1, seen=6)[0] == []
    # written whole again: the appends are in the record, none is left to read
    ev.ok(ev.put_result(1, 1, {"record": cuts[6]}))
    assert store.table_tail(ev.id, 1, 1) == ([], ev.ok(ev.put_result(1, 1, {
        "record": cuts[6]}))["end"]["key"])


def test_a_long_tail_of_appends_is_kept_and_read_whole(redis_url):
    """Each append is one field in the store, whatever the record's length (a Guandan match is
    thousands of actions): more than a thousand appends read back in order, whole and from
    any point, and forgotten when the record is written whole."""
    import redis

    from service.event_store import EventStore, result_field

    ev, record = open_round(redis_url, 16)
    first = ev.ok(ev.put_result(1, 1, {"record": record_cut(record, 2)}))["end"]["key"]
    store = EventStore(redis_url, 5.0)
    frame_stamp = store.get(ev.id, results=False).frame_stamp
    keys, base, lines = [f"{k:064x}" for k in range(1, 2602)], first, []
    for k, end in enumerate(keys):
        line = {"actions": [], "deals": [], "n": k, "base": base}
        body, count = store.append(ev.id, frame_stamp, 1, 1, base, end, orjson.dumps(line),
                                   lambda version: b"{}", None)
        assert count == k + 1
        lines.append(line)
        base = end
    tail, stored = store.table_tail(ev.id, 1, 1)
    assert tail == lines and stored == keys[-1]
    assert store.table_tail(ev.id, 1, 1, seen=1999)[0] == lines[1999:]
    fields = redis.Redis.from_url(redis_url).hlen(f"cardref:ev:{{{ev.id}}}:lines")
    assert fields >= len(lines)
    ev.ok(ev.put_result(1, 1, {"record": record_cut(record, 2)}))
    assert store.table_tail(ev.id, 1, 1)[0] == []
    assert not redis.Redis.from_url(redis_url).hexists(
        f"cardref:ev:{{{ev.id}}}:lines", f"{result_field(1, 1)}#1")

