"""A record's replay resumed from a checkpoint (engine/records.py replay_from): a table pushes
its whole record after every action, and only what is new is replayed — yet the report is
always the whole replay's, and a record that changed anything before the checkpoint (an
earlier card, a written score, the header) is replayed from where it still agrees, so the
change is found, never skipped."""
from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine import records, registry
from tests.records import pushed, pushed_actions, random_record
from tests.sizing import examples

GAMES = [g.id for g in registry.all_games()]
SEEDS = st.integers(min_value=0, max_value=2 ** 32)
PROPERTY = settings(max_examples=examples(4), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


class Counted:
    """apply_parsed with its calls counted: the actions a replay applied."""

    def __init__(self, monkeypatch):
        self.calls = 0
        real = records.adjudicate.apply_parsed

        def counted(*args, **kwargs):
            self.calls += 1
            return real(*args, **kwargs)
        monkeypatch.setattr(records.adjudicate, "apply_parsed", counted)


def checkpoints_of(record: dict) -> dict[bytes, records.Checkpoint]:
    _, _, checkpoint = records.replay_from(record, {})
    assert checkpoint is not None
    return {checkpoint.key: checkpoint}


@pytest.mark.parametrize("game_id", GAMES)
@PROPERTY
@given(seed=SEEDS, stride=st.integers(5, 25))
def test_a_record_pushed_action_after_action_replays_only_what_is_new(game_id, seed, stride):
    record = random_record(game_id, random.Random(seed), deals=2, physical=0.0)
    known: dict[bytes, records.Checkpoint] = {}
    last = 0
    with pytest.MonkeyPatch.context() as monkeypatch:
        counted = Counted(monkeypatch)
        for n in [*range(1, pushed_actions(record), stride), pushed_actions(record)]:
            grown = pushed(record, n)
            counted.calls = 0
            report, state, checkpoint = records.replay_from(grown, known)
            # the actions since the last push, and not one more
            assert counted.calls == n - last
            whole, whole_state = records.replay_record(grown)
            assert report == whole and state == whole_state
            assert checkpoint is not None
            known[checkpoint.key] = checkpoint
            last = n
    report, _, _ = records.replay_from(record, known)
    assert report == records.check_record(record) and report["consistent"]


@pytest.mark.parametrize("game_id", GAMES)
@PROPERTY
@given(data=st.data())
def test_a_changed_earlier_action_in_a_longer_record_is_found_not_skipped(game_id, data):
    record = random_record(game_id, random.Random(data.draw(SEEDS)), deals=2, physical=0.0,
                           ledger=0.0)
    total = pushed_actions(record)
    if total < 3:
        return
    stored = data.draw(st.integers(2, total - 1))
    known = checkpoints_of(pushed(record, stored))
    longer = copy.deepcopy(pushed(record, data.draw(st.integers(stored, total))))
    flat = [(k, i) for k, d in enumerate(longer["deals"]) for i in range(len(d["actions"]))]
    k, i = flat[data.draw(st.integers(0, stored - 1))]  # an action the stored record had
    entry = longer["deals"][k]["actions"][i]
    if data.draw(st.booleans()):
        # another card, or another seat's act: whatever the rules make of it
        k2, i2 = flat[data.draw(st.integers(0, len(flat) - 1))]
        entry["action"] = copy.deepcopy(longer["deals"][k2]["actions"][i2]["action"])
        report, _, _ = records.replay_from(longer, known)
        assert report == records.check_record(longer)
    else:
        # a written score no rule gives: found at its very deal and step
        entry["score_deltas"] = [*entry.get("score_deltas", []),
                                 {"target": longer["players"][0], "kind": "bonus", "delta": 7}]
        report, _, _ = records.replay_from(longer, known)
        assert report == records.check_record(longer)
        found = report["discrepancy"]
        assert found is not None and (found["code"], found["deal"], found["step"]) == \
            ("score_differs", k, i)


def test_a_changed_header_or_deal_result_is_another_prefix():
    record = random_record("man", random.Random(3), deals=2, physical=0.0)
    keys = records.prefix_keys(records._canonical(record))
    renamed = copy.deepcopy(record)
    renamed["tags"]["event"] = "Another Open"
    assert set(records.prefix_keys(records._canonical(renamed)).values()).isdisjoint(
        keys.values())
    changed = copy.deepcopy(record)
    first = changed["deals"][0]["result"]
    first["totals"] = {t: v + 1 for t, v in first["totals"].items()} or {"x": 1}
    again = records.prefix_keys(records._canonical(changed))
    assert all(again[where] == keys[where] for where in keys if where[0] == 0)
    assert all(again[where] != keys[where] for where in keys if where[0] == 1)
