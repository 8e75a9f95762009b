"""Daifugo plays, one test (or a few) per rule number of docs/rules/daifugo.md, each on a
hand-built field."""
from dataclasses import replace

import pytest

from engine.games.daifugo.plays import (
    REFUSALS,
    AmbiguousReading,
    FieldState,
    PlayError,
    apply_play,
    can_follow,
    check_jack_back_declaration,
    cleared,
    five_skips,
    forbidden_finish,
    infer_reading,
    is_eight_cut,
    is_revolution,
    is_unbeatable,
    legal_plays,
    read_play,
    readings,
    reverses_direction,
    seven_pass_count,
    ten_discard_count,
)
from engine.games.daifugo.rules import PRESETS, SEED, SEED_FULL, UECDA, PlayRules, play_rules

STD = replace(SEED, stairs="standard")
LOCK = replace(SEED, lock="suit")
TWO = replace(SEED, jokers=2)


def P(cards, jokers=None, rules=SEED):
    return read_play(cards.split(), jokers, rules)


def field(cards=None, jokers=None, rules=SEED, **kw):
    top = P(cards, jokers, rules) if cards else None
    return FieldState(top=top, **kw)


def follows(play, fld, rules=SEED, **kw):
    return can_follow(play, fld, rules, **kw)


OK = (True, None)


# ---- rules and presets -------------------------------------------------------------------

def test_presets_seed_is_the_default_and_options_are_checked():
    assert PlayRules() == SEED == PRESETS["seed"]
    assert SEED.jokers == 1 and SEED.eight_cut and SEED.stairs == "off"
    assert SEED_FULL.stairs == "seed" and SEED_FULL.jack_back == "declared"
    assert UECDA.stairs == "standard" and UECDA.stairs_revolution_min == 5
    assert play_rules("uecda", lock="off").lock == "off"
    with pytest.raises(ValueError):
        PlayRules(lock="partial")
    with pytest.raises(ValueError):
        PlayRules(jokers=3)


def test_every_refusal_code_cites_a_rule_and_reads_in_japanese():
    for code, (rule, en, ja) in REFUSALS.items():
        assert rule and en and ja, code


# ---- D1 / D-a jokers ---------------------------------------------------------------------

def test_D1_more_jokers_than_the_game_has_are_refused():
    with pytest.raises(PlayError) as e:
        read_play(["BJ", "RJ"], None, SEED)
    assert e.value.code == "jokers_not_in_game"
    assert read_play(["BJ", "RJ"], None, TWO).form == "set"
    assert readings(["BJ"], replace(SEED, jokers=0)) == []


# ---- D2 rank order -----------------------------------------------------------------------

def test_D2_two_beats_ace_beats_king_three_is_lowest():
    assert follows(P("S2"), field("HA")) == OK
    assert follows(P("HA"), field("SK")) == OK
    assert follows(P("S3"), field("H4")) == (False, "not_stronger")
    assert follows(P("HK"), field("S2")) == (False, "not_stronger")


def test_D2_equal_strength_does_not_follow():
    assert follows(P("H9"), field("S9")) == (False, "not_stronger")


# ---- D5 forms ----------------------------------------------------------------------------

def test_D5_singles_and_sets_of_one_rank():
    assert P("S7").form == "single"
    assert P("S7 H7 D7").form == "set"
    with pytest.raises(PlayError) as e:
        P("S7 H8")
    assert e.value.code == "not_a_combination"


def test_D5_empty_and_duplicate_cards_are_refused():
    for cards, code in (([], "cards_empty"), (["S7", "S7"], "cards_duplicate")):
        with pytest.raises(PlayError) as e:
            read_play(cards, None, SEED)
        assert e.value.code == code and e.value.rule == "D5"


def test_D5_stairs_need_three_consecutive_same_suit():
    assert P("H5 H6 H7", rules=STD).form == "stairs"
    for bad in ("H5 H6", "H5 H6 S7", "H5 H6 H8"):
        with pytest.raises(PlayError) as e:
            P(bad, rules=STD)
        assert e.value.code == "not_a_combination"


def test_D5_stairs_refused_when_the_option_is_off():
    with pytest.raises(PlayError) as e:
        P("H5 H6 H7")
    assert e.value.code == "stairs_off"


def test_D5_standard_stairs_run_3_to_2_without_wrapping():
    assert P("HK HA H2", rules=STD).low == 11
    with pytest.raises(PlayError):
        P("HA H2 H3", rules=STD)


def test_D5_seed_stairs_ace_is_one_or_fourteen_and_two_is_low():
    r = SEED_FULL
    assert P("HA H2 H3", rules=r).low == 1
    assert P("HQ HK HA", rules=r).high == 14
    with pytest.raises(PlayError):
        P("HK HA H2", rules=r)


# ---- D6 following ------------------------------------------------------------------------

def test_D6_follow_needs_the_same_count():
    assert follows(P("S9 H9"), field("S8")) == (False, "count_mismatch")
    assert follows(P("S9"), field("S8 H8")) == (False, "count_mismatch")
    assert follows(P("S9 H9"), field("S8 H8")) == OK


def test_D6_standard_stairs_every_card_above_every_field_card():
    r = STD
    f = field("S5 S6 S7", rules=r)
    assert follows(P("H8 H9 H10", rules=r), f, r) == OK
    assert follows(P("H7 H8 H9", rules=r), f, r) == (False, "not_stronger")
    assert follows(P("H8 H9 H10 HJ", rules=r), f, r) == (False, "count_mismatch")
    assert follows(P("S9 H9 D9"), f, r) == (False, "form_mismatch")


def test_D6_standard_stairs_never_go_on_singles_or_sets():
    r = STD
    assert follows(P("H8 H9 H10", rules=r), field("S4"), r) == (False, "form_mismatch")
    assert follows(P("H8 H9 H10", rules=r), field("S4 H4 D4"), r) == (False, "form_mismatch")


def test_D6_seed_stairs_go_on_a_single_when_the_low_card_beats_it():
    r = SEED_FULL
    assert follows(P("H5 H6 H7", rules=r), field("S4"), r) == OK
    assert follows(P("H4 H5 H6", rules=r), field("S4"), r) == (False, "not_stronger")
    assert follows(P("H5 H6 H7", rules=r), field("S4 D4"), r) == (False, "form_mismatch")


def test_D6_seed_stairs_beaten_by_stairs_one_step_higher_any_suit():
    # seed ③ 例2: ♦J-Q-K is beaten by ♠K-A-joker and ♣Q-K-A, not by ♣J-Q-K
    r = SEED_FULL
    f = field("DJ DQ DK", rules=r)
    assert follows(P("CQ CK CA", rules=r), f, r) == OK
    assert follows(P("CJ CQ CK", rules=r), f, r) == (False, "not_stronger")
    assert follows(infer_reading(["SK", "SA", "BJ"], ["S+"], f, r), f, r) == OK
    # ... and 例1: ♥5-6-7 on a 4 is beaten only by stairs starting at 6 or higher
    f = field("H5 H6 H7", rules=r)
    assert follows(P("S6 S7 S8", rules=r), f, r) == OK
    assert follows(P("S5 S6 S7", rules=r), f, r) == (False, "not_stronger")


# ---- D7 jokers ---------------------------------------------------------------------------

def test_D7_lone_joker_beats_a_two_and_a_three_in_revolution():
    assert follows(P("BJ"), field("S2")) == OK
    assert follows(P("BJ"), field("S3", revolution=True)) == OK
    assert follows(P("S2"), field("BJ")) == (False, "not_stronger")


def test_D7_joker_is_wild_in_sets_and_a_joker_pair_beats_two_twos():
    assert follows(P("S2 BJ"), field("SA HA")) == OK
    assert follows(P("BJ RJ", rules=TWO), field("S2 H2"), TWO) == OK
    assert follows(P("S2 H2"), field("BJ RJ", rules=TWO), TWO) == (False, "not_stronger")


def test_D7_lone_joker_stands_for_no_card():
    with pytest.raises(PlayError) as e:
        read_play(["BJ"], ["S2"], SEED)
    assert e.value.code == "joker_alone_not_wild"


def test_D7_reading_inferred_when_only_one_is_legal():
    r = STD
    f = field("S4 S5 S6", rules=r)
    play = infer_reading(["H9", "BJ", "HJ"], None, f, r)
    assert play.jokers == ("H10",) and play.form == "stairs"


def test_D7_ambiguous_reading_lists_the_readings():
    r = STD
    with pytest.raises(AmbiguousReading) as e:
        infer_reading(["H9", "H10", "BJ"], None, FieldState(), r)
    assert e.value.code == "ambiguous_reading"
    assert sorted(e.value.readings) == [["H8"], ["HJ"]]
    assert infer_reading(["H9", "H10", "BJ"], ["hj"], FieldState(), r).high == 9


def test_D7_wrong_stand_in_is_refused():
    with pytest.raises(PlayError) as e:
        read_play(["H7", "BJ"], ["H8"], SEED)
    assert e.value.code == "joker_reading_invalid"
    with pytest.raises(PlayError) as e:
        read_play(["H7", "BJ"], ["H7"], SEED)
    assert e.value.code == "joker_reading_invalid"


def test_D7_set_joker_suit_matters_only_under_a_suit_lock():
    assert len(readings(["H7", "BJ"], SEED)) == 1
    assert infer_reading(["H7", "BJ"], None, FieldState(), SEED).rank == "7"
    with pytest.raises(AmbiguousReading) as e:
        infer_reading(["H7", "BJ"], None, FieldState(), LOCK)
    assert sorted(e.value.readings) == [["C7"], ["D7"], ["S7"]]
    # under a lock on ♥♠ the suit is forced, so the reading is inferred
    f = field("H5 S5", rules=LOCK, locked_suits=frozenset("HS"))
    assert infer_reading(["H7", "BJ"], None, f, LOCK).jokers == ("S7",)


def test_D7_no_legal_reading_gives_the_refusal():
    with pytest.raises(PlayError) as e:
        infer_reading(["H7", "BJ"], None, field("SA HA"), SEED)
    assert e.value.code == "not_stronger"


# ---- D9 / seed ⑧: the strongest play clears ------------------------------------------------

def test_D9_lone_joker_clears_at_once_under_the_seed():
    out = apply_play(field("S2"), P("BJ"), SEED)
    assert out.clears and out.clear_reason == "strongest" and out.field.top is None


def test_D9_a_two_clears_only_when_no_joker_could_beat_it():
    assert not apply_play(FieldState(), P("S2"), SEED).clears
    assert apply_play(FieldState(), P("S2"), replace(SEED, jokers=0)).clears
    assert not apply_play(FieldState(), P("BJ"), UECDA).clears  # U5: only passes clear


def test_D9_clearing_ends_jack_back_and_lock_but_keeps_revolution():
    f = FieldState(P("S5"), revolution=True, jack_back=True, locked_suits=frozenset("S"))
    assert cleared(f) == FieldState(revolution=True)


def test_D9_unbeatable_against_a_pool():
    f = field("SK")
    assert is_unbeatable(f, SEED, pool=["H3", "DQ"])
    assert not is_unbeatable(f, SEED, pool=["H3", "DA"])


# ---- D12 revolution ----------------------------------------------------------------------

def test_D12_four_of_a_kind_is_a_revolution_and_reverses_order():
    out = apply_play(FieldState(), P("S5 H5 D5 C5"), SEED)
    assert out.revolution and out.field.revolution
    f = FieldState(P("S9"), revolution=True)
    assert follows(P("S4"), f) == OK
    assert follows(P("SK"), f) == (False, "not_stronger")


def test_D12_three_plus_joker_and_five_with_joker_are_revolutions():
    assert is_revolution(P("S5 H5 D5 BJ"), SEED)
    assert is_revolution(P("S5 H5 D5 C5 BJ"), SEED)
    assert P("S5 H5 D5 C5 BJ").jokers == ("*5",)
    assert not is_revolution(P("S5 H5 D5"), SEED)


def test_D12_counter_revolution_reverts():
    f = FieldState(P("S9 H9 D9 C9"), revolution=True)
    out = apply_play(f, P("S4 H4 D4 C4"), SEED)
    assert out.revolution and not out.field.revolution


def test_D12_stairs_revolution_from_the_option():
    r = UECDA
    assert is_revolution(P("H3 H4 H5 H6 H7", rules=r), r)
    assert not is_revolution(P("H3 H4 H5 H6", rules=r), r)
    assert not is_revolution(P("H3 H4 H5 H6 H7", rules=SEED_FULL), SEED_FULL)


def test_D12_revolution_inside_jack_back():
    r = SEED_FULL
    f = FieldState(P("S9 H9 D9 C9"), jack_back=True)  # reversed by J-back
    assert follows(P("S5 H5 D5 C5"), f, r) == OK
    out = apply_play(f, P("S5 H5 D5 C5"), r)
    assert out.field.revolution and out.field.jack_back and not out.field.reversed
    after = cleared(out.field)
    assert after.revolution and not after.jack_back and after.reversed


def test_D12_lone_joker_stays_strongest_in_revolution():
    assert follows(P("BJ"), field("S3", revolution=True)) == OK


# ---- D13 8-cut ---------------------------------------------------------------------------

def test_D13_eight_clears_the_field_only_when_it_beats_it():
    out = apply_play(field("S5"), P("H8"), SEED)
    assert out.eight_cut and out.clears and out.clear_reason == "eight_cut"
    assert follows(P("H8"), field("S9")) == (False, "not_stronger")
    assert follows(P("H8 D8"), field("S5")) == (False, "count_mismatch")


def test_D13_joker_standing_as_eight_cuts_lone_joker_never():
    assert is_eight_cut(P("H8 BJ"), SEED)
    assert not is_eight_cut(P("BJ"), SEED)
    assert not is_eight_cut(P("H8"), replace(SEED, eight_cut=False))


@pytest.mark.parametrize("form", ["standard", "seed"])
def test_D13_eight_inside_stairs_under_both_stair_forms(form):
    on = replace(SEED, stairs=form, eight_cut_in_stairs=True)
    off = replace(on, eight_cut_in_stairs=False)
    play = P("H7 H8 H9", rules=on)
    assert is_eight_cut(play, on) and not is_eight_cut(play, off)
    assert apply_play(FieldState(), play, on).clear_reason == "eight_cut"
    assert not apply_play(FieldState(), play, off).clears
    joker8 = read_play(["H7", "BJ", "H9"], ["H8"], on)
    assert is_eight_cut(joker8, on)
    assert not is_eight_cut(P("H9 H10 HJ", rules=on), on)


def test_D13_seed_stair_on_a_single_through_eight_cuts():
    r = SEED_FULL
    f = field("S5")
    play = P("H6 H7 H8", rules=r)
    assert follows(play, f, r) == OK
    assert apply_play(f, play, r).clear_reason == "eight_cut"


# ---- D14 lock ----------------------------------------------------------------------------

def test_D14_same_suits_twice_lock():
    out = apply_play(field("H7 S7"), P("H9 S9"), LOCK)
    assert out.lock == "formed" and out.field.locked_suits == frozenset("HS")
    assert apply_play(field("H7 S7"), P("H9 C9"), LOCK).lock is None


def test_D14_locked_field_needs_the_suits():
    f = field("H9 S9", locked_suits=frozenset("HS"))
    assert follows(P("HJ SJ"), f, LOCK) == OK
    assert follows(P("HJ CJ"), f, LOCK) == (False, "suit_locked")


def test_D14_joker_counts_under_the_suit_it_stands_in():
    f = field("H9 S9", locked_suits=frozenset("HS"))
    assert follows(read_play(["HJ", "BJ"], ["SJ"], LOCK), f, LOCK) == OK
    assert follows(read_play(["HJ", "BJ"], ["CJ"], LOCK), f, LOCK) == (False, "suit_locked")
    out = apply_play(field("H9 S9"), read_play(["HJ", "BJ"], ["SJ"], LOCK), LOCK)
    assert out.lock == "formed" and out.field.locked_suits == frozenset("HS")


def test_D14_lock_kept_and_broken_by_a_lone_joker():
    f = field("H9", locked_suits=frozenset("H"))
    assert follows(P("BJ"), f, LOCK) == OK
    broke = apply_play(f, P("BJ"), replace(LOCK, strongest_play_clears=False))
    assert broke.lock == "broken" and broke.field.locked_suits is None
    kept_rules = replace(LOCK, lone_joker_clears_lock=False, strongest_play_clears=False)
    kept = apply_play(f, P("BJ"), kept_rules)
    assert kept.lock is None and kept.field.locked_suits == frozenset("H")
    strict = replace(LOCK, lone_joker_ignores_lock=False)
    assert follows(P("BJ"), f, strict) == (False, "suit_locked")


def test_D14_lock_lasts_until_the_field_clears_and_survives_revolution():
    f = FieldState(P("H5 S5 D5 C5"), locked_suits=frozenset("HSDC"))
    out = apply_play(f, P("H9 S9 D9 C9"), LOCK)
    assert out.field.revolution and out.field.locked_suits == frozenset("HSDC")
    assert cleared(out.field).locked_suits is None


def test_D14_number_lock_requires_the_next_step():
    r = replace(SEED, lock="number")
    out = apply_play(field("S5"), P("H6"), r)
    assert out.lock == "formed" and out.field.sequence_lock
    assert follows(P("D7"), out.field, r) == OK
    assert follows(P("D8"), out.field, r) == (False, "number_locked")


def test_D14_suit_and_sequence_lock():
    r = replace(SEED, lock="suit_and_sequence")
    assert apply_play(field("S5"), P("S7"), r).lock is None
    out = apply_play(field("S5"), P("S6"), r)
    assert out.field.sequence_lock and out.field.locked_suits == frozenset("S")
    assert follows(P("S7"), out.field, r) == OK
    assert follows(P("H7"), out.field, r) == (False, "suit_locked")
    assert follows(P("S9"), out.field, r) == (False, "number_locked")


def test_D14_stairs_lock_on_the_same_suit():
    r = replace(UECDA, strongest_play_clears=False)
    out = apply_play(field("H3 H4 H5", rules=r), P("H9 H10 HJ", rules=r), r)
    assert out.lock == "formed"
    assert follows(P("SQ SK SA", rules=r), out.field, r) == (False, "suit_locked")


# ---- D15 spade-3 return ------------------------------------------------------------------

SP3 = replace(SEED, spade3_return="single_joker", strongest_play_clears=False)


def test_D15_spade3_against_a_lone_joker():
    f = field("BJ")
    assert follows(P("S3"), f, SP3) == OK
    out = apply_play(f, P("S3"), SP3)
    assert out.spade3_return and out.clears and out.clear_reason == "spade3_return"
    assert follows(P("H3"), f, SP3) == (False, "not_stronger")
    assert follows(P("S3"), f, SEED) == (False, "not_stronger")


def test_D15_spade3_not_against_a_joker_in_a_set_unless_any_joker():
    f = field("H7 BJ")
    assert follows(P("S3"), f, SP3) == (False, "count_mismatch")
    assert follows(P("S3"), f, replace(SP3, spade3_return="any_joker")) == OK


def test_D15_joker_as_spade3_does_not_return():
    f = field("BJ", rules=TWO)
    assert follows(P("RJ", rules=TWO), f, replace(SP3, jokers=2)) == (False, "not_stronger")


def test_D15_spade3_ignores_a_lock_and_not_after_passing():
    f = field("BJ", locked_suits=frozenset("H"))
    r = replace(SP3, lock="suit")
    assert follows(P("S3"), f, r) == OK
    assert follows(P("S3"), f, r, has_passed=True) == (False, "spade3_return_after_pass")


def test_D15_without_clearing_the_spade3_is_the_top():
    r = replace(SP3, spade3_clears=False)
    out = apply_play(field("BJ"), P("S3"), r)
    assert not out.clears and out.field.top.cards == ("S3",)


def test_D15_lone_joker_is_not_unbeatable_when_spade3_returns():
    assert not apply_play(field("S2"), P("BJ"), replace(SP3, strongest_play_clears=True)).clears


# ---- D16 J-back / 11-back ----------------------------------------------------------------

def test_D16_declared_jack_back_reverses_until_the_clear():
    r = SEED_FULL
    assert check_jack_back_declaration(P("SJ"), r) == OK
    out = apply_play(field("S9"), P("SJ"), r, jack_back_declared=True)
    assert out.jack_back and out.field.reversed
    assert follows(P("S10"), out.field, r) == OK
    assert follows(P("SQ"), out.field, r) == (False, "not_stronger")
    assert not apply_play(field("S9"), P("SJ"), r).jack_back  # not declared: no reversal


def test_D16_declaration_refusals():
    r = replace(SEED_FULL, jack_back_limit=1)
    assert check_jack_back_declaration(P("SQ"), r) == (False, "jack_back_needs_jack")
    assert check_jack_back_declaration(P("SJ"), r, used=1) == (False, "jack_back_limit_reached")
    assert check_jack_back_declaration(P("SJ"), SEED) == (False, "jack_back_off")


def test_D16_eleven_back_any_and_non_stairs():
    any_ = replace(SEED, stairs="standard", jack_back="any")
    non = replace(any_, jack_back="non_stairs")
    stairs = P("H10 HJ HQ", rules=any_)
    assert apply_play(FieldState(), stairs, any_).jack_back
    assert not apply_play(FieldState(), stairs, non).jack_back
    assert apply_play(FieldState(), P("SJ HJ"), non).jack_back
    assert apply_play(FieldState(), P("SJ BJ"), non).jack_back


def test_D16_second_jack_back_toggles_back():
    r = replace(SEED, jack_back="any")
    f = FieldState(P("S9"), jack_back=True)
    assert follows(P("HJ"), FieldState(P("SQ"), jack_back=True), r) == OK
    assert not apply_play(FieldState(P("SQ"), jack_back=True), P("HJ"), r).field.jack_back
    assert f.reversed


# ---- D17-D22 -----------------------------------------------------------------------------

def test_D17_five_skip_per_card_and_per_play():
    assert five_skips(P("S5 H5"), replace(SEED, five_skip="per_card")) == 2
    assert five_skips(P("S5 H5"), replace(SEED, five_skip="per_play")) == 1
    assert five_skips(P("S5 H5"), SEED) == 0


def test_D18_D19_seven_pass_and_ten_discard_count_the_cards():
    r = replace(SEED, seven_pass=True, ten_discard=True)
    assert seven_pass_count(P("S7 BJ"), r) == 2
    assert ten_discard_count(P("S10"), r) == 1
    assert seven_pass_count(P("S7"), SEED) == 0


def test_D20_nine_reverse_and_even_cancel():
    r = replace(SEED, reverse_rank=9)
    assert reverses_direction(P("S9 H9"), r)
    assert not reverses_direction(P("S9 H9"), replace(r, reverse_even_cancels=True))
    assert reverses_direction(P("S6"), replace(SEED, reverse_rank=6))
    assert not reverses_direction(P("S9"), SEED)


def test_D21_double_nine_ambulance_clears():
    r = replace(SEED, double_nine_cut=True)
    out = apply_play(field("S4 H4"), P("S9 H9"), r)
    assert out.clears and out.clear_reason == "double_nine_cut"
    assert not apply_play(field("S4 H4 D4"), P("S9 H9 D9"), r).clears


def test_D22_coup_d_etat_three_nines():
    r = replace(SEED, triple_nine_revolution=True)
    assert is_revolution(P("S9 H9 D9"), r) and not is_revolution(P("S9 H9 D9"), SEED)
    assert not is_revolution(P("S8 H8 D8"), r)


# ---- D24 forbidden finish ----------------------------------------------------------------

ALL_FF = replace(SEED, forbidden_finish=("joker", "top_rank", "eight", "spade3_return", "jack"),
                 spade3_return="single_joker")


def test_D24_forbidden_finishing_cards():
    empty = FieldState()
    assert forbidden_finish(P("BJ"), empty, ALL_FF) == ("joker",)
    assert forbidden_finish(P("S2"), empty, ALL_FF) == ("top_rank",)
    assert forbidden_finish(P("S3"), FieldState(revolution=True), ALL_FF) == ("top_rank",)
    assert forbidden_finish(P("S8"), empty, ALL_FF) == ("eight",)
    assert forbidden_finish(P("SJ"), empty, ALL_FF) == ("jack",)
    assert forbidden_finish(P("S3"), field("BJ"), ALL_FF) == ("spade3_return",)
    assert forbidden_finish(P("S7"), empty, ALL_FF) == ()
    assert forbidden_finish(P("S2"), empty, SEED) == ()


# ---- U-rules (uecda preset) --------------------------------------------------------------

def test_U4_uecda_sets_up_to_five_with_the_joker():
    assert P("S9 H9 D9 C9 BJ", rules=UECDA).size == 5


def test_U9_uecda_lone_joker_on_any_single_but_not_declarable():
    assert follows(P("BJ", rules=UECDA), field("S2"), UECDA) == OK
    with pytest.raises(PlayError):
        read_play(["BJ"], ["S9"], UECDA)


def test_U16_uecda_stairs_extend_with_the_joker_past_either_end():
    r = UECDA
    assert read_play(["HA", "H2", "BJ"], ["H+"], r).high == 14
    assert read_play(["BJ", "H3", "H4"], ["H-"], r).low == 0


def test_U11_uecda_joker_as_eight_in_stairs_cuts():
    r = UECDA
    assert is_eight_cut(read_play(["H7", "BJ", "H9"], ["H8"], r), r)


# ---- legal plays -------------------------------------------------------------------------

def test_legal_plays_lists_each_play_once():
    hand = ["S7", "H7", "BJ", "S3"]
    plays = legal_plays(hand, FieldState(), SEED)
    keys = [p.key(SEED) for p in plays]
    assert len(keys) == len(set(keys))
    names = sorted(" ".join(sorted(p.cards)) for p in plays)
    assert "BJ H7 S7" in names and "H7 S7" in names and "BJ" in names
    assert len(legal_plays(hand, field("S2 H2"), SEED)) == 0
    assert [p.cards for p in legal_plays(hand, field("S6"), SEED)] == [("S7",), ("H7",), ("BJ",)]
