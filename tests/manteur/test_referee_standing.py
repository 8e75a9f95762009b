"""The referee's penalties in this game's own match standing (RefereeRules.count_penalty), and
its deals from an explicit deck (tests/engine/test_referee_standings.py checks every game
alike)."""
from __future__ import annotations

from engine import adjudicate
from tests.referee_play import penalty, withdraw


def test_rule_B22_manteur_a_penalty_reaching_the_limit_ends_the_game():
    players = ["ann", "bob", "cho"]
    dealt = adjudicate.deal("manteur", players, {"penalty_limit": 3}, seed="limit")
    one = penalty(dealt["state"], "bob", 2)
    assert one.state["match"]["penalties"] == {"ann": 0, "bob": 2, "cho": 0}
    assert one.to_act == dealt["to_act"] and one.status == "in_progress"
    back = withdraw(one.state, "bob", 1)
    assert back.state["match"]["penalties"]["bob"] == 0
    ended = penalty(back.state, "bob", 3, "marked cards")
    assert ended.status == "finished" and ended.to_act == []
    assert ended.state["result"] == {"loser": "bob", "winner": None}
    assert [e["type"] for e in ended.events] == ["penalty_given", "match_finished"]
    assert ended.events[-1]["winners"] == ["ann", "cho"]
    assert ended.score_deltas[0]["total"] == 3
    refused = adjudicate.validate(ended.state, {"type": "withdraw", "player": "bob",
                                                "entry": 2})
    assert not refused.valid and refused.refusal.code == "game_finished"


def test_rule_B22_manteur_elimination_voids_the_holders_round_and_a_withdrawal_brings_back():
    players = ["ann", "bob", "cho", "dai"]
    options = {"penalty_limit": 2, "mode": "elimination"}
    dealt = adjudicate.deal("manteur", players, options, seed="elim", dealer="ann")
    state = dealt["state"]
    assert state["holder"] == "ann" and state["round"] == 1
    out = penalty(state, "ann", 2)  # the holder is out: the round is void (B16)
    assert out.state["eliminated"] == ["ann"]
    assert out.state["round"] == 2 and out.state["starter"] == "bob"
    assert [e["type"] for e in out.events] == ["penalty_given", "eliminated", "round_started"]
    # a seat not holding the hand goes out; play goes on around it
    out2 = penalty(out.state, "dai", 5)
    assert out2.state["eliminated"] == ["ann", "dai"] and out2.state["round"] == 2
    assert out2.to_act == out.to_act
    # the withdrawal takes dai back below the limit: in again
    back = withdraw(out2.state, "dai", 2)
    assert back.state["eliminated"] == ["ann"]
    assert [e["type"] for e in back.events] == ["withdrawn", "reinstated"]
    # the last one left wins
    out3 = penalty(out2.state, "cho", 2)
    assert out3.status == "finished"
    assert out3.state["result"] == {"loser": "cho", "winner": "bob"}
