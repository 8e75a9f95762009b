"""Property tests: random legal play-outs of matches for 3, 5 and 8 players under each preset
and under random option mixes. Every step: every card accounted for, JSON round trip,
decode == decode_trusted, the published schema, no view shows another seat's cards; a sample
of listed actions accepted and of illegal ones refused (state unchanged); every deal: one of
each title, points per title."""
from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import Phase, given, settings, strategies as st

from engine import adjudicate
from engine.cards import deck_52
from engine.games.daifugo import GAME
from engine.games.daifugo.options import OPTIONS, points_of
from engine.games.daifugo.phases import titles_for
from engine.values import Refusal
from tests.leaks import assert_no_leak
from tests.sizing import examples
from tests.state_schema import schema_errors

MAX_STEPS = 3000  # a guard in the test only


def check_state(state, j: dict, step: int) -> None:
    assert json.loads(json.dumps(j)) == j
    assert GAME.encode(GAME.decode(j)) == j
    assert GAME.decode(j) == state == GAME.decode_trusted(j)
    if step % 20 == 0:
        assert schema_errors(j) == []
    seen = Counter(j["pile"]) + Counter(j["discards"])
    for h in j["hands"].values():
        seen.update(h)
    assert seen == Counter(deck_52() + ["BJ", "RJ"][:j["options"]["jokers"]])
    for viewer in list(j["players"]) + [None]:
        hidden = set()
        for p in j["players"]:
            if p != viewer:
                hidden |= set(j["hands"][p])
        for e in j["exchange"]:
            if viewer not in (e["upper"], e["lower"]):
                hidden |= set(e["tribute"]) | set(e["returned"] or ())
        for e in j["exchange"]:  # the two seats of a pair know what passed between them
            if viewer in (e["upper"], e["lower"]):
                hidden -= set(e["tribute"]) | set(e["returned"] or ())
        # cards given away publicly (pile, discards) were public before they moved
        hidden -= set(j["pile"]) | set(j["discards"])
        if viewer is not None:
            hidden -= set(j["hands"][viewer])
        view = GAME.view(state, viewer)
        if view["top"] is not None:  # stand-ins name what a joker is, not where a card is
            view["top"] = {**view["top"], "jokers": []}
        assert_no_leak(view, hidden, viewer)


def random_illegal(rng: random.Random, j: dict) -> dict:
    p = rng.choice(j["players"])
    kind = rng.choice(["play", "pass", "give", "discard", "exchange"])
    a = {"type": kind, "player": p}
    if kind != "pass":
        pool = j["hands"][p] or deck_52()
        a["cards"] = rng.sample(pool, k=min(len(pool), rng.choice([1, 2, 3])))
    return a


def play_match(n: int, options: dict, seed: int, deals: int = 2) -> None:
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(n)]
    match = None
    running = {p: 0 for p in players}
    for d in range(deals):
        dealt = adjudicate.deal("daifugo", players, options=options, seed=f"s{seed}-{d}",
                                match=match)
        j = dealt["state"]
        state = GAME.decode(j)
        step = 0
        while state.status != "finished":
            check_state(state, j, step)
            acts = [a for p in GAME.to_act(state) for a in GAME.legal_actions(state, p)]
            assert acts, "someone can always act"
            GAME.apply(state, rng.choice(acts))  # a listed action is accepted
            if step % 3 == 0:
                res = adjudicate.validate(j, random_illegal(rng, j))
                if not res.valid:
                    assert res.state == j and isinstance(res.refusal, Refusal)
            a = rng.choice(acts)
            tr = GAME.apply(state, a)
            state = tr.state
            j = GAME.encode(state)
            step += 1
            assert step < MAX_STEPS
        check_state(state, j, 0)
        r = j["result"]
        assert sorted(r["finish_order"]) == sorted(players)
        assert Counter(r["titles"].values()) == Counter(titles_for(n))
        table = points_of(j["options"]["rank_points"])
        idx = {"daifugo": 0, "fugo": 1, "heimin": 2, "hinmin": 3, "daihinmin": 4}
        assert all(r["points"][p] == table[idx[t]] for p, t in r["titles"].items())
        for p in players:
            running[p] += r["points"][p]
        if j["options"]["match_deals"] == d + 1:  # D29: the match ends with its last deal
            assert j["next_match"] is None
            assert any(e.type == "match_finished" for e in tr.events)
            return
        assert j["next_match"]["points"] == running and j["next_match"]["deal"] == d + 2
        match = j["next_match"]


@settings(max_examples=examples(6), deadline=None, phases=[Phase.explicit, Phase.generate])
@given(st.sampled_from([3, 5, 8]), st.sampled_from(["seed", "seed_full", "uecda"]),
       st.integers(0, 10 ** 6))
def test_presets_random_matches(n, preset, seed):
    play_match(n, {"preset": preset}, seed)


def _option_value(draw, opt):
    f = opt.field
    if f.kind == "bool":
        return draw(st.booleans())
    if f.kind == "enum":
        return draw(st.sampled_from(list(f.choices) + ([None] if f.nullable else [])))
    if f.kind == "int":
        ints = st.integers(f.minimum, 6 if f.maximum is None else min(f.maximum, 6))
        return draw(st.one_of(st.none(), ints) if f.nullable else ints)
    return draw(st.lists(st.sampled_from(list(f.choices)), max_size=3, unique=True))


@st.composite
def option_mixes(draw):
    out = {"preset": draw(st.sampled_from(["seed", "seed_full", "uecda"]))}
    for opt in OPTIONS:
        if draw(st.booleans()):
            out[opt.name] = _option_value(draw, opt)
    return out


@settings(max_examples=examples(8), deadline=None, phases=[Phase.explicit, Phase.generate])
@given(st.sampled_from([3, 4, 5, 6, 8]), option_mixes(), st.integers(0, 10 ** 6))
def test_random_option_mixes_random_matches(n, options, seed):
    play_match(n, options, seed)


@settings(max_examples=examples(6), deadline=None, phases=[Phase.explicit, Phase.generate])
@given(st.sampled_from([3, 5, 8]), st.sampled_from(["seed", "seed_full"]),
       st.integers(0, 10 ** 6))
def test_d9_leader_may_pass_random_matches(n, preset, seed):
    """D9 with leader_may_pass in the seed presets (uecda has it on, so the preset play-outs
    above pass as leaders too): random leader passes, with or without the pass lock, still
    reach the end of every deal with the invariants (20 passes in a row end it at worst)."""
    play_match(n, {"preset": preset, "leader_may_pass": True}, seed)


@settings(max_examples=examples(8), deadline=None, phases=[Phase.explicit, Phase.generate])
@given(st.sampled_from([3, 5, 8]), st.sampled_from(["seed", "seed_full", "uecda"]),
       st.integers(0, 10 ** 6))
def test_d9_pass_heavy_deals_end_by_play_or_by_the_pass_limit(n, preset, seed):
    """D9 (leader_may_pass): players who pass whenever they may (mostly) still end the deal,
    by play or at the 20th pass in a row, and the pass limit ranks exactly the players left."""
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(n)]
    j = adjudicate.deal("daifugo", players, options={"preset": preset,
                                                     "leader_may_pass": True},
                        seed=f"heavy{seed}")["state"]
    state = GAME.decode(j)
    step = 0
    limit = []
    while state.status != "finished":
        check_state(state, j, step)
        acts = [a for p in GAME.to_act(state) for a in GAME.legal_actions(state, p)]
        passes = [a for a in acts if a.type == "pass"]
        a = passes[0] if passes and rng.random() < 0.9 else rng.choice(acts)
        before = list(state.finished)
        tr = GAME.apply(state, a)
        limit = [e for e in tr.events if e.type == "pass_limit_reached"]
        state, j = tr.state, GAME.encode(tr.state)
        step += 1
        assert step < MAX_STEPS
    check_state(state, j, 0)
    if limit:
        ranked = limit[0].data["ranked"]
        assert j["result"]["finish_order"][len(before):] == ranked
        assert j["passes_in_a_row"] == 20
