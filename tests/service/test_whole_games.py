"""Whole games of every registered game through the real HTTP layer: move by move through
/v1/validate and at once through /v1/replay give identical states; every state the service
returns survives a JSON round trip; every legal action it lists is accepted."""
import json
import random

import pytest

from engine import registry
from service.app import create_app
from service.config import Settings

PRODUCT_GAMES = sorted(g.id for g in registry.all_games() if g.id not in ("toy", "crash"))


REFEREE_KEY = "whole-game-referee"
REFEREE = {"Authorization": f"Bearer {REFEREE_KEY}"}


def unbound(state: dict) -> dict:
    """The game's state without the service's binding (signature, meta): a replay deals a new
    game id, so only these differ from the move-by-move states."""
    return {k: v for k, v in state.items() if k not in ("signature", "meta")}


def seat_count(game_id: str) -> int:
    game = registry.get(game_id)
    return 4 if game.min_players <= 4 <= game.max_players else game.min_players


def play_through_validate(client, game_id: str, seed: str, max_steps: int = 400):
    players = [f"p{i}" for i in range(seat_count(game_id))]
    dealt = client.post(f"/v1/games/{game_id}/deal", json={"players": players, "seed": seed},
                        headers=REFEREE)  # a chosen seed is a referee act when states are signed
    assert dealt.status_code == 201
    out = dealt.get_json()
    state, rnd, actions, states = out["state"], random.Random(seed), [], [out["state"]]
    for _ in range(max_steps):
        if out["status"] == "finished":
            break
        legal = []
        for player in out["to_act"]:
            resp = client.post("/v1/legal-actions", json={"state": state, "player": player})
            assert resp.status_code == 200
            legal += resp.get_json()["actions"]
        assert legal, f"{out['to_act']} may act but have no legal action"
        action = rnd.choice(legal)
        resp = client.post("/v1/validate", json={"state": state, "action": action})
        out = resp.get_json()
        assert resp.status_code == 200 and out["valid"], (action, out.get("error"))
        state = out["state"]
        assert json.loads(json.dumps(state)) == state
        actions.append(action)
        states.append(state)
    return players, actions, states, out


@pytest.mark.parametrize("signed", [False, True])
@pytest.mark.parametrize("game_id", PRODUCT_GAMES)
def test_replay_and_move_by_move_validate_give_identical_states(game_id, signed):
    settings = Settings(metrics=False, state_secrets=("whole-game",) if signed else (),
                        referee_keys=(REFEREE_KEY,))
    client = create_app(settings).test_client()
    for seed in ("whole-1", "whole-2"):
        players, actions, states, last = play_through_validate(client, game_id, seed)
        assert len(actions) > 3
        resp = client.post("/v1/replay", json={"deal": {"game": game_id, "players": players, "seed": seed},
                                               "actions": actions}, headers=REFEREE)
        replay = resp.get_json()
        assert resp.status_code == 200 and replay["stopped"] is None
        assert unbound(replay["initial_state"]) == unbound(states[0])
        assert unbound(replay["state"]) == unbound(states[-1])
        if signed:
            assert replay["state"]["meta"]["move"] == states[-1]["meta"]["move"] == len(actions)
            assert replay["state"]["meta"]["provenance"] == "referee"
        else:
            assert replay["state"] == states[-1] and "meta" not in replay["state"]
        assert replay["status"] == last["status"]
        assert len(replay["steps"]) == len(actions)
        assert json.loads(json.dumps(replay)) == replay
        # the view of every seat is JSON too, and never contains the seed
        for player in players + [None]:
            view = client.post("/v1/view", json={"state": states[-1], "player": player}).get_json()["view"]
            assert "\"seed\"" not in json.dumps(view) and seed not in json.dumps(view)


def test_the_product_registers_man_first_through_every_endpoint():
    assert "man" in PRODUCT_GAMES


def state_validator():
    import yaml
    from openapi_schema_validator import OAS30Validator

    spec = yaml.safe_load(create_app(Settings(metrics=False)).extensions["card_referee"].api.spec.to_yaml())
    return OAS30Validator({"$ref": "#/components/schemas/State", "components": spec["components"]})


@pytest.mark.parametrize("game_id", PRODUCT_GAMES)
def test_every_state_fits_the_state_schema_the_spec_publishes(game_id):
    """A client generated from openapi.yaml can read every field of every state we return."""
    validator = state_validator()
    client = create_app(Settings(metrics=False, state_secrets=("schema",),
                                 referee_keys=(REFEREE_KEY,))).test_client()
    for seed in ("schema-1", "schema-2", "schema-3"):
        _, _, states, _ = play_through_validate(client, game_id, seed)
        for state in states:
            errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(state)]
            assert not errors, errors[:5]
    wrong = {**states[-1], "players": "p0"}
    assert list(validator.iter_errors(wrong))
