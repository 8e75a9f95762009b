"""A JSON object that names a key twice is refused (422 json_duplicate_key, naming the key and
where it is) on every route that takes a body and in the CLI's record commands: parsers keep
the last value silently, so two different records would check as one, with one digest."""
from __future__ import annotations

import json
import random

import orjson
import pytest
from hypothesis import given, settings, strategies as st

from service import cli
from service.app import create_app
from service.config import Settings
from service.json_keys import DuplicateKey, find_duplicate_key, refuse_duplicate_keys
from tests.records import random_record
from tests.sizing import examples

APP = create_app(Settings(metrics=False))
CLIENT = APP.test_client()


def _post_routes() -> list[str]:
    spec = CLIENT.get("/openapi.json").get_json()
    # Hosted events read a body only for a caller holding the event's credential: their own
    # tests send it one (tests/service/test_hosted_events.py).
    return sorted(path.replace("{game}", "man") for path, ops in spec["paths"].items()
                  if "post" in ops and "hosted_events" not in ops["post"].get("tags", ()))


def _post(path: str, text: str):
    return CLIENT.post(path, data=text.encode(), content_type="application/json")


@pytest.mark.parametrize("path", _post_routes())
def test_every_route_refuses_a_key_named_twice(path):
    # The same key twice at the top, each value one the route would read: never last-one-wins.
    resp = _post(path, '{"players": ["a", "b", "c"], "players": ["x", "y", "z"]}')
    assert resp.status_code == 422, (path, resp.status_code, resp.get_data(as_text=True)[:300])
    problem = resp.get_json()
    assert problem["code"] == "json_duplicate_key", problem
    assert list(problem["errors"]) == ["players"] and "'players'" in problem["detail"]


def test_a_record_with_a_key_twice_is_refused_naming_where():
    record = random_record("daifugo", random.Random(4), deals=2)
    text = json.dumps(record)
    seed = record["deals"][1]["deal"]["seed"]
    # the second deal's seed named twice: a reader sees the first, a parser keeps the second
    doubled = text.replace(f'"seed": "{seed}"', f'"seed": "forged", "seed": "{seed}"', 1)
    assert json.loads(doubled) == record  # what last-one-wins read: the same record
    for path in ("/v1/records/check", "/v1/records/sheet"):
        resp = _post(path, doubled)
        assert resp.status_code == 422, resp.get_data(as_text=True)[:300]
        assert resp.get_json()["code"] == "json_duplicate_key"
        assert list(resp.get_json()["errors"]) == ["deals[1].deal.seed"]
    assert _post("/v1/records/check", text).status_code == 200


def test_a_state_with_a_key_twice_is_refused_on_the_hot_path():
    dealt = CLIENT.post("/v1/games/man/deal", json={"players": ["a", "b", "c"]}).get_json()
    body = orjson.dumps({"state": dealt["state"], "action": {"type": "draw", "player": "a"}})
    doubled = body.replace(b'"phase":', b'"phase":"over","phase":', 1)
    assert doubled != body
    resp = _post("/v1/validate", doubled.decode())
    assert resp.status_code == 422 and resp.get_json()["code"] == "json_duplicate_key"
    assert list(resp.get_json()["errors"]) == ["state.phase"]
    # spaced, in Japanese: the same refusal, in the caller's language
    resp = CLIENT.post("/v1/validate", data=b'{"state": {}, "action": {}, "action": {}}',
                       content_type="application/json", headers={"Accept-Language": "ja"})
    assert resp.status_code == 422 and resp.get_json()["code"] == "json_duplicate_key"
    assert "重複" in resp.get_json()["detail"]


@pytest.mark.parametrize("text, where", [
    ('{"a": 1, "a": 2}', ("a", "a")),
    ('{"a":1,"\\u0061":2}', ("a", "a")),  # one key however it is spelled
    ('{"x": {"s": "a:b", "s": "c"}}', ("x.s", "s")),
    ('{"d": [{"k": 1}, {"k": 1, "k": 2}]}', ("d[1].k", "k")),
    ('{"a": "\\u003a", "a": 1}', ("a", "a")),  # an escaped colon kept, a key dropped
    ('{"odd key": {"q": 1, "q": 1}}', ('["odd key"].q', "q")),
    ("[" * 300 + '{"a": 1, "a": 1}' + "]" * 300, ("[0]" * 300 + ".a", "a")),  # deeper than
    # orjson writes back (254 levels)
    ('{"a": {"b": 1}, "b": {"a": 1}, "s": "\\"a\\": 1, \\"a\\": 2"}', None),
    ('{"ok": "a:b:c", "list": [1, 2, {"z": "::"}], "e": {}, "f": []}', None),
])
def test_the_duplicate_check_finds_exactly_the_keys_named_twice(text, where):
    assert find_duplicate_key(text) == where
    if where is None:
        refuse_duplicate_keys(text.encode(), orjson.loads(text))
    else:
        with pytest.raises(DuplicateKey) as info:
            refuse_duplicate_keys(text.encode(), orjson.loads(text))
        assert info.value.path == where[0]


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10 ** 6, 10 ** 6) | st.text(":\"\\ab", max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.lists(
        st.tuples(st.sampled_from(["a", "b", ":", "\""]), inner), max_size=4),
    max_leaves=12)


def _write(node, compact: bool) -> str:
    """A JSON text with objects written from (key, value) pairs, so a key may repeat."""
    if isinstance(node, list) and node and all(isinstance(p, tuple) for p in node):
        sep = ":" if compact else " : "
        return "{" + ",".join(json.dumps(k) + sep + _write(v, compact) for k, v in node) + "}"
    if isinstance(node, list):
        return "[" + ", ".join(_write(v, compact) for v in node) + "]"
    return json.dumps(node)


def _has_duplicate(node) -> bool:
    if isinstance(node, list) and node and all(isinstance(p, tuple) for p in node):
        keys = [k for k, _ in node]
        return len(keys) != len(set(keys)) or any(_has_duplicate(v) for _, v in node)
    if isinstance(node, list):
        return any(_has_duplicate(v) for v in node)
    return False


@settings(max_examples=examples(300), deadline=None)
@given(node=_JSON, compact=st.booleans())
def test_the_fast_check_refuses_a_text_exactly_when_it_names_a_key_twice(node, compact):
    text = _write(node, compact)
    try:
        refuse_duplicate_keys(text.encode(), orjson.loads(text))
        refused = False
    except DuplicateKey:
        refused = True
    assert refused == _has_duplicate(node) == (find_duplicate_key(text) is not None), text


@pytest.mark.parametrize("command", ["check", "sheet"])
def test_the_cli_record_commands_refuse_a_key_named_twice(tmp_path, capsys, command):
    record = random_record("man", random.Random(2), deals=1)
    text = json.dumps(record).replace('"game": "man"', '"game": "man", "game": "man"', 1)
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8")
    assert cli.main([command, str(path)]) == 2
    err = capsys.readouterr().err
    assert "json_duplicate_key" in err and "game" in err
