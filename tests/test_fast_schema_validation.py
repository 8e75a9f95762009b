"""The tests validate answers against the spec with jsonschema-rs (tests/spec.py FastValidator),
the spec converted from OpenAPI 3.0 to JSON Schema: it must judge exactly as the reference
OpenAPI validator (openapi_schema_validator.OAS30Validator) does, on real answers and on answers
broken in the ways a faulty service would break them."""
from __future__ import annotations

import copy
import random

import pytest
from openapi_schema_validator import OAS30Validator

from engine import registry
from service.app import create_app
from service.config import Settings
from tests.spec import committed_spec, component_validator, json_schema
from tests.state_schema import null_admitted

PRODUCT_GAMES = sorted(g.id for g in registry.all_games() if g.id not in ("toy", "crash"))


def _breakages(rnd: random.Random, answer: dict) -> list[dict]:
    """The answer, and copies with one leaf or object changed: a wrong type, a null, an
    unknown key, a key removed."""
    out = [answer]
    paths: list[tuple] = []

    def walk(node, path):
        if isinstance(node, dict):
            paths.append(path)
            for key, value in node.items():
                walk(value, (*path, key))
        elif isinstance(node, list):
            for index, value in enumerate(node[:3]):
                walk(value, (*path, index))
        else:
            paths.append(path)
    walk(answer, ())
    for path in rnd.sample(paths, k=min(15, len(paths))):
        for change in ("wrong", "null", "extra", "drop"):
            broken = copy.deepcopy(answer)
            parent = broken
            for key in path[:-1]:
                parent = parent[key]
            if not path:
                continue
            leaf = path[-1]
            if change == "wrong":
                parent[leaf] = [] if isinstance(parent[leaf], str) else "x"
            elif change == "null":
                parent[leaf] = None
            elif change == "extra" and isinstance(parent[leaf], dict):
                parent[leaf]["not_declared"] = 1
            elif change == "drop" and isinstance(parent, dict):
                del parent[leaf]
            out.append(broken)
    return out


@pytest.mark.parametrize("game_id", PRODUCT_GAMES)
def test_fast_validation_judges_as_the_openapi_validator_does(game_id):
    components = null_admitted(committed_spec()["components"])
    client = create_app(Settings(metrics=False)).test_client()
    game = registry.get(game_id)
    players = [f"p{i}" for i in range(4 if game.min_players <= 4 <= game.max_players
                                      else game.min_players)]
    dealt = client.post(f"/v1/games/{game_id}/deal", json={"players": players, "seed": "fast"})
    answers = {"DealResponse": dealt.get_json()}
    seat = dealt.get_json()["to_act"][0]
    state = dealt.get_json()["state"]
    listed = client.post("/v1/legal-actions", json={"state": state, "player": seat}).get_json()
    # a few actions are enough to judge by (the reference validator is slow on thousands)
    answers["LegalActionsResponse"] = {**listed, "actions": listed["actions"][:6]}
    answers["ViewResponse"] = client.post("/v1/view", json={"state": state,
                                                            "player": seat}).get_json()
    rnd = random.Random(game_id)
    judged = 0
    for name, answer in answers.items():
        fast = component_validator(components, name)
        reference = OAS30Validator({"$ref": f"#/components/schemas/{name}",
                                    "components": components})
        for candidate in _breakages(rnd, answer):
            assert fast.is_valid(candidate) == reference.is_valid(candidate), (name, candidate)
            judged += 1
    assert judged > 40


def test_nullable_admits_null_only_beside_a_type_and_properties_named_like_keywords_stay():
    schema = {"type": "object", "properties": {
        "example": {"type": "string", "nullable": True},
        "plain": {"type": "integer"}}, "additionalProperties": False}
    converted = json_schema(schema)
    assert converted["properties"]["example"]["type"] == ["string", "null"]
    assert converted["properties"]["plain"] == {"type": "integer"}
