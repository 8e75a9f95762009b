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


# ---------------------------------------------------------------- validating answers, fast

# OpenAPI 3.0 keywords that are no JSON Schema assertion: dropped before compiling (openapi-
# schema-validator's OAS30Validator ignores them too when it validates).
_ANNOTATIONS = frozenset({"nullable", "discriminator", "example", "xml", "externalDocs",
                          "deprecated", "readOnly", "writeOnly"})
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf")


def json_schema(node: Any) -> Any:
    """An OpenAPI 3.0 schema as the JSON Schema (draft 4) that asserts the same: `nullable` with
    a `type` admits null (as OAS30Validator reads it; without a type it says nothing — see
    tests/state_schema.null_admitted), and the OpenAPI-only annotations are dropped. Walks only
    schema positions, so a property *named* like a keyword ("example") is kept."""
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _ANNOTATIONS or key.startswith("x-"):
            continue
        if key == "properties":
            out[key] = {name: json_schema(sub) for name, sub in value.items()}
        elif key in _SCHEMA_LISTS:
            out[key] = [json_schema(sub) for sub in value]
        elif key in ("items", "not") or (key == "additionalProperties" and isinstance(value, dict)):
            out[key] = json_schema(value)
        else:
            out[key] = value
    if node.get("nullable") is True and isinstance(out.get("type"), str):
        out["type"] = [out["type"], "null"]
    return out


class _Error:
    """A failed assertion as the tests print it (jsonschema's `absolute_path` and `message`)."""

    def __init__(self, error: Any) -> None:
        self.absolute_path = list(error.instance_path)
        self.message = error.message


class FastValidator:
    """One schema, compiled by jsonschema-rs (Rust; the tests validate every answer of whole
    games, and the pure-Python validator was most of their time). Same `iter_errors` use as
    openapi_schema_validator.OAS30Validator."""

    def __init__(self, schema: dict[str, Any], converted: bool = False) -> None:
        import jsonschema_rs

        self._compiled = jsonschema_rs.Draft4Validator(
            schema if converted else json_schema(schema), validate_formats=False)

    def iter_errors(self, instance: Any) -> Any:
        return (_Error(e) for e in self._compiled.iter_errors(instance))

    def is_valid(self, instance: Any) -> bool:
        return bool(self._compiled.is_valid(instance))


_converted: dict[int, tuple[Any, dict[str, Any]]] = {}
_compiled: dict[tuple[int, str], FastValidator] = {}


def component_validator(components: dict[str, Any], name: str) -> FastValidator:
    """The spec's component schema `name`, its references resolved in `components` (converted
    once per components object)."""
    held = _converted.get(id(components))
    if held is None or held[0] is not components:
        held = _converted[id(components)] = (components, {"schemas": {
            key: json_schema(schema) for key, schema in components["schemas"].items()}})
        for key in [k for k in _compiled if k[0] == id(components)]:
            del _compiled[key]  # another object now lives at that id
    found = _compiled.get((id(components), name))
    if found is None:
        found = _compiled[(id(components), name)] = FastValidator(
            {"$ref": f"#/components/schemas/{name}", "components": held[1]}, converted=True)
    return found
