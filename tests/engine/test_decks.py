"""A game's deck as GET /v1/games publishes it (engine/decks.py): the options that change the
deck are found by trying their values, every setting of them is listed with its cards (each once,
with its copies and its names in both languages) in the game's table order."""
from __future__ import annotations

from collections import Counter
from itertools import product
from typing import Any, Mapping

import pytest

from engine import registry
from engine.cards import JOKERS, deck_32, deck_52, in_table_order
from engine.decks import option_values, published_deck
from engine.fields import Field, Option
from tests.conformance import helpers
from tests.toygame import ToyGame


class DeckGame(ToyGame):
    """The toy game with options that change its deck and options that do not."""
    options = (
        Option("short", Field("bool"), False, "T1"),
        Option("jokers", Field("int", minimum=0, maximum=2), 0, "T1"),
        Option("stakes", Field("int", minimum=1, maximum=10), 1, "T1"),  # tried: no change
        Option("target", Field("int", minimum=1, maximum=1000), 100, "T1"),  # too many to try
        Option("label", Field("str"), "", "T1"),
    )

    def deck(self, options: Mapping[str, Any]) -> list[str]:
        base = deck_32() if options["short"] else deck_52()
        return in_table_order(base + list(JOKERS[:options["jokers"]]) * 2, ("A", *"23456789",
                                                                           "10", "J", "Q", "K"))


def test_the_options_that_change_the_deck_are_found_and_every_setting_listed():
    published = published_deck(DeckGame())
    assert published["options"] == ["short", "jokers"]
    settings = [d["options"] for d in published["decks"]]
    assert settings == [{"short": s, "jokers": j} for s, j in product((False, True), (0, 1, 2))]
    by_setting = {(d["options"]["short"], d["options"]["jokers"]): d for d in published["decks"]}
    short_two = by_setting[(True, 2)]
    assert short_two["size"] == 32 + 4
    assert [c["card"] for c in short_two["cards"][:2]] == ["SA", "S7"]  # the game's order
    assert short_two["cards"][-1] == {"card": "RJ", "copies": 2,
                                      "names": {"en": "Red Joker", "ja": "赤ジョーカー"}}
    assert by_setting[(False, 0)]["cards"][9] == {"card": "S10", "copies": 1,
                                                  "names": {"en": "♠10", "ja": "♠10"}}


def test_a_game_with_one_deck_publishes_one_entry():
    class OneDeck(ToyGame):
        def deck(self, options: Mapping[str, Any]) -> list[str]:
            return deck_52()
    published = published_deck(OneDeck())
    assert published["options"] == [] and len(published["decks"]) == 1
    assert published["decks"][0]["options"] == {} and published["decks"][0]["size"] == 52


def test_only_options_with_few_values_are_tried():
    values = {o.name: option_values(o) for o in DeckGame.options}
    assert values == {"short": [False, True], "jokers": [0, 1, 2], "stakes": list(range(1, 11)),
                      "target": None, "label": None}
    assert option_values(Option("x", Field("bool", nullable=True), None)) == [False, True, None]


@pytest.mark.parametrize("game_id", helpers.GAME_IDS)
def test_each_published_deck_is_the_games_deck_for_its_setting(game_id):
    game = registry.get(game_id)
    published = game.describe()["deck"]
    defaults = {o.name: o.default for o in game.options}
    for entry in published["decks"]:
        assert set(entry["options"]) == set(published["options"])
        cards = game.deck({**defaults, **entry["options"]})
        assert Counter({c["card"]: c["copies"] for c in entry["cards"]}) == Counter(cards)
        assert [c["card"] for c in entry["cards"]] == list(dict.fromkeys(cards))
        assert entry["size"] == len(cards) > 0
