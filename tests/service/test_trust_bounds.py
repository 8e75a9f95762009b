"""Issue #13, the bugs: nothing a client sends ends in a 500, every integer stays within
JSON's safe range, and the work one request may ask for is bounded (settings)."""
from __future__ import annotations

import io
import json

import pytest

from engine import adjudicate
from engine.fields import MAX_SAFE_INT
from service.app import create_app
from service.config import Settings, SettingsError


def _client(**settings):
    settings.setdefault("metrics", False)
    return create_app(Settings(**settings)).test_client()


def _man_state(**kw):
    return adjudicate.deal("man", ["ann", "bob", "cho"], seed="bounds", **kw)["state"]


@pytest.mark.parametrize("path", ["/v1/validate", "/v1/view", "/v1/legal-actions"])
def test_non_ascii_signature_is_403_not_500(path):
    client = _client(state_secrets=("k",))
    state = {**_man_state(), "signature": "v1:\u00e9\u6f22\ud800"[:-1]}
    body = ({"state": state, "action": {"type": "pass", "player": "ann"}}
            if path == "/v1/validate" else {"state": state, "player": "ann"})
    resp = client.post(path, json=body)
    assert resp.status_code == 403 and resp.get_json()["code"] == "state_signature_invalid"


def test_state_nested_255_deep_with_signing_on_is_422():
    client = _client(state_secrets=("k",))
    deep: object = 1
    for _ in range(255):
        deep = {"x": deep}
    state = {**_man_state(), "signature": "v1:00", "chain": deep}
    resp = client.post("/v1/view", content_type="application/json",
                       data=json.dumps({"state": state, "player": "ann"}))
    assert resp.status_code in (400, 422), resp.get_json()
    assert resp.get_json()["code"] in ("state_invalid", "json_malformed")


@pytest.mark.parametrize("value", [MAX_SAFE_INT + 1, -(MAX_SAFE_INT + 1), 2 ** 64, 10 ** 30])
def test_match_totals_past_the_safe_range_are_refused(value):
    resp = _client().post("/v1/games/man/deal", content_type="application/json",
                          data=json.dumps({"players": ["ann", "bob"],
                                           "match": {"totals": {"ann": value}}}))
    assert resp.status_code in (400, 422), resp.get_json()
    assert resp.get_json()["code"] in ("deal_invalid", "json_malformed")


def test_a_delta_past_the_safe_range_is_a_refusal_not_a_500():
    """Totals at the edge of the range, then a game won: the engine-wide backstop refuses
    the action that would leave the range (number_out_of_range)."""
    from tests.man.helpers import build
    s = build({"A": ["S5", "HA"], "B": ["D9"]}, ["H6"], top_by="B", turn="A")
    s["match"]["totals"] = {"A": MAX_SAFE_INT, "B": -MAX_SAFE_INT}
    # A mans B's 6; the chain ends when B, whose card it is, declines to counter (man 5.4)
    s = adjudicate.validate(s, {"type": "man", "player": "A"}).state
    out = adjudicate.validate(s, {"type": "decline", "player": "B"})
    assert not out.valid and out.refusal.code == "number_out_of_range"
    assert out.state == s


def test_replay_action_count_is_bounded():
    client = _client(max_replay_actions=3)
    resp = client.post("/v1/replay", json={
        "deal": {"game": "man", "players": ["ann", "bob"], "seed": "s"},
        "actions": [{"type": "pass", "player": "ann"}] * 4})
    assert resp.status_code == 413 and resp.get_json()["code"] == "limit_exceeded"
    assert "actions" in resp.get_json()["errors"]


def test_lookup_list_length_is_bounded():
    client = _client(max_lookup_items=10)
    resp = client.post("/v1/games/man/man-numbers", json={"hand": ["SA"] * 11})
    assert resp.status_code == 413 and resp.get_json()["code"] == "limit_exceeded"
    ok = client.post("/v1/games/man/man-numbers", json={"hand": ["SA", "S2"]})
    assert ok.status_code == 200


def test_player_id_length_is_bounded():
    client = _client(max_player_id_length=8)
    resp = client.post("/v1/games/man/deal", json={"players": ["ann", "b" * 9]})
    assert resp.status_code == 422 and resp.get_json()["code"] == "deal_invalid"
    assert "players[1]" in resp.get_json()["errors"]


def test_a_chunked_body_over_the_limit_is_413():
    client = _client(max_body_bytes=1000)
    body = b'{"state":' + b" " * 3000 + b"}"
    resp = client.post("/v1/validate", input_stream=io.BytesIO(body),
                       headers={"Content-Type": "application/json",
                                "Transfer-Encoding": "chunked"})
    assert resp.status_code == 413 and resp.get_json()["code"] == "body_too_large"
    small = client.post("/v1/validate", input_stream=io.BytesIO(b"{}"),
                        headers={"Content-Type": "application/json",
                                 "Transfer-Encoding": "chunked"})
    assert small.status_code == 422


@pytest.mark.parametrize("raw", [" , ", ",", "a, ,b", " "])
def test_a_blank_state_secret_fails_at_start_up(raw):
    with pytest.raises(SettingsError):
        Settings.from_env({"CARDREF_STATE_SECRET": raw})
    assert Settings.from_env({"CARDREF_STATE_SECRET": "a,b"}).state_secrets == ("a", "b")
    assert Settings.from_env({}).state_secrets == ()


def test_doubling_calls_offered_by_legal_actions_stop_at_the_safe_range():
    """Manillen's doubling goes on until one side stops (the seed): the 64th call of a default
    4-player deal once took the multiplier past 64 bits (a 500), then was capped at 2^53 − 1
    and still offered. Every call legal-actions offers is accepted; the call that would take
    the multiplier past 2^53 − 1 is refused number_out_of_range and not offered (README,
    docs/rules/manillen.md A18): with trumps (×1) the 53rd, as 2^52 is the last power of two
    in range."""
    client = _client()
    players = ["a", "b", "c", "d"]
    out = client.post("/v1/games/manillen/deal", json={"players": players}).get_json()
    calls = 0
    for _ in range(400):
        if out["state"]["phase"] not in ("trump", "doubling"):
            break
        actions = []
        for p in out["to_act"]:
            actions += client.post("/v1/legal-actions",
                                   json={"state": out["state"], "player": p}).get_json()["actions"]
        pick = next((a for a in actions if a["type"] in ("double", "redouble")), None)
        if pick is None and out["state"]["phase"] == "doubling":
            due = ("double", "redouble")[len(out["state"]["doubling"]["calls"]) % 2]
            refused = client.post("/v1/validate", json={"state": out["state"], "action": {
                "type": due, "player": out["to_act"][0]}})
            assert refused.status_code == 200 and not refused.get_json()["valid"]
            assert refused.get_json()["error"]["code"] == "number_out_of_range"
            pick = next(a for a in actions if a["type"] == "pass")
        elif pick is None:
            pick = next(a for a in actions if a.get("trump") != "no_trump")
        resp = client.post("/v1/validate", json={"state": out["state"], "action": pick})
        assert resp.status_code == 200, resp.get_json()
        out = resp.get_json()
        assert out["valid"], out["error"]
        calls += pick["type"] in ("double", "redouble")
        assert 1 <= out["state"]["multiplier"] <= MAX_SAFE_INT
    assert out["state"]["phase"] == "play"
    assert calls == 52 and out["state"]["multiplier"] == 2 ** 52
