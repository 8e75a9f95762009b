"""What a Daifugo state must satisfy beyond its declared types (engine/state.py): checked
on every decode of a state not signed by this engine."""
from __future__ import annotations

from engine.errors import InvalidState, shown

from .state import DaifugoState, match_over


def _bad(message: str, path: str) -> InvalidState:
    return InvalidState(message, f"state.{path}")


def invariants(s: DaifugoState) -> None:
    from .phases import active, deck_of

    players = s.players
    seated = set(players)
    if not 3 <= len(players) <= 8 or len(seated) != len(players):
        raise _bad("3-8 distinct ids", "players")
    if s.hands.keys() != seated:
        raise _bad("must have exactly one entry per player", "hands")
    if s.match.points.keys() != seated:
        raise _bad("must have exactly one entry per player", "match.points")
    if s.match.finish_order and sorted(s.match.finish_order) != sorted(players):
        raise _bad("the previous order ranks every seated player once", "match.finish_order")
    everything = [*s.pile, *s.discards]
    for h in s.hands.values():
        everything += h
    deck = deck_of(s.options)
    if sorted(everything) != sorted(deck):
        raise _bad(f"the {len(deck)} cards of the deck must each be in exactly one place", "hands")
    out = [*s.finished, *s.fallen]
    if len(set(out)) != len(out) or not seated.issuperset(out):
        raise _bad("seated players, each once", "finished")
    for p in players:
        if p not in out and not s.hands[p]:
            raise _bad("a player without cards has finished", f"hands.{p}")
        if p in s.finished and s.hands[p]:
            raise _bad("a finished player holds no cards", f"hands.{p}")
    for path, who in (("leader", s.leader), ("turn", s.turn),
                      ("top.by", s.top.by if s.top else None)):
        if who is not None and who not in seated:
            raise _bad(f"{shown(who)} is not a seated player", path)
    if s.pass_limit_order is not None and (
            sorted(s.pass_limit_order) != sorted(players) or not s.options.leader_may_pass):
        raise _bad("every seated player once, with leader_may_pass only", "pass_limit_order")
    if not seated.issuperset(s.passed) or not seated.issuperset(s.passed_field):
        raise _bad("seated players only", "passed")
    if s.status != ("finished" if s.phase == "finished" else "in_progress"):
        raise _bad("does not agree with phase", "status")
    if (s.phase == "finished") != (s.result is not None) or \
            (s.result is not None and s.next_match is None) != \
            (s.result is not None and match_over(s)) or \
            (s.result is None and s.next_match is not None):
        raise _bad("a result exactly when the deal is finished, and a next match too unless "
                   "it ends the match (D29)", "result")
    if s.phase in ("play", "give", "discard"):
        if s.turn is None or s.turn not in active(s):
            raise _bad("a player still in the deal is on turn", "turn")
    elif s.turn is not None:
        raise _bad("nobody is on turn outside play", "turn")
    if (s.phase in ("give", "discard")) != (s.owed is not None):
        raise _bad("a follow-up is owed exactly in the give and discard phases", "owed")
    if s.owed is not None and (s.owed.player != s.turn or
                               (s.phase == "give") != (s.owed.give > 0)):
        raise _bad("the owing player is on turn; give before discard", "owed")
    if s.phase == "exchange" and all(e.returned is not None for e in s.exchange):
        raise _bad("the exchange phase waits for a return", "exchange")
    if (s.top is None) != (not s.pile):
        raise _bad("the pile holds the field's plays", "pile")
    if s.top is not None and not set(s.top.cards) <= set(s.pile):
        raise _bad("the top play lies on the pile", "top.cards")
