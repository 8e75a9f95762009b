"""Property tests: random legal play-outs of whole booms for 2, 3, 4 and 6 players, under random
options. At every step: the published schema, the strict decoder and the trusted decoder all
accept the state and agree (both decoders rebuild equal objects, encode gives the JSON back),
all 32 cards are accounted for, every listed legal action is accepted, unlisted plays and
out-of-turn actions are refused. At every deal's end: 60 card points, and only a side over the
threshold scores."""
import json
from collections import Counter

from hypothesis import HealthCheck, given, settings, strategies as st

from engine import adjudicate as adj
from engine.cards import deck_32
from engine.games.manillen import GAME
from engine.games.manillen.phases import playable
from engine.games.manillen.state import ManillenState
from engine.games.manillen.tricks import total_points
from engine.values import Refusal
from tests.leaks import assert_no_leak
from tests.sizing import examples
from tests.state_schema import schema_errors

OPTION_SETS = st.fixed_dictionaries({}, optional={
    "blind_no_trump": st.booleans(),
    "allow_pass_trump_to_partner": st.booleans(),
    "max_doublings": st.sampled_from([None, 0, 1, 2]),
    "multiplier_cap": st.sampled_from([None, 4]),
    "redouble_by": st.sampled_from(["dealer_side", "dealer_partner"]),
    "double_by": st.sampled_from(["either_opponent", "eldest_only"]),
    "undertrump": st.sampled_from(["forbidden_unless_forced", "allowed",
                                   "required_if_holding_trump"]),
    "must_overtake_in_suit": st.sampled_from(["opponent_winning", "trump_lead_only", "never"]),
    "must_trump_when_partner_winning": st.booleans(),
    "overtrump_on_trump_lead_even_if_partner_wins": st.booleans(),
    "deal_pattern": st.sampled_from(["3-2-3", "3-3-2", "2-2-2-2", "4-4"]),
    "first_dealer": st.sampled_from(["first_player", "cut"]),
    "trick_bonus_points": st.sampled_from([0, 1]),
})

ALL = deck_32()
SEEDS = st.text("abcdef0123456789", min_size=1, max_size=8)


def cards_in(state: dict) -> Counter:
    c = Counter()
    assert set(state["hands"]) == set(state["won"]) == set(state["players"])
    for h in state["hands"].values():
        c.update(h)
    for row in (state["table"] or {}).values():
        for pile in row:
            c.update(pile)
    c.update(state["leftover"])
    if state["trick"]:
        c.update(state["trick"]["cards"])
    for w in state["won"].values():
        c.update(w)
    return c


def check_views(state_json: dict, decoded) -> None:
    """A seat sees its own hand (not the dealer's partner before trumps, A8), face-up table
    cards, the left-over cards, the current and the last trick; never another hand, a
    face-down card, an earlier trick (the seed) or the seed."""
    table = (state_json["table"] or {}).values()
    face_down = {pile[1] for row in table for pile in row if len(pile) == 2}
    last = set(state_json["last_trick"]["cards"]) if state_json["last_trick"] else set()
    earlier = {c for pile in state_json["won"].values() for c in pile} - last
    for viewer in list(state_json["players"]) + [None]:
        view = GAME.view(decoded, viewer)
        assert json.loads(json.dumps(view)) == view       # JSON-native
        # the cut (A5) was shown to all, and the pack reshuffled after it: no hidden card
        view = {k: v for k, v in view.items() if k != "cut"}
        hidden = face_down | earlier
        for p in state_json["players"]:
            if p != viewer or view["hand_hidden"]:
                hidden |= set(state_json["hands"][p])
        hidden.discard(state_json["turned"])      # A37: turned up for all to see
        assert_no_leak(view, hidden, viewer)


def check_step(state_json: dict, rnd) -> None:
    again = json.loads(json.dumps(state_json))
    assert again == state_json
    # the published schema, the strict decoder and the trusted decoder all accept the state …
    assert schema_errors(again) == []
    decoded = GAME.decode(again)
    trusted = GAME.decode_trusted(again)
    # … and agree: both rebuild equal objects, and encoding gives the JSON back
    assert trusted == decoded and type(trusted) is type(decoded) is ManillenState
    assert GAME.encode(decoded) == state_json == GAME.encode(trusted)
    assert json.loads(json.dumps(GAME.encode(decoded))) == state_json
    assert cards_in(state_json) == Counter(ALL)
    check_views(state_json, decoded)
    acting = GAME.to_act(decoded)
    for player in decoded.players:
        legal = GAME.legal_actions(decoded, player)
        if player not in acting:
            assert legal == []
            continue
        for action in legal:                      # every listed action is accepted
            GAME.apply(decoded, action)
        if decoded.phase == "play":
            legal_cards = {a.get("card") for a in legal}
            for card in playable(decoded, player):
                if card not in legal_cards:       # a playable card outside the list: refused
                    try:
                        GAME.apply(decoded, GAME.parse_action(
                            {"type": "play", "player": player, "card": card}, decoded.players))
                    except Refusal as refusal:
                        assert sorted(refusal.details["required"]) == sorted(legal_cards)
                        assert refusal.rule.startswith("manillen ")
                    else:
                        raise AssertionError(f"{card} accepted but not listed")
            stranger = rnd.choice([c for c in ALL if c not in playable(decoded, player)])
            try:
                GAME.apply(decoded, GAME.parse_action(
                    {"type": "play", "player": player, "card": stranger}, decoded.players))
                raise AssertionError(f"{stranger} is not held but was accepted")
            except Refusal as refusal:
                assert refusal.code == "card_not_playable"
    idle = [p for p in decoded.players if p not in acting]
    if idle and decoded.phase == "play":
        p = rnd.choice(idle)
        cards = playable(decoded, p)
        if cards:
            try:
                GAME.apply(decoded, GAME.parse_action(
                    {"type": "play", "player": p, "card": cards[0]}, decoded.players))
                raise AssertionError("an out-of-turn play was accepted")
            except Refusal as refusal:
                assert refusal.code == "not_your_turn"


def play_boom(n: int, options: dict, rnd, seed: str) -> int:
    players = ["n", "e", "s", "w", "x", "y"][:n]
    match = None
    deals = 0
    while True:
        deals += 1
        assert deals < 60, "a boom should not take this long"
        dealt = adj.deal("manillen", players, options=options, seed=seed, match=match)
        state = dealt["state"]
        deltas: list = []
        events: list = []
        while state["status"] == "in_progress":
            check_step(state, rnd)
            player = GAME.to_act(GAME.decode(state))[0]
            actions = adj.legal_actions(state, player)
            calls = [a for a in actions if a["type"] in ("double", "redouble")]
            if calls and rnd.random() < 0.7:
                actions = [a for a in actions if a["type"] == "pass"]
            out = adj.validate(state, rnd.choice(actions))
            assert out.valid
            deltas += out.score_deltas
            events += out.events
            state = out.state
        check_step(state, rnd)      # the published schema covers every ending too
        res = state["result"]
        sides = res["sides"]
        assert sum(s["card_points"] for s in sides) == 60
        assert total_points(ALL) == 60
        threshold = res["threshold"]
        assert threshold * 2 in (sum(s["points"] for s in sides),
                                 sum(s["points"] for s in sides) - 1)     # half the total
        scoring = [s for s in sides if s["points"] > threshold]
        assert len(scoring) <= 1
        for s in sides:
            expected = (s["points"] - threshold) * res["multiplier"] if s in scoring else 0
            assert s["score"] == expected
        holders = {d["target"] for d in deltas}
        if scoring:
            members = scoring[0]["members"]
            if n in (4, 6):
                assert holders == {scoring[0]["id"]}
            else:
                assert holders == set(members)
            assert all(d["delta"] == scoring[0]["score"] > 0 for d in deltas)
        else:
            assert deltas == [] and res["tie"]
        match = state["next_match"]
        step = -1 if state["options"]["french_form"] != "none" else 1    # A37
        assert match["dealer"] == players[(players.index(state["dealer"]) + step) % n]
        assert state["next_dealer"] == match["dealer"]
        if any(e["type"] == "boom_reached" for e in events):
            assert res["boom"]["scores"][res["boom"]["winner"]] >= 101
            return deals


@settings(deadline=None, max_examples=examples(32), suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTION_SETS, rnd=st.randoms(use_true_random=False), seed=SEEDS)
def test_whole_boom_four_players(options, rnd, seed):
    play_boom(4, options, rnd, seed)


@settings(deadline=None, max_examples=examples(26), suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTION_SETS, rnd=st.randoms(use_true_random=False), seed=SEEDS)
def test_whole_boom_three_players(options, rnd, seed):
    play_boom(3, options, rnd, seed)


@settings(deadline=None, max_examples=examples(20), suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTION_SETS, rnd=st.randoms(use_true_random=False), seed=SEEDS)
def test_whole_boom_two_players(options, rnd, seed):
    play_boom(2, options, rnd, seed)


@settings(deadline=None, max_examples=examples(15), suppress_health_check=[HealthCheck.too_slow])
@given(options=st.fixed_dictionaries({
    "french_form": st.sampled_from(["muette", "parlee"]),
    "deal_pattern": st.sampled_from(["4-4", "2-2-2-2"]),
    "trick_bonus_points": st.just(1)}, optional={
    "max_doublings": st.sampled_from([None, 0, 2]),
    "first_dealer": st.sampled_from(["first_player", "cut"]),
    "undertrump": st.sampled_from(["forbidden_unless_forced", "allowed"]),
    "double_by": st.sampled_from(["either_opponent", "eldest_only"]),
    "redouble_by": st.sampled_from(["dealer_side", "dealer_partner"])}),
    rnd=st.randoms(use_true_random=False), seed=SEEDS)
def test_whole_boom_french_form_A37(options, rnd, seed):
    play_boom(4, options, rnd, seed)


@settings(deadline=None, max_examples=examples(20), suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTION_SETS, rnd=st.randoms(use_true_random=False), seed=SEEDS)
def test_whole_boom_six_players_A35(options, rnd, seed):
    play_boom(6, options, rnd, seed)
