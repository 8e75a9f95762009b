"""Every refusal a game can answer is in its catalogue (GET /v1/games), cites a rule that its
rules page (its `rules_doc`) has, and reads in English and Japanese."""
import random
import re
from pathlib import Path

import pytest

from engine import adjudicate, registry
from engine.adjudicate import ENGINE_REFUSAL_DETAILS
from engine.errors import InvalidAction
from engine.values import Refusal
from tests.adjudication import random_action
from tests.conformance import helpers

ROOT = Path(__file__).resolve().parents[2]
GAMES = [registry.get(g) for g in helpers.GAME_IDS]
SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_catalogue_codes_cite_rules_the_rules_page_has(game):
    page = (ROOT / game.rules_doc).read_text(encoding="utf-8")
    assert game.refusals
    for code, rule in game.refusals.items():
        assert SNAKE.match(code), code
        prefix, _, number = rule.partition(" ")
        assert prefix == game.id and number, (code, rule)
        assert re.search(rf"(^|[^\w.]){re.escape(number)}([^\w]|$)", page, re.M), \
            f"{code} cites {rule}, which {game.rules_doc} does not have"
        assert code in page, f"{code} is not listed in {game.rules_doc}"



@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_refusal_met_in_random_play_is_catalogued_with_its_rule_and_japanese(game):
    rnd = random.Random(game.id)
    seen = set()
    for deal_no in range(25):
        players = [f"p{i}" for i in range(4 if game.min_players <= 4 <= game.max_players else game.min_players)]
        state = adjudicate.deal(game.id, players, seed=f"catalogue-{deal_no}")["state"]
        for _ in range(150):
            try:
                out = adjudicate.validate(state, random_action(rnd, game, players))
            except InvalidAction:
                # A field the generator cannot fill (Manteur's declaration object): advance
                # by a listed legal action instead, so later refusals are met too.
                listed = [a for p in players for a in adjudicate.legal_actions(state, p)]
                if not listed:
                    continue
                out = adjudicate.validate(state, rnd.choice(listed))
            if out.valid:
                state = out.state
                if out.status == "finished":
                    break
                continue
            refusal: Refusal = out.refusal
            if refusal.code in ENGINE_REFUSAL_DETAILS:
                # the engine's own, the same in every game (the referee's ledger …): no
                # game's rule, published beside every game's refusals in the spec
                assert refusal.code not in game.refusals and refusal.rule == "", refusal.code
                assert JAPANESE.search(refusal.ja) and refusal.en, refusal.code
                continue
            seen.add(refusal.code)
            assert game.refusals.get(refusal.code) == refusal.rule, (refusal.code, refusal.rule)
            assert JAPANESE.search(refusal.ja) and refusal.en, refusal.code
    assert len(seen) >= min(5, len(game.refusals)), seen  # a small game has fewer to meet
