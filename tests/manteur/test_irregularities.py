"""Irregularities in referee mode (B.7, B19 … B21): a declaration that does not beat the last
costs a penalty point in the referee's ledger; an act out of turn or out of order is taken
back with a warning. In reject mode (the default) the same acts are refused, nothing
changed."""
from __future__ import annotations

import copy

import pytest

from engine import adjudicate

from .helpers import deal, declare, ok

HAND = ["S2", "H2", "CK", "D7", "S9"]


def post(state: dict, kind: str, player: str, **fields):
    return adjudicate.validate(state, {"type": kind, "player": player, **fields})


def rejecting(state: dict) -> dict:
    out = copy.deepcopy(state)
    out["options"]["violations"] = "reject"
    return out


def without_ledger(state: dict) -> dict:
    return {k: v for k, v in state.items() if k != "referee_ledger"}


def without_standing(state: dict) -> dict:
    return {k: v for k, v in without_ledger(state).items() if k != "match"}


def accepted() -> dict:
    state = declare(deal(HAND, violations="referee"), "A", "pair", ["J"])
    return ok(state, "accept", "B").state


@pytest.mark.parametrize("declaration, code", [
    ({"type": "pair", "ranks": ["J"]}, "declaration_same"),
    ({"type": "high_card", "ranks": ["A"]}, "declaration_type_lower"),
    ({"type": "pair", "ranks": ["10"]}, "declaration_ranks_lower"),
])
def test_B20_a_declaration_not_higher_is_taken_back_and_costs_a_penalty_point(declaration,
                                                                              code):
    state = accepted()
    out = post(state, "declare", "B", declaration=declaration)
    assert out.valid
    mark, given = out.events
    assert (mark["type"], mark["player"], mark["code"], mark["sanction"],
            mark["sanction_rule"]) == ("irregularity_sanctioned", "B", code, "taken_back",
                                       "manteur B20")
    assert given == {"type": "penalty_given", "game": "manteur", "player": "B", "entry": 1,
                     "points": 1, "reason": f"manteur B20: {code} ({mark['rule']})",
                     "text": {"en": "B is penalized 1 (entry 1): manteur B20",
                              "ja": "Bに罰則1(記録1): manteur B20"}}
    # a penalty point (kind penalty, counting against by growing), in the ledger and its delta
    assert [(d["target"], d["kind"], d["delta"]) for d in out.score_deltas] == \
        [("B", "penalty", 1)]
    assert out.state["referee_ledger"][0]["points"] == 1
    # counted in the game's standing at once (B22) ...
    assert out.state["match"]["penalties"] == {**state["match"]["penalties"], "B": 1}
    # ... and taken back: the last declaration stands, B declares again
    assert without_standing(out.state) == without_standing(state) and out.to_act == ["B"]
    declare(out.state, "B", "pair", ["Q"])
    plain = rejecting(state)
    refused = post(plain, "declare", "B", declaration=declaration)
    assert not refused.valid and refused.refusal.code == code and refused.state == plain


def test_B20_penalty_points_add_up_and_a_withdrawal_gives_them_back():
    state = accepted()
    for _ in range(2):
        state = post(state, "declare", "B", declaration={"type": "pair", "ranks": ["2"]}).state
    assert [e["points"] for e in state["referee_ledger"]] == [1, 1]
    back = post(state, "withdraw", "B", entry=2)
    assert [d["delta"] for d in back.score_deltas] == [-1]


@pytest.mark.parametrize("action, code", [
    (("accept", "C", {}), "not_your_turn"),
    (("declare", "B", {"declaration": {"type": "flush"}}), "respond_first"),
])
def test_B21_an_act_out_of_turn_or_out_of_order_is_taken_back_with_a_warning(action, code):
    state = declare(deal(HAND, violations="referee"), "A", "pair", ["2"])
    kind, player, fields = action
    out = post(state, kind, player, **fields)
    assert out.valid and out.events[0]["code"] == code
    assert out.events[0]["sanction_rule"] == "manteur B21"
    assert out.events[1]["type"] == "warned" and out.score_deltas == []
    assert out.to_act == ["B"] and without_ledger(out.state) == without_ledger(state)
    plain = rejecting(state)
    refused = post(plain, kind, player, **fields)
    assert not refused.valid and refused.refusal.code == code and refused.state == plain


def test_B19_reject_is_the_default_and_a_malformed_declaration_is_never_sanctioned():
    assert deal(HAND)["options"]["violations"] == "reject"
    state = accepted()
    with pytest.raises(Exception) as info:
        post(state, "declare", "B", declaration={"type": "pair", "ranks": "J"})
    assert info.value.code == "ranks_not_list"
    assert post(state, "exchange", "B", cards=["RJ"]).refusal.code == "card_not_in_hand"


def test_B20_the_penalty_point_counts_with_the_challenges_and_may_end_the_game():
    state = declare(deal(HAND, violations="referee", penalty_limit=2), "A", "pair", ["J"])
    state = ok(state, "accept", "B").state
    first = post(state, "declare", "B", declaration={"type": "pair", "ranks": ["2"]})
    assert first.state["match"]["penalties"]["B"] == 1 and first.status == "in_progress"
    second = post(first.state, "declare", "B", declaration={"type": "pair", "ranks": ["2"]})
    assert second.state["match"]["penalties"]["B"] == 2 and second.status == "finished"
    assert [e["type"] for e in second.events] == ["irregularity_sanctioned", "penalty_given",
                                                  "match_finished"]
    assert second.state["result"]["loser"] == "B"
