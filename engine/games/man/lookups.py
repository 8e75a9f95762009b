"""Man's lookups (Game.lookups): the questions a client may ask besides adjudication,
each with its request, response and pure handler."""
from __future__ import annotations

from engine.fields import Field
from engine.values import Lookup

from .numbers import lookup_man_numbers

MAN_NUMBERS = Lookup(
    name="man-numbers",
    summary="Whether a hand is in reach and which numbers it can man, with how (rule 4).",
    summary_ja="手札がリーチかどうかと、まんできる数字とその作り方(ルール4)。",
    request={"hand": Field("cards", "the hand")},
    response={"reach": Field("bool", "plain total (A=1) is 13 or less"),
              "total": Field("int", "plain total, A=1"),
              "numbers": Field("int_list", "sorted list of the integers 1-13 the hand makes"),
              "derivations": Field("str_list_map",
                                   "number (as a string) -> the ways it is made, in the "
                                   "language asked (Accept-Language)")},
    handler=lookup_man_numbers,
    # Cached, but in the engine (numbers.py memoizes by hand values, per worker): computing it
    # cold takes ~40 µs, a Redis round trip 80–250 µs here, so the shared cache would only slow
    # it down (docs/performance.md: cache in Redis only what costs more than a round trip).
    cacheable=False)
