"""U16: a game written in the UECda table form (hands and submissions as 8x15 tables, seats
as numbers) converts with uecda.py and replays through adjudicate.replay (a deal with `hands`)
to the same finishing order; the uecda-table lookup converts both ways."""
import json
from pathlib import Path

from engine import adjudicate
from engine.games.daifugo.uecda import table_to_cards, table_to_hand

GAME_FILE = Path(__file__).parent / "data" / "uecda_game.json"
PLAYERS = ["p0", "p1", "p2", "p3", "p4"]


def _table(rows):
    return [[int(ch) for ch in row] for row in rows]


def test_U16_recorded_uecda_game_replays_move_by_move_to_its_finishing_order():
    rec = json.loads(GAME_FILE.read_text())
    hands = {p: table_to_hand(_table(rows)) for p, rows in zip(PLAYERS, rec["hands"])}
    actions = []
    jokers_played = 0
    for move in rec["moves"]:
        cards, jokers = table_to_cards(_table(move["table"]))
        player = PLAYERS[move["seat"]]
        if not cards:
            actions.append({"type": "pass", "player": player})
        else:
            jokers_played += "BJ" in cards
            actions.append({"type": "play", "player": player, "cards": cards,
                            **({"jokers": jokers} if jokers else {})})
    out = adjudicate.replay({"game_id": "daifugo", "players": PLAYERS,
                             "options": {"preset": "uecda"}, "hands": hands, "seed": "r",
                             # D9: a deal from hands takes the pass limit's order from the table
                             "table": {"pass_limit_order": PLAYERS}},
                            actions)
    assert out["stopped"] is None
    assert out["status"] == "finished"
    assert out["state"]["result"]["finish_order"] == [PLAYERS[i] for i in rec["finish_order"]]
    assert out["totals"] == {PLAYERS[i]: 5 - k for k, i in enumerate(rec["finish_order"])}
    # U2: the ♦3 holder led
    assert PLAYERS[rec["moves"][0]["seat"]] == next(p for p, h in hands.items() if "D3" in h)
    assert jokers_played == 1


def test_U16_lookup_table_to_cards_and_back():
    flat = ["0" * 15] * 8
    flat[1] = "000001000000000"   # H7
    flat[0] = "000002000000000"   # the joker as S7
    out = adjudicate.lookup("daifugo", "uecda-table", {"kind": "play", "table": flat})
    assert out["cards"] == ["BJ", "H7"] and out["jokers"] == ["S7"] and not out["pass"]
    back = adjudicate.lookup("daifugo", "uecda-table", {"kind": "play", "cards": ["BJ", "H7"],
                                                             "jokers": ["S7"]})
    assert back["table"] == flat
    hand = adjudicate.lookup("daifugo", "uecda-table", {"kind": "hand", "cards": ["S3", "BJ"]})
    assert hand["table"][0][1] == "1" and hand["table"][4][1] == "2"
    assert adjudicate.lookup("daifugo", "uecda-table", {"kind": "play",
                                                         "table": ["0" * 15] * 5})["pass"]
    for bad in ({"table": ["0" * 15] * 4}, {"table": ["3" * 15] * 8}, {"cards": ["S3", "H5"]},
                {"cards": ["S3"], "table": ["0" * 15] * 8}, {"table": ["x" * 15] * 8}, {}):
        out = adjudicate.lookup("daifugo", "uecda-table", {"kind": "play", **bad})
        assert out["valid"] is False and out["error"], bad
