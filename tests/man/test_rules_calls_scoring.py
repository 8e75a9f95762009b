"""Rules 6-8: end-of-turn calls, the next game, violations (chombo); the state codec; views."""
from __future__ import annotations

import copy
import json

import pytest

from engine import adjudicate
from engine.errors import InvalidState
from engine.games.man import GAME
from engine.games.man.summary import hand_order

from .helpers import build, ok, refused

OTHERS = {"B": ["D9", "H9"], "C": ["C9", "HQ"], "D": ["C10", "DK"]}


def call_of(res):
    calls = [e for e in res.events if e["type"] == "called"]
    assert len(calls) == 1
    return calls[0]["code"], calls[0]["text"]["ja"]


@pytest.mark.parametrize("hand,action,fields,code,words", [
    (["HK", "S5", "D7"], "play", {"cards": ["S5"]}, "hai", "はい"),
    (["S5", "H6", "D4"], "play", {"cards": ["S5"]}, "reach", "リーチ"),
    (["S5", "H2", "D4"], "play", {"cards": ["S5"]}, "reach_continue", "リーチ続行"),
    (["S5", "HK"], "play", {"cards": ["S5"]}, "tanki_reach", "単騎リーチ"),
    (["S5", "H3"], "play", {"cards": ["S5"]}, "tanki_reach_continue", "単騎リーチ続行"),
    (["S8", "H3"], "play", {"cards": ["S8"], "suit": "H"}, "tanki_reach_continue",
     "ハート、単騎リーチ続行"),
])
def test_rule_6_1_end_of_turn_calls(hand, action, fields, code, words):
    s = build({"A": hand, **OTHERS}, ["S9"], top_by="D")
    assert call_of(ok(s, action, "A", **fields)) == (code, words)


def test_rule_6_1_reach_cancel_after_a_draw():
    s = build({"A": ["C2", "H3"], **OTHERS}, ["S9"], top_by="D", stock=["HK"])
    res = ok(ok(s, "draw", "A").state, "end_turn", "A")
    assert call_of(res) == ("reach_cancel", "リーチ解除")
    assert res.state["reach"]["A"] is False and res.state["last_call"]["A"] == "reach_cancel"


def test_rule_6_1_first_round_pass_calls():
    s = build({"A": ["HK", "DQ", "CJ"], **OTHERS}, ["S9"], top_by="D", first_turn=True)
    assert call_of(ok(s, "pass", "A")) == ("pass", "パス")
    s = build({"A": ["H2", "D3", "C4"], **OTHERS}, ["S9"], top_by="D", first_turn=True)
    assert call_of(ok(s, "pass", "A")) == ("pass_continue", "パス続行")


def test_rule_6_2_declared_calls_are_checked():
    opts = {"calls": "declared"}
    s = build({"A": ["S5", "H6", "D4"], **OTHERS}, ["S9"], top_by="D", options=opts)
    assert refused(s, "play", "A", cards=["S5"]).code == "call_missing"
    r = refused(s, "play", "A", cards=["S5"], call="hai")
    assert r.code == "call_wrong" and "リーチ" in r.ja and r.rule == "man 6.2"
    ok(s, "play", "A", cards=["S5"], call="reach")
    assert all(a.get("call") == "reach" for a in adjudicate.legal_actions(s, "A")
               if a["type"] == "play")
    # a draw that does not end the turn carries no call
    assert refused(s, "draw", "A", call="reach").code == "call_wrong"


def test_rule_6_2_automatic_calls_checked_when_given():
    s = build({"A": ["S5", "H6", "D4"], **OTHERS}, ["S9"], top_by="D")
    assert refused(s, "play", "A", cards=["S5"], call="hai").code == "call_wrong"
    ok(s, "play", "A", cards=["S5"], call="reach")


def test_rule_6_2_wrong_call_is_chombo_in_referee_mode():
    s = build({"A": ["S5", "H6", "D4"], **OTHERS}, ["S9"], top_by="D",
              options={"calls": "declared", "violations": "chombo"})
    res = ok(s, "play", "A", cards=["S5"], call="reach_continue")
    assert res.state["result"]["kind"] == "chombo" and res.state["result"]["rule"] == "man 6.2"


def _won_game():
    s = build({"A": ["S3", "S4"], "B": ["HK", "HQ"]}, ["H7"], top_by="B", turn="A",
              dealer="B", match={"totals": {"A": 5, "B": -5}, "games_played": 3,
                                 "over": False, "winner": None})
    # 5.4: B, whose card it is, may still counter-man A's man; B declines and the chain ends
    return ok(ok(s, "man", "A").state, "decline", "B").state


def test_rule_7_1_winner_deals_next_and_totals_carry_over():
    done = _won_game()
    assert done["next_dealer"] == "A" and done["match"] == {
        "totals": {"A": 6, "B": -6}, "games_played": 4, "over": False, "winner": None}
    nxt = adjudicate.deal("man", ["A", "B"], seed="next", dealer=done["next_dealer"],
                          match=done["match"])["state"]
    assert nxt["dealer"] == "A" and nxt["match"] == done["match"]
    assert nxt["status"] == "in_progress" and nxt["result"] is None


def test_rule_7_1_same_dealer_after_chombo():
    s = build({"A": ["S3", "S4"], "B": ["HK", "HQ"]}, ["H7"], top_by="B", turn="A",
              dealer="B", options={"violations": "chombo"})
    res = ok(s, "chombo", "A", offender="A", reason="peeked")
    assert res.state["next_dealer"] == "B"


def test_rule_7_1_match_totals_must_name_seated_players():
    from engine.errors import InvalidDeal
    with pytest.raises(InvalidDeal):
        adjudicate.deal("man", ["A", "B"], seed="x", match={"totals": {"Z": 1}})


def test_rule_8_1_chombo_every_other_player_plus_one():
    s = build({"A": ["S3", "S4"], **OTHERS}, ["H7"], top_by="B", options={"violations":
                                                                           "chombo"})
    res = ok(s, "chombo", "D", offender="C", reason="showed a card")
    assert {d["target"]: d["delta"] for d in res.score_deltas} == {"A": 1, "B": 1, "C": -3,
                                                                   "D": 1}
    assert res.events[0] == {"type": "penalized", "game": "man", "player": "C", "rule": "man 8.1",
                             "code": "chombo_recorded",
                             "text": {"en": "Chombo reported: showed a card",
                                      "ja": "チョンボの報告:showed a card"},
                             "reported_by": "D"}
    assert refused(s, "chombo", "D", offender="Z", reason="x").code == "chombo_offender_unknown"


def test_rule_8_2_nothing_is_taken_after_the_game_ends():
    done = _won_game()
    res = adjudicate.validate(done, {"type": "chombo", "player": "B", "offender": "A",
                                     "reason": "late"})
    assert not res.valid and res.refusal.code == "game_finished"


@pytest.mark.parametrize("state_kw,action,fields,code", [
    ({}, "play", {"cards": ["S5"]}, "card_does_not_match"),
    ({}, "man", {}, "man_number_not_made"),
    ({}, "pass", {}, "pass_after_first_turn"),
    ({"hand": ["H5", "C2", "C3", "C4", "C5", "C6", "C7", "CK"]}, "draw", {},
     "must_play_big_hand"),
    ({}, "play", {"cards": ["HA"], "call": "hai"}, "call_wrong"),
])
def test_rule_8_3_common_violations_are_chombo(state_kw, action, fields, code):
    hand = state_kw.get("hand", ["S5", "HA", "D4"])
    s = build({"A": hand, "B": ["D9", "S9"], "C": ["C9", "HQ"]}, ["H7"], top_by="B",
              options={"violations": "chombo"})
    res = ok(s, action, "A", **fields)
    assert res.state["result"]["code"] == code
    assert {d["target"]: d["delta"] for d in res.score_deltas} == {"A": -2, "B": 1, "C": 1}


def test_rule_8_3_input_mistakes_are_refused_even_in_referee_mode():
    s = build({"A": ["S5", "HA"], "B": ["D9"]}, ["H7"], top_by="B",
              options={"violations": "chombo"})
    assert refused(s, "play", "A", cards=["C5"]).code == "card_not_in_hand"


def test_rule_8_4_reject_mode_keeps_the_state():
    s = build({"A": ["S5", "HA"], "B": ["D9"]}, ["H7"], top_by="B")
    r = refused(s, "play", "A", cards=["S5"])
    assert r.code == "card_does_not_match"
    assert refused(s, "chombo", "B", offender="A", reason="x").code == "chombo_not_enabled"


# ------------------------------------------------------------------------- codec and views

def test_state_round_trips_through_json():
    s = adjudicate.deal("man", ["A", "B", "C"], seed="rt")["state"]
    assert json.loads(json.dumps(s)) == s
    assert GAME.encode(GAME.decode(s)) == s


@pytest.mark.parametrize("mutate,path", [
    (lambda s: s.pop("stock"), "state.stock"),
    (lambda s: s["hands"]["A"].append(s["stock"][0]), "state.hands"),
    (lambda s: s["stock"].pop(), "state.hands"),
    (lambda s: s.update(turn="Z"), "state.turn"),
    (lambda s: s.update(dealer=3), "state.dealer"),
    (lambda s: s.update(extra=1), "state.extra"),
    (lambda s: s["options"].update(calls="shouted"), "state.options.calls"),
    (lambda s: s.update(direction=2), "state.direction"),
    (lambda s: s.update(pending_draw=-1), "state.pending_draw"),
    (lambda s: s.update(status="finished"), "state.status"),
    (lambda s: s["reach"].pop("B"), "state.reach"),
    (lambda s: s.update(window=["A", "A"]), "state.window"),
    (lambda s: s["hands"].update(A=["SA", "XX"]), "state.hands.A[1]"),
])
def test_decode_rejects_inconsistent_states(mutate, path):
    s = build({"A": ["S5", "HA"], "B": ["D9"]}, ["H7"], top_by="B")
    bad = copy.deepcopy(s)
    mutate(bad)
    with pytest.raises(InvalidState) as err:
        GAME.decode(bad)
    assert err.value.path == path


def test_decode_tolerates_the_service_signature():
    s = build({"A": ["S5", "HA"], "B": ["D9"]}, ["H7"], top_by="B")
    assert GAME.decode({**s, "signature": "abc"}) == GAME.decode(s)


def test_view_hides_other_hands_the_stock_and_the_seed():
    s = adjudicate.deal("man", ["A", "B", "C"], seed="secret")["state"]
    v = adjudicate.view(s, "A")
    assert v["hands"]["A"] == hand_order(s["hands"]["A"]) and v["hands"]["B"] is None
    assert v["hand_counts"] == {"A": 3, "B": 3, "C": 3}
    assert v["stock"] is None and v["stock_count"] == len(s["stock"]) and "seed" not in v
    for who in (None, "A"):
        text = json.dumps(adjudicate.view(s, who))
        assert not any(f'"{c}"' in text for c in s["stock"])  # no stock card anywhere
        assert "secret" not in text
    spectator = adjudicate.view(s, None)
    assert all(h is None for h in spectator["hands"].values())


def test_decode_refuses_wrong_types_in_per_player_maps():
    """The state's per-player maps hold exactly their type: true is not a total, 1 not a flag."""
    import copy

    import pytest

    from engine import adjudicate
    from engine.errors import InvalidState
    from engine.games.man import GAME

    state = adjudicate.deal("man", ["a", "b", "c"], seed="types")["state"]
    for path, value in ((("match", "totals", "a"), True), (("reach", "b"), 1),
                        (("last_call", "c"), 7), (("first_turn", "a"), None)):
        bad = copy.deepcopy(state)
        target = bad
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        with pytest.raises(InvalidState) as err:
            GAME.decode(bad)
        assert err.value.path == "state." + ".".join(path)
    missing = copy.deepcopy(state)
    del missing["reach"]["a"]
    with pytest.raises(InvalidState):
        GAME.decode(missing)
