"""Physical deals through HTTP, for every game that accepts hands: deal from the cards on the
table (with the referee key), play to the end by random legal actions through /v1/validate,
then replay the referee's own log `{deal, actions}` through /v1/replay."""
from __future__ import annotations

import random
from collections import Counter
from typing import Callable

from tests.service.conftest import REFEREE


def deal(client, game_id: str, request: dict) -> dict:
    resp = client.post(f"/v1/games/{game_id}/deal", json=request, headers=REFEREE)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def refused_deal(client, game_id: str, request: dict) -> dict:
    """The problem of a deal the engine refuses (422 deal_invalid), its path in `errors`."""
    resp = client.post(f"/v1/games/{game_id}/deal", json=request, headers=REFEREE)
    assert resp.status_code == 422, resp.get_json()
    body = resp.get_json()
    assert body["code"] == "deal_invalid", body
    return body


def error_paths(problem: dict) -> set[str]:
    return set(problem.get("errors") or {})


def play_out(client, game_id: str, request: dict, rnd: random.Random,
             check: Callable[[dict], None] | None = None, max_steps: int = 3000
             ) -> tuple[list[dict], dict]:
    """Random legal actions from the deal to its end: (the actions, the last answer, which
    carries `totals`: every score delta of the way summed by target)."""
    out = deal(client, game_id, request)
    if check:
        check(out["state"])
    actions: list[dict] = []
    running: Counter = Counter()
    for _ in range(max_steps):
        if out["status"] == "finished":
            return actions, {**out, "totals": dict(running)}
        legal: list[dict] = []
        for player in out["to_act"]:
            resp = client.post("/v1/legal-actions", json={"state": out["state"], "player": player})
            assert resp.status_code == 200, resp.get_json()
            legal += resp.get_json()["actions"]
        assert legal, f"{out['to_act']} may act but have no legal action"
        action = rnd.choice(legal)
        resp = client.post("/v1/validate", json={"state": out["state"], "action": action})
        out = resp.get_json()
        assert resp.status_code == 200 and out["valid"], (action, out.get("error"))
        for d in out["score_deltas"]:
            running[d["target"]] += d["delta"]
        if check:
            check(out["state"])
        actions.append(action)
    raise AssertionError(f"{game_id}: no end after {max_steps} actions")


def replay(client, game_id: str, request: dict, actions: list[dict]) -> dict:
    resp = client.post("/v1/replay", json={"deal": {"game": game_id, **request},
                                           "actions": actions}, headers=REFEREE)
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()


def replays_the_same(client, game_id: str, request: dict, actions: list[dict],
                     final: dict) -> dict:
    """The referee's log replays twice to the same end: every action accepted, the same final
    state, the same totals. The seed the server drew for each deal differs and nothing may
    depend on it: states are compared without it (and without the service's binding)."""
    first = replay(client, game_id, request, actions)
    second = replay(client, game_id, request, actions)
    for r in (first, second):
        assert r["stopped"] is None, r["stopped"]
        assert r["status"] == "finished"
        assert unseeded(r["state"]) == unseeded(final["state"])
    assert first["totals"] == second["totals"] == final["totals"]
    return first


def unseeded(state: dict) -> dict:
    return {k: v for k, v in state.items() if k not in ("signature", "meta", "seed", "seed_salt")}


def shuffled_deck(deck: list[str], rnd: random.Random) -> list[str]:
    cards = list(deck)
    rnd.shuffle(cards)
    return cards


def by_seat(players: list[str], cards: list[str], counts: list[int]) -> dict[str, list[str]]:
    """`cards` cut into consecutive hands of `counts` cards, one per player."""
    out, pos = {}, 0
    for p, k in zip(players, counts):
        out[p] = cards[pos:pos + k]
        pos += k
    return out



def engine_play_out(game_id: str, request: dict, rnd: random.Random,
                    check: Callable[[dict], None] | None = None, max_steps: int = 3000
                    ) -> tuple[list[dict], dict, dict[str, int]]:
    """The same as play_out through the engine (property tests: no HTTP): the actions, the
    final state's JSON and the totals of every score delta."""
    from engine import adjudicate, registry

    game = registry.get(game_id)
    dealt = adjudicate.deal(game_id, **request)
    state = game.decode(dealt["state"])
    running: Counter = Counter()
    actions: list[dict] = []
    for _ in range(max_steps):
        if check:
            check(game.encode(state))
        if game.status(state) == "finished":
            return actions, game.encode(state), dict(running)
        legal = [a for p in game.to_act(state) for a in game.legal_actions(state, p)]
        assert legal, "someone can always act"
        action = rnd.choice(legal)
        tr = game.apply(state, action)
        for d in tr.score_deltas:
            running[d.target] += d.delta
        state = tr.state
        actions.append(action.to_json())
    raise AssertionError(f"{game_id}: no end after {max_steps} actions")


def engine_replays_the_same(game_id: str, request: dict, actions: list[dict], final: dict,
                            totals: dict[str, int]) -> None:
    """adjudicate.replay of the log, twice (each deal draws its own unseen seed): the same
    final state (its seed aside) and the same totals as the play-out."""
    from engine import adjudicate

    for _ in range(2):
        out = adjudicate.replay({"game_id": game_id, **request}, actions)
        assert out["stopped"] is None, out["stopped"]
        assert unseeded(out["state"]) == unseeded(final)
        assert out["totals"] == totals
