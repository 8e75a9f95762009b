"""The check and compare lookups through the engine's front door and the HTTP service
(B9, B11, B12; a malformed declaration is a 422 naming its field), and what each seat sees."""
import pytest

from engine import adjudicate
from engine.errors import InputError
from engine.games.manteur import GAME
from engine.games.manteur.summary import hand_order
from service.app import create_app
from service.config import Settings
from tests.leaks import assert_no_leak, cards_shown

from .helpers import deal, declare, ok

HAND = ["S2", "H2", "CK", "D7", "S9"]


@pytest.fixture(scope="module")
def client():
    return create_app(Settings(metrics=False)).test_client()


def test_lookups_are_declared_and_listed():
    names = [lk.name for lk in GAME.lookups]
    assert names == ["check", "compare"]
    described = GAME.describe()
    assert {o["name"] for o in described["options"]} >= {
        "deck", "jokers", "flush_above_full_house", "allow_straights", "allow_flushes",
        "min_declaration", "opener_may_exchange", "next_round_starter", "ace_low_straight",
        "penalty_limit", "mode", "direction"}
    assert {o["rule"] for o in described["options"]} == {
        "B-a", "B-b", "B-c", "B-d", "B-e", "B-f", "B-g", "B-h", "B19"}  # B19: referee mode


def test_b11_check_lookup_truth_and_proof():
    out = adjudicate.lookup("manteur", "check", {
        "hand": ["s2", "bj", "CK", "D7", "S9"], "declaration": {"type": "pair", "ranks": ["2"]}})
    assert out["truthful"] and out["proof"]["cards"] == ["S2", "BJ"]
    assert out["proof"]["jokers"]["BJ"].endswith("2")
    out = adjudicate.lookup("manteur", "check", {
        "hand": ["SK", "HK", "C3"], "declaration": {"type": "pair", "ranks": ["2"]}})
    assert out == {"truthful": False, "proof": None}


def test_b9_compare_lookup():
    a, b = {"type": "pair", "ranks": ["2"], "kickers": ["5"]}, {"type": "pair", "ranks": ["2"]}
    assert adjudicate.lookup("manteur", "compare", {"a": a, "b": b}) == {"order": 1}
    assert adjudicate.lookup("manteur", "compare", {"a": b, "b": a}) == {"order": -1}
    assert adjudicate.lookup("manteur", "compare", {"a": a, "b": a}) == {"order": 0}
    piquet = {"deck": "piquet32"}  # B-a: flush above full house
    assert adjudicate.lookup("manteur", "compare", {
        "a": {"type": "flush"}, "b": {"type": "full_house"}, "options": piquet}) == {"order": 1}


@pytest.mark.parametrize("name, body, code, path", [
    ("check", {"hand": HAND, "declaration": {"type": "pair", "ranks": ["Z"]}}, "rank_unknown",
     "body.declaration.ranks[0]"),
    ("check", {"hand": HAND + ["SA"], "declaration": {"type": "pair"}}, "hand_too_large",
     "body.hand"),
    ("compare", {"a": {"type": "pair"}, "b": {"type": "nope"}}, "type_unknown", "body.b.type"),
    ("compare", {"a": {"type": "two_pair", "ranks": ["5", "K"]}, "b": {"type": "pair"}},
     "ranks_not_descending", "body.a.ranks[1]"),
])
def test_a_malformed_lookup_is_a_422_with_code_and_path(client, name, body, code, path):
    with pytest.raises(InputError) as info:
        adjudicate.lookup("manteur", name, body)
    assert (info.value.code, info.value.path) == (code, path)
    resp = client.post(f"/v1/games/manteur/{name}", json=body)
    assert resp.status_code == 422, resp.get_json()
    problem = resp.get_json()
    assert problem["code"] == code and path in problem["errors"]


def test_lookups_over_http(client):
    resp = client.post("/v1/games/manteur/check", json={
        "hand": HAND, "declaration": {"type": "two_pair"}})
    assert resp.status_code == 200 and resp.get_json() == {"truthful": False, "proof": None}
    resp = client.post("/v1/games/manteur/compare", json={"a": {"type": "flush"},
                                                          "b": {"type": "straight"}})
    assert resp.status_code == 200 and resp.get_json() == {"order": 1}
    assert client.post("/v1/games/manteur/compare", json={"a": {}}).status_code == 422
    games = client.get("/v1/games").get_json()
    entry = next(g for g in games["games"] if g["id"] == "manteur")
    assert [lk["name"] for lk in entry["lookups"]] == ["check", "compare"]


def test_an_action_with_a_malformed_declaration_is_a_422_over_http(client):
    s = deal(HAND)
    resp = client.post("/v1/validate", json={"state": s, "action": {
        "type": "declare", "player": "A", "declaration": {"type": "pair", "ranks": ["2", "3"]}}})
    assert resp.status_code == 422
    assert resp.get_json()["code"] == "too_many_ranks"
    assert "action.declaration.ranks[1]" in resp.get_json()["errors"]
    resp = client.post("/v1/validate", json={"state": deal(HAND, allow_flushes=False), "action": {
        "type": "declare", "player": "A", "declaration": {"type": "flush"}}}, headers={
        "Accept-Language": "ja"})
    body = resp.get_json()
    assert resp.status_code == 200 and body["valid"] is False
    assert body["error"]["code"] == "flushes_not_allowed" and body["error"]["rule"] == "manteur B-b"


# ---------------------------------------------------------------- views


def test_b15_views_only_the_holder_sees_the_hand():
    s = deal(HAND)
    state = GAME.decode(s)
    hidden = set(s["stock"]) | set(HAND)
    for viewer in ("B", "C", None):
        v = GAME.view(state, viewer)
        assert v["hand"] is None and v["hand_count"] == 5
        assert_no_leak(v, hidden, viewer)
    v = GAME.view(state, "A")
    assert v["hand"] == hand_order(HAND) and v["stock"] is None and v["stock_count"] == 49
    assert_no_leak(v, set(s["stock"]), "A")
    # after an accept, the accepter holds it and the declarer no longer sees it
    t = ok(declare(s, "A", "pair", ["2"]), "accept", "B").state
    t = ok(t, "exchange", "B", cards=["CK"]).state
    tv = GAME.decode(t)
    assert GAME.view(tv, "A")["hand"] is None and GAME.view(tv, "B")["hand"] == hand_order(t["hand"])
    for viewer in ("A", "C", None):
        v = GAME.view(tv, viewer)
        assert v["discard"] is None and v["discard_count"] == 1
        assert v["exchanged"] == 1
        assert_no_leak(v, set(t["hand"]) | set(t["stock"]) | {"CK"}, viewer)


def test_views_show_declarations_in_words_and_exchanges():
    s = ok(declare(deal(HAND), "A", "pair", ["2"]), "accept", "B").state
    s = declare(ok(s, "exchange", "B", cards=["CK", "D7"]).state, "B", "pair", ["2"], ["9"])
    v = GAME.view(GAME.decode(s), "C")
    assert [(c["player"], c["exchanged"]) for c in v["calls"]] == [("A", 0), ("B", 2)]
    assert v["calls"][1]["text"] == {"en": "pair of 2s with 9", "ja": "2のワンペアと9"}
    assert "seed" not in v


def test_b14_the_challenged_hand_is_revealed_to_everyone():
    s = declare(deal(HAND), "A", "pair", ["2"])
    t = GAME.decode(ok(s, "challenge", "B").state)
    for viewer in ("A", "B", "C", None):
        v = GAME.view(t, viewer)
        assert v["last_round"]["hand"] == HAND and v["last_round"]["truthful"]
        assert v["last_round"]["text"]["en"] == "pair of 2s"
        # the new round's hand is its starter's alone
        assert (v["hand"] is not None) == (viewer == t.holder)
    end = GAME.decode(ok(declare(deal(HAND, penalty_limit=1), "A", "flush"), "challenge",
                         "B").state)
    assert all(GAME.view(end, p)["hand"] == hand_order(HAND) for p in ("A", "B", "C", None))
    assert cards_shown(GAME.view(end, None)["last_round"]) >= set(HAND)


CHECK_BODY = {"hand": ["SA"], "declaration": {"type": "high_card", "ranks": ["A"]}}
COMPARE_BODY = {"a": {"type": "pair"}, "b": {"type": "flush"}}


@pytest.mark.parametrize("name, body", [("check", CHECK_BODY), ("compare", COMPARE_BODY)])
@pytest.mark.parametrize("options, wrong", [
    ({"jokers": 3}, "jokers"),            # B-a: a deck holds two jokers at most (spec: max 2)
    ({"jokers": 10 ** 12}, "jokers"),
    ({"jokers": -1}, "jokers"),
    ({"deck": "tarot78"}, "deck"),
    ({"penalty_limit": 5}, "penalty_limit"),  # a round option, not a declaration option
    ({"bogus": True}, "bogus"),
])
def test_b_a_lookup_options_are_refused_out_of_range_as_the_deal_refuses_them(
        client, name, body, options, wrong):
    # The spec caps the lookups' options as it caps the deal's; the deal answers 422
    # options_invalid for the same value, and so must the lookups (same code, path named).
    resp = client.post(f"/v1/games/manteur/{name}", json={**body, "options": options})
    assert resp.status_code == 422, resp.get_json()
    problem = resp.get_json()
    assert problem["code"] == "options_invalid"
    assert list(problem["errors"]) == [f"body.options.{wrong}"]
    if wrong in {"jokers", "deck"}:
        deal = client.post("/v1/games/manteur/deal",
                           json={"players": ["a", "b", "c"], "options": options})
        assert (deal.status_code, deal.get_json()["code"]) == (422, "options_invalid")


@pytest.mark.parametrize("name, body", [("check", CHECK_BODY), ("compare", COMPARE_BODY)])
def test_b_a_lookup_options_in_range_are_taken(client, name, body):
    for options in ({"jokers": 0}, {"jokers": 2, "deck": "piquet32"}, {"min_declaration": "one_pair"},
                    {"flush_above_full_house": None}):
        resp = client.post(f"/v1/games/manteur/{name}", json={**body, "options": options})
        assert resp.status_code in (200, 422), resp.get_json()
        if resp.status_code == 422:  # a declaration the options bar, never the options
            assert resp.get_json()["code"] != "options_invalid"
