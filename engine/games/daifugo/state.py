"""The Daifugo state, declared once (engine/state.py). One state covers one deal; `match`
carries what the deal needs of the ones before (deal number, points, the last finishing
order), `next_match` what the next deal request passes back. `invariants.py` checks what a type
cannot say: every card of the deck exactly once, ids seated, maps complete, phase consistency."""
from __future__ import annotations

from typing import Literal, Optional

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
    """The top play of the field, as read (engine.daifugo.plays.Play) and who made it."""
    by: PlayerId
    cards: Cards
    form: Literal[FORMS]
    jokers: tuple[str, ...]          # stand-ins, in the order the jokers appear (D7)
    rank: Optional[str]
    suit: Optional[Literal[SUITS]]
    low: Int
    high: Int
    stairs_form: Optional[Literal["standard", "seed"]]


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
    titles: dict[str, Literal[TITLES]]
    points: dict[str, Int]


class DaifugoState(GameState, frozen=True, tag="daifugo"):
    version: Literal[VERSION]
    options: DaifugoOptions
    phase: Literal[PHASES]
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
    locked_suits: Optional[tuple[Literal[SUITS], ...]]  # D14
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
    return s.options.match_deals is not None and s.match.deal >= s.options.match_deals
