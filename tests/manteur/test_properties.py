"""Property tests: random legal play-outs to the penalty limit (B13-B18, every option), random
actions that must be refused or be legal, states and views checked at every step."""
from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings, strategies as st

from engine import adjudicate
from engine.cards import deck_52
from engine.games.manteur import GAME
from engine.games.manteur.declarations import compare, parse_declaration
from engine.games.manteur.ladder import ladder
from engine.games.manteur.options import rules_of
from engine.games.manteur.state import deck_of
from engine.games.manteur.summary import hand_order
from engine.values import Refusal
from tests.leaks import assert_no_leak
from tests.sizing import examples
from tests.state_schema import schema_errors

MAX_STEPS = 3000  # a guard in the test only

option_sets = st.fixed_dictionaries({
    "deck": st.sampled_from(["standard52", "standard52", "piquet32"]),
    "jokers": st.sampled_from([2, 2, 1, 0]),
    "flush_above_full_house": st.sampled_from([None, True, False]),
    "allow_straights": st.booleans(),
    "allow_flushes": st.booleans(),
    "min_declaration": st.sampled_from(["high_card", "one_pair"]),
    "opener_may_exchange": st.booleans(),
    "next_round_starter": st.sampled_from(["loser", "next_player"]),
    "ace_low_straight": st.booleans(),
    "penalty_limit": st.integers(1, 3),
    "mode": st.sampled_from(["penalty", "elimination"]),
    "direction": st.sampled_from(["cw", "ccw"]),
})


def key(a: dict) -> str:
    return json.dumps(a, sort_keys=True)


def check_views(state, j: dict) -> None:
    """Nobody but the holder sees the hand until a challenge reveals it; nobody sees the
    stock (nor its order), the face-down discards or the seed."""
    for viewer in list(j["players"]) + [None]:
        view = GAME.view(state, viewer)
        assert view["stock"] is None and view["discard"] is None
        assert view["stock_count"] == len(j["stock"]) and view["hand_count"] == 5
        hidden = set(j["stock"]) | set(j["discard"])
        if viewer != j["holder"] and j["phase"] != "finished":
            hidden |= set(j["hand"])
            assert view["hand"] is None
        else:
            assert view["hand"] == hand_order(j["hand"])  # by suit and rank
        # last_round is the public record of a past reveal (B14); the cards have been
        # shuffled since, so naming them says nothing of where they are now.
        assert_no_leak({k: v for k, v in view.items() if k != "last_round"}, hidden, viewer)
        assert view["last_round"] == (None if j["last_round"] is None else
                                      {**j["last_round"], "text": view["last_round"]["text"]})


def check_state(state) -> dict:
    j = GAME.encode(state)
    assert json.loads(json.dumps(j)) == j
    assert GAME.encode(GAME.decode(j)) == j
    assert GAME.decode(j) == state
    assert GAME.decode_trusted(j) == state
    assert schema_errors(j) == []
    # B1, B-a: every card of the deck in use exactly once: hand + stock + discards
    assert Counter(j["hand"] + j["stock"] + j["discard"]) == Counter(deck_of(state.options))
    check_views(state, j)
    return j


def random_action(rng: random.Random, j: dict) -> dict:
    """Any well-formed action: often illegal, sometimes legal."""
    kind = rng.choice(["declare", "declare", "accept", "challenge", "exchange"])
    a = {"type": kind, "player": rng.choice(j["players"])}
    if kind == "declare":
        d = rng.choice(ladder(rules_of(GAME.decode(j).options)).declarations)
        if rng.random() < 0.3:
            d = rng.choice(ladder(rules_of(GAME.decode(j).options).__class__()).declarations)
        a["declaration"] = d.to_json()
    if kind == "exchange":
        pool = j["hand"] if rng.random() < 0.7 else deck_52()
        a["cards"] = rng.sample(pool, k=rng.randint(0, min(5, len(pool))))
    return a


def check_random_action(rng, state, j: dict, to_act: list[str]) -> None:
    a = random_action(rng, j)
    try:
        tr = GAME.apply(state, GAME.parse_action(a, j["players"]))
    except Refusal as refusal:
        assert GAME.refusals.get(refusal.code) == refusal.rule, refusal.code
        assert refusal.en and refusal.ja
        if a["player"] not in to_act:
            assert refusal.code == "not_your_turn"  # checked before anything else
        return
    # accepted: it was legal — by the player to act, of a type the phase allows
    assert a["player"] in to_act
    if a["type"] == "declare":
        rules = rules_of(state.options)
        d = parse_declaration(a["declaration"], "d", rules)
        if j["calls"] and j["phase"] != "respond":
            last = parse_declaration(j["calls"][-1]["declaration"], "d", rules)
            assert compare(d, last, rules) > 0
    assert GAME.encode(tr.state) != j


def play(rng: random.Random, players, options, seed, check_all=False) -> dict:
    dealt = adjudicate.deal("manteur", players, options=options, seed=seed,
                            dealer=rng.choice(players))
    state = GAME.decode(dealt["state"])
    challenges = 0
    for _ in range(MAX_STEPS):
        j = check_state(state)
        to_act = GAME.to_act(state)
        if not to_act:
            break
        assert len(to_act) == 1
        listed = {p: [a.to_json() for a in GAME.legal_actions(state, p)] for p in players}
        for p in players:
            assert bool(listed[p]) == (p in to_act)
        acts = listed[to_act[0]]
        sample = acts if check_all else rng.sample(acts, min(len(acts), 8))
        for a in sample:  # every listed action is accepted
            GAME.apply(state, GAME.parse_action(a, players))
        for _ in range(2):
            check_random_action(rng, state, j, to_act)
        # choose: challenge often enough to end, low declarations and big exchanges to make
        # rounds long (and reach B18's reshuffle)
        by_type = {}
        for a in acts:
            by_type.setdefault(a["type"], []).append(a)
        if "challenge" in by_type and (rng.random() < 0.4 or "accept" not in by_type):
            action = by_type["challenge"][0]
        elif "accept" in by_type:
            action = by_type["accept"][0]
        elif "exchange" in by_type and rng.random() < 0.7:
            action = rng.choice(by_type["exchange"])
        else:
            decls = by_type["declare"]
            action = decls[0] if rng.random() < 0.6 else rng.choice(decls)
        tr = GAME.apply(state, GAME.parse_action(action, players))
        json.dumps([e.to_json() for e in tr.events])
        if action["type"] == "challenge":
            challenges += 1
            # exactly one penalty point per challenge, to the loser it names (B14)
            (delta,) = tr.score_deltas
            reveal = GAME.encode(tr.state)["last_round"]
            assert (delta.kind, delta.delta, delta.target) == ("penalty", 1, reveal["loser"])
            assert reveal["hand"] == j["hand"]
            assert reveal["loser"] == (action["player"] if reveal["truthful"] else j["holder"])
        else:
            assert tr.score_deltas == ()
        state = tr.state
    else:
        raise AssertionError("guard hit")
    final = GAME.encode(state)
    assert final["status"] == "finished"
    penalties, limit = final["match"]["penalties"], options["penalty_limit"]
    assert sum(penalties.values()) == challenges == final["match"]["rounds"]
    result = final["result"]
    if options["mode"] == "penalty":
        assert [p for p, n in penalties.items() if n >= limit] == [result["loser"]]
        assert penalties[result["loser"]] == limit
    else:
        left = [p for p in players if p not in final["eliminated"]]
        assert left == [result["winner"]] and final["eliminated"][-1] == result["loser"]
    return final


@settings(deadline=None, max_examples=examples(60))
@given(n=st.integers(2, 8), options=option_sets, seed=st.text(min_size=1, max_size=6),
       choices=st.integers(0, 2**32))
def test_b13_b18_random_legal_playouts_to_the_penalty_limit(n, options, seed, choices):
    play(random.Random(choices), [f"p{i}" for i in range(n)], options, seed)


@settings(deadline=None, max_examples=examples(8))
@given(n=st.integers(2, 4), options=option_sets, seed=st.text(min_size=1, max_size=6),
       choices=st.integers(0, 2**32))
def test_every_listed_legal_action_is_accepted(n, options, seed, choices):
    play(random.Random(choices), [f"p{i}" for i in range(n)], {**options, "penalty_limit": 1},
         seed, check_all=True)


def test_b18_long_rounds_reshuffle_the_discards():
    """A round that exchanges four cards at every turn runs through the stock."""
    s = GAME.decode(adjudicate.deal("manteur", ["a", "b"], seed="long")["state"])
    reshuffled = 0
    for _ in range(60):
        (p,) = GAME.to_act(s)
        acts = [a.to_json() for a in GAME.legal_actions(s, p)]
        pick = next((a for a in acts if a["type"] == "accept"), None) or \
            next((a for a in acts if a["type"] == "exchange" and len(a["cards"]) == 4), None) or \
            next(a for a in acts if a["type"] == "declare")
        tr = GAME.apply(s, GAME.parse_action(pick, ["a", "b"]))
        reshuffled += sum(e.type == "reshuffled" for e in tr.events)
        s = tr.state
        check_state(s)
    assert reshuffled >= 1 and s.reshuffles == reshuffled and s.round == 1
