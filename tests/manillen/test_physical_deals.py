"""Physical deals of Manillen (docs/rules/manillen.md, "Physical deals"): each seat's hand and
the rest of the layout as it lies on the table (the left-over cards A34/A35, the 2-player
piles A36, the French form's turned card A37), the first dealer's cut as shown (A5); every
card once, the counts of each player count; played to the end through HTTP, and the
referee's log replays to the same result every time (nothing from an unseen seed)."""
from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import Phase, given, settings, strategies as st

from engine import adjudicate
from engine.cards import deck_32
from engine.errors import InvalidDeal
from engine.games.manillen.cut import cut_winner
from tests.physical import (
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

SEATS = {n: ["ann", "bob", "cho", "dai", "eve", "fay"][:n] for n in (2, 3, 4, 6)}
IN_HAND = {2: 8, 3: 10, 4: 8, 6: 5}


def physical(n: int, rnd: random.Random, dealer: str | None = None, french: bool = False
             ) -> dict:
    """A random physical deal request: hands (and table) from a shuffled pack."""
    players = SEATS[n]
    cards = deck_32()
    rnd.shuffle(cards)
    hands = {p: cards[i * IN_HAND[n]:(i + 1) * IN_HAND[n]] for i, p in enumerate(players)}
    rest = cards[n * IN_HAND[n]:]
    table: dict = {}
    if n == 2:
        table = {"face_up": {p: rest[i * 4:i * 4 + 4] for i, p in enumerate(players)},
                 "face_down": {p: rest[8 + i * 4:12 + i * 4] for i, p in enumerate(players)}}
    elif n in (3, 6):
        table = {"leftover": rest}
    if french:
        table["turned"] = rnd.choice(hands[dealer or players[0]])
    request = {"players": players, "hands": hands}
    if dealer:
        request["dealer"] = dealer
    if table:
        request["table"] = table
    return request


def conserved(j: dict) -> None:
    cards = [c for h in j["hands"].values() for c in h] + list(j["leftover"])
    cards += [c for piles in (j["table"] or {}).values() for pile in piles for c in pile]
    cards += [c for w in j["won"].values() for c in w] + list((j["trick"] or {}).get("cards", ()))
    assert Counter(cards) == Counter(deck_32())


@pytest.mark.parametrize("n,options", [(2, {}), (3, {}), (4, {}), (6, {}),
                                       (4, {"preset": "muette"}), (3, {"blind_no_trump": True})])
def test_a_physical_deal_plays_to_the_end_over_http_and_replays_the_same(client, n, options):
    rnd = random.Random(n * 100 + len(options))
    request = {**physical(n, rnd, dealer=SEATS[n][1], french=bool(options.get("preset"))),
               "options": options}
    actions, final = play_out(client, "manillen", request, rnd, conserved)
    dealt = deal(client, "manillen", request)["state"]
    assert dealt["hands"] == request["hands"] and dealt["dealer"] == SEATS[n][1]
    if n == 2:
        assert [pile[0] for pile in dealt["table"]["ann"]] == request["table"]["face_up"]["ann"]
        assert [pile[1] for pile in dealt["table"]["ann"]] == request["table"]["face_down"]["ann"]
    if n in (3, 6):
        assert dealt["leftover"] == request["table"]["leftover"]
    if options.get("preset"):
        assert dealt["turned"] == request["table"]["turned"]
        assert dealt["trump"] == request["table"]["turned"][0]
    replays_the_same(client, "manillen", request, actions, final)


def test_A36_the_face_down_cards_stay_hidden_in_views():
    request = physical(2, random.Random(3))
    state = adjudicate.deal("manillen", **request)["state"]
    view = adjudicate.view(state, "bob")
    assert not set(request["table"]["face_down"]["ann"]) & set(str(view))
    assert all(pile["down"] for pile in view["table"]["ann"])


def test_A34_A35_A36_A37_the_table_parts_of_each_player_count_are_required_and_only_they():
    rnd = random.Random(4)
    three = physical(3, rnd)
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal("manillen", three["players"], hands=three["hands"])
    assert err.value.path == "table.leftover"
    four = physical(4, rnd)
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal("manillen", four["players"], hands=four["hands"],
                        table={"leftover": ["S7", "S8"]})
    assert err.value.path == "table.leftover"
    two = physical(2, rnd)
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal("manillen", two["players"], hands=two["hands"],
                        table={"face_up": two["table"]["face_up"]})
    assert err.value.path == "table.face_down"
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal("manillen", four["players"], {"preset": "parlee"}, hands=four["hands"])
    assert err.value.path == "table.turned"
    elsewhere = next(c for c in four["hands"]["bob"])
    with pytest.raises(InvalidDeal) as err:  # the dealer's own last card (A37)
        adjudicate.deal("manillen", four["players"], {"preset": "parlee"}, hands=four["hands"],
                        table={"turned": elsewhere})
    assert err.value.path == "table.turned" and elsewhere in str(err.value)
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal("manillen", four["players"], hands=four["hands"],
                        table={"turned": four["hands"]["ann"][0]})
    assert err.value.path == "table.turned"


def test_A1_deck_errors_name_the_card_and_its_place():
    rnd = random.Random(5)
    four = physical(4, rnd)
    hands = four["hands"]
    twice = {**hands, "dai": hands["dai"][:-1] + [hands["ann"][2]]}
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal("manillen", four["players"], hands=twice)
    assert err.value.path == "hands.dai[7]"
    assert hands["ann"][2] in str(err.value) and "hands.ann[2]" in str(err.value)
    with pytest.raises(InvalidDeal) as err:  # not in the 32-card deck
        adjudicate.deal("manillen", four["players"], hands={**hands, "bob": hands["bob"] + ["S6"]})
    assert err.value.path == "hands.bob[8]" and "S6" in str(err.value)
    with pytest.raises(InvalidDeal) as err:  # a card missing: a short hand is named
        adjudicate.deal("manillen", four["players"], hands={**hands, "cho": hands["cho"][1:]})
    assert err.value.path == "hands.cho" and "8 cards" in str(err.value)
    moved = {**hands, "ann": hands["ann"] + hands["bob"][:1], "bob": hands["bob"][1:]}
    with pytest.raises(InvalidDeal) as err:  # wrong counts
        adjudicate.deal("manillen", four["players"], hands=moved)
    assert err.value.path == "hands.ann"
    two = physical(2, rnd)
    up = two["table"]["face_up"]
    table = {**two["table"], "face_up": {**up, "bob": up["bob"][:3] + [two["hands"]["ann"][0]]}}
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal("manillen", two["players"], hands=two["hands"], table=table)
    assert err.value.path == "table.face_up.bob[3]" and two["hands"]["ann"][0] in str(err.value)
    six = physical(6, rnd)
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal("manillen", six["players"], hands=six["hands"],
                        table={"leftover": six["table"]["leftover"][:1]})
    assert err.value.path == "table.leftover"


def test_A1_deck_errors_over_http(client):
    four = physical(4, random.Random(6))
    hands = four["hands"]
    card = hands["ann"][0]
    problem = refused_deal(client, "manillen", {
        "players": four["players"], "hands": {**hands, "dai": hands["dai"][:-1] + [card]}})
    assert error_paths(problem) == {"hands.dai[7]"} and card in problem["detail"]


def test_A5_the_first_dealer_cut_is_given_as_shown():
    rnd = random.Random(7)
    four = physical(4, rnd)
    players, hands = four["players"], four["hands"]
    # a physical deal names its dealer, or gives the cut as shown; with neither the first
    # seat deals, as before the cut was the default: the engine never cuts for a real table
    for options in ({}, {"preset": "cut"}, {"first_dealer": "first_player"}):
        plain = adjudicate.deal("manillen", players, options, hands=hands)["state"]
        assert plain["dealer"] == "ann" and plain["cut"] == []
    shown = [{"player": "ann", "card": "S10"}, {"player": "bob", "card": "H7"},
             {"player": "cho", "card": "D10"}, {"player": "dai", "card": "CA"},
             {"player": "ann", "card": "SK"}, {"player": "cho", "card": "H8"}]
    state = adjudicate.deal("manillen", players, {"preset": "cut"}, hands=hands,
                            table={"cut": shown})["state"]
    assert state["dealer"] == "ann" and state["cut"] == shown
    assert cut_winner([(c["player"], c["card"]) for c in shown], players) == "ann"
    for wrong in (shown[:4], shown[:5], [{**shown[0], "player": "bob"}, *shown[1:]],
                  [*shown[:5], {"player": "cho", "card": "SK"}]):
        with pytest.raises(InvalidDeal) as err:
            adjudicate.deal("manillen", players, {"preset": "cut"}, hands=hands,
                            table={"cut": wrong})
        assert err.value.path == "table.cut"
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal("manillen", players, {"preset": "cut"}, hands=hands,
                        table={"cut": [{"player": "ann", "card": "S6"}]})
    assert err.value.path == "table.cut[0].card"
    named = adjudicate.deal("manillen", players, {"preset": "cut"}, hands=hands, dealer="cho")
    assert named["state"]["dealer"] == "cho" and named["state"]["cut"] == []
    with pytest.raises(InvalidDeal) as err:  # the dealer named, no cut decides
        adjudicate.deal("manillen", players, {"preset": "cut"}, hands=hands, dealer="cho",
                        table={"cut": shown})
    assert err.value.path == "table.cut"
    with pytest.raises(InvalidDeal) as err:  # first_dealer first_player: no cut decides
        adjudicate.deal("manillen", players, {"first_dealer": "first_player"}, hands=hands,
                        table={"cut": shown})
    assert err.value.path == "table.cut"
    # the default (first_dealer: cut) takes the cut as shown, with no preset
    by_default = adjudicate.deal("manillen", players, hands=hands, table={"cut": shown})
    assert by_default["state"]["dealer"] == "ann" and by_default["state"]["cut"] == shown


def test_A5_a_match_goes_on_with_a_new_physical_deal(client):
    """The next deal: `match` (the last next_match: scores, carry, dealer) and new hands; the
    deal passed left (A5)."""
    rnd = random.Random(8)
    first = {**physical(3, rnd), "options": {"target_points": 500}}
    _, end = play_out(client, "manillen", first, rnd)
    match = end["next_match"]
    assert match["dealer"] == "bob"
    second = {**physical(3, rnd), "options": {"target_points": 500}, "match": match}
    actions, final = play_out(client, "manillen", second, rnd)
    assert final["state"]["dealer"] == "bob"
    assert final["state"]["match"]["deal_number"] == match["deal_number"]
    replays_the_same(client, "manillen", second, actions, final)


@settings(max_examples=examples(12), deadline=None, phases=[Phase.explicit, Phase.generate])
@given(st.sampled_from([2, 3, 4, 6]), st.sampled_from(["standard", "cut", "muette", "blind",
                                                       "capped"]),
       st.integers(0, 10 ** 6))
def test_random_physical_deals_play_out_conserve_cards_and_replay_the_same(n, preset, seed):
    """Random hands and table from a shuffled pack, the dealer or the cut given at random,
    a match of two physical deals played out at random: the 32 cards stay in one place each,
    each deal's log replays to the same state and totals."""
    rnd = random.Random(seed)
    if preset == "muette" and n != 4:
        preset = "standard"
    options = {"preset": preset, "booms_to_win": 3}  # a match of two deals goes on
    match = None
    for _ in range(2):
        dealer = match["dealer"] if match else rnd.choice(SEATS[n])
        request = physical(n, rnd, dealer=dealer, french=preset == "muette")
        request.pop("dealer")
        if match:
            request["match"] = match
        elif preset == "cut":
            request.setdefault("table", {})["cut"] = random_cut(SEATS[n], rnd)
            dealer = cut_winner([(c["player"], c["card"]) for c in request["table"]["cut"]],
                                SEATS[n])
        else:
            request["dealer"] = dealer
        request["options"] = options
        actions, final, totals = engine_play_out("manillen", request, rnd, conserved)
        assert final["dealer"] == dealer
        assert all(v > 0 for v in totals.values())  # only positive scores (A28)
        engine_replays_the_same("manillen", request, actions, final, totals)
        match = final["next_match"]


def random_cut(players: list[str], rnd: random.Random) -> list[dict]:
    """A cut as a table would show it: a fresh pack each round, the tied strongest again."""
    from engine.games.manillen.tricks import strength

    shown, contenders = [], list(players)
    while True:
        pack = deck_32()
        rnd.shuffle(pack)
        rnd_shown = list(zip(contenders, pack))
        shown += rnd_shown
        best = max(strength(c) for _, c in rnd_shown)
        contenders = [p for p, c in rnd_shown if strength(c) == best]
        if len(contenders) == 1:
            return [{"player": p, "card": c} for p, c in shown]
