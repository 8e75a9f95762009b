"""Physical deals of Manteur (B.6): the starter's five cards entered from the table, an unknown
stock, exchanges naming the cards received and each new round's five cards entered after a
challenge; played to the end over HTTP and replayed to the same totals; deck errors named;
received cards checked against what has been seen; random play-outs from random physical deals
conserve the cards, and every challenge costs exactly one penalty point."""
from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from engine import adjudicate
from engine.errors import InvalidDeal
from engine.games.manteur import GAME
from engine.games.manteur.state import deck_of
from service.app import create_app
from service.config import Settings
from tests.adjudication import judged, ok, refused
from tests.manteur.physical import complete
from tests.sizing import examples
from tests.state_schema import schema_errors

KEY = "physical-referee-key"
REFEREE = {"Authorization": f"Bearer {KEY}"}
PLAYERS = ["ann", "bob", "cho"]
FIVE = ["SA", "HA", "DA", "CK", "S2"]


def physical(hand=FIVE, starter="bob", players=PLAYERS, **options) -> dict:
    hands = {p: list(hand) if p == starter else [] for p in players}
    return adjudicate.deal("manteur", players, options=options, hands=hands)["state"]


def _without_seed(state: dict) -> dict:
    return {k: v for k, v in state.items() if k not in ("seed", "seed_salt")}


def choose(rng: random.Random, acts: list) -> dict:
    """A random listed action; declarations low on the ladder so rounds go on a while."""
    by_type: dict = {}
    for a in acts:
        by_type.setdefault(a["type"], []).append(a)
    kind = rng.choice(sorted(by_type))
    if kind == "declare":
        return rng.choice(by_type[kind][:12])
    return rng.choice(by_type[kind])


# ------------------------------------------------------------------------ over HTTP

def _post(client, url: str, body: dict, status: int = 200) -> dict:
    resp = client.post(url, json=body, headers=REFEREE)
    assert resp.status_code == status, (url, resp.get_json())
    return resp.get_json()


def test_b6_a_physical_game_is_played_to_the_end_over_http_and_replays():
    client = create_app(Settings(metrics=False, referee_keys=(KEY,))).test_client()
    deal = {"players": PLAYERS, "options": {"penalty_limit": 3},
            "hands": {"ann": [], "bob": FIVE, "cho": []}}
    dealt = _post(client, "/v1/games/manteur/deal", deal, 201)
    state, to_act = dealt["state"], dealt["to_act"]
    assert to_act == ["bob"] and state["stock_known"] is False and len(state["stock"]) == 49
    view = _post(client, "/v1/view", {"state": state, "player": "ann"})["view"]
    assert view["stock"] is None and view["stock_count"] == 49 and view["hand"] is None

    rng = random.Random(3)
    log, totals, kinds = [], Counter(), Counter()
    for _ in range(600):
        if state["status"] == "finished":
            break
        acts = _post(client, "/v1/legal-actions",
                     {"state": state, "player": to_act[0]})["actions"]
        action = choose(rng, acts)
        if action["type"] in ("exchange", "deal"):
            assert "drawn" not in action and (action["type"] != "deal" or "cards" not in action)
        action = complete(rng, state, action)
        answer = _post(client, "/v1/validate", {"state": state, "action": action})
        assert answer["valid"], (action, answer.get("error"))
        kinds[action["type"]] += 1
        for d in answer["score_deltas"]:
            totals[d["target"]] += d["delta"]
        log.append(action)
        state, to_act = answer["state"], answer["to_act"]
    assert state["status"] == "finished" and max(totals.values()) == 3
    assert kinds["deal"] >= 2 and kinds["exchange"] >= 2 and kinds["challenge"] == kinds["deal"] + 1
    assert sum(totals.values()) == state["match"]["rounds"]  # one point a challenge (B14)

    body = {"deal": {"game": "manteur", **deal}, "actions": log}
    first, second = (_post(client, "/v1/replay", body) for _ in range(2))
    assert first["stopped"] is None and first["status"] == "finished"
    assert first["totals"] == second["totals"] == dict(totals)
    assert _without_seed(first["state"]) == _without_seed(second["state"]) \
        == _without_seed(state)


# ------------------------------------------------------------------------ the deal

@pytest.mark.parametrize("hands, options, path, words", [
    ({"ann": [], "bob": ["SA", "HA", "DA", "CK", "SA"], "cho": []}, {}, "hands.bob[4]",
     "SA is given twice"),
    ({"ann": [], "bob": ["SA", "HA", "DA", "CK"], "cho": []}, {}, "hands.bob", "not 4"),
    ({"ann": [], "bob": FIVE + ["S3"], "cho": []}, {}, "hands.bob", "not 6"),
    ({"ann": ["S3"], "bob": FIVE, "cho": []}, {}, "hands", "only the starter"),
    ({"ann": [], "bob": [], "cho": []}, {}, "hands", "nobody"),
    ({"ann": [], "bob": FIVE, "cho": []}, {"deck": "piquet32"}, "hands.bob[4]",
     "S2 is not in the deck"),
    ({"ann": [], "bob": ["SA", "HA", "DA", "CK", "BJ"], "cho": []}, {"jokers": 0},
     "hands.bob[4]", "BJ is not in the deck"),
])
def test_b6_deck_errors_name_the_card(hands, options, path, words):
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal("manteur", PLAYERS, options=options, hands=hands)
    assert err.value.path == path and words in err.value.message


def test_b6_the_starter_follows_from_the_cards():
    assert physical(starter="cho")["starter"] == "cho"
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal("manteur", PLAYERS, dealer="ann",
                        hands={"ann": [], "bob": FIVE, "cho": []})
    assert err.value.path == "dealer"
    s = adjudicate.deal("manteur", PLAYERS, dealer="bob",
                        hands={"ann": [], "bob": FIVE, "cho": []})["state"]
    assert _without_seed(s) == _without_seed(physical())


# ------------------------------------------------------------------------ exchanges

def _accepted() -> dict:
    """bob declared a pair of aces; cho accepted and may exchange."""
    s = ok(physical(), "declare", "bob", declaration={"type": "pair", "ranks": ["A"]}).state
    return ok(s, "accept", "cho").state


def test_b6_a_listed_exchange_completed_with_its_drawn_cards_validates():
    s = _accepted()
    listed = [a for a in judged(adjudicate.legal_actions(s, "cho"))
              if a["type"] == "exchange" and a["cards"] == ["CK", "S2"]]
    assert listed == [{"type": "exchange", "player": "cho", "cards": ["CK", "S2"]}]
    res = adjudicate.validate(s, {**listed[0], "drawn": ["H3", "C9"]})
    assert res.valid and res.state["hand"] == ["SA", "HA", "DA", "H3", "C9"]
    assert res.state["discard"] == ["CK", "S2"] and "H3" not in res.state["stock"]
    assert ok(s, "exchange", "cho", cards=[]).state["exchanged"] == 0  # nothing to name


@pytest.mark.parametrize("drawn, code, details", [
    (None, "stock_cards_required", {}),
    (["H3"], "stock_cards_count", {"given": 1, "count": 2}),
    (["SA", "H3"], "stock_card_seen", {"card": "SA", "where": "in the hand"}),
    (["CK", "H3"], "stock_card_seen", {"card": "CK", "where": "being given back"}),
    (["H3", "H3"], "stock_card_seen", {"card": "H3", "where": "named twice"}),
])
def test_b6_received_cards_are_checked_against_what_has_been_seen(drawn, code, details):
    s = _accepted()
    fields = {} if drawn is None else {"drawn": drawn}
    refusal = refused(s, "exchange", "cho", cards=["CK", "S2"], **fields)
    assert refusal.code == code and refusal.rule == "manteur B15"
    assert {k: refusal.details[k] for k in details} == details
    assert refusal.en and refusal.ja


def test_b6_a_discarded_card_is_not_in_the_stock_and_the_refusal_says_no_more():
    s = _accepted()
    s = ok(s, "exchange", "cho", cards=["CK", "S2"], drawn=["H3", "C9"]).state
    s = ok(s, "declare", "cho", declaration={"type": "pair", "ranks": ["A"],
                                              "kickers": ["K"]}).state
    s = ok(s, "accept", "ann").state
    # the discards lie face down: ann never saw them, so the refusal says only that the card
    # is not in the stock, not where it is (else refused draws would map the discards)
    refusal = refused(s, "exchange", "ann", cards=["H3"], drawn=["CK"])
    assert refusal.details == {"card": "CK", "where": "not in the stock", "where_text": {
        "en": "not in the stock", "ja": "山札の残りのカードの中にありません"}}
    assert "discard" not in refusal.en and "捨て札" not in refusal.ja
    assert refused(s, "exchange", "ann", cards=["H3"], drawn=["S2"]).details[
        "where"] == "not in the stock"
    piquet = physical(hand=["SA", "HA", "DA", "CK", "S7"], deck="piquet32")
    piquet = ok(piquet, "declare", "bob", declaration={"type": "pair", "ranks": ["A"]}).state
    piquet = ok(piquet, "accept", "cho").state
    assert refused(piquet, "exchange", "cho", cards=["S7"], drawn=["S2"]).details[
        "where"] == "not in the deck"


def test_b6_a_known_stock_names_no_drawn_cards():
    s = adjudicate.deal("manteur", PLAYERS, seed="known")["state"]
    s = ok(s, "declare", "ann", declaration={"type": "high_card"}).state
    s = ok(s, "accept", "bob").state
    refusal = refused(s, "exchange", "bob", cards=[s["hand"][0]], drawn=["H3"])
    assert refusal.code == "stock_cards_not_allowed"


def test_b6_with_b18_the_discards_become_an_unknown_stock_again():
    s = _accepted()
    # Leave one card in the stock, every other unseen card among the discards.
    s = {**s, "stock": ["C9"], "discard": [c for c in s["stock"] if c != "C9"]}
    GAME.decode(s)
    # While the stock holds a card it comes first; the cards given back are never drawn.
    refusal = refused(s, "exchange", "cho", cards=["CK", "S2"], drawn=["H3", "C9"])
    # (face down: "not in the stock", never where)
    assert refusal.details == {"card": "H3", "where": "not in the stock", "where_text": {
        "en": "not in the stock", "ja": "山札の残りのカードの中にありません"}}
    assert refused(s, "exchange", "cho", cards=["CK", "S2"], drawn=["C9", "CK"]).details[
        "where"] == "being given back"
    res = ok(s, "exchange", "cho", cards=["CK", "S2"], drawn=["C9", "H3"])
    assert [e["type"] for e in res.events] == ["reshuffled", "exchanged"]
    assert res.state["discard"] == ["CK", "S2"] and res.state["stock_known"] is False
    assert len(res.state["stock"]) == 54 - 5 - 2 and "H3" not in res.state["stock"]
    assert res.state["stock"] == sorted(res.state["stock"], key=deck_of(
        GAME.decode(s).options).index)


# ------------------------------------------------------------------------ new rounds

def test_b6_after_a_challenge_the_new_round_waits_for_its_five_cards():
    s = ok(physical(), "declare", "bob", declaration={"type": "pair", "ranks": ["K"]}).state
    res = ok(s, "challenge", "cho")  # a lie: bob takes the point and starts again (B-e)
    s = res.state
    assert s["phase"] == "deal" and s["hand"] == [] and res.to_act == ["bob"]
    assert len(s["stock"]) == 54 and s["discard"] == []
    assert s["last_round"]["hand"] == FIVE
    assert judged(adjudicate.legal_actions(s, "bob")) == [{"type": "deal", "player": "bob"}]
    assert refused(s, "declare", "bob", declaration={"type": "pair"}).code == "deal_first"
    assert refused(s, "deal", "bob").code == "stock_cards_required"
    assert refused(s, "deal", "bob", cards=FIVE[:4]).code == "stock_cards_count"
    assert refused(s, "deal", "bob", cards=FIVE[:4] + ["SA"]).details["where"] == "named twice"
    assert refused(s, "deal", "ann", cards=FIVE).code == "not_your_turn"
    dealt = ok(s, "deal", "bob", cards=FIVE)  # the same cards may come again
    assert dealt.state["phase"] == "declare" and dealt.state["hand"] == FIVE
    assert refused(dealt.state, "deal", "bob", cards=FIVE).code == "deal_not_due"


# ------------------------------------------------------------------------ properties

OPTIONS = st.fixed_dictionaries({
    "deck": st.sampled_from(["standard52", "piquet32"]),
    "jokers": st.sampled_from([0, 1, 2]),
    "opener_may_exchange": st.booleans(),
    "next_round_starter": st.sampled_from(["loser", "next_player"]),
    "penalty_limit": st.integers(1, 3),
    "mode": st.sampled_from(["penalty", "elimination"]),
})


def _conserved(j: dict) -> None:
    deck = deck_of(GAME.decode(j).options)
    assert Counter(j["hand"]) + Counter(j["stock"]) + Counter(j["discard"]) == Counter(deck)
    assert j["stock"] == sorted(j["stock"], key=deck.index)  # unknown: deck order


@settings(deadline=None, max_examples=examples(40))
@given(n=st.integers(2, 6), options=OPTIONS, choices=st.integers(0, 2**32))
def test_random_physical_games_conserve_cards_cost_a_point_a_challenge_and_replay(
        n, options, choices):
    rng = random.Random(choices)
    players = [f"p{i}" for i in range(n)]
    deck = deck_of(GAME.decode(adjudicate.deal("manteur", players, options=options,
                                               seed="x")["state"]).options)
    starter = rng.choice(players)
    hands = {p: rng.sample(deck, 5) if p == starter else [] for p in players}
    deal = {"game_id": "manteur", "players": players, "options": options, "hands": hands}
    dealt = adjudicate.deal(**deal)
    j, to_act = dealt["state"], dealt["to_act"]
    log, totals = [], Counter()
    for _ in range(300):
        _conserved(j)
        if j["status"] == "finished":
            break
        action = complete(rng, j, choose(rng, [a for a in adjudicate.legal_actions(
            j, to_act[0])]))
        res = adjudicate.validate(j, action)
        assert res.valid, (action, res.refusal.code, res.refusal.en)
        log.append(action)
        for d in res.score_deltas:
            totals[d["target"]] += d["delta"]
        j, to_act = res.state, res.to_act
    assert schema_errors(j) == []
    # Penalty points are not zero-sum (B14): each challenge gives exactly one, to one player.
    assert sum(totals.values()) == j["match"]["rounds"]
    assert all(j["match"]["penalties"][p] == totals[p] for p in players)
    for r in [adjudicate.replay(deal, log) for _ in range(2)]:
        assert r["stopped"] is None and r["totals"] == dict(totals)
        assert _without_seed(r["state"]) == _without_seed(j)
