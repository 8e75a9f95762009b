"""What the hidden-information tests (tests/engine/test_hidden_information.py) must know of
Man beyond its conformance facts: the cards a seat cannot see (other hands neither public nor
shown, the stock below the next draw), the calls every seat sees, the options of its deals and
of its referee mode, a physical deal as a table enters it, a draw naming its cards."""
from __future__ import annotations

import random
from typing import Any

from engine import adjudicate
from engine.cards import remove_cards
from engine.games.man.numbers import in_reach
from engine.games.man.state import DECK_ORDER
from tests.leaks import Pile, hand_setter
from tests.man.physical import complete as complete_draw, random_table  # noqa: F401 (a hook)


def piles(j: dict, seat: str) -> list[Pile]:
    """Other hands neither public (3.6) nor shown (5.4); the stock below the cards the next
    draw could take (a seat's own draw legitimately tells it those cards)."""
    piles: list[Pile] = []
    for p in j["players"]:
        if p != seat and not j["public"][p] and not j["shown"][p]:
            fixed = list(j["drawn_cards"]) if p == j["turn"] else []
            piles.append((hand_setter(p), fixed, remove_cards(j["hands"][p], fixed)))
    if not j["stock_known"]:  # a physical deal: the unseen cards, in deck order (2.7)
        def unknown(state: dict, cards: list) -> None:
            state["stock"] = sorted(cards, key=DECK_ORDER.__getitem__)
        piles.append((unknown, [], list(j["stock"])))
        return piles
    keep = max(1, j["pending_draw"])
    head = list(j["stock"][:keep])

    def stock(state: dict, cards: list) -> None:
        state["stock"] = head + cards
    piles.append((stock, [], list(j["stock"][keep:])))
    return piles


def public_facts(j: dict) -> bool:
    """Every seat's calls are public (6.1, 2.2): the reach flag of a seat that has called, or
    of any seat with automatic calls, is its hand's (before this turn's draw, for the seat
    on turn)."""
    for p in j["players"]:
        if j["options"]["calls"] == "declared" and j["last_call"][p] is None:
            continue  # a declared deal call not made yet: the hand may or may not owe it
        hand = list(j["hands"][p])
        if p == j["turn"] and j["drew"]:
            hand = remove_cards(hand, j["drawn_cards"])
        if j["reach"][p] != in_reach(hand):
            return False
    return True


def deal_request(rnd: random.Random, players: list[str]) -> dict[str, Any]:
    return {"options": {"preset": rnd.choice(["standard", "referee"]),
                        "penalty_draw_ends_turn": rnd.random() < 0.5,
                        "man_window": rnd.choice(["next_action", "until_covered"])}}


def referee_options(rnd: random.Random) -> dict[str, Any]:
    """Referee mode is Man's `chombo` and its referee preset (violations)."""
    return {"preset": rnd.choice(["standard", "referee"]),
            "penalty_draw_ends_turn": rnd.random() < 0.5}


def physical_request(rnd: random.Random, players: list[str], options: dict) -> dict[str, Any]:
    """2.7: the table names its start cards and its dealer."""
    seeded = adjudicate.deal("man", players, options=options, seed=f"t{rnd.random()}")["state"]
    return {**random_table(rnd, players, seeded["options"]), "dealer": rnd.choice(players)}
