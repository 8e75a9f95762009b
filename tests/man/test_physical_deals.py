"""Physical deals of Man (2.7) and draws from an unknown stock (3.10): a deal entered from the
cards on the table, played to the end over HTTP with every draw naming its cards, replayed to
the same totals; deck errors named; drawn cards checked against what has been seen; random
play-outs and matches from random physical deals conserve the cards and stay zero-sum."""
from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from engine import adjudicate
from engine.cards import deck_52
from engine.errors import InvalidDeal
from engine.games.man import GAME
from service.app import create_app
from service.config import Settings
from tests.adjudication import judged
from tests.sizing import examples
from tests.state_schema import schema_errors

from .helpers import build, ok, refused
from .physical import complete, random_table
from .test_properties import BASE_OPTIONS

KEY = "physical-referee-key"
REFEREE = {"Authorization": f"Bearer {KEY}"}
PLAYERS = ["ann", "bob", "cho", "dai"]
HANDS = {"ann": ["H9", "C2", "SA"], "bob": ["D4", "D5", "D6"], "cho": ["C7", "C9", "CK"],
         "dai": ["H4", "H5", "HK"]}


def physical(hands=HANDS, start=("S10",), dealer="ann", **options) -> dict:
    return adjudicate.deal("man", list(hands), options=options, dealer=dealer,
                           hands=hands, table={"start_cards": list(start)})["state"]


def _without_seed(state: dict) -> dict:
    return {k: v for k, v in state.items() if k not in ("seed", "seed_salt")}


# ------------------------------------------------------------------------ over HTTP

def _post(client, url: str, body: dict, status: int = 200) -> dict:
    resp = client.post(url, json=body, headers=REFEREE)
    assert resp.status_code == status, (url, resp.get_json())
    return resp.get_json()


def test_rule_2_7_a_deal_from_the_table_is_played_to_the_end_over_http_and_replays():
    client = create_app(Settings(metrics=False, referee_keys=(KEY,))).test_client()
    deal = {"players": PLAYERS, "dealer": "bob", "hands": HANDS,
            "table": {"start_cards": ["S2", "S10"]}}
    dealt = _post(client, "/v1/games/man/deal", deal, 201)
    state = dealt["state"]
    assert state["stock_known"] is False and state["start_cards"] == ["S2", "S10"]
    assert state["dealer"] == "bob" and len(state["stock"]) == 52 - 12 - 2
    view = _post(client, "/v1/view", {"state": state, "player": "ann"})["view"]
    assert view["stock"] is None and view["stock_count"] == 38

    rng = random.Random(5)  # a game long enough to run the stock out once (3.9)
    log, named, totals = [], 0, Counter()
    answer = dealt  # the last answer: its to_act is who may act next
    for step in range(400):
        if state["status"] == "finished":
            break
        to_act = answer["to_act"]
        player = rng.choice(to_act)
        acts = _post(client, "/v1/legal-actions", {"state": state, "player": player})["actions"]
        mans = [a for a in acts if a["type"] == "man"]
        plays = [a for a in acts if a["type"] == "play"]
        if mans and step > 20:
            action = mans[0]
        elif plays and rng.random() < 0.7:
            action = rng.choice(plays)
        else:
            action = rng.choice(acts)
        if action["type"] == "draw":
            assert "cards" not in action  # 3.10: listed without cards, completed by the table
        action = complete(rng, state, action)
        named += len(action.get("cards", [])) if action["type"] == "draw" else 0
        answer = _post(client, "/v1/validate", {"state": state, "action": action})
        assert answer["valid"], (action, answer.get("error"))
        for d in answer["score_deltas"]:
            totals[d["target"]] += d["delta"]
        log.append(action)
        state = answer["state"]
    assert state["status"] == "finished" and named >= 20 and state["reshuffles"] == 1
    assert state["result"]["kind"] == "man"
    assert sum(totals.values()) == 0
    seen = Counter(state["stock"]) + Counter(state["discard"])
    for h in state["hands"].values():
        seen.update(h)
    assert seen == Counter(deck_52())

    body = {"deal": {"game": "man", **deal}, "actions": log}
    first, second = (_post(client, "/v1/replay", body) for _ in range(2))
    assert first["stopped"] is None and first["status"] == "finished"
    assert first["totals"] == second["totals"] == {k: v for k, v in totals.items()}
    assert _without_seed(first["state"]) == _without_seed(second["state"]) \
        == _without_seed(state)
    assert first["steps"] == second["steps"]


def test_rule_2_7_a_deal_from_the_table_is_a_referee_act_over_http():
    client = create_app(Settings(metrics=False, referee_keys=(KEY,),
                                 state_secrets=("s",))).test_client()
    resp = client.post("/v1/games/man/deal", json={
        "players": PLAYERS, "dealer": "ann", "hands": HANDS,
        "table": {"start_cards": ["S10"]}})
    assert resp.status_code == 403


# ------------------------------------------------------------------------ the deal

def _hands(**changes) -> dict:
    return {**HANDS, **changes}


@pytest.mark.parametrize("hands, start, path, words", [
    (_hands(bob=["D4", "D5", "SA"]), ["S10"], "hands.bob[2]", "SA is given twice"),
    (HANDS, ["S10", "H7"], "table.start_cards[1]", "turning stops at S10"),
    (_hands(ann=["H9", "C2"]), ["S10"], "hands.ann", "ann has 2"),
    (_hands(ann=["H9", "C2", "SA", "S3"]), ["S10"], "hands.ann", "ann has 4"),
    (_hands(ann=["H9", "C2", "BJ"]), ["S10"], "hands.ann[2]", "BJ is not in Man's deck"),
    (HANDS, ["H4"], "table.start_cards[0]", "H4 is given twice"),
    (HANDS, ["S2"], "table.start_cards[0]", "S2 is an effect card"),
    (HANDS, [], "table.start_cards", "at least the start card"),
])
def test_rule_2_7_deck_errors_name_the_card(hands, start, path, words):
    with pytest.raises(InvalidDeal) as err:
        physical(hands, start)
    assert err.value.path == path and words in err.value.message


def test_rule_2_5_flip_again_a_start_card_nobody_matches_is_turned_over():
    hands = {"ann": ["H9", "C4", "SK"], "bob": ["H5", "C6", "S9"]}
    with pytest.raises(InvalidDeal) as err:
        physical(hands, ["D7"])
    assert err.value.path == "table.start_cards[0]" and "nobody can match" in err.value.message
    assert physical(hands, ["D7", "H7"])["start_cards"] == ["D7", "H7"]
    # dealer_left_starts stops at the first plain card (2.5).
    s = physical(hands, ["D7"], no_opening_match="dealer_left_starts")
    assert s["phase"] == "play" and s["turn"] == "bob"


def test_rule_2_7_the_dealer_and_the_start_cards_are_given():
    with pytest.raises(InvalidDeal) as err:
        physical(dealer=None)
    assert err.value.path == "dealer"
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal("man", PLAYERS, hands=HANDS, dealer="ann")
    assert err.value.path == "table"
    s = adjudicate.deal("man", PLAYERS, hands=HANDS, table={"start_cards": ["S10"]},
                        match={"next_dealer": "cho"})["state"]
    assert s["dealer"] == "cho"


def test_rule_2_7_the_same_physical_deal_is_the_same_state():
    a, b = physical(), physical()
    assert _without_seed(a) == _without_seed(b)
    assert a["stock"] == sorted(a["stock"], key=deck_52().index)
    assert GAME.decode(a)


# ------------------------------------------------------------------------ draws (3.10)

def _after_ace() -> dict:
    """ann plays SA on S10 (skipping bob): cho is on turn and may draw."""
    return ok(physical(), "play", "ann", cards=["SA"]).state


def test_rule_3_10_a_draw_names_its_card():
    s = _after_ace()
    listed = [a for a in judged(adjudicate.legal_actions(s, "cho")) if a["type"] == "draw"]
    assert listed == [{"type": "draw", "player": "cho"}]
    res = adjudicate.validate(s, {**listed[0], "cards": ["DK"]})
    assert res.valid and res.state["hands"]["cho"] == ["C7", "C9", "CK", "DK"]
    assert "DK" not in res.state["stock"] and res.state["drawn_cards"] == ["DK"]


@pytest.mark.parametrize("cards, code, details", [
    (None, "stock_cards_required", {}),
    ([], "stock_cards_count", {"given": 0, "count": 1}),
    (["DK", "DQ"], "stock_cards_count", {"given": 2, "count": 1}),
    # another seat's hand: the refusal says no more than that the card is not in the stock
    # (saying where would let a seat map the hidden hands by refused draws)
    (["H9"], "stock_card_seen", {"card": "H9", "where": "not in the stock"}),
    (["CK"], "stock_card_seen", {"card": "CK", "where": "in your hand"}),
    (["SA"], "stock_card_seen", {"card": "SA", "where": "on the discard pile"}),
    (["S10"], "stock_card_seen", {"card": "S10", "where": "on the discard pile"}),
    (["RJ"], "stock_card_seen", {"card": "RJ", "where": "not in the deck"}),
])
def test_rule_3_10_a_drawn_card_is_checked_against_what_has_been_seen(cards, code, details):
    s = _after_ace()
    fields = {} if cards is None else {"cards": cards}
    refusal = refused(s, "draw", "cho", **fields)
    assert refusal.code == code and refusal.rule == "man 3.10"
    assert {k: refusal.details[k] for k in details} == details
    assert refusal.en and refusal.ja


def test_rule_3_10_a_known_stock_names_no_cards():
    s = adjudicate.deal("man", PLAYERS, seed="known")["state"]
    assert s["stock_known"] is True
    refusal = refused(build({"A": ["H9", "C2", "S4"], "B": ["D4", "D5", "D6"]}, ["S10"],
                            top_by="B"), "draw", "A", cards=["DK"])
    assert refusal.code == "stock_cards_not_allowed"


def test_rule_3_10_a_penalty_draw_names_every_card_twice_named_is_refused():
    hands = {"A": ["S5", "SQ", "SK"], "B": ["D4", "D5", "D6"], "C": ["C7", "C9", "CK"]}
    used = {c for h in hands.values() for c in h} | {"H2", "S2"}
    stock = [c for c in deck_52() if c not in used]
    s = build(hands, ["H2", "S2"], turn="A", top_by="C", pending_draw=2)
    s = {**s, "stock_known": False, "stock": stock}
    GAME.decode(s)
    refusal = refused(s, "draw", "A", cards=["DK", "DK"])
    assert refusal.code == "stock_card_seen" and refusal.details["where"] == "named twice"
    res = ok(s, "draw", "A", cards=["DK", "DQ"])
    assert res.state["hands"]["A"] == ["S5", "SQ", "SK", "DK", "DQ"] and res.state["turn"] == "B"


def test_rule_3_10_with_3_9_the_discard_pile_becomes_an_unknown_stock_again():
    hands = {"A": ["S10", "SQ", "SK"], "B": ["C10", "CQ", "CK"]}
    top = ["H4", "H5", "H6", "H7", "H9"]
    stock = ["D10", "DQ"]
    rest = [c for c in deck_52() if c not in {*hands["A"], *hands["B"], *top, *stock}]
    hands["C"] = rest
    s = build(hands, top, stock=stock, turn="A", top_by="B", pending_draw=3)
    s = {**s, "stock_known": False}
    GAME.decode(s)
    # While the stock holds cards they come first: a discard is not drawn before them.
    refusal = refused(s, "draw", "A", cards=["H5", "D10", "DQ"])
    assert refusal.code == "stock_card_seen" and refusal.details["where"] == "on the discard pile"
    refusal = refused(s, "draw", "A", cards=["D10", "DQ", "H9"])  # the top card stays
    assert refusal.details["where"] == "on the discard pile"
    res = ok(s, "draw", "A", cards=["DQ", "D10", "H6"])
    assert [e["type"] for e in res.events][:2] == ["reshuffled", "drew"]
    assert res.state["stock"] == ["H4", "H5", "H7"] and res.state["discard"] == ["H9"]
    assert res.state["stock_known"] is False and res.state["reshuffles"] == 1
    # draw_game: the stock runs out and the game ends drawn, with nothing drawn.
    s2 = {**s, "options": {**s["options"], "stock_exhausted": "draw_game"}}
    assert refused(s2, "draw", "A", cards=["D10", "DQ", "H6"]).code == "stock_cards_count"
    assert ok(s2, "draw", "A").state["result"]["kind"] == "draw"


def test_rule_3_10_the_dealer_flips_named_cards_onto_an_effect_start_card():
    hands = {"ann": ["H9", "C4", "SK"], "bob": ["H5", "C6", "S9"]}
    s = physical(hands, ["S2"], start_card="by_dealer")
    assert s["phase"] == "opening" and judged(adjudicate.legal_actions(s, "ann")) == [
        {"type": "flip", "player": "ann"}]
    assert refused(s, "flip", "ann").code == "stock_cards_required"
    assert refused(s, "flip", "ann", cards=["D7"]).code == "flip_goes_on"
    assert refused(s, "flip", "ann", cards=["H7", "D7"]).code == "flip_stops_earlier"
    assert refused(s, "flip", "ann", cards=["H9"]).details["where"] == "in your hand"
    # bob's: the dealer is told only that it is not in the stock
    assert refused(s, "flip", "ann", cards=["H5"]).details["where"] == "not in the stock"
    res = ok(s, "flip", "ann", cards=["D7", "H7"])
    assert res.state["start_cards"] == ["S2", "D7", "H7"]
    assert res.state["discard"] == ["S2", "D7", "H7"]
    assert res.events[0]["cards"] == ["D7", "H7"]


# ------------------------------------------------------------------------ properties

OPTIONS = st.fixed_dictionaries({
    **BASE_OPTIONS,
    "start_card": st.sampled_from(["in_deal", "by_dealer"]),
    "man_window": st.sampled_from(["next_action", "until_covered"]),
})
DECK = Counter(deck_52())
MAX_STEPS = 400


def _conserved(j: dict) -> None:
    seen = Counter(j["stock"]) + Counter(j["discard"])
    for h in j["hands"].values():
        seen.update(h)
    assert seen == DECK
    if not j["stock_known"]:
        assert j["stock"] == sorted(j["stock"], key=deck_52().index)


def play_physical(rng: random.Random, players, options: dict, match=None, dealer=None):
    """One game from a random physical deal with an unknown stock, by random listed actions
    completed with random unseen cards; checked at every step. Returns the deal request, the
    log, the final state and the score deltas by player."""
    deal = {"players": players, "options": options,
            "dealer": dealer or rng.choice(players), **random_table(rng, players, options)}
    if match is not None:
        deal = {**deal, "match": match, "dealer": match["next_dealer"]}
    j = adjudicate.deal("man", **deal)["state"]
    state = GAME.decode(j)
    log, deltas = [], Counter()
    for _ in range(MAX_STEPS):
        j = GAME.encode(state)
        _conserved(j)
        assert j["stock_known"] is False
        to_act = GAME.to_act(state)
        if not to_act:
            break
        player = rng.choice(to_act)
        acts = [a.to_json() for a in GAME.legal_actions(state, player)]
        mans = [a for a in acts if a["type"] == "man"]
        action = rng.choice(mans) if mans and rng.random() < 0.5 else rng.choice(acts)
        action = complete(rng, j, action)
        if action["type"] == "draw" and j["options"]["calls"] == "declared" \
                and "call" not in action and j["pending_draw"] \
                and j["options"]["penalty_draw_ends_turn"]:
            # 6.2: the turn-ending penalty draw's call depends on the cards: the table says it.
            probe = adjudicate.validate(j, action)
            if not probe.valid:
                assert probe.refusal.code in ("call_missing",), probe.refusal.code
                action = {**action, "call": probe.refusal.details["expected"]}
        res = adjudicate.validate(j, action)
        assert res.valid, (action, res.refusal.code, res.refusal.en)
        log.append(action)
        for d in res.score_deltas:
            deltas[d["target"]] += d["delta"]
        if res.score_deltas:
            assert sum(d["delta"] for d in res.score_deltas) == 0
        state = GAME.decode(res.state)
    return deal, log, GAME.encode(state), deltas


@settings(deadline=None, max_examples=examples(60))
@given(n=st.integers(2, 8), options=OPTIONS, choices=st.integers(0, 2**32))
def test_random_physical_deals_with_unknown_stocks_conserve_cards_and_replay(n, options,
                                                                              choices):
    players = [f"p{i}" for i in range(n)]
    deal, log, final, deltas = play_physical(random.Random(choices), players, options)
    _conserved(final)
    assert schema_errors(final) == []
    assert sum(deltas.values()) == 0
    replayed = [adjudicate.replay({"game_id": "man", **deal}, log) for _ in range(2)]
    for r in replayed:
        assert r["stopped"] is None
        assert r["totals"] == {p: d for p, d in deltas.items()}
        assert _without_seed(r["state"]) == _without_seed(final)


@settings(deadline=None, max_examples=examples(15))
@given(n=st.integers(2, 5), options=OPTIONS, choices=st.integers(0, 2**32))
def test_random_physical_matches_carry_totals_to_the_end(n, options, choices):
    rng = random.Random(choices)
    players = [f"p{i}" for i in range(n)]
    options = {**options, "match_games": 3}
    match, running = None, Counter()
    for game_no in range(12):
        deal, log, final, deltas = play_physical(rng, players, options, match)
        if final["status"] != "finished":
            return  # the test's step guard, not a rule
        running.update(deltas)
        assert sum(final["match"]["totals"].values()) == 0
        assert final["match"]["totals"] == {p: running[p] for p in players}
        match = GAME.next_match(GAME.decode(final))
        if match["over"]:
            assert game_no >= 2 and match["winner"] in players
            return
