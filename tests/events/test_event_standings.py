"""The event's standings (docs/events.md "Standings"): places from each table's match record
(replayed) or reported result, event points, byes, the director's penalties, the tie-breaks
in the system's order and the lot last."""
from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine import records, registry
from engine.errors import InputError
from engine.events import next_round, parse_event, reveal_round
from engine.events.format import seat_ids
from engine.events.roster import event_points
from engine.events.standings import as_json, record_totals, standings, table_outcome
from tests.events.helpers import event, layouts
from tests.events.playing import deal_reports
from tests.records import random_record
from tests.sizing import examples

TIE_BREAKS = ["opponents_points", "match_score", "first_places", "head_to_head"]


def play_round(ev: dict[str, Any], number: int, rnd: random.Random, records_share: float
               ) -> dict[str, Any]:
    """Round `number` seated, every table given a result (a random match's record; or reported:
    random places with scores, or a random match's deals as the table reports them), and its
    seed revealed."""
    ev = next_round(ev, f"seed-{number}")
    game = ev["system"]["game"]
    parsed = parse_event(ev)
    for table, raw in zip(parsed.rounds[-1].tables, ev["rounds"][-1]["tables"]):
        units = list(dict.fromkeys(s.entrant for s in table.seats))
        if rnd.random() < records_share:
            raw["result"] = {"record": random_record(
                game, rnd, deals=rnd.randint(1, 2), physical=0.0, comments=0.0,
                players=seat_ids(table), options=ev["system"].get("options") or None)}
        elif registry.get(game).reported is not None and rnd.random() < 0.5:
            record = random_record(game, rnd, deals=rnd.randint(1, 2), physical=0.0,
                                   ledger=0.0, comments=0.0, players=seat_ids(table),
                                   options=ev["system"].get("options") or None)
            raw["result"] = {"reported": {"deals": deal_reports(game, record)}}
        else:
            places = {u: rnd.randint(1, len(units)) for u in units}
            ranked = {u: 1 + sum(p < places[u] for p in places.values()) for u in units}
            raw["result"] = {"reported": {"places": ranked,
                                          "scores": {u: -ranked[u] for u in units}}}
    return reveal_round(ev, number, f"seed-{number}")


def played(rnd: random.Random, layout: tuple[str, int, str], entrants: int, rounds: int,
           records_share: float = 0.5) -> dict[str, Any]:
    game, size, partners = layout
    side = len(registry.get(game).partnerships[size][0]) if partners == "fixed" else 1
    entrants = max(entrants, size // side + 1)  # never fewer than a table
    ev = event(entrants, game=game, table_size=size, partners=partners, rounds=rounds + 1,
               event_points=[3, 1, 0], bye_points=2, tie_breaks=rnd.sample(TIE_BREAKS, 4))
    for number in range(1, rounds + 1):
        ev = play_round(ev, number, rnd, records_share)
    units = [e["id"] for e in ev["entrants"]]
    ev["penalties"] = [{"round": rnd.randint(1, rounds), "entrant": rnd.choice(units),
                        "kind": "points", "points": rnd.randint(1, 3), "reason": "late"}
                       for _ in range(rnd.randint(0, 2))]
    return ev


def lines(ev: dict[str, Any]) -> list[dict[str, Any]]:
    return as_json(standings(parse_event(ev)))


def key(line: dict[str, Any], breaks: list[str]) -> tuple[Any, ...]:
    """What ranks a line, most significant first (larger first); the lot last."""
    return (not line["disqualified"], line["event_points"],
            *(line["tie_breaks"][b] for b in breaks), line["lot"])


events = st.builds(lambda seed, layout, n: played(random.Random(seed), layout, n, 2),
                   st.integers(0, 2**32), st.sampled_from(layouts()), st.integers(4, 10))


@given(events, st.integers(0, 2**32))
@settings(max_examples=examples(25), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
def test_standings_do_not_depend_on_the_order_results_were_added(ev, seed):
    rnd = random.Random(seed)
    again = copy.deepcopy(ev)
    rnd.shuffle(again["entrants"])
    rnd.shuffle(again["penalties"])
    for r in again["rounds"]:
        rnd.shuffle(r["tables"])
    # results added one at a time, in any order, to the seated rounds
    bare = copy.deepcopy(again)
    slots = [(k, i) for k, r in enumerate(bare["rounds"]) for i in range(len(r["tables"]))]
    for k, i in slots:
        bare["rounds"][k]["tables"][i].pop("result")
    rnd.shuffle(slots)
    for k, i in slots:
        bare["rounds"][k]["tables"][i]["result"] = again["rounds"][k]["tables"][i]["result"]
    assert lines(again) == lines(ev) == lines(bare)


@given(events)
@settings(max_examples=examples(25), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
def test_a_reported_result_scores_as_the_record_of_the_same_match(ev):
    parsed = parse_event(ev)
    reported = copy.deepcopy(ev)
    for r, rnd in zip(reported["rounds"], parsed.rounds):
        for raw, table in zip(r["tables"], rnd.tables):
            if "record" not in raw["result"]:
                continue
            outcome = table_outcome(parsed, table)
            assert outcome is not None
            totals = record_totals(table, "")
            units = list(outcome.places)
            raw["result"] = {"reported": {"places": outcome.places,
                                          "scores": {u: totals.get(u, 0) for u in units}}}
    # the same in everything but the count of results each entrant had reported
    by_report, by_record = lines(reported), lines(ev)
    assert [{**line, "reported": 0} for line in by_report] == \
        [{**line, "reported": 0} for line in by_record]
    assert all(line["reported"] == line["played"] for line in by_report)


@given(events)
@settings(max_examples=examples(10), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
def test_standings_from_outcomes_kept_apart_are_the_standings_of_the_whole_document(ev):
    # a caller that keeps each table's outcome (the service's public view) hands them in with
    # the document without its results: the same standings
    whole = parse_event(ev)
    played = [[table_outcome(whole, t) for t in rnd.tables] for rnd in whole.rounds]
    bare = copy.deepcopy(ev)
    for r in bare["rounds"]:
        for t in r["tables"]:
            t.pop("result", None)
    assert as_json(standings(parse_event(bare), played)) == lines(ev)


@given(events)
@settings(max_examples=examples(25), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
def test_every_entrant_is_ranked_once_and_every_tie_is_broken(ev):
    out = lines(ev)
    assert sorted(line["entrant"] for line in out) == sorted(e["id"] for e in ev["entrants"])
    assert [line["rank"] for line in out] == list(range(1, len(out) + 1))
    breaks = ev["system"]["tie_breaks"]
    for above, below in zip(out, out[1:]):
        assert key(above, breaks) > key(below, breaks)
    points = event_points(parse_event(ev), parse_event(ev).rounds)
    assert {line["entrant"]: line["event_points"] for line in out} == points


def test_a_table_is_placed_by_the_games_standings_of_its_record():
    rnd = random.Random(5)
    for game_id, size, partners in {layout[0]: layout for layout in layouts()}.values():
        game = registry.get(game_id)
        ev = next_round(event(size, game=game.id, table_size=size, partners=partners), "s")
        table = parse_event(ev).rounds[0].tables[0]
        record = random_record(game.id, rnd, deals=2, physical=0.0, players=seat_ids(table))
        ev["rounds"][0]["tables"][0]["result"] = {"record": record}
        parsed = parse_event(ev)
        outcome = table_outcome(parsed, parsed.rounds[0].tables[0])
        assert outcome is not None
        report, state = records.replay_record(record)
        totals = {e.id: e.total for e in game.standings(state).entries}
        best = (min if game.standings_fewest_first else max)(totals.values())
        firsts = {u for u, place in outcome.places.items() if place == 1}
        assert firsts == {s.entrant for s in table.seats
                          for e in game.standings(state).entries
                          if e.total == best and seat_ids(table)[table.seats.index(s)] in e.seats}


def reported(ev: dict[str, Any], round_index: int, results: list[dict[str, int]]) -> None:
    for table, places in zip(ev["rounds"][round_index]["tables"], results):
        assert set(places) == {s["entrant"] for s in table["seats"]}
        table["result"] = {"reported": {"places": places}}


def two_player_event(**system: Any) -> dict[str, Any]:
    """Six individuals at tables of 2 (Man), seated by the director."""
    return event(6, game="man", table_size=2, event_points=[2, 0], bye_points=2, **system)


def fixed(ev: dict[str, Any], tables: list[list[str]], byes: list[str] | None = None):
    return next_round(ev, f"s{len(ev.get('rounds', []))}", method="fixed",
                      plan={"tables": tables, "byes": byes or []})


def test_tie_breaks_apply_in_the_systems_order_then_the_lot():
    ev = fixed(two_player_event(tie_breaks=["first_places", "opponents_points"]),
               [["p0", "p1"], ["p2", "p3"], ["p4", "p5"]])
    reported(ev, 0, [{"p0": 1, "p1": 2}, {"p2": 1, "p3": 2}, {"p4": 1, "p5": 1}])
    ev = fixed(ev, [["p0", "p2"], ["p1", "p4"], ["p3", "p5"]])
    reported(ev, 1, [{"p0": 1, "p2": 2}, {"p1": 1, "p4": 2}, {"p3": 2, "p5": 1}])
    out = {line["entrant"]: line for line in lines(ev)}
    assert {u: out[u]["event_points"] for u in out} == \
        {"p0": 4, "p1": 2, "p2": 2, "p3": 0, "p4": 2, "p5": 4}
    # p0 and p5: two first places each (a shared first is a first); opponents' points decide
    assert out["p0"]["tie_breaks"] == {"first_places": 2, "opponents_points": 2 + 2}
    assert out["p5"]["tie_breaks"] == {"first_places": 2, "opponents_points": 2 + 0}
    assert (out["p0"]["rank"], out["p5"]["rank"]) == (1, 2)
    # p1, p2, p4: one first each; p1 and p4 met 6 opponents' points, p2 4
    assert [out[u]["tie_breaks"]["opponents_points"] for u in ("p1", "p2", "p4")] == [6, 4, 6]
    assert out["p2"]["rank"] == 5 and out["p3"]["rank"] == 6
    lot_first = max(("p1", "p4"), key=lambda u: out[u]["lot"])
    assert out[lot_first]["rank"] == 3  # the lot breaks what is still tied


def test_head_to_head_counts_among_those_still_tied():
    ev = fixed(two_player_event(tie_breaks=["head_to_head"]),
               [["p0", "p1"], ["p2", "p3"], ["p4", "p5"]])
    reported(ev, 0, [{"p0": 2, "p1": 1}, {"p2": 1, "p3": 2}, {"p4": 2, "p5": 1}])
    ev = fixed(ev, [["p0", "p2"], ["p1", "p4"], ["p3", "p5"]])
    reported(ev, 1, [{"p0": 1, "p2": 2}, {"p1": 1, "p4": 2}, {"p3": 1, "p5": 2}])
    out = {line["entrant"]: line for line in lines(ev)}
    # p0, p2, p3 and p5 have 2 points; among them p0 beat p2, p2 beat p3, p3 beat p5
    assert {u: out[u]["tie_breaks"]["head_to_head"] for u in ("p0", "p2", "p3", "p5")} == \
        {"p0": 1, "p2": 0, "p3": 0, "p5": -1}
    assert out["p1"]["rank"] == 1 and out["p1"]["tie_breaks"]["head_to_head"] == 0
    assert out["p0"]["rank"] == 2 and {out["p2"]["rank"], out["p3"]["rank"]} == {3, 4}
    assert (out["p5"]["rank"], out["p4"]["rank"]) == (5, 6)


def test_byes_penalties_and_disqualification():
    ev = fixed(event(5, game="man", table_size=2, event_points=[2, 0], bye_points=1),
               [["p0", "p1"], ["p2", "p3"]], ["p4"])
    reported(ev, 0, [{"p0": 1, "p1": 2}, {"p2": 1, "p3": 2}])
    ev["penalties"] = [{"round": 1, "entrant": "p2", "kind": "points", "points": 2,
                        "reason": "slow play"},
                       {"round": 1, "entrant": "p0", "kind": "disqualification",
                        "reason": "conduct"}]
    out = lines(ev)
    assert [line["entrant"] for line in out][-1] == "p0"  # disqualified: last, points or not
    by = {line["entrant"]: line for line in out}
    assert by["p4"]["event_points"] == 1 and by["p4"]["byes"] == 1
    assert by["p2"]["event_points"] == 0 and by["p2"]["penalty_points"] == 2
    assert by["p0"]["disqualified"] and by["p0"]["event_points"] == 2


def test_a_record_that_does_not_replay_as_written_is_refused():
    ev = next_round(event(4, game="daifugo", table_size=4), "s")
    table = parse_event(ev).rounds[0].tables[0]
    record = random_record("daifugo", random.Random(2), deals=1, physical=0.0,
                           players=seat_ids(table))
    record["totals"] = {p: 7 for p in record["players"]}
    record.pop("digest")
    ev["rounds"][0]["tables"][0]["result"] = {"record": record}
    with pytest.raises(InputError) as err:
        standings(parse_event(ev))
    assert err.value.code == "event_record_inconsistent"
    assert err.value.path == "rounds[0].tables[0].result.record"


def test_swiss_seats_by_the_points_of_records_too():
    rnd = random.Random(11)
    ev = played(rnd, ("daifugo", 4, "none"), 12, 1, records_share=1.0)
    parsed = parse_event(ev)
    points = event_points(parsed, parsed.rounds)
    assert any(points.values())  # the records' places count
    ev = next_round(ev, "next")
    top = {s["entrant"] for s in ev["rounds"][-1]["tables"][0]["seats"]}
    assert max(points[u] for u in top) == max(points.values())  # the best-placed opens table 1
