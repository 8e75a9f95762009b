"""A game's reported deal as GET /v1/games describes it (engine/parts.py ReportedDeals `fields`,
`sides`): the pages build their forms from it alone, so it must say exactly the fields of the
deal type the engine decodes, in its order and types, and whatever a form fills from it must
decode (the rules may still refuse it, with a path, but never as a malformed shape)."""
from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import given, settings, strategies as st

from engine import registry
from engine.errors import InputError
from engine.fields import Field, FieldError
from engine.state import openapi_schema
from tests.sizing import examples

REPORTING = [g for g in registry.all_games() if g.reported is not None]
# What each declared kind is in the decoded type's schema (OpenAPI 3.0: type, item type).
SCHEMA_TYPES = {"player": ("string", None), "player_list": ("array", "string"),
                "enum": ("string", None), "bool": ("boolean", None),
                "int_map": ("object", None), "str_list_list": ("array", "array")}


def _shape(schema: dict[str, Any]) -> tuple[str | None, str | None]:
    items = schema.get("items") or {}
    return schema.get("type"), items.get("type")


@pytest.mark.parametrize("game", REPORTING, ids=lambda g: g.id)
def test_the_described_fields_are_the_deal_types_own_in_order_type_and_need(game):
    deal = game.reported.deal
    schema = openapi_schema(deal)
    assert list(game.reported.fields) == list(deal.__struct_fields__)
    required = set(schema.get("required", []))
    for name, fld in game.reported.fields.items():
        assert fld.required == (name in required), name
        assert SCHEMA_TYPES[fld.kind] == _shape(schema["properties"][name]), name
        allowed = schema["properties"][name].get("enum") or \
            schema["properties"][name].get("items", {}).get("items", {}).get("enum")
        if fld.choices:
            assert {c for c in allowed if c is not None} == set(fld.choices), name
        assert fld.description and fld.description_ja, f"{name}: words in en and ja"


@pytest.mark.parametrize("game", REPORTING, ids=lambda g: g.id)
def test_the_published_description_names_every_field_in_the_asked_language(game):
    en, ja = game.describe("en")["reported_deal"], game.describe("ja")["reported_deal"]
    assert [f["name"] for f in en["fields"]] == list(game.reported.fields)
    assert [f["type"] for f in en["fields"]] == [f["type"] for f in ja["fields"]]
    assert all(a["description"] != b["description"] for a, b in zip(en["fields"], ja["fields"]))
    for n, ids in en["sides"].items():
        assert game.min_players <= int(n) <= game.max_players and len(ids) == 2


def test_a_game_without_reported_deals_publishes_null():
    from tests.toygame import ToyGame
    assert ToyGame().describe("en")["reported_deal"] is None


def _value(fld: Field, seats: list[str], sides: list[str]) -> st.SearchStrategy[Any]:
    """What a form built from the description can send for one field."""
    seat = st.sampled_from(seats)
    return {"player": seat, "player_list": st.lists(seat, max_size=len(seats) + 2),
            "enum": st.sampled_from(fld.choices), "bool": st.booleans(),
            "int_map": st.fixed_dictionaries({s: st.integers(0, 60) for s in sides}),
            "str_list_list": st.lists(st.lists(st.sampled_from(fld.choices), max_size=3,
                                               unique=True), max_size=3)}[fld.kind]


@st.composite
def _filled_form(draw):
    game = draw(st.sampled_from(REPORTING))
    n = draw(st.integers(game.min_players, min(game.max_players, 6)))
    seats = [f"p{i}" for i in range(n)]
    sides = list(game.reported.sides.get(n, seats))
    report = {}
    for name, fld in game.reported.fields.items():
        if fld.required or draw(st.booleans()):
            report[name] = draw(_value(fld, seats, sides))
    return game, seats, report


@settings(max_examples=examples(60), deadline=None)
@given(_filled_form())
def test_whatever_a_form_fills_from_the_description_decodes_and_is_scored_or_refused_at_a_path(
        filled):
    game, seats, report = filled
    deal = msgspec.convert(report, game.reported.deal)  # never a shape error
    options = game.resolve_options({})
    try:
        game.reported.score(options, seats, [deal])
    except InputError as err:
        assert err.path.startswith("[0]") or err.path == "players"


def test_a_player_list_is_seat_ids_in_order_with_repeats():
    fld = Field("player_list", "losers")
    assert fld.parse(["b", "a", "b"], "x") == ["b", "a", "b"]
    with pytest.raises(FieldError) as err:
        fld.parse(["a", ""], "x")
    assert err.value.path == "x"
    assert fld.json_schema()["items"] == {"type": "string", "minLength": 1}
