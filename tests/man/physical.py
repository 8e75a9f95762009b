"""Physical deals of Man (2.7, 3.10) for the tests: random hands and start cards as a table would
turn them, and the cards a draw or a flip from an unknown stock names, picked at random from the
unseen cards. Independent of the engine's own turning rule (written out again here)."""
from __future__ import annotations

import random

from engine.cards import deck_52, rank_of, suit_of

EFFECT = {"A", "2", "3", "8", "J"}  # 1.3


def _matches_someone(hands: dict, card: str) -> bool:
    return any(rank_of(c) == rank_of(card) or suit_of(c) == suit_of(card)
               for h in hands.values() for c in h)


def _stops(hands: dict, card: str, by_dealer: bool, flip_again: bool) -> bool:
    """2.3, 2.5: the dealer stops turning at `card`."""
    if rank_of(card) in EFFECT:
        return by_dealer
    return not flip_again or _matches_someone(hands, card)


def _turn(rng: random.Random, unseen: list, hands: dict, by_dealer: bool,
          flip_again: bool) -> list:
    turned = []
    while unseen:
        card = unseen.pop(rng.randrange(len(unseen)))
        turned.append(card)
        if _stops(hands, card, by_dealer, flip_again):
            break
    return turned


def random_table(rng: random.Random, players, options: dict) -> dict:
    """A deal request's `hands` and `table` from a shuffled deck: three cards a seat, the
    start cards turned as 2.3 and 2.5 turn them."""
    deck = deck_52()
    rng.shuffle(deck)
    hands = {p: deck[3 * i:3 * i + 3] for i, p in enumerate(players)}
    unseen = deck[3 * len(players):]
    start = _turn(rng, unseen, hands, options.get("start_card") == "by_dealer",
                  options.get("no_opening_match", "flip_again") == "flip_again")
    return {"hands": hands, "table": {"start_cards": start}}


def complete(rng: random.Random, state: dict, action: dict) -> dict:
    """A listed draw or flip from an unknown stock, its `cards` filled in (3.10) as a table
    would draw them: the stock's cards first, then, once it is empty, the discard pile under
    its top card (3.9)."""
    if state["stock_known"] or action["type"] not in ("draw", "flip"):
        return action
    stock = list(state["stock"])
    opts = state["options"]
    if action["type"] == "flip":
        hands = state["hands"]
        return {**action, "cards": _turn(rng, stock, hands, True,
                                         opts["no_opening_match"] == "flip_again")}
    count = state["pending_draw"] or 1
    if opts["stock_exhausted"] == "draw_game" and len(stock) < count:
        return {**action, "cards": []}  # 3.9: drawn, nothing taken
    cards = []
    rng.shuffle(stock)
    cards += stock[:count]
    if len(cards) < count and opts["stock_exhausted"] == "reshuffle":
        refill = list(state["discard"][:-1])
        rng.shuffle(refill)
        cards += refill[:count - len(cards)]
    return {**action, "cards": cards}
