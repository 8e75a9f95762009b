"""Rules 1 and 2: cards, players, values, the deal, the start card and the opening race."""
from __future__ import annotations

import pytest

from engine import adjudicate
from engine.errors import InvalidDeal
from engine.games.man import GAME

from .helpers import build, deal, legal, ok, refused


def test_rule_1_1_two_to_eight_players():
    for n in (2, 6, 8):
        dealt = adjudicate.deal("man", [f"p{i}" for i in range(n)], seed="s")
        assert len(dealt["state"]["hands"]) == n
    for n in (1, 9):
        with pytest.raises(InvalidDeal):
            adjudicate.deal("man", [f"p{i}" for i in range(n)], seed="s")


def test_rule_1_1_explicit_deck_must_be_the_52_cards():
    with pytest.raises(InvalidDeal):
        adjudicate.deal("man", ["A", "B"], seed="s", deck=["SA"] * 52)
    with pytest.raises(InvalidDeal):
        adjudicate.deal("man", ["A", "B"], seed="s", deck=["BJ"] + ["SA"])


def test_rule_1_2_card_values():
    look = GAME.lookups[0].handler
    assert look({"hand": ["HK"]})["total"] == 13
    assert look({"hand": ["HJ", "SA"]})["total"] == 12
    assert look({"hand": ["HQ", "SA", "C2"]}) == {"reach": False, "total": 15, "numbers": [],
                                                  "derivations": {}}
    assert look({"hand": ["H10", "S3"]})["total"] == 13


def test_rule_1_3_plain_cards_have_no_effect():
    st = build({"A": ["S5", "HK"], "B": ["D9", "H9"], "C": ["C9", "HQ"]}, ["S9"], top_by="C")
    res = ok(st, "play", "A", cards=["S5"])
    assert res.state["turn"] == "B" and res.state["pending_draw"] == 0
    assert res.state["direction"] == 1 and res.state["named_suit"] is None


def test_rule_1_4_a_man_ends_the_game_with_one_winner_and_one_loser():
    st = build({"A": ["S5", "HK"], "B": ["D9", "H9"], "C": ["C4", "HA"]}, ["S9", "D5"],
               top_by="A", turn="B")
    res = ok(st, "man", "C")  # C (4 + A = 5) mans A's 5 out of turn; B is on turn
    res = ok(res.state, "decline", "B")
    assert res.status == "in_progress" and res.to_act == ["A"]  # A may counter-man (5.4)
    res = ok(res.state, "decline", "A")
    assert res.status == "finished"
    assert {d["target"]: d["delta"] for d in res.score_deltas} == {"C": 1, "A": -1}
    assert res.state["result"]["kind"] == "man"


def test_rule_2_1_each_player_takes_three_from_the_top_in_seat_order():
    st = deal([["S2", "S3", "S4"], ["H2", "H3", "H4"], ["D2", "D3", "D4"]], ["S5"])
    assert st["hands"] == {"A": ["S2", "S3", "S4"], "B": ["H2", "H3", "H4"],
                           "C": ["D2", "D3", "D4"]}
    assert st["discard"] == ["S5"] and len(st["stock"]) == 52 - 10


def test_rule_2_1_seeded_deal_is_reproducible():
    a = adjudicate.deal("man", ["A", "B", "C"], seed="same")["state"]
    b = adjudicate.deal("man", ["A", "B", "C"], seed="same")["state"]
    c = adjudicate.deal("man", ["A", "B", "C"], seed="other")["state"]
    # the same deal, each under its own commitment salt (which deals no card)
    assert {**a, "seed_salt": b["seed_salt"]} == b and a["hands"] != c["hands"]


def test_rule_2_2_reach_called_at_the_deal_for_13_or_less():
    st = deal([["S10", "S2", "SA"], ["HK", "HA", "H2"]], ["C5"])  # 13 and 16
    assert st["reach"] == {"A": True, "B": False}
    assert st["last_call"] == {"A": "reach", "B": None}


def test_rule_2_3_effect_start_cards_are_skipped():
    st = deal([["S4", "S5", "S6"], ["H4", "H5", "H6"]], ["CJ", "CA", "C2", "C3", "C8", "D6"])
    assert st["start_cards"] == ["CJ", "CA", "C2", "C3", "C8", "D6"]
    assert st["discard"][-1] == "D6"
    assert st["pending_draw"] == 0 and st["direction"] == 1 and st["named_suit"] is None


def test_rule_2_4_opening_race_any_matching_player_starts_and_play_goes_on_from_them():
    st = deal([["S4", "S5", "S6"], ["H4", "H5", "H6"], ["D2", "D3", "DK"]], ["C9", "H9"])
    dealt_to_act = GAME.to_act(GAME.decode(st))
    assert dealt_to_act == ["B"]  # only B holds hearts or a 9
    assert refused(st, "play", "A", cards=["S4"]).code == "card_does_not_match"
    assert refused(st, "draw", "B").code == "opening_race_play_only"
    assert legal(st, "A") == [] and legal(st, "C") == []
    res = ok(st, "play", "B", cards=["H5"])
    assert res.state["turn"] == "C" and res.state["first_turn"]["B"] is False
    assert res.state["phase"] == "play"


def test_rule_2_4_opening_race_several_cards_of_one_rank():
    st = deal([["S4", "C4", "S6"], ["H7", "H5", "H6"]], ["D4"])
    assert GAME.to_act(GAME.decode(st)) == ["A"]
    res = ok(st, "play", "A", cards=["S4", "C4"])
    assert res.state["discard"][-1] == "C4" and res.state["hands"]["A"] == ["S6"]


def test_rule_2_5_nobody_matches_dealer_flips_again():
    hands = [["S4", "S5", "S6"], ["S7", "S9", "S10"]]
    st = deal(hands, ["HK", "HQ", "H5"])
    assert st["start_cards"] == ["HK", "HQ", "H5"] and st["phase"] == "opening"
    assert GAME.to_act(GAME.decode(st)) == ["A"]


def test_rule_2_5_option_dealer_left_starts():
    st = deal([["S4", "S5", "S6"], ["S7", "S9", "S10"]], ["HK", "HQ", "H5"],
              no_opening_match="dealer_left_starts")
    assert st["start_cards"] == ["HK"] and st["phase"] == "play" and st["turn"] == "B"
    assert {a["type"] for a in legal(st, "B")} == {"draw", "pass"}


def test_rule_2_6_playing_on_an_unsettled_effect_start_card():
    st = build({"A": ["S4", "HJ"], "B": ["S7", "S9"]}, ["SJ"], turn=None, first_turn=True)
    assert refused(st, "play", "A", cards=["HJ"]).code == "start_card_unsettled"
    assert GAME.to_act(GAME.decode(st)) == ["A"]  # the dealer, to turn the next card
    assert legal(st, "A") == [{"type": "flip", "player": "A"}]
    st = build({"A": ["S4", "HJ"], "B": ["S7", "S9"]}, ["SJ"], turn=None, first_turn=True,
               options={"violations": "chombo"})
    res = ok(st, "play", "A", cards=["HJ"])
    assert res.state["result"]["code"] == "start_card_unsettled"
    assert res.state["result"]["rule"] == "man 2.6"
    assert {d["target"]: d["delta"] for d in res.score_deltas} == {"A": -1, "B": 1}
