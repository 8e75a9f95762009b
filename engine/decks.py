"""A game's deck as GET /v1/games publishes it, from the game's `deck` hook (engine/game.py):
every card with its copies and its names for people, in the game's table order, and, when an
option changes the deck (Daifugo's jokers, Manteur's deck and jokers), the deck of every
setting of those options, so a client (the table page's card picker) needs no game's
knowledge of its own.

Which options change the deck is found, not declared: each option with a finite set of values
(an enum, a bool, an int bounded within a few values) is set in turn to each of them, the
others at their defaults; those whose value changes the deck are the deck's options, and every
combination of their values is listed. An option with no finite set of values (a free string,
a wide integer) must not change the deck.
"""
from __future__ import annotations

from collections import Counter
from itertools import product
from typing import Any, Sequence

from .cards import card_label
from .fields import Option

# An int option with more values than this is not tried: no deck depends on a score target.
MAX_INT_VALUES = 16


def option_values(option: Option) -> list[Any] | None:
    """Every value `option` may take, or None when they are not a small finite set."""
    f = option.field
    values: list[Any] | None = None
    if f.kind == "enum":
        values = list(f.choices)
    elif f.kind == "bool":
        values = [False, True]
    elif f.kind == "int" and f.minimum is not None and f.maximum is not None \
            and f.maximum - f.minimum < MAX_INT_VALUES:
        values = list(range(f.minimum, f.maximum + 1))
    if values is not None and f.nullable:
        values.append(None)
    return values


def cards_with_copies(cards: Sequence[str]) -> list[dict[str, Any]]:
    """Each distinct card once, in the order first listed, with its copies and names."""
    copies = Counter(cards)
    return [{"card": c, "copies": copies[c], "names": card_label(c)}
            for c in dict.fromkeys(cards)]


def published_deck(game: Any) -> dict[str, Any]:
    """`{options, decks}`: the option names the deck depends on (empty: one deck), and one
    entry per setting of them, `{options: {name: value}, size, cards: [{card, copies, names}]}`
    (the first entry the defaults' deck when no option matters)."""
    defaults = {o.name: o.default for o in game.options}
    base = list(game.deck(dict(defaults)))
    depends: list[tuple[str, list[Any]]] = []
    for option in game.options:
        values = option_values(option)
        if values is None:
            continue
        if any(list(game.deck({**defaults, option.name: v})) != base for v in values):
            depends.append((option.name, values))
    decks = []
    for combo in product(*(values for _name, values in depends)):
        setting = {name: value for (name, _values), value in zip(depends, combo)}
        cards = list(game.deck({**defaults, **setting}))
        decks.append({"options": setting, "size": len(cards), "cards": cards_with_copies(cards)})
    return {"options": [name for name, _values in depends], "decks": decks}
