"""POST /v1/legal-actions with filters, over HTTP: the picked cards (a phone's "tap cards, see
the plays they make": one small answer), action types and combination kinds, each answer the
full list kept by hand, each listed action accepted posted back; the cache keeps a filtered
answer apart from the full one; a filter that cannot be read is 422 request_invalid."""
from __future__ import annotations

import pytest

from bench import payloads
from service.app import create_app
from service.config import Settings


@pytest.fixture(scope="module")
def client():
    return create_app(Settings(metrics=False)).test_client()


@pytest.fixture(scope="module")
def leader():
    state = payloads.guandan_leader()
    return state, payloads.to_act(state)


def legal(client, state, player, **filters):
    answer = client.post("/v1/legal-actions", json={"game": "guandan", "state": state,
                                                    "player": player, **filters})
    assert answer.status_code == 200, answer.get_json()
    return answer


def test_picked_cards_answer_only_their_plays_small_and_each_accepted(client, leader):
    state, player = leader
    full = legal(client, state, player).get_json()["actions"]
    ambiguous = {}
    for action in full:  # picks with several readings: the answer lists each
        ambiguous.setdefault(tuple(sorted(action["cards"])), []).append(action)
    picked = max(ambiguous, key=lambda cards: len(ambiguous[cards]))
    answer = legal(client, state, player, cards=[c.lower() for c in reversed(picked)])
    out = answer.get_json()
    assert out["actions"] == ambiguous[picked] and out["count"] == len(ambiguous[picked]) > 1
    assert len(answer.data) <= 2000  # the phone's request: one small answer
    for action in out["actions"]:
        checked = client.post("/v1/validate", json={"game": "guandan", "state": state,
                                                    "action": action}).get_json()
        assert checked["valid"], checked


def test_types_and_combinations_filter_the_full_list(client, leader):
    state, player = leader
    full = legal(client, state, player).get_json()["actions"]
    bombs = legal(client, state, player, combinations=["bomb", "straight_flush"]).get_json()
    assert bombs["actions"] == [a for a in full
                                if a["reading"]["type"] in ("bomb", "straight_flush")]
    # the same state cached with and without the filter: two answers, neither the other's
    assert legal(client, state, player).get_json()["count"] == len(full)
    assert legal(client, state, player, types=["pass"]).get_json() == {"actions": [],
                                                                        "count": 0}


@pytest.mark.parametrize("filters, path", [
    ({"cards": ["S10", "S11"]}, "cards.1"),
    ({"cards": []}, "cards"),
    ({"cards": "S10"}, "cards"),
    ({"combinations": ["tube", "triangle"]}, "combinations[1]"),
    ({"combinations": []}, "combinations"),
])
def test_a_filter_that_cannot_be_read_is_422_request_invalid(client, leader, filters, path):
    state, player = leader
    answer = client.post("/v1/legal-actions", json={"state": state, "player": player,
                                                    **filters})
    problem = answer.get_json()
    assert answer.status_code == 422 and problem["code"] == "request_invalid", problem
    assert path in problem["errors"], problem


def test_a_game_that_names_no_combinations_refuses_that_filter(client):
    state = payloads.mid_game("man")
    answer = client.post("/v1/legal-actions", json={"state": state, "player": "p0",
                                                    "combinations": ["pair"]})
    assert answer.status_code == 422 and answer.get_json()["code"] == "request_invalid"


def test_picked_cards_are_computed_and_other_filters_cached_under_their_question(leader):
    """A cards-filtered list costs about a validate (the picked cards' plays alone): cheaper
    than a cache round trip, never stored; a combinations-filtered one is stored under its
    filters, apart from the full list."""
    app = create_app(Settings(metrics=False))
    stored: list[bytes] = []
    cache = app.extensions["card_referee"].cache
    real_set = cache.set
    cache.set = lambda key, value: (stored.append(value), real_set(key, value))[1]
    client = app.test_client()
    state, player = leader
    legal(client, state, player, cards=["S3"])
    assert stored == []
    pairs = legal(client, state, player, combinations=["pair"]).data
    full = legal(client, state, player).data
    assert stored == [pairs, full] and len(pairs) < len(full)
    assert legal(client, state, player, combinations=["pair"]).data == pairs
    assert len(stored) == 2  # the second ask was a hit
