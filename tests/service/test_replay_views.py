"""POST /v1/replay with `views_for`: each step's view for a seat, the spectator or the referee,
under the policy of /v1/view in every trust mode (plain, signed, sealed): the referee's view
needs the referee key, a seat must be seated; under sealing the replay hands its caller every
seat's token (it deals a new game, as a deal does), and each view is the one /v1/view answers
for the sealed state the replay ends in."""
from __future__ import annotations

import pytest

from tests.service.conftest import REFEREE

DEAL = {"game": "daifugo", "players": ["ann", "bob", "cho", "dai"]}
SEAL_KEY = b"r" * 32


def _actions(client, n: int, headers: dict) -> tuple[dict, list[dict]]:
    """A seeded replay of `n` first legal actions (the referee's: a chosen seed), and them."""
    deal = {**DEAL, "seed": "scrub", "seed_salt": "0" * 32}
    actions: list[dict] = []
    for _ in range(n):
        out = client.post("/v1/replay", json={"deal": deal, "actions": actions},
                          headers=headers).get_json()
        if out["status"] == "finished":
            break
        player = out["to_act"][0]
        asked = {"game": "daifugo", "state": out["state"], "player": player}
        token = (out.get("seat_tokens") or {}).get(player)
        legal = client.post("/v1/legal-actions", json=asked, headers={
            **headers, **({"X-Seat-Token": token} if token else {})}).get_json()["actions"]
        actions.append({k: v for k, v in legal[0].items() if k != "game"})
    return deal, actions


@pytest.mark.parametrize("mode", ["plain", "signed", "sealed"])
def test_each_step_shows_the_viewer_what_the_view_endpoint_shows(make_client, mode):
    settings = {"plain": {}, "signed": {"state_secrets": ("replay-views",)},
                "sealed": {"seal_keys": (SEAL_KEY,)}}[mode]
    client = make_client(**settings)
    deal, actions = _actions(client, 6, REFEREE)
    for viewer in ("bob", None, "referee"):
        resp = client.post("/v1/replay", json={"deal": deal, "actions": actions,
                                                "views_for": viewer}, headers=REFEREE)
        assert resp.status_code == 200, resp.get_json()
        out = resp.get_json()
        assert len(out["steps"]) == len(actions) and all("view" in s for s in out["steps"])
        assert "initial_view" in out
        # the last step's view is /v1/view's of the state the replay answers
        token = (out.get("seat_tokens") or {}).get(viewer) if viewer else None
        seen = client.post("/v1/view", json={"game": "daifugo", "state": out["state"],
                                             "player": viewer},
                           headers={**REFEREE, **({"X-Seat-Token": token} if token else {})})
        assert seen.status_code == 200, seen.get_json()
        assert out["steps"][-1]["view"] == seen.get_json()["view"]
        hands = out["steps"][-1]["view"]["hands"]
        if viewer == "bob":
            assert hands["bob"] and all(hands[p] is None for p in hands if p != "bob")
        elif viewer is None:
            assert all(h is None for h in hands.values())


@pytest.mark.parametrize("mode", ["plain", "signed", "sealed"])
def test_the_referees_view_needs_the_referee_key_and_a_viewer_must_be_seated(make_client, mode):
    settings = {"plain": {}, "signed": {"state_secrets": ("replay-views",)},
                "sealed": {"seal_keys": (SEAL_KEY,)}}[mode]
    client = make_client(**settings)
    deal = dict(DEAL)  # a server-drawn seed: no referee act
    for viewer in ("referee", "zed"):
        resp = client.post("/v1/replay", json={"deal": deal, "actions": [], "views_for": viewer})
        assert resp.status_code == 422, resp.get_json()
        assert resp.get_json()["code"] == "player_unknown"
        assert "views_for" in resp.get_json()["errors"]
    as_referee = client.post("/v1/replay", json={"deal": deal, "actions": [],
                                                 "views_for": "referee"}, headers=REFEREE)
    assert as_referee.status_code == 200, as_referee.get_json()
    assert as_referee.get_json()["initial_view"]["viewer"] == "referee"
    spectator = client.post("/v1/replay", json={"deal": deal, "actions": [], "views_for": None})
    assert spectator.status_code == 200
    assert all(h is None for h in spectator.get_json()["initial_view"]["hands"].values())
    bad = client.post("/v1/replay", json={"deal": deal, "actions": [], "views_for": 3})
    assert bad.status_code == 422 and bad.get_json()["code"] == "request_invalid"
