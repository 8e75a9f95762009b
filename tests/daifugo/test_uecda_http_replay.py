"""U16 over HTTP: a game written in the UECda table form (each hand and each submission an
8x15 table) is converted with POST /v1/games/daifugo/uecda-table and replayed through
POST /v1/replay (a deal with `hands`) to its finishing order, with the recorded verdict on
every submission.

The UECda server counts a refused submission as a pass (U14); here it is refused with its
code. So the whole game replays with each refused submission in the place of a pass, and
each refused submission is posted once more, after the moves before it, where the replay
must stop on it."""
import json
from pathlib import Path

import pytest

from service.app import create_app
from service.config import Settings

DATA = Path(__file__).parent / "data"
GAMES = sorted([DATA / "uecda_game.json", *sorted((DATA / "uecda_server").glob("*.json"))])


@pytest.fixture(scope="module")
def client():
    return create_app(Settings(metrics=False)).test_client()


def table_lookup(client, kind: str, rows: list[str]) -> dict:
    resp = client.post("/v1/games/daifugo/uecda-table", json={"kind": kind, "table": rows})
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()


def post_replay(client, deal: dict, actions: list[dict]) -> dict:
    resp = client.post("/v1/replay", json={"deal": deal, "actions": actions})
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()


def load(path: Path) -> dict:
    """A recorded game: `hands` (one table per player number), `moves` (`seat`: the player
    number, `table`, `verdict`: accepted | refused, default accepted; a refused move may name
    the `code` we expect), `finish_order` (player numbers) and `seating` (player numbers in
    the order of play, default 0-4)."""
    rec = json.loads(path.read_text())
    rec.setdefault("seating", list(range(len(rec["hands"]))))
    return rec


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_U16_uecda_tables_replay_over_http_with_the_same_verdicts_and_order(client, path):
    rec = load(path)
    name = {n: f"p{n}" for n in rec["seating"]}
    hands = {}
    for n, rows in enumerate(rec["hands"]):
        out = table_lookup(client, "hand", rows)
        assert out["valid"], out["error"]
        hands[name[n]] = out["cards"]
    actions, refused = [], []
    for k, move in enumerate(rec["moves"]):
        player = name[move["seat"]]
        out = table_lookup(client, "play", move["table"])
        if move.get("verdict", "accepted") == "refused" and not out["valid"]:
            # not even a play (the lookup says why): the server passes it, so do we
            actions.append({"type": "pass", "player": player})
            continue
        assert out["valid"], (k, out["error"])
        if out["pass"]:
            action = {"type": "pass", "player": player}
        else:
            action = {"type": "play", "player": player, "cards": out["cards"],
                      **({"jokers": out["jokers"]} if out["jokers"] else {})}
        if move.get("verdict", "accepted") == "refused":
            refused.append((k, action, move.get("code")))
            action = {"type": "pass", "player": player}            # U14
        actions.append(action)

    deal = {"game": "daifugo", "players": [name[n] for n in rec["seating"]],
            "options": {"preset": "uecda"}, "hands": hands, "seed": "replay"}
    out = post_replay(client, deal, actions)
    assert out["stopped"] is None, out["stopped"]
    assert out["status"] == "finished" and len(out["steps"]) == len(actions)
    order = [name[n] for n in rec["finish_order"]]
    assert out["state"]["result"]["finish_order"] == order
    assert out["totals"] == {p: 5 - i for i, p in enumerate(order)}           # U15
    assert out["steps"][0]["action"]["player"] == next(                        # U2
        p for p, h in hands.items() if "D3" in h)

    for k, action, code in refused:
        out = post_replay(client, deal, actions[:k] + [action])
        assert out["stopped"] is not None and out["stopped"]["index"] == k, (k, action)
        if code:
            assert out["stopped"]["error"]["code"] == code, (k, out["stopped"]["error"])
