"""Referee mode over HTTP and the console: an irregular act is sanctioned (200, valid) in
`violations: referee` and refused in `reject`; `/v1/replay` and `card-referee replay` of a
referee's log go on through sanctions in referee mode and stop at the first one, with its
rule, in reject mode."""
from __future__ import annotations

import json
import random

import pytest

from engine import adjudicate, referee, registry
from service import cli
from tests.engine.test_irregularities import SANCTIONED, play_out
from tests.service.conftest import REFEREE


def seats(game_id: str) -> list[str]:
    """Four seats where the game is played by four, else its fewest."""
    game = registry.get(game_id)
    return ["a", "b", "c", "d", "e", "f", "g", "h"][
        :4 if game.min_players <= 4 <= game.max_players else game.min_players]


def referee_log(game_id: str) -> tuple[dict, list, dict]:
    """A deal request, a log holding sanctioned acts (a random play-out in referee mode), and
    the first sanctioned act's index and irregularity event."""
    for seed in range(50):
        deal = {"game": game_id, "players": seats(game_id), "seed": f"http-{seed}",
                "seed_salt": "0" * 32, "options": {"violations": "referee"}}
        request = {**{k: v for k, v in deal.items() if k != "game"}, "game_id": game_id}
        run = play_out(game_id, random.Random(f"http-{game_id}-{seed}"),
                       adjudicate.deal(**request), referee.REFEREE_MODE)
        if run["sanctioned"]:
            _state, _action, out, index = run["sanctioned"][0]
            return deal, run["log"], {"index": index, "event": out.events[0]}
    raise AssertionError(f"{game_id}: no sanctioned act in 50 play-outs")


def test_an_out_of_turn_play_is_sanctioned_in_referee_mode_and_refused_in_reject(client):
    for mode in ("referee", "reject"):
        dealt = client.post("/v1/games/guandan/deal", headers=REFEREE, json={
            "players": seats("guandan"), "seed": "http", "options": {"violations": mode}})
        assert dealt.status_code == 201
        body = dealt.get_json()
        state, on_turn = body["state"], body["to_act"][0]
        other = next(p for p in state["players"] if p != on_turn)
        action = {"type": "play", "player": other, "cards": [state["hands"][other][0]]}
        out = client.post("/v1/validate", json={"state": state, "action": action},
                          headers={"Accept-Language": "ja"}).get_json()
        if mode == "reject":
            assert out["valid"] is False and out["error"]["code"] == "not_your_turn"
            assert out["error"]["rule"] == "guandan P-2"
            continue
        assert out["valid"] is True and out["to_act"] == [on_turn]
        (mark,) = [e for e in out["events"] if e["type"] == "irregularity_sanctioned"]
        assert mark["sanction_rule"] == "guandan R-2" and mark["text"]["ja"]
        assert out["state"]["barred"] == [other]


@pytest.mark.parametrize("game_id", SANCTIONED)
def test_replay_goes_on_through_sanctions_in_referee_mode_and_stops_in_reject(client, game_id):
    deal, log, first = referee_log(game_id)
    answers = [client.post("/v1/replay", json={"deal": deal, "actions": log}).get_json()
               for _ in range(2)]
    assert answers[0]["stopped"] is None and answers[0]["status"] == "finished"
    assert answers[0]["state"] == answers[1]["state"]
    assert answers[0]["totals"] == answers[1]["totals"]
    step = answers[0]["steps"][first["index"]]
    assert step["events"][0]["type"] == "irregularity_sanctioned"
    rejecting = {**deal, "options": {"violations": "reject"}}
    stopped = client.post("/v1/replay", json={"deal": rejecting, "actions": log}).get_json()
    assert stopped["stopped"]["index"] == first["index"]
    assert stopped["stopped"]["error"]["code"] == first["event"]["code"]
    assert stopped["stopped"]["error"]["rule"] == first["event"]["rule"]


@pytest.mark.parametrize("game_id", ["guandan", "manillen"])
def test_the_console_replay_goes_on_in_referee_mode_and_stops_in_reject(tmp_path, capsys,
                                                                        game_id):
    deal, log, first = referee_log(game_id)
    path = tmp_path / "log.json"
    path.write_text(json.dumps({"deal": deal, "actions": log}))
    assert cli.main(["replay", str(path), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["stopped"] is None and printed["status"] == "finished"
    path.write_text(json.dumps({"deal": {**deal, "options": {"violations": "reject"}},
                                "actions": log}))
    assert cli.main(["replay", str(path), "--json"]) == 1
    stopped = json.loads(capsys.readouterr().out)["stopped"]
    assert stopped["index"] == first["index"]
    assert stopped["error"]["rule"] == first["event"]["rule"]


def test_games_describe_the_violations_option_and_its_rule(client):
    games = {g["id"]: g for g in client.get("/v1/games").get_json()["games"]}
    for game_id in SANCTIONED:
        (option,) = [o for o in games[game_id]["options"] if o["name"] == "violations"]
        assert option["default"] == "reject" and option["rule"] == \
            registry.get(game_id).option_map()["violations"].rule


@pytest.mark.parametrize("game_id", SANCTIONED)
def test_a_seat_repeating_an_irregular_act_cannot_kill_a_signed_strict_game(redis_url, game_id):
    # With signing and strict sequencing, a seat posting the same out-of-turn act again and
    # again: the first MAX_SANCTION_ENTRIES are sanctioned, the rest refused (200, valid false,
    # the state unchanged), so the state stays far below the body limit; the referee (with the
    # key) still records a warning on the newest state, and the game goes on from it.
    from tests.engine.test_referee_bound import BOUND, recorded_warning
    from tests.service.test_strict_sequence import strict_client

    client = strict_client(redis_url)
    dealt = client.post(f"/v1/games/{game_id}/deal", headers={"Authorization":
                                                                "Bearer seq-referee"}, json={
        "players": seats(game_id), "seed": "bound-http",
        "options": {"violations": "referee"}}).get_json()
    engine_view = {**dealt, "state": {k: v for k, v in dealt["state"].items()
                                      if k not in ("meta", "signature")}}
    action = recorded_warning(registry.get(game_id), engine_view)
    state = dealt["state"]
    answers = []
    for _ in range(referee.MAX_SANCTION_ENTRIES + 20):
        resp = client.post("/v1/validate", json={"state": state, "action": action})
        assert resp.status_code == 200, resp.get_json()
        answers.append(resp.get_json()["valid"])
        if answers[-1]:
            state = resp.get_json()["state"]
    assert answers == [True] * referee.MAX_SANCTION_ENTRIES + [False] * 20
    assert len(json.dumps(state)) - len(json.dumps(dealt["state"])) <= BOUND
    warned = client.post("/v1/validate", headers={"Authorization": "Bearer seq-referee"},
                         json={"state": state, "action": {"type": "warning",
                                                          "player": action["player"]}})
    assert warned.status_code == 200 and warned.get_json()["valid"], warned.get_json()
    on_turn = warned.get_json()["to_act"][0]
    legal = client.post("/v1/legal-actions", json={"state": warned.get_json()["state"],
                                                   "player": on_turn})
    assert legal.status_code == 200 and legal.get_json()["actions"]
