"""Adjudicating one action in a test: the builders every game's tests share."""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from engine import adjudicate, registry
from engine.cards import SUITS, deck_52
from engine.errors import InputError, InvalidDeal
from engine.values import Refusal


def judged(actions: list[dict]) -> list[dict]:
    """Listed actions as the fields that judge them, without `text` (a button's words,
    checked by tests/engine/test_action_words.py and the conformance tests): what a rule's
    test compares is what the rule decides."""
    return [{k: v for k, v in a.items() if k != "text"} for a in actions]


def act(state: dict, type_: str, player: str, **fields) -> Any:
    """validate() of one action: an Applied or a Refused."""
    return adjudicate.validate(state, {"type": type_, "player": player, **fields})


def ok(state: dict, type_: str, player: str, **fields):
    res = act(state, type_, player, **fields)
    assert res.valid, (type_, player, fields, res.refusal.code, res.refusal.en)
    return res


def refused(state: dict, type_: str, player: str, **fields) -> Refusal:
    res = act(state, type_, player, **fields)
    assert not res.valid, f"{type_} by {player} {fields} was accepted"
    assert res.state == state
    return res.refusal


def refused_at(call: Callable[..., Any], *args: Any, **kwargs: Any) -> str:
    """The path `call(*args, **kwargs)` is refused at (its InputError's): what a test of input
    the rules cannot produce compares. Fails the test when the call is accepted."""
    with pytest.raises(InputError) as refused:
        call(*args, **kwargs)
    return refused.value.path


def random_action(rnd: random.Random, game, players: list, seat: str | None = None) -> dict:
    """Any action of `game`'s declared types with random values for its fields (legal or not),
    by `seat` or a random player: for checks that every answer, refused ones included, holds."""
    kind = rnd.choice(game.actions)
    action: dict[str, Any] = {"type": kind.name, "player": seat or rnd.choice(players)}
    for name, field in kind.fields.items():
        if not field.required and rnd.random() < 0.5:
            continue
        action[name] = {
            "cards": lambda: rnd.sample(deck_52(), rnd.randint(1, 3)),
            "card": lambda: rnd.choice(deck_52()),
            "suit": lambda: rnd.choice(SUITS),
            "enum": lambda: rnd.choice([c for c in field.choices if c is not None] or [None]),
            "player": lambda: rnd.choice(players),
            "int": lambda: rnd.randint(field.minimum or 0, field.maximum or 5),
            "bool": lambda: rnd.random() < 0.5,
        }.get(field.kind, lambda: "seen at the table")()
    return action


def random_deal_play_out(game_id: str, rnd: random.Random, seed: str, most_players: int = 6):
    """A deal of `game_id` at a random table (a count it deals to, up to `most_players`) played
    with random legal actions — mostly ones that take the deal on (a random walk of draws and
    passes can take long) — to its end or 3,000 actions. Yields (players, state, applied) for
    each action, the state it was taken in first, then (players, last state, None)."""
    game = registry.get(game_id)
    counts = [n for n in range(game.min_players, min(game.max_players, most_players) + 1)]
    while True:
        players = [f"p{i}" for i in range(rnd.choice(counts))]
        try:
            out = adjudicate.deal(game_id, players, None, seed)
            break
        except InvalidDeal:
            counts.remove(len(players))  # a count the game is not played by (Manillen: 5)
    state, to_act, status = out["state"], out["to_act"], out["status"]
    for _ in range(3000):
        if status == "finished":
            break
        legal = [a for p in to_act for a in adjudicate.legal_actions(state, p)]
        moving = [a for a in legal if a["type"] not in ("draw", "pass", "chombo", "end_turn")]
        applied = adjudicate.validate(state, rnd.choice(
            moving if moving and rnd.random() < 0.8 else legal))
        yield players, state, applied
        state, to_act, status = applied.state, applied.to_act, applied.status
    yield players, state, None
