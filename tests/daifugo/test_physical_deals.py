"""Physical deals of Daifugo (docs/rules/daifugo.md, "Physical deals"): a deal from the cards on
the table takes nothing from a seed the referee never saw — the first leader is given
(`table.leader`) or follows from the cards (♦3's, ♠3's holder) or the match, and with
`leader_may_pass` the order of D9's pass limit is the referee's (`table.pass_limit_order`) — so
the referee's own log replays to the same result every time."""
from __future__ import annotations

import random

import pytest
from hypothesis import Phase, given, settings, strategies as st

from engine import adjudicate
from engine.cards import deck_52
from engine.errors import InvalidDeal
from engine.games.daifugo.options import FIRST_LEADERS
from tests.physical import (
    by_seat,
    deal,
    engine_play_out,
    engine_replays_the_same,
    error_paths,
    play_out,
    refused_deal,
    replays_the_same,
    shuffled_deck,
)
from tests.service.conftest import client, make_client, toy  # noqa: F401 (fixtures)
from tests.sizing import examples

ABCD = ["ann", "bob", "cho", "dai"]
DECK = deck_52() + ["BJ"]


def hands_for(players, rnd, jokers=1):
    deck = shuffled_deck(deck_52() + ["BJ", "RJ"][:jokers], rnd)
    n, lo = len(players), len(deck) // len(players)
    counts = [lo + (1 if i < len(deck) - lo * n else 0) for i in range(n)]
    return by_seat(players, deck, counts)


def test_D4_a_deal_from_hands_with_a_random_first_leader_replays_from_the_referee_log(client):
    """The referee's log of a deal from hands replays: the first leader is the referee's, not
    a seed the server drew (before, /v1/replay stopped at step 0 with not_your_turn)."""
    rnd = random.Random(7)
    request = {"players": ABCD, "hands": hands_for(ABCD, rnd), "table": {"leader": "cho"}}
    actions, final = play_out(client, "daifugo", request, rnd)
    assert actions[0]["player"] == "cho"
    replays_the_same(client, "daifugo", request, actions, final)


def test_D4_the_random_first_leader_must_be_given_with_hands(client):
    problem = refused_deal(client, "daifugo", {"players": ABCD,
                                               "hands": hands_for(ABCD, random.Random(1))})
    assert error_paths(problem) == {"table.leader"}
    assert "leader" in problem["detail"]


@pytest.mark.parametrize("first_leader,card", [("diamond3_first_then_daihinmin", "D3"),
                                                ("spade3_first", "S3"),
                                                ("diamond3_every_game", "D3")])
def test_D4_the_first_leader_follows_from_the_cards(client, first_leader, card):
    hands = hands_for(ABCD, random.Random(2))
    holder = next(p for p, h in hands.items() if card in h)
    out = deal(client, "daifugo", {"players": ABCD, "hands": hands,
                                   "options": {"first_leader": first_leader}})
    assert out["to_act"] == [holder]
    other = next(p for p in ABCD if p != holder)
    problem = refused_deal(client, "daifugo", {
        "players": ABCD, "hands": hands, "options": {"first_leader": first_leader},
        "table": {"leader": other}})
    assert error_paths(problem) == {"table.leader"} and holder in problem["detail"]


def test_D9_the_pass_limit_order_is_given_with_leader_may_pass():
    hands = hands_for(ABCD, random.Random(3))
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal("daifugo", ABCD, {"preset": "uecda"}, hands=hands)
    assert err.value.path == "table.pass_limit_order"
    for wrong in (["ann", "bob", "cho"], ["ann", "bob", "cho", "cho"], ["ann", "bob", "cho", "eve"]):
        with pytest.raises(InvalidDeal) as err:
            adjudicate.deal("daifugo", ABCD, {"preset": "uecda"}, hands=hands,
                            table={"pass_limit_order": wrong})
        assert err.value.path == "table.pass_limit_order"
    with pytest.raises(InvalidDeal) as err:  # without leader_may_pass there is no pass limit
        adjudicate.deal("daifugo", ABCD, {"first_leader": "spade3_first"}, hands=hands,
                        table={"pass_limit_order": ABCD})
    assert err.value.path == "table.pass_limit_order"


def test_D9_twenty_passes_rank_the_players_left_in_the_referee_order():
    hands = hands_for(ABCD, random.Random(4))
    order = ["dai", "bob", "ann", "cho"]
    out = adjudicate.deal("daifugo", ABCD, {"preset": "uecda"}, hands=hands,
                          table={"pass_limit_order": order})
    state = out["state"]
    assert "pass_limit_order" not in adjudicate.view(state, "ann")
    for _ in range(20):
        who = [p for p in ABCD if isinstance(
            adjudicate.validate(state, {"type": "pass", "player": p}), adjudicate.Applied)]
        assert len(who) == 1
        state = adjudicate.validate(state, {"type": "pass", "player": who[0]}).state
    assert state["status"] == "finished"
    assert list(state["result"]["finish_order"]) == order


def test_D3_deck_errors_name_the_card():
    hands = hands_for(ABCD, random.Random(5))
    twice = {**hands, "dai": hands["dai"][:-1] + [hands["ann"][0]]}
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal("daifugo", ABCD, hands=twice, table={"leader": "ann"})
    assert err.value.path == f"hands.dai[{len(hands['dai']) - 1}]" and hands["ann"][0] in str(err.value)
    short = {**hands, "dai": hands["dai"][:-1]}
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal("daifugo", ABCD, hands=short, table={"leader": "ann"})
    assert err.value.path == "hands" and hands["dai"][-1] in str(err.value)
    extra = {**hands, "ann": hands["ann"] + ["RJ"]}
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal("daifugo", ABCD, hands=extra, table={"leader": "ann"})
    assert err.value.path == f"hands.ann[{len(hands['ann'])}]" and "RJ" in str(err.value)
    uneven = {**hands, "ann": hands["ann"] + [hands["bob"][0]], "bob": hands["bob"][1:]}
    uneven["ann"], uneven["cho"] = uneven["ann"] + uneven["cho"][:1], uneven["cho"][1:]
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal("daifugo", ABCD, hands=uneven, table={"leader": "ann"})
    assert err.value.path.startswith("hands.")


def test_D4_a_match_goes_on_with_a_new_physical_deal(client):
    """The next deal of a match is entered from the table too: `match` + `hands`; the exchange
    and the leader come from the match (the 大貧民 leads, D4), nothing from a seed."""
    rnd = random.Random(6)
    options = {"preset": "seed_full"}
    request = {"players": ABCD, "options": options, "hands": hands_for(ABCD, rnd),
               "table": {"leader": "bob"}}
    _, final = play_out(client, "daifugo", request, rnd)
    match = final["next_match"]
    second = {"players": ABCD, "options": options, "hands": hands_for(ABCD, rnd),
              "match": match}
    actions, end = play_out(client, "daifugo", second, rnd)
    assert end["state"]["leader"] == match["finish_order"][-1]
    replays_the_same(client, "daifugo", second, actions, end)
    problem = refused_deal(client, "daifugo", {**second, "table": {"leader": "ann"}})
    assert error_paths(problem) == {"table.leader"}


@settings(max_examples=examples(12), deadline=None, phases=[Phase.explicit, Phase.generate])
@given(st.integers(3, 8), st.sampled_from(["seed", "seed_full", "uecda"]),
       st.sampled_from(FIRST_LEADERS), st.integers(0, 2), st.integers(0, 10 ** 6))
def test_random_physical_deals_play_out_conserve_cards_and_replay_the_same(
        n, preset, first_leader, jokers, seed):
    """Random hands from a shuffled deck, the random decisions given at random, a match of two
    physical deals played out at random: every card stays in exactly one place, each deal's
    log replays to the same end and totals (nothing from the seed the server drew)."""
    rnd = random.Random(seed)
    players = [f"p{i}" for i in range(n)]
    options = {"preset": preset, "first_leader": first_leader, "jokers": jokers}
    deck = sorted(deck_52() + ["BJ", "RJ"][:jokers])

    def conserved(j: dict) -> None:
        everything = [*j["pile"], *j["discards"], *(c for h in j["hands"].values() for c in h)]
        assert sorted(everything) == deck

    match = None
    for _ in range(2):
        request = {"players": players, "options": options,
                   "hands": hands_for(players, rnd, jokers), "match": match}
        table = {}
        if first_leader == "random_then_daihinmin" and match is None:
            table["leader"] = rnd.choice(players)
        if preset == "uecda":
            table["pass_limit_order"] = rnd.sample(players, n)
        if table:
            request["table"] = table
        actions, final, totals = engine_play_out("daifugo", request, rnd, conserved)
        assert sorted(final["result"]["finish_order"]) == sorted(players)
        assert totals == final["result"]["points"]  # one rank delta per player
        engine_replays_the_same("daifugo", request, actions, final, totals)
        match = final["next_match"]
