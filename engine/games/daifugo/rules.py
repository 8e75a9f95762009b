"""The option values the Daifugo play predicates read (docs/rules/daifugo.md, C.4 and presets).

Every field is named exactly as the option on the rules page; its comment names the rule it
serves. Defaults are the `seed` preset (the seed's base rules plus one joker and 8-cut).
Options that only the phases read (passing, clearing by passes, leaders, exchange, titles,
都落ち, scoring) are not here.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping, Optional

from engine.errors import shown

STAIRS_FORMS = ("off", "seed", "standard")
LOCKS = ("off", "suit", "suit_and_sequence", "number")
SPADE3_RETURNS = ("off", "single_joker", "any_joker")
JACK_BACKS = ("off", "declared", "any", "non_stairs")
FIVE_SKIPS = ("off", "per_card", "per_play")
FORBIDDEN_FINISHES = ("joker", "top_rank", "eight", "spade3_return", "jack")


@dataclass(frozen=True)
class PlayRules:
    # D1 / D-a: jokers in the deck (0, 1 or 2). In sets and stairs a joker is wild (D7).
    jokers: int = 1
    # D5 / D6: stairs (階段). off: no stairs (seed base rules); seed: the seed's own form
    # (seed ③: J=11 Q=12 K=13, A=1 or 14, joker 0-15; may go on a single-card field when its
    # weak end beats the top card; beaten by a stair starting one step higher); standard: the
    # UECda form (positions 3..2, jokers also just below 3 / above 2; only on stairs, every
    # card above every card on the field).
    stairs: str = "off"
    # D12 / D-d: sets of at least this many cards (jokers included) are a revolution.
    set_revolution_min: int = 4
    # D12 / D-d: stairs of at least this many cards are a revolution; None: never.
    stairs_revolution_min: Optional[int] = None
    # D13 (seed ②): a play of 8s (a joker standing as an 8 counts) clears the field.
    eight_cut: bool = True
    # D13 / D-e: an 8 inside stairs (joker standing as the 8 included) cuts too.
    eight_cut_in_stairs: bool = True
    # D9 (seed ⑧): the field clears at once when a play nothing in the deck could follow is
    # made (the lone joker, a 2 with no joker left to beat it ...).
    strongest_play_clears: bool = True
    # D14 / D-j: lock (縛り). suit: same suit set twice in a row locks the suits;
    # suit_and_sequence (激縛り): same suits and the next step up locks both;
    # number: the next step up locks the sequence (each follow exactly one step stronger).
    lock: str = "off"
    # D-i: a lone joker may be played on a locked field; it then breaks the lock.
    lone_joker_ignores_lock: bool = True
    lone_joker_clears_lock: bool = True
    # D15 / D-h: spade-3 return. single_joker: the real ♠3 alone beats a lone joker;
    # any_joker: also any play holding a joker (count waived). spade3_clears: the field clears.
    spade3_return: str = "off"
    spade3_clears: bool = True
    # D16 / D-n: J-back / 11-back. declared: seed ⑤, a play holding a J reverses strength when
    # the player declares "J-BACK"; any: every play holding a J (stairs too) reverses without a
    # declaration; non_stairs: the same outside stairs. Reversal lasts until the field clears.
    jack_back: str = "off"
    # D16 (seed ⑤): J-back uses allowed per deal (whole table); None: unlimited.
    jack_back_limit: Optional[int] = None
    # D17 / D-m: 5-skip. per_card: one player skipped per 5; per_play: one if any 5.
    five_skip: str = "off"
    # D18, D19, D21, D22 / D-p
    seven_pass: bool = False
    ten_discard: bool = False
    double_nine_cut: bool = False
    triple_nine_revolution: bool = False
    # D20 / D-o: the rank that reverses the direction of play (9, 6 in UECda's option), and
    # whether an even number of them cancels out.
    reverse_rank: Optional[int] = None
    reverse_even_cancels: bool = False
    # D24 / D-k: finishing with any of these is a foul finish (the phases rank the player).
    forbidden_finish: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _check(self.jokers in (0, 1, 2), "jokers", self.jokers)
        _check(self.stairs in STAIRS_FORMS, "stairs", self.stairs)
        _check(self.lock in LOCKS, "lock", self.lock)
        _check(self.spade3_return in SPADE3_RETURNS, "spade3_return", self.spade3_return)
        _check(self.jack_back in JACK_BACKS, "jack_back", self.jack_back)
        _check(self.five_skip in FIVE_SKIPS, "five_skip", self.five_skip)
        _check(self.reverse_rank in (None, 6, 9), "reverse_rank", self.reverse_rank)
        _check(self.set_revolution_min >= 2, "set_revolution_min", self.set_revolution_min)
        _check(self.stairs_revolution_min is None or self.stairs_revolution_min >= 3,
               "stairs_revolution_min", self.stairs_revolution_min)
        _check(self.jack_back_limit is None or self.jack_back_limit >= 0,
               "jack_back_limit", self.jack_back_limit)
        ff = tuple(self.forbidden_finish)
        _check(all(f in FORBIDDEN_FINISHES for f in ff), "forbidden_finish", ff)
        object.__setattr__(self, "forbidden_finish", ff)

    @property
    def suits_matter(self) -> bool:
        """Whether the suit a joker stands for in a set changes anything (only the suit locks)."""
        return self.lock in ("suit", "suit_and_sequence")

    def with_options(self, options: Mapping[str, Any]) -> "PlayRules":
        """A copy with the named options changed (names not in PlayRules are ignored)."""
        known = {k: v for k, v in options.items() if k in self.__dataclass_fields__}
        if "forbidden_finish" in known:
            known["forbidden_finish"] = tuple(known["forbidden_finish"])
        return replace(self, **known)


def _check(ok: bool, name: str, value: object) -> None:
    if not ok:
        raise ValueError(f"option {name}: {shown(value)} is not allowed")


SEED = PlayRules()
SEED_FULL = replace(SEED, stairs="seed", jack_back="declared")
UECDA = PlayRules(jokers=1, stairs="standard", set_revolution_min=4, stairs_revolution_min=5,
                  eight_cut=True, eight_cut_in_stairs=True, strongest_play_clears=False,
                  lock="suit", lone_joker_ignores_lock=True, lone_joker_clears_lock=True,
                  spade3_return="single_joker", spade3_clears=True, jack_back="off",
                  forbidden_finish=())

PRESETS: dict[str, PlayRules] = {"seed": SEED, "seed_full": SEED_FULL, "uecda": UECDA}


def play_rules(preset: str = "seed", **options: Any) -> PlayRules:
    """The preset's PlayRules with single options overridden."""
    return PRESETS[preset].with_options(options)
