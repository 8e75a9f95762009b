"""Replay for scrubbing (engine/adjudicate.py replay, `views_for`): the views a replay answers
are, state by state, what /v1/view answers for that viewer, and a seat's replayed views never
show another seat's cards: for every game, random legal play-outs replayed for each seat, the
spectator and the referee."""
from __future__ import annotations

import random

import pytest

from engine import adjudicate, registry
from engine.errors import InputError
from engine.referee import REFEREE
from tests.leaks import assert_no_leak, cards_shown
from tests.sizing import examples

GAMES = ("man", "manillen", "guandan", "daifugo", "manteur")


def _play_out(game_id: str, rnd: random.Random, steps: int) -> tuple[dict, list[dict], list[dict]]:
    """A deal request, the legal actions taken from it, and the state after each."""
    game = registry.get(game_id)
    n = 4 if game.min_players <= 4 <= game.max_players else game.min_players
    request = {"game_id": game_id, "players": [f"p{i}" for i in range(n)],
               "seed": f"scrub-{rnd.random()}", "seed_salt": f"{rnd.getrandbits(128):032x}"}
    state = adjudicate.deal(**request)["state"]
    actions, states = [], []
    for _ in range(steps):
        listed = [a for p in request["players"] for a in adjudicate.legal_actions(state, p)]
        if not listed:
            break
        action = rnd.choice(listed)
        out = adjudicate.validate(state, action)
        actions.append({k: v for k, v in action.items() if k != "game"})
        states.append(out.state)
        state = out.state
        if out.status == "finished":
            break
    return request, actions, states


def _cards_of(state: dict, seat: str) -> set[str]:
    """The cards a seat holds (Manteur: the travelling hand, while that seat holds it)."""
    if isinstance(state.get("hands"), dict):
        return set(state["hands"].get(seat) or ())
    return set(state.get("hand") or ()) if state.get("holder") == seat else set()


@pytest.mark.parametrize("game_id", GAMES)
def test_each_replayed_view_is_what_the_view_endpoint_shows_and_hides_other_seats_cards(game_id):
    rnd = random.Random(f"replay-views-{game_id}")
    checked = 0
    for _ in range(examples(6)):
        request, actions, states = _play_out(game_id, rnd, rnd.randint(1, 60))
        initial = adjudicate.deal(**request)["state"]
        for viewer in [*request["players"], None]:
            out = adjudicate.replay(request, actions, views_for=viewer)
            assert out["stopped"] is None and len(out["steps"]) == len(actions)
            assert out["initial_view"] == adjudicate.view(initial, viewer)
            for step, state in zip(out["steps"], states):
                assert step["view"] == adjudicate.view(state, viewer), (game_id, step["index"])
                if viewer is None:
                    continue
                public = cards_shown(adjudicate.view(state, None)) | _cards_of(state, viewer)
                others = set().union(*(_cards_of(state, p) for p in request["players"]
                                       if p != viewer))
                assert_no_leak(step["view"], others - public, viewer)
                checked += 1
        refereed = adjudicate.replay(request, actions, views_for=REFEREE, referee_seen=True)
        assert [s["view"] for s in refereed["steps"]] == [
            adjudicate.view(s, REFEREE, referee_seen=True) for s in states]
    assert checked >= examples(6)


def test_a_replay_without_views_answers_as_before_and_an_unseated_viewer_is_refused():
    rnd = random.Random("replay-views-plain")
    request, actions, _ = _play_out("daifugo", rnd, 12)
    plain = adjudicate.replay(request, actions)
    assert "initial_view" not in plain and all("view" not in s for s in plain["steps"])
    viewed = adjudicate.replay(request, actions, views_for="p1")
    assert {k: v for k, v in viewed.items() if k != "initial_view"} | {
        "steps": [{k: v for k, v in s.items() if k != "view"} for s in viewed["steps"]]} == plain
    for nobody in ("zed", REFEREE):  # "referee" is no seat unless the caller is the referee
        with pytest.raises(InputError) as refused:
            adjudicate.replay(request, actions, views_for=nobody)
        assert refused.value.code == "player_unknown" and refused.value.path == "views_for"
