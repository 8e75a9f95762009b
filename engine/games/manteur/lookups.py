"""Manteur's lookups (Game.lookups): the questions a client may ask besides adjudication,
each with its request, response and pure handler."""
from __future__ import annotations

from typing import Any

from engine.fields import Field
from engine.state import openapi_schema
from engine.values import Lookup

from .actions import DECLARATION_INPUT
from .declarations import DeclarationRules
from .options import OPTIONS
from .state import ManteurProof
from .truth import lookup_check, lookup_compare

_OPTIONS_FIELD = Field("object", "the declaration options of B-a, B-b, B-c, B-f (deck, jokers, "
                       "flush_above_full_house, allow_straights, allow_flushes, "
                       "min_declaration, ace_low_straight); defaults when left out",
                       required=False, schema={
                           "type": "object", "additionalProperties": False,
                           "properties": {o.name: o.json_schema() for o in OPTIONS
                                          if o.name in DeclarationRules.OPTION_ROWS}})

def _check(request: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    """The check lookup's handler: a truth and a proof, nothing to word (`lang`); a malformed
    request's 422 speaks the caller's language itself (DeclarationError's `ja`)."""
    return lookup_check(request)


def _compare(request: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    """The compare lookup's handler: an order, nothing to word (`lang`)."""
    return lookup_compare(request)


CHECK = Lookup(
    name="check",
    summary="Whether a hand contains a declaration (B11), with the proof a genuine declarer "
            "shows (B12).",
    summary_ja="手札に宣言の役が含まれるかどうか(B11)と、正しい宣言者が示す証拠(B12)。",
    request={"hand": Field("cards", "at most five cards, each once"),
             "declaration": Field("object", "{type, ranks?, kickers?} (B5, B10)",
                                  schema=DECLARATION_INPUT),
             "options": _OPTIONS_FIELD},
    response={"truthful": Field("bool", "the hand contains the declaration"),
              "proof": Field("object", "{cards, jokers: {joker: card it stands for}}; null "
                             "for a lie", nullable=True, schema=openapi_schema(ManteurProof))},
    handler=_check,
    # Memoized in the engine (truth.py, per sorted hand): a few µs warm, well under a
    # shared-cache round trip.
    cacheable=False)

COMPARE = Lookup(
    name="compare",
    summary="The order of two declarations (B9): 1 when a is higher, -1 when b is, 0 when "
            "they are the same.",
    summary_ja="二つの宣言の強さの順(B9): a が強ければ1、b が強ければ-1、同じなら0。",
    request={"a": Field("object", "a declaration {type, ranks?, kickers?}",
                        schema=DECLARATION_INPUT),
             "b": Field("object", "a declaration {type, ranks?, kickers?}",
                        schema=DECLARATION_INPUT),
             "options": _OPTIONS_FIELD},
    response={"order": Field("int", "1, -1 or 0", minimum=-1, maximum=1)},
    handler=_compare,
    cacheable=False)
