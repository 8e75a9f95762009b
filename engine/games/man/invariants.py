"""What a Man state must satisfy beyond its declared types (engine/state.py): checked
on every decode of a state not signed by this engine."""
from __future__ import annotations

from engine.cards import SUITS
from engine.errors import InvalidState, shown

from .state import DECK_ORDER, ManState


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
