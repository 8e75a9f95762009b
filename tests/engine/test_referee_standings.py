"""The referee's penalties count in each game's own match standing (RefereeRules.count_penalty); a
withdrawal gives them back. And deals from an explicit deck take what the rules decide at random
from `table`, so they replay without a seed. Every registered game alike; each game's own rules
of it (Man's totals 7.4, Manillen's scores A41, Guandan's levels S-9, Daifugo's points D28,
Manteur's penalty limit B22) are checked in tests/<game>/test_referee_standing.py.

The property tests play whole matches of random deck deals with random warnings, penalties and
withdrawals: each deal's standing after is its standing before plus every score delta of the
deal, the game's own and the ledger's alike, and the referee's log replays twice the same.
Where a game keeps its standing is its conformance facts' `standing` (engine/games/<id>/
conformance.json); a game without one (every deal stands alone) has the rest checked."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from engine import adjudicate, registry
from tests.conformance import helpers
from tests.engine.test_referee_ledger import ledger_act
from tests.referee_play import act, deck_request
from tests.sizing import examples

GAMES = helpers.GAME_IDS


def seat_count(game) -> int:
    return 4 if game.min_players <= 4 <= game.max_players else game.min_players


@pytest.mark.parametrize("game_id", GAMES)
def test_a_deck_deal_with_its_table_replays_twice_to_the_same_result_without_a_seed(game_id):
    game = registry.get(game_id)
    rnd = random.Random(f"deck-{game_id}")
    players = [f"p{i}" for i in range(seat_count(game))]
    request = deck_request(game_id, players, rnd)
    dealt = adjudicate.deal(game_id, **request)
    log: list[dict] = []
    state = dealt["state"]
    for _ in range(4000):
        if game.status(game.decode(state)) == "finished":
            break
        to_act = game.to_act(game.decode(state))
        legal = [a for p in to_act for a in adjudicate.legal_actions(state, p)]
        action = rnd.choice(legal) if rnd.random() > 0.05 else \
            {"type": "penalty", "player": rnd.choice(players), "points": 1}
        state = act(state, action).state
        log.append(action)
    first = adjudicate.replay({"game_id": game_id, **request}, log)
    second = adjudicate.replay({"game_id": game_id, **request}, log)
    assert first["stopped"] is None and first["status"] == "finished"
    for key in ("steps", "totals", "next_match"):
        assert first[key] == second[key], key
    same = {k: v for k, v in state.items() if k != "seed_salt"}
    assert {k: v for k, v in first["state"].items() if k != "seed_salt"} == same
    assert {k: v for k, v in second["state"].items() if k != "seed_salt"} == same


# ------------------------------------------------------------------ whole matches

def _at(state: dict, path: str):
    for key in path.split("."):
        state = state[key]
    return state


def standing(game_id: str, state: dict, after: bool) -> dict[str, int] | None:
    """The game's own match standing by holder, before the deal (its start) or after it: where
    its facts' `standing` says (`before`, `after`: dotted paths in the state), each value its
    place in `order` when the standing is not counted in numbers (Guandan's levels). None: the
    game keeps no standing."""
    fact = helpers.facts(game_id).get("standing")
    if fact is None:
        return None
    values = _at(state, fact["after" if after else "before"])
    order = fact.get("order")
    return {h: order.index(v) if order else v for h, v in values.items()}


def play_deal(game_id: str, request: dict, rnd: random.Random):
    """One deal of random moves and random ledger acts: (log, final answer, deltas by target,
    the standing it started from)."""
    game = registry.get(game_id)
    dealt = adjudicate.deal(game_id, **request)
    state, to_act, status = dealt["state"], dealt["to_act"], dealt["status"]
    before = standing(game_id, state, after=False)
    log: list[dict] = []
    deltas: Counter = Counter()
    last = None
    for _ in range(4000):
        if status == "finished":
            break
        if rnd.random() < 0.12:
            action = ledger_act(rnd, state)
            if action["type"] == "penalty":
                action["points"] = 1  # a limit may be small (Manteur's): let the rounds play too
        else:
            legal = [a for p in to_act for a in adjudicate.legal_actions(state, p)]
            moving = [a for a in legal if a["type"] not in ("draw", "pass", "end_turn")]
            action = rnd.choice(moving if moving and rnd.random() < 0.8 else legal)
        out = adjudicate.validate(state, action)
        if not out.valid:
            assert out.refusal.code in ("ledger_entry_unknown", "ledger_entry_withdrawn")
            continue
        ledger = action["type"] in ("warning", "penalty", "withdraw")
        for d in out.score_deltas:
            assert d["kind"] == game.referee.penalty_kind or not ledger
            deltas[d["target"]] += d["delta"]
        if game.zero_sum and not ledger:  # the game's own deltas; a penalty is paid to nobody
            assert sum(d["delta"] for d in out.score_deltas) == 0
        log.append(action)
        state, to_act, status, last = out.state, out.to_act, out.status, out
    assert status == "finished"
    return log, last, deltas, before


@settings(deadline=None, max_examples=examples(8))
@given(game_id=st.sampled_from(GAMES), choices=st.integers(0, 2**32))
def test_random_deck_matches_with_random_penalties_total_the_game_and_the_ledger(game_id,
                                                                                choices):
    rnd = random.Random(choices)
    players = [f"p{i}" for i in range(seat_count(registry.get(game_id)))]
    match = None
    for _ in range(3):
        request = deck_request(game_id, players, rnd, match)
        log, last, deltas, before = play_deal(game_id, request, rnd)
        after = standing(game_id, last.state, after=True)
        # the standing after = before + every delta of the deal: the game's and the ledger's
        if before is not None:
            assert after == {h: before[h] + deltas[h] for h in before}, (before, deltas)
        ledger = last.state["referee_ledger"]
        standing_points = Counter()
        for e in ledger:
            if e["kind"] == "penalty" and not e["withdrawn"]:
                standing_points[e["player"]] += e["points"]
        if last.next_match is not None:
            assert last.next_match["referee_ledger"]["totals"] == \
                {p: standing_points[p] for p in players}
        for _ in range(2):  # the referee's log replays the same, without a seed
            again = adjudicate.replay({"game_id": game_id, **request}, log)
            assert again["stopped"] is None
            assert {k: v for k, v in again["state"].items() if k != "seed_salt"} == \
                {k: v for k, v in last.state.items() if k != "seed_salt"}
            assert Counter(again["totals"]) == deltas
            assert again["next_match"] == last.next_match
        match = last.next_match
        if match is None or any(e["type"] == "match_finished" for e in last.events) or \
                match.get("over"):
            return
        match = json.loads(json.dumps(match))
