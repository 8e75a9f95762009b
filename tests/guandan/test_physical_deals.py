"""Physical deals of Guandan (docs/rules/guandan.md, "Physical deals"): the 4 hands of 27 from
two packs (each card exactly twice), the first deal's card turned up in the cut (G-4, and its
holder when both copies are out), the referee's draw for equal double tributes under D5
`random`; played to the end through HTTP, and the referee's log replays to the same result
every time (nothing from an unseen seed)."""
from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import Phase, given, settings, strategies as st

from engine import adjudicate
from engine.cards import double_deck_108
from engine.errors import InvalidDeal
from tests.physical import (
    by_seat,
    deal,
    engine_play_out,
    engine_replays_the_same,
    error_paths,
    play_out,
    refused_deal,
    replays_the_same,
)
from tests.service.conftest import client, make_client, toy  # noqa: F401 (fixtures)
from tests.sizing import examples

PLAYERS = ["ann", "bob", "cho", "dai"]


def hands_of(rnd: random.Random) -> dict[str, list[str]]:
    cards = double_deck_108()
    rnd.shuffle(cards)
    return by_seat(PLAYERS, cards, [27] * 4)


def first_table(hands: dict, rnd: random.Random) -> dict:
    """A cut as a table turns it up: one card of one hand; its holder named when both copies
    are out in different hands."""
    holder = rnd.choice(PLAYERS)
    card = rnd.choice(hands[holder])
    table = {"cut_card": card}
    if sum(1 for p in PLAYERS if card in hands[p]) > 1:
        table["leader"] = holder
    return table


def conserved(j: dict) -> None:
    cards = Counter(j["played"])
    for h in j["hands"].values():
        cards.update(h)
    for t in j["tributes"]:  # paid or returned but not yet handed over
        if t["card"] is not None and j["phase"] in ("tribute", "choose"):
            cards[t["card"]] += 1
        if t["returned"] is not None and j["phase"] == "return":
            cards[t["returned"]] += 1
    assert cards == Counter(double_deck_108())


def test_G_4_a_physical_first_deal_plays_to_the_end_over_http_and_replays_the_same(client):
    rnd = random.Random(11)
    hands = hands_of(rnd)
    table = first_table(hands, rnd)
    request = {"players": PLAYERS, "hands": hands, "table": table}
    dealt = deal(client, "guandan", request)
    leader = table.get("leader") or next(p for p in PLAYERS if table["cut_card"] in hands[p])
    assert dealt["to_act"] == [leader] and dealt["state"]["cut_card"] == table["cut_card"]
    actions, final = play_out(client, "guandan", request, rnd, conserved)
    replays_the_same(client, "guandan", request, actions, final)


def test_G_4_the_cut_card_is_given_on_a_first_deal_and_only_then(client):
    rnd = random.Random(12)
    hands = hands_of(rnd)
    problem = refused_deal(client, "guandan", {"players": PLAYERS, "hands": hands})
    assert error_paths(problem) == {"table.cut_card"}
    twice = next(c for c in hands["ann"] if c in hands["bob"])
    problem = refused_deal(client, "guandan", {"players": PLAYERS, "hands": hands,
                                               "table": {"cut_card": twice}})
    assert error_paths(problem) == {"table.leader"} and twice in problem["detail"]
    out = deal(client, "guandan", {"players": PLAYERS, "hands": hands,
                                   "table": {"cut_card": twice, "leader": "bob"}})
    assert out["to_act"] == ["bob"]
    problem = refused_deal(client, "guandan", {"players": PLAYERS, "hands": hands,
                                               "table": {"cut_card": twice, "leader": "cho"}
                                               if twice not in hands["cho"] else
                                               {"cut_card": twice, "leader": "dai"}})
    assert error_paths(problem) == {"table.leader"}
    match = {"levels": {"team1": "3"}, "previous_order": ["ann", "cho"], "deal_number": 1}
    problem = refused_deal(client, "guandan", {"players": PLAYERS, "hands": hands,
                                               "match": match, "table": {"cut_card": twice}})
    assert error_paths(problem) == {"table.cut_card"}


def test_G_2_G_3_deck_errors_name_the_card():
    hands = hands_of(random.Random(13))
    # a third copy of a card dealt twice already
    doubled = next(c for c in double_deck_108() if c not in hands["ann"][-1:])
    bad = {**hands, "ann": hands["ann"][:-1] + [doubled]}
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal("guandan", PLAYERS, hands=bad, table={"cut_card": "S3"})
    assert err.value.path.startswith("hands.") and doubled in str(err.value) \
        and "3 times" in str(err.value)
    with pytest.raises(InvalidDeal) as err:  # a card missing: the short hand is named
        adjudicate.deal("guandan", PLAYERS, hands={**hands, "cho": hands["cho"][1:]},
                        table={"cut_card": hands["ann"][0]})
    assert err.value.path == "hands.cho" and "27" in str(err.value)
    moved = {**hands, "ann": hands["ann"] + hands["bob"][:1], "bob": hands["bob"][1:]}
    with pytest.raises(InvalidDeal) as err:  # wrong counts
        adjudicate.deal("guandan", PLAYERS, hands=moved, table={"cut_card": hands["cho"][0]})
    assert err.value.path == "hands.ann"
    with pytest.raises(InvalidDeal) as err:  # an extra card: one too many of it
        adjudicate.deal("guandan", PLAYERS, hands={**hands, "dai": hands["dai"] + [doubled]},
                        table={"cut_card": hands["cho"][0]})
    assert err.value.path == "hands.dai[27]" and doubled in str(err.value)


def test_T_5_a_match_goes_on_with_a_new_physical_deal_and_the_draw_of_equal_tributes(client):
    """The next deal is entered from the table too (`match` + `hands`): tribute from the
    match; under D5 random the referee's draw stands in for the seed when the tributes tie."""
    rnd = random.Random(14)
    rest = [c for c in double_deck_108() if c not in ("BJ", "RJ")]
    rnd.shuffle(rest)
    # the payers (bob, dai after team1's 1-2 finish) each hold a black joker, the red ones are
    # with the winners: equal tributes (T-4), no anti-tribute (T-6)
    hands = {p: [joker] + rest[i * 26:(i + 1) * 26]
             for i, (p, joker) in enumerate(zip(PLAYERS, ["RJ", "BJ", "RJ", "BJ"]))}
    match = {"levels": {"team1": "3"}, "previous_order": ["ann", "cho"], "deal_number": 1,
             "declarer": "team1"}
    options = {"equal_tribute": "random"}
    request = {"players": PLAYERS, "hands": hands, "match": match, "options": options}
    problem = refused_deal(client, "guandan", request)
    assert error_paths(problem) == {"table.tribute_to_first"}
    request["table"] = {"tribute_to_first": "dai"}
    out = deal(client, "guandan", request)
    assert out["state"]["phase"] == "tribute"
    assert "tribute_to_first" not in adjudicate.view(out["state"], "ann")
    actions, final = play_out(client, "guandan", request, rnd, conserved)
    # dai's tribute went to ann, the 1st player, so dai leads (T-10)
    assert next(a for a in actions if a["type"] == "play")["player"] == "dai"
    replays_the_same(client, "guandan", request, actions, final)


@settings(max_examples=examples(4), deadline=None, phases=[Phase.explicit, Phase.generate])
@given(st.sampled_from(["winners_choose", "clockwise", "random"]), st.integers(0, 10 ** 6))
def test_random_physical_deals_play_out_conserve_cards_and_replay_the_same(equal_tribute, seed):
    """Random hands from two shuffled packs, the cut and the tribute draw given at random,
    a match of two physical deals played out at random: all 108 cards stay in one place
    each, each deal's log replays to the same state and totals."""
    rnd = random.Random(seed)
    options = {"equal_tribute": equal_tribute}
    match = None
    for _ in range(2):
        hands = hands_of(rnd)
        request = {"players": PLAYERS, "hands": hands, "options": options, "match": match}
        table = first_table(hands, rnd) if match is None else {}
        payers = match["tribute_payers"] if match else []
        anti = sum(hands[p].count("RJ") for p in payers) >= 2   # T-6, automatic by default
        if equal_tribute == "random" and len(payers) == 2 and not anti:
            table["tribute_to_first"] = rnd.choice(payers)
        if table:
            request["table"] = table
        actions, final, totals = engine_play_out("guandan", request, rnd, conserved)
        engine_replays_the_same("guandan", request, actions, final, totals)
        match = final["next_match"]
        if final["result"]["match_winner"] is not None:
            break
