"""The spec's request and response examples: real answers of this service, kept in
examples.json (by operationId) so building the spec costs nothing.

tools/make_spec_examples.py makes them by calling the service (unsigned, a chosen seed: every
answer is deterministic); tests/service/test_openapi.py posts each request example to the
service and checks that its answer is the response example, so they never drift from the code.
Refresh with `python -m tools.make_spec_examples` after a change to a game's rules or its state.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

FILE = Path(__file__).with_name("examples.json")


@lru_cache(maxsize=1)
def load() -> dict:
    """operationId -> {"request": body (absent for GETs), "response": body}."""
    if not FILE.exists():
        return {}
    return json.loads(FILE.read_text(encoding="utf-8"))


def request(op: str):
    return load().get(op, {}).get("request")


def response(op: str):
    return load().get(op, {}).get("response")
