"""Helpers for the JSON schemas (OpenAPI 3.0 dialect) of game states.

Each game publishes the exact shape of its encoded state (`Game.state_schema`); the service puts
it in the spec, so a client generated from openapi.yaml knows every field, and the tests check
every state the engine produces against it. The invariants a schema cannot say (every card
exactly once, whose turn it can be) stay with the game's decoder.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

CARD: dict[str, Any] = {"type": "string", "pattern": "^([SHDC]([2-9]|10|[AJQK])|BJ|RJ)$",
              "description": "a card, canonical: suit S H D C then rank; jokers BJ, RJ"}
CARDS: dict[str, Any] = {"type": "array", "items": CARD}
# What a client may type wherever a card is accepted (actions, deals, tables, lookups): the
# notation engine/cards.py parse_card reads, the same at every door: suit S H D C and rank A
# 2-10 J Q K (T for 10), jokers BJ RJ, in either case, blanks around ignored. Answers and states
# are always canonical (CARD), so only what comes in is written this way.
CARD_INPUT_PATTERN = r"^\s*([SHDCshdc]([2-9]|10|[TtAaJjQqKk])|[BbRr][Jj])\s*$"
CARD_INPUT: dict[str, Any] = {"type": "string", "pattern": CARD_INPUT_PATTERN,
                    "description": "a card: suit S H D C then rank A 2-10 J Q K (T for 10); jokers "
                                   "BJ, RJ; either case (S10, s10, ST, h10, HT, dt, bj); answered "
                                   "canonical (S10, H10, D10, BJ)"}
CARDS_INPUT: dict[str, Any] = {"type": "array", "items": CARD_INPUT}
INT: dict[str, Any] = {"type": "integer"}
BOOL: dict[str, Any] = {"type": "boolean"}
STR: dict[str, Any] = {"type": "string"}


def nullable(schema: Mapping[str, Any]) -> dict[str, Any]:
    out = {**schema, "nullable": True}
    if "enum" in out and None not in out["enum"]:
        out["enum"] = [*out["enum"], None]  # OpenAPI 3.0.3: nullable does not widen an enum
    return out


def enum(*values: Any) -> dict[str, Any]:
    return {"type": "integer" if all(isinstance(v, int) for v in values) else "string",
            "enum": list(values)}


def array(items: Mapping[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "array", "items": dict(items), **extra}


def by_key(values: Mapping[str, Any]) -> dict[str, Any]:
    """An object keyed by player (or team) id."""
    return {"type": "object", "additionalProperties": dict(values)}


def obj(properties: Mapping[str, Any], optional: Sequence[str] = (), **extra: Any) -> dict[str, Any]:
    """An object with exactly these properties, all required but `optional`."""
    return {"type": "object", "properties": {k: dict(v) for k, v in properties.items()},
            "required": [k for k in properties if k not in optional],
            "additionalProperties": False, **extra}


def options_schema(options: Sequence[Any]) -> dict[str, Any]:
    """The resolved options every state carries: one property per declared Option."""
    return obj({o.name: o.field.json_schema() for o in options})


def common(game_id: str, version: int, options: Sequence[Any], phases: Sequence[str]) -> dict[str, Any]:
    """The top-level fields every state has (docs/integrating.md "Game states": game, version, options, players, phase,
    status, seed)."""
    return {
        "game": enum(game_id),
        "version": enum(version),
        "options": options_schema(options),
        "players": array(STR, minItems=1, description="player ids in seat order"),
        "seed": {**STR, "description": "the deal's seed; with seed_salt, what the deal's commitment was made of"},
        "phase": enum(*phases),
        "status": enum("in_progress", "finished"),
    }
