"""The enumerator (engine/games/guandan/moves.py) against the definition of a play: a distinct
(multiset of physical cards, type, rank, length), found by brute force over every sub-multiset
of a hand read by `combos.readings` (§4–§6, W-11, C-8, C-9, B-1…B-6)."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from engine.cards import RANKS, double_deck_108
from engine.games.guandan.combos import ComboRules, Reading, classify, readings
from engine.games.guandan.moves import legal_follows, legal_leads, legal_plays
from engine.rng import shuffled
from tests.sizing import examples

from .helpers import as_plays, brute_plays, every_reading

ALL_TABLES = every_reading()
RULE_SETS = [ComboRules(), ComboRules(max_bomb=8, flush_as_straight=True),
             ComboRules(fullhouse_same_rank=True, sequence_order="level"),
             ComboRules(wild_self_first=True)]


@st.composite
def small_hands(draw, max_cards: int = 8):
    """≤ 8 cards of the 108 with 0–2 wilds, mostly from a window of ranks (so that runs and
    sets occur), sometimes jokers."""
    level = draw(st.sampled_from(RANKS))
    wild = "H" + level
    wilds = draw(st.integers(0, 2))
    start = draw(st.integers(0, 12))
    width = draw(st.sampled_from([2, 3, 5, 13]))
    window = {RANKS[(start + i) % 13] for i in range(width)}
    pool = [c for c in double_deck_108() if c != wild and (c in ("BJ", "RJ") or c[1:] in window)]
    pool.sort()
    size = draw(st.integers(max(1, 1 - wilds), max_cards - wilds))
    size = min(size, len(pool))
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size,
                          unique=True))
    return level, [wild] * wilds + [pool[i] for i in picks]


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_hands(), st.sampled_from(range(len(RULE_SETS))))
def test_w_11_leads_equal_brute_force_over_sub_multisets(hand_level, rules_index):
    level, hand = hand_level
    rules = RULE_SETS[rules_index]
    assert as_plays(legal_leads(hand, level, rules)) == brute_plays(hand, level, rules)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_hands(), st.sampled_from(ALL_TABLES), st.sampled_from(range(len(RULE_SETS))))
def test_c_8_b_2_follows_equal_brute_force(hand_level, table, rules_index):
    level, hand = hand_level
    rules = RULE_SETS[rules_index]
    if table.type == "bomb" and table.length > rules.max_bomb:
        return
    got = as_plays(legal_follows(hand, level, table, rules))
    assert got == brute_plays(hand, level, rules, table)


@settings(max_examples=examples(60), deadline=None)
@given(small_hands(max_cards=6), st.sampled_from(ALL_TABLES))
def test_w_11_classify_agrees_with_the_enumerator(hand_level, table):
    level, hand = hand_level
    leads = as_plays(legal_leads(hand, level))
    answer = classify(hand, level, table=table)
    whole = {r for (cards, r) in leads if sorted(cards) == sorted(hand)}
    assert {(x["type"], x["rank"], x["length"]) for x in answer["readings"]} == \
        {(r.type, r.rank, r.length) for r in whole}
    follows = as_plays(legal_follows(hand, level, table))
    beating = {r for (cards, r) in follows if sorted(cards) == sorted(hand)}
    assert {(x["type"], x["rank"], x["length"]) for x in answer["readings"] if x["beats"]} == \
        {(r.type, r.rank, r.length) for r in beating}


def _big_hand(i: int):
    level = shuffled(list(RANKS), "guandan-tests", f"level/{i}")[0]
    wild = "H" + level
    rest = double_deck_108()
    rest.remove(wild)
    rest.remove(wild)
    return level, [wild, wild] + shuffled(rest, "guandan-tests", f"hand/{i}")[:25]


def test_w_11_full_hands_every_play_once_and_read_the_same():
    for i in range(6):
        level, hand = _big_hand(i)
        plays = legal_leads(hand, level)
        as_plays(plays)  # no play twice
        for cards, r in plays[::3]:
            found = readings(cards, level)
            assert r in found
            assert found[found.index(r)].wilds == r.wilds


def test_c_8_full_hand_follows_are_the_leads_that_beat():
    from engine.games.guandan.combos import beats
    for i in range(4):
        level, hand = _big_hand(100 + i)
        leads = legal_leads(hand, level)
        for table in ALL_TABLES[:: 7]:
            want = {(tuple(sorted(c)), r) for c, r in leads if beats(r, table, level)}
            got = as_plays(legal_follows(hand, level, table))
            assert set(got) == want


def test_p_1_legal_plays_dispatches_on_table():
    level, hand = _big_hand(7)
    table = Reading("pair", "9", 2)
    assert legal_plays(hand, level) == legal_leads(hand, level)
    assert legal_plays(hand, level, table=table) == legal_follows(hand, level, table)


def test_b_5_nothing_follows_four_jokers():
    hand = ["BJ", "BJ", "RJ", "RJ", "S5", "D5", "C5", "H5", "H2", "H2"]
    assert legal_follows(hand, "2", Reading("four_jokers", None, 4)) == []
    leads = legal_leads(hand, "2")
    assert (("BJ", "BJ", "RJ", "RJ"), Reading("four_jokers", None, 4)) in leads


def test_c_4_c_5_b_4_full_hand_five_card_plays_equal_brute_force():
    """A whole 27-card hand with both wilds: every 5-card sub-multiset read by `readings` gives
    exactly the enumerator's full houses, straights, 5-bombs and straight flushes."""
    from itertools import combinations
    level, hand = _big_hand(0)
    want = set()
    for cards in {tuple(sorted(c)) for c in combinations(sorted(hand), 5)}:
        for r in readings(cards, level):
            want.add((cards, r))
    got = as_plays([(c, r) for c, r in legal_leads(hand, level) if len(c) == 5])
    assert set(got) == want


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_hands(), st.sampled_from([None, *ALL_TABLES]), st.sampled_from(range(len(RULE_SETS))),
       st.integers(1, 10))
def test_plays_of_one_size_are_those_of_every_size_kept_in_order(hand_level, table, rules_index,
                                                                  size):
    """`size` (the plays of a picked set of cards) generates only the types of that length:
    the same plays, in the same order, as all of them filtered by length."""
    level, hand = hand_level
    rules = RULE_SETS[rules_index]
    if table is not None and table.type == "bomb" and table.length > rules.max_bomb:
        return
    every = legal_plays(hand, level, rules, table)
    assert legal_plays(hand, level, rules, table, size) == \
        [p for p in every if len(p[0]) == size]
