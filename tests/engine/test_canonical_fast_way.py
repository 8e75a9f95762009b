"""The canonical form (engine/records.py canonical_bytes) takes a fast way (orjson's sorted
dump, the values' types checked depth by depth) when it can vouch for the bytes, and the walk
in Python otherwise. The fast way writes exactly what the walk writes, and never writes what
the walk refuses: a fraction, NaN, an integer past ±(2^53 − 1), a lone surrogate, a key that is
no string, a tuple or other non-JSON value, nesting past MAX_DEPTH, and keys from U+E000 up
(where code-point order and JCS's UTF-16 order part) are left to the walk."""
from __future__ import annotations

import enum
import json
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings, strategies as st

from engine import records
from engine.fields import MAX_SAFE_INT
from tests.sizing import examples

ROOT = Path(__file__).resolve().parents[2]


class Colour(enum.IntEnum):
    RED = 1


def walked(body: dict) -> bytes | tuple[str, str]:
    """What the walk in Python writes, or the fault it names."""
    try:
        return orjson.dumps(records._canonical(body))
    except records.InvalidRecord as err:
        return ("refused", err.message, err.path)


def answered(body: dict) -> bytes | tuple[str, str]:
    try:
        return records.canonical_bytes(body)
    except records.InvalidRecord as err:
        return ("refused", err.message, err.path)


# every character class that matters: ASCII, the BMP below and from U+E000, supplementary
# planes, lone surrogates
TEXT = st.text(st.characters(codec=None, categories=None, exclude_characters=()), max_size=6) \
    | st.sampled_from(["", "a", "é", "日本", "\ue000", "\uffff", "\U0001f600", "\ud800", "b\udfff"])
NUMBERS = st.integers(-MAX_SAFE_INT - 2, MAX_SAFE_INT + 2) | st.sampled_from(
    [0, -MAX_SAFE_INT, MAX_SAFE_INT, MAX_SAFE_INT + 1, -MAX_SAFE_INT - 1, 2 ** 64, -(2 ** 70)])
SCALARS = (st.none() | st.booleans() | NUMBERS | TEXT | st.floats(allow_nan=True)
           | st.sampled_from([Colour.RED, (1, 2), b"x", 1.0]))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(TEXT | st.sampled_from([1, None]), inner, max_size=4)
                      | st.lists(inner, max_size=2).map(tuple), max_leaves=20)


@settings(max_examples=examples(300), deadline=None)
@given(body=st.dictionaries(TEXT, VALUES, max_size=5))
def test_the_fast_way_writes_what_the_walk_writes_or_leaves_it_to_the_walk(body):
    fast = records._fast_canonical(body)
    if fast is not None:
        assert fast == walked(body)
    assert answered(body) == walked(body)


@pytest.mark.parametrize("depth", range(records.MAX_DEPTH - 3, records.MAX_DEPTH + 3))
@pytest.mark.parametrize("inner", [1, [], {}, "x"])
def test_nesting_at_the_bound_is_written_or_refused_as_the_walk_does(depth, inner):
    value = inner
    for k in range(depth):
        value = [value] if k % 2 else {"k": value}
    body = {"v": value}
    assert answered(body) == walked(body)


def test_a_plain_document_takes_the_fast_way():
    """The fast way is taken for what the engine writes (an example match and event): a
    regression to the walk for every document would pass every other test here."""
    for path in [ROOT / "examples" / "daifugo.json",
                 ROOT / "examples" / "events" / "daifugo-20-players.json"]:
        document = json.loads(path.read_bytes())
        body = {k: v for k, v in document.items() if k != "digest"}
        assert records._fast_canonical(body) is not None, path
        assert records._fast_canonical(body) == walked(body)
