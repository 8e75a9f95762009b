"""Combinations, wilds and their order (docs/rules/guandan.md §3–§6), one test per rule point."""
from __future__ import annotations

import pytest

from engine.cards import CardError
from engine.games.guandan.combos import (
    ComboError,
    ComboRules,
    Reading,
    beats,
    choose_reading,
    classify,
    level_value,
    reading_from_json,
    reading_to_json,
    readings,
)


def kinds(cards, level="2", rules=ComboRules()):
    return {(r.type, r.rank) for r in readings(cards, level, rules)}


def R(t, rank, length=None):
    return reading_from_json({"type": t, "rank": rank, "length": length})


# --- §3 card order --------------------------------------------------------------------------

def test_l_3_level_rank_between_ace_and_jokers():
    assert level_value("A", "7") < level_value("7", "7") < level_value("BJ", "7") < \
        level_value("RJ", "7")
    assert level_value("6", "7") < level_value("8", "7")
    assert beats(R("single", "7"), R("single", "A"), "7")
    assert not beats(R("single", "7"), R("single", "A"), "8")


def test_l_3_all_eight_level_cards_are_equal():
    assert readings(["S7"], "7") == readings(["H7"], "7")
    assert not beats(R("pair", "7"), R("pair", "7"), "7")


def test_l_4_level_card_keeps_its_natural_place_in_sequences():
    assert kinds(["S5", "D6", "C7", "S8", "D9"], "7") == {("straight", "9")}
    assert kinds(["S5", "D6", "C8", "S9", "D10"], "7") == set()
    # a straight through the level rank is no stronger than its natural top
    assert beats(R("straight", "10"), R("straight", "9"), "9")


def test_l_5_jokers_never_in_a_sequence():
    assert kinds(["BJ", "S2", "D3", "C4", "S5"], "9") == set()
    assert kinds(["BJ", "BJ", "S2", "D2", "C3", "S3"], "9") == set()


def test_l_6_ace_low_and_high_no_wrap():
    assert kinds(["SA", "D2", "C3", "S4", "D5"], "9") == {("straight", "5")}
    assert kinds(["S10", "DJ", "CQ", "SK", "DA"], "9") == {("straight", "A")}
    assert kinds(["SQ", "DK", "CA", "S2", "D3"], "9") == set()
    assert kinds(["SK", "DK", "CA", "SA", "D2", "C2"], "9") == set()
    assert kinds(["SA", "DA", "C2", "S2", "D3", "C3"], "9") == {("tube", "3")}
    assert kinds(["SK", "DK", "CK", "SA", "DA", "CA"], "9") == {("plate", "A")}
    assert kinds(["SA", "DA", "CA", "S2", "D2", "C2"], "9") == {("plate", "2")}
    assert beats(R("straight", "6"), R("straight", "5"), "9")
    assert beats(R("straight", "A"), R("straight", "K"), "9")


# --- §4 ordinary combinations ---------------------------------------------------------------

def test_4_illegal_shapes_have_no_reading():
    assert kinds(["S3", "D3", "C3", "S4"]) == set()  # triple + single
    assert kinds(["S3", "D3", "C4", "S4"]) == set()  # two pairs
    assert kinds(["S3", "D4", "C5", "S6"]) == set()  # four-card run
    assert kinds(["S3", "D4", "C5", "S6", "D7", "C8"]) == set()  # six-card run
    assert kinds(["S3", "D3", "C4", "S4", "S5", "D5", "C6", "D6"]) == set()  # four pairs
    with pytest.raises(ComboError) as err:
        choose_reading(["S3", "D4"], "2")
    assert err.value.code == "not_a_combination"


def test_c_1_any_single():
    assert kinds(["SK"]) == {("single", "K")}
    assert kinds(["BJ"]) == {("single", "BJ")}
    assert kinds(["RJ"]) == {("single", "RJ")}


def test_c_2_pair_joker_pairs_and_no_mixed_joker_pair():
    assert kinds(["S9", "S9"]) == {("pair", "9")}
    assert kinds(["BJ", "BJ"]) == {("pair", "BJ")}
    assert kinds(["RJ", "RJ"]) == {("pair", "RJ")}
    assert kinds(["BJ", "RJ"]) == set()
    assert beats(R("pair", "RJ"), R("pair", "BJ"), "2")


def test_c_3_triple_no_joker_triple_level_triple_highest():
    assert kinds(["S9", "D9", "C9"]) == {("triple", "9")}
    assert kinds(["BJ", "BJ", "RJ"]) == set()
    assert beats(R("triple", "5"), R("triple", "A"), "5")


def test_c_4_full_house_compared_by_triple_joker_pair_allowed():
    assert kinds(["S4", "D4", "C4", "S5", "D5"], "9") == {("full_house", "4")}
    assert beats(R("full_house", "4"), R("full_house", "3"), "9")  # 444+55 > 333+66
    assert kinds(["S4", "D4", "C4", "RJ", "RJ"], "9") == {("full_house", "4")}
    assert kinds(["S4", "D4", "C4", "BJ", "RJ"], "9") == set()


def test_c_5_straight_is_exactly_five_cards_not_one_suit():
    assert kinds(["S3", "D4", "C5", "S6", "D7"], "9") == {("straight", "7")}
    assert kinds(["S3", "S4", "S5", "S6", "S7"], "9") == {("straight_flush", "7")}


def test_c_6_tube_three_consecutive_pairs():
    assert kinds(["S5", "D5", "S6", "D6", "S7", "D7"], "9") == {("tube", "7")}
    assert kinds(["S5", "D5", "S6", "D6"], "9") == set()
    assert kinds(["SQ", "DQ", "SK", "DK", "SA", "DA"], "9") == {("tube", "A")}


def test_c_7_plate_two_consecutive_triples():
    assert kinds(["S5", "D5", "C5", "S6", "D6", "C6"], "9") == {("plate", "6")}
    assert kinds(["S5", "D5", "C5", "S7", "D7", "C7"], "9") == set()


def test_c_8_same_type_and_length_only():
    assert not beats(R("pair", "A"), R("single", "3"), "9")
    assert not beats(R("tube", "A"), R("plate", "3"), "9")
    assert not beats(R("straight", "A"), R("full_house", "3"), "9")
    with pytest.raises(ComboError) as err:
        choose_reading(["S3", "D3"], "9", table=R("pair", "5"))
    assert err.value.code == "does_not_beat" and err.value.rule == "C-8"


def test_c_9_ties_never_beat():
    assert not beats(R("straight", "A"), R("straight", "A"), "9")
    assert not beats(R("pair", "9"), R("pair", "9"), "2")
    assert not beats(R("bomb", "9", 4), R("bomb", "9", 4), "2")


def test_d13_tubes_by_level_order_when_chosen():
    rules = ComboRules(sequence_order="level")
    assert beats(R("tube", "7"), R("tube", "8"), "7", rules)
    assert not beats(R("tube", "7"), R("tube", "8"), "7")


# --- §5 bombs -------------------------------------------------------------------------------

def test_b_1_bomb_order_four_five_flush_six_to_ten_four_jokers():
    ladder = [R("bomb", "A", 4), R("bomb", "2", 5), R("straight_flush", "A"),
              R("straight_flush", "A"), R("bomb", "2", 6), R("bomb", "2", 7), R("bomb", "2", 8),
              R("bomb", "2", 9), R("bomb", "2", 10), R("four_jokers", None)]
    ladder.pop(3)
    for low, high in zip(ladder, ladder[1:]):
        assert beats(high, low, "9") and not beats(low, high, "9")
    assert beats(R("straight_flush", "5"), R("bomb", "9", 5), "9")
    assert not beats(R("straight_flush", "A"), R("bomb", "2", 6), "9")


def test_b_2_any_bomb_beats_any_non_bomb_not_the_reverse():
    assert beats(R("bomb", "2", 4), R("tube", "A"), "9")
    assert beats(R("straight_flush", "5"), R("single", "RJ"), "9")
    assert not beats(R("pair", "RJ"), R("bomb", "2", 4), "9")


def test_b_3_same_size_bombs_by_level_order():
    assert beats(R("bomb", "9", 4), R("bomb", "A", 4), "9")
    assert beats(R("bomb", "3", 5), R("bomb", "A", 4), "9")
    assert kinds(["S9", "D9", "C9", "H9", "S9", "D9"], "2") == {("bomb", "9")}


def test_b_4_straight_flush_by_natural_top_level_ignored():
    assert beats(R("straight_flush", "A"), R("straight_flush", "K"), "K")
    assert not beats(R("straight_flush", "5"), R("straight_flush", "6"), "5")
    assert kinds(["D10", "DJ", "DQ", "DK", "DA"], "9") == {("straight_flush", "A")}


def test_b_5_four_jokers_beats_everything_no_wild_helps():
    assert kinds(["BJ", "BJ", "RJ", "RJ"]) == {("four_jokers", None)}
    assert kinds(["BJ", "BJ", "RJ", "H2"], "2") == set()
    assert beats(R("four_jokers", None), R("bomb", "2", 10), "9")
    assert not beats(R("bomb", "2", 10), R("four_jokers", None), "9")


def test_b_6_nine_and_ten_card_bombs_need_wilds():
    eight = ["S9", "S9", "H9", "H9", "D9", "D9", "C9", "C9"]
    assert kinds(eight, "2") == {("bomb", "9")}
    assert kinds(eight + ["H2"], "2") == {("bomb", "9")}
    assert kinds(eight + ["H2", "H2"], "2") == {("bomb", "9")}
    assert readings(eight + ["H2", "H2"], "2")[0].length == 10
    # the level rank tops out at 8: its two wilds are among the eight
    assert kinds(eight, "9") == {("bomb", "9")}


def test_d9_max_bomb_eight():
    eight = ["S9", "S9", "H9", "H9", "D9", "D9", "C9", "C9"]
    assert kinds(eight + ["H2"], "2", ComboRules(max_bomb=8)) == set()
    assert kinds(eight, "2", ComboRules(max_bomb=8)) == {("bomb", "9")}


# --- §6 the wild ----------------------------------------------------------------------------

def test_w_1_only_the_two_heart_level_cards_are_wild():
    assert kinds(["S7", "D7", "H5"], "5") == {("triple", "7")}
    assert kinds(["S7", "D7", "S5"], "5") == set()


def test_w_2_wild_never_a_joker():
    assert kinds(["BJ", "H5"], "5") == set()
    assert kinds(["RJ", "H5"], "5") == set()
    assert kinds(["S8", "D8", "C8", "RJ", "H5"], "5") == set()


def test_w_3_wild_takes_the_strength_it_stands_for():
    assert kinds(["SA", "H5"], "5") == {("pair", "A")}
    assert kinds(["S3", "H5", "H5"], "5") == {("triple", "3")}


def test_w_4_wild_alone_is_a_level_card():
    assert kinds(["H5"], "5") == {("single", "5")}


def test_w_5_two_wilds_alone_are_a_level_pair():
    assert kinds(["H5", "H5"], "5") == {("pair", "5")}
    assert not beats(R("pair", "5"), R("pair", "5"), "5")


def test_w_6_wild_in_every_combination():
    assert kinds(["S8", "D8", "H5", "S9", "D9"], "5") == {("full_house", "8"), ("full_house", "9")}
    assert readings(["S3", "D4", "H9", "S6", "D7"], "9")[0].wilds == ("H5",)  # wild as 5
    assert kinds(["S8", "D8", "H5", "S9", "D9", "C10"], "5") == {("tube", "10")}
    assert kinds(["S8", "D8", "H5", "S9", "D9", "C9"], "5") == {("plate", "9")}
    assert kinds(["S8", "D8", "C8", "H5"], "5") == {("bomb", "8")}
    assert kinds(["S3", "S4", "H9", "S6", "S7"], "9") == {("straight", "7"),
                                                          ("straight_flush", "7")}


def test_w_7_two_wilds_for_different_cards():
    assert kinds(["S8", "H5", "S9", "H5", "D10", "C10"], "5") == {("tube", "10")}
    r = readings(["S8", "H5", "S9", "H5", "D10", "C10"], "5")[0]
    assert r.wilds == ("H8", "H9")


def test_w_8_wild_as_itself_in_a_sequence():
    # level 7: the wild at its natural place in 5-6-7-8-9 (standing for itself)
    found = readings(["S5", "D6", "H7", "C8", "D9"], "7")
    assert {(r.type, r.rank) for r in found} == {("straight", "9")}
    assert found[0].wilds == ("H7",)


def test_w_10_run_completed_by_wild_is_flush_or_straight():
    found = readings(["S4", "S5", "H7", "S7", "S8"], "7")
    assert {(r.type, r.rank, r.wilds) for r in found} == {
        ("straight", "8", ("H6",)), ("straight_flush", "8", ("S6",))}
    # natural hearts: the witness for the plain straight declares a spade
    found = readings(["H4", "H5", "H6", "S7", "H8"], "7")
    assert {(r.type, r.wilds) for r in found} == {("straight", ())}
    found = readings(["H4", "H5", "H6", "H7", "H8"], "7")
    assert {(r.type, r.wilds) for r in found} == {("straight", ("S7",)),
                                                  ("straight_flush", ("H7",))}


def test_d10_five_natural_same_suit_may_be_straight_when_chosen():
    cards = ["S3", "S4", "S5", "S6", "S7"]
    assert kinds(cards, "9", ComboRules(flush_as_straight=True)) == {("straight", "7"),
                                                                     ("straight_flush", "7")}


def test_d11_wild_must_stand_for_itself_when_it_can():
    rules = ComboRules(wild_self_first=True)
    assert kinds(["S8", "D8", "C8", "H8", "H8"], "8", rules) == {("bomb", "8")}
    assert kinds(["S5", "D6", "H7", "C8", "D9"], "7", rules) == {("straight", "9")}
    # when it cannot, it substitutes freely
    assert kinds(["S3", "H7"], "7", rules) == {("pair", "3")}


def test_w_11_pagat_example_three_readings():
    cards = ["H4", "H4", "S8", "D8", "S9", "D9"]
    assert kinds(cards, "4") == {("tube", "9"), ("tube", "10"), ("plate", "9")}
    with pytest.raises(ComboError) as err:
        choose_reading(cards, "4")
    assert err.value.code == "ambiguous_reading" and err.value.rule == "W-11"
    assert len(err.value.readings) == 3
    assert choose_reading(cards, "4", declared={"type": "plate", "rank": "9"}) == R("plate", "9")
    # following: only the readings that beat the table count
    assert choose_reading(cards, "4", table=R("tube", "9")) == R("tube", "10")
    with pytest.raises(ComboError) as err:
        choose_reading(cards, "4", declared={"type": "straight", "rank": "9"})
    assert err.value.code == "reading_not_available"


def test_w_11_and_d12_five_of_a_rank_is_a_bomb_not_a_full_house():
    assert kinds(["S8", "D8", "C8", "H7", "H7"], "7") == {("full_house", "8"), ("bomb", "8")}
    assert kinds(["S8", "D8", "C8", "S8", "H7"], "7") == {("bomb", "8")}
    assert kinds(["S8", "D8", "C8", "S8", "D8"], "7") == {("bomb", "8")}
    assert kinds(["S8", "D8", "C8", "S8", "D8"], "7", ComboRules(fullhouse_same_rank=True)) == \
        {("bomb", "8"), ("full_house", "8")}
    # the level rank: the wilds may still be a pair of another rank (W-2, W-6)
    found = readings(["S8", "D8", "C8", "H8", "H8"], "8")
    assert {(r.type, r.rank, r.wilds) for r in found} == {
        ("bomb", "8", ("H8", "H8")), ("full_house", "8", ("H2", "H2"))}


# --- JSON and the lookup --------------------------------------------------------------------

def test_reading_json_round_trip_and_errors():
    r = readings(["S3", "D4", "H9", "S6", "D7"], "9")[0]
    assert reading_to_json(r) == {"type": "straight", "rank": "7", "length": 5, "wilds": ["H5"]}
    assert reading_from_json(reading_to_json(r)) == r
    assert reading_from_json({"type": "four_jokers", "rank": None}) == Reading("four_jokers", None, 4)
    assert reading_from_json({"type": "pair", "rank": "t"}).rank == "10"
    bad = [None, [], {"type": "quad", "rank": "9"}, {"type": "bomb", "rank": "9"},
           {"type": "bomb", "rank": "9", "length": 11}, {"type": "pair", "rank": "9", "length": 3},
           {"type": "straight", "rank": "4"}, {"type": "tube", "rank": "2"},
           {"type": "triple", "rank": "BJ"}, {"type": "pair", "rank": "1"},
           {"type": "pair", "rank": 9}, {"type": "four_jokers", "rank": "A"},
           {"type": "pair", "rank": "9", "colour": "red"},
           {"type": "pair", "rank": "9", "wilds": ["BJ"]}]
    for data in bad:
        with pytest.raises(ValueError):
            reading_from_json(data)


def test_classify_lookup_shape():
    answer = classify(["H4", "H4", "S8", "D8", "S9", "D9"], "4",
                      table={"type": "tube", "rank": "9"})
    assert answer["beats"] is True
    by = {(x["type"], x["rank"]): x for x in answer["readings"]}
    assert by[("tube", "10")]["beats"] and not by[("tube", "9")]["beats"]
    assert not by[("plate", "9")]["beats"]
    assert by[("tube", "9")]["wilds"] == ["H7", "H7"]
    assert classify(["BJ", "RJ"], "4") == {"readings": []}
    with pytest.raises(CardError):
        classify(["X9"], "4")
    with pytest.raises(ValueError):
        classify(["S9"], "1")
