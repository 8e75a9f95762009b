"""One Manillen deal, declared once (engine/state.py): these Structs are its JSON, decoders,
encoder and published schema; ids name the players. `invariants.py` checks what a type cannot say;
the finished state's `next_match` is what the next deal request passes back as `match`."""
from __future__ import annotations

from collections import Counter
from typing import Annotated, Literal, Optional

from msgspec import Meta, Struct

from engine.cards import deck_32
from engine.state import GameState, PlayerId, options_struct

from .options import OPTIONS
from .result import ManillenMatch, ManillenResult, Multiplier

VERSION = 4  # 4: options.violations and revoked_by (referee mode, A38, A39)
PHASES = ("blind", "trump", "doubling", "play", "over")
TRUMPS = ("S", "H", "D", "C", "no_trump")
DECK = Counter(deck_32())
Card = Literal[tuple(deck_32())]                  # the 32-card deck, canonical notation
Cards = tuple[Card, ...]
Pile = Annotated[Cards, Meta(max_length=2)]       # top card (face up) first, face-down under it
ManillenOptions = options_struct("ManillenOptions", OPTIONS)
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


class ManillenState(GameState, tag="manillen"):
    version: Literal[VERSION]
    players: Annotated[tuple[PlayerId, ...], Meta(min_length=2, max_length=6)]  # clockwise
    options: ManillenOptions
    phase: Literal[PHASES]
    match: ManillenMatch
    dealer: PlayerId
    cut: tuple[ManillenCut, ...]      # A5 (first_dealer: cut): the cards shown, in order
    hands: dict[str, Cards]
    table: Optional[dict[str, Annotated[tuple[Pile, ...], Meta(min_length=4, max_length=4)]]]
    leftover: Annotated[Cards, Meta(max_length=2)]   # 3, 6 players (A34, A35): the dealer's
    trump: Optional[Literal[TRUMPS]]                 # None until named
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
