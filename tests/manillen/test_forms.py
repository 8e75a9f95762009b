"""The seed's 2- and 3-player forms (A34, A36) and the 4-player game, end to end."""
import random

from engine import adjudicate as adj
from engine.cards import deck_32
from tests.manillen.helpers import PLAYERS, act, deck_for, legal_cards, play, play_out, refused, start, to_act


def test_A36_two_player_deal_layout():
    table = {1: [("SA", "H7"), ("SK", "H8"), ("SQ", "H9"), ("SJ", "HJ")],
             0: [("DA", "C7"), ("DK", "C8"), ("DQ", "C9"), ("DJ", "CJ")]}
    hands = {1: ["S10", "S9", "S8", "S7", "H10", "HA", "HK", "HQ"],
             0: ["D10", "D9", "D8", "D7", "C10", "CA", "CK", "CQ"]}
    deck = deck_for(hands, n=2, table=table)
    state = adj.deal("manillen", ["p0", "p1"], seed="z", deck=deck)["state"]
    assert state["hands"]["p1"] == hands[1] and state["hands"]["p0"] == hands[0]
    assert state["table"]["p1"] == [list(p) for p in table[1]]
    assert state["table"]["p0"] == [list(p) for p in table[0]]
    state = act(state, "choose_trump", "p0", trump="C").state
    state = act(state, "pass", "p1").state
    # Playable: hand plus face-up table cards (A36), never a face-down one.
    assert sorted(legal_cards(state, "p1")) == sorted(hands[1] + ["SA", "SK", "SQ", "SJ"])
    assert refused(state, "play", "p1", card="H7").code == "card_not_playable"
    state = play(state, "SA")                   # a face-up card: H7 beneath turns up
    assert state["table"]["p1"][0] == ["H7"]
    # p0 is void in spades and holds trumps (clubs): no partner, so must trump (A22).
    err = refused(state, "play", "p0", card="D10")
    assert err.code == "must_trump"
    assert sorted(err.details["required"]) == sorted(["C10", "CA", "CK", "CQ"])
    state = play(state, "CQ")
    assert state["last_trick"]["winner"] == "p0"
    assert "H7" in legal_cards(play(state, "DA"), "p1")


def test_A36_two_players_play_sixteen_tricks():
    rnd = random.Random(5)
    state = start({}, n=2, trump="H")
    final, deltas, events = play_out(state, rnd)
    assert [e["type"] for e in events].count("trick_won") == 16
    res = final["result"]
    assert sum(s["card_points"] for s in res["sides"]) == 60
    assert all(t == [] for row in final["table"].values() for t in row)
    assert {s["id"] for s in res["sides"]} == {"p0", "p1"}


def test_A34_three_players_ten_each_two_shown():
    state = adj.deal("manillen", ["p0", "p1", "p2"], seed="three", dealer="p0")["state"]
    assert {p: len(h) for p, h in state["hands"].items()} == {"p0": 10, "p1": 10, "p2": 10}
    assert len(state["leftover"]) == 2
    view = adj.view(state, "p1")
    assert view["leftover"] == state["leftover"]
    assert view["sides"] == [{"id": "dealer", "members": ["p0"]},
                             {"id": "defenders", "members": ["p1", "p2"]}]
    state = act(state, "choose_trump", "p0", trump="D").state
    while state["phase"] == "doubling":
        state = act(state, "pass", state["doubling"]["turn"]).state
    final, deltas, events = play_out(state, random.Random(2))
    assert [e["type"] for e in events].count("trick_won") == 10
    res = final["result"]
    assert sum(s["card_points"] for s in res["sides"]) == 60
    defenders = next(s for s in res["sides"] if s["id"] == "defenders")
    if defenders["score"]:
        # Each temporary partner records the partnership's score (A34).
        assert sorted(d["target"] for d in deltas) == ["p1", "p2"]
        assert {d["delta"] for d in deltas} == {defenders["score"]}
    assert final["next_dealer"] == "p1"


def test_A34_three_player_partners_share_the_partner_exemption():
    # Dealer p0 alone; p1 and p2 partners. p1 leads HK; p2 holds HA and H7: partner winning.
    hands = {1: ["HK", "S7", "S8", "S9", "SJ", "SQ", "SK", "SA", "S10", "D7"],
             2: ["HA", "H7", "C7", "C8", "C9", "CJ", "CQ", "CK", "CA", "C10"]}
    state = start(hands, n=3, trump="D")
    state = play(state, "HK")
    assert sorted(legal_cards(state, "p2")) == ["H7", "HA"]
    state = play(state, "H7")
    # The dealer, against them, must beat HK in hearts if possible.
    p0 = [a["card"] for a in adj.legal_actions(state, "p0")]
    hearts = [c for c in adj.view(state, "p0")["hand"] if c[0] == "H"]
    higher = [c for c in hearts if c in ("H10", "HA")]
    assert sorted(p0) == sorted(higher or hearts or p0)


def test_four_players_whole_deal_with_doubling():
    state = adj.deal("manillen", ["a", "b", "c", "d"], seed="four", dealer="b")["state"]
    assert state["dealer"] == "b"
    state = act(state, "choose_trump", "b", trump="no_trump").state
    assert state["doubling"]["turn"] == "c"
    state = act(state, "double", "c").state
    state = act(state, "redouble", "d").state
    state = act(state, "pass", "a").state
    state = act(state, "pass", "c").state
    assert state["phase"] == "play" and state["multiplier"] == 8
    final, deltas, events = play_out(state, random.Random(4))
    res = final["result"]
    assert res["multiplier"] == 8
    for side in res["sides"]:
        expected = (side["card_points"] - 30) * 8 if side["card_points"] > 30 else 0
        assert side["score"] == expected
    assert final["next_dealer"] == "c"
    assert final["next_match"]["dealer"] == "c"


def test_referee_replay_of_a_whole_deal_and_its_first_bad_action():
    request = {"game_id": "manillen", "players": ["a", "b", "c", "d"], "seed": "rep",
               "dealer": "a", "seed_salt": "5a175a175a175a175a175a175a175a17"}  # recorded with the deal
    state = adj.deal(**request)["state"]
    log = [{"type": "choose_trump", "player": "a", "trump": "H"}]
    state = act(state, "choose_trump", "a", trump="H").state
    rnd = random.Random(8)
    while state["status"] == "in_progress":
        player = adj.game_by_id("manillen").to_act(adj.load_state(state)[1])[0]
        action = rnd.choice(adj.legal_actions(state, player))
        log.append(action)
        state = adj.validate(state, action).state
    out = adj.replay(request, log)
    assert out["stopped"] is None and out["state"] == state and out["status"] == "finished"
    assert sum(out["totals"].values()) == sum(state["result"]["deltas"].values())
    # A play that breaks an obligation stops the replay there, naming the rule.
    early = adj.replay(request, log[:6])["state"]
    player = adj.game_by_id("manillen").to_act(adj.load_state(early)[1])[0]
    legal = {a["card"] for a in adj.legal_actions(early, player)}
    bad = [c for c in early["hands"][player] if c not in legal]
    assert bad, "seed rep should leave an illegal card here"
    out = adj.replay(request, log[:6] + [{"type": "play", "player": player, "card": bad[0]}])
    assert out["stopped"]["index"] == 6
    assert out["stopped"]["error"].rule.startswith("manillen A2")


def test_A35_six_players_five_each_two_left_over_teams_alternate():
    state = adj.deal("manillen", PLAYERS[6], seed="six", dealer="p1")["state"]
    assert {p: len(h) for p, h in state["hands"].items()} == {p: 5 for p in PLAYERS[6]}
    assert len(state["leftover"]) == 2
    assert state["match"]["scores"] == {"team_0_2_4": 0, "team_1_3_5": 0}
    view = adj.view(state, "p0")
    assert view["leftover"] == state["leftover"]
    assert view["sides"] == [{"id": "team_1_3_5", "members": ["p1", "p3", "p5"]},
                             {"id": "team_0_2_4", "members": ["p2", "p4", "p0"]}]
    # dealing starts left of the dealer, packets 3-2 (our choice; no source gives them)
    deck = deck_for({}, n=6, dealer=1)
    dealt = adj.deal("manillen", PLAYERS[6], seed="six", dealer="p1", deck=deck)["state"]
    assert dealt["hands"]["p2"] == deck[0:3] + deck[18:20]
    assert dealt["leftover"] == deck[30:]


def test_A35_six_players_left_over_cards_count_for_the_dealers_team():
    state = start({}, n=6, trump="S", dealer=0)
    final, deltas, events = play_out(state, random.Random(3))
    assert [e["type"] for e in events].count("trick_won") == 5
    from engine.games.manillen.tricks import total_points
    res = final["result"]
    team = {s["id"]: s for s in res["sides"]}
    won = sum((final["won"][p] for p in ("p0", "p2", "p4")), [])
    assert team["team_0_2_4"]["card_points"] == total_points(won + final["leftover"])
    assert team["team_0_2_4"]["card_points"] + team["team_1_3_5"]["card_points"] == 60
    assert {d["target"] for d in deltas} <= {"team_0_2_4", "team_1_3_5"}
    assert final["next_dealer"] == "p1"


def test_A35_six_players_dealers_partners_may_not_look_before_trumps():
    state = adj.deal("manillen", PLAYERS[6], seed="six", dealer="p0")["state"]
    for p in ("p2", "p4"):
        assert adj.view(state, p)["hand_hidden"]
    for p in ("p0", "p1", "p3", "p5"):
        assert not adj.view(state, p)["hand_hidden"]
    assert refused(state, "report_peek", "p3").code == "peek_report_not_allowed"
    out = act(state, "report_peek", "p4")
    assert out.state["thrown_in"] and out.state["next_dealer"] == "p1"
    named = act(state, "choose_trump", "p0", trump="H").state
    assert not adj.view(named, "p4")["hand_hidden"]


def test_A35_six_players_any_partner_winning_exempts():
    # p1 leads HK; p3 (opponent of p1, partner of p5) plays HA; p5 is void in hearts and
    # holds trumps: p3 (a partner two seats away) is winning, so p5 need not trump (A23).
    hands = {1: ["HK", "S7", "S8", "S9", "SJ"], 2: ["H7", "C7", "C8", "C9", "CJ"],
             3: ["HA", "H8", "H9", "HJ", "HQ"], 4: ["H10", "SQ", "SK", "SA", "S10"],
             5: ["D7", "D8", "D9", "DJ", "C10"]}
    state = start(hands, n=6, trump="D", dealer=0)
    state = play(state, "HK", "H7", "HA", "H10")
    # p4 took the lead with H10; p5's partner p3 no longer wins: p5 must trump.
    assert sorted(legal_cards(state, "p5")) == ["D7", "D8", "D9", "DJ"]
    state = start(hands, n=6, trump="D", dealer=0)
    state = play(state, "HK", "H7", "HA")
    # p4 (partner of p2, both against p3) must beat HA in hearts: H10
    assert legal_cards(state, "p4") == ["H10"]


def test_A35_five_players_are_refused():
    import pytest

    from engine.errors import InvalidDeal
    with pytest.raises(InvalidDeal) as err:
        adj.deal("manillen", PLAYERS[6][:5], seed="five")
    assert err.value.path == "players"


def _french(form="muette", **kw):
    deck = deck_32()
    state = adj.deal("manillen", PLAYERS[4], seed="fr", dealer="p0", deck=deck,
                     options={"preset": form, **kw})["state"]
    return deck, state


def test_A37_last_card_dealt_fixes_trumps_and_play_goes_counter_clockwise():
    deck, state = _french()
    # 4-4 from the dealer's right, counter-clockwise: p3, p2, p1, p0
    assert state["hands"]["p3"] == deck[0:4] + deck[16:20]
    assert state["hands"]["p0"] == deck[12:16] + deck[28:32]
    assert state["turned"] == deck[31] and state["trump"] == deck[31][0]
    assert adj.view(state, "p1")["turned"] == deck[31]
    assert state["phase"] == "doubling" and state["doubling"]["turn"] == "p3"
    while state["phase"] == "doubling":
        state = act(state, "pass", state["doubling"]["turn"]).state
    assert state["trick"]["leader"] == "p3" and to_act(state) == ["p3"]
    state = play(state, legal_cards(state, "p3")[0])
    assert to_act(state) == ["p2"]
    final, _, events = play_out(state, random.Random(4))
    assert final["next_dealer"] == "p3" and final["result"]["threshold"] == 34
    assert [e["type"] for e in events].count("trick_won") == 8


def test_A37_french_form_has_no_trump_choice_and_needs_four_players():
    _, state = _french()
    assert refused(state, "choose_trump", "p0", trump="S").code == "wrong_phase"
    import pytest

    from engine.errors import InvalidDeal
    for n, extra in ((3, {}), (4, {"blind_no_trump": True}),
                     (4, {"allow_pass_trump_to_partner": True})):
        with pytest.raises(InvalidDeal) as err:
            adj.deal("manillen", PLAYERS[n], seed="fr",
                     options={"french_form": "muette", **extra})
        assert err.value.path == "options.french_form"


def test_A37_parlee_partner_may_signal_muette_may_not():
    _, state = _french("parlee")
    while state["phase"] == "doubling":
        state = act(state, "pass", state["doubling"]["turn"]).state
    # p3 leads; p1 (p3's partner) may tell p3 to take; p2 may not speak to p3
    out = act(state, "speak", "p1", says="take")
    assert out.state == state
    assert [(e["type"], e["player"], e["to"], e["says"]) for e in map(dict, out.events)] \
        == [("spoke", "p1", "p3", "take")]
    err = refused(state, "speak", "p2", says="leave")
    assert (err.code, err.rule) == ("speech_not_now", "manillen A37")
    assert "speak" not in {a["type"] for a in adj.legal_actions(state, "p1")}
    _, silent = _french("muette")
    while silent["phase"] == "doubling":
        silent = act(silent, "pass", silent["doubling"]["turn"]).state
    err = refused(silent, "speak", "p1", says="take")
    assert err.code == "speech_not_allowed" and "パルレ" in err.ja
    plain = start({}, trump="S")
    assert refused(plain, "speak", "p3", says="take").code == "speech_not_allowed"


def test_A37_decode_refuses_a_turned_card_that_does_not_fix_trumps():
    import pytest

    from engine.errors import InvalidState
    from engine.games.manillen import GAME
    _, state = _french()
    other = next(c for c in deck_32() if c[0] != state["trump"])
    for broken in ({**state, "turned": other}, {**state, "turned": None},
                   {**start({}, trump="S"), "turned": "S7"}):
        with pytest.raises(InvalidState) as err:
            GAME.decode(broken)
        assert err.value.path == "state.turned"
