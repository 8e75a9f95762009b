"""The Man state, declared once (engine/state.py): the Structs below are the JSON, the decoder,
the encoder and the published schema. `invariants` checks what a type cannot say: all 52 cards
exactly once, every id seated, per-player maps complete, phase consistency."""
from __future__ import annotations

from typing import Annotated, Literal, Optional

from msgspec import Meta, Struct

from engine.cards import SUITS, deck_52
from engine.errors import InvalidState, shown
from engine.state import Card, Cards, Count, GameState, Int, PlayerId, options_struct

from .actions import CALLS
from .options import OPTIONS

VERSION = 3  # 2: let_go, drew_penalty, match over/winner; 3: stock_known (physical deals)
PHASES = ("opening", "play", "chain", "finished")
KINDS = ("tanki", "mekuri", "kaeshi")  # 5.5 multipliers, each ×2
RESULTS = ("man", "chombo", "draw")
ManOptions = options_struct("ManOptions", OPTIONS)
DECK_ORDER = {c: i for i, c in enumerate(deck_52())}  # an unknown stock's canonical order


class ManCall(Struct, frozen=True, forbid_unknown_fields=True):
    """One man call of a chain (5.4): who, which ×2 kinds applied (5.5), 2 ** len(kinds)."""
    player: PlayerId
    kinds: tuple[Literal[KINDS], ...]
    multiplier: Count


def make_call(player: str, kinds: tuple[str, ...]) -> ManCall:
    return ManCall(player, kinds, 2 ** len(kinds))


class ManChain(Struct, frozen=True, forbid_unknown_fields=True):
    """An open (or, after the end, the resolved) man chain on the top card."""
    card: Card
    against: PlayerId  # the card's player: loser of a single man (5.4)
    calls: tuple[ManCall, ...]
    declined: tuple[PlayerId, ...]  # who declined since the last call


class ManResult(Struct, frozen=True, forbid_unknown_fields=True):
    kind: Literal[RESULTS]
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
    version: Literal[VERSION]
    options: ManOptions
    phase: Literal[PHASES]
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
    named_suit: Optional[Literal[SUITS]]  # 3.1: the suit named with the 8 on top
    first_turn: dict[str, bool]   # True until the seat's first turn ends (3.4, 5.2)
    drew: bool                    # the player on turn drew this turn (3.3)
    drawn_cards: Cards            # what they drew this turn (5.5 mekuri)
    drew_penalty: bool            # that draw was a pending draw (3.8): never mekuri (5.5)
    reach: dict[str, bool]        # reach status as of each seat's last call (6.1)
    last_call: dict[str, Optional[Literal[tuple(CALLS)]]]
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


def _bad(message: str, path: str) -> InvalidState:
    return InvalidState(message, f"state.{path}")


def invariants(s: ManState) -> None:
    players = s.players
    if not 2 <= len(players) <= 8 or len(set(players)) != len(players):
        raise _bad("2-8 distinct ids", "players")
    seated = set(players)
    for name in ("hands", "first_turn", "reach", "last_call", "public", "shown"):
        if getattr(s, name).keys() != seated:
            raise _bad("must have exactly one entry per player", name)
    if s.match.totals.keys() != seated:
        raise _bad("must have exactly one entry per player", "match.totals")
    for path, who in (("dealer", s.dealer), ("top_by", s.top_by), ("turn", s.turn),
                      ("next_dealer", s.next_dealer)):
        if who is not None and who not in seated:
            raise _bad(f"{shown(who)} is not a seated player", path)
    if s.status != ("finished" if s.phase == "finished" else "in_progress"):
        raise _bad("does not agree with phase", "status")
    everything = [*s.stock, *s.discard]
    for h in s.hands.values():
        everything += h
    if len(everything) != 52 or len(set(everything)) != 52 or any(c[0] not in SUITS for c in everything):
        raise _bad("the 52 cards (no jokers) must each be in exactly one place", "hands")
    if not s.stock_known and list(s.stock) != sorted(s.stock, key=DECK_ORDER.__getitem__):
        raise _bad("an unknown stock is the unseen cards in deck order (2.7)", "stock")
    if not s.discard:
        raise _bad("the discard pile always holds the top card", "discard")
    if not s.start_cards:
        raise _bad("at least one start card", "start_cards")
    if s.top_by is None and s.top_manable:
        raise _bad("a start card is never manable (5.2)", "top_manable")
    if (s.phase in ("play", "chain")) != (s.turn is not None) and s.phase != "finished":
        raise _bad("a player is on turn exactly during play", "turn")
    if s.drawn_cards:
        if s.turn is None or any(s.hands[s.turn].count(c) < 1 for c in s.drawn_cards):
            raise _bad("drawn cards must be in the hand of the player on turn", "drawn_cards")
    if len(set(s.window)) != len(s.window) or not seated.issuperset(s.window):
        raise _bad("seated players, none twice", "window")
    if len(set(s.let_go)) != len(s.let_go) or any(
            x.player not in seated or x.by not in seated or x.player == x.by for x in s.let_go):
        raise _bad("seated players, another's card, none twice", "let_go")
    if s.drew_penalty and not s.drew:
        raise _bad("a penalty draw is the turn's draw", "drew_penalty")
    c = s.chain
    if c is not None:
        if c.card != s.top:
            raise _bad("a man chain is on the top card", "chain.card")
        callers = [call.player for call in c.calls]
        # 5.4: the first call is on the card, so never by its player; a later one is on a
        # man, and the card's player may make it
        if not callers or c.against == callers[0] or len(set(callers)) != len(callers) \
                or not seated.issuperset([c.against, *callers, *c.declined]):
            raise _bad("seated callers, each once, the first not the card's player's",
                       "chain.calls")
        for i, call in enumerate(c.calls):
            if len(set(call.kinds)) != len(call.kinds) or call.multiplier != 2 ** len(call.kinds):
                raise _bad("distinct kinds; multiplier 2 to their number", f"chain.calls[{i}]")
    if s.phase == "chain" and c is None:
        raise _bad("the chain phase needs a chain", "chain")
    r = s.result
    if (s.phase == "finished") != (r is not None):
        raise _bad("a result exactly when the game is finished", "result")
    if r is not None and not seated.issuperset(x for x in (r.winner, r.loser, r.offender) if x):
        raise _bad("seated players only", "result")
    if (s.phase == "finished") != (s.next_dealer is not None):
        raise _bad("a next dealer exactly when the game is finished", "next_dealer")
    m = s.match
    if (m.winner is not None) != m.over or (m.over and (r is None or m.winner not in seated)):
        raise _bad("a seated winner exactly when a finished game ends the match", "match.winner")
