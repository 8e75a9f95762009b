"""Writes service/examples.json: the spec's request and response examples (service/examples.py
loads them at runtime), each a real answer of this service, made by calling it (unsigned, a
chosen seed: every answer is deterministic). tests/service/test_openapi.py posts each request
example to the service and checks that its answer is the response example, so they never drift
from the code.

Run after a change to a game's rules or its state, then regenerate openapi.yaml:
    python -m tools.make_spec_examples
    card-referee openapi openapi.yaml
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a file (python tools/make_spec_examples.py) too
    sys.path.insert(0, str(ROOT))

from service import examples  # noqa: E402

# (operationId, method, path, request body or None, status)
SEED = "example"
SALT = "0123456789abcdef0123456789abcdef"  # a fixed commitment salt: deterministic examples
PLAYERS = ["ann", "bob"]
LOOKUPS = [
    ("lookupManManNumbers", "/v1/games/man/man-numbers", {"hand": ["SA", "S8", "H2"]}),
    ("lookupManteurCheck", "/v1/games/manteur/check",
     {"hand": ["S2", "BJ", "CK", "D7", "S9"], "declaration": {"type": "pair", "ranks": ["2"]}}),
    ("lookupManteurCompare", "/v1/games/manteur/compare",
     {"a": {"type": "pair", "ranks": ["K"]}, "b": {"type": "pair", "ranks": ["2"]}}),
    ("lookupGuandanClassify", "/v1/games/guandan/classify",
     {"cards": ["S5", "H5", "D5"], "level": "2"}),
    ("lookupDaifugoUecdaTable", "/v1/games/daifugo/uecda-table",
     {"kind": "hand", "cards": ["S3", "BJ"]}),
]


def calls() -> list[tuple[str, str, str, dict | None, int]]:
    """Every example call, in order; later requests are built from earlier answers."""
    return [("listGames", "GET", "/v1/games", None, 200),
            ("healthz", "GET", "/healthz", None, 200),
            ("readyz", "GET", "/readyz", None, 200)]


def record(client) -> dict:
    """Each operation's example request and the service's real answer to it (`client`: a Flask
    test client of an unsigned app)."""
    out: dict[str, dict] = {}

    def call(op, method, path, body=None, status=200):
        resp = client.open(path, method=method, json=body)
        assert resp.status_code == status, (op, resp.status_code, resp.get_json())
        out[op] = ({"request": body} if body is not None else {}) | {"response": resp.get_json()}
        return resp.get_json()

    for op, method, path, body, status in calls():
        call(op, method, path, body, status)
    dealt = call("deal", "POST", "/v1/games/manillen/deal",
                 {"players": PLAYERS, "seed": SEED, "seed_salt": SALT}, 201)
    state, player = dealt["state"], dealt["to_act"][0]
    game = state["game"]  # requests that carry a state name its game (they are typed by it)
    legal = call("legalActions", "POST", "/v1/legal-actions",
                 {"game": game, "state": state, "player": player})
    action = legal["actions"][0]
    call("validateAction", "POST", "/v1/validate", {"game": game, "state": state, "action": action})
    call("validateActionAlias", "POST", "/validate", {"game": game, "state": state,
                                                      "action": action})
    # A refusal is an answer too (200, valid: false): the same action posted by another seat.
    other = next(p for p in PLAYERS if p != player)
    call("validateActionRefused", "POST", "/v1/validate",
         {"game": game, "state": state, "action": {**action, "player": other}})
    call("view", "POST", "/v1/view", {"game": game, "state": state, "player": player})
    call("replay", "POST", "/v1/replay",
         {"deal": {"game": "manillen", "players": PLAYERS, "seed": SEED, "seed_salt": SALT},
          "actions": [{k: v for k, v in action.items() if k not in ("game", "text")}]})
    _game_deals(client, call)
    match_record = _played_record(client)
    call("checkRecord", "POST", "/v1/records/check", match_record)
    # A score sheet is text (text/plain unless asked otherwise): the answer as the body reads.
    sheet = client.post("/v1/records/sheet", json=match_record, headers={"Accept": "text/plain"})
    assert sheet.status_code == 200, sheet.get_data(as_text=True)
    out["recordSheet"] = {"request": match_record, "response": sheet.get_data(as_text=True)}
    call("verifyDeal", "POST", "/v1/verify-deal",
         {"game": "man", "players": RECORD_PLAYERS, "options": {"preset": "referee"},
          "seed": SEED, "seed_salt": SALT,
          "seed_commitment": match_record["deals"][0]["deal"]["seed_commitment"]})
    for op, path, body in LOOKUPS:
        call(op, "POST", path, body)
    _event_rounds(client, call, out)
    return out


EVENT_SEED = "round-1-example"  # the round's seed a director keeps secret until it is over


def example_event() -> dict:
    """A small Daifugo event before its first round: five entrants at tables of four (one
    bye a round), swiss seating (docs/events.md)."""
    from engine.events import FORMAT, FORMAT_VERSION

    return {"format": FORMAT, "format_version": FORMAT_VERSION, "name": "Autumn Daifugo Open",
            "tags": {"site": "Kyoto", "date": "2026-11-28", "director": "Sato"},
            "system": {"game": "daifugo", "table_size": 4, "rounds": 3,
                       "round_end": {"kind": "deals", "deals": 4},
                       "event_points": [3, 2, 1, 0], "tie_breaks": ["match_score"]},
            "entrants": [{"id": pid, "name": name} for pid, name in (
                ("ann", "Aoki"), ("bob", "Baba"), ("cho", "Chiba"), ("dai", "Daimon"),
                ("eve", "Endo"))]}


def _event_rounds(client, call, out: dict) -> None:
    """`eventNextRound` seats the example event's first round; its table reports its result
    and `eventRevealRound` reveals the round's seed; the event so far is then published:
    `eventStandings`, `checkEvent` and `eventSheet` (text, as the body reads)."""
    seated = call("eventNextRound", "POST", "/v1/events/next-round",
                  {"event": example_event(), "seed": EVENT_SEED, "seed_salt": SALT})
    table = seated["rounds"][0]["tables"][0]
    entrants = [seat["entrant"] for seat in table["seats"]]
    table["result"] = {"reported": {"places": {e: k + 1 for k, e in enumerate(entrants)},
                                    "scores": {e: 3 - k for k, e in enumerate(entrants)}}}
    played = call("eventRevealRound", "POST", "/v1/events/reveal-round",
                  {"event": seated, "round": 1, "seed": EVENT_SEED, "seed_salt": SALT})
    call("eventStandings", "POST", "/v1/events/standings", played)
    call("checkEvent", "POST", "/v1/events/check", played)
    sheet = client.post("/v1/events/sheet", json=played, headers={"Accept": "text/plain"})
    assert sheet.status_code == 200, sheet.get_data(as_text=True)
    out["eventSheet"] = {"request": played, "response": sheet.get_data(as_text=True)}


RECORD_PLAYERS = ["ann", "bob", "cho"]
SEATS = ["ann", "bob", "cho", "dai", "eve", "fay", "gil", "hal"]


def _game_deals(client, call) -> None:
    """`deal<Game>`: a deal at each game's own path, as a typed client sends it: with a preset
    (the first the game's fewest seats take) and one option stated beside it."""
    from engine import registry
    from service.schemas import pascal

    for game in registry.all_games():
        players = SEATS[:game.min_players]
        options: dict = {}
        for preset in sorted(game.presets):
            if client.post(f"/v1/games/{game.id}/deal", json={
                    "players": players, "options": {"preset": preset}}).status_code == 201:
                options = {"preset": preset}
                break
        # an option the preset leaves alone, at its default: stated, not needed
        free = [o for o in game.options if o.name not in game.presets.get(options.get("preset"), {})]
        if free:
            options[free[0].name] = free[0].default
        call("deal" + pascal(game.id), "POST", f"/v1/games/{game.id}/deal",
             {"players": players, "options": options, "seed": SEED, "seed_salt": SALT}, 201)


def _played_record(client) -> dict:
    """A match record of one deal of Man, dealt from SEED and SALT and played to its end by
    each turn's first legal action (deterministic), as a table would write it down."""
    from engine import records

    dealt = client.post("/v1/games/man/deal", json={
        "players": RECORD_PLAYERS, "options": {"preset": "referee"}, "seed": SEED,
        "seed_salt": SALT}).get_json()
    state, to_act, status = dealt["state"], dealt["to_act"], dealt["status"]
    entries, totals = [], {}
    while status != "finished":
        action = client.post("/v1/legal-actions", json={
            "state": state, "player": to_act[0]}).get_json()["actions"][0]
        # as a table writes it down: the fields that judge it, not a button's words
        action = {k: v for k, v in action.items() if k not in ("game", "text")}
        done = client.post("/v1/validate", json={"state": state, "action": action}).get_json()
        entry = {"action": action}
        if done["score_deltas"]:
            entry["score_deltas"] = [{k: d[k] for k in ("target", "kind", "delta")}
                                     for d in done["score_deltas"]]
            for d in done["score_deltas"]:
                totals[d["target"]] = totals.get(d["target"], 0) + d["delta"]
        entries.append(entry)
        state, to_act, status = done["state"], done["to_act"], done["status"]
    entries[0]["comment"] = "先手"
    record = {"format": records.FORMAT, "format_version": records.FORMAT_VERSION,
              "game": "man", "players": RECORD_PLAYERS, "options": {"preset": "referee"},
              "tags": {"event": "Autumn Open", "site": "Kyoto", "date": "2026-11-25",
                       "round": "3", "table": "7", "referee": "Sato",
                       "names": {"ann": "Aoki", "bob": "Baba", "cho": "Chiba"}},
              "deals": [{"deal": {"seed": SEED, "seed_salt": SALT,
                                  "seed_commitment": dealt["seed_commitment"]},
                         "actions": entries,
                         "result": {"status": "finished", "totals": totals}}],
              "totals": totals}
    record["digest"] = records.digest(record)
    return record


def fresh() -> dict:
    from engine import registry
    from service.app import create_app
    from service.config import Settings

    registry.unregister("toy")
    return record(create_app(Settings(metrics=False)).test_client())


def main() -> None:
    examples.FILE.write_text(json.dumps(fresh(), ensure_ascii=False, indent=1) + "\n",
                             encoding="utf-8")


if __name__ == "__main__":
    main()
