"""What a Manteur state must satisfy beyond its declared types (engine/state.py): checked
on every decode of a state not signed by this engine."""
from __future__ import annotations

from typing import cast

from engine.errors import InvalidState, shown

from .declarations import DeclarationError, compare, validate
from .options import rules_of
from .state import ManteurResult, ManteurState, deck_of


def _bad(message: str, path: str) -> InvalidState:
    return InvalidState(message, f"state.{path}")


def invariants(s: ManteurState) -> None:
    players = s.players
    if not 2 <= len(players) <= 8 or len(set(players)) != len(players):
        raise _bad("2-8 distinct ids", "players")
    seated = set(players)
    if s.match.penalties.keys() != seated:
        raise _bad("must have exactly one entry per player", "match.penalties")
    for path, who in (("starter", s.starter), ("holder", s.holder)):
        if who not in seated:
            raise _bad(f"{shown(who)} is not a seated player", path)
    if s.status != ("finished" if s.phase == "finished" else "in_progress"):
        raise _bad("does not agree with phase", "status")
    cards = [*s.hand, *s.stock, *s.discard]
    deck = deck_of(s.options)
    if len(cards) != len(deck) or set(cards) != set(deck):
        raise _bad(f"the {len(deck)} cards of the deck must each be in exactly one place",
                   "stock")
    if len(s.hand) != (0 if s.phase == "deal" else 5):
        raise _bad("the hand holds five cards (B3), none before a physical round is dealt "
                   "(B.6)", "hand")
    if s.phase == "deal" and (s.stock_known or s.calls or s.holder != s.starter):
        raise _bad("only a physical game's new round waits for its cards (B.6)", "phase")
    order = {c: i for i, c in enumerate(deck)}
    if not s.stock_known and list(s.stock) != sorted(s.stock, key=order.__getitem__):
        raise _bad("an unknown stock is the unseen cards in deck order (B.6)", "stock")
    limit, out = s.options.penalty_limit, set(s.eliminated)
    if len(out) != len(s.eliminated) or not out <= seated:
        raise _bad("seated players, none twice", "eliminated")
    if s.options.mode == "penalty" and out:
        raise _bad("only elimination mode eliminates", "eliminated")
    if (s.phase == "finished") != (s.result is not None):
        raise _bad("a result exactly when the game is finished", "result")
    for p, n in s.match.penalties.items():
        if s.options.mode == "elimination":
            if (n >= limit) != (p in out):
                raise _bad("a player is out exactly at the limit", f"match.penalties.{p}")
        elif n >= limit and (s.result is None or s.result.loser != p):
            raise _bad("the game ends when a player reaches the limit", f"match.penalties.{p}")
    if s.phase != "finished" and len(out) > len(players) - 2:
        raise _bad("two players at least are still in while the game goes on", "eliminated")
    if s.phase != "finished" and (s.holder in out or s.starter in out):
        raise _bad("an eliminated player holds no hand", "holder")
    if s.exchanged is not None and (s.phase != "declare" or s.exchanged > 4):
        raise _bad("0-4, only after an exchange while declaring", "exchanged")
    if s.phase == "respond" and (not s.calls or s.calls[-1].player != s.holder):
        raise _bad("the holder has just declared", "calls")
    if s.phase in ("exchange", "declare") and s.calls and s.calls[-1].player == s.holder:
        raise _bad("the holder has not declared yet this turn", "calls")
    if not s.calls and s.holder != s.starter:
        raise _bad("the starter holds the hand until the first declaration", "holder")
    rules, previous = rules_of(s.options), None
    for i, call in enumerate(s.calls):
        if call.player not in seated or call.exchanged > 4:
            raise _bad("a seated player; 0-4 cards exchanged", f"calls[{i}]")
        try:
            d = validate(call.declaration.model(), rules, f"state.calls[{i}].declaration")
        except DeclarationError as err:
            raise InvalidState(err.message, err.path) from None
        if previous is not None and compare(d, previous, rules) <= 0:
            raise _bad("each declaration is higher than the one before (B8)", f"calls[{i}]")
        previous = d
    r = s.last_round
    if r is not None and not seated >= {r.declarer, r.challenger, r.loser}:
        raise _bad("seated players only", "last_round")
    if s.phase == "finished" and r is None and not any(
            e.kind == "penalty" and not e.withdrawn
            and e.player == cast(ManteurResult, s.result).loser  # finished: a result (checked above)
            for e in s.referee_ledger):
        raise _bad("a game ends with a challenge or a referee's penalty (B22)", "last_round")
