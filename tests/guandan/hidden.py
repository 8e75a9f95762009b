"""What the hidden-information tests (tests/engine/test_hidden_information.py) must know of
Guandan beyond its conformance facts: the cards a seat cannot see (a tribute received is public,
T-9) and its later deals (the tribute phases)."""
from __future__ import annotations

import random
from typing import Any

from engine.cards import remove_cards
from tests.leaks import Pile, hand_setter


def piles(j: dict, seat: str) -> list[Pile]:
    """Other hands (a tribute card received is public, T-9, so it stays with its receiver)."""
    piles: list[Pile] = []
    for p in j["players"]:
        if p == seat:
            continue
        fixed = [t["card"] for t in j["tributes"] if t["receiver"] == p and t["card"]
                 and t["returned"] is None and t["card"] in j["hands"][p]]
        piles.append((hand_setter(p), fixed, remove_cards(j["hands"][p], fixed)))
    # A return given in a double tribute is hidden until the other is given, and then both are
    # shown (T-9): the second return's answer reveals it by the rules, so it stays as it is.
    return piles


def deal_request(rnd: random.Random, players: list[str]) -> dict[str, Any]:
    """Now and then a later deal: the tribute phases too, anti-tribute claimed or automatic."""
    if rnd.random() >= 0.6:
        return {}
    order = rnd.sample(players, 4)
    if players.index(order[0]) % 2 == players.index(order[1]) % 2:
        order = order[:2]
    return {"match": {"levels": {"team1": "5", "team2": "9"}, "previous_order": order,
                      "deal_number": 1},
            "options": {"preset": rnd.choice(["seed", "official", "pagat"]),
                        "anti_tribute": rnd.choice(["automatic", "optional"])}}
