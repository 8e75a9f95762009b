"""openapi.yaml is generated from the code; the committed file must match it, and be valid."""
from pathlib import Path

import yaml
from openapi_spec_validator import validate

from engine import registry
from service.app import create_app
from service.config import Settings

SPEC_FILE = Path(__file__).resolve().parents[2] / "openapi.yaml"


def generated_spec() -> str:
    registry.unregister("toy")  # the test-only game is never part of the product's spec
    return create_app(Settings(metrics=False)).extensions["card_referee"].api.spec.to_yaml()


def test_committed_spec_matches_what_the_code_generates():
    assert SPEC_FILE.read_text(encoding="utf-8") == generated_spec(), (
        "openapi.yaml is stale: run `card-referee openapi openapi.yaml` and commit it")


def test_spec_is_valid_openapi_3():
    spec = yaml.safe_load(generated_spec())
    validate(spec)
    assert spec["openapi"].startswith("3.")


def test_every_operation_has_an_operation_id_and_every_game_lookup_is_documented():
    spec = yaml.safe_load(generated_spec())
    ids = [op["operationId"] for path in spec["paths"].values() for op in path.values()
           if isinstance(op, dict) and "responses" in op]
    assert len(ids) == len(set(ids)) and all(ids)
    for game in registry.all_games():
        for lk in game.lookups:
            assert f"/v1/games/{game.id}/{lk.name}" in spec["paths"]
    for path in ("/v1/games", "/v1/games/{game}/deal", "/v1/validate", "/validate", "/v1/legal-actions",
                 "/v1/view", "/v1/replay", "/healthz", "/readyz"):
        assert path in spec["paths"], path


def test_served_spec_is_the_generated_one():
    app = create_app(Settings(metrics=False))
    assert app.test_client().get("/openapi.yaml").get_data(as_text=True) == generated_spec()


def test_spec_and_package_share_one_version():
    import tomllib

    project = tomllib.loads((SPEC_FILE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    assert yaml.safe_load(generated_spec())["info"]["version"] == project["project"]["version"]


def test_every_operation_has_examples_and_they_are_the_live_service_answers():
    """Each request example posted to the service (unsigned, as the examples were recorded) is
    answered with exactly its response example."""
    from service import examples

    spec = yaml.safe_load(generated_spec())
    client = create_app(Settings(metrics=False)).test_client()
    checked = 0
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            if not isinstance(op, dict) or "responses" not in op:
                continue
            ok = next(c for c in op["responses"] if c.startswith("2"))
            content = op["responses"][ok]["content"]
            if "application/json" not in content:  # the rules pages: markdown and HTML
                assert set(content) <= {"text/markdown", "text/html"}, op["operationId"]
                continue
            answer = content["application/json"]
            assert "example" in answer, f"{op['operationId']}: no response example"
            body = None
            if "requestBody" in op:
                body = op["requestBody"]["content"]["application/json"].get("example")
                assert body is not None, f"{op['operationId']}: no request example"
            url = path.replace("{game}", "manillen")
            resp = client.open(url, method=method.upper(), json=body)
            assert resp.status_code == int(ok), (op["operationId"], resp.get_json())
            assert resp.get_json() == answer["example"], (
                f"{op['operationId']}: its example is stale: run `python -m service.examples` "
                "and regenerate openapi.yaml")
            checked += 1
    assert checked == len(examples.load()) == 14


def test_no_unused_schemas():
    spec = yaml.safe_load(generated_spec())
    text = generated_spec()
    unused = [name for name in spec["components"]["schemas"]
              if f"#/components/schemas/{name}'" not in text
              and f"#/components/schemas/{name}\n" not in text
              and f"#/components/schemas/{name}" + '"' not in text]
    assert not unused, unused
