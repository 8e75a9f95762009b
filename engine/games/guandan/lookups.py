"""Guandan's lookups (Game.lookups): the questions a client may ask besides adjudication,
each with its request, response and pure handler."""
from __future__ import annotations

from typing import Any, cast

from engine.errors import InputError
from engine.fields import Field
from engine.game import Game
from engine.state import openapi_schema
from engine.values import Lookup

from .actions import READING_INPUT
from .combos import classify, parse_level, reading_from_json
from .options import OPTIONS, PRESETS, combo_rules
from .state import LEVELS, GuandanReading


class _Options:
    """Guandan's options and presets, resolved exactly as GuandanGame resolves them
    (Game.resolve_options), without the game itself (engine/games/guandan/game.py imports this
    module)."""

    options = OPTIONS
    presets = PRESETS
    option_map = Game.option_map
    resolve_options = Game.resolve_options


# Typed as the game: Game.resolve_options (and option_map, which it calls) read only
# `options`, `presets` and `option_map`, all of which _Options has.
GAME_OPTIONS = cast("Game[Any]", _Options())


# A reading the classify lookup answers: GuandanReading, with `beats` when a table was given.
CLASSIFIED_READING = openapi_schema(GuandanReading)
CLASSIFIED_READING["properties"]["beats"] = {
    "type": "boolean", "description": "given a table: whether this reading beats it"}


def lookup_classify(body: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    """Every reading of exactly `cards` at `level` (§4–§6, W-11) and, given a table reading,
    whether each beats it (C-8, B-1 … B-5). The readings are data: nothing to word (`lang`)."""
    try:
        level = parse_level(body["level"])
    except ValueError as err:
        raise InputError(str(err), "body.level", "request_invalid") from None
    table = body.get("table")
    if table is not None:
        try:
            table = reading_from_json(table)
        except ValueError as err:
            raise InputError(str(err), "body.table", "request_invalid") from None
    options = GAME_OPTIONS.resolve_options({"preset": body.get("preset", "seed")})
    return classify(body["cards"], level, combo_rules(options), table)


CLASSIFY = Lookup(
    name="classify",
    summary="Every reading of a set of cards at a level (W-11) and, given the table's reading, "
            "whether each beats it.",
    summary_ja="あるレベルでのカードの組のすべての読み方(W-11)。場の読み方を渡せば、"
               "各読み方がそれに勝つかどうかも答える。",
    request={"cards": Field("cards", "the cards, exactly"),
             "level": Field("enum", "the level rank", choices=LEVELS),
             "preset": Field("enum", "the rules preset (combinations: D9–D13)", required=False,
                             choices=tuple(PRESETS)),
             "table": Field("object", "the reading on the table {type, rank, length?}",
                            required=False, schema=READING_INPUT)},
    response={"readings": Field("object_list", "a list of readings {type, rank, length, wilds, "
                                "beats?}", schema=CLASSIFIED_READING),
              "beats": Field("bool", "given a table: whether any reading beats it",
                             required=False)},
    handler=lookup_classify,
    # Reading a 6-card set with two wilds tries 91 substitutions (~0.3–1 ms): worth the cache.
    cacheable=True)
