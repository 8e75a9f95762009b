"""Check a state against the JSON schema its game publishes (Game.state_schema)."""
from __future__ import annotations

from functools import lru_cache

from engine import registry
from tests.spec import FastValidator


@lru_cache(maxsize=None)
def _validator(game_id: str) -> FastValidator:
    return FastValidator(dict(registry.get(game_id).state_schema))


def schema_errors(state: dict) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in _validator(state["game"]).iter_errors(state)]


def null_admitted(node):
    """An object-or-null answer field is published `nullable` beside its oneOf; OAS 3.0.3
    validators ignore `nullable` without a `type`, so read it as "one of these, or null"."""
    if isinstance(node, list):
        return [null_admitted(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {k: null_admitted(v) for k, v in node.items()}
    if node.get("nullable") is True and "oneOf" in node and "type" not in node:
        union = node.pop("oneOf")
        node["anyOf"] = [{"oneOf": union}, {"enum": [None]}]
    return node
