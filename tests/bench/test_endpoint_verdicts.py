"""`make bench`'s verdicts (bench/endpoints.py) are computed from the rows as measured: the
replay's cost per action from the two replay rows' rates, and only when each completed enough
requests to mean something. No wrk here: the rows are given."""
from __future__ import annotations

from bench import endpoints, payloads


def replay_row(n: int, rps: float, requests: int) -> dict:
    case = payloads.Case("replay", f"man, {n} actions", "/v1/replay", [b"{}"])
    return {"case": case, "rps": rps, "requests": requests, "ratio": 0.01, "notes": ""}


SIZES = {"man, 100 actions": 30_000, "man, 1000 actions": 300_000}


def verdict_lines(capsys, rows, min_requests=100):
    met = endpoints.print_verdicts(rows, SIZES, min_requests)
    return met, [line for line in capsys.readouterr().out.splitlines() if "replay" in line]


def test_replay_cost_per_action_is_the_ratio_of_the_rows_rates(capsys):
    # 1,000 actions at a tenth of 100's rate: the same cost per action
    met, lines = verdict_lines(capsys, [replay_row(100, 200.0, 400), replay_row(1000, 20.0, 120)])
    assert met
    assert any(line.startswith("- met: replay cost per action at 1000 actions 1.00x")
               for line in lines), lines


def test_replay_cost_per_action_growing_with_length_is_not_met(capsys):
    met, lines = verdict_lines(capsys, [replay_row(100, 200.0, 400), replay_row(1000, 10.0, 120)])
    assert not met
    assert any(line.startswith("- NOT MET: replay cost per action at 1000 actions 2.00x")
               for line in lines), lines


def test_replay_cost_is_not_judged_from_too_few_requests(capsys):
    met, lines = verdict_lines(capsys, [replay_row(100, 200.0, 400), replay_row(1000, 5.0, 11)])
    assert met  # nothing judged is nothing failed; the answer-size verdict still stands
    assert any(line.startswith("- not judged: replay cost per action") for line in lines), lines
    assert not any("cost per action at 1000" in line for line in lines), lines
