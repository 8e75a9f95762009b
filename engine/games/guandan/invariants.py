"""What a Guandan state must satisfy beyond its declared types (engine/state.py): checked
on every decode of a state not signed by this engine."""
from __future__ import annotations

from collections import Counter

from engine.errors import InvalidState

from .state import DECK, TEAMS, GuandanState, in_transit


def _bad(message: str, path: str) -> InvalidState:
    return InvalidState(message, f"state.{path}")


def invariants(s: GuandanState) -> None:
    players = s.players
    if len(players) != 4 or len(set(players)) != 4:
        raise _bad("4 distinct ids", "players")
    seated = set(players)
    if s.hands.keys() != seated:
        raise _bad("must have exactly one entry per player", "hands")
    for name, m in (("match", s.match), ("next_match", s.next_match)):
        if m is None:
            continue
        if m.levels.keys() != set(TEAMS) or m.a_failures.keys() != set(TEAMS):
            raise _bad(f"must have exactly the teams {list(TEAMS)}", f"{name}.levels")
        if not seated.issuperset(m.previous_order) or len(set(m.previous_order)) != len(m.previous_order) \
                or len(m.previous_order) not in (0, 2, 4) or not seated.issuperset(m.tribute_payers):
            raise _bad("0, 2 or 4 distinct seated ids", f"{name}.previous_order")
        if (m.declarer is None) != (not m.previous_order):
            raise _bad("the team of the previous 1st player exactly when there was one", f"{name}.declarer")
    expected_level = "2" if s.match.declarer is None else s.match.levels[s.match.declarer]
    if s.level != expected_level:
        raise _bad(f"must be the declarer's level {expected_level}", "level")
    if s.status != ("finished" if s.phase == "finished" else "in_progress"):
        raise _bad("does not agree with phase", "status")
    everything = Counter(s.played)
    everything.update(in_transit(s))
    for h in s.hands.values():
        everything.update(h)
    if everything != DECK:
        raise _bad("the 108 cards must each be in exactly one place", "hands")
    who = [o.player for o in s.out]
    if len(set(who)) != len(who) or not seated.issuperset(who):
        raise _bad("seated players, each once", "out")
    for p in players:
        if (p in who) != (not s.hands[p]) and s.phase != "finished":
            raise _bad("a player is out exactly when the hand is empty", f"hands.{p}")
    if (s.phase == "play") != (s.turn is not None):
        raise _bad("a player is on turn exactly during play", "turn")
    if s.turn is not None and (s.turn not in seated or s.turn in who):
        raise _bad("an active seated player", "turn")
    if s.trick is not None:
        if s.phase != "play" or not s.trick.plays or s.trick.plays[0].reading is None \
                or not seated.issuperset(m.player for m in s.trick.plays):
            raise _bad("a trick in play starts with a play by a seated player", "trick")
    if s.barred and (s.phase != "play" or len(set(s.barred)) != len(s.barred)
                     or not seated.issuperset(s.barred)):
        raise _bad("seated players, each once, during play only (R-2)", "barred")
    voided = set(s.void)
    if s.void and (s.phase not in ("play", "finished") or len(voided) != len(s.void)
                   or not seated.issuperset(voided) or voided & set(who)
                   or not voided <= {t.payer for t in s.tributes}):
        raise _bad("tribute payers not out, each once, once play has begun (R-6)", "void")
    if s.turn is not None and s.turn in voided:
        raise _bad("an active seated player (not a void hand, R-6)", "turn")
    for i, ban in enumerate(s.lead_bans):
        if s.phase != "play" or ban.player not in seated or ban.offender not in seated \
                or ban.player == ban.offender or not ban.types:
            raise _bad("a seated partner of a seated offender, some types, during play (R-3)",
                       f"lead_bans[{i}]")
    if s.anti_tribute_failed and (s.options.anti_tribute != "optional" or s.anti_tribute):
        raise _bad("only a claim under anti_tribute optional that was not granted (T-6)",
                   "anti_tribute_failed")
    if s.tribute_to_first is not None and (s.tribute_to_first not in s.match.tribute_payers
                                           or len(s.match.tribute_payers) != 2):
        raise _bad("one of two tribute payers", "tribute_to_first")
    for i, t in enumerate(s.tributes):
        if not seated.issuperset(x for x in (t.payer, t.receiver) if x is not None):
            raise _bad("seated players", f"tributes[{i}]")
    if (s.phase == "finished") != (s.result is not None):
        raise _bad("a result exactly when the deal is finished", "result")
    if s.next_match is not None and s.result is None:
        raise _bad("only a finished deal has a next match", "next_match")
