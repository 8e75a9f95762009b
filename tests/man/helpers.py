"""Builders for hand-made Man states (through encode/decode, so every state is a valid one)."""
from __future__ import annotations

from typing import Any

from engine import adjudicate
from engine.cards import deck_52
from engine.games.man import GAME
from engine.games.man.options import DEFAULTS
from engine.games.man.state import VERSION
from tests.adjudication import act, judged, ok, refused  # noqa: F401 (re-exported)

PLAYERS = ["A", "B", "C", "D"]


def arranged_deck(hands: list[list[str]], then: list[str]) -> list[str]:
    """A deck that deals `hands` (seat order, three each) and then has `then` on top of the
    stock; the remaining cards follow in deck_52 order."""
    head = [c for h in hands for c in h] + list(then)
    assert len(set(head)) == len(head), "a card is used twice"
    return head + [c for c in deck_52() if c not in head]


def deal(hands, then, players=None, **options) -> dict:
    players = players or PLAYERS[:len(hands)]
    return adjudicate.deal("man", players, options=options, seed="test",
                           deck=arranged_deck(hands, then))["state"]


def build(hands: dict[str, list[str]], top: list[str], stock: list[str] | None = None,
          turn: str | None = "A", top_by: str | None = None, first_turn: bool = False,
          options: dict | None = None, **overrides: Any) -> dict:
    """A mid-game state: `hands` by player, `top` the discard pile (last on top), `stock` the
    next cards; every other card goes to the bottom of the stock. By default nobody is in a
    first turn, the top card was played by `top_by` and may be manned by everyone else."""
    players = list(hands)
    used = [c for h in hands.values() for c in h] + list(top) + list(stock or [])
    assert len(set(used)) == len(used), "a card is used twice"
    rest = [c for c in deck_52() if c not in used]
    from engine.games.man.numbers import in_reach
    state = {
        "game": "man", "version": VERSION, "options": {**DEFAULTS, **(options or {})},
        "players": players, "seed": "test", "dealer": players[0],
        "phase": "play" if turn is not None else "opening", "status": "in_progress",
        "stock": list(stock or []) + rest, "stock_known": True, "discard": list(top),
        "hands": {p: list(h) for p, h in hands.items()}, "start_cards": [top[0]],
        "top_by": top_by, "top_manable": top_by is not None, "direction": 1, "turn": turn,
        "pending_draw": 0, "named_suit": None,
        "first_turn": {p: first_turn for p in players}, "drew": False, "drawn_cards": [],
        "drew_penalty": False, "let_go": [],
        "reach": {p: in_reach(h) for p, h in hands.items()},
        "last_call": {p: None for p in players}, "public": {p: False for p in players},
        "shown": {p: False for p in players},
        "window": [p for p in players if p != top_by] if top_by is not None else [],
        "chain": None, "reshuffles": 0,
        "match": {"totals": {p: 0 for p in players}, "games_played": 0, "over": False,
                  "winner": None},
        "result": None, "next_dealer": None,
    }
    state.update(overrides)
    # Must decode: the builder only makes states the engine accepts.
    GAME.decode(state)
    return state




def legal(state: dict, player: str) -> list[dict]:
    return judged(adjudicate.legal_actions(state, player))


def apply_action(state: dict, action: dict):
    """Direct engine use (no JSON layer), for property tests."""
    s = GAME.decode(state)
    a = GAME.parse_action(action, state["players"])
    return GAME.apply(s, a)
