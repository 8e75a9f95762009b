"""Scoring of a deal (A28, A10, A11, A18, M-d cap), the 30–30 carry (A29, M-j), booms (A31,
A33) and the match (A32, M-l), on finished states built from real deals."""
import random

import pytest

from engine import adjudicate as adj
from engine.cards import deck_32
from engine.games.manillen import GAME, scoring
from engine.state import encode_state, replace
from engine.values import DealSetup
from tests.manillen.helpers import PLAYERS, act, new_deal, play_out, refused, start

SPADES_HEARTS = [c for c in deck_32() if c[0] in "SH"]      # 30 card points
DIAMONDS_CLUBS = [c for c in deck_32() if c[0] in "DC"]     # 30 card points


def finished(n=4, won=None, trump="S", calls=0, options=None, match=None, blind=False,
             rest_to=1):
    """A finished deal whose captured cards are `won` (seat -> cards; the rest go to
    `rest_to`); `calls` doubling calls, alternately by p1 and p0."""
    opts = GAME.resolve_options(options)
    players = PLAYERS[n]
    named = None if (match or {}).get("dealer") else players[0]   # not the cut (A5)
    state = GAME.deal(DealSetup(tuple(players), opts, "x", dealer=named, match=match))
    won = dict(won or {})
    rest = [c for c in deck_32() if c not in {c for w in won.values() for c in w}
            and c not in state.leftover]
    won[rest_to] = won.get(rest_to, []) + rest
    return replace(state, phase="over", hands={p: () for p in players},
                   table=None if state.table is None else {p: ((),) * 4 for p in players},
                   trump=trump, blind=blind,
                   doubling=replace(state.doubling, calls=tuple(["p1", "p0"] * calls)[:calls]),
                   won={p: tuple(won.get(s, ())) for s, p in enumerate(players)})


def deal_result(state) -> dict:
    """The finished deal's result as JSON, with the next match and dealer (as stored)."""
    result, nxt = scoring.deal_result(state)
    return {**encode_state(result), "next_match": encode_state(nxt),
            "next_dealer": nxt.dealer}


def fifty():
    """Cards worth 50: spades and hearts (30), all diamonds (15) and the club 10 (5)."""
    return SPADES_HEARTS + [c for c in deck_32() if c[0] == "D"] + ["C10"]


def test_A28_fifty_card_points_score_twenty():
    cards = fifty()
    res = deal_result(finished(won={0: cards}))
    sides = {s["id"]: s for s in res["sides"]}
    assert sides["team_0_2"]["card_points"] == 50
    assert sides["team_0_2"]["score"] == 20
    assert sides["team_1_3"]["score"] == 0
    assert res["deltas"] == {"team_0_2": 20, "team_1_3": 0}
    assert res["next_match"]["carry"] == 1


def test_A10_A18_no_trump_double_redouble_is_times_eight():
    res = deal_result(finished(won={0: fifty()}, trump="no_trump", calls=2))
    assert res["multiplier"] == 8 and res["deltas"]["team_0_2"] == 160
    assert res["factors"] == {"no_trump": 2, "doubling": 4, "carry": 1}


def test_M_d_serious_cap_four():
    res = deal_result(finished(won={0: fifty()}, trump="no_trump", calls=2,
                               options={"preset": "serious"}))
    assert res["multiplier"] == 4 and res["capped"] and res["deltas"]["team_0_2"] == 80


def test_A11_blind_no_trump_times_four():
    res = deal_result(finished(won={0: fifty()}, trump="no_trump", blind=True,
                               options={"blind_no_trump": True}))
    assert res["multiplier"] == 4 and res["deltas"]["team_0_2"] == 80


def test_A29_tie_then_forty_scores_twenty():
    tie = deal_result(finished(won={0: SPADES_HEARTS}))
    assert tie["tie"] and tie["deltas"] == {"team_0_2": 0, "team_1_3": 0}
    assert tie["next_match"]["carry"] == 2
    forty = SPADES_HEARTS + ["D10", "DA", "CJ"]        # 30 + 5 + 4 + 1
    res = deal_result(finished(won={0: forty}, match=tie["next_match"]))
    assert res["multiplier"] == 2
    assert res["deltas"]["team_0_2"] == (40 - 30) * 2 == 20
    assert res["next_match"]["carry"] == 1


def test_M_j_ties_accumulate_or_not():
    tie1 = deal_result(finished(won={0: SPADES_HEARTS}))
    tie2 = deal_result(finished(won={0: SPADES_HEARTS}, match=tie1["next_match"]))
    assert tie2["next_match"]["carry"] == 4
    opts = {"tie_carry_cumulative": False}
    tie2 = deal_result(finished(won={0: SPADES_HEARTS}, match=tie1["next_match"], options=opts))
    assert tie2["next_match"]["carry"] == 2


def test_A31_boom_at_101_resets_scores_and_counts_the_boom():
    match = {"scores": {"team_0_2": 95, "team_1_3": 60}, "booms": {}, "dealer": "p0"}
    forty = SPADES_HEARTS + ["D10", "DA", "CJ"]
    res = deal_result(finished(won={0: forty}, match=match, options={"booms_to_win": 2}))
    assert res["scores"] == {"team_0_2": 105, "team_1_3": 60}
    assert res["boom"] == {"winner": "team_0_2", "scores": {"team_0_2": 105, "team_1_3": 60}}
    assert res["next_match"]["scores"] == {"team_0_2": 0, "team_1_3": 0}
    assert res["next_match"]["booms"] == {"team_0_2": 1, "team_1_3": 0}
    assert not res["match_over"]
    match = dict(res["next_match"], scores={"team_0_2": 95, "team_1_3": 0})
    res = deal_result(finished(won={0: forty}, match=match, options={"booms_to_win": 2}))
    assert res["match_over"] and res["match_winner"] == "team_0_2"


def test_A33_both_over_target_higher_total_wins_and_exact_tie_plays_on():
    # 3 players: the two defenders record the same score, so both can cross 101 at once.
    forty = SPADES_HEARTS + ["D10", "DA", "CJ"]
    match = {"scores": {"p0": 0, "p1": 95, "p2": 99}}
    state = finished(n=3, won={1: forty}, match=match, rest_to=0)
    res = deal_result(state)
    assert res["deltas"] == {"p0": 0, "p1": 10, "p2": 10}
    assert res["boom"]["winner"] == "p2"
    match = {"scores": {"p0": 0, "p1": 95, "p2": 95}}
    res = deal_result(finished(n=3, won={1: forty}, match=match, rest_to=0))
    assert res["boom"] is None and res["next_match"]["scores"]["p1"] == 105


def test_A34_three_player_leftover_counts_for_the_dealer():
    from engine.games.manillen.tricks import total_points
    leftover = finished(n=3).leftover
    state = finished(n=3, won={0: [c for c in SPADES_HEARTS if c not in leftover]})
    assert state.leftover == leftover
    res = deal_result(state)
    sides = {s["id"]: s for s in res["sides"]}
    mine = [c for c in SPADES_HEARTS if c not in leftover] + list(leftover)
    assert sides["dealer"]["card_points"] == total_points(mine)
    assert sides["dealer"]["card_points"] + sides["defenders"]["card_points"] == 60
    assert total_points(leftover) > 0, "seed x should leave points over (else pick another)"


def _worth(cards, target, size):
    """`size` of `cards` worth `target` card points (a small deterministic search)."""
    from engine.games.manillen.tricks import total_points
    rnd = random.Random(1)
    for _ in range(20000):
        pick = rnd.sample(list(cards), size)
        if total_points(pick) == target:
            return pick
    raise AssertionError("no such selection")


def test_A29_french_base_two_players_38_38_scores_nothing_and_doubles_the_next_deal():
    # 8 tricks each: 30 card points + 8 = 38 a side, half of 60 + 16.
    res = deal_result(finished(n=2, won={0: SPADES_HEARTS}, options={"preset": "french_base"}))
    assert [s["points"] for s in res["sides"]] == [38, 38]
    assert res["threshold"] == 38 and res["tie"]
    assert all(s["score"] == 0 for s in res["sides"]) and set(res["deltas"].values()) == {0}
    assert res["next_match"]["carry"] == 2
    # the next deal counts double: 39-37 then scores (39 - 38) x 2
    seven = [c for c in SPADES_HEARTS if c != "S7"] + ["DJ"]   # 31 card points, 8 tricks
    nxt = deal_result(finished(n=2, won={0: seven}, options={"preset": "french_base"},
                               match=res["next_match"]))
    sides = {s["id"]: s for s in nxt["sides"]}
    assert sides["p0"]["points"] == 39 and not nxt["tie"]
    assert sides["p0"]["score"] == (39 - 38) * 2 and nxt["next_match"]["carry"] == 1


def test_A29_french_base_three_players_35_35_scores_nothing_and_doubles_the_next_deal():
    from engine.games.manillen.tricks import total_points
    leftover = finished(n=3).leftover
    rest = [c for c in deck_32() if c not in leftover]
    # the dealer takes 5 tricks worth 30 with the left-over cards: 30 + 5 = 35, half of 70
    mine = _worth(rest, 30 - total_points(leftover), 15)
    res = deal_result(finished(n=3, won={0: mine}, options={"preset": "french_base"}))
    assert [s["points"] for s in res["sides"]] == [35, 35]
    assert res["threshold"] == 35 and res["tie"] and set(res["deltas"].values()) == {0}
    assert res["next_match"]["carry"] == 2


@pytest.mark.parametrize("n,belgian,french", [(2, 30, 38), (3, 30, 35), (4, 30, 34)])
def test_M_k_threshold_is_half_the_total_for_every_player_count(n, belgian, french):
    assert deal_result(finished(n=n))["threshold"] == belgian
    assert deal_result(finished(n=n, options={"preset": "french_base"}))["threshold"] == french
    # an explicit threshold still wins
    assert deal_result(finished(n=n, options={"score_threshold": 20}))["threshold"] == 20


def test_M_k_french_base():
    res = deal_result(finished(won={0: SPADES_HEARTS[:16]},
                               options={"preset": "french_base"}))
    # 16 cards = 4 tricks: 30 + 4 = 34, not over 34; the other side 30 + 4 = 34: a tie.
    assert res["tie"]


def test_match_passes_the_deal_left_and_replays_from_the_summary():
    rnd = random.Random(7)
    state = new_deal(seed="match", options={"preset": "tournament"})
    dealers = []
    seen_first_hands = set()
    while True:
        dealers.append(state["dealer"])
        seen_first_hands.add(tuple(state["hands"]["p0"]))
        dealer = state["dealer"]
        state = act(state, "choose_trump", dealer, trump=rnd.choice("SHDC")).state
        state, deltas, events = play_out(state, rnd)
        res = state["result"]
        assert sum(s["card_points"] for s in res["sides"]) == 60
        if res["match_over"]:
            break
        state = adj.deal("manillen", state["players"], options={"preset": "tournament"},
                         seed="match", match=state["next_match"])["state"]
    assert dealers[:5] == ["p0", "p1", "p2", "p3", "p0"][:len(dealers[:5])]
    assert len(seen_first_hands) == len(dealers)            # a fresh shuffle every deal
    assert max(state["next_match"]["booms"].values()) == 2
    with pytest.raises(Exception) as err:
        adj.deal("manillen", state["players"], options={"preset": "tournament"}, seed="m",
                 match=state["next_match"])
    assert getattr(err.value, "code", "") == "deal_invalid"


def test_deal_scored_event_and_score_delta_reason_end_to_end():
    rnd = random.Random(11)
    for _ in range(20):
        state = start({}, trump="no_trump")
        state, deltas, events = play_out(state, rnd)
        if deltas:
            break
    res = state["result"]
    assert [e["type"] for e in events].count("trick_won") == 8
    assert events[-1]["type"] == "deal_finished"
    (delta,) = deltas
    winner = max(res["sides"], key=lambda s: s["card_points"])
    assert delta["target"] == winner["id"] and delta["kind"] == "points"
    assert delta["delta"] == (winner["card_points"] - 30) * 2
    assert "no-trump 2" in delta["reason"] and delta["reason"].endswith(f"= {delta['delta']}")


def test_integers_stay_in_json_safe_range():
    """A multiplier, a score or a carry that would leave JSON's safe range is capped there
    (the cap shows in the result), so every state the engine writes decodes again."""
    from engine.state import MAX_SAFE_INT
    res = deal_result(finished(won={0: fifty()}, trump="no_trump", calls=3,
                               match={"carry": MAX_SAFE_INT // 4}))
    assert res["multiplier"] == MAX_SAFE_INT and res["capped"]
    assert res["factors"] == {"no_trump": 2, "doubling": 8, "carry": MAX_SAFE_INT // 4}
    assert res["deltas"]["team_0_2"] == res["scores"]["team_0_2"] == MAX_SAFE_INT
    tie = deal_result(finished(won={0: SPADES_HEARTS}, match={"carry": MAX_SAFE_INT - 1}))
    assert tie["tie"] and tie["next_match"]["carry"] == MAX_SAFE_INT
    # played for real: every state on the way decodes strictly (act checks each one)
    state = adj.deal("manillen", PLAYERS[4], seed="big", options={"trick_bonus_points": 2 ** 50},
                     match={"carry": MAX_SAFE_INT, "deal_number": MAX_SAFE_INT,
                            "scores": {"team_1_3": MAX_SAFE_INT - 1}})["state"]
    state = act(state, "choose_trump", "p0", trump="no_trump").state
    assert state["multiplier"] == MAX_SAFE_INT          # no-trump × the carry: capped
    # A18: a doubling call would take the multiplier further past the range: refused
    # (number_out_of_range), not listed
    assert refused(state, "double", "p1").code == "number_out_of_range"
    assert [a["type"] for a in adj.legal_actions(state, "p1")] == ["pass"]
    while state["phase"] == "doubling":
        state = act(state, "pass", state["doubling"]["turn"]).state
    final, deltas, _ = play_out(state, random.Random(3))
    assert GAME.encode(GAME.decode(final)) == final
    assert final["result"]["multiplier"] == MAX_SAFE_INT and final["result"]["capped"]
    assert final["next_match"]["deal_number"] == MAX_SAFE_INT
    assert all(d["delta"] == MAX_SAFE_INT for d in deltas) and deltas


def test_deal_refuses_integers_outside_json_safe_range():
    from engine.errors import InputError
    from engine.state import MAX_SAFE_INT
    too_big = MAX_SAFE_INT + 1
    for kw, code, path in (
            ({"match": {"scores": {"team_0_2": too_big}}}, "deal_invalid", "match.scores"),
            ({"match": {"booms": {"team_1_3": -1}}}, "deal_invalid", "match.booms.team_1_3"),
            ({"match": {"carry": too_big}}, "deal_invalid", "match.carry"),
            ({"match": {"deal_number": too_big}}, "deal_invalid", "match.deal_number"),
            ({"options": {"blind_no_trump_multiplier": too_big}}, "options_invalid",
             "options.blind_no_trump_multiplier"),
            ({"options": {"trick_bonus_points": too_big}}, "options_invalid",
             "options.trick_bonus_points")):
        with pytest.raises(InputError) as err:
            adj.deal("manillen", PLAYERS[4], seed="x", **kw)
        assert (err.value.code, err.value.path) == (code, path), kw
