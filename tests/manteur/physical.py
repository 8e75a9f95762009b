"""Physical deals of Manteur (B.6) for the tests: the cards an exchange or a new round's deal
from an unknown stock names, picked at random as a table would receive them."""
from __future__ import annotations

import random


def complete(rng: random.Random, state: dict, action: dict) -> dict:
    """A listed exchange or deal from an unknown stock with its cards filled in as a table
    would: the stock's cards first, then, once it is empty, the discards (B18), never the cards
    being given back."""
    if state["stock_known"]:
        return action
    stock = list(state["stock"])
    rng.shuffle(stock)
    if action["type"] == "deal":
        return {**action, "cards": stock[:5]}
    if action["type"] != "exchange":
        return action
    n = len(action["cards"])
    drawn = stock[:n]
    if len(drawn) < n:
        refill = list(state["discard"])
        rng.shuffle(refill)
        drawn += refill[:n - len(drawn)]
    return {**action, "drawn": drawn}
