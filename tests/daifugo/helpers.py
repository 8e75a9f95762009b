"""Builders for hand-made Daifugo states (through JSON + decode, so each is a valid state)."""
from __future__ import annotations

from typing import Any

from engine.games.daifugo import GAME
from engine.games.daifugo.options import DEFAULTS, PRESETS, play_rules
from engine.games.daifugo.phases import deck_of, to_struct
from engine.games.daifugo.plays import read_play
from engine.games.daifugo.state import VERSION
from engine.state import encode_state
from tests.adjudication import act, ok, refused  # noqa: F401 (re-exported)


def options(preset: str = "seed", **kw) -> dict:
    return {**DEFAULTS, **PRESETS[preset], **kw}


def build(hands: dict[str, list[str]], top: list[str] | None = None, by: str | None = None,
          jokers: list[str] | None = None, turn: str | None = None, preset: str = "seed",
          opts: dict | None = None, **overrides: Any) -> dict:
    """A deal in play: `hands` by player (seat order), `top` the field's top play made by
    `by`; every other card of the deck lies in the discards."""
    o = options(preset, **(opts or {}))
    players = list(hands)
    used = [c for h in hands.values() for c in h] + list(top or [])
    assert len(set(used)) == len(used), "a card is used twice"
    rest = [c for c in deck_of(type("O", (), o)) if c not in used]
    top_json = None
    if top:
        play = read_play(top, jokers, play_rules(o))
        top_json = encode_state(to_struct(play, by or players[-1]))
    state = {
        "game": "daifugo", "version": VERSION, "players": players, "options": o, "seed": "test",
        "phase": "play", "status": "in_progress",
        "match": {"deal": 1, "points": {p: 0 for p in players}, "finish_order": []},
        "hands": {p: list(h) for p, h in hands.items()}, "leader": players[0],
        "turn": turn or players[0], "direction": 1, "top": top_json,
        "pile": list(top or []), "discards": rest, "revolution": False, "jack_back": False,
        "locked_suits": None, "sequence_lock": False, "passed": [], "passed_field": [],
        "jack_backs_used": 0, "finished": [], "fallen": [], "owed": None, "exchange": [],
        "result": None, "next_match": None, "passes_in_a_row": 0,
        "pass_limit_order": None,
    }
    state.update(overrides)
    GAME.decode(state)
    return state




def play(state: dict, player: str, cards: str, **fields) -> dict:
    return ok(state, "play", player, cards=cards.split(), **fields).state


def pass_(state: dict, player: str) -> dict:
    return ok(state, "pass", player).state


def events(res) -> list[str]:
    return [e["type"] for e in res.events]
