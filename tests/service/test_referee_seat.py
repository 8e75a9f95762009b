"""The table's referee over HTTP: the ledger's warnings, penalties and withdrawals recorded with
the referee key whatever the trust mode, and the referee's view and legal actions (`referee`
with the key sees everything, sealed states included; without it that seat does not exist)."""
from __future__ import annotations

import pytest

from engine import referee, registry
from service.app import create_app
from service.config import Settings
from service.sealing import new_key, parse_key

REFEREE_KEY = "ledger-referee"
REFEREE = {"Authorization": f"Bearer {REFEREE_KEY}"}
GAMES = sorted(g.id for g in registry.all_games() if g.id not in ("toy", "crash"))


def client_for(mode: str, **settings):
    settings.setdefault("metrics", False)
    settings.setdefault("referee_keys", (REFEREE_KEY,))
    if mode == "signed":
        settings["state_secrets"] = ("ledger-secret",)
    elif mode == "sealed":
        settings["seal_keys"] = (parse_key(new_key()),)
    return create_app(Settings(**settings)).test_client()


def players_of(game_id: str) -> list[str]:
    game = registry.get(game_id)
    return [f"p{i}" for i in range(1, min(game.max_players, 4) + 1)]


@pytest.mark.parametrize("mode", ["signed", "sealed"])
@pytest.mark.parametrize("game_id", GAMES)
def test_warning_penalty_and_withdrawal_recorded_with_the_referee_key(game_id, mode):
    game = registry.get(game_id)
    client = client_for(mode)
    players = players_of(game_id)
    dealt = client.post(f"/v1/games/{game_id}/deal", json={"players": players}).get_json()
    state, to_act = dealt["state"], dealt["to_act"]
    sign = referee.penalty_sign(game.referee.penalty_kind)
    acts = [({"type": "warning", "player": players[0], "reason": "slow play"}, [], "warned"),
            ({"type": "penalty", "player": players[-1], "points": 4, "reason": "card shown"},
             [sign * 4], "penalty_given"),
            ({"type": "withdraw", "player": players[-1], "entry": 2}, [-sign * 4], "withdrawn")]
    for action, deltas, event in acts:
        seat = {"X-Seat-Token": dealt["seat_tokens"][action["player"]]} if mode == "sealed" \
            else {}
        refused = client.post("/v1/validate", json={"state": state, "action": action},
                              headers=seat)
        assert refused.status_code == 403
        assert refused.get_json()["code"] == "referee_key_required"
        resp = client.post("/v1/validate", json={"state": state, "action": action},
                           headers=REFEREE)
        body = resp.get_json()
        assert resp.status_code == 200 and body["valid"], body
        assert body["to_act"] == to_act, "whose turn it is does not change"
        assert [d["delta"] for d in body["score_deltas"]] == deltas
        assert all(d["kind"] == game.referee.penalty_kind for d in body["score_deltas"])
        assert [e["type"] for e in body["events"]] == [event]
        state = body["state"]
    # the referee sees the ledger (sealed: the state is opaque to everyone else)
    seen = client.post("/v1/view", json={"state": state, "player": "referee"},
                       headers=REFEREE).get_json()["view"]
    assert [(e["id"], e["kind"], e["withdrawn"]) for e in seen["referee_ledger"]] == [
        (1, "warning", False), (2, "penalty", True)]


@pytest.mark.parametrize("mode", ["signed", "sealed"])
def test_the_ledger_travels_in_the_signed_match_summary_to_the_next_deal(mode):
    client = client_for(mode)
    players = ["ann", "bob", "cho"]
    dealt = client.post("/v1/games/man/deal", json={"players": players}).get_json()
    state, to_act, status, answer = dealt["state"], dealt["to_act"], dealt["status"], None
    penalty = {"type": "penalty", "player": "bob", "points": 3, "reason": "slow"}
    answer = client.post("/v1/validate", json={"state": state, "action": penalty},
                         headers=REFEREE).get_json()
    state = answer["state"]
    for _ in range(3000):
        if status == "finished":
            break
        legal = []
        for p in to_act:
            headers = {"X-Seat-Token": dealt["seat_tokens"][p]} if mode == "sealed" else None
            legal += client.post("/v1/legal-actions", json={"state": state, "player": p},
                                 headers=headers).get_json()["actions"]
        action = next((a for a in legal if a["type"] == "man"), None) or \
            next((a for a in legal if a["type"] not in ("draw", "pass")), legal[0])
        headers = {"X-Seat-Token": dealt["seat_tokens"][action["player"]]} \
            if mode == "sealed" else None
        answer = client.post("/v1/validate", json={"state": state, "action": action},
                             headers=headers).get_json()
        assert answer["valid"], answer
        state, to_act, status = answer["state"], answer["to_act"], answer["status"]
    assert status == "finished"
    summary = answer["next_match"]
    # the host passes the summary on (under sealing with the match's host token: the answer
    # carries every seat's token); the next deal carries the ledger, totals and all
    host = {"X-Host-Token": dealt["host_token"]} if mode == "sealed" else None
    nxt = client.post("/v1/games/man/deal", json={"players": players, "match": summary},
                      headers=host)
    assert nxt.status_code == 201, nxt.get_json()
    seen = client.post("/v1/view", json={"state": nxt.get_json()["state"], "player": "referee"},
                       headers=REFEREE).get_json()["view"]
    assert [(e["player"], e["points"]) for e in seen["referee_ledger"]] == [("bob", 3)]
    if mode == "signed":
        assert summary[referee.MATCH_KEY]["totals"] == {"ann": 0, "bob": 3, "cho": 0}


@pytest.mark.parametrize("game_id", GAMES)
def test_the_referee_sees_everything_of_a_sealed_state_only_with_the_key(game_id):
    client = client_for("sealed")
    players = players_of(game_id)
    dealt = client.post(f"/v1/games/{game_id}/deal", json={"players": players}).get_json()
    body = {"state": dealt["state"], "player": "referee"}
    for headers in ({}, {"Authorization": "Bearer guess"},
                    {"X-Seat-Token": dealt["seat_tokens"][players[0]]}):
        for path in ("/v1/view", "/v1/legal-actions"):
            resp = client.post(path, json=body, headers=headers)
            assert resp.status_code == 422, (path, headers, resp.get_json())
            assert resp.get_json()["code"] == "player_unknown"
    resp = client.post("/v1/view", json=body, headers=REFEREE)
    assert resp.status_code == 200, resp.get_json()
    view = resp.get_json()["view"]
    assert view["viewer"] == "referee" and view["game"] == game_id
    assert "seed" not in view and "seed_salt" not in view  # not before the deal ends
    # every hand a seat holds, where a seat's own view shows only its own
    own = client.post("/v1/view", json={"state": dealt["state"], "player": players[0]},
                      headers={"X-Seat-Token": dealt["seat_tokens"][players[0]]}).get_json()
    game = registry.get(game_id)
    # the state, with what every view carries (engine/summary.py)
    shared = {"viewer", "to_act", "summary", "standings"}
    full = game.encode(game.decode({k: v for k, v in view.items() if k not in shared} | {
        "seed": "x", "seed_salt": ""}))
    assert set(full) - {"seed", "seed_salt"} == set(view) - shared
    hidden = [p for p, h in (own["view"].get("hands") or {}).items() if h is None]
    for p in hidden:
        assert isinstance(view["hands"][p], list)
    listed = client.post("/v1/legal-actions", json=body, headers=REFEREE).get_json()
    types = {(a["type"], a["player"]) for a in listed["actions"]}
    assert {(t, p) for t in ("warning", "penalty") for p in players} <= types
    assert all(a["game"] == game_id for a in listed["actions"])


def test_the_referee_is_no_seat_where_no_key_is_configured():
    client = client_for("sealed", referee_keys=())
    dealt = client.post("/v1/games/man/deal", json={"players": ["ann", "bob"]}).get_json()
    resp = client.post("/v1/view", json={"state": dealt["state"], "player": "referee"},
                       headers=REFEREE)
    assert resp.status_code == 422 and resp.get_json()["code"] == "player_unknown"


def test_no_seat_is_named_referee():
    client = client_for("plain")
    resp = client.post("/v1/games/man/deal", json={"players": ["ann", "referee"]})
    assert resp.status_code == 422
    assert resp.get_json()["code"] == "deal_invalid"


def test_card_referee_replay_counts_the_ledger_in_its_totals(tmp_path, capsys):
    import json

    from service import cli
    actions = [{"type": "penalty", "player": "bob", "points": 2, "reason": "slow"},
               {"type": "warning", "player": "ann"},
               {"type": "penalty", "player": "ann", "points": 5},
               {"type": "withdraw", "player": "bob", "entry": 1}]
    log = tmp_path / "table.json"
    log.write_text(json.dumps({"deal": {"game": "man", "players": ["ann", "bob"],
                                        "seed": "ledger"}, "actions": actions}))
    outs = []
    for _ in range(2):
        assert cli.main(["replay", str(log), "--json"]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0]["totals"] == outs[1]["totals"] == {"bob": 0, "ann": -5}
    assert [e["withdrawn"] for e in outs[0]["state"]["referee_ledger"]] == [True, False, False]
