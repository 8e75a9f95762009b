"""Trump choice, blind no-trump, 'en face', doubling, the peek report and the views."""
import json
import random

from engine import adjudicate as adj
from engine.games.manillen.tricks import sort_key
from tests.adjudication import judged
from tests.manillen.helpers import act, new_deal, play_out, refused, start, to_act


def shown(hand: list) -> list:
    """A hand as a view shows it: by suit, strongest first."""
    return sorted(hand, key=sort_key)


def test_A9_dealer_names_trumps_and_others_may_not():
    state = new_deal(seed="s")
    assert to_act(state) == ["p0"]
    assert refused(state, "choose_trump", "p1", trump="H").code == "not_your_turn"
    kinds = [a["trump"] for a in adj.legal_actions(state, "p0")]
    assert kinds == ["S", "H", "D", "C", "no_trump"]
    assert adj.legal_actions(state, "p1") == []
    out = act(state, "choose_trump", "p0", trump="no_trump")
    assert out.state["trump"] == "no_trump" and out.state["multiplier"] == 2   # A10
    assert [e["type"] for e in out.events] == ["trump_named"]
    assert out.to_act == ["p1"]                 # M-e: the eldest hand is asked first


def test_A8_dealer_partner_sees_no_hand_until_trumps():
    state = new_deal(seed="s")
    assert adj.view(state, "p2")["hand"] is None
    assert adj.view(state, "p2")["hand_hidden"] is True
    assert adj.view(state, "p0")["hand"] == shown(state["hands"]["p0"])
    assert adj.view(state, "p1")["hand"] == shown(state["hands"]["p1"])
    after = act(state, "choose_trump", "p0", trump="H").state
    assert adj.view(after, "p2")["hand"] == shown(state["hands"]["p2"])
    spectator = adj.view(after, None)
    assert spectator["hand"] is None
    text = json.dumps(spectator)
    assert not any(f'"{c}"' in text for h in after["hands"].values() for c in h)


def test_A8_M_m_peek_report_throws_the_hand_in():
    state = new_deal(seed="s", match={"scores": {"team_0_2": 40}, "carry": 2})
    assert refused(state, "report_peek", "p1").code == "peek_report_not_allowed"
    out = act(state, "report_peek", "p2")
    assert out.status == "finished" and out.score_deltas == []
    assert out.state["thrown_in"] is True
    nxt = out.state["next_match"]
    assert nxt == {"scores": {"team_0_2": 40, "team_1_3": 0},
                   "booms": {"team_0_2": 0, "team_1_3": 0},
                   "carry": 2, "deal_number": 1, "dealer": "p1"}
    same = act(new_deal(seed="s", options={"partner_peek_penalty": "redeal_same_dealer"}),
               "report_peek", "p2").state
    assert same["next_dealer"] == "p0"
    named = act(state, "choose_trump", "p0", trump="H").state
    assert refused(named, "report_peek", "p2").code == "peek_report_not_allowed"


def test_A11_blind_no_trump():
    opts = {"blind_no_trump": True}
    state = new_deal(seed="s", options=opts)
    assert state["phase"] == "blind"
    assert adj.view(state, "p0")["hand"] is None          # the dealer has not looked
    assert {a["type"] for a in adj.legal_actions(state, "p0")} == {"blind_no_trump",
                                                                  "look_at_hand"}
    assert refused(state, "choose_trump", "p0", trump="S").code == "wrong_phase"
    out = act(state, "blind_no_trump", "p0")
    assert out.state["trump"] == "no_trump" and out.state["blind"] is True
    assert out.state["multiplier"] == 4
    looked = act(state, "look_at_hand", "p0").state
    assert looked["phase"] == "trump"
    assert refused(looked, "blind_no_trump", "p0").code == "blind_no_trump_too_late"
    assert refused(new_deal(seed="s"), "blind_no_trump", "p0").code == "blind_no_trump_disabled"


def test_A12_M_b_en_face():
    state = new_deal(seed="s")
    assert refused(state, "pass_trump_choice", "p0").code == "trump_pass_disabled"
    state = new_deal(seed="s", options={"allow_pass_trump_to_partner": True})
    assert {"type": "pass_trump_choice", "player": "p0"} in judged(adj.legal_actions(state, "p0"))
    passed = act(state, "pass_trump_choice", "p0").state
    assert to_act(passed) == ["p2"]
    assert adj.view(passed, "p2")["hand"] == shown(passed["hands"]["p2"])   # the partner must look now
    assert refused(passed, "choose_trump", "p0", trump="S").code == "not_your_turn"
    assert refused(passed, "pass_trump_choice", "p0").code == "trump_already_passed"
    out = act(passed, "choose_trump", "p2", trump="C")
    assert out.state["trump"] == "C"


def _named(options=None, n=4):
    state = new_deal(n, options=options, seed="d")
    return act(state, "choose_trump", state["dealer"], trump="no_trump").state


def test_A14_A15_doubling_back_and_forth_without_limit():
    state = _named()
    assert to_act(state) == ["p1"]
    assert refused(state, "redouble", "p1").code == "wrong_doubling_call"
    assert refused(state, "double", "p3").code == "not_your_turn"
    state = act(state, "pass", "p1").state
    assert to_act(state) == ["p3"]                      # the other opponent may still double
    out = act(state, "double", "p3")
    assert out.events[0]["type"] == "doubled" and out.state["multiplier"] == 4
    state = out.state
    assert to_act(state) == ["p0"]                      # dealer's side, clockwise from p3
    state = act(state, "pass", "p0").state
    assert to_act(state) == ["p2"]
    state = act(state, "redouble", "p2").state          # ×8 with the no-trump
    assert state["multiplier"] == 8
    assert to_act(state) == ["p3"]                      # the seed: back to the opponents …
    for _ in range(3):
        player = to_act(state)[0]
        kind = adj.legal_actions(state, player)[0]["type"]
        state = act(state, kind, player).state
    assert state["multiplier"] == 2 * 2 ** 5
    while state["phase"] == "doubling":
        state = act(state, "pass", to_act(state)[0]).state
    assert state["phase"] == "play" and to_act(state) == ["p1"]   # A19


def test_M_d_max_doublings_and_redouble_by_partner():
    state = _named({"max_doublings": 2, "redouble_by": "dealer_partner"})
    state = act(state, "double", "p1").state
    assert to_act(state) == ["p2"]                      # only the dealer's partner redoubles
    out = act(state, "redouble", "p2")
    assert out.state["phase"] == "play"
    assert [e["type"] for e in out.events] == ["doubled", "doubling_ended"]
    assert out.state["multiplier"] == 8


def test_M_d_multiplier_cap_bounds_the_score_not_the_calls():
    state = _named({"multiplier_cap": 4})
    state = act(state, "double", "p1").state
    assert to_act(state) == ["p2"]                      # clockwise from the doubler
    state = act(state, "redouble", "p2").state
    assert state["multiplier"] == 4
    assert to_act(state) == ["p3"]


def _double_to_the_bound(state):
    """Every call the engine lists, taken in turn (checking that each listed action is
    accepted) until it lists none: (the state, the number of calls made)."""
    calls = 0
    while calls <= 64:                  # 2^64 is far past the range: the calls must stop first
        player = to_act(state)[0]
        listed = adj.legal_actions(state, player)
        for action in listed:                               # every listed action is accepted
            assert adj.validate(state, action).valid, action
        kinds = [a["type"] for a in listed]
        if kinds == ["pass"]:
            return state, calls
        assert kinds == [("double", "redouble")[calls % 2], "pass"], kinds
        state = act(state, kinds[0], player).state
        calls += 1
    raise AssertionError(f"{calls} doubling calls still listed and accepted")


def test_A14_A18_doubling_past_the_safe_integer_range_is_refused_and_not_listed():
    # The seed: doubling goes on 「どちらかがやめるまで、いつまでも繰り返すことができます」 (until
    # one side stops), and every factor multiplies (A18). README: an action that would take a
    # number past ±(2^53 − 1) is refused `number_out_of_range`. No-trump ×2 × 2^51 calls is
    # 2^52, the last multiplier in range: the 52nd call is refused and no longer listed, and
    # the side asked may pass.
    from engine.state import MAX_SAFE_INT
    for options in ({}, {"multiplier_cap": 4}):        # the cap bounds the score, not the calls
        state, calls = _double_to_the_bound(_named(options))
        assert calls == 51 and state["phase"] == "doubling"
        assert state["multiplier"] == (2 ** 52 if not options else 4)
        player, due = to_act(state)[0], ("double", "redouble")[calls % 2]
        refusal = refused(state, due, player)
        assert refusal.code == "number_out_of_range" and refusal.rule == ""
        assert refusal.message("ja").startswith("この操作")
        while state["phase"] == "doubling":
            state = act(state, "pass", to_act(state)[0]).state
        assert state["phase"] == "play" and state["multiplier"] <= MAX_SAFE_INT
    # a tie carry already large leaves room for fewer calls (the carry × 2^calls bound)
    carried = new_deal(seed="d", dealer="p0", match={"carry": 2 ** 50})
    carried = act(carried, "choose_trump", "p0", trump="S").state
    state, calls = _double_to_the_bound(carried)
    assert calls == 2 and state["multiplier"] == 2 ** 52


def test_M_e_eldest_only():
    state = _named({"double_by": "eldest_only"})
    out = act(state, "pass", "p1")
    assert out.state["phase"] == "play"


def test_doubling_in_3_and_2_player_forms():
    state = _named(n=3)
    assert to_act(state) == ["p1"]
    state = act(state, "pass", "p1").state
    state = act(state, "double", "p2").state
    assert to_act(state) == ["p0"]                      # the dealer is the whole side
    state = act(state, "redouble", "p0").state
    assert to_act(state) == ["p1"]
    state = _named(n=2)
    state = act(state, "double", "p1").state
    assert to_act(state) == ["p0"]
    state = act(state, "pass", "p0").state
    assert state["phase"] == "play" and to_act(state) == ["p1"]


def test_wrong_phase_and_finished():
    state = start({}, trump="H")
    assert refused(state, "double", "p1").code == "wrong_phase"
    assert refused(state, "choose_trump", "p0", trump="S").code == "wrong_phase"
    final, _, _ = play_out(state, random.Random(1))
    assert refused(final, "play", "p1", card="S7").code == "game_finished"


def test_view_shows_current_and_last_trick_only():
    state = start({}, trump="H")
    rnd = random.Random(3)
    seen_tricks = []
    while len(seen_tricks) < 3 or state["trick"]["cards"]:
        player = to_act(state)[0]
        action = dict(rnd.choice(adj.legal_actions(state, player)))
        out = act(state, "play", player, card=action["card"])
        for e in out.events:
            if e["type"] == "trick_won":
                seen_tricks.append(e["cards"])
        state = out.state
    state = act(state, "play", to_act(state)[0],
                card=adj.legal_actions(state, to_act(state)[0])[0]["card"]).state
    for player in state["players"] + [None]:
        view = adj.view(state, player)
        text = json.dumps(view)
        assert "won" not in view
        assert [c["card"] for c in view["last_trick"]["cards"]] == seen_tricks[-1]
        for old in seen_tricks[:-1]:
            for card in old:
                assert f'"{card}"' not in text, (player, card)
        assert len(view["trick"]["cards"]) == 1
        assert sum(view["tricks_won"].values()) == 3


def test_two_player_view_shows_face_up_table_cards_only():
    state = start({}, n=2, trump="H")
    view = adj.view(state, "p0")
    for p in state["players"]:
        piles = view["table"][p]
        assert [x["up"] for x in piles] == [pile[0] for pile in state["table"][p]]
        assert all(x["down"] for x in piles)
    text = json.dumps(view)
    for row in state["table"].values():
        for pile in row:
            assert f'"{pile[1]}"' not in text
    assert view["hand"] == shown(state["hands"]["p0"])
    assert f'"{state["hands"]["p1"][0]}"' not in text
