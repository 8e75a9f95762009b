"""Rules 4 and 5: man numbers, calling man, windows, kaeshi chains and multipliers."""
from __future__ import annotations

from engine import adjudicate
from engine.games.man import GAME
from engine.games.man.numbers import analyse, man_numbers

from .helpers import build, deal, legal, ok, refused

LOOKUP = {lk.name: lk for lk in GAME.lookups}["man-numbers"]


def look(*cards):
    return LOOKUP.handler({"hand": list(cards)})


def test_seed_example_2_3_5_makes_only_10():
    assert look("S2", "H3", "D5")["numbers"] == [10]


def test_seed_example_2_2_6():
    out = look("S2", "H2", "D6")
    assert out["numbers"] == [3, 4, 8, 10, 12]  # printed 3, 8, 10, Q; plus 6 − 2 (4.3)
    assert out["reach"] is True and out["total"] == 10
    assert out["derivations"]["12"] == ["2 × 6 (2s counted once)"]


def test_seed_example_a_a_2():
    out = look("SA", "HA", "D2")
    assert out["numbers"] == [1, 2, 3, 4, 5, 8, 12, 13]  # printed ones plus 2 − 1 (4.3)
    assert "A as 10 − 2 (As counted once)" in out["derivations"]["8"]
    assert out["derivations"]["13"] == ["A as 10 + A + 2"]


def test_seed_example_a_5_cannot_use_a_as_10():
    out = look("SA", "H5")
    assert 2 not in out["numbers"] and 15 not in out["numbers"]
    assert not any("A as 10" in w for ways in out["derivations"].values() for w in ways)
    assert out["numbers"] == [4, 5, 6]


def test_rule_4_only_a_hand_in_reach_makes_numbers():
    assert look("SK", "HA") == {"reach": False, "total": 14, "numbers": [], "derivations": {}}
    assert look("SK")["numbers"] == [13]


def test_rule_4_1_total_of_all_cards():
    assert 12 in man_numbers(["S3", "H4", "D5"]) and man_numbers(["S3", "H4", "D5"]) == {12}


def test_rule_4_2_collapsing_a_repeated_rank():
    assert man_numbers(["S3", "H3", "D3"]) == {3, 9}
    assert man_numbers(["S2", "H2", "S3", "H3"]) == {5, 7, 8, 10, 1, 6}  # 2-3: 5, 1, 6


def test_rule_4_3_two_cards_add_subtract_multiply_divide():
    assert man_numbers(["S6", "H2"]) == {8, 4, 12, 3}
    assert man_numbers(["S4", "H3"]) == {7, 1, 12}  # 4 ÷ 3 is not whole
    assert man_numbers(["S5", "H3"]) == {8, 2}  # 15 is over 13
    assert man_numbers(["S5", "H3", "D2"]) == {10}  # three cards: total only


def test_rule_4_4_a_as_10_only_while_the_total_stays_13_or_less():
    assert man_numbers(["SA", "H3"]) == {4, 2, 3, 13, 7}  # A as 10: 13, 7 (30, 10÷3 no)
    assert 10 in man_numbers(["SA"]) and man_numbers(["SA"]) == {1, 10}
    assert man_numbers(["SA", "H4"]) == {5, 3, 4}  # 10 + 4 = 14 > 13


def test_lookup_is_cached_and_ignores_suits():
    assert analyse(["S2", "H3"]) == analyse(["D3", "C2"])


# ------------------------------------------------------------------------- rule 5

FOUR = {"A": ["S3", "S4"], "B": ["HK", "HQ"], "C": ["C2"], "D": ["DK", "DQ"]}


def seven(**kw):
    """B just played the heart 7; C is on turn; A (3 + 4) can man it."""
    return build(kw.pop("hands", FOUR), ["H10", "H7"], top_by="B", turn="C", **kw)


def test_rule_5_1_man_out_of_turn_on_a_number_the_hand_makes():
    s = seven()
    assert {"type": "man", "player": "A"} in legal(s, "A")
    assert GAME.to_act(GAME.decode(s)) == ["C", "A"]
    res = ok(s, "man", "A")
    assert res.state["phase"] == "chain" and res.events[0]["type"] == "man_called"
    assert res.to_act == ["B", "C", "D"]  # B, the card's player, may counter-man too (5.4)


def test_rule_5_1_no_man_on_own_card_and_no_false_man():
    s = seven()
    assert refused(s, "man", "B").code in ("man_own_card", "man_not_in_reach")
    mine = build({**FOUR, "B": ["H3", "H4"]}, ["H10", "H7"], top_by="B", turn="C")
    assert refused(mine, "man", "B").code == "man_own_card"
    assert refused(s, "man", "D").code == "man_not_in_reach"
    assert refused(s, "man", "C").code == "man_number_not_made"


def test_rule_5_2_no_man_on_start_card():
    st = deal([["S4", "S5", "C6"], ["H3", "H4", "DQ"], ["D2", "D3", "DK"]], ["S7"])
    assert refused(st, "man", "B").code == "man_on_start_card"  # B's 3 + 4 = 7


def test_rule_5_2_no_man_on_a_card_played_in_its_players_first_turn():
    st = deal([["S4", "S5", "C6"], ["H2", "D2", "H4"], ["D5", "D3", "DK"]], ["C10"])
    after = ok(st, "play", "A", cards=["C6"]).state  # A's first turn (the opening race)
    assert after["top_manable"] is False and after["window"] == []
    assert refused(after, "man", "B").code == "man_on_first_turn_card"  # 2-4 would make 6
    s = build(FOUR, ["H10", "H7"], top_by="B", turn="C", top_manable=False, window=[])
    assert refused(s, "man", "A").code == "man_on_first_turn_card"


def test_rule_5_3_window_closes_at_the_next_other_action():
    s = seven(stock=["S9"])
    drawn = ok(s, "draw", "C").state
    assert refused(drawn, "man", "A").code == "man_window_closed"
    assert all(a["type"] != "man" for a in legal(drawn, "A"))


def test_rule_5_3_same_rank_played_again_can_be_manned():
    hands = {"A": ["S3", "S4"], "B": ["HK", "HQ"], "C": ["C7", "CK"], "D": ["DK", "DQ"]}
    s = build(hands, ["H10", "H7"], top_by="B", turn="C", window=[])
    assert refused(s, "man", "A").code == "man_window_closed"
    again = ok(s, "play", "C", cards=["C7"]).state
    ok(again, "man", "A")


def test_rule_5_3_mekuri_the_player_on_turn_draws_and_mans():
    s = seven(hands={**FOUR, "C": ["C2"]}, stock=["D5"])
    drawn = ok(s, "draw", "C").state
    assert drawn["window"] == ["C"]
    res = ok(drawn, "man", "C")
    assert res.events[0]["kinds"] == ["mekuri"] and res.events[0]["multiplier"] == 2


def test_rule_5_4_kaeshi_chain_last_caller_wins_from_the_previous_caller():
    hands = {"A": ["S3", "S4"], "B": ["HK", "HQ"], "C": ["C2", "C5"], "D": ["D6", "DA"]}
    s = build(hands, ["H10", "H7"], top_by="B", turn="C")
    s1 = ok(s, "man", "A").state
    assert adjudicate.view(s1, "D")["hands"]["A"] == ["S3", "S4"]  # shown
    assert adjudicate.view(s1, "D")["hands"]["C"] is None
    # B may counter-man A's man (5.4), but K + Q is out of reach
    assert refused(s1, "man", "B").code == "man_not_in_reach"
    assert refused(s1, "decline", "A").code == "not_eligible_to_decline"  # A called
    assert refused(s1, "play", "C", cards=["C5"]).code == "man_chain_open"
    s2 = ok(s1, "man", "C").state  # 2 + 5 = 7
    assert refused(s2, "man", "A").code == "man_already_called"
    assert GAME.to_act(GAME.decode(s2)) == ["B", "D"]
    s3 = ok(s2, "man", "D")  # 6 + A = 7: a second kaeshi
    assert s3.to_act == ["B"]
    s3 = ok(s3.state, "decline", "B")  # nobody left → resolves
    assert s3.status == "finished"
    assert {d["target"]: d["delta"] for d in s3.score_deltas} == {"D": 4, "C": -4}
    assert "kaeshi man ×2 on kaeshi man ×2 on man ×1" in s3.score_deltas[0]["reason"]


def test_rule_5_4_decline_resolves_and_each_declines_once():
    s1 = ok(seven(), "man", "A").state
    assert refused(build(FOUR, ["H7"], top_by="B"), "decline", "A").code == "no_man_chain"
    s2 = ok(s1, "decline", "C").state
    assert refused(s2, "decline", "C").code == "already_declined"
    s3 = ok(s2, "decline", "D").state
    res = ok(s3, "decline", "B")
    assert res.status == "finished" and res.state["result"]["winner"] == "A"
    assert {d["target"]: d["delta"] for d in res.score_deltas} == {"A": 1, "B": -1}


def test_rule_5_4_two_players_the_card_s_player_answers_the_man():
    s = build({"A": ["S3", "S4"], "B": ["HK", "HQ"]}, ["H7"], top_by="B", turn="A")
    res = ok(s, "man", "A")
    assert res.status == "in_progress" and res.to_act == ["B"]
    assert legal(res.state, "B") == [{"type": "decline", "player": "B"}]
    res = ok(res.state, "decline", "B")
    assert res.status == "finished" and res.state["result"]["stake"] == 1


def test_rule_5_4_the_card_s_player_may_counter_man():
    """Seed (the worked game, after A's 返しまん on B's man on C's club 3): 「残りのプレイヤー2人が
    さらに返しまんを続けてくれることに望みをかけますが、プレイヤーC・Dは3に対してまんすることが
    できないので、ここでゲームは終了します」 — C, whose card it is, is one of the two who could have
    countered; only the hand stops them. A counter-man is a man on a man, not on one's own card
    (5.1 still keeps the card's player from the first man)."""
    hands = {"A": ["S3", "S4"], "B": ["H2", "H5"], "C": ["CK", "CQ"], "D": ["DK", "DQ"]}
    s = build(hands, ["H10", "H7"], top_by="B", turn="C")
    assert refused(s, "man", "B").code == "man_own_card"  # 5.1: not on the card itself
    s1 = ok(s, "man", "A").state  # 3 + 4 = 7 on B's 7
    assert GAME.to_act(GAME.decode(s1)) == ["B", "C", "D"]
    assert {"type": "man", "player": "B"} in legal(s1, "B")
    res = ok(s1, "man", "B")  # 2 + 5 = 7: B counters the man on their own card
    assert res.events[0]["type"] == "kaeshi_called" and res.events[0]["against"] == "A"
    assert res.to_act == ["C", "D"]
    res = ok(ok(res.state, "decline", "C").state, "decline", "D")
    assert res.state["result"]["winner"] == "B" and res.state["result"]["loser"] == "A"
    assert {d["target"]: d["delta"] for d in res.score_deltas} == {"B": 2, "A": -2}


def test_rule_5_5_tanki_doubles():
    s = seven(hands={**FOUR, "A": ["S7"]})
    res = ok(ok(s, "man", "A").state, "decline", "C")
    res = ok(ok(res.state, "decline", "D").state, "decline", "B")
    assert res.state["result"]["stake"] == 2


def test_rule_5_5_tanki_mekuri_countered_once_is_eight():
    hands = {"A": ["S3", "S4"], "B": ["HK", "HQ"], "C": [], "D": ["DK", "DQ"]}
    s = build(hands, ["H10", "H7"], top_by="B", turn="C", stock=["D7"])
    s = ok(s, "draw", "C").state
    s = ok(s, "man", "C").state
    assert s["chain"]["calls"][0]["kinds"] == ["tanki", "mekuri"]
    assert s["chain"]["calls"][0]["multiplier"] == 4
    s = ok(s, "man", "A").state  # kaeshi ×2 although A's own window had closed
    res = ok(ok(s, "decline", "D").state, "decline", "B")
    assert {d["target"]: d["delta"] for d in res.score_deltas} == {"A": 8, "C": -8}
    assert res.score_deltas[0]["reason"] == \
        "kaeshi man ×2 on tanki mekuri man ×4: stake ×8"


def test_rule_5_5_not_mekuri_when_the_hand_already_made_it():
    s = seven(hands={**FOUR, "C": ["C3", "C4"]}, stock=["H3"])
    drawn = ok(s, "draw", "C").state  # 3-3-4 still makes 7 (3s once); it did before too
    res = ok(drawn, "man", "C")
    assert res.events[0]["kinds"] == [] and res.events[0]["multiplier"] == 1


def test_rule_1_1_lookup_a_joker_hand_is_never_in_reach():
    assert LOOKUP.handler({"hand": ["S2", "BJ"]}) == {"reach": False, "total": 2, "numbers": [],
                                                      "derivations": {}}


def test_rule_4_man_numbers_lookup_is_memoized_in_the_engine():
    """The lookup is cached where it pays: in process, by hand values (not in Redis, whose round
    trip costs more than the work)."""
    from engine import adjudicate
    from engine.games.man import numbers

    numbers._analyse.cache_clear()
    first = adjudicate.lookup("man", "man-numbers", {"hand": ["S2", "H3", "D5"]})
    again = adjudicate.lookup("man", "man-numbers", {"hand": ["c2", "h3", "d5"]})  # same values
    assert first == again and first["numbers"] == [10]
    assert numbers._analyse.cache_info().hits >= 1
