"""The Man state, declared once (engine/state.py): the Structs below are the JSON, the decoder,
the encoder and the published schema. `invariants.py` checks what a type cannot say: all 52 cards
exactly once, every id seated, per-player maps complete, phase consistency."""
from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal, Optional

from msgspec import Meta, Struct

from engine.cards import SUITS, deck_52
from engine.state import Card, Cards, Count, GameState, Int, PlayerId, options_struct

from .actions import CALLS
from .options import OPTIONS

VERSION = 3  # 2: let_go, drew_penalty, match over/winner; 3: stock_known (physical deals)
PHASES = ("opening", "play", "chain", "finished")
KINDS = ("tanki", "mekuri", "kaeshi")  # 5.5 multipliers, each ×2
RESULTS = ("man", "chombo", "draw")
if TYPE_CHECKING:
    # Built at run time from the declarations, so a type checker reads their base types, and
    # the options as the Struct they make (tests/engine/test_options_types.py holds the two
    # the same).
    Kind = str
    ResultKind = str
    Suit = str
    Call = str
    Version = int
    Phase = str

    class ManOptions(Struct, frozen=True):
        violations: Literal["reject", "chombo"]
        calls: Literal["automatic", "declared"]
        no_opening_match: Literal["flip_again", "dealer_left_starts"]
        multi_card_effects: Literal["per_card", "once"]
        penalty_draw_ends_turn: bool
        stock_exhausted: Literal["reshuffle", "draw_game"]
        man_window: Literal["next_action", "until_covered"]
        let_pass: Literal["blocked", "reopens"]
        dealer_after_no_winner: Literal["same", "left"]
        match_games: Optional[int]
        match_target: Optional[int]
        start_card: Literal["in_deal", "by_dealer"]
else:
    Kind = Literal[KINDS]
    ResultKind = Literal[RESULTS]
    Suit = Literal[SUITS]
    Call = Literal[tuple(CALLS)]
    Version = Literal[VERSION]
    Phase = Literal[PHASES]
    ManOptions = options_struct("ManOptions", OPTIONS)
DECK_ORDER = {c: i for i, c in enumerate(deck_52())}  # an unknown stock's canonical order


class ManCall(Struct, frozen=True, forbid_unknown_fields=True):
    """One man call of a chain (5.4): who, which ×2 kinds applied (5.5), 2 ** len(kinds)."""
    player: PlayerId
    kinds: tuple[Kind, ...]
    multiplier: Count


def call_multiplier(kinds: tuple[str, ...]) -> int:
    """5.5: each kind of a call (tanki, mekuri, kaeshi) doubles it."""
    return 1 << len(kinds)


def make_call(player: str, kinds: tuple[str, ...]) -> ManCall:
    return ManCall(player, kinds, call_multiplier(kinds))


class ManChain(Struct, frozen=True, forbid_unknown_fields=True):
    """An open (or, after the end, the resolved) man chain on the top card."""
    card: Card
    against: PlayerId  # the card's player: loser of a single man (5.4)
    calls: tuple[ManCall, ...]
    declined: tuple[PlayerId, ...]  # who declined since the last call


class ManResult(Struct, frozen=True, forbid_unknown_fields=True):
    kind: ResultKind
    winner: Optional[PlayerId]
    loser: Optional[PlayerId]
    stake: Int
    offender: Optional[PlayerId]
    rule: Optional[str]
    code: Optional[str]
    reason: Optional[str]


class ManMatch(Struct, frozen=True, forbid_unknown_fields=True):
    totals: dict[str, Int]  # before this game; after it once finished
    games_played: Count
    over: bool                    # 7.2: this game ended the match
    winner: Optional[PlayerId]    # 7.2: the match's winner once it is over


class ManLetGo(Struct, frozen=True, forbid_unknown_fields=True):
    """5.3 (let_pass=blocked): `player` let a card of `number` played by `by` go, and has not
    changed their hand since; every player the window held is recorded, so it tells nothing."""
    player: PlayerId
    number: Annotated[int, Meta(ge=1, le=13)]
    by: PlayerId


class ManState(GameState, frozen=True, tag="man"):
    version: Version
    options: ManOptions
    phase: Phase
    match: ManMatch
    dealer: PlayerId
    stock: Cards                  # top card first; with stock_known false, the unseen cards
    # Physical deals (2.7): false when the stock's order is unknown; `stock` then holds the
    # cards nobody has seen, in deck order (a set, not an order), and each draw names its cards.
    stock_known: bool
    discard: Cards                # bottom first; the last card is the top card
    hands: dict[str, Cards]
    start_cards: Cards            # 2.3: every card the dealer turned, effect cards included
    top_by: Optional[PlayerId]    # who played the top card; None: a start card (5.2)
    top_manable: bool             # False for start cards and first-turn plays (5.2)
    direction: Literal[1, -1]     # 1 in seat order, -1 after an odd number of Js
    turn: Optional[PlayerId]      # None during the opening race (2.4)
    pending_draw: Count           # 3.8
    named_suit: Optional[Suit]  # 3.1: the suit named with the 8 on top
    first_turn: dict[str, bool]   # True until the seat's first turn ends (3.4, 5.2)
    drew: bool                    # the player on turn drew this turn (3.3)
    drawn_cards: Cards            # what they drew this turn (5.5 mekuri)
    drew_penalty: bool            # that draw was a pending draw (3.8): never mekuri (5.5)
    reach: dict[str, bool]        # reach status as of each seat's last call (6.1)
    last_call: dict[str, Optional[Call]]
    public: dict[str, bool]       # 3.6: ended a turn with 8+ cards
    shown: dict[str, bool]        # 5.4: showed the hand with a man call
    window: tuple[PlayerId, ...]  # 5.3: who may still man the top card
    let_go: tuple[ManLetGo, ...]  # 5.3: numbers let go, until the player's hand changes
    chain: Optional[ManChain]
    reshuffles: Count             # 3.9: label counter of reshuffle streams
    result: Optional[ManResult]
    next_dealer: Optional[PlayerId]  # 7.1

    @property
    def top(self) -> str:
        return self.discard[-1]
