"""Property: `legal_plays` equals a brute force over every sub-multiset of the hand and every
reading of it, and each listed play passes `can_follow`; `infer_reading` agrees."""
from itertools import combinations

from hypothesis import given, settings, strategies as st

from engine.cards import JOKERS
from engine.games.daifugo.plays import (
    ORDER,
    AmbiguousReading,
    FieldState,
    PlayError,
    can_follow,
    full_deck,
    infer_reading,
    legal_plays,
    readings,
)
from engine.games.daifugo.rules import PlayRules
from tests.sizing import examples

RULES = st.builds(
    PlayRules,
    jokers=st.integers(0, 2),
    stairs=st.sampled_from(["off", "seed", "standard"]),
    lock=st.sampled_from(["off", "suit", "suit_and_sequence", "number"]),
    spade3_return=st.sampled_from(["off", "single_joker", "any_joker"]),
    lone_joker_ignores_lock=st.booleans(),
    stairs_revolution_min=st.sampled_from([None, 4, 5]),
)


@st.composite
def situations(draw):
    rules = draw(RULES)
    deck = full_deck(rules)
    # bias toward one or two suits and a narrow rank band so stairs and sets occur
    if draw(st.booleans()):
        suits = draw(st.sets(st.sampled_from("SHDC"), min_size=1, max_size=2))
        start = draw(st.integers(0, 8))
        band = ORDER[start:start + 5] + (("A",) if start > 6 else ())
        deck_ = [c for c in deck if c in JOKERS or (c[0] in suits and c[1:] in band)]
    else:
        deck_ = deck
    hand = draw(st.lists(st.sampled_from(deck_), min_size=1, max_size=8, unique=True))
    rest = [c for c in deck if c not in hand]
    field = FieldState()
    if draw(st.booleans()) and rest:
        top_cards = draw(st.lists(st.sampled_from(rest), min_size=1, max_size=4, unique=True))
        options = readings(top_cards, rules)
        if options:
            top = draw(st.sampled_from(options))
            suits = top.suits
            field = FieldState(
                top, revolution=draw(st.booleans()), jack_back=draw(st.booleans()),
                locked_suits=suits if suits and draw(st.booleans()) else None,
                sequence_lock=draw(st.booleans()) and rules.lock in ("number",
                                                                     "suit_and_sequence"))
    return rules, hand, field, draw(st.booleans())


def brute_force(hand, field, rules, has_passed):
    out = {}
    for k in range(1, len(hand) + 1):
        for cards in combinations(hand, k):
            for play in readings(cards, rules):
                if can_follow(play, field, rules, has_passed=has_passed)[0]:
                    out.setdefault(play.key(rules), play)
    return out


@settings(max_examples=examples(400))
@given(situations())
def test_legal_plays_equal_brute_force_and_all_pass_can_follow(sit):
    rules, hand, field, has_passed = sit
    listed = legal_plays(hand, field, rules, has_passed=has_passed)
    keys = [p.key(rules) for p in listed]
    assert len(keys) == len(set(keys)), "a play is listed twice"
    assert set(keys) == set(brute_force(hand, field, rules, has_passed))
    for play in listed:
        assert can_follow(play, field, rules, has_passed=has_passed) == (True, None)
        assert all(c in hand for c in play.cards)


@settings(max_examples=examples(300))
@given(situations())
def test_infer_reading_finds_the_play_or_says_why(sit):
    rules, hand, field, has_passed = sit
    legal = legal_plays(hand, field, rules, has_passed=has_passed)
    by_cards = {}
    for p in legal:
        by_cards.setdefault(tuple(sorted(p.cards)), []).append(p)
    for cards, plays in by_cards.items():
        try:
            got = infer_reading(cards, None, field, rules, has_passed=has_passed)
        except AmbiguousReading as e:
            assert len(plays) > 1 and len(e.readings) == len(plays)
            for p in plays:  # every listed reading is accepted when named
                named = infer_reading(p.cards, list(p.jokers) or None, field, rules,
                                      has_passed=has_passed)
                assert named.key(rules) == p.key(rules)
        else:
            assert len(plays) == 1 and got.key(rules) == plays[0].key(rules)


@settings(max_examples=examples(200))
@given(situations())
def test_a_refused_reading_names_a_refusal(sit):
    rules, hand, field, has_passed = sit
    for k in (1, 2, 3):
        for cards in list(combinations(hand, k))[:10]:
            try:
                infer_reading(cards, None, field, rules, has_passed=has_passed)
            except PlayError as e:
                assert e.code and e.rule
