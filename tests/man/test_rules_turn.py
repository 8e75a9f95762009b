"""Rule 3: a turn — matching, several cards, drawing, passing, big hands, effects, stock."""
from __future__ import annotations

from engine.games.man.summary import hand_order

from .helpers import build, legal, ok, refused

HANDS = {"A": ["S5", "HK", "D7"], "B": ["D9", "H9", "CK"], "C": ["C9", "HQ", "DQ"],
         "D": ["C10", "CJ", "DK"]}


def st(hands=None, top=("S9",), **kw):
    return build(hands or HANDS, list(top), top_by=kw.pop("top_by", "D"), **kw)


def test_rule_3_1_match_by_rank_or_suit():
    s = st(top=("H7",))
    ok(s, "play", "A", cards=["D7"])   # rank
    ok(s, "play", "A", cards=["HK"])   # suit
    r = refused(s, "play", "A", cards=["S5"])
    assert r.code == "card_does_not_match" and r.rule == "man 3.1" and r.ja


def test_rule_3_1_only_the_player_on_turn_plays():
    r = refused(st(), "play", "B", cards=["D9"])
    assert r.code == "not_your_turn" and "A" in r.en


def test_rule_3_1_after_an_8_the_named_suit_or_an_8():
    s = st(hands={"A": ["S5", "HK", "D8"], "B": ["D9", "H9", "C8"], "C": ["C9", "HQ", "DQ"],
                  "D": ["C10", "CJ", "DK"]}, top=("S8",))
    assert refused(s, "play", "A", cards=["D8"]).code == "suit_required"
    assert refused(s, "play", "A", cards=["S5"], suit="H").code == "suit_not_allowed"
    s2 = ok(s, "play", "A", cards=["D8"], suit="C").state
    assert s2["named_suit"] == "C"
    assert refused(s2, "play", "B", cards=["D9"]).code == "card_does_not_match"  # 8's own suit
    ok(s2, "play", "B", cards=["C8"], suit="H")  # another 8
    s3 = ok(s, "play", "A", cards=["D8"], suit="H").state
    ok(s3, "play", "B", cards=["H9"])


def test_rule_3_2_several_cards_of_one_rank_one_must_match_last_is_on_top():
    hands = {"A": ["H5", "C5", "S5", "HK"], "B": ["D9", "H9"], "C": ["C9", "HQ"]}
    s = build(hands, ["S9"], top_by="C")
    res = ok(s, "play", "A", cards=["S5", "H5", "C5"])
    assert res.state["discard"][-3:] == ["S5", "H5", "C5"]  # C5 on top: clubs next
    assert refused(s, "play", "A", cards=["H5", "C5"]).code == "card_does_not_match"
    assert refused(s, "play", "A", cards=["S5", "HK"]).code == "ranks_differ"
    assert refused(s, "play", "A", cards=[]).code == "cards_empty"
    assert refused(s, "play", "A", cards=["S5", "S5"]).code == "cards_duplicate"
    assert refused(s, "play", "A", cards=["D5"]).code == "card_not_in_hand"
    plays = [a["cards"] for a in legal(s, "A") if a["type"] == "play"]
    assert ["H5", "C5", "S5"] in plays and ["H5", "S5", "C5"] in plays and ["H5"] not in plays


def test_rule_3_2_per_card_effects_two_2s_draw_four_two_as_skip_two_two_js_reverse_twice():
    hands = {"A": ["S2", "H2", "SA", "HA", "SJ", "HJ"], "B": ["D9"], "C": ["C9"], "D": ["C10"]}
    s = build(hands, ["S9"], top_by="D")
    assert ok(s, "play", "A", cards=["H2", "S2"]).state["pending_draw"] == 4
    assert ok(s, "play", "A", cards=["HA", "SA"]).state["turn"] == "D"  # B and C skipped
    two_j = ok(s, "play", "A", cards=["HJ", "SJ"]).state
    assert two_j["direction"] == 1 and two_j["turn"] == "B"
    one_j = ok(s, "play", "A", cards=["SJ"]).state
    assert one_j["direction"] == -1 and one_j["turn"] == "D"


def test_rule_3_2_option_once_a_group_acts_as_one_card():
    hands = {"A": ["S2", "H2", "SA", "HA"], "B": ["D9"], "C": ["C9"], "D": ["C10"]}
    s = build(hands, ["S9"], top_by="D", options={"multi_card_effects": "once"})
    assert ok(s, "play", "A", cards=["H2", "S2"]).state["pending_draw"] == 2
    assert ok(s, "play", "A", cards=["HA", "SA"]).state["turn"] == "C"


def test_rule_3_3_draw_then_play_any_playable_card_or_end_the_turn():
    s = st(stock=["C4"])
    drawn = ok(s, "draw", "A").state
    assert drawn["hands"]["A"][-1] == "C4" and drawn["drew"] is True and drawn["turn"] == "A"
    ok(drawn, "play", "A", cards=["S5"])  # not the drawn card
    res = ok(drawn, "end_turn", "A")
    assert res.state["turn"] == "B"
    assert refused(drawn, "draw", "A").code == "already_drew"
    assert refused(s, "end_turn", "A").code == "draw_first"


def test_rule_3_3_must_draw_without_a_playable_card():
    s = st(top=("C3",))
    assert [a["type"] for a in legal(s, "A")] == ["draw"]


def test_rule_3_4_first_turn_pass_carries_the_pending_draw_on():
    s = st(top=("S2",), first_turn=True, pending_draw=2)
    res = ok(s, "pass", "A")
    assert res.state["turn"] == "B" and res.state["pending_draw"] == 2
    assert res.state["first_turn"]["A"] is False


def test_rule_3_4_pass_even_when_able_to_play_but_only_in_the_first_turn_before_drawing():
    ok(st(first_turn=True), "pass", "A")  # A could play S5
    assert refused(st(), "pass", "A").code == "pass_after_first_turn"
    drawn = ok(st(first_turn=True), "draw", "A").state
    assert refused(drawn, "pass", "A").code == "pass_after_draw"


BIG = ["S5", "HK", "D7", "H2", "H3", "H4", "H6", "H7"]  # 8 cards, S5 matches S9


def test_rule_3_5_eight_cards_must_play_when_able():
    s = st(hands={**HANDS, "A": BIG})
    assert refused(s, "draw", "A").code == "must_play_big_hand"
    assert refused(st(hands={**HANDS, "A": BIG}, first_turn=True), "pass", "A").code == \
        "must_play_big_hand"
    assert {a["type"] for a in legal(s, "A")} == {"play"}


def test_rule_3_5_including_a_card_just_drawn():
    hand = ["C5", "HK", "D7", "H2", "H3", "H4", "H6", "H7"]  # nothing matches S9
    s = st(hands={**HANDS, "A": hand}, stock=["S4"])
    drawn = ok(s, "draw", "A").state
    assert refused(drawn, "end_turn", "A").code == "must_play_big_hand"
    ok(drawn, "play", "A", cards=["S4"])
    s2 = st(hands={**HANDS, "A": hand}, stock=["C4"])
    ok(ok(s2, "draw", "A").state, "end_turn", "A")  # nothing playable: may stop


SEVEN = ["C5", "HK", "D7", "H2", "H3", "H4", "H6"]  # 7 cards, nothing matches S9


def test_rule_3_5_drawing_to_eight_with_a_playable_card_must_play():
    """Seed: 「手札が8枚以上になった場合は、自分の手番で、出せるカードは必ず出さなければならない
    (出せるけどあえて出さない、ということができない)」 — the hand *becoming* 8 binds on the
    player's turn, not only a turn begun with 8: A draws an eighth card that plays."""
    s = st(hands={**HANDS, "A": SEVEN}, stock=["S4"])
    assert {a["type"] for a in legal(s, "A")} == {"draw"}  # 7 cards: no duty yet
    drawn = ok(s, "draw", "A").state
    r = refused(drawn, "end_turn", "A")
    assert r.code == "must_play_big_hand" and r.rule == "man 3.5"
    assert {a["type"] for a in legal(drawn, "A")} == {"play"}  # end_turn no longer offered
    ok(drawn, "play", "A", cards=["S4"])


def test_rule_3_5_a_penalty_draw_to_eight_with_a_playable_card_must_play():
    """Seed: 「手札が8枚以上になった場合は、自分の手番で、出せるカードは必ず出さなければならない」
    — with `penalty_draw_ends_turn: false` the turn goes on after the pending draw (3.8), and
    a hand it brought to 8 or more must play a playable card rather than end the turn."""
    hand = ["C5", "HK", "D7", "H4", "H6", "D10"]  # 6 cards, none answers the 2
    s = build({**HANDS, "A": hand}, ["S2"], top_by="D", pending_draw=2, stock=["S7", "D4"],
              options={"penalty_draw_ends_turn": False})
    after = ok(s, "draw", "A").state  # 8 cards now, S7 follows the spade 2
    assert refused(after, "end_turn", "A").code == "must_play_big_hand"
    assert {a["type"] for a in legal(after, "A")} == {"play"}
    ok(after, "play", "A", cards=["S7"])
    # nothing playable among the 8: the turn may end
    s2 = build({**HANDS, "A": hand}, ["S2"], top_by="D", pending_draw=2, stock=["C7", "D4"],
               options={"penalty_draw_ends_turn": False})
    ok(ok(s2, "draw", "A").state, "end_turn", "A")


def test_rule_3_6_eight_or_more_cards_at_the_end_of_a_turn_are_public():
    hand = SEVEN
    s = st(hands={**HANDS, "A": hand}, stock=["C4"])
    after = ok(ok(s, "draw", "A").state, "end_turn", "A").state
    assert after["public"]["A"] is True
    from engine import adjudicate
    assert adjudicate.view(after, "B")["hands"]["A"] == hand_order(hand + ["C4"])
    assert adjudicate.view(after, None)["hands"]["A"] == hand_order(hand + ["C4"])
    assert adjudicate.view(after, "B")["hands"]["C"] is None
    # back to 7: private again
    later = build({**HANDS, "A": hand + ["C4"]}, ["C7"], top_by="D",
                  public={"A": True, "B": False, "C": False, "D": False})
    res = ok(later, "play", "A", cards=["C4"])
    assert res.state["public"]["A"] is False
    assert adjudicate.view(res.state, "B")["hands"]["A"] is None


def test_rule_3_7_effects():
    hands = {"A": ["SA", "SJ", "S2", "S3", "S8"], "B": ["D9"], "C": ["C9"], "D": ["C10"]}
    s = build(hands, ["S9"], top_by="D")
    assert ok(s, "play", "A", cards=["SA"]).state["turn"] == "C"
    j = ok(s, "play", "A", cards=["SJ"]).state
    assert (j["turn"], j["direction"]) == ("D", -1)
    assert ok(s, "play", "A", cards=["S2"]).state["pending_draw"] == 2
    assert ok(s, "play", "A", cards=["S3"]).state["pending_draw"] == 3
    eight = ok(build({**hands, "A": ["SA", "S8"]}, ["H7", "S2"], top_by="D", pending_draw=2), "play", "A", cards=["S8"],
               suit="D").state
    assert eight["pending_draw"] == 0 and eight["named_suit"] == "D"


def test_rule_3_8_two_answered_with_three_makes_next_draw_five():
    hands = {"A": ["S2", "HK"], "B": ["S3", "HQ"], "C": ["S10", "D9"], "D": ["C10", "DK"]}
    s = build(hands, ["S9"], top_by="D", stock=["H4", "H5", "H6", "H7", "H8", "H10"])
    s = ok(s, "play", "A", cards=["S2"]).state
    s = ok(s, "play", "B", cards=["S3"]).state
    assert s["turn"] == "C" and s["pending_draw"] == 5
    assert refused(s, "play", "C", cards=["S10"]).code == "pending_draw_must_answer"
    assert [a["type"] for a in legal(s, "C")] == ["draw"]
    res = ok(s, "draw", "C")
    assert res.state["hands"]["C"] == ["S10", "D9", "H4", "H5", "H6", "H7", "H8"]
    assert res.state["pending_draw"] == 0 and res.state["turn"] == "D"  # ends the turn


def test_rule_3_8_ace_carries_the_draw_past_the_skipped_player():
    hands = {"A": ["SA", "HK"], "B": ["S3"], "C": ["C9"], "D": ["C10"]}
    s = build(hands, ["S2"], top_by="D", pending_draw=2)
    res = ok(s, "play", "A", cards=["SA"])
    assert res.state["turn"] == "C" and res.state["pending_draw"] == 2


def test_rule_3_8_jack_carries_the_draw_back_the_other_way():
    hands = {"A": ["SJ", "HK"], "B": ["S3"], "C": ["C9"], "D": ["C10"]}
    s = build(hands, ["S2"], top_by="D", pending_draw=2)
    res = ok(s, "play", "A", cards=["SJ"])
    assert res.state["turn"] == "D" and res.state["pending_draw"] == 2


def test_rule_3_8_option_penalty_draw_does_not_end_the_turn():
    hands = {"A": ["C5", "HK"], "B": ["S3"], "C": ["C9"], "D": ["C10"]}
    s = build(hands, ["S2"], top_by="D", pending_draw=2, stock=["S7", "D4"],
              options={"penalty_draw_ends_turn": False})
    after = ok(s, "draw", "A").state
    assert after["turn"] == "A" and after["pending_draw"] == 0 and after["drew"] is True
    ok(after, "play", "A", cards=["S7"])
    ok(after, "end_turn", "A")
    assert refused(after, "draw", "A").code == "already_drew"


def test_rule_3_9_empty_stock_reshuffles_the_discard_under_its_top_card():
    hands = {"A": ["C5", "HK"], "B": ["S3"]}
    s = build(hands, ["S9"], top_by="B")
    # move every stock card to the discard pile below the top card
    s["discard"] = s["stock"] + s["discard"]
    s["stock"] = []
    res = ok(s, "draw", "A")
    assert res.state["reshuffles"] == 1 and res.state["discard"] == ["S9"]
    assert [e["type"] for e in res.events][:1] == ["reshuffled"]
    assert len(res.state["stock"]) + 1 == len(s["discard"]) - 1
    again = ok(s, "draw", "A")
    assert again.state == res.state  # the reshuffle is seeded: same stock every time


def test_rule_3_9_option_draw_game():
    hands = {"A": ["C5", "HK"], "B": ["S3"]}
    s = build(hands, ["S9"], top_by="B", options={"stock_exhausted": "draw_game"})
    s["discard"] = s["stock"] + s["discard"]
    s["stock"] = []
    res = ok(s, "draw", "A")
    assert res.status == "finished" and res.state["result"]["kind"] == "draw"
    assert res.score_deltas == [] and res.state["next_dealer"] == s["dealer"]


def test_2_4_5_3_sealed_to_act_is_public():
    # Sealed answers reach a seat in clear, so their to_act may not say who holds what: in the
    # opening race (2.4) every player may try the start card, not only those who can match it.
    from engine import adjudicate as adj
    players = ["ann", "bob", "cho", "dai"]
    dealt = adj.deal("man", players, seed="readme")
    assert dealt["to_act"] == ["ann", "dai"]  # the engine's truth (unsealed)
    assert adj.deal("man", players, seed="readme", public=True)["to_act"] == players
    action = {"type": "play", "player": "ann", "cards": ["SA"]}
    truth = adj.validate(dealt["state"], action)
    public = adj.validate(dealt["state"], action, public=True)
    # 5.3: after a play, every player whose window is open and who is in reach by their last
    # (public) call may man; nobody's hand is read.
    from engine.games.man import GAME
    s = GAME.decode(public.state)
    expected = [s.turn] + [p for p in players if p != s.turn and p in s.window and s.reach[p]
                           and s.top_manable]
    assert public.to_act == expected and set(truth.to_act) <= set(public.to_act) | {s.turn}
