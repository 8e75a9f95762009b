"""examples/events/: finished events made by tools/make_event_examples.py. Each is what the tool
makes (so the files stay true to the engine), and holds up as docs/events.md promises anyone
holding the file: it parses, its digest is its own, every table's record replays consistent
with the table's seats, every round's seating is what its revealed seed derives, the event's
whole check (engine/events/check.py) finds nothing, and the standings rank every entrant."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import records
from engine.events import digest, parse_event, standings as event_standings, verify_seating
from engine.events.check import check_event
from engine.events.format import active_units, seat_ids
from tools import make_event_examples

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "events"
FILES = sorted(p.name for p in EXAMPLES.glob("*.json"))


def example(name: str) -> dict:
    return json.loads((EXAMPLES / name).read_bytes())


def test_every_example_file_is_made_by_a_plan_of_the_tool():
    assert FILES == sorted(f"{plan.file}.json" for plan in make_event_examples.PLANS)


def test_each_example_is_byte_for_byte_what_the_tool_makes(tmp_path):
    assert make_event_examples.main(["--out", str(tmp_path)]) == 0
    for name in FILES:
        assert (tmp_path / name).read_bytes() == (EXAMPLES / name).read_bytes(), \
            f"examples/events/{name} differs from what the engine makes now: " \
            "run python -m tools.make_event_examples"


@pytest.mark.parametrize("name", FILES)
def test_each_example_parses_and_carries_its_own_digest(name):
    data = example(name)
    event = parse_event(data)
    assert data["digest"] == digest(data)
    assert len(event.rounds) == event.system.rounds, "a finished event: every round seated"
    for rnd in event.rounds:
        assert rnd.seed is not None and rnd.seed_salt is not None, "every seed revealed"
        assert all(t.result is not None and t.result.record is not None for t in rnd.tables)


@pytest.mark.parametrize("name", FILES)
def test_every_table_record_replays_consistent_with_the_tables_seats(name):
    event = parse_event(example(name))
    for rnd in event.rounds:
        for table in rnd.tables:
            record = table.result.record
            report = records.check_record(record)
            assert report["consistent"], (rnd, table.number, report["discrepancy"])
            assert report["digest_matches"] is True
            assert record["players"] == seat_ids(table)
            assert len(record["deals"]) <= event.system.round_end.deals


@pytest.mark.parametrize("name", FILES)
def test_every_revealed_seating_is_what_its_seed_derives(name):
    data = example(name)
    assert all(verify_seating(data, k) for k in range(1, len(data["rounds"]) + 1))


@pytest.mark.parametrize("name", FILES)
def test_the_events_check_re_derives_everything_and_finds_no_discrepancy(name):
    data = example(name)
    answer = check_event(data)
    assert answer["consistent"] and answer["discrepancy"] is None, answer["discrepancy"]
    tables = sum(len(r["tables"]) for r in data["rounds"])
    assert answer["checked"]["records"] == tables
    assert answer["checked"]["seatings"] == answer["checked"]["commitments"] == len(data["rounds"])
    assert answer["checked"]["penalties"] == len(data.get("penalties", ()))


@pytest.mark.parametrize("name", FILES)
def test_each_round_seats_every_entrant_who_may_play_once_or_gives_a_bye(name):
    event = parse_event(example(name))
    for k, rnd in enumerate(event.rounds, 1):
        seated = [s.entrant for t in rnd.tables for s in t.seats]
        units = list(dict.fromkeys(seated))
        assert sorted(units + rnd.byes) == sorted(active_units(event, k))


@pytest.mark.parametrize("name", FILES)
def test_the_standings_rank_every_entrant_once(name):
    event = parse_event(example(name))
    lines = event_standings.standings(event)
    assert sorted(line.entrant for line in lines) == sorted(e.id for e in event.entrants)
    assert [line.rank for line in lines] == list(range(1, len(lines) + 1))
    points = [line.event_points for line in lines]
    assert points == sorted(points, reverse=True)


def test_the_guandan_example_has_a_substitute_in_a_record_and_the_directors_penalties():
    event = parse_event(example("guandan-swiss-16-pairs.json"))
    subs = [(table, seat) for rnd in event.rounds for table in rnd.tables for seat in table.seats
            if seat.substitute is not None]
    assert len(subs) == 1
    table, seat = subs[0]
    assert seat.substitute.id in table.result.record["players"]
    assert seat.player not in table.result.record["players"]
    assert {p.kind for p in event.penalties} == {"warning", "points"}
    penalised = {p.entrant for p in event.penalties if p.kind == "points"}
    lines = {line.entrant: line for line in event_standings.standings(event)}
    assert all(lines[u].penalty_points > 0 for u in penalised)


def test_the_daifugo_example_has_a_late_entry_a_withdrawal_and_byes():
    event = parse_event(example("daifugo-20-players.json"))
    assert len(event.entrants) == 20 and event.system.table_size == 4
    late = [e.id for e in event.entrants if e.entered_round > 1]
    gone = [e.id for e in event.entrants if e.withdrawn_round is not None]
    assert late and gone
    first, last = event.rounds[0], event.rounds[-1]
    def present(rnd):
        return {s.entrant for t in rnd.tables for s in t.seats} | set(rnd.byes)

    assert set(late).isdisjoint(present(first)) and set(late) <= present(event.rounds[1])
    assert set(gone).isdisjoint(present(last)) and set(gone) <= present(event.rounds[-2])
    byes = [u for rnd in event.rounds for u in rnd.byes]
    assert byes and len(byes) == len(set(byes)), "byes rotate: no entrant has two"
