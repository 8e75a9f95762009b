"""The referee's penalties in this game's own match standing (RefereeRules.count_penalty), and
its deals from an explicit deck (tests/engine/test_referee_standings.py checks every game
alike)."""
from __future__ import annotations

import json
import random

import pytest

from engine import adjudicate
from engine.errors import InvalidDeal
from engine.games.guandan.state import LEVELS
from tests.referee_play import deck_request, finish, penalty, withdraw


def test_rule_S_9_guandan_a_level_penalty_lowers_the_team_when_the_deal_ends_never_below_2():
    players = ["p0", "p1", "p2", "p3"]
    dealt = adjudicate.deal("guandan", players, seed="standing")
    given = penalty(dealt["state"], "p0", 3, "out of turn")
    # the deal's level rank stays (L-2); the team's level moves when the deal ends
    assert given.state["level"] == "2" and given.state["ledger_levels"] == {"team1": -3}
    assert [(d["target"], d["kind"], d["delta"]) for d in given.score_deltas] == \
        [("team1", "level", -3)]
    last, deltas = finish(given.state, random.Random(4))
    levels = last.state["result"]["levels"]
    # team1: its own result, then −3, never below 2; every delta together says the level
    assert LEVELS.index(levels["team1"]) == deltas["team1"] - 3
    assert LEVELS.index(levels["team2"]) == deltas["team2"]
    if last.state["result"]["winner"] == "team2":
        assert levels["team1"] == "2"  # 2 − 3 stops at 2 (S-9)
        bound = [d for d in last.score_deltas if d["reason"].startswith("S-9")]
        assert [(d["target"], d["delta"]) for d in bound] == [("team1", 3)]
    # a withdrawal in the next deal gives the points back at that deal's end, never past A
    second = adjudicate.deal("guandan", players, seed="standing-2",
                             match=json.loads(json.dumps(last.next_match)))
    back = withdraw(second["state"], "p0", 1)
    assert back.state["ledger_levels"] == {"team1": 3}
    start = {t: LEVELS.index(v) for t, v in last.next_match["levels"].items()}
    last2, deltas2 = finish(back.state, random.Random(5))
    after = {t: LEVELS.index(v) for t, v in last2.state["result"]["levels"].items()}
    assert after == {t: start[t] + deltas2[t] + (3 if t == "team1" else 0) for t in start}
    assert after["team1"] <= len(LEVELS) - 1


def test_rule_S_9_guandan_a_bound_answers_the_delta_the_penalty_overstated():
    players = ["p0", "p1", "p2", "p3"]
    dealt = adjudicate.deal("guandan", players, seed="bound")
    given = penalty(dealt["state"], "p2", 20)
    last, deltas = finish(given.state, random.Random(8))
    assert last.state["result"]["levels"]["team1"] == "2"
    bound = [d for d in last.score_deltas if d["reason"].startswith("S-9")]
    assert len(bound) == 1 and bound[0]["target"] == "team1"
    assert deltas["team1"] - 20 == 0, "the team's deltas sum to its level change"
    # a withdrawal in a later deal gives back all 20 levels, never past A (not owed: S-9)
    second = adjudicate.deal("guandan", players, seed="bound-2",
                             match=json.loads(json.dumps(last.next_match)))
    back = withdraw(second["state"], "p2", 1)
    last2, deltas2 = finish(back.state, random.Random(9))
    assert last2.state["result"]["levels"]["team1"] == "A"
    assert deltas2["team1"] + 20 == len(LEVELS) - 1 - LEVELS.index(
        last.next_match["levels"]["team1"])


def test_rule_S_9_guandan_a_team_penalized_during_the_deal_does_not_win_the_match_with_it():
    players = ["p0", "p1", "p2", "p3"]
    match = {"levels": {"team1": "A", "team2": "A"}, "declarer": "team1",
             "a_failures": {"team1": 0, "team2": 0}, "previous_order": ["p0", "p2"],
             "tribute_payers": ["p1", "p3"], "deal_number": 1}
    # both at A: whichever team wins 1-2 or 1-3 would win the match (S-3, D2 off)
    dealt = adjudicate.deal("guandan", players, {"a_win_requires_declarer": False},
                            seed="at-a", match=match)
    state = dealt["state"]
    for p in ("p0", "p1"):
        state = penalty(state, p, 1).state
    last, _ = finish(state, random.Random(7))
    assert last.state["result"]["match_winner"] is None
    assert not any(e["type"] == "match_finished" for e in last.events)
    assert last.next_match is not None


def test_a_deck_deal_takes_the_random_first_lead_from_the_cut():
    """G-4: a first deal from an explicit deck takes the card turned up in the cut (and, when two
    hands hold it, its holder who leads) from `table`, never from a seed."""
    request = deck_request("guandan", ["p0", "p1", "p2", "p3"], random.Random("table.cut_card"))
    dealt = adjudicate.deal("guandan", **request)
    assert dealt["state"]["cut_card"] == request["table"]["cut_card"]
    if "leader" in request["table"]:
        assert dealt["state"]["turn"] == request["table"]["leader"]
    del request["table"]
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal("guandan", **request)
    assert err.value.path == "table.cut_card"
