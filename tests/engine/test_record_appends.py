"""A record grown by appends (engine/records.py `append`): each append replays only what it
adds, and answers what a whole replay of the grown record answers — its report, its digest, its
prefix key — so a table may push its new actions instead of its whole record."""
from __future__ import annotations

import copy
import random

import pytest

from engine import records
from tests.records import random_record, record_append as difference, record_cut as cut


def end_of(record: dict) -> records.RecordEnd:
    report, _, checkpoint = records.replay_from(record, {})
    assert report["consistent"], report["discrepancy"]
    end = records.record_end(record, checkpoint)
    assert end is not None
    return end


def whole_key(record: dict) -> bytes:
    """The key a record's end has: its last prefix key, the last written result chained in."""
    canonical = records._canonical({k: v for k, v in record.items() if k != "digest"})
    keys = records.prefix_keys(canonical)
    last = canonical["deals"][-1]
    key = keys[len(canonical["deals"]) - 1, len(last.get("actions", []))]
    return key if last.get("result") is None else records._chain(key, b"R", last["result"])


@pytest.mark.parametrize("game, seed", [("daifugo", 1), ("man", 2), ("manillen", 3),
                                        ("daifugo", 4), ("man", 5)])
def test_appends_answer_what_the_whole_record_answers(game, seed):
    rnd = random.Random(seed)
    record = random_record(game, rnd, deals=3, physical=0.3)
    total = sum(len(d["actions"]) for d in record["deals"])
    at = rnd.randint(1, 4)
    stored = cut(record, at)
    end = end_of(stored)
    assert end.key == whole_key(stored)
    while at < total:
        at = min(total, at + rnd.choice([1, 1, 1, 2, 5, 17]))
        grown = cut(record, at, with_result=rnd.random() < 0.8 or at == total)
        done = records.append(end, difference(stored, grown))
        assert done.report == records.check_record(grown)
        assert done.end is not None and done.end.key == whole_key(grown)
        assert done.end.position() == end_of(grown).position()
        assert records.appended(copy.deepcopy(stored), done.part) == grown
        stored, end = grown, done.end


def test_an_append_that_breaks_the_replay_is_refused_at_its_step():
    record = random_record("daifugo", random.Random(7), deals=2, physical=0.0)
    stored = cut(record, 5)
    grown = cut(record, 9)
    part = difference(stored, grown)
    part["actions"][2]["score_deltas"] = [{"target": record["players"][0], "kind": "bonus",
                                           "delta": 7}]
    part.pop("digest")
    done = records.append(end_of(stored), part)
    found = done.report["discrepancy"]
    assert (found["code"], found["deal"], found["step"]) == ("score_differs", 0, 7)
    assert done.end is None


def test_an_append_with_a_wrong_digest_is_a_digest_mismatch():
    record = random_record("man", random.Random(8), deals=2, physical=0.0)
    stored, grown = cut(record, 3), cut(record, 4)
    part = difference(stored, grown)
    part["digest"] = stored["digest"]
    done = records.append(end_of(stored), part)
    assert done.report["discrepancy"]["code"] == "digest_mismatch"


def test_a_malformed_append_names_its_own_path():
    record = random_record("man", random.Random(9), deals=2, physical=0.0)
    stored = cut(record, 3)
    with pytest.raises(records.InvalidRecord) as err:
        records.append(end_of(stored), {"actions": [{"action": {"type": "play"}}, {"x": 1}]})
    assert err.value.path.startswith("actions[1]")
    with pytest.raises(records.InvalidRecord) as err:
        records.append(end_of(stored), {"deals": [{"deal": {"seed": "s"}}]})
    assert err.value.path == "deals[0].actions"
