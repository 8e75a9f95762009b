"""Adjudicating one action in a test: the builders every game's tests share."""
from __future__ import annotations

from typing import Any

from engine import adjudicate
from engine.game import Refusal


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
