"""The event endpoints (docs/events.md "Endpoints and commands"): POST /v1/events/next-round
seats what the engine's next_round seats, committing the seed without answering it; POST
/v1/events/reveal-round writes the seed in once it makes the commitment; standings, check and
sheet answer what engine/events/publish.py and check.py say, in the format and language asked.
A bad document is a 4xx with a stable code and the path of the fault in the request (`event.` +
its path in the document where the document is a field of the request), never a 500; the work a
document asks for is bounded (413)."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine import rng
from engine.events import digest, next_round, parse_event, reveal_round, verify_seating
from engine.events.check import check_event
from engine.events.publish import MEDIA_TYPES, sheet, standings_report
from engine.sheets import FORMATS
from service.app import create_app
from service.config import Settings
from service.errors import TITLES
from tests.events.helpers import event, random_events
from tests.sizing import examples

SALT = "0123456789abcdef0123456789abcdef"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PROPERTY = settings(max_examples=examples(20), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def client():
    """One app for the module (the endpoints keep nothing between requests)."""
    return create_app(Settings(metrics=False)).test_client()


def seat(client, ev: dict, seed: str = "r1", salt: str | None = SALT, **extra):
    body = {"event": ev, "seed": seed, **({"seed_salt": salt} if salt else {}), **extra}
    return client.post("/v1/events/next-round", json=body)


def reveal(client, ev: dict, number: int, seed: str = "r1", salt: str | None = SALT):
    body = {"event": ev, "round": number, "seed": seed, **({"seed_salt": salt} if salt else {})}
    return client.post("/v1/events/reveal-round", json=body)


def with_reported_results(ev: dict, draw) -> dict:
    """The last round's tables, each with a reported result placing its entrants as drawn."""
    for table in ev["rounds"][-1]["tables"]:
        entrants = list(dict.fromkeys(s["entrant"] for s in table["seats"]))
        places = draw(st.permutations(range(1, len(entrants) + 1)))
        table["result"] = {"reported": {"places": dict(zip(entrants, places))}}
    return ev


@PROPERTY
@given(start=random_events(max_entrants=14), data=st.data())
def test_rounds_seated_through_the_endpoint_are_the_engines_own(client, start, data):
    ev = start
    for number in range(1, min(3, ev["system"]["rounds"]) + 1):
        seed = data.draw(st.text(min_size=1, max_size=12), label="seed")
        salt = data.draw(st.sampled_from([None, SALT, rng.new_salt()]), label="salt")
        resp = seat(client, ev, seed, salt)
        assert resp.status_code == 200, resp.get_json()
        seated = resp.get_json()
        assert seated == next_round(copy.deepcopy(ev), seed, salt)
        rnd = seated["rounds"][-1]
        # the commitment is answered, the seed is not: the director keeps it until the round ends
        assert rnd["seed_commitment"] == rng.commitment(seed, salt)
        assert "seed" not in rnd and "seed_salt" not in rnd
        revealed = reveal(client, seated, number, seed, salt)
        assert revealed.status_code == 200, revealed.get_json()
        assert revealed.get_json() == reveal_round(seated, number, seed, salt)
        assert verify_seating(revealed.get_json(), number)
        ev = with_reported_results(seated, data.draw)


def test_a_fixed_round_seats_the_directors_plan(client):
    plan = {"tables": [["p4", "p1", "p0", "p3"]], "byes": ["p2"]}
    resp = seat(client, event(5), plan=plan)
    assert resp.status_code == 200
    rnd = resp.get_json()["rounds"][0]
    assert rnd["method"] == "fixed" and rnd["byes"] == ["p2"]
    assert [s["entrant"] for s in rnd["tables"][0]["seats"]] == ["p4", "p1", "p0", "p3"]


def test_the_same_deals_seeds_are_committed_then_revealed(client):
    ev = event(8, same_deals=3)
    seated = seat(client, ev).get_json()
    assert [set(d) for d in seated["rounds"][0]["deals"]] == [{"seed_commitment"}] * 3
    revealed = reveal(client, seated, 1).get_json()["rounds"][0]
    assert all(rng.commitment(d["seed"], d["seed_salt"]) == d["seed_commitment"]
               for d in revealed["deals"])


def test_a_seed_that_does_not_make_the_commitment_is_commitment_mismatch(client):
    seated = seat(client, event(6), "the-seed").get_json()
    resp = reveal(client, seated, 1, "another-seed")
    body = resp.get_json()
    assert resp.status_code == 422 and body["code"] == "commitment_mismatch"
    assert list(body["errors"]) == ["event.rounds[0].seed_commitment"]
    unsalted = reveal(client, seated, 1, "the-seed", salt=None)
    assert unsalted.status_code == 422 and unsalted.get_json()["code"] == "commitment_mismatch"


def _set(path: list, value):
    def change(ev: dict) -> dict:
        node = ev
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        return ev
    return change


def _seated_once(ev: dict) -> dict:
    return next_round(ev, "r1", SALT)


@pytest.mark.parametrize("change, code, path", [
    (_set(["format"], "card-referee/match-record"), "event_invalid", "event.format"),
    (_set(["format_version"], 2), "event_version_unsupported", "event.format_version"),
    (_set(["system", "colour"], "blue"), "event_invalid", "event.system"),
    (_set(["system", "table_size"], "four"), "event_invalid", "event.system.table_size"),
    (_set(["system", "game"], "chess"), "game_unknown", "event.system.game"),
    (_set(["entrants", 1, "id"], "p0"), "event_invalid", "event.entrants[1].id"),
    (lambda ev: _set(["rounds", 0, "tables", 0, "seats", 2, "entrant"], "nobody")(
        _seated_once(ev)), "event_invalid", "event.rounds[0].tables[0].seats"),
    (lambda ev: _set(["rounds", 0, "tables", 0, "result"],
                     {"reported": {"places": {"p9": 1}}})(_seated_once(ev)),
     "event_invalid", "event.rounds[0].tables[0].result.reported.places"),
    (_set(["system", "rounds"], 0), "event_invalid", "event.system.rounds"),
], ids=["format", "version", "unknown_field", "type", "game", "duplicate_id",
        "unknown_entrant_in_a_seat", "reported_places", "no_rounds"])
def test_a_bad_document_is_a_4xx_naming_its_path_in_the_request(client, change, code, path):
    resp = seat(client, change(event(6)))
    body = resp.get_json()
    assert resp.status_code == 422 and resp.mimetype == "application/problem+json", body
    assert body["code"] == code and path in body["errors"], body
    assert body["title"] == TITLES[code][0]


def test_a_document_fault_is_worded_in_japanese_for_a_japanese_reader(client):
    resp = client.post("/v1/events/next-round", headers={"Accept-Language": "ja"},
                       json={"event": _set(["format"], "x")(event(6)), "seed": "r1"})
    body = resp.get_json()
    assert body["code"] == "event_invalid" and body["title"] == TITLES["event_invalid"][1]


def test_an_event_with_every_round_seated_has_no_next_round(client):
    ev = event(4, rounds=1)
    resp = seat(client, next_round(ev, "r1", SALT))
    body = resp.get_json()
    assert resp.status_code == 422 and body["code"] == "event_invalid"
    assert "event.rounds" in body["errors"]


@pytest.mark.parametrize("extra, code, path", [
    ({"plan": {"tables": [["p0", "p1", "p2", "zz"]], "byes": ["p3", "p4"]}}, "plan_invalid",
     "plan.tables[0]"),
    ({"plan": {"tables": [["p0", "p1", "p2", "p3"]]}}, "plan_invalid", "plan"),
    ({"method": "swiss", "plan": {"tables": []}}, "plan_invalid", "plan"),
    ({"plan": {"tables": [], "chairs": []}}, "request_invalid", "plan.chairs"),
    ({"method": "round-robin"}, "request_invalid", "method"),
    ({"seed": ""}, "request_invalid", "seed"),
    ({"seed_salt": "ABCDEF"}, "request_invalid", "seed_salt"),
    ({"colour": "blue"}, "request_invalid", "colour"),
    ({"event": "an event"}, "request_invalid", "event"),
], ids=["plan_unknown_entrant", "plan_leaves_out", "plan_for_swiss", "plan_field", "method",
        "empty_seed", "salt", "unknown_field", "event_not_an_object"])
def test_a_bad_request_field_is_named_by_its_own_path(client, extra, code, path):
    resp = client.post("/v1/events/next-round",
                       json={"event": event(5), "seed": "r1", **extra})
    body = resp.get_json()
    assert resp.status_code == 422 and body["code"] == code and path in body["errors"], body


def test_a_round_not_seated_cannot_be_revealed(client):
    resp = reveal(client, event(6), 1)
    assert resp.status_code == 422 and resp.get_json()["code"] == "event_invalid"
    resp = client.post("/v1/events/reveal-round", json={"event": event(6), "round": 0,
                                                        "seed": "r1"})
    assert resp.status_code == 422 and "round" in resp.get_json()["errors"]


def test_a_body_that_is_not_json_is_400_and_one_not_declared_json_is_415(client):
    resp = client.post("/v1/events/next-round", data=b'{"event": {', content_type="application/json")
    assert resp.status_code == 400 and resp.get_json()["code"] == "json_malformed"
    resp = client.post("/v1/events/reveal-round", data=json.dumps({"event": event(4)}),
                       content_type="text/plain")
    assert resp.status_code == 415 and resp.get_json()["code"] == "unsupported_media_type"


def test_a_body_past_the_size_limit_is_413(make_client):
    client = make_client(max_body_bytes=4096)
    resp = seat(client, event(200))
    assert resp.status_code == 413 and resp.get_json()["code"] == "body_too_large"


def _with_record(ev: dict, deals: int, actions: int) -> dict:
    """Round 1 seated, its first table carrying a record of `deals` deals of `actions` actions
    each (counted before anything is read: its contents do not matter to the bound)."""
    ev = next_round(ev, "r1", SALT)
    ev["rounds"][0]["tables"][0]["result"] = {"record": {
        "deals": [{"actions": [{}] * actions} for _ in range(deals)]}}
    return ev


@pytest.mark.parametrize("limits, path", [
    ({"max_record_deals": 2}, "event.rounds[0].tables[0].result.record.deals"),
    ({"max_record_actions": 5}, "event.rounds[0].tables[0].result.record.deals"),
    ({"max_event_actions": 5}, "event.rounds"),
])
def test_records_past_the_services_bounds_are_limit_exceeded(make_client, limits, path):
    resp = seat(make_client(**limits), _with_record(event(8), deals=3, actions=2))
    body = resp.get_json()
    assert resp.status_code == 413 and body["code"] == "limit_exceeded", body
    assert path in body["errors"]


def test_an_id_longer_than_a_record_may_seat_is_refused_where_it_is(client):
    ev = event(6)
    ev["entrants"][3]["id"] = "p" * 65
    resp = seat(client, ev)
    body = resp.get_json()
    assert resp.status_code == 422 and body["code"] == "event_invalid"
    assert "event.entrants[3].id" in body["errors"]


def test_fixed_teams_are_seated_as_sides_in_a_document_the_engine_reads(client):
    ev = event(9, game="guandan", partners="fixed", same_deals=2)
    parsed = parse_event(seat(client, ev).get_json())
    (rnd,) = parsed.rounds
    assert len(rnd.tables) == 4 and len(rnd.byes) == 1 and len(rnd.deals) == 2
    for table in rnd.tables:  # Guandan's sides: seats 0 and 2, 1 and 3
        assert table.seats[0].entrant == table.seats[2].entrant != table.seats[1].entrant


def _event_with_the_example_man_record() -> dict:
    """Round 1 of a Man event seated as examples/man.json's table, that record its result."""
    record = json.loads((EXAMPLES / "man.json").read_text(encoding="utf-8"))
    ev = {"format": "card-referee/event", "format_version": 1,
          "system": {"game": "man", "table_size": 4, "rounds": 3, "options": record["options"],
                     "round_end": {"kind": "match"}, "event_points": [3, 2, 1, 0]},
          "entrants": [{"id": p} for p in record["players"]]}
    ev = next_round(ev, "r1", SALT, plan={"tables": [record["players"]], "byes": []})
    ev["rounds"][0]["tables"][0]["result"] = {"record": record}
    return ev


def test_a_swiss_round_reads_each_tables_record_and_refuses_one_that_does_not_replay(client):
    ev = _event_with_the_example_man_record()
    assert seat(client, ev, "r2").get_json() == next_round(ev, "r2", SALT)
    actions = ev["rounds"][0]["tables"][0]["result"]["record"]["deals"][1]["actions"]
    actions[3]["action"]["cards"] = ["SA"]  # a card the hand does not hold
    resp = seat(client, ev, "r2")
    body = resp.get_json()
    assert resp.status_code == 422 and body["code"] == "event_record_inconsistent", body
    assert list(body["errors"]) == ["event.rounds[0].tables[0].result.record"]


# ---------------------------------------------------------------- standings, check, sheet

def _played(entrants: int = 6, **system) -> dict:
    """Round 1 seated, revealed, and each table's result reported (the seat order's places)."""
    ev = next_round(event(entrants, **system), "r1", SALT)
    for table in ev["rounds"][0]["tables"]:
        units = list(dict.fromkeys(s["entrant"] for s in table["seats"]))
        table["result"] = {"reported": {"places": {u: k + 1 for k, u in enumerate(units)}}}
    return reveal_round(ev, 1, "r1", SALT)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_standings_are_the_engines_report_in_the_language_asked(client, lang):
    ev = _played()
    resp = client.post(f"/v1/events/standings?lang={lang}", json=ev)
    assert resp.status_code == 200 and resp.headers["Content-Language"] == lang
    assert resp.get_json() == standings_report(ev, lang)
    by_header = client.post("/v1/events/standings", json=ev, headers={"Accept-Language": lang})
    assert by_header.get_json() == standings_report(ev, lang)


def test_the_check_names_the_first_discrepancy_and_answers_200(client):
    ev = _played()
    assert client.post("/v1/events/check", json=ev).get_json() == check_event(ev)
    assert check_event(ev)["consistent"]
    ev["rounds"][0]["seed"] = "not the seed"
    resp = client.post("/v1/events/check", json=ev)
    body = resp.get_json()
    assert resp.status_code == 200 and not body["consistent"]
    assert body["discrepancy"]["code"] == "commitment_mismatch"
    assert body["discrepancy"]["path"].startswith("rounds[0]")


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_sheet_is_the_engines_in_the_format_asked_and_says_whether_it_checks(client, fmt):
    ev = _played()
    resp = client.post(f"/v1/events/sheet?format={fmt}&lang=ja", json=ev)
    assert resp.status_code == 200 and resp.mimetype == MEDIA_TYPES[fmt]
    assert resp.get_data(as_text=True) == sheet(ev, fmt, "ja")
    assert resp.headers["Content-Language"] == "ja"
    assert resp.headers["Card-Referee-Consistent"] == "true"
    assert resp.headers["Card-Referee-Digest"] == digest(ev)
    ev["rounds"][0]["seed"] = "not the seed"
    assert client.post(f"/v1/events/sheet?format={fmt}", json=ev).headers[
        "Card-Referee-Consistent"] == "false"


def test_without_a_format_accept_chooses_the_sheets_and_caches_key_on_it(client):
    resp = client.post("/v1/events/sheet", json=_played(), headers={"Accept": "text/html"})
    assert resp.mimetype == "text/html" and "Accept" in resp.headers["Vary"]
    resp = client.post("/v1/events/sheet?format=pdf", json=_played())
    assert resp.status_code == 422 and "format" in resp.get_json()["errors"]


@pytest.mark.parametrize("route", ["standings", "check", "sheet"])
def test_a_bad_document_posted_to_be_published_is_named_by_its_own_path(client, route):
    ev = _played()
    ev["rounds"][0]["tables"][0]["seats"][1]["entrant"] = "nobody"
    resp = client.post(f"/v1/events/{route}", json=ev)
    body = resp.get_json()
    assert resp.status_code == 422 and body["code"] == "event_invalid", body
    assert "rounds[0].tables[0].seats" in body["errors"]
    resp = client.post(f"/v1/events/{route}", data=b"[1,", content_type="application/json")
    assert resp.status_code == 400 and resp.get_json()["code"] == "json_malformed"


def test_a_record_that_does_not_replay_cannot_be_counted_in_the_standings(client):
    ev = _event_with_the_example_man_record()
    actions = ev["rounds"][0]["tables"][0]["result"]["record"]["deals"][1]["actions"]
    actions[3]["action"]["cards"] = ["SA"]
    resp = client.post("/v1/events/standings", json=ev)
    assert resp.status_code == 422 and resp.get_json()["code"] == "event_record_inconsistent"
    checked = client.post("/v1/events/check", json=ev).get_json()
    assert checked["discrepancy"]["code"] == "record_inconsistent"
    assert checked["discrepancy"]["round"] == 1 and checked["discrepancy"]["table"] == 1


def test_a_wrong_option_of_the_system_is_named_under_the_system(client):
    """A game's own check of its options names `options.x`; in an event that is
    `event.system.options.x`."""
    event = json.loads((EXAMPLES / "events" / "daifugo-20-players.json").read_text())
    event["system"]["options"] = {"preset": "no-such-preset"}
    event.pop("digest", None)
    answer = client.post("/v1/events/standings", json=event)
    assert answer.status_code == 422
    assert answer.json["code"] == "options_invalid"
    assert list(answer.json["errors"]) == ["system.options.preset"]
