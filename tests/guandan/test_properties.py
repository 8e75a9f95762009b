"""Property tests: random legal play-outs of single deals and of whole matches (deal after deal
through next_match) under the presets; random illegal actions refused; every state survives a
JSON round trip, decodes the same trusted and checked, fits the published schema; no view shows
another seat's cards; classify agrees with legal-actions."""
from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings, strategies as st

from engine import adjudicate
from engine.cards import double_deck_108
from engine.games.guandan import GAME
from engine.games.guandan.combos import classify
from engine.games.guandan.options import combo_rules
from engine.games.guandan.state import LEVELS, in_transit
from engine.values import Refusal
from tests.leaks import assert_no_leak
from tests.sizing import examples
from tests.state_schema import schema_errors

PLAYERS = ["a", "b", "c", "d"]
DECK = Counter(double_deck_108())


def check_state(state, full: bool) -> dict:
    j = GAME.encode(state)
    assert json.loads(json.dumps(j)) == j
    if full:
        assert GAME.encode(GAME.decode(j)) == j
        assert GAME.decode(j) == GAME.decode_trusted(j) == state
        assert schema_errors(j) == []
        check_views(state, j)
    seen = Counter(j["played"]) + Counter(in_transit(state))
    for h in j["hands"].values():
        seen.update(h)
    assert seen == DECK
    for m in (j["match"], j["next_match"]):
        if m:
            assert all(v in LEVELS for v in m["levels"].values())
    return j


def check_views(state, j: dict) -> None:
    public = Counter(j["played"])
    for move in (j["trick"] or {"plays": []})["plays"]:
        if move["reading"]:  # what the wilds stand for: a declaration, not a card
            public.update(move["reading"]["wilds"])
    for t in j["tributes"]:
        if t["card"]:
            public[t["card"]] += 1
    for viewer in PLAYERS + [None]:
        own = set(j["hands"][viewer]) if viewer else set()
        hidden = set()
        for p in PLAYERS:
            if p != viewer:
                hidden |= set(j["hands"][p])
        hidden -= own | set(public) | {j["cut_card"]}
        for t in j["tributes"]:
            hidden -= {t["returned"]} if j["phase"] != "return" else set()
        view = GAME.view(state, viewer)
        assert_no_leak(view, hidden, viewer)
        for p in PLAYERS:
            n = len(j["hands"][p])
            shown = view["hand_counts"][p]
            assert shown == (n if p == viewer or n <= j["options"]["count_threshold"] else None)
            assert (view["hands"][p] is not None) == (p == viewer)


def random_illegal(rng: random.Random, state, j: dict) -> None:
    p = rng.choice(PLAYERS)
    kind = rng.choice(["play", "pass", "tribute", "return", "take", "lead"])
    a = {"type": kind, "player": p}
    if kind == "play":
        hand = j["hands"][p] or ["S3"]
        a["cards"] = rng.sample(hand, k=min(len(hand), rng.choice([1, 2, 3, 5])))
    elif kind in ("tribute", "return"):
        a["card"] = rng.choice(j["hands"][p] or ["S3"])
    elif kind == "take":
        a["payer"] = rng.choice(PLAYERS)
    elif kind == "lead":
        a["leader"] = rng.choice(PLAYERS)
    try:
        GAME.apply(state, GAME.parse_action(a, PLAYERS))
    except Refusal as r:
        assert r.en and r.ja and GAME.refusals[r.code] == r.rule
    # accepted: a legal action picked at random; nothing to check (the state is immutable)


def play_deal(rng: random.Random, preset: str, seed: str, match=None, full=True,
              check_listed=False):
    dealt = adjudicate.deal("guandan", PLAYERS, options={"preset": preset}, seed=seed, match=match)
    state = GAME.decode(dealt["state"])
    steps = 0
    while GAME.status(state) != "finished":
        j = check_state(state, full and steps % 20 == 0)
        to_act = GAME.to_act(state)
        assert to_act
        listed = GAME.legal_actions(state, rng.choice(to_act))
        for p in PLAYERS:
            if p not in to_act:
                assert GAME.legal_actions(state, p) == []
        assert listed
        if check_listed and state.phase == "play":
            rules = combo_rules(state.options)
            top = next((m.reading for m in reversed(state.trick.plays) if m.reading), None) \
                if state.trick else None
            table = None if top is None else {"type": top.type, "rank": top.rank,
                                              "length": top.length}
            for a in rng.sample(listed, min(8, len(listed))):
                after = GAME.apply(state, a).state  # must not refuse
                if a.type == "play":
                    found = classify(a.get("cards"), state.level, rules, table)["readings"]
                    ok = [(r["type"], r["rank"], r["length"]) for r in found
                          if table is None or r["beats"]]
                    # every play carries its reading (W-11), one of the legal ones, and is
                    # played as read
                    listed_reading = a.fields["reading"]
                    meant = (listed_reading["type"], listed_reading["rank"],
                             listed_reading["length"])
                    assert meant in ok, (a, ok)
                    played = next(m for m in reversed(after.trick.plays) if m.reading) \
                        if after.trick else after.out[-1]
                    if after.trick:
                        r = played.reading
                        assert (r.type, r.rank, r.length) == meant
        if state.phase == "return":
            # T-8, D6 return_same_card: every listed return is accepted, and under `never` none
            # is identical to the card received (at a table the two copies look the same).
            t = next(t for t in state.tributes if t.receiver == listed[0].player)
            for a in listed:
                GAME.apply(state, a)
            if state.options.return_same_card == "never":
                assert t.card not in [a.get("card") for a in listed]
        if full:
            random_illegal(rng, state, j)
        plays = [a for a in listed if a.type != "pass"]
        action = rng.choice(plays) if plays and rng.random() < 0.75 else rng.choice(listed)
        # re-parse from JSON: what a client posts back is accepted as is
        tr = GAME.apply(state, GAME.parse_action(json.loads(json.dumps(action.to_json())), PLAYERS))
        for d in tr.score_deltas:
            assert d.kind == "level" and d.extra["to"] in LEVELS
        state = tr.state
        steps += 1
        assert steps < 2000
    j = check_state(state, True)
    outs = [o["player"] for o in j["out"]]
    teams = Counter(PLAYERS.index(p) % 2 for p in outs)
    assert 2 in teams.values() and list(teams.values()).count(2) == 1
    assert len(outs) in (2, 3)
    assert all(not j["hands"][p] for p in outs) and all(j["hands"][p] for p in PLAYERS if p not in outs)
    return j


@settings(deadline=None, max_examples=examples(12))
@given(preset=st.sampled_from(["seed", "official", "pagat"]), seed=st.text(min_size=1, max_size=6),
       choices=st.integers(0, 2**32))
def test_random_single_deals_end_exactly_when_one_team_is_out(preset, seed, choices):
    play_deal(random.Random(choices), preset, seed, check_listed=True)


@settings(deadline=None, max_examples=examples(12))
@given(preset=st.sampled_from(["seed", "official", "pagat"]),  # pagat: return_same_card other_copy
       seed=st.text(min_size=1, max_size=6), choices=st.integers(0, 2**32),
       levels=st.tuples(st.sampled_from(LEVELS), st.sampled_from(LEVELS)),
       order=st.permutations(PLAYERS))
def test_random_later_deals_with_tribute(preset, seed, choices, levels, order):
    """A deal after any previous finish: the tribute phases, then play."""
    order = list(order) if random.Random(choices).random() < 0.6 else None
    if order is None:
        order = [PLAYERS[0], PLAYERS[2]]
    elif PLAYERS.index(order[0]) % 2 == PLAYERS.index(order[1]) % 2:
        order = order[:2]
    match = {"levels": {"team1": levels[0], "team2": levels[1]}, "previous_order": order,
             "deal_number": 1}
    play_deal(random.Random(choices), preset, seed, match=match)


def test_random_whole_matches_to_A_under_both_presets():
    for i, preset in enumerate(["seed", "official", "seed", "official"]):
        rng = random.Random(i)
        match, deals = None, 0
        while True:
            j = play_deal(rng, preset, f"match-{i}", match=match, full=deals % 4 == 0)
            deals += 1
            assert j["match"]["deal_number"] == deals - 1
            if j["next_match"] is None:
                w = j["result"]["match_winner"]
                assert w and j["match"]["levels"][w] == "A" and j["result"]["finish"] in ("1-2", "1-3")
                break
            match = j["next_match"]
            assert deals < 200
