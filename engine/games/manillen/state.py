"""One Manillen deal, declared once (engine/state.py): these Structs are its JSON, decoders,
encoder and published schema; ids name the players. `invariants.py` checks what a type cannot say;
the finished state's `next_match` is what the next deal request passes back as `match`."""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Annotated, Literal, Optional

from msgspec import Meta, Struct

from engine.cards import deck_32
from engine.state import GameState, PlayerId, options_struct

from .options import OPTIONS
from .result import ManillenMatch, ManillenResult, Multiplier

VERSION = 4  # 4: options.violations and revoked_by (referee mode, A38, A39)
PHASES = ("blind", "trump", "doubling", "play", "over")
TRUMPS = ("S", "H", "D", "C", "no_trump")
DECK = Counter(deck_32())
if TYPE_CHECKING:
    # Built at run time from the declarations, so a type checker reads their base types, and
    # the options as the Struct they make (tests/engine/test_options_types.py holds the two
    # the same).
    Card = str
    Trump = str
    Version = int
    Phase = str

    class ManillenOptions(Struct, frozen=True):
        first_dealer: Literal["first_player", "cut"]
        french_form: Literal["none", "muette", "parlee"]
        deal_pattern: Literal["3-2-3", "3-3-2", "2-2-2-2", "4-4"]
        allow_pass_trump_to_partner: bool
        blind_no_trump: bool
        blind_no_trump_multiplier: int
        max_doublings: Optional[int]
        redouble_by: Literal["dealer_side", "dealer_partner"]
        multiplier_cap: Optional[int]
        double_by: Literal["either_opponent", "eldest_only"]
        must_trump_when_partner_winning: bool
        must_overtake_in_suit: Literal["opponent_winning", "trump_lead_only", "never"]
        undertrump: Literal["forbidden_unless_forced", "allowed", "required_if_holding_trump"]
        overtrump_on_trump_lead_even_if_partner_wins: bool
        tie_carry_multiplier: int
        tie_carry_cumulative: bool
        trick_bonus_points: int
        score_threshold: Optional[int]
        target_points: int
        booms_to_win: int
        partner_peek_penalty: Literal["redeal_next_dealer", "redeal_same_dealer"]
        violations: Literal["reject", "referee"]
else:
    Card = Literal[tuple(deck_32())]              # the 32-card deck, canonical notation
    Trump = Literal[TRUMPS]
    Version = Literal[VERSION]
    Phase = Literal[PHASES]
    ManillenOptions = options_struct("ManillenOptions", OPTIONS)
Cards = tuple[Card, ...]
Pile = Annotated[Cards, Meta(max_length=2)]       # top card (face up) first, face-down under it
_PART = {"frozen": True, "forbid_unknown_fields": True}


class ManillenCut(Struct, **_PART):
    player: PlayerId                  # A5: who cut, showing `card`
    card: Card


class ManillenDoubling(Struct, **_PART):
    calls: tuple[PlayerId, ...]       # who doubled, redoubled …, in order
    turn: Optional[PlayerId]          # who is asked now (the doubling phase only)


class ManillenTrick(Struct, **_PART):
    leader: PlayerId
    cards: Annotated[Cards, Meta(max_length=5)]   # in play order


class ManillenLastTrick(Struct, **_PART):
    leader: PlayerId
    cards: Annotated[Cards, Meta(min_length=2, max_length=6)]
    winner: PlayerId


class ManillenState(GameState, frozen=True, tag="manillen"):
    version: Version
    players: Annotated[tuple[PlayerId, ...], Meta(min_length=2, max_length=6)]  # clockwise
    options: ManillenOptions
    phase: Phase
    match: ManillenMatch
    dealer: PlayerId
    cut: tuple[ManillenCut, ...]      # A5 (first_dealer: cut): the cards shown, in order
    hands: dict[str, Cards]
    table: Optional[dict[str, Annotated[tuple[Pile, ...], Meta(min_length=4, max_length=4)]]]
    leftover: Annotated[Cards, Meta(max_length=2)]   # 3, 6 players (A34, A35): the dealer's
    trump: Optional[Trump]                           # None until named
    blind: bool
    trump_passed: bool
    turned: Optional[Card]            # A37 (French form): the last card dealt, fixing trumps
    doubling: ManillenDoubling
    multiplier: Multiplier
    trick: Optional[ManillenTrick]                   # the trick in progress (play phase)
    last_trick: Optional[ManillenLastTrick]
    won: dict[str, Cards]             # captured cards (never in a view, A27 note)
    thrown_in: bool
    revoked_by: Optional[PlayerId]    # A39 (referee mode): whose revoke lost the deal
    result: Optional[ManillenResult]  # derived: status, multiplier, result and the next two
    next_match: Optional[ManillenMatch]
    next_dealer: Optional[PlayerId]
