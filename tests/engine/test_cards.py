import pytest

from engine import cards


def test_input_accepts_t_for_ten_and_lower_case_output_is_canonical():
    assert cards.parse_cards(["ST", "h10", "dt", "ca", "bj", "RJ", " sk "]) == \
        ["S10", "H10", "D10", "CA", "BJ", "RJ", "SK"]


@pytest.mark.parametrize("bad", ["X5", "S1", "S11", "", "10", None, 7, "SAA", "TJ"])
def test_bad_token_is_named(bad):
    with pytest.raises(cards.CardError) as err:
        cards.parse_card(bad)
    assert repr(bad) in str(err.value)


def test_bad_token_in_a_list_names_its_position():
    with pytest.raises(cards.CardError) as err:
        cards.parse_cards(["SA", "H2", "ZZ"])
    assert err.value.index == 2 and "position 2" in str(err.value)


def test_decks_have_the_right_cards():
    assert len(cards.deck_52()) == len(set(cards.deck_52())) == 52
    d32 = cards.deck_32()
    assert len(d32) == len(set(d32)) == 32
    assert {cards.rank_of(c) for c in d32} == {"7", "8", "9", "10", "J", "Q", "K", "A"}
    assert len(cards.deck_54()) == 54 and {"BJ", "RJ"} <= set(cards.deck_54())
    two = cards.double_deck_108()
    assert len(two) == 108 and two.count("BJ") == 2 and two.count("SA") == 2


def test_multiset_helpers_count_duplicates():
    hand = ["SA", "SA", "H2"]
    assert cards.multiset_contains(hand, ["SA", "SA"])
    assert not cards.multiset_contains(hand, ["SA", "SA", "SA"])
    assert cards.remove_cards(hand, ["SA"]) == ["SA", "H2"]


def test_suit_and_rank():
    assert cards.suit_of("S10") == "S" and cards.rank_of("S10") == "10"
    assert cards.suit_of("RJ") is None and cards.rank_of("RJ") == "RJ"


def test_field_kinds_parse_and_refuse():
    from engine.fields import Field, FieldError

    assert Field("int_list").parse([1, 2], "x") == [1, 2]
    assert Field("str_list_map").parse({"8": ["A as 10 − 2"]}, "x") == {"8": ["A as 10 − 2"]}
    assert Field("cards").parse(["st", "HA"], "x") == ["S10", "HA"]
    for field, bad in [(Field("int_list"), [1, True]), (Field("str_list_map"), {"a": [1]}),
                       (Field("int"), "1"), (Field("bool"), 1), (Field("cards"), ["S1"]),
                       (Field("enum", choices=("a",)), "b"), (Field("int", minimum=1), 0)]:
        with pytest.raises(FieldError):
            field.parse(bad, "x")
