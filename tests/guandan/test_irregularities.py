"""Irregularities in referee mode (§14, R-1 … R-5): each sanction triggered and recorded through
the engine; in reject mode (the default) the same act is refused, nothing changed."""
from __future__ import annotations

import copy
import json

from engine import adjudicate

from .helpers import PLAYERS, build, judged, options_of
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
    assert judged(adjudicate.legal_actions(st, "c")) == [{"type": "pass", "player": "c"}]
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
    assert judged(adjudicate.legal_actions(out.state, "b")) == [{"type": "pass", "player": "b"}]
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


# ------------------------------------------------------------------
# From "掼蛋比赛中的违规及处罚" (the competition rules as summarized): the partner of an
# out-of-turn player may not lead that play's type in the next round (越序出牌 (2)); a wrong
# tribute found after play began voids the payer's hand, ranked last (贡错牌 (2)); grave
# signalling loses the deal (明显传递信号 2).

def referee_listing(state: dict) -> list[dict]:
    return judged(adjudicate.legal_actions(state, "referee", referee_seen=True))


def test_R_3_the_partner_may_not_lead_the_out_of_turn_players_combination_type():
    hands = {"a": ["S3", "S4", "H9"], "b": ["C5", "C6", "CK"],
             "c": ["D7", "D7", "DQ", "D9"], "d": ["S9", "S10", "SJ"]}
    st = act(referee_state(hands=hands, turn="a"), "play", "a", cards=["S3"]).state
    out = act(st, "play", "a", cards=["S4"])  # b is on turn: a plays out of turn, a single
    assert mark(out)["code"] == "not_your_turn"
    (ban,) = [e for e in out.events if e["type"] == "lead_type_barred"]
    assert ban == {"type": "lead_type_barred", "game": "guandan", "player": "c",
                   "offender": "a", "types": ["single"],
                   "text": {"en": "c may not lead single next round (a played out of turn, R-3)",
                            "ja": "cは次のラウンドで1枚をリードできない(aの手番外のプレイ、R-3)"}}
    # b, c, d pass: a's S3 wins and a leads this next round: a is not barred from singles
    st = out.state
    for p in ("b", "c", "d"):
        st = act(st, "pass", p).state
    assert st["turn"] == "a" and st["lead_bans"]
    led = act(st, "play", "a", cards=["S4"])
    assert led.valid and led.state["lead_bans"] == []  # the ban was for this lead only
    # the same out-of-turn play, and now the partner c gains the next lead
    st = act(referee_state(hands=hands, turn="a"), "play", "a", cards=["S3"]).state
    st = act(st, "play", "a", cards=["S4"]).state
    st = act(st, "pass", "b").state
    st = act(st, "play", "c", cards=["DQ"]).state
    for p in ("d", "a", "b"):
        st = act(st, "pass", p).state
    assert st["turn"] == "c"
    listed = adjudicate.legal_actions(st, "c")
    assert listed and all(len(a["cards"]) == 2 for a in listed)  # the pair D7 D7 only
    barred = act(st, "play", "c", cards=["D9"])
    assert mark(barred)["code"] == "lead_type_barred"
    assert mark(barred)["sanction_rule"] == "guandan R-3"
    assert barred.to_act == ["c"] and barred.state["hands"] == st["hands"]
    assert "entry" not in mark(barred)  # the text: taken back, no warning
    assert_refused_in_reject_mode(st, "play", "c", "lead_type_barred", cards=["D9"])
    assert act(rejecting(st), "play", "c", cards=["D9"]).refusal.rule == "guandan R-3"
    assert act(st, "play", "c", cards=["D7", "D7"]).valid


def test_R_3_a_hand_with_no_other_type_leads_freely():
    hands = {"a": ["S3", "S4"], "b": ["C5", "C6", "CK"], "c": ["D8"], "d": ["S9", "S10"]}
    st = act(referee_state(hands=hands, turn="c"), "play", "c", cards=["D8"]).state
    # c is out; d on turn; b plays out of turn: d, b's partner, leads next only if ...
    out = act(st, "play", "b", cards=["CK"])
    (ban,) = out.state["lead_bans"]
    assert ban["player"] == "d" and ban["types"] == ["single"]
    st = out.state
    st = act(st, "play", "d", cards=["S9"]).state
    for p in ("a", "b"):
        st = act(st, "pass", p).state
    # d leads with only singles left: the ban cannot leave d without a lead
    assert st["turn"] == "d" and judged(adjudicate.legal_actions(st, "d")) == \
        [{"type": "play", "player": "d", "cards": ["S10"],
          "reading": {"type": "single", "rank": "10", "length": 1, "wilds": []}}]
    assert act(st, "play", "d", cards=["S10"]).valid


TRIBUTE = [{"payer": "d", "card": "RJ", "receiver": "a", "returned": "S2"}]


def test_R_6_a_wrong_tribute_found_after_play_began_voids_the_hand_and_ranks_it_last():
    hands = {"a": ["S3", "S4"], "b": ["C5"], "c": ["D7", "D8"], "d": ["S9", "S10", "SJ"]}
    st = referee_state(hands=hands, turn="a", tributes=TRIBUTE)
    assert {"type": "void_hand", "player": "d"} in referee_listing(st)
    assert not [a for a in referee_listing(st) if a["type"] == "void_hand" and a["player"] != "d"]
    out = act(st, "void_hand", "d", reason="paid the RJ keeping the other")
    assert out.valid and out.state["void"] == ["d"] and out.to_act == ["a"]
    assert out.events[0] == {"type": "hand_voided", "game": "guandan", "player": "d",
                             "reason": "paid the RJ keeping the other",
                             "text": {"en": "d's hand is void and ranks last (R-6): paid the "
                                            "RJ keeping the other",
                                      "ja": "dの手札は無効、最下位(R-6): paid the RJ keeping "
                                            "the other"}}
    assert out.state["hands"]["d"] == st["hands"]["d"]  # face down, still the same cards
    assert not [a for a in referee_listing(out.state) if a["type"] == "void_hand"]
    assert act(out.state, "void_hand", "d").refusal.code == "void_hand_not_allowed"
    assert act(st, "void_hand", "b").refusal.code == "void_hand_not_allowed"  # paid none
    # a leads, b goes out 1st; d is skipped; c wins and goes out 2nd; a is 3rd, d last
    st = act(out.state, "play", "a", cards=["S3"]).state
    st = act(st, "play", "b", cards=["C5"]).state
    assert st["turn"] == "c"
    st = act(st, "play", "c", cards=["D7"]).state
    assert st["turn"] == "a"  # d's turn is skipped
    st = act(st, "pass", "a").state
    assert st["turn"] == "c"
    done = act(st, "play", "c", cards=["D8"])
    assert done.status == "finished"
    assert done.state["result"]["order"] == ["b", "c", "a", "d"]
    assert done.state["result"]["finish"] == "1-4"  # b 1st, partner d last
    assert done.state["next_match"]["tribute_payers"] == ["d"]


def test_R_6_the_void_hands_turn_passes_on_and_a_finished_trick_is_won():
    hands = {"a": ["S3", "S4"], "b": ["C5", "C6"], "c": ["D7", "D8"], "d": ["S9", "S10"]}
    st = act(referee_state(hands=hands, turn="a", tributes=TRIBUTE), "play", "a",
             cards=["S3"]).state
    st = act(st, "pass", "b").state
    st = act(st, "pass", "c").state
    out = act(st, "void_hand", "d")  # d was on turn, and was the last to answer a's S3
    assert [e["type"] for e in out.events] == ["hand_voided", "trick_won"]
    assert out.to_act == ["a"] and out.state["trick"] is None


def test_R_6_and_R_7_need_referee_mode_and_play():
    hands = {"a": ["S3", "S4"], "b": ["C5", "C6"], "c": ["D7", "D8"], "d": ["S9", "S10"]}
    st = build(hands=hands, turn="a", tributes=TRIBUTE)
    for kind in ("void_hand", "forfeit"):
        refusal = act(st, kind, "d").refusal
        assert refusal.code == "referee_mode_required" and refusal.rule == "guandan R-1"
    assert not [a for a in adjudicate.legal_actions(st, "referee", referee_seen=True)
                if a["type"] in ("void_hand", "forfeit")]
    tribute = deal({"d": ["S5"]}, ["a", "b", "c", "d"], low=["d"], **REFEREE)
    assert tribute["phase"] == "tribute"
    assert act(tribute, "forfeit", "d").refusal.code == "forfeit_not_allowed"
    assert act(tribute, "void_hand", "d").refusal.code == "void_hand_not_allowed"
    # a seat's own listing never holds the referee's acts
    referee_mode = referee_state(hands=hands, turn="a", tributes=TRIBUTE)
    assert all(a["type"] in ("play", "pass") for a in adjudicate.legal_actions(referee_mode, "a"))


def test_R_7_signalling_forfeits_the_deal_scored_as_the_opponents_1_2_finish():
    hands = {"a": ["S3", "S4"], "b": ["C5", "C6"], "c": ["D7", "D8"], "d": ["S9", "S10"]}
    st = referee_state(hands=hands, turn="a")
    assert {"type": "forfeit", "player": "b"} in referee_listing(st)
    out = act(st, "forfeit", "b", reason="coughed at each lead")
    assert out.valid and out.status == "finished" and out.to_act == []
    assert out.events[0] == {"type": "deal_forfeited", "game": "guandan", "player": "b",
                             "team": "team2", "reason": "coughed at each lead",
                             "text": {"en": "b signalled: b & d forfeit the deal (R-7): "
                                            "coughed at each lead",
                                      "ja": "bの合図: b & dはこの一局を負け(R-7): coughed at "
                                            "each lead"}}
    result = out.state["result"]
    assert result["winner"] == "team1" and result["finish"] == "1-2"
    assert result["order"] == ["c", "a"]  # in turn from the offender's right
    (delta,) = out.score_deltas
    assert (delta["target"], delta["delta"]) == ("team1", 3)  # D1: 3 levels for a 1-2 finish
    assert "R-7" in delta["reason"] and "R-7" in delta["text"]["en"] and "R-7" in delta["text"]["ja"]
    assert out.state["next_match"]["tribute_payers"] == ["b", "d"]  # the double tribute


def test_R_6_and_R_7_on_the_score_sheet():
    from engine.games.guandan import sheet
    from engine.sheets import CheckedDeal
    hands = {"a": ["S3", "S4"], "b": ["C5", "C6"], "c": ["D7", "D8"], "d": ["S9", "S10"]}
    st = referee_state(hands=hands, turn="a", tributes=TRIBUTE)
    steps = []
    for i, (kind, player) in enumerate((("void_hand", "d"), ("forfeit", "b"))):
        out = act(st, kind, player)
        steps.append({"index": i, "action": {"type": kind, "player": player},
                      "events": out.events, "score_deltas": out.score_deltas})
        st = out.state
    deal_ = CheckedDeal(0, tuple(PLAYERS), {"b": "Bo"}, steps, st["match"],
                        out.next_match, "finished")
    (line,) = sheet.lines(deal_)
    assert "d's hand void, ranked last (R-6" in line.note["en"]
    assert "team2 forfeited the deal (R-7: signalling by Bo)" in line.note["en"]
    assert "R-6" in line.note["ja"] and "R-7" in line.note["ja"]
    assert line.cells["team1"]["en"] == "2→5"


def test_random_matches_with_random_sanctions_end_with_every_invariant_holding():
    """Random referee-mode matches: legal play mixed with out-of-turn plays (R-2, R-3), void
    hands (R-6) and forfeits (R-7) the referee's listing offers. Every answer is a valid state
    (a full decode: all 108 cards, the void hands, the bans), the seat on turn always has a
    listed act, listed acts are accepted without a sanction, and every deal and the match end."""
    import random

    from tests.sizing import examples
    seen: set[str] = set()
    # never fewer than six matches, even in make test-fast: the last line checks that every
    # sanction was met, which one match is too short to promise
    for seed in range(max(6, examples(6))):
        rnd = random.Random(f"guandan-sanctions-{seed}")
        match = None
        for deal_number in range(6):
            dealt = adjudicate.deal("guandan", PLAYERS, {"violations": "referee",
                                    "preset": rnd.choice(["seed", "official", "pagat"])},
                                    f"sanctions-{seed}-{deal_number}", match=match)
            st, to_act = dealt["state"], dealt["to_act"]
            for _ in range(3000):
                if st["status"] == "finished":
                    break
                assert to_act, "nobody on turn in an unfinished deal"
                legal = [a for p in to_act for a in adjudicate.legal_actions(st, p)]
                assert legal, f"{to_act} have no listed act"
                roll = rnd.random()
                voids = [a for a in referee_listing(st) if a["type"] == "void_hand"]
                forfeits = [a for a in referee_listing(st) if a["type"] == "forfeit"]
                if voids and roll < 0.04:
                    action = rnd.choice(voids)
                elif forfeits and rnd.random() < 0.003:
                    action = rnd.choice(forfeits)
                elif st["phase"] == "play" and roll < 0.15:
                    others = [p for p in PLAYERS if p not in to_act]
                    action = {**rnd.choice(legal), "player": rnd.choice(others)}
                else:
                    moving = [a for a in legal if a["type"] != "pass"]
                    action = rnd.choice(moving if moving and rnd.random() < 0.8 else legal)
                out = act(st, action["type"], action["player"],
                          **{k: v for k, v in action.items() if k not in ("type", "player")})
                if not out.valid:
                    assert out.state == st  # e.g. cards the out-of-turn seat does not hold
                    continue
                marks = [e for e in out.events if e["type"] == "irregularity_sanctioned"]
                if action in legal:
                    assert not marks, (action, marks)
                seen |= {e["type"] for e in out.events} | {m["code"] for m in marks}
                adjudicate.load_state(out.state)  # every invariant
                for ban in out.state.get("lead_bans", []):
                    assert ban["player"] not in out.state["void"]
                st, to_act = out.state, out.to_act
            assert st["status"] == "finished", "the deal did not end"
            order = st["result"]["order"]
            assert all(p in order[-len(st["void"]):] for p in st["void"]) or \
                st["result"]["finish"] == "1-2"  # a void hand ranks last
            if st["next_match"] is None:
                break  # the match is won
            match = json.loads(json.dumps(out.next_match))  # as a client sends it back
    assert {"hand_voided", "deal_forfeited", "lead_type_barred", "not_your_turn"} <= seen, seen
