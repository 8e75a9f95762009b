"""Playing deals for the referee's standing tests (tests/engine/test_referee_standings.py and
each game's test_referee_standing.py): checked acts, random play to a deal's end, and deals
from an explicit deck in a random order with the `table` of what the rules decide at random —
the deck and the table fields the game's own (Game.deck, PhysicalDeals.table_fields): nothing here names
a game."""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from engine import adjudicate, registry
from engine.errors import InvalidDeal
from engine.fields import Field


def physical_table_fields(game: Any) -> dict[str, Field]:
    """What a physical deal's `table` of `game` may carry (none for a game without physical
    deals)."""
    return dict(game.physical.table_fields) if game.physical is not None else {}

def act(state: dict, action: dict):
    out = adjudicate.validate(state, action)
    assert out.valid, getattr(out, "refusal", None) and out.refusal.to_json()
    return out


def penalty(state: dict, player: str, points: int, reason: str = "slow play"):
    return act(state, {"type": "penalty", "player": player, "points": points,
                       "reason": reason})


def withdraw(state: dict, player: str, entry: int):
    return act(state, {"type": "withdraw", "player": player, "entry": entry})


def finish(state: dict, rnd: random.Random) -> tuple[object, Counter]:
    """Random legal moves to the end of the deal: the last answer, every delta summed."""
    deltas: Counter = Counter()
    out = None
    to_act = adjudicate.game_by_id(state["game"]).to_act(
        adjudicate.load_state(state)[1])
    for _ in range(4000):
        if not to_act:
            break
        legal = [a for p in to_act for a in adjudicate.legal_actions(state, p)]
        moving = [a for a in legal if a["type"] not in ("draw", "pass", "end_turn")]
        out = act(state, rnd.choice(moving if moving and rnd.random() < 0.8 else legal))
        for d in out.score_deltas:
            deltas[d["target"]] += d["delta"]
        state, to_act = out.state, out.to_act
        if out.status == "finished":
            break
    assert out is not None and out.status == "finished"
    return out, deltas


def table_value(field: Field, cards: list[str], players: list[str], rnd: random.Random) -> Any:
    """A random value of a declared `table` field, as a table's random decision: a card of
    the deck, a seat, one of the choices."""
    if field.kind == "card":
        return rnd.choice(cards)
    if field.kind == "cards":
        return rnd.sample(cards, 2)
    if field.kind == "player":
        return rnd.choice(players)
    if field.kind == "players":
        return rnd.sample(players, len(players))
    if field.kind == "enum":
        return rnd.choice(list(field.choices))
    if field.kind == "bool":
        return rnd.random() < 0.5
    if field.kind == "int":
        return field.minimum if field.minimum is not None else 0
    raise AssertionError(f"no random table value of kind {field.kind!r}")


def deck_request(game_id: str, players: list[str], rnd: random.Random,
                 match: dict | None = None, tries: int = 60) -> dict:
    """A deal of the game from its deck (Game.deck, default options) in a random order, with
    the `table` of what its rules decide at random and no seed: each table field the deal asks
    for (an InvalidDeal at `table.<field>`) drawn at random from what it declares, again until
    the deal takes it (Guandan's leader must hold the cut card, G-4)."""
    game = registry.get(game_id)
    cards = list(game.deck(game.resolve_options({})))
    rnd.shuffle(cards)
    request: dict = {"players": players, "deck": cards}
    if match is not None:
        request["match"] = match
    table: dict = {}
    for _ in range(tries):
        try:
            adjudicate.deal(game_id, **request, **({"table": table} if table else {}))
        except InvalidDeal as err:
            name = err.path.split(".")[1] if err.path.startswith("table.") else None
            if name not in physical_table_fields(game):
                raise
            table[name] = table_value(physical_table_fields(game)[name], cards, players, rnd)
            continue
        if table:
            request["table"] = table
        return request
    raise AssertionError(f"{game_id}: no table found that a deck deal takes: {table}")
