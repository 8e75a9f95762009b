"""Hidden-information checks shared by the games' property tests: which cards a view shows."""
from __future__ import annotations

from typing import Any, Callable

from engine.cards import is_card

# A pile of cards a seat cannot see (tests/engine/test_hidden_information.py and the games'
# tests/<id>/hidden.py): where it lives in the state (a setter), the cards that must stay
# (public facts about it), and the cards that may move between piles.
Pile = tuple[Callable[[dict, list], None], list, list]


def hand_setter(seat: str, key: str = "hands") -> Callable[[dict, list], None]:
    """The setter of a Pile that is `seat`'s hand in the state's `key`."""
    def put(state: dict, cards: list) -> None:
        state[key][seat] = cards
    return put


def _scan(view: Any) -> tuple[set[str], set[Any]]:
    """(every key, every scalar) anywhere in a JSON view, in one pass: the games' property
    tests scan every seat's view after every step, and three walks of each view (a generator
    of tagged items each) were most of the time of the largest of them."""
    keys: set[str] = set()
    scalars: set[Any] = set()
    stack = [view]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            keys.update(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):  # the only scalars a card or a key can be
            scalars.add(item)
    return keys, scalars


def keys_in(view: Any) -> set[str]:
    return _scan(view)[0]


def _cards(keys: set[str], scalars: set[Any]) -> set[str]:
    return {item for item in keys | scalars if isinstance(item, str) and is_card(item)}


def cards_shown(view: Any) -> set[str]:
    """Every card token anywhere in a view, as a key or a value."""
    return _cards(*_scan(view))


def assert_no_leak(view: dict, hidden: set[str], who: str | None) -> None:
    """No hidden card anywhere in the view, and no seed (it fixes every later shuffle)."""
    keys, scalars = _scan(view)
    leaked = _cards(keys & hidden, scalars & hidden)
    assert not leaked, f"{who!r} sees hidden cards {sorted(leaked)}"
    assert "seed" not in keys, f"{who!r} sees the seed"
    assert "seed_salt" not in keys, f"{who!r} sees the seed's commitment salt"


# What a refusal may say of a card named as received from a stock whose order is unknown (a
# physical deal, man 3.10, manteur B.6) and that the seat cannot see: only that it is not among
# the cards left to draw. Refusing it says that much whatever the message (the engine knows every
# hand as the referee entered it, and cannot take as drawn a card that lies elsewhere). That is
# the engine's answer; under sealing the service gives a seat neither, since naming such a card
# is the referee's act (tests/service/test_sealed_physical_draws.py, docs/security.md).
UNSEEN_WHERE = "not in the stock"


def differ_only_by_an_unseen_draw(a: dict, b: dict) -> bool:
    """Two answers a seat got to the same action in two states that look the same to it may
    differ only where the action names, as drawn from an unknown stock, a card the seat cannot
    see that lies in the stock in one state and elsewhere in the other: refused there as
    `stock_card_seen` saying no more than UNSEEN_WHERE (never which hand or pile), and taken
    in the other, whose answer is then that of the rest of the action (accepted, or refused for
    a later card or check: pairs where the card lies in the stock in both states check that)."""
    def as_unseen(x: dict) -> bool:
        return x.get("valid") is False and x.get("code") == "stock_card_seen" and \
            (x.get("details") or {}).get("where") == UNSEEN_WHERE
    return (as_unseen(a) or as_unseen(b)) and all("valid" in x for x in (a, b))
