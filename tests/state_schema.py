"""Check a state against the JSON schema its game publishes (Game.state_schema)."""
from __future__ import annotations

from functools import lru_cache

from openapi_schema_validator import OAS30Validator

from engine import registry


@lru_cache(maxsize=None)
def _validator(game_id: str) -> OAS30Validator:
    return OAS30Validator(dict(registry.get(game_id).state_schema))


def schema_errors(state: dict) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in _validator(state["game"]).iter_errors(state)]
