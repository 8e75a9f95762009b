"""Irregularities in referee mode (§14, R-1 … R-5): each sanction triggered and recorded through
the engine; in reject mode (the default) the same act is refused, nothing changed."""
from __future__ import annotations

import copy

from engine import adjudicate

from .helpers import PLAYERS, build, options_of
from .test_rules_tribute import deal

REFEREE = {"violations": "referee"}


def referee_state(**kw) -> dict:
    return build(options=options_of(violations="referee"), **kw)


def rejecting(state: dict) -> dict:
    out = copy.deepcopy(state)
    out["options"]["violations"] = "reject"
    return out


def act(state: dict, type_: str, player: str, **fields):
    return adjudicate.validate(state, {"type": type_, "player": player, **fields})


def mark(answer) -> dict:
    (event,) = [e for e in answer.events if e["type"] == "irregularity_sanctioned"]
    return event


def assert_refused_in_reject_mode(state: dict, type_: str, player: str, code: str, **fields):
    plain = rejecting(state)
    answer = act(plain, type_, player, **fields)
    assert not answer.valid and answer.refusal.code == code and answer.state == plain


HANDS = {"a": ["S3", "S4", "H9"], "b": ["C5", "C6", "CK"], "c": ["D7", "D8", "DQ"],
         "d": ["S9", "S10", "SJ"]}


def test_R_2_an_out_of_turn_play_is_taken_back_and_bars_the_player_for_the_round():
    st = referee_state(hands=HANDS, turn="a")
    out = act(st, "play", "c", cards=["D7"])
    assert out.valid and out.to_act == ["a"]
    m = mark(out)
    assert (m["code"], m["rule"], m["sanction"], m["sanction_rule"]) == \
        ("not_your_turn", "guandan P-2", "barred_for_round", "guandan R-2")
    assert "entry" not in m and out.state["referee_ledger"] == []
    assert out.state["hands"] == st["hands"] and out.state["barred"] == ["c"]
    assert_refused_in_reject_mode(st, "play", "c", "not_your_turn", cards=["D7"])
    # a leads, b passes: c may only pass; a play by c is itself sanctioned (R-5, a warning)
    st = act(out.state, "play", "a", cards=["S3"]).state
    st = act(st, "pass", "b").state
    assert adjudicate.legal_actions(st, "c") == [{"type": "pass", "player": "c"}]
    barred = act(st, "play", "c", cards=["D8"])
    assert mark(barred)["code"] == "barred_this_round" and barred.to_act == ["c"]
    assert mark(barred)["sanction_rule"] == "guandan R-5"
    assert barred.state["referee_ledger"][0]["kind"] == "warning"
    assert barred.events[1]["type"] == "warned"
    # c passes, d passes: a wins the trick and leads; the bar is lifted
    st = act(barred.state, "pass", "c").state
    won = act(st, "pass", "d")
    assert won.to_act == ["a"] and won.state["barred"] == []
    assert adjudicate.legal_actions(won.state, "c") == []  # not c's turn, nothing barred


def test_R_2_an_out_of_turn_pass_bars_the_player_and_the_partner():
    st = act(referee_state(hands=HANDS, turn="a"), "play", "a", cards=["S3"]).state
    out = act(st, "pass", "d")  # b is on turn
    assert out.valid and out.to_act == ["b"] and out.state["barred"] == ["d", "b"]
    assert adjudicate.legal_actions(out.state, "b") == [{"type": "pass", "player": "b"}]
    assert_refused_in_reject_mode(st, "pass", "d", "not_your_turn")


def test_R_2_the_player_who_leads_is_never_barred():
    st = referee_state(hands=HANDS, turn="a")
    out = act(st, "pass", "c")  # a leads; c passes out of turn: c and a lose the round ...
    assert out.state["barred"] == ["c", "a"]
    # ... but a must lead, and leads
    led = act(out.state, "play", "a", cards=["S3"])
    assert led.valid and not [e for e in led.events if e["type"] == "irregularity_sanctioned"]


def test_R_4_a_wrong_tribute_is_taken_back_and_the_payer_warned():
    st = deal({"d": ["H5", "S5", "S5", "SK"], "a": ["S3"]}, ["a", "b", "c", "d"], low=["d"],
              **REFEREE)
    assert st["phase"] == "tribute"
    for card, code in (("SK", "tribute_not_highest"), ("H5", "tribute_wild")):
        out = act(st, "tribute", "d", card=card)
        assert out.valid and mark(out)["code"] == code
        assert mark(out)["sanction_rule"] == "guandan R-4"
        assert out.state["tributes"] == st["tributes"] and out.to_act == ["d"]
        assert out.state["referee_ledger"][-1]["kind"] == "warning"
        assert_refused_in_reject_mode(st, "tribute", "d", code, card=card)
    assert act(st, "tribute", "d", card="RJ").refusal.code == "card_not_in_hand"  # entry error


def test_R_4_a_wrong_return_is_taken_back_and_the_receiver_warned():
    st = deal({"d": ["BJ"], "a": ["SA", "D5", "S3"]}, ["a", "b", "c", "d"], low=["d"],
              preset="official", **REFEREE)
    st = act(st, "tribute", "d", card="BJ").state
    out = act(st, "return", "a", card="SA")
    assert mark(out)["code"] == "return_above_cap" and out.state["phase"] == "return"
    assert out.state["hands"] == st["hands"] and out.state["referee_ledger"][0]["player"] == "a"
    assert_refused_in_reject_mode(st, "return", "a", "return_above_cap", card="SA")


def test_R_5_a_play_that_does_not_beat_is_taken_back_with_a_warning():
    st = act(referee_state(hands=HANDS, turn="a"), "play", "a", cards=["H9"]).state
    for cards, code in ((["C5"], "does_not_beat"), (["C5", "C6"], "not_a_combination")):
        out = act(st, "play", "b", cards=cards)
        assert mark(out)["code"] == code and mark(out)["sanction_rule"] == "guandan R-5"
        assert out.to_act == ["b"] and out.state["hands"] == st["hands"]
        assert out.state["trick"] == st["trick"]
        assert out.score_deltas == []  # a warning costs no level
        assert_refused_in_reject_mode(st, "play", "b", code, cards=cards)
    lead = referee_state(hands=HANDS, turn="a")
    assert mark(act(lead, "pass", "a"))["code"] == "lead_cannot_pass"


def test_R_1_reject_is_the_default_and_a_card_not_held_is_refused_in_either_mode():
    st = adjudicate.deal("guandan", PLAYERS, seed="r1")["state"]
    assert st["options"]["violations"] == "reject"
    st = referee_state(hands=HANDS, turn="a")
    assert act(st, "play", "a", cards=["RJ"]).refusal.code == "card_not_in_hand"
