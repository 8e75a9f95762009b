"""The Daifugo state, declared once (engine/state.py). One state covers one deal; `match`
carries what the deal needs of the ones before (deal number, points, the last finishing
order), `next_match` what the next deal request passes back. `invariants.py` checks what a type
cannot say: every card of the deck exactly once, ids seated, maps complete, phase consistency."""
from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Optional

import msgspec
from msgspec import Struct

from engine.cards import SUITS
from engine.state import Cards, Count, GameState, Int, PlayerId, options_struct

from .options import OPTIONS
from .rules import FORBIDDEN_FINISHES

VERSION = 4  # 2: passes_in_a_row (D9, leader_may_pass); 3: pass_limit_order (physical deals);
# 4: options.violations (referee mode, D26); later, with a default so earlier version-4
# states still load: options.match_deals (D29)
PHASES = ("exchange", "play", "give", "discard", "finished")
TITLES = ("daifugo", "fugo", "heimin", "hinmin", "daihinmin")
FORMS = ("single", "set", "stairs")

if TYPE_CHECKING:
    # Built at run time from the declarations, so a type checker reads their base types, and
    # the options as the Struct they make (tests/engine/test_options_types.py holds the two
    # the same).
    Form = str
    StairsForm = str
    Suit = str
    Title = str
    Version = int
    Phase = str

    class DaifugoOptions(Struct, frozen=True):
        jokers: int
        first_leader: Literal["random_then_daihinmin", "diamond3_first_then_daihinmin",
                              "spade3_first", "diamond3_every_game"]
        next_leader: Literal["daihinmin", "daifugo"]
        dealer: Literal["loser", "daifugo"]
        stairs: Literal["off", "seed", "standard"]
        set_revolution_min: int
        stairs_revolution_min: Optional[int]
        eight_cut: bool
        eight_cut_in_stairs: bool
        clear_requires_last_player_pass: bool
        strongest_play_clears: bool
        pass_locks_until_clear: bool
        leader_may_pass: bool
        spade3_return: Literal["off", "single_joker", "any_joker"]
        spade3_clears: bool
        lone_joker_ignores_lock: bool
        lone_joker_clears_lock: bool
        lock: Literal["off", "suit", "suit_and_sequence", "number"]
        miyako_ochi: bool
        five_skip: Literal["off", "per_card", "per_play"]
        jack_back: Literal["off", "declared", "any", "non_stairs"]
        jack_back_limit: Optional[int]
        reverse_rank: Optional[Literal[6, 9]]
        reverse_even_cancels: bool
        seven_pass: bool
        ten_discard: bool
        double_nine_cut: bool
        triple_nine_revolution: bool
        exchange: Literal["none", "2_1", "1_1", "1_0"]
        exchange_top_gives: Literal["any", "weakest"]
        tribute_suit_order: Literal["SHDC", "SHCD", "SDHC", "SDCH", "SCHD", "SCDH", "HSDC", "HSCD",
                                    "HDSC", "HDCS", "HCSD", "HCDS", "DSHC", "DSCH", "DHSC", "DHCS",
                                    "DCSH", "DCHS", "CSHD", "CSDH", "CHSD", "CHDS", "CDSH", "CDHS"]
        rank_points: Literal["2/1/0/-1/-2", "5/4/3/2/1", "1/0/0/0/-1", "0/0/0/0/0"]
        violations: Literal["reject", "referee"]
        forbidden_finish: tuple[Literal["joker", "top_rank", "eight", "spade3_return",
                                        "jack"], ...]
        match_deals: Optional[int] = None
else:
    Form = Literal[FORMS]
    StairsForm = Literal["standard", "seed"]
    Suit = Literal[SUITS]
    Title = Literal[TITLES]
    Version = Literal[VERSION]
    Phase = Literal[PHASES]
    # Declared after the others with a default, so version-4 states written before it still load.
    _LATER = ("match_deals",)
    _base = options_struct("_DaifugoOptionsBase", [o for o in OPTIONS
                                                  if o.name not in ("forbidden_finish", *_LATER)])
    _later = options_struct("_DaifugoOptionsLater", [o for o in OPTIONS if o.name in _LATER])
    DaifugoOptions = msgspec.defstruct(
        "DaifugoOptions",
        [(f.name, f.type) for f in msgspec.structs.fields(_base)]
        + [("forbidden_finish", tuple[Literal[FORBIDDEN_FINISHES], ...])]
        + [(f.name, f.type, None) for f in msgspec.structs.fields(_later)],
        frozen=True, forbid_unknown_fields=True)


class DaifugoPlay(Struct, frozen=True, forbid_unknown_fields=True):
    """The top play of the field, as read (engine.games.daifugo.plays.Play) and who made it."""
    by: PlayerId
    cards: Cards
    form: Form
    jokers: tuple[str, ...]          # stand-ins, in the order the jokers appear (D7)
    rank: Optional[str]
    suit: Optional[Suit]
    low: Int
    high: Int
    stairs_form: Optional[StairsForm]


class DaifugoOwed(Struct, frozen=True, forbid_unknown_fields=True):
    """A follow-up the player of the last play still owes (D18 7-pass, D19 10-discard)."""
    player: PlayerId
    give: Count                      # cards to give `receiver`
    discard: Count                   # cards to discard after that
    receiver: Optional[PlayerId]
    skips: Count                     # D17 skips to apply when the turn moves on


class DaifugoExchange(Struct, frozen=True, forbid_unknown_fields=True):
    """One pair of the card exchange (D11): `lower` gave `tribute` (their strongest) to
    `upper`, who returns `count` cards (`returned`, None until given)."""
    upper: PlayerId
    lower: PlayerId
    count: Count
    tribute: Cards
    returned: Optional[Cards]


class DaifugoMatch(Struct, frozen=True, forbid_unknown_fields=True):
    deal: Count                      # this deal's number, from 1
    points: dict[str, Int]           # running points before this deal (after it, in next_match)
    finish_order: tuple[PlayerId, ...]  # the previous deal's order (); none: no exchange


class DaifugoResult(Struct, frozen=True, forbid_unknown_fields=True):
    finish_order: tuple[PlayerId, ...]
    titles: dict[str, Title]
    points: dict[str, Int]


class DaifugoState(GameState, frozen=True, tag="daifugo"):
    version: Version
    options: DaifugoOptions
    phase: Phase
    match: DaifugoMatch
    hands: dict[str, Cards]
    leader: Optional[PlayerId]       # who led this deal (D4, U2); None during the exchange
    turn: Optional[PlayerId]         # on turn in play; the owing player in give/discard
    direction: Literal[1, -1]        # D20
    top: Optional[DaifugoPlay]       # None: the field is clear
    pile: Cards                      # every card played on the current field
    discards: Cards                  # cleared fields and 10-discards, face up
    revolution: bool                 # D12
    jack_back: bool                  # D16
    locked_suits: Optional[tuple[Suit, ...]]  # D14
    sequence_lock: bool              # D14
    passed: tuple[PlayerId, ...]     # passed since the last play (with the pass lock: since the clear)
    passed_field: tuple[PlayerId, ...]  # passed since the field cleared (D15)
    jack_backs_used: Count           # D16 declarations this deal
    finished: tuple[PlayerId, ...]   # ranked from the top, in finishing order
    fallen: tuple[PlayerId, ...]     # ranked from the bottom (D23, D24, D9's pass limit): the first is last
    owed: Optional[DaifugoOwed]
    exchange: tuple[DaifugoExchange, ...]
    result: Optional[DaifugoResult]
    next_match: Optional[DaifugoMatch]
    # passes since the last play of this deal, across clears (D9, leader_may_pass: the UECda
    # server ends the deal at 20)
    passes_in_a_row: Count
    # D9 in a physical deal (hands given, leader_may_pass): the referee's order in which the
    # players left at the pass limit take the open places; None: the seeded shuffle
    pass_limit_order: Optional[tuple[PlayerId, ...]]


def match_over(s: DaifugoState) -> bool:
    """D29: this deal is the match's last (`match_deals`), whether or not it is finished."""
    return last_deal(s.options, s.match)


def last_deal(options: DaifugoOptions, match: DaifugoMatch) -> bool:
    """D29: the deal `match` begins is the match's last (`match_deals`)."""
    return options.match_deals is not None and match.deal >= options.match_deals
