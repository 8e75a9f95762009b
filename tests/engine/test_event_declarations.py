"""Every event a game emits is one it declares (engine/<game>/events.py), with exactly the
declared fields and types: the spec publishes those declarations as `<Game><Type>Event`, so a
client generated from openapi.yaml reads every event the service sends."""
from __future__ import annotations

import random
import re
from functools import lru_cache
from pathlib import Path

import pytest
from openapi_schema_validator import OAS30Validator

from engine import referee, registry
from tests.adjudication import random_deal_play_out
from tests.sizing import examples

ENGINE = Path(__file__).resolve().parents[2] / "engine"
PRODUCT_GAMES = sorted(g.id for g in registry.all_games() if g.id not in ("toy", "crash"))
# Event("type", …) and Event("a" if … else "b", …): every type literal an engine constructs.
EVENT_LITERAL = re.compile(r'Event\(\s*"(\w+)"(?:\s+if\s+[^\n]*?\s+else\s+"(\w+)")?')


@lru_cache(maxsize=None)
def validators(game_id: str) -> dict[str, OAS30Validator]:
    return {e.name: OAS30Validator(e.json_schema(game_id)) for e in registry.get(game_id).events}


def event_errors(game_id: str, event: dict) -> list[str]:
    """Why `event` does not fit its game's declaration (empty: it fits)."""
    checker = validators(game_id).get(event.get("type"))
    if checker is None:
        return [f"{game_id}: undeclared event type {event.get('type')!r}"]
    return [f"{game_id} {event['type']} {'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in checker.iter_errors(event)]


@pytest.mark.parametrize("game_id", PRODUCT_GAMES)
def test_every_event_type_the_engine_constructs_is_declared(game_id):
    # the game's own events, and the referee's ledger events every game has (engine/referee.py)
    files = [*(ENGINE / "games" / game_id).glob("*.py"), ENGINE / "referee.py"]
    source = "\n".join(p.read_text(encoding="utf-8") for p in files)
    constructed = {t for m in EVENT_LITERAL.finditer(source) for t in m.groups() if t}
    game = registry.get(game_id)
    declared = {e.name for e in game.events}
    if not game.referee.sanctions:  # the engine's irregularity event belongs to games with sanctions
        constructed.discard(referee.IRREGULARITY_EVENT.name)
    assert constructed, f"{game_id}: no event construction found (the pattern is stale)"
    assert constructed == declared, (sorted(constructed - declared), sorted(declared - constructed))


@pytest.mark.parametrize("game_id", PRODUCT_GAMES)
def test_events_of_whole_games_fit_their_declarations(game_id):
    seen: set[str] = set()
    for seed in range(examples(8)):
        rnd = random.Random(f"events-{game_id}-{seed}")
        for _players, _state, applied in random_deal_play_out(game_id, rnd, f"events-{seed}"):
            for event in applied.events if applied else ():
                assert not event_errors(game_id, event), event_errors(game_id, event)
                assert event["game"] == game_id
                seen.add(event["type"])
    assert seen, f"{game_id}: no event in {examples(8)} games"


def test_a_wrong_event_is_told_apart():
    assert event_errors("man", {"type": "drew", "player": "p0", "count": "2", "penalty": False})
    assert event_errors("man", {"type": "drew", "player": "p0", "count": 2})
    assert event_errors("man", {"type": "drew", "player": "p0", "count": 2, "penalty": False,
                                "extra": 1})
    assert event_errors("man", {"type": "no_such_event"})
    good = {"type": "drew", "game": "man", "player": "p0", "count": 2, "penalty": False,
            "text": {"en": "p0 draws 2 cards", "ja": "p0が2枚引く"}}
    assert not event_errors("man", good)
    assert event_errors("man", {**good, "game": "daifugo"})  # each event names its own game
    assert event_errors("man", {k: v for k, v in good.items() if k != "game"})
    assert event_errors("man", {k: v for k, v in good.items() if k != "text"})  # always worded
