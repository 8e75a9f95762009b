"""What the hidden-information tests (tests/engine/test_hidden_information.py) must know of
Manteur beyond its conformance facts: the cards a seat cannot see (the hand unless it holds it, the
face-down discards, the stock below the next exchange), a physical deal (the starter's five
cards) and a draw naming its cards."""
from __future__ import annotations

import random
from typing import Any

from engine import adjudicate, registry
from engine.games.manteur.state import deck_of
from tests.leaks import Pile
from tests.manteur.physical import complete as complete_draw  # noqa: F401 (a hook)


def piles(j: dict, seat: str) -> list[Pile]:
    """The hand unless this seat holds it; the face-down discards; the stock below the five
    cards an exchange could draw."""
    piles: list[Pile] = []
    if seat != j["holder"]:
        def hand(state: dict, cards: list) -> None:
            state["hand"] = cards
        piles.append((hand, [], list(j["hand"])))

    def discard(state: dict, cards: list) -> None:
        state["discard"] = cards
    piles.append((discard, [], list(j["discard"])))
    head = list(j["stock"][:5])
    if not j["stock_known"]:  # a physical deal: the unseen cards, in deck order (B.6)
        order = {c: i for i, c in enumerate(deck_of(registry.get("manteur").decode(j).options))}

        def stock(state: dict, cards: list) -> None:
            state["stock"] = sorted(cards, key=order.__getitem__)
        piles.append((stock, [], list(j["stock"])))
        return piles

    def stock(state: dict, cards: list) -> None:
        state["stock"] = head + cards
    piles.append((stock, [], list(j["stock"][5:])))
    return piles


def physical_request(rnd: random.Random, players: list[str], options: dict) -> dict[str, Any]:
    """B.6: one hand travels (B3): the starter's five cards, every other seat empty."""
    seeded = adjudicate.deal("manteur", players, options=options, seed=f"t{rnd.random()}")["state"]
    return {"hands": {p: list(seeded["hand"]) if p == seeded["holder"] else [] for p in players}}
