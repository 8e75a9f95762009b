"""Defaults of what a client sends, published so generators do not read them as "required".

A JSON schema `default` says what the service assumes when a field is omitted, but generators
read it otherwise: openapi-typescript 7 (unless run with `--default-non-nullable false`) makes
every property with a `default` required, so a deal's `options: {preset: "seed"}` failed to
compile for the 30 options it left out; openapi-python-client gives the model attribute the
default and then always sends it, which overrides what a preset would have set. So every schema
a request can reach (its body, its parameters, and every component those name, transitively)
carries its defaults as `x-default` and as "Default: `x`" at the end of its description, where
a reader (and Swagger UI) finds them; schemas only answers reach keep `default`, which tells a
generator the service always sends the field.
"""
from __future__ import annotations

import json
from typing import Any, Iterator, Mapping

REF_PREFIX = "#/components/schemas/"
# keywords whose value is one schema, or a list of schemas (OpenAPI 3.0)
_ONE_SCHEMA = ("items", "additionalProperties", "not")
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf")


def _subschemas(node: Mapping[str, Any]) -> Iterator[dict]:
    for key in _ONE_SCHEMA:
        value = node.get(key)
        if isinstance(value, dict):
            yield value
    for key in _SCHEMA_LISTS:
        yield from (v for v in node.get(key) or () if isinstance(v, dict))
    for value in (node.get("properties") or {}).values():
        if isinstance(value, dict):
            yield value


def _refs(node: Mapping[str, Any]) -> Iterator[str]:
    """Names of the components a schema refers to, at any depth."""
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith(REF_PREFIX):
        yield ref[len(REF_PREFIX):]
    for sub in _subschemas(node):
        yield from _refs(sub)


def _request_schemas(paths: Mapping[str, Any]) -> Iterator[dict]:
    """The schemas of every request body and parameter of every operation."""
    for ops in paths.values():
        for op in ops.values():
            if not isinstance(op, dict):
                continue
            for content in (op.get("requestBody") or {}).get("content", {}).values():
                if isinstance(content.get("schema"), dict):
                    yield content["schema"]
            for parameter in [*op.get("parameters", ()), *ops.get("parameters", ())]:
                if isinstance(parameter, dict) and isinstance(parameter.get("schema"), dict):
                    yield parameter["schema"]


def request_side(paths: Mapping[str, Any], components: Mapping[str, Any]) -> set[str]:
    """The components a request can reach."""
    seen: set[str] = set()
    todo = [name for schema in _request_schemas(paths) for name in _refs(schema)]
    while todo:
        name = todo.pop()
        if name in seen or name not in components:
            continue
        seen.add(name)
        todo.extend(_refs(components[name]))
    return seen


def _said(value: Any) -> str:
    return value if isinstance(value, str) and value else json.dumps(value, ensure_ascii=False)


def as_extension(node: dict) -> None:
    """Move every `default` in this schema (at any depth) to `x-default` and its description."""
    if "default" in node:
        value = node.pop("default")
        node["x-default"] = value
        told = node.get("description", "").rstrip()
        node["description"] = f"{told}{' ' if told else ''}Default: `{_said(value)}`."
    for sub in _subschemas(node):
        as_extension(sub)


def publish_request_defaults(paths: Mapping[str, Any], components: dict[str, Any]) -> None:
    """Rewrite, in place, the defaults of every request body, parameter and component a
    request reaches (the module's docstring says why)."""
    for schema in _request_schemas(paths):
        as_extension(schema)
    for name in request_side(paths, components):
        as_extension(components[name])
