"""Requests that carry a state are typed by their game (`<Game>ValidateRequest`,
`<Game>LegalActionsRequest`, `<Game>ViewRequest`, a oneOf by `game`): a request naming another
game than its state's is 422 `game_mismatch`, nothing adjudicated; one without `game` (as 1.x
clients send it) is answered as before. Every refusal that cites a rule links it (`rule_url`,
the rules page of the answer's language at the rule's number), and what a refusal says for
people is a text `{en, ja}`, never a second `_ja` field."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine import adjudicate, registry
from service.sealing import new_key, parse_key
from tests.adjudication import random_action
from tests.sizing import examples
from tests.spec import parse

PRODUCT_GAMES = sorted(g.id for g in registry.all_games() if g.id not in ("toy", "crash"))
SEAT_TOKEN = "X-Seat-Token"


def _dealt(client, game: str, seed: str | None = "typed-requests") -> dict:
    game_info = registry.get(game)
    players = [f"p{i}" for i in range(4 if game_info.min_players <= 4 <= game_info.max_players
                                      else game_info.min_players)]
    resp = client.post(f"/v1/games/{game}/deal", json={"players": players}
                       | ({} if seed is None else {"seed": seed}))
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def _requests(game: str, state, player: str, action: dict) -> list[tuple[str, dict]]:
    return [("/v1/validate", {"game": game, "state": state, "action": action}),
            ("/validate", {"game": game, "state": state, "action": action}),
            ("/v1/legal-actions", {"game": game, "state": state, "player": player}),
            ("/v1/view", {"game": game, "state": state, "player": player})]


@pytest.mark.parametrize("game", PRODUCT_GAMES)
def test_a_request_naming_another_game_than_its_state_is_422_game_mismatch(client, game):
    dealt = _dealt(client, game)
    player = dealt["to_act"][0]
    action = adjudicate.legal_actions(dealt["state"], player)[0]
    other = next(g for g in PRODUCT_GAMES if g != game)
    for path, body in _requests(other, dealt["state"], player, action):
        resp = client.post(path, json=body)
        problem = resp.get_json()
        assert resp.status_code == 422 and problem["code"] == "game_mismatch", (path, problem)
        assert game in problem["detail"] and other in problem["detail"]
    for path, body in _requests(game, dealt["state"], player, action):  # its own game: fine
        assert client.post(path, json=body).status_code == 200, path


def test_a_sealed_request_names_the_game_its_sealed_state_is_of(make_client):
    """A sealed state is opaque to the client: `game` is all it can say, and it is checked
    against the state once the service has opened it."""
    sealed = make_client(seal_keys=(parse_key(new_key()),))
    dealt = _dealt(sealed, "daifugo", seed=None)  # a chosen seed is a referee act here
    player = dealt["to_act"][0]
    token = {SEAT_TOKEN: dealt["seat_tokens"][player]}
    legal = sealed.post("/v1/legal-actions", json={"game": "daifugo", "state": dealt["state"],
                                                    "player": player}, headers=token)
    assert legal.status_code == 200, legal.get_json()
    action = legal.get_json()["actions"][0]
    for path, body in _requests("man", dealt["state"], player, action):
        resp = sealed.post(path, json=body, headers=token)
        assert resp.status_code == 422 and resp.get_json()["code"] == "game_mismatch", path
    answer = sealed.post("/v1/validate", json={"game": "daifugo", "state": dealt["state"],
                                                "action": action}, headers=token)
    assert answer.status_code == 200 and answer.get_json()["valid"], answer.get_json()


@pytest.mark.parametrize("game", PRODUCT_GAMES)
def test_a_request_without_its_game_is_answered_as_before(client, game):
    """1.x clients post {state, action} and {state, player}: the same answers as with `game`."""
    dealt = _dealt(client, game)
    player = dealt["to_act"][0]
    action = adjudicate.legal_actions(dealt["state"], player)[0]
    for path, body in _requests(game, dealt["state"], player, action):
        named = client.post(path, json=body)
        bare = client.post(path, json={k: v for k, v in body.items() if k != "game"})
        assert bare.status_code == named.status_code == 200, (path, bare.get_json())
        assert bare.get_json() == named.get_json(), path


def test_a_request_naming_an_unknown_game_is_a_clear_422(client):
    dealt = _dealt(client, "man")
    resp = client.post("/v1/validate", json={"game": "chess", "state": dealt["state"],
                                             "action": {"type": "draw", "player": "p0"}})
    assert resp.status_code == 422 and resp.get_json()["code"] == "request_invalid"
    assert "game" in str(resp.get_json()["errors"])


@settings(max_examples=examples(30), deadline=None, suppress_health_check=list(HealthCheck))
@given(game=st.sampled_from(PRODUCT_GAMES), seed=st.integers(0, 2 ** 32),
       lang=st.sampled_from(["en", "ja"]))
def test_every_refusal_citing_a_rule_links_it_in_the_answers_language(make_client, game, seed,
                                                                     lang):
    """Random actions (legal or not) on random states of a random deal: every refusal that
    names a rule has `rule_url`, the rules page of its language at that rule's number, and the
    page has an element with that id; its details carry no `_ja` twin, texts are {en, ja}."""
    client = make_client()
    rnd = random.Random(seed)
    dealt = _dealt(client, game, seed=f"links-{seed}")
    state, players = dealt["state"], dealt["state"]["players"]
    gamedef, pages = registry.get(game), {}
    for _step in range(12):
        action = random_action(rnd, gamedef, players)
        resp = client.post("/v1/validate", json={"game": game, "state": state, "action": action},
                           headers={"Accept-Language": lang})
        if resp.status_code != 200:
            continue  # a malformed random action: 422, nothing to link
        answer = resp.get_json()
        if answer["valid"]:
            state = answer["state"]
            continue
        error = answer["error"]
        assert error["game"] == game
        if "rule" not in error:
            assert "rule_url" not in error, error
            continue
        cited, number = error["rule"].split(" ", 1)
        assert cited == game
        assert error["rule_url"] == f"/v1/games/{game}/rules.{lang}.html#{number}", error
        if lang not in pages:
            pages[lang] = client.get(f"/v1/games/{game}/rules.{lang}.html").get_data(as_text=True)
        assert f'id="{number}"' in pages[lang], (game, lang, number)
        for key, value in (error.get("details") or {}).items():
            assert not key.endswith("_ja"), (error["code"], key)
            if isinstance(value, dict) and ("en" in value or "ja" in value):
                assert set(value) == {"en", "ja"}, (error["code"], key, value)


def test_the_spec_requires_rule_url_wherever_a_refusal_cites_a_rule(client):
    spec = parse(client.get("/openapi.yaml").get_data(as_text=True))  # the toy game's too
    refusals = {name: schema for name, schema in spec["components"]["schemas"].items()
                if name.endswith("Refusal") and "code" in schema.get("properties", {})}
    assert len(refusals) > 100
    for name, schema in refusals.items():
        assert "rule_url" in schema["properties"], name
        if schema["properties"]["game"]["enum"] == ["toy"]:
            continue  # the test-only game has no rules page to link
        assert ("rule" in schema["required"]) == ("rule_url" in schema["required"]), name
    for kind in ("ValidateRequest", "LegalActionsRequest", "ViewRequest"):
        union = spec["components"]["schemas"][kind]
        assert union["discriminator"]["propertyName"] == "game"
        assert set(union["discriminator"]["mapping"]) == set(PRODUCT_GAMES) | {"toy"}
        for game in PRODUCT_GAMES:
            own = spec["components"]["schemas"][union["discriminator"]["mapping"][game]
                                                .rsplit("/", 1)[1]]
            assert own["required"][0] == "game" and own["properties"]["game"]["enum"] == [game]
