"""openapi.yaml is generated from the code; the committed file must match it, and be valid."""
from pathlib import Path

from openapi_spec_validator import validate

from engine import registry
from service.app import create_app
from service.config import Settings
from service.schemas import pascal
from tests.spec import generated_spec as parsed_spec, generated_spec_text as spec_text

SPEC_FILE = Path(__file__).resolve().parents[2] / "openapi.yaml"
PRODUCT_GAMES = sorted(g.id for g in registry.all_games() if g.id not in ("toy", "crash"))


def generated_spec() -> str:
    return spec_text()


def test_committed_spec_matches_what_the_code_generates():
    assert SPEC_FILE.read_text(encoding="utf-8") == generated_spec(), (
        "openapi.yaml is stale: run `card-referee openapi openapi.yaml` and commit it")


def test_spec_is_valid_openapi_3():
    spec = parsed_spec()
    validate(spec)
    assert spec["openapi"].startswith("3.")


def test_every_operation_has_an_operation_id_and_every_game_lookup_is_documented():
    spec = parsed_spec()
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
    assert parsed_spec()["info"]["version"] == project["project"]["version"]


def test_every_operation_has_examples_and_they_are_the_live_service_answers():
    """Each request example posted to the service (unsigned, as the examples were recorded) is
    answered with exactly its response example."""
    from service import examples

    spec = parsed_spec()
    client = create_app(Settings(metrics=False)).test_client()
    checked = 0
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            if not isinstance(op, dict) or "responses" not in op:
                continue
            if "hosted_events" in op.get("tags", ()):
                # Their answers are an event kept in Redis, with random ids and tokens, for a
                # caller holding a key: tests/service/test_hosted_events.py checks them live.
                continue
            ok = next(c for c in op["responses"] if c.startswith("2"))
            content = op["responses"][ok]["content"]
            if "application/json" not in content:  # rules pages (markdown, HTML), score sheets
                assert set(content) <= {"text/markdown", "text/html", "text/plain", "text/csv"}, \
                    op["operationId"]
                if "requestBody" in op:  # a score sheet: its example record answers its text
                    body = op["requestBody"]["content"]["application/json"]["example"]
                    resp = client.open(path, method=method.upper(), json=body,
                                       headers={"Accept": "text/plain"})
                    assert resp.status_code == int(ok), op["operationId"]
                    assert resp.get_data(as_text=True) == content["text/plain"]["example"], (
                        f"{op['operationId']}: its example is stale: run "
                        "`python -m tools.make_spec_examples` and regenerate openapi.yaml")
                    checked += 1
                continue
            answer = content["application/json"]
            # One example, or named ones (validate: accepted and refused) paired by name.
            answers = ({name: ex["value"] for name, ex in answer["examples"].items()}
                       if "examples" in answer else {"": answer.get("example")})
            assert all(a is not None for a in answers.values()), \
                f"{op['operationId']}: no response example"
            bodies = dict.fromkeys(answers)
            if "requestBody" in op:
                request_content = op["requestBody"]["content"]["application/json"]
                bodies = ({name: ex["value"] for name, ex in request_content["examples"].items()}
                          if "examples" in request_content else {"": request_content.get("example")})
                assert bodies.keys() == answers.keys(), op["operationId"]
                assert all(b is not None for b in bodies.values()), \
                    f"{op['operationId']}: no request example"
            url = path.replace("{game}", "manillen")
            for name, body in bodies.items():
                resp = client.open(url, method=method.upper(), json=body)
                assert resp.status_code == int(ok), (op["operationId"], resp.get_json())
                assert resp.get_json() == answers[name], (
                    f"{op['operationId']} {name}: its example is stale: run "
                    "`python -m tools.make_spec_examples` and regenerate openapi.yaml")
                checked += 1
    # validateActionRefused is shown twice (under /v1/validate and /validate)
    assert checked == len(examples.load()) + 1 == 24 + len(PRODUCT_GAMES)
    refused = [ex["value"] for ex in spec["paths"]["/v1/validate"]["post"]["responses"]["200"][
        "content"]["application/json"]["examples"].values() if not ex["value"]["valid"]]
    assert refused and refused[0]["error"]["code"] and refused[0]["error"]["rule"]


def test_no_unused_schemas():
    spec = parsed_spec()
    text = generated_spec()
    unused = [name for name in spec["components"]["schemas"]
              if f"#/components/schemas/{name}'" not in text
              and f"#/components/schemas/{name}\n" not in text
              and f"#/components/schemas/{name}" + '"' not in text]
    assert not unused, unused


def _component_validator(spec: dict, name: str):
    from openapi_schema_validator import OAS30Validator

    return OAS30Validator({"$ref": f"#/components/schemas/{name}", "components": spec["components"]})


def _option_probes(option) -> tuple[list, list]:
    """(values the service takes, values it refuses) for one declared option."""
    f = option.field
    good, bad = [option.default], [{"x": 1}, [1, "x"] if f.kind != "str_list" else "x"]
    if f.nullable:
        good.append(None)
    else:
        bad.append(None)
    if f.kind == "bool":
        good += [True, False]
        bad += ["true", 1]
    elif f.kind == "enum":
        good += [c for c in f.choices]
        bad += ["no-such-choice", 10 ** 6]
    elif f.kind == "int":
        good += [v for v in (f.minimum, f.maximum) if v is not None]
        bad += ["3", 2.5, True]
        bad += [f.minimum - 1] if f.minimum is not None else []
        bad += [f.maximum + 1] if f.maximum is not None else []
    elif f.kind == "str":
        bad += ["", 3]
    elif f.kind == "str_list":
        good += [list(f.choices[:1]), []]
        bad += [["no-such-choice"], [3]]
    return good, bad


def test_each_games_options_schema_accepts_exactly_its_declared_options():
    """`<Game>Options` (what a deal request's `options` is in the spec) takes a value exactly
    when the service does: every declared value and preset, and no unknown name or wrong type."""
    spec = parsed_spec()
    client = create_app(Settings(metrics=False)).test_client()
    checked = 0
    for game in registry.all_games():
        validator = _component_validator(spec, pascal(game.id) + "Options")
        request = _component_validator(spec, pascal(game.id) + "DealRequest")
        seats = 4 if game.min_players <= 4 <= game.max_players else game.min_players
        players = [f"p{i}" for i in range(seats)]

        def agree(options: dict) -> bool:
            body = {"players": players, "seed": "options", "options": options}
            answer = client.post(f"/v1/games/{game.id}/deal", json=body)
            assert answer.status_code in (201, 422), answer.get_json()
            # a deal refused for something else than its options (a preset for other seat
            # counts) took its options: only options_invalid is the options parser's no
            taken = answer.status_code == 201 or answer.get_json()["code"] != "options_invalid"
            assert validator.is_valid(options) == taken, (game.id, options, answer.get_json())
            assert request.is_valid(body) == taken, (game.id, options)
            return taken

        assert agree({})
        for preset in game.presets:
            assert agree({"preset": preset})
        assert not agree({"preset": "no-such-preset"})
        assert not agree({"no_such_option": True})
        for option in game.options:
            good, bad = _option_probes(option)
            for value in good:
                assert agree({option.name: value}), (game.id, option.name, value)
            for value in bad:
                assert not agree({option.name: value}), (game.id, option.name, value)
            checked += 1
        published = spec["components"]["schemas"][pascal(game.id) + "Options"]["properties"]
        assert set(published) == {o.name for o in game.options} | (
            {"preset"} if game.presets else set())
    assert checked == sum(len(g.options) for g in registry.all_games())


def test_readiness_answers_fit_the_typed_ready_schema(redis_url):
    """/readyz as an operator's dashboard reads it: the cache's backend, Redis and (on a
    cluster) the cluster's state are typed, and every answer fits them."""
    spec = parsed_spec()
    ready = _component_validator(spec, "Ready")
    answers = [create_app(Settings(metrics=False)).test_client().get("/readyz").get_json(),
               create_app(Settings(metrics=False, redis_url=redis_url)).test_client()
               .get("/readyz").get_json()]
    assert [a["cache"]["backend"] for a in answers] == ["memory", "redis"]
    cluster = {**answers[1], "cache": {**answers[1]["cache"],
                                       "cluster": {"state": "ok", "masters": 3, "replicas": 3}}}
    for answer in [*answers, cluster]:
        assert not list(ready.iter_errors(answer)), answer
    wrong = {**answers[0], "cache": {**answers[0]["cache"], "redis": "maybe"}}
    assert list(ready.iter_errors(wrong))


def test_the_sealed_patterns_admit_what_the_service_seals_and_what_it_still_opens():
    """`SealedState` and `SealedMatch` are what a sealed deployment answers and takes back: a
    string it seals now (`sealed.v2.`) and one sealed before padding (`sealed.v1.`), which it
    still opens, must both fit; another prefix must not."""
    import re

    from service.sealing import LEGACY_PREFIX, Sealer, new_key, parse_key

    spec = parsed_spec()
    key = new_key()
    app = create_app(Settings(metrics=False, seal_keys=(parse_key(key),)))
    dealt = app.test_client().post("/v1/games/daifugo/deal",
                                   json={"players": ["a", "b", "c"]}).get_json()
    answered = [dealt["state"], Sealer([parse_key(key)]).seal({"deals": 1}, b"match")]
    legacy = LEGACY_PREFIX + answered[0].split(".", 2)[2]
    for name in ("SealedState", "SealedMatch"):
        pattern = spec["components"]["schemas"][name]["pattern"]
        for text in answered + [legacy]:
            assert re.search(pattern, text), (name, pattern, text[:20])
        assert not re.search(pattern, "sealed.v9." + answered[0].split(".", 2)[2])


def test_each_game_has_its_own_deal_path_typed_by_the_game():
    """`/v1/games/<id>/deal` per game, its body the game's `<Game>DealRequest` (a generated
    client refuses another game's options there), beside the generic `{game}` one; the
    service answers each as the generic route does (its example is a live answer, above)."""
    spec = parsed_spec()
    for game in PRODUCT_GAMES:
        op = spec["paths"][f"/v1/games/{game}/deal"]["post"]
        assert op["operationId"] == "deal" + pascal(game)
        assert op["requestBody"]["content"]["application/json"]["schema"] == {
            "$ref": f"#/components/schemas/{pascal(game)}DealRequest"}
        assert "options" in op["requestBody"]["content"]["application/json"]["example"]
    assert "toy" not in {p.split("/")[3] for p in spec["paths"] if p.startswith("/v1/games/")}


def _schema_nodes(node, path=()):
    """Every schema inside `node` with where it is (not a property's name, not an example)."""
    if not isinstance(node, dict):
        return
    yield path, node
    for key in ("items", "additionalProperties", "not"):
        if isinstance(node.get(key), dict):
            yield from _schema_nodes(node[key], (*path, key))
    for key in ("anyOf", "oneOf", "allOf"):
        for i, sub in enumerate(node.get(key) or ()):
            yield from _schema_nodes(sub, (*path, key, i))
    for name, sub in (node.get("properties") or {}).items():
        yield from _schema_nodes(sub, (*path, name))


def test_what_a_request_may_omit_has_no_default_a_generator_reads_as_required():
    """openapi-typescript 7 makes a property with `default` required (and openapi-python-client
    always sends it, overriding a preset): every schema a request reaches publishes its default
    as `x-default` and in its description instead; answers keep `default`."""
    from service.request_defaults import request_side

    spec = parsed_spec()
    schemas = spec["components"]["schemas"]
    reached = request_side(spec["paths"], schemas)
    for name in (*(pascal(g) + k for g in PRODUCT_GAMES for k in ("Options", "DealRequest",
                                                                 "State", "MatchRecord")),
                 "ValidateRequest", "ReplayRequest"):
        assert name in reached, name
    moved = 0
    for name in reached:
        for where, node in _schema_nodes(schemas[name]):
            assert "default" not in node, (name, where)
            if "x-default" in node:
                moved += 1
                assert "Default: `" in node["description"], (name, where)
    assert moved > sum(len(registry.get(g).options) for g in PRODUCT_GAMES)
    option = schemas["ManOptions"]["properties"]["calls"]
    assert option["x-default"] == "automatic"
    assert option["description"].endswith("Default: `automatic`.")
    # an answer only: the service always sends it, and says what it is when absent
    kept = [node for where, node in _schema_nodes(schemas["GuandanView"]) if "default" in node]
    assert "GuandanView" not in reached and kept


def test_a_host_token_past_the_specs_bound_is_refused_in_every_mode():
    """The spec bounds X-Host-Token (maxLength); a deal or replay carrying a longer one is 422
    request_invalid naming the header, also where no token is read (plain states)."""
    spec = parsed_spec()
    bound = next(p["schema"]["maxLength"] for p in spec["paths"]["/v1/games/man/deal"]["parameters"]
                 if p["name"] == "X-Host-Token")
    client = create_app(Settings(metrics=False)).test_client()
    players = {"players": ["ann", "bob"]}
    for path, body in (("/v1/games/man/deal", players),
                       ("/v1/replay", {"deal": {"game": "man", **players}, "actions": []})):
        assert client.post(path, json=body, headers={"X-Host-Token": "t" * bound}).status_code \
            in (200, 201)
        resp = client.post(path, json=body, headers={"X-Host-Token": "t" * (bound + 1)})
        assert resp.status_code == 422, resp.get_json()
        assert resp.get_json()["code"] == "request_invalid"
        assert "X-Host-Token" in resp.get_json()["errors"]
