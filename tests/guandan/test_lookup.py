"""The classify lookup (POST /v1/games/guandan/classify) and the game's declarations."""
import pytest

from engine import adjudicate
from engine.errors import InputError
from engine.games.guandan import GAME


def test_W_11_classify_lists_readings_and_beats():
    out = adjudicate.lookup("guandan", "classify",
                            {"cards": ["H4", "H4", "S8", "D8", "S9", "D9"], "level": "4"})
    assert {(r["type"], r["rank"]) for r in out["readings"]} == {
        ("tube", "9"), ("tube", "10"), ("plate", "9")}
    out = adjudicate.lookup("guandan", "classify", {"cards": ["S9", "D9"], "level": "4",
                                                    "table": {"type": "pair", "rank": "9"}})
    assert out["beats"] is False and out["readings"][0]["beats"] is False


@pytest.mark.parametrize("body,path", [
    ({"cards": ["S9"], "level": "1"}, "body.level"),
    ({"cards": ["S9"], "level": "T"}, "body.level"),
    ({"cards": ["S9"], "level": "4", "table": {"type": "nope"}}, "body.table"),
    ({"cards": ["X9"], "level": "4"}, "body.cards[0]"),
])
def test_classify_parse_errors_are_422_request_invalid(body, path):
    with pytest.raises(InputError) as err:
        adjudicate.lookup("guandan", "classify", body)
    assert err.value.code == "request_invalid" and err.value.path == path


def test_declarations():
    assert GAME.legal_actions_cacheable and GAME.lookups[0].cacheable
    names = {o.name for o in GAME.options}
    assert {"level_up_1_2", "a_fail_limit", "equal_tribute", "return_max", "count_disclosure",
            "max_bomb", "anti_tribute"} <= names
    assert set(GAME.presets) >= {"seed", "official"}
    # D1 … D14, and R-1: referee mode (§14)
    assert {o.rule for o in GAME.options} == {f"D{i}" for i in range(1, 15)} | {"R-1"}


def test_malformed_reading_is_422():
    from engine.errors import InvalidAction
    st = adjudicate.deal("guandan", ["a", "b", "c", "d"], seed="m")["state"]
    with pytest.raises(InvalidAction):
        adjudicate.validate(st, {"type": "play", "player": st["turn"],
                                 "cards": [st["hands"][st["turn"]][0]],
                                 "reading": {"type": "pair"}})
