"""Physical deals, what every game shares: a deal from the cards on the table gives each seat's
`hands` and, where the game declares one (`Game.physical`, PhysicalDeals.table_fields), the
`table` of what else lies face up. A table needs hands; a game with nothing face up beside the
hands takes no table."""
from __future__ import annotations

import pytest

from engine import adjudicate, registry
from engine.errors import InvalidDeal

GAMES = [g.id for g in registry.all_games()]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_table_without_hands_is_refused_naming_the_table(game_id):
    game = registry.get(game_id)
    players = [f"p{i}" for i in range(game.min_players if game.min_players > 1 else 2)]
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal(game_id, players, table={})
    assert err.value.path == "table"


@pytest.mark.parametrize("game_id", [g for g in GAMES if (physical := registry.get(g).physical)
                                     is not None and not physical.table_fields])
def test_a_game_with_nothing_face_up_takes_no_table(game_id):
    game = registry.get(game_id)
    players = [f"p{i}" for i in range(game.min_players)]
    dealt = adjudicate.deal(game_id, players, seed="physical")
    if "hands" in dealt["state"]:
        hands = {p: dealt["state"]["hands"][p] for p in players}
    else:  # one hand travels (Manteur, B3): the starter's, every other seat's empty
        hands = {p: dealt["state"]["hand"] if p == players[0] else [] for p in players}
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal(game_id, players, hands=hands, table={"anything": 1})
    assert err.value.path == "table" and "takes no table" in str(err.value)
