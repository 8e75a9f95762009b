"""Whole games of every registered game through the real HTTP layer: move by move through
/v1/validate and at once through /v1/replay give identical states; every state the service
returns survives a JSON round trip; every legal action it lists is accepted."""
import json
import random

import pytest

from engine import registry
from service.app import create_app
from service.config import Settings
from tests.spec import FastValidator, component_validator, generated_spec
from tests.state_schema import null_admitted

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
        # the recorded deal's salt too: the replay reproduces its commitment and its states
        salt = unbound(states[0])["seed_salt"]
        resp = client.post("/v1/replay", json={"deal": {"game": game_id, "players": players, "seed": seed,
                                                        "seed_salt": salt},
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
    return component_validator(generated_spec()["components"], "State")


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


def spec_validators():
    spec = generated_spec()
    components = null_admitted(spec["components"])

    def schema(name: str) -> FastValidator:
        assert name in spec["components"]["schemas"], f"the spec has no {name}"
        return component_validator(components, name)
    return schema, set(spec["components"]["schemas"])


# Answer fields that are an object or null, each published `nullable` beside its oneOf: what
# generated clients read as `X | null`. OAS 3.0.3 validators ignore `nullable` without a
# `type`, so the validators here read such a node as "one of these, or null"
# (tests/state_schema.null_admitted); test_null_objects_are_published_nullable checks the
# spec's flags.
NULLABLE_OBJECTS = {"ValidateAccepted": ("next_match",),
                    "ReplayResponse": ("next_match", "stopped"),
                    "RecordCheckResponse": ("discrepancy",)}


def _errors(validator, value) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in validator.iter_errors(value)][:5]


def _other_cards(rnd: random.Random, action: dict, state: dict) -> dict | None:
    """`action` with its cards swapped for other cards of the deal (a signed state's hands
    are still visible to the test), or None when it names no cards."""
    hands = state.get("hands")
    pool = (sorted({c for h in hands.values() if isinstance(h, list) for c in h})
            if isinstance(hands, dict) else [])
    if not pool:
        return None
    if isinstance(action.get("cards"), list) and action["cards"]:
        return {**action, "cards": rnd.sample(pool, k=min(len(pool), len(action["cards"])))}
    if isinstance(action.get("card"), str):
        return {**action, "card": rnd.choice(pool)}
    return None


def test_null_objects_are_published_nullable():

    spec = generated_spec()
    for answer, fields in NULLABLE_OBJECTS.items():
        for name in fields:
            declared = spec["components"]["schemas"][answer]["properties"][name]
            assert declared["nullable"] is True and "oneOf" in declared, (answer, name)
            assert all("$ref" in branch for branch in declared["oneOf"]), (answer, name)


@pytest.mark.parametrize("signed", [False, True])
@pytest.mark.parametrize("game_id", PRODUCT_GAMES)
def test_every_answer_of_whole_games_fits_the_typed_spec(game_id, signed):
    """Every answer of whole games (deal, legal actions, validate, refusals, replay) fits its
    response schema; each event fits its own game's `<Game><Type>Event`, each next_match its
    game's `<Game>MatchSummary`, and passed on as the next deal's `match` it is taken."""
    from service.schemas import pascal

    schema, published = spec_validators()
    prefix = pascal(game_id)
    event_schemas = {e.name: schema(f"{prefix}{pascal(e.name)}Event")
                     for e in registry.get(game_id).events}

    def refusal_schema(code: str):
        """The refusal's own variant: the game's `<Game><Code>Refusal`, or an engine-wide one."""
        game_wide = f"{prefix}{pascal(code)}Refusal"
        return schema(game_wide if game_wide in published else f"{pascal(code)}Refusal")

    settings = Settings(metrics=False, state_secrets=("typed",) if signed else (),
                        referee_keys=(REFEREE_KEY,))
    client = create_app(settings).test_client()
    players = [f"p{i}" for i in range(seat_count(game_id))]
    deal_request = {"players": players, "seed": f"typed-{game_id}"}
    assert not _errors(schema(f"{prefix}DealRequest"), deal_request)
    dealt = client.post(f"/v1/games/{game_id}/deal", json=deal_request, headers=REFEREE)
    assert dealt.status_code == 201 and not _errors(schema("DealResponse"), dealt.get_json())
    out = dealt.get_json()
    state, rnd, actions, refusals, events = out["state"], random.Random(game_id), [], 0, set()
    for _ in range(400):
        if out["status"] == "finished":
            break
        legal = []
        for player in out["to_act"]:
            answer = client.post("/v1/legal-actions", json={"state": state, "player": player})
            assert not _errors(schema("LegalActionsResponse"), answer.get_json())
            legal += answer.get_json()["actions"]
        action = rnd.choice(legal)
        others = [p for p in players if p not in out["to_act"]]
        if others and rnd.random() < 0.2:  # a seat out of turn: a refusal, with its details
            answer = client.post("/v1/validate", json={
                "state": state, "action": {**action, "player": rnd.choice(others)}})
            if answer.status_code == 200:
                assert answer.get_json()["valid"] is False
                assert not _errors(schema("ValidateRefused"), answer.get_json())
                assert _errors(schema("ValidateAccepted"), answer.get_json())  # one shape only
                error = answer.get_json()["error"]
                assert not _errors(refusal_schema(error["code"]), error), error
                refusals += 1
        if rnd.random() < 0.2:  # the same seat, other cards: a refusal of the game's rules
            wrong = _other_cards(rnd, action, state)
            if wrong is not None:
                answer = client.post("/v1/validate", json={"state": state, "action": wrong})
                if answer.status_code == 200 and not answer.get_json()["valid"]:
                    error = answer.get_json()["error"]
                    assert not _errors(schema("ValidateRefused"), answer.get_json())
                    assert not _errors(refusal_schema(error["code"]), error), error
                    refusals += 1
        answer = client.post("/v1/validate", json={"state": state, "action": action})
        out = answer.get_json()
        assert out["valid"], out
        assert not _errors(schema("ValidateAccepted"), out), out
        assert _errors(schema("ValidateRefused"), out)  # one shape only: a client narrows on valid
        if len(actions) % 7 == 0:  # each seat's and the spectator's view, as the spec types it
            for seat in [*players, None]:
                seen = client.post("/v1/view", json={"state": out["state"], "player": seat})
                assert seen.status_code == 200
                assert not _errors(schema("ViewResponse"), seen.get_json())
                assert not _errors(schema(f"{prefix}View"), seen.get_json()["view"])
        for event in out["events"]:
            assert not _errors(event_schemas[event["type"]], event), event
            events.add(event["type"])
        state = out["state"]
        actions.append(action)
    assert out["status"] == "finished" and events
    assert refusals or len(players) == len(out["to_act"])
    replay_request = {"deal": {"game": game_id, **deal_request}, "actions": actions}
    assert not _errors(schema("ReplayRequest"), replay_request)
    replayed = client.post("/v1/replay", json=replay_request, headers=REFEREE)
    assert replayed.status_code == 200 and not _errors(schema("ReplayResponse"), replayed.get_json())
    summary = out.get("next_match")
    assert (summary is not None) == (f"{prefix}MatchSummary" in published)
    if summary is not None:
        assert not _errors(schema(f"{prefix}MatchSummary"), summary)
        assert set(summary) - {"signature", "lineage"} == set(registry.get(game_id).match.fields)
        # the summary of a whole game is the next deal's match: anyone may pass it on signed
        following = {"players": players, "match": summary}
        assert not _errors(schema(f"{prefix}DealRequest"), following)
        again = client.post(f"/v1/games/{game_id}/deal", json=following)
        if "match_finished" in events:  # a match that is over deals no more
            assert again.status_code == 422 and again.get_json()["code"] == "deal_invalid"
        else:
            assert again.status_code == 201, (again.get_json(), summary)
