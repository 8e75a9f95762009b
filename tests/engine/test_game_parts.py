"""A game's optional parts (engine/parts.py): what a game leaves out behaves as documented, a
part refuses a declaration it could not carry out, and a declaration written on the class
instead of in its part is refused rather than silently ignored."""
from __future__ import annotations

import pytest

from engine import adjudicate, referee, registry
from engine.errors import InvalidDeal
from engine.parts import TAKEN_BACK, Match, PhysicalDeals, RefereeRules, Sanction, SheetLayout
from engine.values import DealSetup, Transition
from tests.toygame import ToyGame


def test_a_sanction_with_an_effect_of_the_games_own_needs_the_games_hook():
    own = {"out_of_turn": Sanction("R-2", "barred", "禁止", effect="barred", ledger=None)}
    with pytest.raises(ValueError, match="sanction_effect"):
        RefereeRules("level", own)
    RefereeRules("level", own, sanction_effect=lambda s, a, r, x: Transition(s, (), ()))
    # an act taken back needs nothing of the game
    RefereeRules(sanctions={"x": Sanction("R-1", "taken back", "取り消し", effect=TAKEN_BACK)})


@pytest.mark.parametrize("name", ["match_fields", "accepts_hands", "table_fields", "penalty_kind",
                                  "sanctions", "count_penalty", "sheet_lines",
                                  "names_unseen_draw"])
def test_a_part_declared_on_the_class_is_refused_not_ignored(name):
    with pytest.raises(TypeError, match=name):
        type("Stray", (ToyGame,), {name: {}})


def test_without_parts_a_game_deals_from_a_deck_and_penalties_count_against_the_seat():
    game = ToyGame()
    assert game.match is None and game.physical is None and game.sheet is None
    registry.register(game)
    try:
        with pytest.raises(InvalidDeal) as err:
            adjudicate.deal("toy", ["ann", "bob"], hands={"ann": ["SA", "H2"], "bob": ["DK", "C3"]})
        assert err.value.path == "hands"
        state = game.deal(DealSetup(("ann", "bob"), {"stakes": 1}, "s"))
        counted = referee.count_penalty(game, state, "bob", -3, "penalty")
        assert counted.state is state
        assert [(d.target, d.kind, d.delta) for d in counted.score_deltas] == [("bob", "points", -3)]
        assert game.next_match(state) is None
    finally:
        registry.unregister("toy")


def test_every_games_parts_are_part_values_and_its_match_carries_the_referees_ledger():
    for game in registry.all_games():
        assert game.match is None or isinstance(game.match, Match)
        assert game.physical is None or isinstance(game.physical, PhysicalDeals)
        assert isinstance(game.referee, RefereeRules)
        assert game.sheet is None or isinstance(game.sheet, SheetLayout)
        # the engine's ledger joins every match's values (engine/features.py)
        assert game.match is None or referee.MATCH_KEY in game.match.fields
