"""The standings keep each replayed record's outcome (engine/events/standings.py `replayed`):
the same record again is not replayed, and a record that differs from a kept one in any byte
is: a stranger who sends a kept record's `digest` with a card changed gets the changed record
replayed and found inconsistent, never the kept outcome."""
from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from engine.errors import InputError
from engine.events import parse_event, standings as event_standings
from tests.sizing import examples

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "events" / "daifugo-20-players.json"


@pytest.fixture(scope="module")
def kept() -> dict:
    """The example event, every record of it replayed and kept."""
    data = json.loads(EXAMPLE.read_bytes())
    event_standings.standings(parse_event(data))
    return data


def first_record(data: dict) -> dict:
    return data["rounds"][0]["tables"][0]["result"]["record"]


def card_plays(record: dict) -> list[tuple[int, int]]:
    """(deal, action) of every action that names cards."""
    return [(k, i) for k, deal in enumerate(record["deals"])
            for i, entry in enumerate(deal["actions"]) if entry["action"].get("cards")]


def test_the_same_document_again_replays_no_record(kept, monkeypatch):
    replayed = []
    real = event_standings._replay
    monkeypatch.setattr(event_standings, "_replay",
                        lambda record: replayed.append(record) or real(record))
    again = json.loads(EXAMPLE.read_bytes())  # another parse: equal records, new objects
    event_standings.standings(parse_event(again))
    assert replayed == []


def test_a_card_changed_under_the_kept_digest_is_replayed_and_found_inconsistent(kept):
    changed = copy.deepcopy(kept)
    record = first_record(changed)
    k, i = card_plays(record)[0]
    action = record["deals"][k]["actions"][i]["action"]
    held = set(action["cards"])
    action["cards"][0] = next(c for c in ("S3", "H3", "D3", "C3", "S4", "H4") if c not in held)
    assert record["digest"] == first_record(kept)["digest"]  # the old digest kept
    with pytest.raises(InputError) as err:
        event_standings.standings(parse_event(changed))
    assert err.value.code == "event_record_inconsistent"
    assert err.value.path == "rounds[0].tables[0].result.record"


def test_a_kept_record_under_another_digest_is_replayed_and_found_inconsistent(kept):
    changed = copy.deepcopy(kept)
    first_record(changed)["digest"] = "sha256:" + "0" * 64
    with pytest.raises(InputError) as err:
        event_standings.standings(parse_event(changed))
    assert err.value.code == "event_record_inconsistent"
    assert "digest_mismatch" in err.value.message


@settings(max_examples=examples(15), deadline=None)
@given(seed=st.integers(0, 2 ** 32))
def test_a_record_changed_anywhere_gets_what_its_own_replay_gives(kept, seed):
    """Whatever one value of a kept record is changed to (a card, a seat, a score delta, a
    total), the outcome the standings use is the changed record's own replay."""
    rnd = random.Random(seed)
    record = copy.deepcopy(first_record(kept))
    k, i = rnd.choice(card_plays(record))
    entry = record["deals"][k]["actions"][i]
    place = rnd.choice(["card", "player", "delta", "total"])
    if place == "card":
        entry["action"]["cards"][0] = rnd.choice(["S3", "HA", "D2", "CK", "JK"])
    elif place == "player":
        entry["action"]["player"] = rnd.choice(record["players"])
    elif place == "delta":
        entry.setdefault("score_deltas", []).append(
            {"target": rnd.choice(record["players"]), "kind": "place", "delta": 1})
    else:
        seat = rnd.choice(list(record["totals"]))
        record["totals"][seat] += rnd.choice([-1, 1])
    assert event_standings.replayed(record) == event_standings._replay(record)


@pytest.mark.parametrize("value", ["\ud800", 2 ** 70, {1: "x"}])
def test_a_record_with_no_json_form_is_refused_with_its_fault_not_kept(kept, value):
    record = copy.deepcopy(first_record(kept))
    record["tags"]["x-note"] = value
    size = len(event_standings._REPLAYED)
    with pytest.raises(InputError) as err:
        event_standings.replayed(record)
    assert err.value.path.startswith("tags.x-note")
    assert len(event_standings._REPLAYED) == size
