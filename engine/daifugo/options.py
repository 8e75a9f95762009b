"""Options: every named option of docs/rules/daifugo.md (C.4), with the `seed` preset's values
as defaults, and the three presets. `play_rules(options)` gives the PlayRules the play
predicates read (memoized: options are immutable)."""
from __future__ import annotations

from functools import lru_cache
from itertools import permutations
from typing import Any, Mapping

from engine.fields import Field, Option

from .rules import (FIVE_SKIPS, FORBIDDEN_FINISHES, JACK_BACKS, LOCKS, SPADE3_RETURNS,
                    STAIRS_FORMS, PlayRules)

FIRST_LEADERS = ("random_then_daihinmin", "diamond3_first_then_daihinmin", "spade3_first",
                 "diamond3_every_game")
RANK_POINTS = ("2/1/0/-1/-2", "5/4/3/2/1", "1/0/0/0/-1", "0/0/0/0/0")
EXCHANGES = ("none", "2_1", "1_1", "1_0")
SUIT_ORDERS = tuple("".join(p) for p in permutations("SHDC"))


def _enum(desc: str, choices: tuple, nullable: bool = False) -> Field:
    return Field("enum", desc, choices=choices, nullable=nullable)


def _bool(desc: str) -> Field:
    return Field("bool", desc)


OPTIONS = (
    Option("jokers", Field("int", "jokers in the deck (BJ, then RJ)", minimum=0, maximum=2),
           1, "D-a"),
    Option("first_leader", _enum("who leads the first deal: a seeded random player, the ♦3 "
                                 "holder, the ♠3 holder; diamond3_every_game: the ♦3 holder "
                                 "leads every deal (after the exchange)", FIRST_LEADERS),
           "random_then_daihinmin", "D-b"),
    Option("next_leader", _enum("who leads deals 2 onward (unless diamond3_every_game)",
                                ("daihinmin", "daifugo")), "daihinmin", "D4"),
    Option("dealer", _enum("who deals (decides who gets the extra cards): the last deal's "
                           "大貧民 deals, the next seat gets the first card; daifugo: the 大富豪 "
                           "gets the first card", ("loser", "daifugo")), "loser", "D-c"),
    Option("stairs", _enum("stairs (階段): off, seed form (seed ③) or standard (UECda)",
                           STAIRS_FORMS), "off", "D5"),
    Option("set_revolution_min", Field("int", "cards of one rank (jokers count) making a "
                                       "revolution", minimum=2, maximum=8), 4, "D-d"),
    Option("stairs_revolution_min", Field("int", "stairs of this many cards make a revolution; "
                                          "null: never", nullable=True, minimum=3, maximum=16),
           None, "D-d"),
    Option("eight_cut", _bool("8-cut (八切り): a play of 8s clears the field"), True, "D13"),
    Option("eight_cut_in_stairs", _bool("stairs through an 8 cut too (with eight_cut)"),
           True, "D-e"),
    Option("clear_requires_last_player_pass", _bool("the field clears only when the last "
                                                    "player passes too (UECda)"), False, "D-f"),
    Option("strongest_play_clears", _bool("a play nothing in the deck could follow clears the "
                                          "field at once (seed ⑧)"), True, "D-f"),
    Option("pass_locks_until_clear", _bool("a pass lasts until the field clears (UECda); "
                                           "false: a passed player may play again (seed ⑦)"),
           False, "D-g"),
    Option("spade3_return", _enum("スペ3返し: off, on a lone joker, on any play holding a joker",
                                  SPADE3_RETURNS), "off", "D-h"),
    Option("spade3_clears", _bool("a spade-3 return clears the field"), True, "D-h"),
    Option("lone_joker_ignores_lock", _bool("a lone joker may be played on a locked field"),
           True, "D-i"),
    Option("lone_joker_clears_lock", _bool("a lone joker on a locked field breaks the lock"),
           True, "D-i"),
    Option("lock", _enum("縛り: off, suit, suit_and_sequence (激縛り), number (数字縛り)", LOCKS),
           "off", "D-j"),
    Option("forbidden_finish", Field("str_list", "foul finishes (反則上がり): any of joker, "
                                     "top_rank, eight, spade3_return, jack",
                                     choices=FORBIDDEN_FINISHES), [], "D-k"),
    Option("miyako_ochi", _bool("都落ち: the last 大富豪, beaten to first place, becomes 大貧民 "
                                "at once"), False, "D-l"),
    Option("five_skip", _enum("5-skip: off, one player per 5, one player per play holding a 5",
                              FIVE_SKIPS), "off", "D-m"),
    Option("jack_back", _enum("J-back: off, declared (seed ⑤), any (11バック), non_stairs",
                              JACK_BACKS), "off", "D-n"),
    Option("jack_back_limit", Field("int", "J-back declarations per deal, whole table; null: "
                                    "no limit", nullable=True, minimum=0, maximum=100),
           None, "D-n"),
    Option("reverse_rank", _enum("the rank that turns the direction of play round; null: none",
                                 (6, 9), nullable=True), None, "D-o"),
    Option("reverse_even_cancels", _bool("an even number of reversing cards does nothing"),
           False, "D-o"),
    Option("seven_pass", _bool("7渡し: give the next player one card per 7"), False, "D-p"),
    Option("ten_discard", _bool("10捨て: discard one card per 10"), False, "D-p"),
    Option("double_nine_cut", _bool("99 救急車: exactly two 9s clear the field"), False, "D-p"),
    Option("triple_nine_revolution", _bool("クーデター: exactly three 9s are a revolution"),
           False, "D-p"),
    Option("exchange", _enum("card exchange from deal 2: none; 2_1: 大富豪/大貧民 2 cards, "
                             "富豪/貧民 1; 1_1; 1_0: 大富豪/大貧民 1 card only", EXCHANGES),
           "none", "D-q"),
    Option("exchange_top_gives", _enum("what the upper players give back: any (free choice) "
                                       "or their weakest cards (automatic)",
                                       ("any", "weakest")), "any", "D-q"),
    Option("tribute_suit_order", _enum("suit order breaking ties among the strongest (and "
                                       "weakest) cards of the exchange, strongest first",
                                       SUIT_ORDERS), "SHDC", "D-r"),
    Option("rank_points", _enum("points per title, 大富豪/富豪/平民/貧民/大貧民",
                                RANK_POINTS), "2/1/0/-1/-2", "D-s"),
)

DEFAULTS: dict[str, Any] = {o.name: o.default for o in OPTIONS}

PRESETS: dict[str, dict[str, Any]] = {
    "seed": {},
    "seed_full": {"stairs": "seed", "jack_back": "declared", "exchange": "2_1"},
    "uecda": {"jokers": 1, "first_leader": "diamond3_every_game", "dealer": "daifugo",
              "stairs": "standard", "set_revolution_min": 4, "stairs_revolution_min": 5,
              "eight_cut": True, "eight_cut_in_stairs": True,
              "clear_requires_last_player_pass": True, "strongest_play_clears": False,
              "pass_locks_until_clear": True, "spade3_return": "single_joker",
              "spade3_clears": True, "lock": "suit", "exchange": "2_1",
              "exchange_top_gives": "any", "rank_points": "5/4/3/2/1"},
}

_PLAY_FIELDS = tuple(PlayRules.__dataclass_fields__)


def play_rules(options: Any) -> PlayRules:
    """The PlayRules of a state's options (a Struct or a mapping)."""
    get = options.get if isinstance(options, Mapping) else \
        (lambda k, d=None: getattr(options, k, d))
    return _rules(tuple((k, _hashable(get(k))) for k in _PLAY_FIELDS))


def _hashable(v: Any) -> Any:
    return tuple(v) if isinstance(v, list) else v


@lru_cache(maxsize=256)
def _rules(items: tuple) -> PlayRules:
    return PlayRules(**dict(items))


def points_of(option: str) -> tuple[int, int, int, int, int]:
    return tuple(int(x) for x in option.split("/"))  # type: ignore[return-value]
