"""A table calling the referee (docs/hosted-events.md "Calling the referee"): its own token,
while its round is open; waiting with its first call's time until the director or the table
clears it; read by the director, never in the public view, no change of the event's version;
and a reported result confirmed by each seat kept as sent."""
from __future__ import annotations

import pytest

from engine.events.check import check_event
from tests.events.helpers import event
from tests.service.test_hosted_events import Hosted, app_client, bearer, reported_for


@pytest.fixture
def client(redis_url):
    return app_client(redis_url)


def call_path(ev: Hosted, table: int, number: int = 1) -> str:
    return f"/v1/events/{ev.id}/rounds/{number}/tables/{table}/call"


def calls(ev: Hosted) -> list[dict]:
    resp = ev.client.get(f"/v1/events/{ev.id}/calls", headers=ev.director)
    assert resp.status_code == 200, resp.get_json()
    found: list[dict] = resp.get_json()["calls"]
    return found


def test_a_table_calls_the_referee_and_the_director_clears_it(client):
    ev = Hosted(client)
    ev.start_round()
    version = ev.version
    resp = client.post(call_path(ev, 1), json={"reason": "ruling"}, headers=bearer(ev.tables[1]))
    assert resp.status_code == 201, resp.get_json()
    called = resp.get_json()
    assert (called["round"], called["table"], called["reason"]) == (1, 1, "ruling")
    assert called["called_at"].endswith("Z") and called["waiting_seconds"] == 0
    # calling again while waiting keeps the first call (how long it waited is what counts)
    again = client.post(call_path(ev, 1), headers=bearer(ev.tables[1]))
    assert again.status_code == 200 and again.get_json()["called_at"] == called["called_at"]
    assert again.get_json()["reason"] == "ruling"
    client.post(call_path(ev, 2), headers=bearer(ev.tables[2]))
    waiting = calls(ev)
    assert [(c["table"], c["reason"]) for c in waiting] == [(1, "ruling"), (2, None)]
    # the table reads its own call; a call is no change of the event
    mine = client.get(call_path(ev, 1), headers=bearer(ev.tables[1])).get_json()["call"]
    assert mine["called_at"] == called["called_at"]
    assert client.get(f"/v1/events/{ev.id}").get_json()["version"] == version
    # the director clears table 1's; table 2 cancels its own
    assert client.delete(call_path(ev, 1), headers=ev.director).status_code == 204
    assert client.delete(call_path(ev, 2), headers=bearer(ev.tables[2])).status_code == 204
    assert calls(ev) == []
    assert client.get(call_path(ev, 1), headers=bearer(ev.tables[1])).get_json() == \
        {"call": None}
    assert client.delete(call_path(ev, 1), headers=ev.director).status_code == 204  # none: same


def test_only_the_tables_own_token_calls_for_it(client):
    ev = Hosted(client)
    ev.start_round()
    other = client.post(call_path(ev, 1), headers=bearer(ev.tables[2]))
    assert other.status_code == 403 and other.get_json()["code"] == "event_token_invalid"
    assert client.delete(call_path(ev, 1), headers=bearer(ev.tables[2])).status_code == 403
    director = client.post(call_path(ev, 1), headers=ev.director)
    assert director.status_code == 403 and director.get_json()["code"] == "event_token_invalid"
    assert client.post(call_path(ev, 1)).status_code == 403
    table_reads = client.get(f"/v1/events/{ev.id}/calls", headers=bearer(ev.tables[1]))
    assert table_reads.status_code == 403
    assert calls(ev) == []
    unknown = client.post(call_path(ev, 9), headers=ev.director)
    assert unknown.status_code == 403  # no token is this table's


@pytest.mark.parametrize("body", [{"reason": "my partner cheats"}, {"note": "x"}, ["ruling"]])
def test_a_call_says_its_reason_from_the_list_only(client, body):
    ev = Hosted(client)
    ev.start_round()
    resp = client.post(call_path(ev, 1), json=body, headers=bearer(ev.tables[1]))
    assert resp.status_code == 422 and resp.get_json()["code"] == "request_invalid"
    assert calls(ev) == []


def test_a_closed_rounds_table_calls_no_more_and_its_calls_end(client):
    ev = Hosted(client)
    ev.start_round()
    token = ev.tables[1]
    assert client.post(call_path(ev, 1), headers=bearer(token)).status_code == 201
    doc = ev.document()
    for table in (1, 2):
        assert ev.put_result(1, table, reported_for(doc, 1, table)).status_code == 200
    ev.version = client.get(f"/v1/events/{ev.id}").get_json()["version"]
    ev.ok(ev.post("/rounds/1/close"))
    late = client.post(call_path(ev, 1), headers=bearer(token))
    assert late.status_code == 403  # the round's table tokens went with it
    assert calls(ev) == []
    closed = client.get(call_path(ev, 1), headers=ev.director)
    assert closed.status_code == 409 and closed.get_json()["code"] == "round_closed"


def test_the_public_view_shows_no_call(client):
    ev = Hosted(client)
    ev.start_round()
    before = client.get(f"/v1/events/{ev.id}")
    client.post(call_path(ev, 2), json={"reason": "dispute"}, headers=bearer(ev.tables[2]))
    after = client.get(f"/v1/events/{ev.id}")
    assert after.get_data() == before.get_data()
    assert after.headers["ETag"] == before.headers["ETag"]
    assert b"dispute" not in after.get_data() and b"call" not in after.get_data()


def test_a_reported_result_confirmed_by_each_seat_is_kept_and_a_stranger_refused(client):
    ev = Hosted(client, event(8, rounds=2, confirmations="seats"))
    ev.start_round()
    doc = ev.document()
    seats = [s["player"] for s in doc["rounds"][0]["tables"][0]["seats"]]
    result = reported_for(doc, 1, 1)
    result["reported"]["confirmed"] = [{"seat": s, "via": "table"} for s in seats]
    ev.version = ev.put_result(1, 1, result).get_json()["version"]
    kept = ev.document()["rounds"][0]["tables"][0]["result"]["reported"]
    assert kept["confirmed"] == result["reported"]["confirmed"]
    stranger = doc["rounds"][0]["tables"][1]["seats"][0]["player"]
    result["reported"]["confirmed"][0]["seat"] = stranger
    refused = ev.put_result(1, 1, result)
    assert refused.status_code == 422 and refused.get_json()["code"] == "event_invalid"
    assert "rounds[0].tables[0].result.reported.confirmed[0].seat" in refused.get_json()["errors"]


def test_only_the_director_attests_a_seats_confirmation(client):
    ev = Hosted(client, event(8, rounds=2, confirmations="seats"))
    ev.start_round()
    doc = ev.document()
    seats = [s["player"] for s in doc["rounds"][0]["tables"][0]["seats"]]
    result = reported_for(doc, 1, 1)
    # three seats tapped on the table's page; the fourth signed the paper score sheet
    result["reported"]["confirmed"] = [{"seat": s, "via": "table"} for s in seats[:-1]] + \
        [{"seat": seats[-1], "via": "director"}]
    version = ev.version
    refused = ev.put_result(1, 1, result)
    assert refused.status_code == 403, refused.get_json()
    body = refused.get_json()
    assert body["code"] == "confirmation_not_allowed"
    assert list(body["errors"]) == ["reported.confirmed[3].via"]
    assert "director" in body["detail"]
    ja = ev.put_result(1, 1, result, **{"Accept-Language": "ja"}).get_json()
    assert ja["code"] == "confirmation_not_allowed" and "ディレクター" in ja["detail"]
    # nothing changed: no version, no result at the table
    assert client.get(f"/v1/events/{ev.id}").get_json()["version"] == version
    assert "result" not in ev.document()["rounds"][0]["tables"][0]
    # a way no token sends is no confirmation: the document refuses it, whoever sends it
    result["reported"]["confirmed"][3]["via"] = "pin"
    for token in (ev.tables[1], ev.director["Authorization"].split()[1]):
        unknown = ev.put_result(1, 1, result, token=token)
        assert unknown.status_code == 422 and unknown.get_json()["code"] == "event_invalid"
    # the director's token says it: kept as sent, and the event checks clean of it
    result["reported"]["confirmed"][3]["via"] = "director"
    director = ev.director["Authorization"].split()[1]
    ev.version = ev.put_result(1, 1, result, token=director).get_json()["version"]
    kept = ev.document()["rounds"][0]["tables"][0]["result"]["reported"]
    assert kept["confirmed"] == result["reported"]["confirmed"]
    assert check_event(ev.document())["consistent"]
