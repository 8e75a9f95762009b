"""A table's reported deals (docs/events.md "Reported results"): each deal's outcome as the table
reports it, scored by the game's own code (`Game.reported`) into the standings a record of the
same deals gives, marked `reported`; stated places and scores checked against it; a deal the
rules cannot produce, or one of the wrong shape, refused with its path in the document."""
from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine import registry
from engine.errors import InputError
from engine.events import next_round, parse_event
from engine.events.format import seat_ids
from engine.events.standings import as_json, record_totals, standings, table_outcome
from tests.events.helpers import event, layouts
from tests.events.playing import deal_reports
from tests.records import random_record
from tests.sizing import examples

REPORTING = [layout for layout in layouts() if registry.get(layout[0]).reported is not None]


def recorded_and_reported(layout: tuple[str, int, str], entrants: int, rnd: random.Random
                          ) -> tuple[dict[str, Any], dict[str, Any]]:
    """One round of an event with every table's result a record of random deals, and the same
    event with each table reporting those deals instead."""
    game, size, partners = layout
    side = len(registry.get(game).partnerships[size][0]) if partners == "fixed" else 1
    entrants = max(entrants, size // side)  # never fewer than a table
    ev = next_round(event(entrants, game=game, table_size=size, partners=partners,
                          event_points=[3, 1, 0], tie_breaks=["match_score", "first_places"]),
                    f"seed-{rnd.getrandbits(32)}")
    parsed = parse_event(ev)
    reported = copy.deepcopy(ev)
    for table, raw, other in zip(parsed.rounds[0].tables, ev["rounds"][0]["tables"],
                                 reported["rounds"][0]["tables"]):
        # no referee's penalties: a table that reports its deals has no referee
        record = random_record(game, rnd, deals=rnd.randint(1, 3), physical=0.0, ledger=0.0,
                               comments=0.0, players=seat_ids(table),
                               options=ev["system"].get("options") or None)
        raw["result"] = {"record": record}
        other["result"] = {"reported": {"deals": deal_reports(game, record)}}
    return ev, reported


def lines(ev: dict[str, Any]) -> list[dict[str, Any]]:
    return as_json(standings(parse_event(ev)))


def unmarked(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in line.items() if k != "reported"} for line in found]


def refused(ev: dict[str, Any]) -> InputError:
    with pytest.raises(InputError) as err:
        standings(parse_event(ev))
    return err.value


@given(st.sampled_from(REPORTING), st.integers(2, 9), st.integers(0, 2**32))
@settings(max_examples=examples(4), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
def test_a_tables_reported_deals_score_as_the_record_of_the_same_deals(layout, entrants, seed):
    ev, reported = recorded_and_reported(layout, entrants, random.Random(seed))
    by_record, by_report = lines(ev), lines(reported)
    assert unmarked(by_report) == unmarked(by_record)
    assert all(line["reported"] == 0 for line in by_record)
    assert all(line["reported"] == line["played"] for line in by_report)
    # stating the places and scores the deals give changes nothing
    parsed = parse_event(ev)
    for table, raw in zip(parsed.rounds[0].tables, reported["rounds"][0]["tables"]):
        outcome = table_outcome(parsed, table)
        assert outcome is not None and not outcome.reported
        raw["result"]["reported"].update(places=outcome.places,
                                         scores=record_totals(table, "result.record"))
    assert lines(reported) == by_report


def guandan_table() -> tuple[dict[str, Any], list[str]]:
    """Two pairs at one Guandan table (t0: seats 0 and 2, team1; t1: team2), seated."""
    ev = next_round(event(2, game="guandan", table_size=4, partners="fixed",
                          event_points=[2, 0]), "s")
    seats = ev["rounds"][0]["tables"][0]["seats"]
    return ev, [s["player"] for s in seats]


def test_places_and_scores_may_be_left_out_and_are_derived():
    ev, seats = guandan_table()
    team1 = ev["rounds"][0]["tables"][0]["seats"][0]["entrant"]
    team2 = ev["rounds"][0]["tables"][0]["seats"][1]["entrant"]
    # team1's 1st and 2nd twice: 2 → 5 → 8 (S-1); team2 stays at 2
    ev["rounds"][0]["tables"][0]["result"] = {"reported": {"deals": [
        {"order": [seats[0], seats[2]]}, {"order": [seats[2], seats[0]]}]}}
    parsed = parse_event(ev)
    outcome = table_outcome(parsed, parsed.rounds[0].tables[0])
    assert outcome is not None and outcome.reported
    assert outcome.places == {team1: 1, team2: 2}
    assert outcome.margins == {team1: 8 - 2, team2: 2 - 8}
    ev["rounds"][0]["tables"][0]["result"]["reported"].update(
        places={team1: 1, team2: 2}, scores={team1: 8, team2: 2})
    assert lines(ev)[0]["entrant"] == team1


def test_a_stated_place_or_score_the_deals_do_not_give_is_refused_with_its_path():
    ev, seats = guandan_table()
    team1 = ev["rounds"][0]["tables"][0]["seats"][0]["entrant"]
    team2 = ev["rounds"][0]["tables"][0]["seats"][1]["entrant"]
    result = {"deals": [{"order": [seats[0], seats[2]]}], "places": {team1: 2, team2: 1}}
    ev["rounds"][0]["tables"][0]["result"] = {"reported": result}
    err = refused(ev)
    assert err.code == "reported_result_inconsistent"
    assert err.path == f"rounds[0].tables[0].result.reported.places.{team1}"
    result.update(places={team1: 1, team2: 2}, scores={team1: 5, team2: 3})
    err = refused(ev)
    assert (err.code, err.path) == ("reported_result_inconsistent",
                                    f"rounds[0].tables[0].result.reported.scores.{team2}")


def test_a_deal_the_rules_cannot_produce_is_refused_with_its_path():
    ev, seats = guandan_table()
    ev["rounds"][0]["tables"][0]["result"] = {"reported": {"deals": [
        {"order": [seats[0], seats[2]]}, {"order": [seats[1], seats[1]]}]}}
    err = refused(ev)
    assert (err.code, err.path) == ("event_invalid",
                                    "rounds[0].tables[0].result.reported.deals[1].order[1]")


@pytest.mark.parametrize("deal, path", [
    ({"order": "p0"}, "deals[0].order"),
    ({"order": [], "winner": "p0"}, "deals[0]"),
    ([], "deals[0]"),
])
def test_a_deal_of_the_wrong_shape_is_refused_when_the_event_is_read(deal, path):
    ev, _seats = guandan_table()
    ev["rounds"][0]["tables"][0]["result"] = {"reported": {"deals": [deal]}}
    with pytest.raises(InputError) as err:
        parse_event(ev)
    assert (err.value.code, err.value.path) == ("event_invalid",
                                                f"rounds[0].tables[0].result.reported.{path}")


def test_a_reported_result_gives_places_or_deals():
    ev, _seats = guandan_table()
    ev["rounds"][0]["tables"][0]["result"] = {"reported": {"note": "forgot"}}
    with pytest.raises(InputError) as err:
        parse_event(ev)
    assert err.value.path == "rounds[0].tables[0].result.reported.places"


def test_deals_are_refused_for_a_game_that_scores_none(monkeypatch):
    ev, seats = guandan_table()
    ev["rounds"][0]["tables"][0]["result"] = {"reported": {"deals": [
        {"order": [seats[0], seats[2]]}]}}
    monkeypatch.setattr(type(registry.get("guandan")), "reported", None)
    with pytest.raises(InputError) as err:
        parse_event(ev)
    assert (err.value.code, err.value.path) == ("event_invalid",
                                                "rounds[0].tables[0].result.reported.deals")
