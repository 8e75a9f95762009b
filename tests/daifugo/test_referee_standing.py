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


def test_rule_D28_daifugo_a_penalty_counts_in_the_running_points_not_the_titles():
    players = ["p0", "p1", "p2", "p3"]
    dealt = adjudicate.deal("daifugo", players, seed="standing")
    given = penalty(dealt["state"], "p1", 4, "foul")
    assert given.state["match"]["points"] == {"p0": 0, "p1": -4, "p2": 0, "p3": 0}
    last, deltas = finish(given.state, random.Random(6))
    result = last.state["result"]
    assert last.next_match["points"] == {p: result["points"][p] - (4 if p == "p1" else 0)
                                         for p in players}
    assert last.next_match["points"] == {p: deltas[p] - (4 if p == "p1" else 0)
                                         for p in players}
    assert len(set(result["titles"].values())) == 4  # titles by the finishing order alone
    second = adjudicate.deal("daifugo", players, seed="standing-2",
                             match=json.loads(json.dumps(last.next_match)))
    back = withdraw(second["state"], "p1", 1)
    assert back.state["match"]["points"]["p1"] == last.next_match["points"]["p1"] + 4


def test_a_deck_deal_takes_the_random_first_leader_from_the_table():
    """D4 (random_then_daihinmin): a first deal from an explicit deck takes who leads from
    `table`, never from a seed."""
    request = deck_request("daifugo", ["p0", "p1", "p2", "p3"], random.Random("table.leader"))
    leader = request["table"]["leader"]
    dealt = adjudicate.deal("daifugo", **request)
    assert dealt["state"]["leader"] == dealt["state"]["turn"] == leader
    del request["table"]
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal("daifugo", **request)
    assert err.value.path == "table.leader"
