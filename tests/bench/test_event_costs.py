"""The events bench (bench/event_costs.py, in `make bench`) builds the event it says it builds and
prints each measure against its target. Small sizes here, no timing: speed is judged by the bench
itself."""
from __future__ import annotations

import re

import pytest

from bench import event_costs
from engine.events import parse_event, verify_seating
from engine.events.standings import standings


@pytest.mark.parametrize("game", sorted(event_costs.SYSTEMS))
def test_the_bench_event_is_finished_every_round_seated_played_and_revealed(game):
    data = event_costs.build(game, entrants=10, rounds=3)
    event = parse_event(data)
    assert len(event.entrants) == 10 and len(event.rounds) == 3
    assert all(t.result is not None and t.result.record is not None
               for rnd in event.rounds for t in rnd.tables)
    assert all(verify_seating(data, k) for k in (1, 2, 3))
    assert len(standings(event)) == 10


def test_the_bench_prints_each_measure_against_its_target(capsys, tmp_path):
    kept = tmp_path / "event.json"
    assert event_costs.main(["--entrants", "9", "--rounds", "2", "--event", str(kept)]) == 0
    assert kept.exists()  # --event: written once, read by the next run
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if re.match(r"\([abc]\) ", line)]
    assert [row[:3] for row in rows] == ["(a)", "(b)", "(c)"]
    for row, target in zip(rows, ("10.00 s", "200 ms", "1.00 s")):
        assert target in row and re.search(r" \d+\.\d\d(  missed)?$", row), row
