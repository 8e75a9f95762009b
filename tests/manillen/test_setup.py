"""The first dealer by a cut (A5, A6)."""
import copy
import random

import pytest

from engine import adjudicate as adj
from engine.errors import InvalidState
from engine.games.manillen import GAME
from engine.games.manillen.cut import cut_for_dealer, cut_winner
from engine.games.manillen.tricks import strength
from tests.manillen.helpers import PLAYERS, act, play_out


def test_A5_first_dealer_is_the_strongest_card_of_a_cut():
    dealers = set()
    for seed in map(str, range(40)):
        for n in (2, 3, 4):
            state = adj.deal("manillen", PLAYERS[n], seed=seed,
                             options={"first_dealer": "cut"})["state"]
            cut = [(c["player"], c["card"]) for c in state["cut"]]
            assert [p for p, _ in cut[:n]] == PLAYERS[n]        # everyone cuts, in seat order
            winner = state["dealer"]
            first = dict(cut[:n])
            assert strength(first[winner]) == max(map(strength, first.values()))
            assert state["match"]["dealer"] == winner == cut_winner(cut, PLAYERS[n])
            dealers.add(winner)
    assert dealers == set(PLAYERS[4])                         # not always the first player


def test_A5_tied_strongest_cards_cut_again():
    for seed in map(str, range(400)):
        cut = cut_for_dealer(PLAYERS[4], seed)
        if len(cut) > 4:
            first = cut[:4]
            best = max(strength(c) for _, c in first)
            tied = [p for p, c in first if strength(c) == best]
            assert len(tied) > 1 and [p for p, _ in cut[4:4 + len(tied)]] == tied
            assert cut_winner(cut, PLAYERS[4]) in tied
            return
    pytest.fail("no tie in 400 seeds")


def test_A5_a_seeded_match_cuts_for_the_first_dealer_by_default():
    # The seed: 「最初の ディーラーカット で最も強いカードを示したプレイヤーがなります」 -- the
    # first dealer is whoever shows the strongest card of a cut. It is the default of a
    # server-shuffled deal, not only of the `cut` preset: drawn from the seed (the same seed
    # cuts the same), recorded in the state and shown in every view.
    dealers = set()
    for seed in map(str, range(40)):
        state = adj.deal("manillen", PLAYERS[4], seed=seed)["state"]
        assert state["options"]["first_dealer"] == "cut"
        cut = [(c["player"], c["card"]) for c in state["cut"]]
        assert cut == cut_for_dealer(PLAYERS[4], seed)               # deterministic from the seed
        assert state["dealer"] == state["match"]["dealer"] == cut_winner(cut, PLAYERS[4])
        again = adj.deal("manillen", PLAYERS[4], seed=seed)["state"]
        assert (again["cut"], again["dealer"], again["hands"]) == \
            (state["cut"], state["dealer"], state["hands"])
        assert adj.view(state, "p1")["cut"] == state["cut"]
        dealers.add(state["dealer"])
    assert dealers == set(PLAYERS[4])                    # not always the first player
    # first_dealer: first_player (the former default) deals from the first seat, no cut
    first = adj.deal("manillen", PLAYERS[4], seed="s",
                     options={"first_dealer": "first_player"})["state"]
    assert first["cut"] == [] and first["dealer"] == "p0"


def test_A5_a_named_dealer_wins_over_the_cut_and_later_deals_pass_it_left():
    # Decision: a dealer named by the request (a referee or organiser seating the first
    # dealer) wins over the cut, which is not made; later deals of a match name the dealer
    # the deal passed to (A5, `next_match.dealer`), never cut again.
    named = adj.deal("manillen", PLAYERS[4], seed="s", dealer="p2")["state"]
    assert named["cut"] == [] and named["dealer"] == "p2"
    first = adj.deal("manillen", PLAYERS[4], seed="s")["state"]
    later = adj.deal("manillen", PLAYERS[4], seed="s",
                     match={"dealer": "p3", "deal_number": 1})["state"]
    assert later["cut"] == [] and later["dealer"] == "p3"
    state = act(first, "choose_trump", first["dealer"], trump="S").state
    while state["phase"] == "doubling":
        state = act(state, "pass", state["doubling"]["turn"]).state
    final, _, _ = play_out(state, random.Random(5))
    players = PLAYERS[4]
    left = players[(players.index(first["dealer"]) + 1) % 4]
    assert final["next_match"]["dealer"] == final["next_dealer"] == left
    second = adj.deal("manillen", players, seed="s", match=final["next_match"])["state"]
    assert second["dealer"] == left and second["cut"] == []


def test_A5_decode_refuses_a_cut_that_does_not_give_the_dealer():
    state = adj.deal("manillen", PLAYERS[4], seed="s", options={"first_dealer": "cut"})["state"]
    GAME.decode(state)
    other = next(p for p in PLAYERS[4] if p != state["dealer"])
    swapped = [dict(c, card=state["cut"][1 - i]["card"]) if i < 2 else c
               for i, c in enumerate(state["cut"])]
    for broken in ({**state, "cut": state["cut"][:1]},
                   {**state, "cut": state["cut"] + state["cut"][:1]},
                   {**state, "cut": swapped},
                   {**copy.deepcopy(state), "dealer": other,
                    "match": {**state["match"], "dealer": other}}):
        if cut_winner([(c["player"], c["card"]) for c in broken["cut"]],
                      PLAYERS[4]) == broken["dealer"]:
            continue        # swapping two cards may leave the same winner
        with pytest.raises(InvalidState) as err:
            GAME.decode(broken)
        assert err.value.path == "state.cut"


def test_A6_the_cut_of_the_pack_does_not_change_an_explicit_deck():
    # A6: the dealer shuffles and the right-hand player cuts (or knocks). A seeded shuffle
    # stands for both; an explicit deck is the pack as dealt, after the cut.
    from engine.cards import deck_32
    deck = deck_32()
    state = adj.deal("manillen", PLAYERS[4], seed="s", dealer="p0", deck=deck,
                     options={"first_dealer": "cut"})["state"]
    assert state["hands"]["p1"][:3] == deck[:3] and state["cut"] == []


def test_GET_games_lists_manillens_options_and_six_players():
    from service.app import create_app
    from service.config import Settings
    client = create_app(Settings(metrics=False, referee_keys=("k",))).test_client()
    resp = client.get("/v1/games")
    assert resp.status_code == 200
    entry = next(g for g in resp.get_json()["games"] if g["id"] == "manillen")
    assert entry["players"] == {"min": 2, "max": 6} and entry["state_version"] == 4
    options = {o["name"]: o for o in entry["options"]}
    assert options["first_dealer"]["allowed"] == ["first_player", "cut"]
    assert options["first_dealer"]["rule"] == "A5"
    assert options["french_form"]["allowed"] == ["none", "muette", "parlee"]
    assert options["french_form"]["rule"] == "A37"
    assert options["score_threshold"]["default"] is None
    assert {"cut", "muette", "parlee"} <= set(entry["presets"])
    assert entry["presets"]["french_base"] == {"trick_bonus_points": 1}
    assert entry["refusals"]["speech_not_allowed"] == "manillen A37"
    assert "speak" in {a["type"] for a in entry["actions"]}
