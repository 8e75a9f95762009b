"""Irregularities in referee mode (A38–A40): a revoke loses the deal for the offending side,
scored as the rules say; an act out of turn is taken back with a warning. In reject mode (the
default) the same acts are refused, nothing changed."""
from __future__ import annotations

import copy
import random

from engine import adjudicate as adj
from tests.manillen.helpers import PLAYERS, play, play_out, start
from tests.manillen.test_obligations import BASE
from tests.manillen.test_properties import cards_in

REFEREE = {"violations": "referee"}


def post(state: dict, kind: str, player: str, **fields):
    return adj.validate(state, {"type": kind, "player": player, **fields})


def rejecting(state: dict) -> dict:
    out = copy.deepcopy(state)
    out["options"]["violations"] = "reject"
    return out


def revoke_in_first_trick() -> tuple[dict, object]:
    state = play(start(BASE, options=REFEREE), "H7", "S10", "D7")
    return state, post(state, "play", "p0", card="DA")  # p0 holds H10: a revoke (A21)


def test_A39_a_revoke_loses_the_deal_the_opponents_take_every_card_left():
    state, out = revoke_in_first_trick()
    assert out.valid and out.status == "finished"
    mark = out.events[0]
    assert (mark["type"], mark["player"], mark["code"], mark["rule"], mark["sanction"],
            mark["sanction_rule"]) == ("irregularity_sanctioned", "p0", "must_follow_suit",
                                       "manillen A21", "deal_lost", "manillen A39")
    assert "entry" not in mark and out.state["referee_ledger"] == []
    final = out.state
    assert final["revoked_by"] == "p0" and final["phase"] == "over"
    assert all(h == [] for h in final["hands"].values())
    # every card of the deal went to the other side (p1, p3): all 60 card points, 30 over the
    # threshold, × 1 (trumps, no doubling)
    assert sorted(final["won"]["p1"] + final["won"]["p3"]) == sorted(cards_in(state).elements())
    assert final["won"]["p0"] == final["won"]["p2"] == []
    assert [(d["target"], d["delta"]) for d in out.score_deltas] == [("team_1_3", 30)]
    sides = {s["id"]: s for s in final["result"]["sides"]}
    assert sides["team_1_3"]["card_points"] == 60 and sides["team_0_2"]["score"] == 0
    assert [e["type"] for e in out.events][1:] == ["deal_finished"]
    adj.load_state(final)  # a consistent state: every card once, the result recomputed
    plain = rejecting(state)
    refused = post(plain, "play", "p0", card="DA")
    assert not refused.valid and refused.refusal.code == "must_follow_suit"
    assert refused.state == plain


def test_A39_tricks_won_before_the_revoke_stay_with_their_winners():
    state = play(start(BASE, options=REFEREE), "D10", "D9", "D7", "D8")  # p1 wins the first
    won_before = copy.deepcopy(state["won"])
    state = play(state, "H7", "S10", "SA")  # p2, then p3 (no hearts) trump
    out = post(state, "play", "p0", card="DA")  # p0 holds H10: a revoke
    assert out.events[0]["sanction"] == "deal_lost"
    final = out.state
    assert set(won_before["p1"]) <= set(final["won"]["p1"])
    assert final["last_trick"] == state["last_trick"]
    assert [(d["target"], d["delta"]) for d in out.score_deltas] == [("team_1_3", 30)]
    adj.load_state(final)


def test_A39_a_revoke_in_every_form_ends_the_deal_with_every_card_once():
    for n in (2, 3, 6):
        for seed in range(20):
            rnd = random.Random(f"revoke-{n}-{seed}")
            state = adj.deal("manillen", PLAYERS[n], REFEREE, f"revoke-{n}-{seed}")["state"]
            while state["phase"] != "play":
                who = adj.game_by_id("manillen").to_act(adj.load_state(state)[1])[0]
                actions = [a for a in adj.legal_actions(state, who) if a["type"] != "double"]
                state = adj.validate(state, rnd.choice(actions)).state
            leader = adj.game_by_id("manillen").to_act(adj.load_state(state)[1])[0]
            state = adj.validate(state, rnd.choice(adj.legal_actions(state, leader))).state
            who = adj.game_by_id("manillen").to_act(adj.load_state(state)[1])[0]
            legal = {a.get("card") for a in adj.legal_actions(state, who)}
            playable = state["hands"][who] + [p[0] for p in (state["table"] or {}).get(who, ())
                                              if p]
            wrong = [c for c in playable if c not in legal]
            if not wrong:
                continue
            out = post(state, "play", who, card=wrong[0])
            assert out.valid and out.events[0]["sanction"] == "deal_lost", out.events
            assert out.state["revoked_by"] == who and out.status == "finished"
            assert cards_in(out.state) == cards_in(state)
            adj.load_state(out.state)
            break
        else:
            raise AssertionError(f"no revoke possible in 20 deals of {n}")


def test_A40_a_card_played_out_of_turn_is_taken_back_with_a_warning():
    state = start(BASE, options=REFEREE)  # p1 leads
    out = post(state, "play", "p2", card="D9")
    assert out.valid and out.events[0]["code"] == "not_your_turn"
    assert out.events[0]["sanction_rule"] == "manillen A40"
    assert out.state["hands"] == state["hands"] and out.state["trick"] == state["trick"]
    assert out.state["referee_ledger"][0]["kind"] == "warning"
    assert out.to_act == ["p1"] and out.score_deltas == []
    plain = rejecting(state)
    refused = post(plain, "play", "p2", card="D9")
    assert not refused.valid and refused.refusal.code == "not_your_turn"


def test_A38_reject_is_the_default_and_a_card_not_held_stays_refused():
    state = start(BASE)
    assert state["options"]["violations"] == "reject"
    out = post(start(BASE, options=REFEREE), "play", "p1", card="SA")
    assert not out.valid and out.refusal.code == "card_not_playable"


def test_A39_a_match_goes_on_after_a_lost_deal():
    _state, out = revoke_in_first_trick()
    second = adj.deal("manillen", PLAYERS[4], REFEREE, "after-revoke", match=out.next_match)
    final, deltas, _events = play_out(second["state"], random.Random("after-revoke"))
    assert final["status"] == "finished"
