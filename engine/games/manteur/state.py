"""The Manteur state, declared once (engine/state.py): the Structs below are the JSON, the
decoders, the encoder and the published schema. `invariants.py` checks what a type cannot say:
every card of the deck in use exactly once, ids seated, per-player maps complete, the round's
declarations valid and strictly rising (B8), phase consistency."""
from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Optional

from msgspec import Struct

from engine.cards import JOKERS, deck_32, deck_52
from engine.state import Card, Cards, Count, GameState, PlayerId, options_struct

from .declarations import STANDARD_RANKS, TYPES, Declaration
from .options import OPTIONS

VERSION = 3  # 2: stock_known and the deal phase (physical deals, B.6); 3: options.violations (B19)
# deal: a physical game with an unknown stock waits for the new round's five cards (B.6)
PHASES = ("deal", "exchange", "declare", "respond", "finished")
if TYPE_CHECKING:
    # Built at run time from the declarations, so a type checker reads their base types, and
    # the options as the Struct they make (tests/engine/test_options_types.py holds the two
    # the same).
    Rank = str
    DeclarationType = str
    Version = int
    Phase = str

    class ManteurOptions(Struct, frozen=True):
        deck: Literal["standard52", "piquet32"]
        jokers: int
        flush_above_full_house: Optional[bool]
        allow_straights: bool
        allow_flushes: bool
        min_declaration: Literal["high_card", "one_pair"]
        opener_may_exchange: bool
        next_round_starter: Literal["loser", "next_player"]
        ace_low_straight: bool
        penalty_limit: int
        mode: Literal["penalty", "elimination"]
        direction: Literal["cw", "ccw"]
        violations: Literal["reject", "referee"]
else:
    Rank = Literal[STANDARD_RANKS]
    DeclarationType = Literal[TYPES]
    Version = Literal[VERSION]
    Phase = Literal[PHASES]
    ManteurOptions = options_struct("ManteurOptions", OPTIONS)


class ManteurDeclaration(Struct, frozen=True, forbid_unknown_fields=True):
    """A declaration as B10 writes it: `{type, ranks, kickers}`."""
    type: DeclarationType
    ranks: tuple[Rank, ...]
    kickers: tuple[Rank, ...]

    def model(self) -> Declaration:
        return Declaration(self.type, self.ranks, self.kickers)


class ManteurCall(Struct, frozen=True, forbid_unknown_fields=True):
    """One declaration of the round (B8), by whom, after exchanging how many cards (B15)."""
    player: PlayerId
    declaration: ManteurDeclaration
    exchanged: Count


class ManteurProof(Struct, frozen=True, forbid_unknown_fields=True):
    """B12: the cards shown, and what each joker among them stands for."""
    cards: Cards
    jokers: dict[str, Card]


class ManteurReveal(Struct, frozen=True, forbid_unknown_fields=True):
    """The end of a round by a challenge (B14): the hand revealed, the verdict, who lost."""
    round: Count
    declarer: PlayerId
    challenger: PlayerId
    declaration: ManteurDeclaration
    hand: Cards
    truthful: bool
    proof: Optional[ManteurProof]
    loser: PlayerId


class ManteurResult(Struct, frozen=True, forbid_unknown_fields=True):
    """B17 / B-g: who reached the limit (penalty mode) or who is left (elimination)."""
    loser: PlayerId
    winner: Optional[PlayerId]


class ManteurMatch(Struct, frozen=True, forbid_unknown_fields=True):
    penalties: dict[str, Count]   # B17: penalty points so far
    rounds: Count                 # rounds finished by a challenge


class ManteurState(GameState, frozen=True, tag="manteur"):
    version: Version
    options: ManteurOptions
    phase: Phase
    match: ManteurMatch
    round: Count                  # the round in play, from 1
    starter: PlayerId             # who was dealt this round's hand (B3, B16)
    holder: PlayerId              # who holds the hand (the last declarer while others respond)
    hand: Cards                   # the five cards travelling face down
    stock: Cards                  # top card first (B15); unknown order: the unseen cards
    # B.6: false for a physical deal, whose stock's order nobody knows: `stock` then holds the
    # cards not in the hand nor the discards, in deck order, and each draw names its cards.
    stock_known: bool
    discard: Cards                # exchanged cards, face down (B18)
    exchanged: Optional[Count]    # the holder's exchange this turn; None: not yet
    calls: tuple[ManteurCall, ...]  # this round's declarations, low to high (B8)
    eliminated: tuple[PlayerId, ...]  # B-g elimination mode: who is out, in order
    reshuffles: Count             # B18: label counter of reshuffle streams
    last_round: Optional[ManteurReveal]
    result: Optional[ManteurResult]


def deck_of(options: ManteurOptions) -> list[str]:
    """B1, B-a: the cards of the game."""
    base = deck_32() if options.deck == "piquet32" else deck_52()
    return base + list(JOKERS[:options.jokers])
