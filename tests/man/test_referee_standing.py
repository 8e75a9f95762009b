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


def test_rule_7_4_man_a_penalty_counts_in_the_match_totals_and_decides_the_winner():
    players = ["ann", "bob"]
    dealt = adjudicate.deal("man", players, {"match_games": 2}, seed="standing")
    given = penalty(dealt["state"], "ann", 1000, "insulted the table")
    assert given.state["match"]["totals"] == {"ann": -1000, "bob": 0}
    assert given.score_deltas == [{"target": "ann", "kind": "points", "delta": -1000,
                                   "reason": "penalty: insulted the table", "game": "man",
                                   "text": {"en": "Referee's penalty: insulted the table",
                                            "ja": "審判の罰則: insulted the table"}}]
    last, deltas = finish(given.state, random.Random(1))
    summary = last.next_match
    # the match totals are the game's deltas and the ledger's
    assert summary["totals"] == {p: deltas[p] + (-1000 if p == "ann" else 0) for p in players}
    assert summary["referee_ledger"]["totals"] == {"ann": 1000, "bob": 0}
    assert not summary["over"]
    # the next deal carries the totals, penalty included; a withdrawal there gives it back
    second = adjudicate.deal("man", players, {"match_games": 2}, seed="standing-2",
                             match=json.loads(json.dumps(summary)))
    assert second["state"]["match"]["totals"] == summary["totals"]
    back = withdraw(second["state"], "ann", 1)
    assert back.state["match"]["totals"]["ann"] == summary["totals"]["ann"] + 1000
    assert [d["text"] for d in back.score_deltas] == [{"en": "Penalty 1 withdrawn",
                                                       "ja": "罰則1の取り消し"}]
    again = penalty(back.state, "ann", 500)
    last2, deltas2 = finish(again.state, random.Random(2))
    totals = last2.next_match["totals"]
    assert totals == {p: summary["totals"][p] + deltas2[p] + (500 if p == "ann" else 0)
                      for p in players}
    # 7.2: two games played, the match ends; the penalty of 500 decides it
    assert last2.next_match["over"] and last2.next_match["winner"] == "bob"
    assert sum(totals.values()) == -500, "a penalty is paid to nobody (7.4)"


def test_a_deck_deal_of_man_takes_no_table():
    request = deck_request("man", ["p0", "p1"], random.Random(0))
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal("man", table={"start_cards": ["S10"]}, **request)
    assert err.value.path == "table"
