"""Options (one per row M-a … M-m of the rules page, plus the seed's house rules) and presets.

Defaults are the seed's game (the "project defaults" of shared/rules/manillen.md). Where the
rules page's table recommends otherwise the seed wins: unlimited doubling (M-d recommends 2)
and a redouble by either member of the dealer's side (the seed: "ディーラーのチームのプレイヤー").
"""
from __future__ import annotations

from engine.fields import Field, Option

DEAL_PATTERNS = {"3-2-3": (3, 2, 3), "3-3-2": (3, 3, 2), "2-2-2-2": (2, 2, 2, 2), "4-4": (4, 4)}

OPTIONS: tuple[Option, ...] = (
    Option("first_dealer", Field(
        "enum", "Who deals when neither the request nor the match names a dealer: the first "
        "player, or the strongest card of a cut (each player cuts; ties cut again).",
        choices=("first_player", "cut")), "first_player", rule="A5"),
    Option("french_form", Field(
        "enum", "The French form (4 players): the last card dealt is turned up and fixes "
        "trumps, play and the deal go counter-clockwise; 'muette' (silent) or 'parlee' "
        "(partners may speak the signals of the speak action).",
        choices=("none", "muette", "parlee")), "none", rule="A37"),
    Option("deal_pattern", Field(
        "enum", "Packets dealt to each player in turn, clockwise from the dealer's left "
        "(4 players only; 3 players are dealt 3-4-3 and 2 players the seed's layout).",
        choices=tuple(DEAL_PATTERNS)), "3-2-3", rule="M-a"),
    Option("allow_pass_trump_to_partner", Field(
        "bool", "The dealer may say 'en face' and let their partner name trumps (4 players)."),
        False, rule="M-b"),
    Option("blind_no_trump", Field(
        "bool", "The dealer may call no-trump before looking at their hand."), False, rule="M-c"),
    Option("blind_no_trump_multiplier", Field(
        "int", "Multiplier of a blind no-trump (instead of the no-trump ×2).", minimum=1),
        4, rule="M-c"),
    Option("max_doublings", Field(
        "int", "Most doubling calls (double, redouble, double again …) in one deal; "
        "null: until one side stops (the seed).", nullable=True, minimum=0), None, rule="M-d"),
    Option("redouble_by", Field(
        "enum", "Who of the dealer's side may redouble.",
        choices=("dealer_side", "dealer_partner")), "dealer_side", rule="M-d"),
    Option("multiplier_cap", Field(
        "int", "The product of all multipliers of a deal never exceeds this (the seed's "
        "'serious players' rule: 4); null: no cap.", nullable=True, minimum=1), None,
        rule="M-d"),
    Option("double_by", Field(
        "enum", "Who of the non-dealing side may double.",
        choices=("either_opponent", "eldest_only")), "either_opponent", rule="M-e"),
    Option("must_trump_when_partner_winning", Field(
        "bool", "A player void in the led suit must trump even when their partner is winning."),
        False, rule="M-f"),
    Option("must_overtake_in_suit", Field(
        "enum", "When a player following suit must play a higher card of that suit.",
        choices=("opponent_winning", "trump_lead_only", "never")), "opponent_winning",
        rule="M-g"),
    Option("undertrump", Field(
        "enum", "Playing a trump lower than one already in a trick led in another suit.",
        choices=("forbidden_unless_forced", "allowed", "required_if_holding_trump")),
        "forbidden_unless_forced", rule="M-h"),
    Option("overtrump_on_trump_lead_even_if_partner_wins", Field(
        "bool", "On a trump lead, a player must beat the trick even when their partner is "
        "winning it."), False, rule="M-i"),
    Option("tie_carry_multiplier", Field(
        "int", "After a tie (an even split, or no side over the threshold) the next deal "
        "counts this many times.",
        minimum=1), 2, rule="M-j"),
    Option("tie_carry_cumulative", Field(
        "bool", "Successive ties multiply the carry (×2, ×4 …) instead of resetting it."),
        True, rule="M-j"),
    Option("trick_bonus_points", Field(
        "int", "Points per trick on top of the card points (French base: 1).", minimum=0),
        0, rule="M-k"),
    Option("score_threshold", Field(
        "int", "A side scores what it takes over this; null: half the deal's total (card "
        "points and trick bonuses; 30 on the Belgian base, French base 34 with 4 players, "
        "35 with 3, 38 with 2).", nullable=True, minimum=0), None, rule="M-k"),
    Option("target_points", Field(
        "int", "A boom ends after the deal in which a side reaches this.", minimum=1),
        101, rule="M-l"),
    Option("booms_to_win", Field("int", "Booms that win the match.", minimum=1), 1, rule="M-l"),
    Option("partner_peek_penalty", Field(
        "enum", "What a reported peek by the dealer's partner before trumps does: the hand is "
        "thrown in and the deal passes on, or is redealt by the same dealer.",
        choices=("redeal_next_dealer", "redeal_same_dealer")), "redeal_next_dealer",
        rule="M-m"),
)

PRESETS = {
    "standard": {},
    "tournament": {"booms_to_win": 2},
    "capped": {"max_doublings": 2},
    "serious": {"multiplier_cap": 4},
    "blind": {"blind_no_trump": True},
    "french_base": {"trick_bonus_points": 1},
    "cut": {"first_dealer": "cut"},
    "muette": {"french_form": "muette", "deal_pattern": "4-4", "trick_bonus_points": 1,
               "target_points": 34},
    "parlee": {"french_form": "parlee", "deal_pattern": "4-4", "trick_bonus_points": 1,
               "target_points": 34},
}

BY_NAME = {o.name: o for o in OPTIONS}
