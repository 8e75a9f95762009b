"""The man window after a penalty draw and for numbers let go (5.3), the options for
the page's former fixed defaults (5.3, 7.1), the match's end (7.2, 7.3), and referee mode (2.2,
2.3, 2.6)."""
from __future__ import annotations

import pytest

from engine import adjudicate
from engine.errors import InvalidDeal
from engine.games.man import GAME

from .helpers import build, deal, legal, ok, refused

# ------------------------------------------------------------------ 5.3 penalty draw

def _facing_two(**options):
    """B played the heart 2 (draw 2); C, with an empty hand, faces it; 5 − 3 makes 2."""
    hands = {"A": ["SK", "SQ"], "B": ["HK", "HQ"], "C": [], "D": ["DK", "DQ"]}
    return build(hands, ["H10", "H2"], stock=["D5", "D3"], top_by="B", turn="C",
                 pending_draw=2, options=options)


def test_rule_5_3_penalty_draw_reopens_the_drawers_window_for_a_plain_man():
    drawn = ok(_facing_two(), "draw", "C")
    assert drawn.state["turn"] == "D" and drawn.state["hands"]["C"] == ["D5", "D3"]
    assert drawn.state["window"] == ["C"] and drawn.to_act == ["D", "C"]
    assert {"type": "man", "player": "C"} in legal(drawn.state, "C")
    res = ok(drawn.state, "man", "C")  # 5 − 3 = 2: a plain man (not on turn, not mekuri)
    assert res.events[0]["kinds"] == [] and res.events[0]["multiplier"] == 1
    for p in ("A", "B"):  # B, whose 2 it is, may counter too (5.4)
        res = ok(res.state, "decline", p)
    res = ok(res.state, "decline", "D")
    assert {d["target"]: d["delta"] for d in res.score_deltas} == {"C": 1, "B": -1}


def test_rule_5_3_penalty_draw_window_closes_at_the_next_other_action():
    drawn = ok(_facing_two(), "draw", "C").state
    after = ok(drawn, "draw", "D").state
    assert refused(after, "man", "C").code == "man_window_closed"


def test_rule_5_5_penalty_draw_that_does_not_end_the_turn_is_a_plain_man_not_mekuri():
    drawn = ok(_facing_two(penalty_draw_ends_turn=False), "draw", "C").state
    assert drawn["turn"] == "C" and drawn["drew_penalty"] is True
    res = ok(drawn, "man", "C")
    assert res.events[0]["kinds"] == [] and res.events[0]["name"] == "man ×1"


# ------------------------------------------------------------------ 5.3 letting a number go

def _seven_again(**options):
    """A (first turn, 3 + 4 = 7) lets B's heart 7 go while C plays the heart 8 naming clubs;
    A passes; B plays the club 7: the same number by the same player."""
    hands = {"A": ["S3", "S4"], "B": ["C7", "DK", "DQ"], "C": ["H8", "CK", "CQ"]}
    s = build(hands, ["H10", "H7"], top_by="B", turn="C", options=options)
    s["first_turn"]["A"] = True
    s = ok(s, "play", "C", cards=["H8"], suit="C").state
    assert ({"player": "A", "number": 7, "by": "B"} in s["let_go"]) == (not options)
    s = ok(s, "pass", "A").state
    return ok(s, "play", "B", cards=["C7"]).state


def test_rule_5_3_a_number_let_go_stays_closed_when_the_same_player_plays_it_again():
    s = _seven_again()
    assert "A" not in s["window"] and s["window"] == ["C"]
    assert refused(s, "man", "A").code == "man_window_closed"
    assert all(a["type"] != "man" for a in legal(s, "A"))


def test_rule_5_3_option_let_pass_reopens_any_new_card_of_the_number():
    s = _seven_again(let_pass="reopens")
    assert s["let_go"] == [] and s["window"] == ["A", "C"]
    ok(s, "man", "A")


def test_rule_5_3_a_number_let_go_reopens_when_a_different_player_plays_it():
    hands = {"A": ["S3", "S4"], "B": ["HK", "HQ"], "C": ["D7", "CK"], "D": ["DK", "DQ"]}
    s = build(hands, ["H10", "H7"], top_by="B", turn="C", stock=["S9"])
    s = ok(s, "draw", "C").state  # A lets B's 7 go
    assert {"player": "A", "number": 7, "by": "B"} in s["let_go"]
    s = ok(s, "play", "C", cards=["D7"]).state
    assert "A" in s["window"]
    ok(s, "man", "A")


def test_rule_5_3_a_number_let_go_reopens_when_the_players_own_hand_changes():
    hands = {"A": ["S2", "S5"], "B": ["C7", "DK", "DQ"], "C": ["H8", "CK", "CQ"]}
    s = build(hands, ["H10", "H7"], top_by="B", turn="C", stock=["D2"])
    s["first_turn"]["A"] = True
    s = ok(s, "play", "C", cards=["H8"], suit="C").state  # A (2 + 5) lets the 7 go
    s = ok(s, "draw", "A").state  # 2-2-5: the 2s counted once still make 7
    assert not any(x["player"] == "A" for x in s["let_go"])
    s = ok(s, "end_turn", "A").state
    s = ok(s, "play", "B", cards=["C7"]).state
    assert "A" in s["window"]
    ok(s, "man", "A")


def test_rule_5_3_every_pair_let_go_since_the_hand_last_changed_blocks():
    """Seed: 「1回スルーした数字であっても違うプレイヤーが同じ数字を出したときや自分の手札が変わった
    ときにまんするのは問題ありません」. A number-and-player pair let go stays blocked until the
    hand changes, however many other pairs are let go after it: A (3 + 4, passing in a first
    turn, so the hand never changes) lets B's 7 go, then C's 5 and D's 5; B's next 7 is still
    closed to A."""
    hands = {"A": ["S3", "S4"], "B": ["D7", "DK", "DQ"], "C": ["H5", "CK", "CQ"],
             "D": ["D5", "SK", "SQ"]}
    s = build(hands, ["H10", "H7"], top_by="B", turn="C")
    s["first_turn"]["A"] = True
    s = ok(s, "play", "C", cards=["H5"]).state  # A lets B's 7 go
    s = ok(s, "play", "D", cards=["D5"]).state  # then C's 5
    s = ok(s, "pass", "A").state  # then D's 5
    assert [x for x in s["let_go"] if x["player"] == "A"] == [
        {"player": "A", "number": 7, "by": "B"}, {"player": "A", "number": 5, "by": "C"},
        {"player": "A", "number": 5, "by": "D"}]
    s = ok(s, "play", "B", cards=["D7"]).state  # the same player's 7 again
    assert "A" not in s["window"]
    assert refused(s, "man", "A").code == "man_window_closed"


def test_rule_5_3_let_go_records_every_player_the_window_held_so_they_reveal_nothing():
    hands = {"A": ["S3", "S4"], "B": ["HK", "HQ"], "C": ["C2", "CK"], "D": ["DK", "DQ"]}
    s = build(hands, ["H10", "H7"], top_by="B", turn="C", stock=["S9"])
    s = ok(s, "draw", "C").state
    assert s["let_go"] == [{"player": "A", "number": 7, "by": "B"},
                           {"player": "D", "number": 7, "by": "B"}]  # C drew: forgotten


def test_rule_5_3_option_man_window_until_covered():
    hands = {"A": ["S3", "S4"], "B": ["HK", "HQ"], "C": ["C2", "CK"], "D": ["DK", "DQ"]}
    s = build(hands, ["H10", "H7"], top_by="B", turn="C", stock=["S9"],
              options={"man_window": "until_covered"})
    s = ok(s, "draw", "C").state
    assert s["window"] == ["A", "C", "D"] and s["let_go"] == []
    s = ok(s, "end_turn", "C").state
    assert "A" in s["window"]
    ok(s, "man", "A")  # still on top: still open
    s = build(hands, ["H10", "H7"], top_by="B", turn="C", stock=["S9"])
    assert refused(ok(ok(s, "draw", "C").state, "end_turn", "C").state, "man",
                   "A").code == "man_window_closed"  # next_action (default)


# ------------------------------------------------------------------ 7.1 next dealer

@pytest.mark.parametrize("option,dealer", [("same", "B"), ("left", "C")])
def test_rule_7_1_option_dealer_after_no_winner(option, dealer):
    hands = {"A": ["S3", "S4"], "B": ["HK", "HQ"], "C": ["DK", "DQ"]}
    s = build(hands, ["H7"], top_by="B", dealer="B",
              options={"violations": "chombo", "dealer_after_no_winner": option})
    res = ok(s, "chombo", "A", offender="C", reason="peeked")
    assert res.state["next_dealer"] == dealer and res.next_match["next_dealer"] == dealer


def test_rule_7_1_option_dealer_after_no_winner_left_wraps_after_a_drawn_game():
    hands = {"A": ["S3", "S4"], "B": ["HK", "HQ"], "C": ["DK", "DQ"]}
    s = build(hands, ["H7"], top_by="B", dealer="C", stock=[],
              options={"stock_exhausted": "draw_game", "dealer_after_no_winner": "left"})
    s["discard"], s["stock"] = s["stock"] + s["discard"], []
    res = ok(s, "draw", "A")
    assert res.state["result"]["kind"] == "draw" and res.state["next_dealer"] == "A"


def test_rule_7_1_the_match_names_the_next_dealer():
    done = _won(match_games=None)
    nxt = done.next_match
    assert nxt == {"totals": {"A": 1, "B": -1}, "games_played": 1, "next_dealer": "A",
                   "over": False, "winner": None,
                   # the referee's ledger, carried by every game's match summary
                   "referee_ledger": {"entries": [], "totals": {"A": 0, "B": 0}}}
    dealt = adjudicate.deal("man", ["A", "B"], seed="n", match=nxt)["state"]
    assert dealt["dealer"] == "A" and dealt["match"]["games_played"] == 1
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal("man", ["A", "B"], seed="n", dealer="B", match=nxt)
    assert err.value.path == "dealer"


# ------------------------------------------------------------------ 7.2 / 7.3 the match

def _won(totals=None, games_played=0, **options):
    """A mans B's 7 in a two-player game and B declines to counter it (5.4) (+1 / −1)."""
    s = build({"A": ["S3", "S4"], "B": ["HK", "HQ"]}, ["H7"], top_by="B", turn="A",
              options=options, match={"totals": totals or {"A": 0, "B": 0},
                                      "games_played": games_played, "over": False,
                                      "winner": None})
    return ok(ok(s, "man", "A").state, "decline", "B")


def test_rule_7_2_match_games_ends_the_match_and_names_the_winner():
    res = _won({"A": 2, "B": -2}, 2, match_games=3)
    assert res.state["match"] == {"totals": {"A": 3, "B": -3}, "games_played": 3,
                                  "over": True, "winner": "A"}
    assert res.next_match["over"] is True and res.next_match["winner"] == "A"
    assert res.events[-1] == {"type": "match_finished", "game": "man", "winner": "A",
                              "winners": ["A"], "totals": {"A": 3, "B": -3}, "games_played": 3,
                              "text": {"en": "Match over after 3 games: A wins",
                                       "ja": "3局で対戦終了: Aの勝ち"}}
    assert not _won({"A": 2, "B": -2}, 1, match_games=3).state["match"]["over"]


def test_rule_7_2_a_tie_for_the_lead_plays_on():
    res = _won({"A": -1, "B": 1}, 5, match_games=3)  # 0 : 0 after six games
    assert res.state["match"]["over"] is False and res.state["match"]["winner"] is None
    assert all(e["type"] != "match_finished" for e in res.events)


def test_rule_7_2_match_target():
    assert _won({"A": 3, "B": -3}, 7, match_target=4).state["match"]["winner"] == "A"
    assert not _won({"A": 2, "B": -2}, 7, match_target=4).state["match"]["over"]


def test_rule_7_3_a_finished_match_takes_no_more_games():
    res = _won({"A": 2, "B": -2}, 2, match_games=3)
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal("man", ["A", "B"], seed="x", match=res.next_match,
                        options={"match_games": 3})
    assert err.value.path == "match.over" and "A won" in err.value.message
    with pytest.raises(InvalidDeal):  # values that already meet the end condition
        adjudicate.deal("man", ["A", "B"], seed="x", options={"match_target": 5},
                        match={"totals": {"A": 5, "B": -5}, "games_played": 4})


# ------------------------------------------------------------------ referee mode

def test_rule_2_6_referee_mode_a_play_on_an_unsettled_start_card_is_a_chombo_by_itself():
    hands = [["H4", "S5", "C6"], ["H3", "D4", "DQ"], ["D2", "D3", "DK"]]
    st = deal(hands, ["HJ", "C10"], start_card="by_dealer", violations="chombo")
    assert st["discard"] == ["HJ"] and st["phase"] == "opening"
    res = ok(st, "play", "B", cards=["H3"])  # jumped in on the J
    assert res.state["result"]["code"] == "start_card_unsettled"
    assert res.state["result"]["offender"] == "B"
    assert {d["target"]: d["delta"] for d in res.score_deltas} == {"A": 1, "B": -2, "C": 1}


def test_rule_2_3_option_start_card_by_dealer_flip():
    hands = [["H4", "S5", "C6"], ["H3", "D4", "DQ"], ["D2", "D3", "DK"]]
    st = deal(hands, ["HJ", "C2", "C10"], start_card="by_dealer")
    assert adjudicate.validate(st, {"type": "play", "player": "B", "cards": ["H3"]}) \
        .refusal.code == "start_card_unsettled"
    assert legal(st, "A") == [{"type": "flip", "player": "A"}] and legal(st, "B") == []
    assert refused(st, "flip", "B").code == "not_dealer"
    st = ok(st, "flip", "A").state
    assert st["start_cards"] == ["HJ", "C2"]
    res = ok(st, "flip", "A")
    assert res.state["start_cards"] == ["HJ", "C2", "C10"] and res.to_act == ["A"]
    assert refused(res.state, "flip", "A").code == "flip_not_due"


def test_rule_2_2_declared_calls_the_reach_at_the_deal_is_checked():
    hands = [["S2", "S3", "S4"], ["HK", "HQ", "H9"]]  # A: 9, in reach; B: 34
    st = deal(hands, ["S10"], calls="declared")
    assert st["reach"] == {"A": False, "B": False} and st["last_call"] == {"A": None, "B": None}
    assert GAME.to_act(GAME.decode(st)) == ["A"]
    assert legal(st, "A") == [{"type": "call", "player": "A", "call": "reach"}]
    assert refused(st, "play", "A", cards=["S4"], call="reach_continue").code == "call_missing"
    assert refused(st, "call", "A", call="reach_continue").code == "call_wrong"
    assert refused(st, "call", "B", call="reach").code == "call_wrong"  # 34 is not reach
    res = ok(st, "call", "A", call="reach")
    assert res.events == [{"type": "called", "game": "man", "player": "A", "code": "reach",
                           "text": {"en": "Reach", "ja": "リーチ"}, "deal": True}]
    assert res.state["reach"]["A"] is True and res.state["last_call"]["A"] == "reach"
    assert refused(res.state, "call", "A", call="reach").code == "call_not_due"
    ok(res.state, "play", "A", cards=["S4"], call="reach_continue")
    auto = deal(hands, ["S10"])
    assert refused(auto, "call", "A", call="reach").code == "call_not_due"


def test_rule_2_2_referee_mode_a_missing_deal_call_is_a_chombo():
    hands = [["S2", "S3", "S4"], ["HK", "HQ", "H9"]]
    st = deal(hands, ["S10"], calls="declared", violations="chombo")
    res = ok(st, "play", "A", cards=["S4"], call="reach_continue")
    assert res.state["result"]["code"] == "call_missing"
    assert res.state["result"]["offender"] == "A"


# ------------------------------------------------------------------ GET /v1/games

def test_get_games_lists_the_new_options():
    from service.app import create_app
    from service.config import Settings

    client = create_app(Settings(metrics=False)).test_client()
    games = client.get("/v1/games").get_json()
    games = games.get("games", games) if isinstance(games, dict) else games
    man = next(g for g in games if g["id"] == "man")
    options = {o["name"]: o for o in man["options"]}
    assert options["man_window"]["default"] == "next_action"
    assert options["let_pass"]["allowed"] == ["blocked", "reopens"]
    assert options["dealer_after_no_winner"]["rule"] == "7.1"
    assert options["match_games"]["default"] is None and options["match_games"]["nullable"]
    assert options["match_target"]["minimum"] == 1
    assert options["start_card"]["allowed"] == ["in_deal", "by_dealer"]
    assert man["presets"]["referee"]["start_card"] == "by_dealer"
    assert {"flip", "call"} <= {a["type"] for a in man["actions"]}
