"""The referee's acts a match record holds (engine/records.py `referee_acts`): what a hosted
event asks the referee key for when states are signed or sealed. Random records of every game
(ledger entries, physical deals, the game's own referee-only actions, match values, a dealer
named past the first deal) are walked independently — each action asked of the check
/v1/validate makes (`adjudicate.is_referee_act`), each deal read for its cards — and the two
agree; acts a record already held are not new when it comes again longer, and an act changed
or added is."""
from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from engine import adjudicate, records, registry
from tests.records import random_record
from tests.sizing import examples

GAMES = [g.id for g in registry.all_games()]
PROPERTY = settings(max_examples=examples(6), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def with_more_acts(record: dict, rnd: random.Random) -> dict:
    """The record with, at random, its game's own referee-only actions put between its
    actions (read as written: the walk replays nothing), match values in its header and a
    dealer named in a later deal."""
    game = registry.get(record["game"])
    own = sorted(game.referee_actions)
    out = copy.deepcopy(record)
    for entry in out["deals"]:
        for i in sorted(rnd.sample(range(len(entry["actions"]) + 1),
                               min(2, len(entry["actions"]) + 1)), reverse=True):
            if rnd.random() < 0.3:
                entry["actions"].insert(i, {"action": {"type": rnd.choice(own),
                                                       "player": record["players"][0]}})
    if rnd.random() < 0.3:
        out["match"] = {"totals": {p: 0 for p in record["players"]}}
    for entry in out["deals"][1:]:
        if rnd.random() < 0.3:
            entry["deal"]["dealer"] = record["players"][-1]
    return out


def independent_walk(record: dict) -> list[str]:
    """The referee's acts, found entry by entry as the service's other checks find them."""
    shown = {"game": record["game"]}
    found = ["match"] if record.get("match") is not None else []
    for k, entry in enumerate(record["deals"]):
        dealt = entry["deal"]
        from_cards = "deck" in dealt or "hands" in dealt or "table" in dealt
        if from_cards or (k and "dealer" in dealt):
            found.append(f"deals[{k}].deal")
        found += [f"deals[{k}].actions[{i}]" for i, recorded in enumerate(entry["actions"])
                  if adjudicate.is_referee_act(shown, recorded["action"])]
    return found


@pytest.mark.parametrize("game_id", GAMES)
@PROPERTY
@given(seed=st.integers(0, 2 ** 32))
def test_referee_acts_are_exactly_the_acts_a_record_holds(game_id, seed):
    rnd = random.Random(seed)
    record = with_more_acts(random_record(game_id, rnd, deals=2, physical=0.5, ledger=0.08,
                                          comments=0.0, withdrawals=0.3), rnd)
    acts = records.referee_acts(record)
    assert acts == independent_walk(record)
    for path in acts:  # each names what the act is
        assert records.referee_act_at(record, path) is not None


def prefix(record: dict, actions: int) -> dict:
    """The record as a table pushes it after its first `actions` actions."""
    deals, left = [], actions
    for entry in record["deals"]:
        if left <= 0 and deals:
            break
        deals.append({**entry, "actions": entry["actions"][:max(left, 0)]})
        left -= len(entry["actions"])
    return copy.deepcopy({**record, "deals": deals})


@pytest.mark.parametrize("game_id", GAMES)
@PROPERTY
@given(seed=st.integers(0, 2 ** 32), data=st.data())
def test_acts_already_stored_are_not_new_and_changed_ones_are(game_id, seed, data):
    rnd = random.Random(seed)
    record = with_more_acts(random_record(game_id, rnd, deals=2, physical=0.5, ledger=0.1,
                                          comments=0.0), rnd)
    total = sum(len(e["actions"]) for e in record["deals"])
    stored = prefix(record, data.draw(st.integers(0, total)))
    held = set(records.referee_acts(stored))
    # the same record, longer: only the acts past what was stored are new
    assert records.new_referee_acts(record, stored) == \
        [p for p in records.referee_acts(record) if p not in held]
    assert records.new_referee_acts(stored, stored) == []
    assert records.new_referee_acts(record, None) == records.referee_acts(record)
    # an act stored before, changed (its points, its seat): new again, at its own path
    if held:
        path = data.draw(st.sampled_from(sorted(held)))
        changed = copy.deepcopy(record)
        act = records.referee_act_at(changed, path)
        act["x-changed"] = True
        assert path in records.new_referee_acts(changed, stored)
    # a key written as null is the same act as one left out
    spelled = copy.deepcopy(record)
    for path in records.referee_acts(spelled):
        records.referee_act_at(spelled, path)["x-none"] = None
    assert records.new_referee_acts(spelled, stored) == records.new_referee_acts(record, stored)


def test_a_record_with_no_referee_act_has_none_and_malformed_parts_are_skipped():
    record = random_record("daifugo", random.Random(1), deals=1, physical=0.0, ledger=0.0)
    assert records.referee_acts(record) == []
    assert records.referee_acts(None) == [] and records.referee_acts({"deals": 3}) == []
    odd = {"game": "daifugo", "deals": [7, {"deal": "x", "actions": [None, {"action": 1},
                                                                     {"action": {"type": 2}}]},
                                        {"deal": {"hands": {}}, "actions": [
                                            {"action": {"type": "penalty"}}]}]}
    assert records.referee_acts(odd) == ["deals[2].deal", "deals[2].actions[0]"]
    assert records.referee_acts({**odd, "game": "no-such-game"}) == ["deals[2].deal"]


@pytest.mark.parametrize("game_id", GAMES)
@PROPERTY
@given(seed=st.integers(0, 2 ** 32), data=st.data())
def test_an_appends_acts_are_the_new_acts_of_the_record_it_makes(game_id, seed, data):
    """appended_referee_acts reads only the append (a hosted table's push of what its record
    adds): its acts, each at its path in the append, are exactly those new_referee_acts finds
    in the whole record the append makes against the record stored before it."""
    from tests.records import record_append, record_cut

    rnd = random.Random(seed)
    record = random_record(game_id, rnd, deals=2, physical=0.5, ledger=0.1, comments=0.0)
    total = sum(len(e["actions"]) for e in record["deals"])
    cut = data.draw(st.integers(1, total - 1)) if total > 1 else 1
    stored, grown = record_cut(record, cut), record_cut(record, total)
    _, _, checkpoint = records.replay_from(stored, {})
    end = records.record_end(stored, checkpoint)
    assume(end is not None)
    part = record_append(stored, grown)
    found = records.appended_referee_acts(end, part)
    held = len(stored["deals"]) - 1

    def in_record(path: str) -> str:  # the append's path as the whole record's
        if path.startswith("actions["):
            return f"deals[{held}].{path}".replace(
                f"actions[{path[8:-1]}]",
                f"actions[{len(stored['deals'][held]['actions']) + int(path[8:-1])}]")
        k, rest = path[6:].split("]", 1)
        return f"deals[{held + 1 + int(k)}]{rest}"
    assert [in_record(p) for p in found] == records.new_referee_acts(grown, stored)
