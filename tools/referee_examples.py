"""The worked examples of docs/referee.md and docs/referee.ja.md, one per game, produced by the
service itself: each is a physical deal entered as a referee would, a few acts at the table
(moves, a draw that names its card, a warning, penalties, a withdrawal) posted one by one to
/v1/validate, and the referee's log replayed through /v1/replay. What each answer says that a
referee reads (whose turn, score deltas, events, the game's own match standing) is stored with
the request in docs/examples/referee/<game>.json and shown in both pages between the markers
`<!-- example:<game> -->` and `<!-- /example:<game> -->`.

    .venv/bin/python -m tools.referee_examples          # check: exit 1 when anything differs
    .venv/bin/python -m tools.referee_examples --write  # write the files and the pages

tests/service/test_referee_examples.py runs the same check, so an example that no longer matches
what the service answers fails the tests.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples" / "referee"
PAGES = (ROOT / "docs" / "referee.md", ROOT / "docs" / "referee.ja.md")
KEY = "example-referee-key"
HEADERS = {"Authorization": f"Bearer {KEY}"}


def _standing(game: str, state: dict) -> dict:
    """The game's own match standing in a state, where the referee's penalties count."""
    if game == "man":
        return {"match.totals": state["match"]["totals"]}
    if game == "manillen":
        return {"match.scores": state["match"]["scores"]}
    if game == "guandan":
        return {"match.levels": state["match"]["levels"],
                "ledger_levels": state.get("ledger_levels", {})}
    if game == "daifugo":
        return {"match.points": state["match"]["points"]}
    return {"match.penalties": state["match"]["penalties"]}


# Each game's example: the deal request (entered from the table) and the acts, in order. An act
# is an action as posted, or {"pick": type, "player": id}: the first legal action of that type
# (written out as posted when the example is produced, so the stored file holds only actions).
SCRIPTS: dict[str, dict[str, Any]] = {
    "man": {
        "deal": {"players": ["ann", "bob", "cho"], "dealer": "cho",
                 "hands": {"ann": ["H9", "C2", "SA"], "bob": ["D4", "HK", "C7"],
                           "cho": ["S3", "D9", "H5"]},
                 "table": {"start_cards": ["S10"]}},
        "acts": [{"type": "play", "player": "ann", "cards": ["SA"]},
                 {"type": "draw", "player": "cho", "cards": ["D5"]},
                 {"type": "penalty", "player": "bob", "points": 2,
                  "reason": "showed a card to cho"},
                 {"type": "warning", "player": "cho", "reason": "slow play"},
                 {"type": "penalty", "player": "cho", "points": 1, "reason": "slow play again"},
                 {"type": "withdraw", "player": "cho", "entry": 3}],
    },
    "manillen": {
        "seeded_hands": "manillen-example",
        "deal": {"players": ["ann", "bob", "cho", "dai"], "dealer": "dai"},
        "acts": [{"type": "penalty", "player": "bob", "points": 5,
                  "reason": "looked at the cards before trumps were named"},
                 {"pick": "choose_trump", "player": "dai"},
                 {"type": "warning", "player": "ann", "reason": "talked across the table"}],
    },
    "guandan": {
        "seeded_hands": "guandan-example",
        "deal": {"players": ["ann", "bob", "cho", "dai"]},
        "table_from_hands": "guandan",
        "acts": [{"pick": "play", "player": None},
                 {"type": "penalty", "player": "bob", "points": 1, "reason": "played out of turn"},
                 {"type": "warning", "player": "dai", "reason": "slow play"}],
    },
    "daifugo": {
        "seeded_hands": "daifugo-example",
        "deal": {"players": ["ann", "bob", "cho", "dai"], "table": {"leader": "cho"}},
        "acts": [{"pick": "play", "player": "cho"},
                 {"type": "penalty", "player": "ann", "points": 2, "reason": "foul language"},
                 {"type": "penalty", "player": "bob", "points": 1, "reason": "slow play"},
                 {"type": "withdraw", "player": "bob", "entry": 2}],
    },
    "manteur": {
        "deal": {"players": ["ann", "bob", "cho"], "options": {"penalty_limit": 3},
                 "hands": {"ann": [], "bob": ["SA", "HA", "D7", "C9", "SK"], "cho": []}},
        "acts": [{"type": "declare", "player": "bob",
                  "declaration": {"type": "pair", "ranks": ["A"], "kickers": []}},
                 {"type": "accept", "player": "cho"},
                 {"type": "exchange", "player": "cho", "cards": ["D7"], "drawn": ["CA"]},
                 {"type": "penalty", "player": "cho", "points": 1,
                  "reason": "showed the hand to ann"},
                 {"type": "penalty", "player": "ann", "points": 3, "reason": "marked cards"}],
    },
}
GAMES = tuple(SCRIPTS)  # the games with a referee example (docs/referee.md)


def _client():
    from service.app import create_app
    from service.config import Settings

    return create_app(Settings(metrics=False, referee_keys=(KEY,))).test_client()


def _post(client, url: str, body: dict) -> dict:
    resp = client.post(url, json=body, headers=HEADERS)
    out = resp.get_json()
    if resp.status_code not in (200, 201):
        raise AssertionError(f"{url}: {resp.status_code} {out}")
    return out


def _hands_of(game: str, seed: str, players: list[str]) -> dict[str, list[str]]:
    """A table's hands, taken from a seeded deal of the game (so an example is a real deal)."""
    from engine import adjudicate

    state = adjudicate.deal(game, players, seed=seed)["state"]
    return {p: state["hands"][p] for p in players}


def _deal_request(game: str, script: dict) -> dict:
    deal = json.loads(json.dumps(script["deal"]))
    if "seeded_hands" in script:
        deal["hands"] = _hands_of(game, script["seeded_hands"], deal["players"])
    if script.get("table_from_hands") == "guandan":
        # G-4: the card turned up in the cut: here the first card of cho's hand
        cho = deal["hands"]["cho"]
        card = next(c for c in cho if c not in ("BJ", "RJ"))
        holders = [p for p, h in deal["hands"].items() if card in h]
        deal["table"] = {"cut_card": card, **({"leader": "cho"} if len(holders) > 1 else {})}
    return deal


def produce(game: str, example: dict | None = None) -> dict:
    """The example as the service answers it now: from the stored file's requests when given
    (what the test checks), else from SCRIPTS (what --write stores)."""
    client = _client()
    if example is not None:
        deal, acts = example["deal"], [s["action"] for s in example["steps"]]
    else:
        deal, acts = _deal_request(game, SCRIPTS[game]), SCRIPTS[game]["acts"]
    dealt = _post(client, f"/v1/games/{game}/deal", deal)
    state = dealt["state"]
    out: dict[str, Any] = {
        "game": game, "deal": deal,
        "dealt": {"status": dealt["status"], "to_act": dealt["to_act"],
                  **_standing(game, state)},
        "steps": []}
    log = []
    for act in acts:
        if "pick" in act:
            players = [act["player"]] if act["player"] else dealt["to_act"]
            listed = [a for p in players for a in _post(
                client, "/v1/legal-actions", {"state": state, "player": p})["actions"]
                if a["type"] == act["pick"]]
            act = {k: v for k, v in listed[0].items() if k != "game"}
        answer = _post(client, "/v1/validate", {"state": state, "action": act})
        if not answer["valid"]:
            raise AssertionError(f"{game}: {act} refused: {answer['error']}")
        state = answer["state"]
        dealt = answer
        log.append(act)
        out["steps"].append({"action": act, "answer": {
            "to_act": answer["to_act"], "status": answer["status"],
            "score_deltas": _named(answer["score_deltas"]), "events": _named(answer["events"]),
            **_standing(game, state)}})
    out["referee_ledger"] = state["referee_ledger"]
    replayed = _post(client, "/v1/replay", {"deal": {"game": game, **deal}, "actions": log})
    out["replay"] = {"stopped": replayed["stopped"], "status": replayed["status"],
                     "totals": replayed["totals"], "to_act": replayed["to_act"]}
    return out


def render(data: Any, indent: int = 0) -> str:
    """JSON with every list of plain values and every small object on one line, so an example
    reads like a table's record."""
    pad = "  " * indent
    flat = json.dumps(data, ensure_ascii=False)
    if not isinstance(data, (dict, list)) or len(flat) + len(pad) <= 96 or _shallow(data):
        return flat
    inner = "  " * (indent + 1)
    if isinstance(data, list):
        items = [inner + render(x, indent + 1) for x in data]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {render(v, indent + 1)}"
             for k, v in data.items()]
    return "{\n" + ",\n".join(items) + "\n" + pad + "}"


def _shallow(data: Any) -> bool:
    """Plain values, lists of them, and objects of them (an event, a score delta, a hand)."""
    def plain(x: Any, depth: int) -> bool:
        if isinstance(x, list):
            return all(not isinstance(y, (dict, list)) for y in x)
        if isinstance(x, dict):
            return depth > 0 and all(plain(y, depth - 1) for y in x.values())
        return True
    return plain(data, 2) and len(json.dumps(data, ensure_ascii=False)) <= 200


def _named(items: list[dict]) -> list[dict]:
    """Score deltas and events without the `game` each names (the example's game)."""
    return [{k: v for k, v in x.items() if k != "game"} for x in items]


def path_of(game: str) -> Path:
    return EXAMPLES / f"{game}.json"


def block(game: str, text: str) -> str:
    return f"<!-- example:{game} -->\n```json\n{text}\n```\n<!-- /example:{game} -->"


def _marked(game: str) -> re.Pattern:
    return re.compile(rf"<!-- example:{game} -->\n```json\n(.*?)```\n<!-- /example:{game} -->",
                      re.S)


def embedded(page: str, game: str) -> str | None:
    """The example's JSON as a page shows it (None: the page has no such block)."""
    found = _marked(game).search(page)
    return None if found is None else found.group(1).rstrip("\n")


def differences() -> list[str]:
    """What no longer matches: the stored examples against the service's answers to their
    requests, and the pages' blocks against the stored examples."""
    wrong = []
    for game in GAMES:
        stored_text = path_of(game).read_text(encoding="utf-8").rstrip("\n")
        stored = json.loads(stored_text)
        if produce(game, stored) != stored:
            wrong.append(f"{path_of(game)}: the service now answers otherwise")
        for page in PAGES:
            if embedded(page.read_text(encoding="utf-8"), game) != stored_text:
                wrong.append(f"{page}: the {game} example differs from {path_of(game)}")
    return wrong


def write() -> None:
    EXAMPLES.mkdir(parents=True, exist_ok=True)
    for game in GAMES:
        text = render(produce(game))
        path_of(game).write_text(text + "\n", encoding="utf-8")
        for page in PAGES:
            body = page.read_text(encoding="utf-8")
            page.write_text(_marked(game).sub(lambda _m: block(game, text), body),
                            encoding="utf-8")


def main(argv: list[str]) -> int:
    if "--write" in argv:
        write()
    wrong = differences()
    for line in wrong:
        print(line, file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
