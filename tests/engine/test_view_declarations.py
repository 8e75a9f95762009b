"""Every view a game answers is its declared view (`Game.view_type`, published as
`<Game>View`): every seat's and the spectator's, at every step of random deals of every game,
converts to the declaration and fits the published schema, so a client generated from
openapi.yaml reads every view the service sends."""
from __future__ import annotations

import random

import msgspec
import pytest
from openapi_schema_validator import OAS30Validator

from engine import adjudicate, registry
from tests.adjudication import random_deal_play_out
from tests.sizing import examples

PRODUCT_GAMES = sorted(g.id for g in registry.all_games() if g.id not in ("toy", "crash"))


def view_errors(game_id: str, view: dict) -> list[str]:
    """Why `view` is not its game's declared view (empty: it is)."""
    game = registry.get(game_id)
    try:
        msgspec.convert(view, game.view_type)
    except msgspec.ValidationError as err:
        return [f"{game_id}: {err}"]
    # the service types `x-game-actions` lists as the game's actions; here: objects
    schema = OAS30Validator(game.view_schema)
    return [f"{game_id} {'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in schema.iter_errors(view)]


@pytest.mark.parametrize("game_id", PRODUCT_GAMES)
def test_every_seats_and_the_spectators_view_of_random_deals_is_the_declared_view(game_id):
    game = registry.get(game_id)
    assert game.view_type is not None and game.view_schema["properties"]["game"]["enum"] == [game_id]
    steps = 0
    for seed in range(examples(4)):
        rnd = random.Random(f"views-{game_id}-{seed}")
        for players, state, _applied in random_deal_play_out(game_id, rnd, f"views-{seed}"):
            for viewer in [*players, None]:
                view = adjudicate.view(state, viewer)
                assert view["game"] == game_id
                assert not view_errors(game_id, view), view_errors(game_id, view)
            steps += 1
        assert state["status"] == "finished", f"{game_id}: deal {seed} did not finish"
    assert steps > 10


def test_a_view_off_its_declaration_is_told_apart():
    out = adjudicate.deal("man", ["a", "b", "c"], None, "off")
    view = adjudicate.view(out["state"], "a")
    assert not view_errors("man", view)
    assert view_errors("man", {**view, "seed": "leaked"})          # a field it never shows
    assert view_errors("man", {**view, "stock": ["S2"]})           # the stock is never shown
    assert view_errors("man", {k: v for k, v in view.items() if k != "viewer"})
    assert view_errors("man", {**view, "game": "daifugo"})
