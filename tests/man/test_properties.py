"""Property tests: random legal play-outs of games and matches, random illegal actions."""
from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings, strategies as st

from engine import adjudicate
from engine.cards import SUITS, deck_52
from engine.games.man import GAME
from engine.games.man.actions import CALLS
from engine.games.man.messages import VIOLATIONS
from engine.values import Refusal
from tests.leaks import assert_no_leak
from tests.sizing import examples
from tests.state_schema import schema_errors

MAX_STEPS = 600  # a guard in the test, never in the engine: reshuffling games may run long
DECK = Counter(deck_52())

# Every option of the original rules, drawn at random (test_properties_house_options adds the house options).
BASE_OPTIONS = {
    "violations": st.sampled_from(["reject", "chombo"]),
    "calls": st.sampled_from(["automatic", "declared"]),
    "no_opening_match": st.sampled_from(["flip_again", "dealer_left_starts"]),
    "multi_card_effects": st.sampled_from(["per_card", "once"]),
    "penalty_draw_ends_turn": st.booleans(),
    "stock_exhausted": st.sampled_from(["reshuffle", "draw_game"]),
}
option_sets = st.fixed_dictionaries(BASE_OPTIONS)


def key(action: dict) -> tuple:
    """Equal keys: the same action (the order below the top card does not matter, 3.2)."""
    cards = action.get("cards")
    if cards:
        cards = (tuple(sorted(cards[:-1])), cards[-1])
    return (action["type"], action["player"], cards, action.get("suit"), action.get("call"),
            action.get("offender"))


def check_views(state, j: dict) -> None:
    """No seat (nor a spectator) sees the stock, the seed, or a hand that is neither its own,
    public (3.6) nor shown by a man call (5.4)."""
    for viewer in list(j["players"]) + [None]:
        hidden = set(j["stock"])
        for p in j["players"]:
            if p != viewer and not state.public[p] and not state.shown[p]:
                hidden |= set(j["hands"][p])
        view = GAME.view(state, viewer)
        # start_cards is the public record of what the dealer turned (2.3); after a reshuffle
        # (3.9) those cards may be anywhere, and naming them says nothing of where.
        history = {k: v for k, v in view.items() if k != "start_cards"}
        assert_no_leak(history, hidden, viewer)


def check_state(state) -> dict:
    j = GAME.encode(state)
    check_views(state, j)
    assert json.loads(json.dumps(j)) == j
    assert GAME.encode(GAME.decode(j)) == j
    assert GAME.decode(j) == state
    assert GAME.decode_trusted(j) == state  # the signed-state fast path agrees
    seen = Counter(j["stock"]) + Counter(j["discard"])
    for h in j["hands"].values():
        seen.update(h)
    assert seen == DECK
    return j


def random_action(rng: random.Random, j: dict) -> dict:
    players = j["players"]
    kind = rng.choice(["play", "play", "play", "draw", "pass", "end_turn", "man", "decline",
                       "chombo"])
    a = {"type": kind, "player": rng.choice(players)}
    if kind == "play":
        hand = j["hands"][a["player"]]
        pool = hand if hand and rng.random() < 0.8 else deck_52()
        a["cards"] = rng.sample(pool, k=min(len(pool), rng.choice([1, 1, 2, 3])))
        if rng.random() < 0.5:
            a["suit"] = rng.choice(SUITS)
    if kind == "chombo":
        a["offender"] = rng.choice(players)
        a["reason"] = "seen at the table"
    if kind in ("play", "draw", "pass", "end_turn") and (
            j["options"]["calls"] == "declared" or rng.random() < 0.2):
        a["call"] = rng.choice(list(CALLS))
    return a


def check_illegal(rng: random.Random, state, j: dict, legal_keys: set) -> None:
    for _ in range(3):
        a = random_action(rng, j)
        if key(a) in legal_keys:
            continue
        if "call" in a and j["options"]["calls"] == "automatic" and \
                key({k: v for k, v in a.items() if k != "call"}) in legal_keys:
            # A call given in automatic mode is checked: legal exactly when it is the right one.
            bare = GAME.apply(state, GAME.parse_action(
                {k: v for k, v in a.items() if k != "call"}, j["players"]))
            spoken = [e.data["code"] for e in bare.events if e.type == "called"]
            if spoken == [a["call"]]:
                continue
        parsed = GAME.parse_action(a, j["players"])
        try:
            tr = GAME.apply(state, parsed)
        except Refusal as refusal:
            assert refusal.en and refusal.ja and refusal.rule.startswith("man ")
            if j["options"]["violations"] == "chombo":
                assert refusal.code not in VIOLATIONS, refusal.code
            continue
        # Accepted although not listed: only a referee's chombo record, or a violation
        # penalised in chombo mode.
        assert j["options"]["violations"] == "chombo", a
        offender = a["offender"] if a["type"] == "chombo" else a["player"]
        out = GAME.encode(tr.state)
        assert out["status"] == "finished" and out["result"]["kind"] == "chombo"
        assert out["result"]["offender"] == offender
        n = len(j["players"])
        assert {d.target: d.delta for d in tr.score_deltas} == {
            p: (-(n - 1) if p == offender else 1) for p in j["players"]}


def play_game(rng: random.Random, players, options, seed, dealer=None, match=None,
              check_all=True) -> tuple[dict, dict]:
    dealt = adjudicate.deal("man", players, options=options, seed=seed, dealer=dealer,
                            match=match)
    state = GAME.decode(dealt["state"])
    deltas: Counter = Counter()
    for _step in range(MAX_STEPS):
        j = check_state(state)
        to_act = GAME.to_act(state)
        assert to_act == dealt["to_act"] if _step == 0 else True
        if not to_act:
            assert GAME.status(state) == "finished"
            break
        listed = {p: [a.to_json() for a in GAME.legal_actions(state, p)] for p in players}
        for p in players:
            assert bool(listed[p]) == (p in to_act), (p, to_act, listed[p])
        legal_keys = {key(a) for acts in listed.values() for a in acts}
        if check_all:
            for p in to_act:
                for a in listed[p]:
                    GAME.apply(state, GAME.parse_action(a, players))  # must not refuse
        check_illegal(rng, state, j, legal_keys)
        player = rng.choice(to_act)
        acts = listed[player]
        mans = [a for a in acts if a["type"] == "man"]
        action = rng.choice(mans) if mans and rng.random() < 0.6 else rng.choice(acts)
        tr = GAME.apply(state, GAME.parse_action(action, players))
        assert all(isinstance(e.to_json(), dict) for e in tr.events)
        json.dumps([e.to_json() for e in tr.events])
        for d in tr.score_deltas:
            deltas[d.target] += d.delta
        if tr.score_deltas:
            assert sum(d.delta for d in tr.score_deltas) == 0
        state = tr.state
    else:
        return GAME.encode(state), dict(deltas)  # guard hit: game still running
    final = check_state(state)
    assert schema_errors(final) == []  # the published state schema covers every ending
    assert sum(deltas.values()) == 0
    return final, dict(deltas)


# 400 whole games a run (≈ 35 s of one test worker): the suite's largest single cost; a soak
# runs more (CARDREF_PROPERTY_SCALE=10 make test)
@settings(deadline=None, max_examples=examples(400))
@given(n=st.integers(2, 8), options=option_sets, seed=st.text(min_size=1, max_size=8),
       choices=st.integers(0, 2**32))
def test_random_legal_playouts_end_consistently(n, options, seed, choices):
    players = [f"p{i}" for i in range(n)]
    final, deltas = play_game(random.Random(choices), players, options, seed)
    if final["status"] == "finished":
        totals = final["match"]["totals"]
        assert {p: t for p, t in totals.items() if t} == {p: d for p, d in deltas.items() if d}
        result = final["result"]
        if result["kind"] == "man":
            assert final["next_dealer"] == result["winner"]
            assert deltas[result["winner"]] == result["stake"] == -deltas[result["loser"]]
        else:
            assert final["next_dealer"] == final["dealer"]


@settings(deadline=None, max_examples=examples(100))
@given(n=st.integers(2, 6), options=option_sets, seed=st.text(min_size=1, max_size=8),
       choices=st.integers(0, 2**32))
def test_random_matches_carry_totals_and_dealer(n, options, seed, choices):
    rng = random.Random(choices)
    players = [f"p{i}" for i in range(n)]
    options = {**options, "stock_exhausted": "draw_game"}
    match, dealer, running = None, None, Counter()
    for game_no in range(4):
        final, deltas = play_game(rng, players, options, f"{seed}/{game_no}", dealer, match,
                                  check_all=False)
        if final["status"] != "finished":
            break
        running.update(deltas)
        assert final["match"]["games_played"] == game_no + 1
        assert final["match"]["totals"] == {p: running[p] for p in players}
        assert sum(final["match"]["totals"].values()) == 0
        match, dealer = final["match"], final["next_dealer"]
        assert final["dealer"] == (players[0] if game_no == 0 else final["dealer"])
