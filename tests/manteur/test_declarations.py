"""Manteur declarations: the model, its parse and refusals, the total order (B4–B10, options)."""
import functools
import re
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from engine.errors import InputError
from engine.games.manteur.declarations import (
    DEFAULT_RULES,
    ERRORS,
    REFUSALS,
    TYPES,
    Declaration,
    DeclarationError,
    DeclarationRules,
    compare,
    describe,
    is_higher,
    parse_declaration,
    sort_key,
    to_json,
)
from engine.games.manteur.truth import lookup_compare

from .helpers import D, all_declarations

ROOT = Path(__file__).resolve().parents[2]
PIQUET = DeclarationRules(deck="piquet32")


def higher(a, b, rules=DEFAULT_RULES):
    return compare(a, b, rules) == 1 and compare(b, a, rules) == -1


def error(data, rules=DEFAULT_RULES) -> DeclarationError:
    with pytest.raises(DeclarationError) as info:
        parse_declaration(data, "declaration", rules)
    return info.value


# ---------------------------------------------------------------- the model and its JSON


def test_b10_declaration_json_round_trip_and_canonical_ranks():
    d = parse_declaration({"type": "pair", "ranks": ["t"], "kickers": ["a", " 5 "]})
    assert d == Declaration("pair", ("10",), ("A", "5"))
    assert to_json(d) == {"type": "pair", "ranks": ["10"], "kickers": ["A", "5"]}
    assert parse_declaration(to_json(d)) == d
    assert parse_declaration({"type": "two_pair"}) == Declaration("two_pair")
    assert parse_declaration({"type": "flush", "ranks": None, "kickers": []}) == \
        Declaration("flush")


def test_b10_describe_in_english_and_japanese():
    assert describe(D("pair", ["2"], ["5"])) == "pair of 2s with 5"
    assert describe(D("pair", ["2"], ["5"]), "ja") == "2のワンペアと5"
    assert describe(D("straight", ["K"])) == "straight to K"
    assert describe(D("full_house", ["K", "5"])) == "full house, Ks over 5s"
    assert describe(D("two_pair")) == "two pairs"


def test_declaration_error_is_a_422_input_error_with_rule_and_japanese():
    err = error({"type": "pair", "ranks": ["2"], "kickers": ["2"]})
    assert isinstance(err, InputError)
    assert (err.code, err.path, err.rule) == ("kicker_matches_rank", "declaration.kickers[0]",
                                              "manteur B10")
    assert "three" not in err.ja and "キッカー" in err.ja
    refusal = err.to_refusal()
    assert refusal.code == "kicker_matches_rank" and refusal.rule == "manteur B10"


@pytest.mark.parametrize("data, code, path", [
    ("pair", "declaration_not_object", "declaration"),
    ({"type": "pair", "suit": "S"}, "field_unknown", "declaration.suit"),
    ({}, "type_missing", "declaration.type"),
    ({"type": "royal_flush"}, "type_unknown", "declaration.type"),
    ({"type": 3}, "type_unknown", "declaration.type"),
    ({"type": "pair", "ranks": "2"}, "ranks_not_list", "declaration.ranks"),
    ({"type": "pair", "ranks": ["2", "3"]}, "too_many_ranks", "declaration.ranks[1]"),
    ({"type": "flush", "ranks": ["A", "K", "Q", "J", "9", "8"]}, "too_many_ranks",
     "declaration.ranks[5]"),
    ({"type": "pair", "ranks": ["1"]}, "rank_unknown", "declaration.ranks[0]"),
    ({"type": "pair", "ranks": [2]}, "rank_unknown", "declaration.ranks[0]"),
    ({"type": "two_pair", "ranks": ["K", "K"]}, "rank_repeated", "declaration.ranks[1]"),
    ({"type": "full_house", "ranks": ["5", "5"]}, "rank_repeated", "declaration.ranks[1]"),
    ({"type": "two_pair", "ranks": ["5", "K"]}, "ranks_not_descending", "declaration.ranks[1]"),
    ({"type": "flush", "ranks": ["K", "A"]}, "ranks_not_descending", "declaration.ranks[1]"),
    ({"type": "straight", "ranks": ["4"]}, "straight_top_invalid", "declaration.ranks[0]"),
    ({"type": "straight_flush", "ranks": ["2"]}, "straight_top_invalid", "declaration.ranks[0]"),
    ({"type": "pair", "ranks": ["2"], "kickers": "5"}, "kickers_not_list", "declaration.kickers"),
    ({"type": "straight", "ranks": ["9"], "kickers": ["A"]}, "kickers_not_allowed",
     "declaration.kickers"),
    ({"type": "full_house", "ranks": ["9", "2"], "kickers": ["A"]}, "kickers_not_allowed",
     "declaration.kickers"),
    ({"type": "flush", "ranks": ["9"], "kickers": ["A"]}, "kickers_not_allowed",
     "declaration.kickers"),
    ({"type": "five_of_a_kind", "ranks": ["9"], "kickers": ["A"]}, "kickers_not_allowed",
     "declaration.kickers"),
    ({"type": "pair", "kickers": ["5"]}, "kickers_need_ranks", "declaration.kickers"),
    ({"type": "two_pair", "ranks": ["K"], "kickers": ["5"]}, "kickers_need_ranks",
     "declaration.kickers"),
    ({"type": "pair", "ranks": ["2"], "kickers": ["A", "K", "Q", "J"]}, "too_many_kickers",
     "declaration.kickers[3]"),
    ({"type": "two_pair", "ranks": ["K", "Q"], "kickers": ["A", "J"]}, "too_many_kickers",
     "declaration.kickers[1]"),
    ({"type": "three_of_a_kind", "ranks": ["2"], "kickers": ["x"]}, "rank_unknown",
     "declaration.kickers[0]"),
    ({"type": "two_pair", "ranks": ["K", "Q"], "kickers": ["Q"]}, "kicker_matches_rank",
     "declaration.kickers[0]"),
    ({"type": "pair", "ranks": ["2"], "kickers": ["5", "5"]}, "rank_repeated",
     "declaration.kickers[1]"),
    ({"type": "pair", "ranks": ["2"], "kickers": ["4", "5"]}, "kickers_not_descending",
     "declaration.kickers[1]"),
    ({"type": "high_card", "ranks": ["9"], "kickers": ["K"]}, "kicker_not_below_high_card",
     "declaration.kickers[0]"),
])
def test_b10_malformed_declarations_name_the_field_and_why(data, code, path):
    err = error(data)
    assert (err.code, err.path) == (code, path), err.message
    assert ERRORS[code] == err.rule


def test_b10_partial_naming_is_a_prefix():
    assert D("two_pair", ["K"]).ranks == ("K",)
    assert D("full_house", ["K"]).ranks == ("K",)
    assert D("flush", ["A", "9", "2"]).ranks == ("A", "9", "2")


# ---------------------------------------------------------------- the order (B5–B9)


def test_b6_unnamed_pair_is_below_pair_of_2s():
    assert higher(D("pair", ["2"]), D("pair"))


def test_b7_pair_of_2s_is_below_pair_of_2s_with_a_5():
    assert higher(D("pair", ["2"], ["5"]), D("pair", ["2"]))


def test_b7_after_pair_of_jacks_a_pair_of_queens_or_jacks_with_a_card():
    jacks = D("pair", ["J"])
    assert higher(D("pair", ["Q"]), jacks)
    assert higher(D("pair", ["J"], ["2"]), jacks)
    assert higher(D("pair", ["Q"]), D("pair", ["J"], ["A", "K", "Q"]))


def test_b9_kickers_compare_from_the_highest_down_not_by_count():
    # The seed: naming more kickers is not necessarily stronger.
    assert higher(D("pair", ["2"], ["5"]), D("pair", ["2"], ["4", "3"]))
    assert higher(D("pair", ["2"], ["5", "3"]), D("pair", ["2"], ["5"]))
    assert higher(D("pair", ["A"], ["5", "4"]), D("pair", ["A"], ["5", "3", "2"]))


def test_b5_five_of_a_kind_is_above_a_straight_flush_even_royal():
    assert higher(D("five_of_a_kind"), D("straight_flush", ["A"]))
    assert higher(D("five_of_a_kind", ["2"]), D("straight_flush", ["A"]))


def test_b5_types_in_order_and_any_of_a_type_beats_all_of_the_one_below():
    for low, high in zip(TYPES, TYPES[1:]):
        assert higher(D(high), D(low)), (high, low)
    assert higher(D("two_pair"), D("pair", ["A"], ["K", "Q", "J"]))
    assert higher(D("straight", ["5"]), D("three_of_a_kind", ["A"], ["K", "Q"]))


def test_b9_two_pairs_higher_pair_then_lower_pair_then_kicker():
    assert higher(D("two_pair", ["K", "2"]), D("two_pair", ["Q", "J"]))
    assert higher(D("two_pair", ["K", "3"]), D("two_pair", ["K", "2"], ["A"]))
    assert higher(D("two_pair", ["K", "2"], ["3"]), D("two_pair", ["K", "2"]))
    assert higher(D("two_pair", ["K", "2"]), D("two_pair", ["K"]))
    assert higher(D("two_pair", ["K"]), D("two_pair", ["Q", "J"]))


def test_b9_full_house_triple_then_pair():
    assert higher(D("full_house", ["3", "2"]), D("full_house", ["2", "A"]))
    assert higher(D("full_house", ["3", "A"]), D("full_house", ["3", "K"]))
    assert higher(D("full_house", ["3", "2"]), D("full_house", ["3"]))


def test_b10_flush_ranks_compare_like_high_cards():
    assert higher(D("flush", ["A"]), D("flush", ["K", "Q", "J", "10", "8"]))
    assert higher(D("flush", ["K", "Q"]), D("flush", ["K"]))
    assert higher(D("flush", ["K", "Q", "2"]), D("flush", ["K", "J", "10", "9", "8"]))
    assert higher(D("flush", ["2"]), D("flush"))


def test_b10_straights_by_top_card_with_the_ace_low_one_lowest():
    assert higher(D("straight", ["6"]), D("straight", ["5"]))
    assert higher(D("straight", ["A"]), D("straight", ["K"]))
    assert higher(D("straight", ["5"]), D("straight"))
    assert higher(D("straight_flush", ["5"]), D("four_of_a_kind", ["A"], ["K"]))


def test_b10_high_card_with_kickers():
    assert higher(D("high_card", ["A"]), D("high_card", ["K"], ["Q", "J", "10", "9"]))
    assert higher(D("high_card", ["K"], ["2"]), D("high_card", ["K"]))
    assert higher(D("pair"), D("high_card", ["A"], ["K"]))


def test_b9_sort_key_agrees_with_compare_and_equal_only_when_same():
    a, b = D("pair", ["2"], ["5"]), D("pair", ["2"], ["5"])
    assert compare(a, b) == 0 and sort_key(a) == sort_key(b)
    assert sort_key(D("pair", ["3"])) > sort_key(D("pair", ["2"], ["A", "K", "Q"]))


# ---------------------------------------------------------------- B8: is_higher


def test_b8_anything_may_open_a_round():
    assert is_higher(D("high_card"), None) is None


def test_b8_strictly_higher_passes():
    assert is_higher(D("pair", ["Q"]), D("pair", ["J"])) is None


def test_b8_the_same_declaration_is_refused():
    r = is_higher(D("pair", ["J"]), D("pair", ["J"]))
    assert (r.code, r.rule) == ("declaration_same", "manteur B8")
    assert "pair of Js" in r.en and "Jのワンペア" in r.ja


def test_b8_b5_a_lower_type_is_refused():
    r = is_higher(D("flush", ["A"]), D("full_house"))
    assert (r.code, r.rule) == ("declaration_type_lower", "manteur B5")
    assert "a flush ranks below a full house" in r.en


def test_b8_b9_lower_named_ranks_are_refused():
    r = is_higher(D("pair", ["10"]), D("pair", ["J"]))
    assert (r.code, r.rule) == ("declaration_ranks_lower", "manteur B9")
    assert "10 is lower than J" in r.en


def test_b8_b6_an_unnamed_rank_after_a_named_one_is_refused():
    r = is_higher(D("pair"), D("pair", ["2"]))
    assert r.code == "declaration_ranks_lower" and "(B6)" in r.en


def test_b8_b7_lower_kickers_are_refused():
    r = is_higher(D("pair", ["2"], ["4", "3"]), D("pair", ["2"], ["5"]))
    assert (r.code, r.rule) == ("declaration_kickers_lower", "manteur B9")
    assert "(B7)" in r.en and r.details == {
        "new": {"en": "pair of 2s with 4, 3", "ja": "2のワンペアと4・3"},
        "last": {"en": "pair of 2s with 5", "ja": "2のワンペアと5"}}
    r = is_higher(D("pair", ["2"]), D("pair", ["2"], ["5"]))
    assert r.code == "declaration_kickers_lower" and "naming no kicker" in r.en


# ---------------------------------------------------------------- options


def test_option_b_a_piquet_deck_has_no_ranks_below_7():
    err = error({"type": "pair", "ranks": ["6"]}, PIQUET)
    assert (err.code, err.path, err.rule) == ("rank_not_in_deck", "declaration.ranks[0]",
                                              "manteur B-a")
    assert error({"type": "pair", "ranks": ["7"], "kickers": ["2"]}, PIQUET).code == \
        "rank_not_in_deck"


def test_option_b_a_piquet_puts_flush_above_full_house():
    assert higher(D("flush", rules=PIQUET), D("full_house", ["A", "K"], rules=PIQUET), PIQUET)
    assert higher(D("full_house"), D("flush", ["A", "K"]))
    both = DeclarationRules(flush_above_full_house=True)
    assert higher(D("flush"), D("full_house", ["A", "K"]), both)
    neither = DeclarationRules(deck="piquet32", flush_above_full_house=False)
    assert higher(D("full_house", rules=neither), D("flush", ["A"], rules=neither), neither)
    assert higher(D("four_of_a_kind"), D("flush", ["A"]), PIQUET)


def test_option_b_a_piquet_straights_and_the_ace_low_one():
    assert list(PIQUET.straights()) == ["10", "J", "Q", "K", "A"]
    assert PIQUET.straights()["10"] == ("10", "9", "8", "7", "A")
    assert error({"type": "straight", "ranks": ["9"]}, PIQUET).code == "straight_top_invalid"


def test_option_b_a_without_jokers_five_of_a_kind_cannot_be_declared():
    err = error({"type": "five_of_a_kind"}, DeclarationRules(jokers=0))
    assert (err.code, err.path, err.rule) == ("five_of_a_kind_needs_jokers", "declaration.type",
                                              "manteur B5")
    assert parse_declaration({"type": "five_of_a_kind"}, "d", DeclarationRules(jokers=1))


@pytest.mark.parametrize("rules, kind, code", [
    (DeclarationRules(allow_straights=False), "straight", "straights_not_allowed"),
    (DeclarationRules(allow_straights=False), "straight_flush", "straights_not_allowed"),
    (DeclarationRules(allow_flushes=False), "flush", "flushes_not_allowed"),
    (DeclarationRules(allow_flushes=False), "straight_flush", "flushes_not_allowed"),
])
def test_option_b_b_straights_and_flushes_may_not_count(rules, kind, code):
    err = error({"type": kind}, rules)
    assert (err.code, err.rule) == (code, "manteur B-b")
    assert parse_declaration({"type": "four_of_a_kind"}, "d", rules)


def test_option_b_c_min_declaration_one_pair_bars_high_card():
    rules = DeclarationRules(min_declaration="one_pair")
    err = error({"type": "high_card", "ranks": ["A"]}, rules)
    assert (err.code, err.path, err.rule) == ("type_below_minimum", "declaration.type",
                                              "manteur B-c")
    assert parse_declaration({"type": "pair"}, "d", rules) == Declaration("pair")
    assert parse_declaration({"type": "high_card"}) == Declaration("high_card")  # default


def test_option_b_f_ace_low_straight():
    assert D("straight", ["5"]) == Declaration("straight", ("5",))  # default: allowed, lowest
    off = DeclarationRules(ace_low_straight=False)
    err = error({"type": "straight", "ranks": ["5"]}, off)
    assert (err.code, err.rule) == ("ace_low_straight_not_allowed", "manteur B-f")
    assert error({"type": "straight_flush", "ranks": ["5"]}, off).code == \
        "ace_low_straight_not_allowed"
    assert list(off.straights())[0] == "6"
    err = error({"type": "straight", "ranks": ["10"]}, DeclarationRules(deck="piquet32",
                                                                        ace_low_straight=False))
    assert err.code == "ace_low_straight_not_allowed"


def test_options_from_the_game_options_and_their_errors():
    rules = DeclarationRules.from_options({"deck": "piquet32", "jokers": 2, "allow_flushes": True,
                                           "penalty_limit": 5, "direction": "ccw",
                                           "opener_may_exchange": True,
                                           "next_round_starter": "loser", "mode": "penalty"})
    assert rules == DeclarationRules(deck="piquet32") and rules.flush_over_full_house
    assert DeclarationRules.from_options(None) == DEFAULT_RULES
    assert DEFAULT_RULES == DeclarationRules(deck="standard52", jokers=2,
                                             flush_above_full_house=None, allow_straights=True,
                                             allow_flushes=True, min_declaration="high_card",
                                             ace_low_straight=True)
    with pytest.raises(DeclarationError) as info:
        DeclarationRules.from_options({"deck": "tarot78"}, "body.options")
    assert (info.value.code, info.value.path) == ("option_invalid", "body.options.deck")
    with pytest.raises(DeclarationError):
        DeclarationRules.from_options({"ace_low_straight": "yes"})
    with pytest.raises(ValueError):
        DeclarationRules(min_declaration="pair")


def test_option_b_i_has_no_flag_declarations_are_about_content_only():
    assert "natural" not in " ".join(DeclarationRules.__dataclass_fields__)


# ---------------------------------------------------------------- the compare lookup


def test_compare_lookup_answers_order_and_names_a_malformed_field():
    assert lookup_compare({"a": {"type": "pair", "ranks": ["2"], "kickers": ["5"]},
                           "b": {"type": "pair", "ranks": ["2"]}}) == {"order": 1}
    assert lookup_compare({"a": {"type": "pair"}, "b": {"type": "pair", "ranks": ["2"]}}) == \
        {"order": -1}
    assert lookup_compare({"a": {"type": "flush"}, "b": {"type": "flush"}}) == {"order": 0}
    assert lookup_compare({"a": {"type": "flush"}, "b": {"type": "full_house"},
                           "options": {"deck": "piquet32"}}) == {"order": 1}
    with pytest.raises(DeclarationError) as info:
        lookup_compare({"a": {"type": "pair"}, "b": {"type": "pair", "ranks": ["Z"]}})
    assert (info.value.code, info.value.path) == ("rank_unknown", "body.b.ranks[0]")


# ---------------------------------------------------------------- the rules page


def test_every_error_and_refusal_code_is_on_the_rules_page_with_its_rule():
    page = (ROOT / "docs/rules/manteur.md").read_text(encoding="utf-8")
    for code, rule in {**ERRORS, **REFUSALS}.items():
        assert re.match(r"^[a-z][a-z0-9_]*$", code)
        number = rule.partition(" ")[2]
        assert re.search(rf"(^|[^\w.]){re.escape(number)}([^\w]|$)", page, re.M), (code, rule)
        assert f"`{code}`" in page, code


# ---------------------------------------------------------------- properties (B9)

ALL = all_declarations()
ALL_PIQUET = all_declarations(PIQUET)


def test_b9_every_enumerated_declaration_parses_and_distinct_ones_are_ordered():
    for rules, decls in ((DEFAULT_RULES, ALL), (PIQUET, ALL_PIQUET)):
        assert len(set(decls)) == len(decls)
        for d in decls:
            assert parse_declaration(to_json(d), "d", rules) == d
        ordered = sorted(decls, key=functools.cmp_to_key(lambda a, b: compare(a, b, rules)))
        assert all(compare(x, y, rules) == -1 for x, y in zip(ordered, ordered[1:]))
        assert len({sort_key(d, rules) for d in decls}) == len(decls)


decl = st.sampled_from(ALL)
ALL_SET = frozenset(ALL)


@given(decl, decl)
def test_b9_order_is_antisymmetric_and_equal_only_for_the_same_declaration(a, b):
    assert compare(a, b) == -compare(b, a)
    assert (compare(a, b) == 0) == (a == b)
    assert compare(a, a) == 0


@given(decl, decl, decl)
def test_b9_order_is_transitive(a, b, c):
    x, y, z = sorted((a, b, c), key=sort_key)
    if compare(x, y) == 1 or compare(y, z) == 1:
        raise AssertionError("sort_key disagrees with compare")
    if compare(x, y) == -1 and compare(y, z) == -1:
        assert compare(x, z) == -1
    for p, q, r in ((a, b, c), (b, c, a), (c, a, b)):
        if compare(p, q) > 0 and compare(q, r) > 0:
            assert compare(p, r) > 0


@given(decl, decl)
def test_b8_is_higher_agrees_with_the_order(a, b):
    refusal = is_higher(a, b)
    assert (refusal is None) == (compare(a, b) == 1)
    if refusal is not None:
        assert refusal.code in REFUSALS and REFUSALS[refusal.code] == refusal.rule
        assert refusal.en and refusal.ja


@given(decl)
def test_b9_more_named_is_higher_within_a_type(d):
    if d.ranks and not d.kickers:
        fewer = Declaration(d.type, d.ranks[:-1])
        assert compare(d, fewer) == 1


junk = st.recursive(st.none() | st.booleans() | st.integers(-3, 20) | st.sampled_from(
    ["A", "k", "t", "10", "1", "Z", "pair", "flush", "two_pair", "straight", ""]),
    lambda inner: st.lists(inner, max_size=6), max_leaves=8)
raw = st.fixed_dictionaries({}, optional={"type": st.sampled_from(TYPES) | junk,
                                          "ranks": junk, "kickers": junk, "x": junk})


@given(raw)
def test_b10_any_input_either_parses_or_names_its_field(data):
    try:
        d = parse_declaration(data, "declaration")
    except DeclarationError as err:
        assert err.code in ERRORS and err.path.startswith("declaration")
        assert err.rule == ERRORS[err.code]
        return
    assert d in ALL_SET
