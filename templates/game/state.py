"""The state, declared once (engine/state.py): the Structs below are the JSON, the decoders,
the encoder and the published schema. invariants.py checks what a type cannot say."""
from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Optional

from msgspec import Struct

from engine.cards import deck_52
from engine.state import Card, Cards, Count, GameState, PlayerId, options_struct

from .options import GAME_ID, OPTIONS

VERSION = 1  # bumped whenever the state's JSON changes
PHASES = ("play", "finished")
PREFIX = "".join(p.capitalize() for p in GAME_ID.split("_"))  # struct names follow the id
if TYPE_CHECKING:
    # Built at run time from the declarations, so a type checker reads their base types, and
    # the options as the Struct they make: declare each option here too, with its type
    # (tests/engine/test_options_types.py holds the two the same).
    Version = int
    Phase = str

    class Options(Struct, frozen=True):
        hand_size: int
else:
    Version = Literal[VERSION]
    Phase = Literal[PHASES]
    Options = options_struct(f"{PREFIX}Options", OPTIONS)

# 1.1: ranks low to high (A high); suits break a tie of ranks, S highest.
RANK_ORDER = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_ORDER = ("C", "D", "H", "S")
DECK = tuple(deck_52())


class Play(Struct, frozen=True, forbid_unknown_fields=True):
    """One seat's act in the round: the card played, or null for a pass (2.3)."""
    player: PlayerId
    card: Optional[Card]


class RoundResult(Struct, frozen=True, forbid_unknown_fields=True):
    """A finished round (3.1): every act, and who won it (null: nobody played a card)."""
    round: Count
    plays: tuple[Play, ...]
    winner: Optional[PlayerId]


class Match(Struct, frozen=True, forbid_unknown_fields=True):
    """Every deal stands alone (the game declares no `match`): nothing is carried between deals."""


class State(GameState, frozen=True, tag=GAME_ID):
    version: Version
    options: Options
    phase: Phase
    match: Match
    hands: dict[str, Cards]           # each seat's cards (hidden from the others)
    stock: Cards                      # the undealt cards, face down, never used (1.2)
    turn: Optional[PlayerId]          # who acts now; null once finished
    leader: PlayerId                  # who began this round (3.2)
    round: Count                      # the round in play, from 1
    plays: tuple[Play, ...]           # this round's acts so far, in order
    points: dict[str, Count]          # rounds won this deal (3.1)
    last_round: Optional[RoundResult]



def beats(a: str, b: str) -> bool:
    """1.1: card `a` is higher than card `b` (rank, then suit)."""
    return (RANK_ORDER.index(a[1:]), SUIT_ORDER.index(a[0])) > \
        (RANK_ORDER.index(b[1:]), SUIT_ORDER.index(b[0]))
