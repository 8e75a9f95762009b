"""The product's spec for tests that read it: generated from the code, or as committed, each built
and parsed once per test process (with libyaml: the pure-Python parser takes seconds over the
1 MB spec, and many tests read it). Tests read these, never change them."""
from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import yaml

SPEC_FILE = Path(__file__).resolve().parents[1] / "openapi.yaml"
# libyaml when PyYAML was built with it (the lock's wheels are), the pure-Python one otherwise
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse(text: str) -> Any:
    return yaml.load(text, Loader=_LOADER)


@cache
def generated_spec_text() -> str:
    """openapi.yaml as the code generates it now (the test-only toy game left out)."""
    from engine import registry
    from service.app import create_app
    from service.config import Settings

    registry.unregister("toy")  # the test-only game is never part of the product's spec
    return create_app(Settings(metrics=False)).extensions["card_referee"].api.spec.to_yaml()


@cache
def generated_spec() -> dict[str, Any]:
    return parse(generated_spec_text())


@cache
def committed_spec() -> dict[str, Any]:
    """openapi.yaml as committed (tests/service/test_openapi.py holds it equal to the generated)."""
    return parse(SPEC_FILE.read_text(encoding="utf-8"))
