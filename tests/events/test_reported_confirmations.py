"""Each seat's confirmation of a reported result (docs/events.md "Confirmations"): an event
whose system asks for them (`confirmations: "seats"`) has each reported result confirmed by
every seat at its table; the check names the table whose result a seat did not confirm, the
standings still count it, marked; a confirmation by anyone not seated there is refused."""
from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine.events import next_round, parse_event
from engine.events.check import check_event
from engine.events.format import InvalidEvent, seat_ids
from engine.events.publish import sheet, standings_report
from tests.events.helpers import event, layouts
from tests.events.playing import finished
from tests.sizing import examples


def confirm_all(ev: dict[str, Any]) -> dict[str, Any]:
    """Every reported result of the event confirmed by each seat at its table."""
    parsed = parse_event(ev)
    for rnd, raw in zip(parsed.rounds, ev["rounds"]):
        for table, raw_table in zip(rnd.tables, raw["tables"]):
            reported = (raw_table.get("result") or {}).get("reported")
            if reported is not None:
                reported["confirmed"] = [{"seat": s, "via": "table"} for s in seat_ids(table)]
    return ev


def reported_tables(ev: dict[str, Any]) -> list[tuple[int, int]]:
    return [(k, t) for k, rnd in enumerate(ev["rounds"]) for t, table in enumerate(rnd["tables"])
            if "reported" in (table.get("result") or {})]


def one_round(**system: Any) -> dict[str, Any]:
    """One round of four seated, table 1's result reported (its places in seat order)."""
    ev = next_round(event(4, **system), "seed-1")
    table = ev["rounds"][0]["tables"][0]
    table["result"] = {"reported": {"places": {s["entrant"]: i + 1
                                               for i, s in enumerate(table["seats"])}}}
    return ev


@given(st.sampled_from(layouts()), st.integers(2, 12), st.integers(1, 3), st.integers(0, 2**32),
       st.data())
@settings(max_examples=examples(6), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
def test_every_seat_confirmed_checks_clean_and_one_missing_is_found_at_its_table(
        layout, entrants, rounds, seed, data):
    ev = confirm_all(finished(random.Random(seed), layout, entrants, rounds, records_share=0.3,
                              confirmations="seats"))
    answer = check_event(ev)
    assert answer["consistent"], answer["discrepancy"]
    tables = reported_tables(ev)
    if not tables:
        return
    k, t = data.draw(st.sampled_from(tables))
    confirmed = ev["rounds"][k]["tables"][t]["result"]["reported"]["confirmed"]
    missing = confirmed.pop(data.draw(st.integers(0, len(confirmed) - 1)))
    # the first unconfirmed result is the first discrepancy: it is this one (all else is clean)
    found = check_event(ev)["discrepancy"]
    assert found is not None and found["code"] == "reported_unconfirmed"
    assert (found["round"], found["table"]) == (k + 1, ev["rounds"][k]["tables"][t]["number"])
    assert found["path"] == f"rounds[{k}].tables[{t}].result.reported.confirmed"
    assert missing["seat"] in found["message"]["en"] and missing["seat"] in found["message"]["ja"]


def test_an_event_asking_no_confirmation_checks_an_unconfirmed_result_clean():
    assert check_event(one_round())["consistent"]
    assert not check_event(one_round(confirmations="seats"))["consistent"]


def test_an_unconfirmed_result_counts_in_the_standings_marked_and_on_the_sheet():
    ev = one_round(confirmations="seats")
    seats = ev["rounds"][0]["tables"][0]["seats"]
    ev["rounds"][0]["tables"][0]["result"]["reported"]["confirmed"] = [
        {"seat": s["player"], "via": "table"} for s in seats[1:]]
    report = standings_report(ev)
    assert report["check"]["discrepancy"]["code"] == "reported_unconfirmed"
    first = next(line for line in report["standings"] if line["entrant"] == seats[0]["entrant"])
    assert first["rank"] == 1 and first["event_points"] == 3
    assert all(line["rounds"][0]["unconfirmed"] for line in report["standings"])
    text = sheet(ev, "text", "en")
    assert "reported, unconfirmed" in text
    assert "申告(未確認)" in sheet(ev, "text", "ja")
    # confirmed by every seat: counted the same, no longer marked
    ev["rounds"][0]["tables"][0]["result"]["reported"]["confirmed"].append(
        {"seat": seats[0]["player"], "via": "table"})
    again = standings_report(ev)
    assert again["check"]["consistent"]
    assert [line["event_points"] for line in again["standings"]] == \
        [line["event_points"] for line in report["standings"]]
    assert not any(line["rounds"][0]["unconfirmed"] for line in again["standings"])
    assert "unconfirmed" not in sheet(ev, "text", "en")


def test_the_directors_word_for_a_seat_counts_as_its_confirmation_and_the_sheet_says_so():
    ev = one_round(confirmations="seats")
    seats = ev["rounds"][0]["tables"][0]["seats"]
    # the last seat signed the paper score sheet; the director enters it
    ev["rounds"][0]["tables"][0]["result"]["reported"]["confirmed"] = [
        {"seat": s["player"], "via": "table"} for s in seats[:-1]] + [
        {"seat": seats[-1]["player"], "via": "director"}]
    assert check_event(ev)["consistent"]
    report = standings_report(ev)
    assert not any(line["rounds"][0]["unconfirmed"] for line in report["standings"])
    # the sheet says it on that seat's row alone
    text = sheet(ev, "text", "en")
    assert text.count("reported, confirmed by the director") == 1
    row = next(r for r in text.splitlines() if "confirmed by the director" in r)
    assert seats[-1]["player"] in row and "unconfirmed" not in text
    assert sheet(ev, "text", "ja").count("申告(ディレクターが確認)") == 1
    # every seat's by the director's word: the same standings
    ev["rounds"][0]["tables"][0]["result"]["reported"]["confirmed"] = [
        {"seat": s["player"], "via": "director"} for s in seats]
    assert check_event(ev)["consistent"]
    assert [line["event_points"] for line in standings_report(ev)["standings"]] == \
        [line["event_points"] for line in report["standings"]]


def test_a_substitute_confirms_in_the_seat_they_took():
    ev = one_round(confirmations="seats")
    table = ev["rounds"][0]["tables"][0]
    table["seats"][2]["substitute"] = {"id": "sub", "name": "Sub"}
    table["result"]["reported"]["confirmed"] = [
        {"seat": s["player"] if "substitute" not in s else "sub", "via": "table"}
        for s in table["seats"]]
    assert check_event(ev)["consistent"]
    table["result"]["reported"]["confirmed"][2]["seat"] = table["seats"][2]["player"]
    with pytest.raises(InvalidEvent) as err:
        parse_event(ev)
    assert err.value.path == "rounds[0].tables[0].result.reported.confirmed[2].seat"


@pytest.mark.parametrize("who, via, path", [
    ("other_table", "table", "confirmed[0].seat"),  # seated, at another table
    ("nobody", "table", "confirmed[0].seat"),       # no one of the event
    ("here", "phone", "confirmed[0].via"),          # no such way
    ("here", None, "confirmed[0]"),                 # how, unsaid
])
def test_a_confirmation_by_no_seat_of_the_table_is_refused_with_its_path(who, via, path):
    ev = next_round(event(8), "seed-1")
    here, there = ev["rounds"][0]["tables"]
    seat = {"other_table": there["seats"][0]["player"], "nobody": "nobody",
            "here": here["seats"][0]["player"]}[who]
    confirmation = {"seat": seat} if via is None else {"seat": seat, "via": via}
    here["result"] = {"reported": {"places": {s["entrant"]: i + 1
                                              for i, s in enumerate(here["seats"])},
                                   "confirmed": [confirmation]}}
    with pytest.raises(InvalidEvent) as err:
        parse_event(ev)
    assert err.value.code == "event_invalid"
    assert err.value.path == "rounds[0].tables[0].result.reported." + path


def test_a_seat_confirms_once():
    ev = one_round(confirmations="seats")
    seat = ev["rounds"][0]["tables"][0]["seats"][0]["player"]
    ev["rounds"][0]["tables"][0]["result"]["reported"]["confirmed"] = [
        {"seat": seat, "via": "table"}, {"seat": seat, "via": "table"}]
    with pytest.raises(InvalidEvent) as err:
        parse_event(copy.deepcopy(ev))
    assert err.value.path == "rounds[0].tables[0].result.reported.confirmed[1].seat"
