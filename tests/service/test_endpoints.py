"""Every endpoint through the real HTTP layer (Flask test client), with the test-only toy game."""
import hashlib
import json

from engine import ENGINE_VERSION, registry
from tests.service.conftest import deal_toy


def play_first_legal(client, state, player):
    actions = client.post("/v1/legal-actions", json={"state": state, "player": player}).get_json()
    return client.post("/v1/validate", json={"state": state, "action": actions["actions"][0]})


def test_games_lists_every_registered_game_with_options_presets_and_actions(client):
    games = {g["id"]: g for g in client.get("/v1/games").get_json()["games"]}
    toy = games["toy"]
    assert toy["names"] == {"en": "High card", "ja": "ハイカード"}
    assert toy["players"] == {"min": 2, "max": 4}
    assert toy["options"][0] == {"type": "int", "minimum": 1, "maximum": 10, "name": "stakes",
                                 "default": 1, "rule": "T1"}
    assert toy["presets"]["high"] == {"stakes": 5}
    assert toy["actions"][0]["type"] == "play"
    assert set(games) >= {g.id for g in registry.all_games()}


def test_deal_answers_201_with_state_to_act_and_seed_commitment(client):
    from engine import rng
    out = deal_toy(client, seed="tournament-7")
    salt = out["state"]["seed_salt"]
    assert rng.valid_salt(salt)
    assert out["seed_commitment"] == rng.commitment("tournament-7", salt)
    # a chosen seed is not found from the commitment: it is not the seed's bare hash
    assert out["seed_commitment"] != hashlib.sha256(b"tournament-7").hexdigest()
    assert out["to_act"] == ["ann"] and out["state"]["game"] == "toy"
    assert out["state"]["seed"] == "tournament-7"
    again = deal_toy(client, seed="tournament-7")
    # verifiable deal: the same seed deals the same cards, under a fresh salt
    assert {**again["state"], "seed_salt": salt} == out["state"]
    assert again["state"]["seed_salt"] != salt


def test_deal_without_seed_draws_one_and_commits_to_it(client):
    out = deal_toy(client, seed=None) if False else client.post(
        "/v1/games/toy/deal", json={"players": ["a", "b"]}).get_json()
    from engine import rng
    seed, salt = out["state"]["seed"], out["state"]["seed_salt"]
    assert len(seed) == 32 and out["seed_commitment"] == rng.commitment(seed, salt)


def test_deal_with_an_explicit_deck_deals_those_cards(client):
    out = deal_toy(client, deck=["sa", "h2", "D10", "ck"])
    assert out["state"]["hands"] == [["SA", "H2"], ["D10", "CK"]]


def test_deal_presets_and_options(client):
    assert deal_toy(client, options={"preset": "high"})["state"]["options"] == {"stakes": 5}
    assert deal_toy(client, options={"preset": "high", "stakes": 2})["state"]["options"] == {"stakes": 2}


def test_deal_refusals_are_422_with_stable_codes(client):
    cases = [
        ({"players": ["a"]}, "deal_invalid"),
        ({"players": ["a", "a"]}, "deal_invalid"),
        ({"players": ["a", "b"], "dealer": "z"}, "deal_invalid"),
        ({"players": ["a", "b"], "options": {"nope": 1}}, "options_invalid"),
        ({"players": ["a", "b"], "options": {"stakes": "1"}}, "options_invalid"),
        ({"players": ["a", "b"], "options": {"preset": "nope"}}, "options_invalid"),
        ({"players": ["a", "b"], "deck": ["SA", "XX"]}, "request_invalid"),  # the spec's card pattern
        ({"players": ["a", "b"], "deck": ["SA"]}, "deal_invalid"),
        ({"players": ["a", "b"], "extra": 1}, "request_invalid"),
        ({"players": "ab"}, "request_invalid"),
    ]
    for body, code in cases:
        resp = client.post("/v1/games/toy/deal", json=body)
        assert resp.status_code == 422, body
        assert resp.content_type == "application/problem+json"
        assert resp.get_json()["code"] == code, (body, resp.get_json())


def test_unknown_game_is_404(client):
    resp = client.post("/v1/games/chess/deal", json={"players": ["a", "b"]})
    assert resp.status_code == 404 and resp.get_json()["code"] == "game_unknown"
    state = deal_toy(client)["state"]
    resp = client.post("/v1/validate", json={"state": {**state, "game": "chess"},
                                             "action": {"type": "play", "player": "ann"}})
    assert resp.status_code == 404 and resp.get_json()["code"] == "game_unknown"


def test_validate_legal_action_returns_next_state_deltas_events_to_act_status(client):
    state = deal_toy(client, deck=["SA", "H2", "DK", "C3"])["state"]
    r1 = client.post("/v1/validate", json={"state": state,
                                           "action": {"type": "play", "player": "ann", "card": "sa"}})
    body = r1.get_json()
    assert r1.status_code == 200 and body["valid"] is True
    assert body["to_act"] == ["bob"] and body["status"] == "in_progress"
    r2 = client.post("/v1/validate", json={"state": body["state"],
                                           "action": {"type": "play", "player": "bob", "card": "DK"}})
    body = r2.get_json()
    assert body["score_deltas"] == [
        {"target": "ann", "kind": "points", "delta": -1, "reason": "high card", "game": "toy",
         "text": {"en": "High card", "ja": "ハイカード"}},
        {"target": "bob", "kind": "points", "delta": 1, "reason": "high card", "game": "toy",
         "text": {"en": "High card", "ja": "ハイカード"}}]
    assert sum(d["delta"] for d in body["score_deltas"]) == 0
    # every delta and event names its game: games share event types
    assert body["events"] == [{"type": "trick_won", "game": "toy", "player": "bob",
                               "text": {"en": "bob wins the trick", "ja": "bobがトリックを取る"}}]


def test_illegal_action_is_200_valid_false_with_code_rule_and_unchanged_state(client):
    state = deal_toy(client, deck=["SA", "H2", "DK", "C3"])["state"]
    resp = client.post("/v1/validate", json={"state": state,
                                             "action": {"type": "play", "player": "bob", "card": "DK"}})
    body = resp.get_json()
    assert resp.status_code == 200 and body["valid"] is False
    assert body["error"] == {"code": "not_your_turn", "game": "toy",
                             "message": "It is not your turn.", "rule": "toy T2"}
    assert body["state"] == state


def test_refusal_message_in_japanese_with_accept_language_ja(client):
    state = deal_toy(client, deck=["SA", "H2", "DK", "C3"])["state"]
    resp = client.post("/v1/validate", headers={"Accept-Language": "ja, en;q=0.5"},
                       json={"state": state, "action": {"type": "play", "player": "bob", "card": "DK"}})
    assert resp.get_json()["error"]["message"] == "あなたの手番ではありません。"


def test_validate_is_also_answered_at_the_unversioned_alias(client):
    state = deal_toy(client, deck=["SA", "H2", "DK", "C3"])["state"]
    body = {"state": state, "action": {"type": "play", "player": "ann", "card": "SA"}}
    assert client.post("/validate", json=body).get_json() == client.post("/v1/validate", json=body).get_json()


def test_malformed_json_is_400_json_malformed(client):
    resp = client.post("/v1/validate", data=b'{"state": ', content_type="application/json")
    assert resp.status_code == 400 and resp.get_json()["code"] == "json_malformed"
    assert resp.content_type == "application/problem+json"


def test_schema_failure_is_422_with_field_paths(client):
    resp = client.post("/v1/validate", json={"state": [], "action": "play"})
    body = resp.get_json()
    assert resp.status_code == 422 and body["code"] == "request_invalid"
    assert {"state", "action"} <= set(body["errors"])
    resp = client.post("/v1/validate", json={"state": {}, "actions": {}})
    assert set(resp.get_json()["errors"]) == {"action", "actions"}
    resp = client.post("/v1/validate", json={"state": {"game": "toy"}, "action": {"player": 3}})
    body = resp.get_json()
    assert resp.status_code == 422 and body["code"] == "state_invalid" and "state.players" in body["errors"]


def test_malformed_action_and_state_are_422_naming_the_field(client):
    state = deal_toy(client)["state"]
    cases = [
        ({"type": "fly", "player": "ann"}, state, "action_invalid", "action.type"),
        ({"type": "play", "player": "zed", "card": "SA"}, state, "action_invalid", "action.player"),
        ({"type": "play", "player": "ann", "card": "S1"}, state, "action_invalid", "action.card"),
        ({"type": "play", "player": "ann"}, state, "action_invalid", "action.card"),
        ({"type": "play", "player": "ann", "card": "SA"}, {**state, "hands": [["SA", "Q"], []]},
         "state_invalid", "state.hands[0][1]"),
        ({"type": "play", "player": "ann", "card": "SA"}, {**state, "turn": 9}, "state_invalid", "state.turn"),
        ({"type": "play", "player": "ann", "card": "SA"}, {**state, "version": 99},
         "state_version_unsupported", "state.version"),
        ({"type": "play", "player": "ann", "card": "SA"}, {k: v for k, v in state.items() if k != "hands"},
         "state_invalid", "state"),
    ]
    for action, st, code, path in cases:
        resp = client.post("/v1/validate", json={"state": st, "action": action})
        body = resp.get_json()
        assert resp.status_code == 422, (action, body)
        assert body["code"] == code and path in body["errors"], (action, body)


def test_body_over_the_limit_is_413(make_client):
    client = make_client(max_body_bytes=2048)
    resp = client.post("/v1/validate", data=b'{"state": "' + b"x" * 4096 + b'"}',
                       content_type="application/json")
    assert resp.status_code == 413 and resp.get_json()["code"] == "body_too_large"


def test_legal_actions_lists_every_legal_action_each_accepted(client):
    state = deal_toy(client, deck=["SA", "H2", "DK", "C3"])["state"]
    out = client.post("/v1/legal-actions", json={"state": state, "player": "ann"}).get_json()
    assert out["count"] == 2 and {a["card"] for a in out["actions"]} == {"SA", "H2"}
    for action in out["actions"]:
        assert client.post("/v1/validate", json={"state": state, "action": action}).get_json()["valid"]
    assert client.post("/v1/legal-actions", json={"state": state, "player": "bob"}).get_json()["count"] == 0
    filtered = client.post("/v1/legal-actions", json={"state": state, "player": "ann", "types": ["nope"]})
    assert filtered.get_json() == {"actions": [], "count": 0}
    resp = client.post("/v1/legal-actions", json={"state": state, "player": "zed"})
    assert resp.status_code == 422 and resp.get_json()["code"] == "player_unknown"


def test_view_hides_other_hands_and_the_seed(client):
    state = deal_toy(client, deck=["SA", "H2", "DK", "C3"])["state"]
    view = client.post("/v1/view", json={"state": state, "player": "ann"}).get_json()["view"]
    assert view["hands"] == [["SA", "H2"], 2] and "seed" not in view
    spectator = client.post("/v1/view", json={"state": state, "player": None}).get_json()["view"]
    assert spectator["hands"] == [2, 2]


def test_replay_applies_each_action_and_stops_at_the_first_refused(client):
    deal = {"game": "toy", "players": ["ann", "bob"], "deck": ["SA", "H2", "DK", "C3"], "seed": "r"}
    actions = [{"type": "play", "player": "ann", "card": "SA"}, {"type": "play", "player": "bob", "card": "DK"},
               {"type": "play", "player": "ann", "card": "H2"}, {"type": "play", "player": "bob", "card": "C3"}]
    out = client.post("/v1/replay", json={"deal": deal, "actions": actions}).get_json()
    assert out["stopped"] is None and out["status"] == "finished" and len(out["steps"]) == 4
    assert out["totals"] == {"ann": -2, "bob": 2}  # K beats A, 3 beats 2
    bad = actions[:2] + [{"type": "play", "player": "bob", "card": "C3"}]
    out = client.post("/v1/replay", json={"deal": deal, "actions": bad}, headers={"Accept-Language": "ja"}).get_json()
    assert out["stopped"]["index"] == 2 and out["stopped"]["error"]["code"] == "not_your_turn"
    assert out["stopped"]["error"]["message"] == "あなたの手番ではありません。"
    assert len(out["steps"]) == 2


def test_actions_after_the_end_are_refused(client):
    deal = {"game": "toy", "players": ["ann", "bob"], "deck": ["SA", "H2", "DK", "C3"]}
    actions = [{"type": "play", "player": p, "card": c} for p, c in
               [("ann", "SA"), ("bob", "DK"), ("ann", "H2"), ("bob", "C3")]]
    final = client.post("/v1/replay", json={"deal": deal, "actions": actions}).get_json()["state"]
    resp = client.post("/v1/validate", json={"state": final, "action": actions[0]}).get_json()
    assert resp["valid"] is False and resp["error"]["code"] == "game_finished"


def test_game_lookup_route_is_registered_by_the_game(client):
    resp = client.post("/v1/games/toy/card-value", json={"card": "dt"})
    assert resp.status_code == 200 and resp.get_json() == {"card": "D10", "value": 9}
    resp = client.post("/v1/games/toy/card-value", json={"card": "D1"})
    assert resp.status_code == 422 and resp.get_json()["code"] == "request_invalid"
    assert client.post("/v1/games/toy/card-value", json={}).status_code == 422


def test_every_returned_state_survives_a_json_round_trip(client):
    out = deal_toy(client)
    state = out["state"]
    while True:
        assert json.loads(json.dumps(state)) == state
        actions = client.post("/v1/legal-actions", json={"state": state, "player": out["to_act"][0]}).get_json()
        out = client.post("/v1/validate", json={"state": state, "action": actions["actions"][0]}).get_json()
        state = out["state"]
        if out["status"] == "finished":
            break


def test_health_ready_metrics_docs_and_spec(make_client):
    client = make_client(metrics=True)
    assert client.get("/healthz").get_json() == {"status": "ok"}
    ready = client.get("/readyz").get_json()
    assert ready["status"] == "ready" and ready["cache"]["backend"] == "memory"
    assert ready["signing"] == "disabled"
    client.get("/v1/games")
    metrics = client.get("/metrics").get_data(as_text=True)
    assert 'cardref_http_requests_total{method="GET",route="/v1/games",status="200"} 1.0' in metrics
    assert 'cardref_http_request_duration_seconds_count{method="GET",route="/v1/games",status="200"} 1.0' in metrics
    assert f'cardref_info{{engine_version="{ENGINE_VERSION}"}} 1.0' in metrics
    docs = client.get("/docs")
    assert docs.status_code == 200 and b"/docs/assets/swagger-ui-bundle.js" in docs.data
    assert b"cdn" not in docs.data.lower() and b"https://" not in docs.data
    assert client.get("/docs/assets/swagger-ui-bundle.js").status_code == 200
    spec = client.get("/openapi.yaml")
    assert spec.status_code == 200 and b"openapi: 3.0.3" in spec.data


def test_unknown_route_and_wrong_method_are_problems(client):
    assert client.get("/v2/nothing").get_json()["code"] == "not_found"
    resp = client.get("/v1/validate")
    assert resp.status_code == 405 and resp.get_json()["code"] == "method_not_allowed"


def test_a_body_not_declared_json_is_415(client):
    resp = client.post("/v1/validate", data=b'{"state": {}}', content_type="text/plain")
    assert resp.status_code == 415 and resp.get_json()["code"] == "unsupported_media_type"


def test_problems_read_in_japanese_with_accept_language_ja(client):
    resp = client.post("/v1/games/toy/deal", json={"players": ["a"]}, headers={"Accept-Language": "ja"})
    body = resp.get_json()
    assert resp.status_code == 422 and body["code"] == "deal_invalid"
    assert body["title"] == "配札のリクエストが正しくありません"
    assert body["detail"].startswith("配札のリクエストが正しくありません。詳細: ")
    resp = client.post("/v1/validate", data=b"{", content_type="application/json",
                       headers={"Accept-Language": "ja"})
    assert resp.get_json()["title"] == "JSON の形式が正しくありません"
