"""The worked examples of docs/referee.md and docs/referee.ja.md are what the service answers:
each stored example's requests are posted again (deal, every act, the replay of the log) and the
answers compared with what the example shows, and both pages show exactly the stored examples
(tools/referee_examples.py; `--write` regenerates them after a deliberate change)."""
from __future__ import annotations

import json

import pytest

from tools import referee_examples as ex


@pytest.mark.parametrize("game", ex.GAMES)
def test_a_worked_example_is_what_the_service_answers_to_its_requests(game):
    stored = json.loads(ex.path_of(game).read_text(encoding="utf-8"))
    assert ex.produce(game, stored) == stored


@pytest.mark.parametrize("game", ex.GAMES)
def test_both_referee_pages_show_the_stored_worked_example(game):
    stored = ex.path_of(game).read_text(encoding="utf-8").rstrip("\n")
    for page in ex.PAGES:
        assert ex.embedded(page.read_text(encoding="utf-8"), game) == stored, page


@pytest.mark.parametrize("game", ex.GAMES)
def test_a_worked_example_is_a_physical_deal_with_penalties_that_replays(game):
    stored = json.loads(ex.path_of(game).read_text(encoding="utf-8"))
    assert "hands" in stored["deal"] and "seed" not in stored["deal"]
    kinds = {s["action"]["type"] for s in stored["steps"]}
    assert "penalty" in kinds
    assert stored["replay"]["stopped"] is None
    # the replay's totals are every delta of the steps, the referee's included
    totals: dict[str, int] = {}
    for step in stored["steps"]:
        for d in step["answer"]["score_deltas"]:
            totals[d["target"]] = totals.get(d["target"], 0) + d["delta"]
    assert stored["replay"]["totals"] == totals


def test_the_worked_examples_show_every_referee_act():
    kinds = {s["action"]["type"] for game in ex.GAMES for s in json.loads(
        ex.path_of(game).read_text(encoding="utf-8"))["steps"]}
    assert {"warning", "penalty", "withdraw"} <= kinds


def test_a_changed_answer_is_caught():
    stored = json.loads(ex.path_of("man").read_text(encoding="utf-8"))
    stored["steps"][2]["answer"]["score_deltas"][0]["delta"] = -3
    assert ex.produce("man", stored) != stored
