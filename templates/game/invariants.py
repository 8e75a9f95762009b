"""What a state must satisfy beyond its declared types (Game.invariants): checked on every
decode of a state this engine did not sign, so a hand-edited state cannot crash a rule check."""
from __future__ import annotations

from engine.errors import InvalidState, shown

from .state import DECK, State


def _bad(message: str, path: str) -> InvalidState:
    return InvalidState(message, f"state.{path}")


def invariants(s: State) -> None:
    players = s.players
    if not 2 <= len(players) <= 4 or len(set(players)) != len(players):
        raise _bad("2-4 distinct ids (1.1)", "players")
    seated = set(players)
    for name in ("hands", "points"):
        if getattr(s, name).keys() != seated:
            raise _bad("must have exactly one entry per player", name)
    if s.status != ("finished" if s.phase == "finished" else "in_progress"):
        raise _bad("does not agree with phase", "status")
    if s.leader not in seated:
        raise _bad(f"{shown(s.leader)} is not a seated player", "leader")
    if (s.turn is None) != (s.phase == "finished"):
        raise _bad("a seat acts exactly while the deal is in play", "turn")
    for i, play in enumerate(s.plays):
        # 2.2: the round's acts go round the table from its leader, one each
        if play.player != players[(players.index(s.leader) + i) % len(players)]:
            raise _bad("acts go in seat order from the leader, one each (2.2)", f"plays[{i}]")
    if len(s.plays) >= len(players):
        raise _bad("a round ends when every seat has acted (3.1)", "plays")
    if s.turn is not None and s.turn != players[
            (players.index(s.leader) + len(s.plays)) % len(players)]:
        raise _bad("the next seat after the round's last act (2.2)", "turn")
    played = [p.card for p in s.plays if p.card is not None]
    cards = [c for h in s.hands.values() for c in h] + list(s.stock) + played
    if len(cards) != len(set(cards)) or not set(cards) <= set(DECK):
        raise _bad("every card of the deck at most once", "hands")
    if len(s.stock) != len(DECK) - s.options.hand_size * len(players):
        raise _bad("the cards not dealt (1.2)", "stock")
