"""The play obligations, one test per rule, with hand-built tricks (4 players, dealer p0, so p1
leads the first trick; partners p0+p2 and p1+p3)."""
from tests.manillen.helpers import legal_cards, play, refused, start

# Trump S. p1 leads; p2 is void in hearts.
BASE = {
    1: ["D10", "H7", "H8", "H9", "HJ", "HQ", "HK", "HA"],
    2: ["D9", "S10", "C7", "C8", "C9", "CJ", "CQ", "CK"],
    3: ["SA", "SK", "SQ", "SJ", "S9", "S8", "S7", "D7"],
    0: ["DK", "DA", "DQ", "DJ", "D8", "C10", "CA", "H10"],
}


def test_A21_must_follow_suit():
    state = start(BASE)
    state = play(state, "H7")          # p1 leads hearts; p2 holds none, so p0 later must follow
    state = play(state, "S10")         # p2 void: trumps
    state = play(state, "D7")          # p3 (partner of p1) discards (see A26 test: allowed)
    err = refused(state, "play", "p0", card="DA")
    assert err.code == "must_follow_suit"
    assert err.details["required"] == ["H10"]
    assert "H10" in err.en and "H10" in err.ja
    assert err.rule == "manillen A21"


def test_A24_must_overtake_in_suit_when_an_opponent_is_winning():
    state = start(BASE)
    state = play(state, "D10", "D9", "D7")   # p1 wins with D10 … p0 cannot beat it: free
    assert sorted(legal_cards(state, "p0")) == sorted(["DK", "DA", "DQ", "DJ", "D8"])
    hands = dict(BASE)
    hands[1] = ["DQ", "H7", "H8", "H9", "HJ", "HQ", "HK", "HA"]
    hands[0] = ["DK", "DA", "D10", "DJ", "D8", "C10", "CA", "H10"]
    state = start(hands)
    state = play(state, "DQ", "D9", "D7")    # p1 (opponent of p0) winning with DQ
    err = refused(state, "play", "p0", card="DJ")
    assert err.code == "must_overtake"
    assert sorted(err.details["required"]) == ["D10", "DA", "DK"]
    assert "DK" in err.en
    play(state, "DA")


def test_A23_partner_winning_frees_the_player():
    state = start(BASE)
    state = play(state, "D10", "D9")         # p1 (p3's partner) winning
    # p3 follows with any diamond (only D7 here); then p0 is against p1: D10 is unbeatable.
    state = play(state, "D7", "D8")
    # Trick 2: p1 leads HA; p2 void, must trump (see A22); p3 void too, partner p1 not winning.
    hands = dict(BASE)
    hands[1] = ["H10", "D7", "H8", "H9", "HJ", "HQ", "HK", "HA"]
    hands[3] = ["SA", "SK", "SQ", "SJ", "S9", "S8", "C10", "CA"]
    hands[0] = ["DK", "DA", "DQ", "DJ", "D8", "D10", "S7", "H7"]
    state = start(hands)
    state = play(state, "H10")               # p1 leads the best heart
    # p2 void, holds S10 and clubs; partner p0 has not played: must trump.
    err = refused(state, "play", "p2", card="C7")
    assert err.code == "must_trump"
    state = play(state, "S10")
    # p3: void, partner p1 is no longer winning (p2 trumped): must overtrump … but holds only
    # lower trumps and clubs, so must discard a club (A26) – covered below.
    assert sorted(legal_cards(state, "p3")) == ["C10", "CA"]
    # Now a trick where the partner is winning: p0's partner p2 wins it with S10.
    state = play(state, "CA")
    # p0 holds H7: must follow hearts (any heart; partner winning, nothing can beat a trump).
    assert legal_cards(state, "p0") == ["H7"]
    # Partner winning frees a void player from the duty to trump:
    hands = dict(BASE)
    hands[1] = ["H10", "D7", "H8", "H9", "HJ", "HQ", "HK", "HA"]
    hands[2] = ["D9", "S10", "C7", "C8", "C9", "CJ", "CQ", "H7"]
    hands[3] = ["SA", "SK", "SQ", "SJ", "S9", "S8", "C10", "CA"]
    hands[0] = ["DK", "DA", "DQ", "DJ", "D8", "D10", "S7", "CK"]
    state = start(hands)
    state = play(state, "H10", "H7")         # p1 winning; p3 is p1's partner
    assert sorted(legal_cards(state, "p3")) == sorted(hands[3])
    play(state, "C10")                       # a discard while holding trumps: accepted


def test_A23_partner_winning_frees_the_player_in_suit_too():
    hands = dict(BASE)
    hands[1] = ["HK", "D10", "H8", "H9", "HJ", "HQ", "D7", "H10"]
    hands[3] = ["SA", "SK", "SQ", "SJ", "S9", "S8", "HA", "H7"]
    hands[0] = ["DK", "DA", "DQ", "DJ", "D8", "C10", "CA", "S7"]
    state = start(hands)
    state = play(state, "HK")                # p1 leads HK; p2 void must trump
    state = play(state, "S10")
    # p3 follows hearts: p2 (opponent) winning with a trump; hearts cannot win: any heart.
    assert sorted(legal_cards(state, "p3")) == ["H7", "HA"]
    # Second case: p1 leads HK, p2 follows low, p3 holds HA: partner winning, H7 is fine.
    hands[2] = ["D9", "S10", "C7", "C8", "C9", "CJ", "CQ", "H8"]
    hands[1] = ["HK", "D10", "CK", "H9", "HJ", "HQ", "D7", "H10"]
    state = start(hands)
    state = play(state, "HK", "H8")
    assert sorted(legal_cards(state, "p3")) == ["H7", "HA"]
    play(state, "H7")


def test_A22_must_trump_when_void_and_partner_not_winning():
    state = start(BASE)
    state = play(state, "H7")
    err = refused(state, "play", "p2", card="CK")
    assert err.code == "must_trump"
    assert err.details["required"] == ["S10"]
    assert err.rule == "manillen A22"


def test_A25_must_overtrump():
    hands = dict(BASE)
    hands[2] = ["D9", "S9", "C7", "C8", "C9", "CJ", "CQ", "CK"]
    hands[3] = ["SA", "SK", "SQ", "SJ", "S10", "S8", "S7", "D7"]
    state = start(hands)
    state = play(state, "H7", "S9")          # p2 (opponent of p3) trumps with S9
    for card in ("D7", "S8", "S7"):
        err = refused(state, "play", "p3", card=card)
        assert err.code == "must_overtrump", card
        assert sorted(err.details["required"]) == ["S10", "SA", "SJ", "SK", "SQ"]
    play(state, "SJ")


def test_A26_void_with_lower_trumps_and_another_suit_must_discard():
    state = start(BASE)
    state = play(state, "H7", "S10")          # p2 trumps with the best trump
    err = refused(state, "play", "p3", card="S7")
    assert err.code == "no_undertrump"
    assert err.details["required"] == ["D7"]
    assert "S10" in err.en and "D7" in err.en
    assert err.rule == "manillen A26"
    play(state, "D7")


def test_A26_void_with_only_lower_trumps_is_forced_to_undertrump():
    state = start(BASE)
    state = play(state, "D10", "D9", "D7", "D8")   # p1 wins; p3 now holds only spades
    state = play(state, "H7", "S10")               # p2 trumps with the best trump
    assert sorted(legal_cards(state, "p3")) == sorted(BASE[3][:7])
    play(state, "S7")


def test_A26_trump_lead_no_undertrump_rule_does_not_apply():
    hands = dict(BASE)
    hands[1] = ["S10", "H7", "H8", "H9", "HJ", "HQ", "HK", "HA"]
    hands[2] = ["D9", "D10", "C7", "C8", "C9", "CJ", "CQ", "CK"]
    state = start(hands)
    state = play(state, "S10")                     # trump lead, unbeatable
    # p2 void in trumps: free (no duty, no under-trump restriction on a trump lead)
    assert sorted(legal_cards(state, "p2")) == sorted(hands[2])
    state = play(state, "C7")
    # p3 follows with any trump, lower than S10 included
    assert sorted(legal_cards(state, "p3")) == sorted(["SA", "SK", "SQ", "SJ", "S9", "S8", "S7"])
    play(state, "S7")


def test_A27_no_trump_void_player_is_free():
    state = start(BASE, trump="no_trump")
    state = play(state, "H7")
    assert sorted(legal_cards(state, "p2")) == sorted(BASE[2])


def test_M_g_trump_lead_only_lets_a_follower_play_low():
    hands = dict(BASE)
    hands[1] = ["DQ", "H7", "H8", "H9", "HJ", "HQ", "HK", "HA"]
    hands[0] = ["DK", "DA", "D10", "DJ", "D8", "C10", "CA", "H10"]
    state = start(hands, options={"must_overtake_in_suit": "trump_lead_only"})
    state = play(state, "DQ", "D9", "D7")
    assert sorted(legal_cards(state, "p0")) == sorted(["DK", "DA", "D10", "DJ", "D8"])


def test_M_h_undertrump_allowed_option():
    state = start(BASE, options={"undertrump": "allowed"})
    state = play(state, "H7", "S10")
    assert sorted(legal_cards(state, "p3")) == sorted(BASE[3])


def test_M_h_undertrump_required_option():
    state = start(BASE, options={"undertrump": "required_if_holding_trump"})
    state = play(state, "H7", "S10")
    err = refused(state, "play", "p3", card="D7")
    assert err.code == "must_undertrump"
    assert len(err.details["required"]) == 7


def test_M_f_must_trump_even_when_partner_winning():
    hands = dict(BASE)
    hands[1] = ["H10", "D7", "H8", "H9", "HJ", "HQ", "HK", "HA"]
    hands[2] = ["D9", "S10", "C7", "C8", "C9", "CJ", "CQ", "H7"]
    hands[3] = ["SA", "SK", "SQ", "SJ", "S9", "S8", "C10", "CA"]
    hands[0] = ["DK", "DA", "DQ", "DJ", "D8", "D10", "S7", "CK"]
    state = start(hands, options={"must_trump_when_partner_winning": True})
    state = play(state, "H10", "H7")
    err = refused(state, "play", "p3", card="C10")
    assert err.code == "must_trump"


def test_M_i_overtake_on_trump_lead_even_if_partner_wins():
    hands = dict(BASE)
    hands[1] = ["SQ", "H7", "H8", "H9", "HJ", "HQ", "HK", "HA"]
    hands[2] = ["D9", "D10", "C7", "C8", "C9", "CJ", "CQ", "CK"]
    hands[3] = ["SA", "SK", "S10", "SJ", "S9", "S8", "S7", "D7"]
    opts = {"overtrump_on_trump_lead_even_if_partner_wins": True}
    state = play(start(hands, options=opts), "SQ", "C7")
    assert sorted(legal_cards(state, "p3")) == ["S10", "SA", "SK"]
    state = play(start(hands), "SQ", "C7")
    assert len(legal_cards(state, "p3")) == 7


def test_card_not_held_is_refused_and_names_it():
    state = start(BASE)
    err = refused(state, "play", "p1", card="SA")
    assert err.code == "card_not_playable"
    assert "SA" in err.en and "SA" in err.ja


def test_out_of_turn_play_is_refused():
    state = start(BASE)
    err = refused(state, "play", "p2", card="D9")
    assert err.code == "not_your_turn"
    assert err.details == {"turn": "p1", "player": "p2"}
