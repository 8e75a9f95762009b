"""Manteur's truth test (B11, B12) with jokers wild (B1), against examples and a brute force."""
import random
import time
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from engine.cards import JOKERS, deck_54, rank_of
from engine.games.manteur.declarations import DEFAULT_RULES, TYPES, DeclarationError, DeclarationRules
from engine.games.manteur.truth import Proof, check, is_true, lookup_check, parse_hand
from tests.sizing import examples

from .helpers import D, all_declarations, brute_force, deck_cards, forms, size

PIQUET = DeclarationRules(deck="piquet32")


def truthful(hand, d, rules=DEFAULT_RULES):
    proof = check(hand, d, rules)
    if proof is not None:
        assert_valid_proof(hand, d, proof, rules)
    return proof is not None


def assert_valid_proof(hand, d, proof: Proof, rules):
    assert not Counter(proof.cards) - Counter(hand), "proof cards come from the hand"
    assert len(proof.cards) == size(d), "B12: just enough cards"
    assert {j for j, _ in proof.jokers} == {c for c in proof.cards if c in JOKERS}
    assert all(card in deck_cards(rules) for _, card in proof.jokers)
    assert forms(proof.shown(), d, rules), (proof, d)


# ---------------------------------------------------------------- B11 examples


def test_b11_pair_of_2s_claimed_with_kings_and_no_2_is_a_lie():
    assert not truthful(["SK", "HK", "D7", "C9", "S4"], D("pair", ["2"]))


def test_b11_pair_of_2s_with_two_kings_as_well_is_true():
    proof = check(["SK", "HK", "D2", "C2", "S4"], D("pair", ["2"]))
    assert proof == Proof(("D2", "C2"))


def test_b11_three_of_a_kind_claimed_as_a_pair_is_true():
    assert truthful(["S2", "H2", "D2", "C9", "S4"], D("pair", ["2"]))
    assert truthful(["S2", "H2", "D2", "C9", "S4"], D("pair"))


def test_b11_a_named_rank_must_be_there_even_if_higher_ones_are():
    assert not truthful(["SA", "HA", "DK", "CK", "S4"], D("two_pair", ["Q", "J"]))
    assert not truthful(["SA", "HK", "DQ", "CJ", "S9"], D("high_card", ["10"]))


def test_b11_a_straight_named_by_a_card_that_is_not_its_top_is_a_lie():
    hand = ["S5", "H6", "D7", "C8", "S9"]
    assert not truthful(hand, D("straight", ["8"]))
    assert truthful(hand, D("straight", ["9"]))
    assert truthful(hand, D("straight"))


def test_b11_a_stronger_hand_of_another_description_does_not_count():
    assert not truthful(["S5", "S6", "S7", "S8", "S9"], D("four_of_a_kind"))
    assert not truthful(["SK", "HK", "DK", "CK", "S9"], D("two_pair"))  # 2 pairs: 2 ranks
    assert not truthful(["SK", "HK", "DK", "CK", "BJ"], D("full_house"))
    assert not truthful(["SK", "HK", "DK", "C9", "S2"], D("straight"))


def test_b11_a_bigger_combination_proves_the_smaller_it_contains():
    full = ["SK", "HK", "DK", "C9", "S9"]
    for d in (D("pair", ["K"]), D("pair", ["9"]), D("two_pair", ["K", "9"]),
              D("three_of_a_kind", ["K"], ["9"]), D("full_house", ["K", "9"]),
              D("pair", ["9"], ["K"])):
        assert truthful(full, d), d
    royal = ["SA", "SK", "SQ", "SJ", "S10"]
    for d in (D("straight", ["A"]), D("flush", ["A", "K", "Q", "J", "10"]),
              D("straight_flush", ["A"]), D("high_card", ["A"], ["K", "Q", "J", "10"])):
        assert truthful(royal, d), d


def test_b11_kickers_and_flush_ranks_must_be_present():
    hand = ["S2", "H2", "D5", "C9", "SK"]
    assert truthful(hand, D("pair", ["2"], ["5"]))
    assert truthful(hand, D("pair", ["2"], ["K", "5"]))
    assert not truthful(hand, D("pair", ["2"], ["6"]))
    hearts = ["HA", "HK", "H9", "H5", "H3"]
    assert truthful(hearts, D("flush", ["K"]))  # presence, not "K high"
    assert truthful(hearts, D("flush", ["A", "9", "3"]))
    assert not truthful(hearts, D("flush", ["A", "Q"]))


def test_b11_straight_flush_needs_one_suit():
    assert not truthful(["S5", "H6", "S7", "S8", "S9"], D("straight_flush"))
    assert truthful(["S5", "BJ", "S7", "S8", "S9"], D("straight_flush", ["9"]))


# One hand per type, each needing its jokers (B1: jokers complete any type).
JOKER_CASES = [
    (["BJ", "H4", "D7", "C9", "S2"], D("high_card", ["A"], ["9", "7"])),
    (["BJ", "H4", "D7", "C9", "S2"], D("pair", ["9"], ["7", "4"])),
    (["BJ", "H4", "D4", "C9", "S2"], D("two_pair", ["9", "4"], ["2"])),
    (["BJ", "RJ", "D7", "C9", "S2"], D("three_of_a_kind", ["2"], ["9", "7"])),
    (["BJ", "H6", "D7", "C9", "S5"], D("straight", ["9"])),
    (["BJ", "RJ", "H7", "C9", "H8"], D("straight", ["10"])),
    (["BJ", "H6", "H7", "H9", "H2"], D("flush", ["A", "9"])),
    (["BJ", "RJ", "H7", "H9", "H2"], D("flush")),
    (["BJ", "H9", "D9", "C4", "S4"], D("full_house", ["9", "4"])),
    (["BJ", "RJ", "D9", "C4", "S4"], D("full_house", ["4", "9"])),
    (["BJ", "H9", "D9", "C9", "S4"], D("four_of_a_kind", ["9"], ["4"])),
    (["BJ", "RJ", "D9", "C9", "S4"], D("four_of_a_kind", ["9"], ["4"])),
    (["BJ", "H6", "H7", "H8", "H9"], D("straight_flush", ["10"])),
    (["BJ", "RJ", "H2", "H3", "H4"], D("straight_flush", ["5"])),
    (["BJ", "HA", "DA", "CA", "SA"], D("five_of_a_kind", ["A"])),
    (["BJ", "RJ", "DQ", "CQ", "SQ"], D("five_of_a_kind")),
]


@pytest.mark.parametrize("hand, d", JOKER_CASES, ids=lambda x: getattr(x, "type", None))
def test_b1_b11_jokers_complete_every_type(hand, d):
    proof = check(hand, d)
    assert proof is not None and proof.jokers
    assert_valid_proof(hand, d, proof, DEFAULT_RULES)
    naturals = [c for c in hand if c not in JOKERS]
    assert brute_force(hand, d, DEFAULT_RULES)
    assert not check(naturals, d), "without the jokers it is a lie"


def test_b1_b12_proof_says_what_each_joker_stands_for():
    proof = check(["BJ", "RJ", "D9", "C9", "S4"], D("four_of_a_kind", ["9"], ["4"]))
    assert proof.cards == ("D9", "C9", "BJ", "RJ", "S4")
    assert proof.stands_for() == {"BJ": "S9", "RJ": "H9"}
    assert proof.shown() == ("D9", "C9", "S9", "H9", "S4")
    assert proof.to_json() == {"cards": ["D9", "C9", "BJ", "RJ", "S4"],
                               "jokers": {"BJ": "S9", "RJ": "H9"}}


def test_b12_the_proof_prefers_natural_cards_and_shows_just_enough():
    proof = check(["SA", "HA", "BJ", "C4", "D7"], D("pair"))
    assert proof == Proof(("SA", "HA"))
    proof = check(["SQ", "HQ", "BJ", "CK", "D7"], D("three_of_a_kind"))
    assert proof.cards == ("SQ", "HQ", "BJ")


def test_b1_five_of_a_kind_repeats_a_card_of_the_hand():
    proof = check(["BJ", "HA", "DA", "CA", "SA"], D("five_of_a_kind", ["A"]))
    assert proof.stands_for()["BJ"] in {"SA", "HA", "DA", "CA"}


def test_option_b_f_ace_low_straight_in_the_truth_test():
    wheel = ["SA", "H2", "D3", "C4", "S5"]
    assert truthful(wheel, D("straight", ["5"]))
    assert truthful(wheel, D("straight"))
    off = DeclarationRules(ace_low_straight=False)
    assert not truthful(wheel, D("straight", rules=off), off)
    assert not truthful(["SQ", "SK", "SA", "S2", "S3"], D("straight"))  # no wrap-around


def test_option_b_a_piquet_jokers_stand_for_piquet_cards_only():
    assert truthful(["SA", "H7", "D8", "C9", "BJ"], D("straight", ["10"], rules=PIQUET), PIQUET)
    assert not truthful(["SA", "H7", "D8", "C9", "BJ"], D("straight", ["J"], rules=PIQUET),
                        PIQUET)
    assert truthful(["SJ", "H7", "D8", "C9", "BJ"], D("straight", ["J"], rules=PIQUET), PIQUET)
    assert not truthful(["S2", "H3", "D4", "C5", "BJ"], D("straight", rules=PIQUET), PIQUET)
    proof = check(["H7", "H8", "HK", "BJ", "RJ"], D("flush", rules=PIQUET), PIQUET)
    assert set(proof.stands_for().values()) == {"HA", "HQ"}
    assert_valid_proof(["H7", "H8", "HK", "BJ", "RJ"], D("flush"), proof, PIQUET)


def test_option_b_i_natural_and_joker_hands_are_equally_true():
    d = D("three_of_a_kind", ["7"])
    assert check(["S7", "H7", "D7", "C2", "S3"], d) is not None
    assert check(["S7", "H7", "BJ", "C2", "S3"], d) is not None


def test_check_lookup_answers_truthful_and_proof_and_names_a_malformed_field():
    out = lookup_check({"hand": ["S2", "BJ", "D9", "C4", "SK"],
                        "declaration": {"type": "pair", "ranks": ["2"], "kickers": ["k"]}})
    assert out == {"truthful": True,
                   "proof": {"cards": ["S2", "BJ", "SK"], "jokers": {"BJ": "H2"}}}
    assert lookup_check({"hand": ["SK", "HK", "D9", "C4", "S3"],
                         "declaration": {"type": "pair", "ranks": ["2"]}}) == \
        {"truthful": False, "proof": None}
    with pytest.raises(DeclarationError) as info:
        lookup_check({"hand": ["SK"], "declaration": {"type": "pair", "ranks": ["2", "3"]}})
    assert (info.value.code, info.value.path) == ("too_many_ranks", "body.declaration.ranks[1]")
    with pytest.raises(DeclarationError) as info:
        lookup_check({"hand": ["SK"], "declaration": {"type": "straight"},
                      "options": {"allow_straights": False}})
    assert (info.value.code, info.value.path) == ("straights_not_allowed",
                                                  "body.declaration.type")


@pytest.mark.parametrize("hand, rules, code, path", [
    (["SA", "SK", "SQ", "SJ", "S10", "S9"], DEFAULT_RULES, "hand_too_large", "body.hand"),
    (["SA", "HK", "SA"], DEFAULT_RULES, "hand_card_repeated", "body.hand[2]"),
    (["SA", "H6"], PIQUET, "hand_card_not_in_deck", "body.hand[1]"),
    (["SA", "BJ", "RJ"], DeclarationRules(jokers=1), "hand_card_not_in_deck", "body.hand[2]"),
    (["BJ"], DeclarationRules(jokers=0), "hand_card_not_in_deck", "body.hand[0]"),
])
def test_b1_b3_b_a_check_lookup_refuses_an_impossible_hand(hand, rules, code, path):
    options = {"deck": rules.deck, "jokers": rules.jokers}
    with pytest.raises(DeclarationError) as info:
        lookup_check({"hand": hand, "declaration": {"type": "pair"}, "options": options})
    assert (info.value.code, info.value.path) == (code, path)
    assert parse_hand(["SA", "BJ", "RJ", "H7"], "hand", PIQUET) == ["SA", "BJ", "RJ", "H7"]


def test_check_is_fast_enough_to_call_per_action():
    from engine.games.manteur.truth import _check

    rnd = random.Random(7)
    decls = all_declarations()
    cases = []
    for _ in range(2000):
        hand = tuple(sorted(rnd.sample(deck_54(), 5)))
        cases.append((hand, rnd.choice(decls)))
    start = time.perf_counter()
    for hand, d in cases:
        _check.__wrapped__(hand, d, DEFAULT_RULES)  # uncached
    per_call = (time.perf_counter() - start) / len(cases)
    assert per_call < 0.002, f"{per_call * 1e6:.0f} µs per uncached check"


# ---------------------------------------------------------------- properties: vs brute force

RULE_SETS = [DEFAULT_RULES, PIQUET, DeclarationRules(ace_low_straight=False)]
POOLS = {rules: all_declarations(rules) for rules in RULE_SETS}


@st.composite
def hand_and_declaration(draw):
    rules = draw(st.sampled_from(RULE_SETS))
    jokers = draw(st.sampled_from([0, 0, 1, 1, 2]))
    naturals = draw(st.lists(st.sampled_from(deck_cards(rules)), min_size=5 - jokers,
                             max_size=5 - jokers, unique=True))
    hand = naturals + list(JOKERS[:jokers])
    pool = POOLS[rules]
    if draw(st.booleans()):
        d = draw(st.sampled_from(pool))
    else:  # a declaration built from the hand's own ranks, so that truths are common
        held = sorted({rank_of(c) for c in naturals}, key=rules.ranks.index, reverse=True)
        kind = draw(st.sampled_from(TYPES))
        near = [d for d in pool if d.type == kind and set(d.ranks + d.kickers) <= set(held)]
        d = draw(st.sampled_from(near or pool))
    return hand, d, rules


@settings(max_examples=examples(300))
@given(hand_and_declaration())
def test_b11_check_agrees_with_brute_force_over_joker_assignments(case):
    hand, d, rules = case
    expected = brute_force(hand, d, rules)
    proof = check(hand, d, rules)
    assert (proof is not None) == expected, (hand, d, proof)
    if proof is not None:
        assert_valid_proof(hand, d, proof, rules)


@given(hand_and_declaration())
def test_b11_check_ignores_the_order_of_the_hand(case):
    hand, d, rules = case
    assert check(hand, d, rules) == check(list(reversed(hand)), d, rules)
    assert is_true(hand, d, rules) == (check(hand, d, rules) is not None)
