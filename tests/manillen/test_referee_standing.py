"""The referee's penalties in this game's own match standing (RefereeRules.count_penalty), and
its deals from an explicit deck (tests/engine/test_referee_standings.py checks every game
alike)."""
from __future__ import annotations

import json
import random

import pytest

from engine import adjudicate
from engine.errors import InvalidDeal
from tests.referee_play import deck_request, finish, penalty, withdraw


def test_rule_A41_manillen_a_penalty_counts_in_the_team_score_even_below_zero():
    players = ["p0", "p1", "p2", "p3"]
    options = {"booms_to_win": 3}
    dealt = adjudicate.deal("manillen", players, options, seed="standing")
    given = penalty(dealt["state"], "p2", 7, "revoke")
    assert given.state["match"]["scores"] == {"team_0_2": -7, "team_1_3": 0}
    assert [(d["target"], d["delta"]) for d in given.score_deltas] == [("team_0_2", -7)]
    last, deltas = finish(given.state, random.Random(3))
    result = last.state["result"]
    assert result["scores"] == {h: deltas[h] - (7 if h == "team_0_2" else 0)
                                for h in ("team_0_2", "team_1_3")}
    summary = last.next_match
    if result["boom"] is None:
        assert summary["scores"] == result["scores"]
    second = adjudicate.deal("manillen", players, options, seed="standing-2",
                             match=json.loads(json.dumps(summary)))
    back = withdraw(second["state"], "p2", 1)
    assert back.state["match"]["scores"]["team_0_2"] == summary["scores"]["team_0_2"] + 7
    assert [(d["target"], d["delta"]) for d in back.score_deltas] == [("team_0_2", 7)]


def test_a_deck_deal_of_manillen_takes_only_the_cut_from_the_table():
    rnd = random.Random("manillen-cut")
    players = ["p0", "p1", "p2", "p3"]
    request = deck_request("manillen", players, rnd)
    cut = [{"player": "p0", "card": "S7"}, {"player": "p1", "card": "H10"},
           {"player": "p2", "card": "D8"}, {"player": "p3", "card": "C9"}]
    dealt = adjudicate.deal("manillen", options={"first_dealer": "cut"},
                            table={"cut": cut}, **request)
    assert dealt["state"]["dealer"] == "p1"  # 10 is the strongest card shown (A5)
    # without the cut the named dealer, else the first seat, deals: no cut from the seed
    plain = adjudicate.deal("manillen", options={"first_dealer": "cut"}, **request)["state"]
    assert plain["cut"] == [] and plain["dealer"] == request.get("dealer", "p0")
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal("manillen", players=players, deck=request["deck"],
                        table={"leftover": ["S7", "S8"]})
    assert err.value.path == "table.leftover"
