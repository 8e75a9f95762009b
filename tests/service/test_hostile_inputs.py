"""Hostile but well-formed JSON: values of the wrong kind where an option is named, lists nested
as deep as a JSON parser allows. Each must answer its 4xx problem, never a 500 (README: no
input makes a 500)."""
import json
import logging

import pytest

from engine import registry

GAMES = [g.id for g in registry.all_games() if g.id != "toy"]
# orjson reads JSON nested up to 1024 deep; Python's repr of such a list overflows the stack at
# ~1000 levels less the frames already in use (fewer under gunicorn's gevent than here).
DEEP = 990


class Nested:
    """A list nested `depth` deep, written into the body as text (json.dumps itself recurses)."""

    def __init__(self, depth: int, leaf="x"):
        self.text = "[" * depth + json.dumps(leaf) + "]" * depth


def nested(depth: int, leaf="x") -> Nested:
    return Nested(depth, leaf)


def players_of(game_id: str) -> list[str]:
    game = registry.get(game_id)
    return [f"p{i}" for i in range(max(game.min_players, 4 if game_id == "guandan" else 0))]


def post(client, path, body, **headers):
    texts = []

    def placeholder(value):
        texts.append(value.text)
        return f"@@{len(texts) - 1}@@"
    data = json.dumps(body, default=placeholder)
    for i, text in enumerate(texts):
        data = data.replace(f'"@@{i}@@"', text)
    return client.post(path, data=data, content_type="application/json", headers=headers)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("preset", [{}, [], ["uecda"], {"name": "seed"}])
def test_a_preset_that_is_not_a_string_is_options_invalid_in_deal_and_replay(client, game, preset):
    players = players_of(game)
    for path, body in ((f"/v1/games/{game}/deal", {"players": players, "options": {"preset": preset}}),
                       ("/v1/replay", {"deal": {"game": game, "players": players,
                                                "options": {"preset": preset}}, "actions": []})):
        resp = post(client, path, body)
        assert resp.status_code == 422, (path, resp.get_json())
        assert resp.get_json()["code"] == "options_invalid"
        assert "options.preset" in resp.get_json()["errors"]


def _first_actor(client, game):
    dealt = post(client, f"/v1/games/{game}/deal", {"players": players_of(game), "seed": "deep"})
    assert dealt.status_code == 201
    dealt = dealt.get_json()
    return dealt["state"], dealt["to_act"][0]


@pytest.mark.parametrize("game", GAMES)
def test_cards_nested_as_deep_as_json_goes_are_action_invalid_and_log_no_error(client, game, caplog):
    state, actor = _first_actor(client, game)
    fields = {a.name: [n for n, f in a.fields.items() if f.kind in ("cards", "card", "object")]
              for a in registry.get(game).actions}
    tried = 0
    with caplog.at_level(logging.WARNING):
        for kind, names in fields.items():
            for name in names:
                resp = post(client, "/v1/validate", {"state": state, "action": {
                    "type": kind, "player": actor, name: nested(DEEP)}})
                assert resp.status_code == 422, (kind, name, resp.get_json())
                assert resp.get_json()["code"] not in ("internal_error",)
                tried += 1
    assert tried
    assert "RecursionError" not in caplog.text and "unexpected error" not in caplog.text


def test_a_state_version_nested_deep_is_a_4xx(client):
    state, _ = _first_actor(client, "man")
    resp = post(client, "/v1/view", {"state": {**state, "version": nested(DEEP)}, "player": None})
    assert resp.status_code == 422 and resp.get_json()["code"] == "state_version_unsupported"


@pytest.mark.parametrize("where", ["extra", "level", "hands"])
def test_legal_actions_check_an_unsigned_state_before_caching_it(client, where):
    # Guandan's enumerations are cached under a key made from the posted state; orjson writes
    # at most 254 levels, so a field nested deeper made the key fail before the state was read.
    state, actor = _first_actor(client, "guandan")
    resp = post(client, "/v1/legal-actions",
                {"state": {**state, where: nested(253, {"a": 1})}, "player": actor})
    assert resp.status_code == 422, resp.get_json()
    assert resp.get_json()["code"] == "state_invalid"


# Every route that reads a JSON body, each with a body that would fit it.
JSON_ROUTES = {"/v1/validate": {"state": {}, "action": {}},
               "/validate": {"state": {}, "action": {}},
               "/v1/legal-actions": {"state": {}, "player": "ann"},
               "/v1/view": {"state": {}, "player": "ann"},
               "/v1/replay": {"deal": {"game": "man", "players": ["a", "b", "c"]}, "actions": []},
               "/v1/games/man/deal": {"players": ["ann", "bob", "cho"]},
               "/v1/games/man/man-numbers": {"hand": ["SA"]}}


def _encodings(body: dict) -> dict[str, bytes]:
    # a key with a letter outside ASCII, so that latin-1 differs from UTF-8
    text = json.dumps({**body, "café": 1}, ensure_ascii=False)
    return {"latin-1": text.encode("latin-1"), "utf-16": text.encode("utf-16"),
            "utf-16-be": text.encode("utf-16-be"), "utf-8 bom": b"\xef\xbb\xbf" + text.encode()}


@pytest.mark.parametrize("path", sorted(JSON_ROUTES))
def test_a_body_not_in_utf8_is_json_malformed_on_every_json_route(client, path):
    # RFC 8259: JSON between systems is UTF-8. Decision (docs/integrating.md): a UTF-8 byte
    # order mark is refused too, like any byte before the JSON text, on every route alike.
    for name, raw in _encodings(JSON_ROUTES[path]).items():
        resp = client.post(path, data=raw, content_type="application/json")
        assert resp.status_code == 400, (name, resp.get_json())
        body = resp.get_json()
        assert body["code"] == "json_malformed", (name, body)
        assert resp.headers["Content-Type"] == "application/problem+json"
        assert ("UTF-8" in body["detail"]) or ("byte order mark" in body["detail"]), body
    ja = client.post(path, data=_encodings(JSON_ROUTES[path])["latin-1"],
                     content_type="application/json", headers={"Accept-Language": "ja"})
    assert "UTF-8 ではありません" in ja.get_json()["detail"]


def test_a_replayed_action_whose_type_is_not_a_string_is_a_4xx_under_signing(make_client):
    """Found by fuzzing: a replay's action `type` given as an object reached the referee-only
    check as a dict key (500) when signing was on."""
    client = make_client(state_secrets=("s3cret",), referee_keys=("ref",))
    resp = client.post("/v1/replay", headers={"Authorization": "Bearer ref"}, json={
        "deal": {"game": "manillen", "players": ["ann", "bob"], "seed": "example"},
        "actions": [{"cards": [], "player": "ann", "type": {}}]})
    assert 400 <= resp.status_code < 500, resp.get_data(as_text=True)


META = {"game_id": "g", "move": 0, "provenance": "server", "match_id": "g", "deal": 1,
        "match_provenance": "server"}


@pytest.mark.parametrize("binding, where", [
    ({"meta": {**META, "x-extra": 42}}, "state.meta.x-extra"),
    ({"meta": {**META, "move": -1}}, "state.meta.move"),
    ({"meta": {**META, "provenance": "anyone"}}, "state.meta.provenance"),
    ({"meta": {k: v for k, v in META.items() if k != "deal"}}, "state.meta.deal"),
    ({"meta": [META]}, "state.meta"),
    ({"signature": 5}, "state.signature"),
])
def test_a_binding_unlike_the_specs_is_state_invalid_even_where_nothing_is_signed(
        client, binding, where):
    # A deployment that neither signs nor seals ignores a state's `meta` and `signature`
    # (nothing vouches for them), but one the spec refuses (State.meta: those six fields,
    # no other) is refused like any other field of a state, not taken silently.
    dealt = post(client, "/v1/games/daifugo/deal", {"players": players_of("daifugo")})
    state = dealt.get_json()["state"]
    assert "meta" not in state
    resp = post(client, "/v1/view", {"state": {**state, **binding}, "player": "p0"})
    assert resp.status_code == 422, resp.get_json()
    assert resp.get_json()["code"] == "state_invalid" and where in resp.get_json()["errors"]
    fine = post(client, "/v1/view", {"state": {**state, "meta": META, "signature": "v1:00"},
                                     "player": "p0"})
    assert fine.status_code == 200, fine.get_json()
