"""One card notation at every door: whatever a client sends a card in (an action, a deal's
hands, deck and table, a lookup) takes the same spellings (S10, s10, ST, h10, HT, dt, BJ, rj),
the spec says so with one pattern, and answers are canonical."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest

from engine.cards import CardError, deck_52, parse_card
from engine.schema import CARD_INPUT_PATTERN
from tests.service.conftest import REFEREE
from tests.spec import committed_spec

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"
CANONICAL_PATTERN = "^([SHDC]([2-9]|10|[AJQK])|BJ|RJ)$"
SPELLINGS = {"S10": "S10", "s10": "S10", "ST": "S10", "st": "S10", "H10": "H10", "h10": "H10",
             "HT": "H10", "dt": "D10", "BJ": "BJ", "rj": "RJ", "ha": "HA", "Ck": "CK"}
NOT_CARDS = ["S1", "S11", "X9", "JB", "10S", "H 10", "", "SS", "T", "S0", "HTT"]
# names of the spec's schemas a client sends
SENT = re.compile(r"(Action|Table|DealRequest|ReplayDeal|Request)$")


@lru_cache(maxsize=1)
def spec() -> dict:
    return committed_spec()


def card_patterns(node, path=""):
    """(path, pattern) of every card schema under `node` (a pattern that names a joker)."""
    if isinstance(node, dict):
        pattern = node.get("pattern")
        if isinstance(pattern, str) and "J" in pattern and "[SHDC" in pattern:
            yield path, pattern
        for key, value in node.items():
            yield from card_patterns(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from card_patterns(value, f"{path}/{i}")


@pytest.mark.parametrize("token", sorted(SPELLINGS) + NOT_CARDS)
def test_the_parser_and_the_published_pattern_agree(token):
    accepted = re.match(CARD_INPUT_PATTERN, token) is not None
    try:
        parsed = parse_card(token)
    except CardError:
        parsed = None
    assert accepted == (parsed is not None), token
    if token in SPELLINGS:
        assert parsed == SPELLINGS[token]


def test_every_card_input_surface_accepts_the_same_notation():
    sent = {name: schema for name, schema in spec()["components"]["schemas"].items()
            if SENT.search(name)}
    found = [(f"{name}{path}", pattern) for name, schema in sent.items()
             for path, pattern in card_patterns(schema)]
    # every kind of door is there: actions, deal hands and deck, tables, a lookup
    for door in ("ManPlayAction", "ManillenPlayAction", "ManDealRequest/properties/hands",
                 "ManDealRequest/properties/deck", "ManTable", "ManManNumbersRequest"):
        assert any(where.startswith(door) for where, _ in found), door
    wrong = [where for where, pattern in found if pattern != CARD_INPUT_PATTERN]
    assert not wrong, wrong


def test_answers_publish_the_canonical_form():
    schemas = spec()["components"]["schemas"]
    for name in ("ManPlayedEvent", "ManState", "GuandanView"):
        patterns = {p for _, p in card_patterns(schemas[name])}
        assert patterns == {CANONICAL_PATTERN}, name


def test_a_deal_an_action_and_a_lookup_take_the_same_spellings(client):
    spelled = {"S10": "st", "H10": "h10", "D10": "Dt", "C10": "cT", "HA": "ha", "SK": "sK"}
    deck = [spelled.get(c, c.lower()) for c in deck_52()]
    dealt = client.post("/v1/games/man/deal", json={"players": ["a", "b"], "deck": deck},
                         headers=REFEREE)
    assert dealt.status_code == 201, dealt.get_json()
    hand = dealt.get_json()["state"]["hands"]["a"]
    assert all(re.match(CANONICAL_PATTERN, c) for c in hand)
    numbers = client.post("/v1/games/man/man-numbers", json={"hand": ["ht", "S10", "dt"]})
    assert numbers.status_code == 200, numbers.get_json()
    assert numbers.get_json() == client.post(
        "/v1/games/man/man-numbers", json={"hand": ["H10", "S10", "D10"]}).get_json()
    state = dealt.get_json()["state"]
    mover = dealt.get_json()["to_act"][0]
    shouted = client.post("/v1/validate", json={"state": state, "action": {
        "type": "play", "player": mover, "cards": [state["hands"][mover][0].lower()]}})
    spoken = client.post("/v1/validate", json={"state": state, "action": {
        "type": "play", "player": mover, "cards": [state["hands"][mover][0]]}})
    assert shouted.status_code == spoken.status_code == 200
    assert shouted.get_json() == spoken.get_json()
