"""Duplicate keys in a JSON text: refused, never taken last-one-wins.

JSON parsers (orjson, the stdlib's) keep the last value of a key an object names twice, so two
different texts read as one value: two different match records would share one digest, and
what a reviewer reads in a body (the first `"seed"`) need not be what the service acted on.
Every body and every record file is refused instead: 422 `json_duplicate_key` naming the key
and where it is.

The check costs next to nothing when there is no duplicate (the hot path, /v1/validate): the
parsed value is written back (orjson, in C: ~2 µs for a 2 KB state); a compact body, as orjson
and JSON.stringify write one, comes back byte for byte when no key was dropped. Any other body
(spaced, other escapes): a key's separator is the only colon outside a string, and a parser
that drops a repeated key drops its colon, so the colons of the body and of the value written
back differ exactly when a key was dropped -- unless the body spells a colon inside a string as
the escape \\u003a (written back as a colon), or the value is nested too deep to be written
back. Only then, or when the counts differ, does `find_duplicate_key` scan the text (a regular
expression and a stack, linear in the body) to name the key.
"""
from __future__ import annotations

import json
import re
from typing import Any

import orjson

from engine.errors import InputError

# A string (with its escapes) or a structural character; numbers, literals and white space
# between them are skipped by finditer.
_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"|[{}\[\],:]', re.S)
_ESCAPED_COLON = re.compile(rb"\\u003[aA]")


class DuplicateKey(InputError):
    """A JSON object naming one key twice (HTTP 422)."""
    code = "json_duplicate_key"


def _child(path: str, key: str) -> str:
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", key):
        return f"{path}.{key}" if path else key
    return f"{path}[{json.dumps(key, ensure_ascii=False)}]"


def find_duplicate_key(data: bytes | str) -> tuple[str, str] | None:
    """(path, key) of the first key an object in the JSON text `data` names twice (the path
    ends with that key: `deals[0].deal.seed`), or None. Keys are compared as decoded, so
    `"a"` and `"\\u0061"` are one key. `data` must be well-formed JSON."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    # One frame per open container: [is_object, path, keys seen (object) or index (array),
    # the pending key (object) or None]; `expect_key` while an object waits for a key.
    stack: list[list[Any]] = []
    expect_key = False
    for match in _TOKENS.finditer(data):
        token = match.group()
        first = token[0]
        if first == 0x22:  # '"'
            if expect_key:
                frame = stack[-1]
                key = json.loads(token)
                if key in frame[2]:
                    return _child(frame[1], key), key
                frame[2].add(key)
                frame[3] = key
                expect_key = False
            continue
        if first in (0x7B, 0x5B):  # '{' '['
            if stack:
                parent = stack[-1]
                path = (_child(parent[1], parent[3]) if parent[0]
                        else f"{parent[1]}[{parent[2]}]")
            else:
                path = ""
            if first == 0x7B:
                stack.append([True, path, set(), None])
                expect_key = True
            else:
                stack.append([False, path, 0, None])
        elif first in (0x7D, 0x5D):  # '}' ']'
            stack.pop()
            expect_key = False
        elif first == 0x2C:  # ','
            top = stack[-1] if stack else None
            if top is not None:
                if top[0]:
                    expect_key = True
                else:
                    top[2] += 1
    return None


def refuse_duplicate_keys(data: bytes, value: Any) -> None:
    """Raise DuplicateKey when the JSON text `data` (already parsed into `value`) names a key
    twice in one object. A few µs for a 3 KB state when it does not (see the module's doc)."""
    if b":" not in data:
        return  # no object with a key at all
    try:
        written = orjson.dumps(value)
    except orjson.JSONEncodeError:  # nested deeper than orjson writes (254): scan the text
        written = None
    if written is not None:
        if written == data:
            return  # a compact body as orjson or JSON.stringify write it: nothing was dropped
        if (data.count(b":") == written.count(b":")
                and (b"\\" not in data or not _ESCAPED_COLON.search(data))):
            return
    found = find_duplicate_key(data)
    if found is not None:
        path, key = found
        raise DuplicateKey(f"duplicate key {key!r}: a JSON object names each key once",
                           path)
