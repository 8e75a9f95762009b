"""Irregularities in referee mode (C.5, D26, D27): each sanctioned act is taken back with a
warning, the turn stays; in reject mode (the default) the same act is refused, nothing
changed."""
from __future__ import annotations

import copy

import pytest

from engine import adjudicate

from .helpers import build

REFEREE = {"violations": "referee"}
HANDS = {"a": ["S3", "H3", "S9", "SK"], "b": ["D4", "H5", "C7", "DJ"], "c": ["C4", "S6", "H8", "CQ"]}


def act(state: dict, type_: str, player: str, **fields):
    return adjudicate.validate(state, {"type": type_, "player": player, **fields})


def mark(answer) -> dict:
    (event,) = [e for e in answer.events if e["type"] == "irregularity_sanctioned"]
    return event


@pytest.mark.parametrize("setup, action, code", [
    (dict(turn="a"), ("play", "b", {"cards": ["D4"]}), "not_your_turn"),
    (dict(turn="b", top=["S9"], by="a"), ("play", "b", {"cards": ["D4"]}), "not_stronger"),
    (dict(turn="b", top=["S9"], by="a"), ("play", "b", {"cards": ["H5", "C7"]}),
     "not_a_combination"),
    (dict(turn="b", top=["S3", "H3"], by="a"), ("play", "b", {"cards": ["DJ"]}),
     "count_mismatch"),
    (dict(turn="a"), ("pass", "a", {}), "must_lead"),
])
def test_D27_an_act_the_rules_refuse_is_taken_back_the_turn_stays_and_a_warning_recorded(
        setup, action, code):
    hands = {p: [c for c in h if c not in (setup.get("top") or ())]
             for p, h in HANDS.items()}
    state = build(hands, opts=REFEREE, **setup)
    type_, player, fields = action
    out = act(state, type_, player, **fields)
    assert out.valid
    m = mark(out)
    assert (m["player"], m["code"], m["sanction"], m["sanction_rule"]) == \
        (player, code, "taken_back", "daifugo D27")
    assert m["rule"].startswith("daifugo D") and m["entry"] == 1
    assert m["action"] == {"type": type_, "player": player, **fields}
    assert out.to_act == [setup["turn"]] and out.score_deltas == []
    assert out.state["hands"] == state["hands"] and out.state["top"] == state["top"]
    assert out.state["referee_ledger"] == [{"id": 1, "kind": "warning", "player": player,
                                            "points": 0, "reason": out.state["referee_ledger"]
                                            [0]["reason"], "withdrawn": False}]
    assert out.events[1] == {"type": "warned", "game": "daifugo", "player": player, "entry": 1,
                             "reason": f"daifugo D27: {code} ({m['rule']})",
                             "text": {"en": f"{player} is warned (entry 1): daifugo D27",
                                      "ja": f"{player}に警告(記録1): daifugo D27"}}
    # reject mode: the same act refused, the state unchanged
    plain = copy.deepcopy(state)
    plain["options"]["violations"] = "reject"
    refused = act(plain, type_, player, **fields)
    assert not refused.valid and refused.refusal.code == code and refused.state == plain


def test_D27_a_second_irregularity_is_a_second_warning_and_play_goes_on():
    state = build(HANDS, opts=REFEREE, turn="a")
    state = act(state, "play", "c", cards=["C4"]).state
    state = act(state, "play", "b", cards=["D4"]).state
    assert [e["player"] for e in state["referee_ledger"]] == ["c", "b"]
    out = act(state, "play", "a", cards=["S3"])
    assert out.valid and out.events[0]["type"] == "played" and out.to_act == ["b"]


def test_D26_entry_errors_stay_refused_in_referee_mode():
    state = build(HANDS, opts=REFEREE, turn="a")
    assert act(state, "play", "a", cards=["RJ"]).refusal.code in ("card_not_in_hand",
                                                                   "jokers_not_in_game")
    assert act(state, "play", "a", cards=["D4"]).refusal.code == "card_not_in_hand"
