"""The end of a deal (§9): finish, level-up of the winning team (S-1, S-2, D1), the level-A
rules (S-3 … S-6, D2 … D4), the match's end, and the next deal's `match` (tribute payers of
§8 included)."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine.values import Event, ScoreDelta

from .state import LEVELS, TEAMS, GuandanMatch, GuandanOptions, GuandanResult, GuandanState, team_of
from .words import BOUND, finish_why, level_text

UP = {"1-3": 2, "1-4": 1}


def tribute_payers(players: Sequence[str], order: Sequence[str],
                   options: GuandanOptions | Mapping[str, Any]) -> tuple[str, ...]:
    """T-2, T-3, D7: who pays tribute after the finish `order` (none for a first deal)."""
    if not order:
        return ()
    first = order[0]
    if len(order) == 2:  # 1-2: both losers pay, in seat order
        return tuple(p for p in players if team_of(players, p) != team_of(players, first))
    fourth = order[3]
    single = options.single_payer if hasattr(options, "single_payer") else options["single_payer"]
    if single == "third_opponent" and team_of(players, fourth) == team_of(players, first):
        return (order[2],)
    return (fourth,)


def raise_level(level: str, by: int) -> str:
    """S-1, S-2: up `by` levels, never past A."""
    return LEVELS[min(len(LEVELS) - 1, LEVELS.index(level) + by)]


def _delta(team: str, before: str, after: str, reason: str,
           words: tuple[str, str] | None = None) -> ScoreDelta:
    """`words`: why in both languages (default: the reason's own words, words.LEVEL_WHY)."""
    text = level_text(reason, before, after) if words is None else {
        "en": f"{words[0]}: level {before} → {after}", "ja": f"{words[1]}: レベル{before}→{after}"}
    return ScoreDelta(team, "level", LEVELS.index(after) - LEVELS.index(before), reason,
                      {"from": before, "to": after}, text)


def forfeit_order(s: GuandanState, offender: str) -> tuple[str, ...]:
    """R-7: the opponents of the `offender`'s team take 1st and 2nd: one already out first,
    else in turn from the offender's right (the next to play after the offender)."""
    players = s.players
    team = team_of(players, offender)
    opponents = [p for p in players if team_of(players, p) != team]
    outs = [x.player for x in s.out if x.player in opponents]
    start = players.index(offender)
    turn = [players[(start + k) % 4] for k in range(1, 5)]
    return tuple(outs) + tuple(p for p in turn if p in opponents and p not in outs)


def aces_finish(s: GuandanState) -> bool:
    """S-6: the first of the declarer's opponents to go out went out with a play of Aces only
    (False on a match's first deal, which has no declarer)."""
    declarer = s.match.declarer
    if declarer is None:
        return False
    opp_out = [x for x in s.out if team_of(s.players, x.player) != declarer]
    return bool(opp_out and opp_out[0].cards and all(c[1:] == "A" for c in opp_out[0].cards))


def finish_deal(s: GuandanState, forfeit: str | None = None) -> tuple[
        GuandanResult, GuandanMatch | None, tuple[ScoreDelta, ...], tuple[Event, ...]]:
    """`forfeit`: the player whose signalling lost the deal for their team (R-7), scored as
    the opponents' 1-2 finish."""
    outs = [x.player for x in s.out] if forfeit is None else list(forfeit_order(s, forfeit))
    return score_finish(s.players, s.options, s.match, outs, s.void, s.ledger_levels,
                        aces_finish(s), forfeited=forfeit is not None)


def score_finish(players: Sequence[str], o: GuandanOptions, m: GuandanMatch,
                 outs: Sequence[str], void: Sequence[str] = (),
                 ledger_levels: Mapping[str, int] | None = None, aces: bool = False,
                 forfeited: bool = False) -> tuple[
        GuandanResult, GuandanMatch | None, tuple[ScoreDelta, ...], tuple[Event, ...]]:
    """The deal's end scored (§9) from what decides it: `outs`, the players out in order (at
    least the 1st; a forfeit's order, R-7); `void`, the void hands (R-6), last in the order
    voided; `ledger_levels`, the referee's level penalties of the deal (S-9); `aces`, whether
    the declarer's first opponent out went out with Aces only (S-6). A played deal's end
    (finish_deal) and a reported deal (reported.py) are both scored here."""
    ledger_levels = ledger_levels or {}
    first = outs[0]
    winner = team_of(players, first)
    if len(outs) >= 2 and team_of(players, outs[1]) == winner:
        finish = "1-2"
        order = tuple(outs[:2])
    else:
        # the player left with cards, then the void hands, last in the order voided
        rest = [p for p in players if p not in outs and p not in void] + list(void)
        order = tuple(outs) + tuple(rest)
        partner_place = [team_of(players, p) for p in order].index(winner, 1) + 1
        finish = f"1-{partner_place}"
    levels = dict(m.levels)
    failures = dict(m.a_failures)
    deltas: list[ScoreDelta] = []
    events: list[Event] = []
    declarer = m.declarer
    at_a_declaring = declarer is not None and m.levels[declarer] == "A"
    # S-3, D2: the match is won at A with a 1-2 or 1-3 finish (as declarer unless D2 is off).
    match_winner = None
    # S-9: a team the referee's ledger moved down during this deal is no longer at A: it does
    # not win the match with this deal.
    if m.levels[winner] == "A" and finish in ("1-2", "1-3") and \
            (declarer == winner or not o.a_win_requires_declarer) and \
            ledger_levels.get(winner, 0) >= 0:
        match_winner = winner
    up = o.level_up_1_2 if finish == "1-2" else UP[finish]
    before = levels[winner]
    levels[winner] = raise_level(before, up)
    deltas.append(_delta(winner, before, levels[winner], f"finish {finish}" if not forfeited
                         else f"finish {finish}: the opponents forfeited the deal (R-7)",
                         finish_why(finish, forfeited)))
    events.append(Event("deal_finished", {"team": winner, "finish": finish, "order": list(order)}))
    if match_winner is not None:
        events.append(Event("match_finished", {
            "team": match_winner,
            "winners": [p for p in players if team_of(players, p) == match_winner]}))
    elif at_a_declaring:
        # S-5, D3: a deal as declarer at A that does not win the match is a failure (a 1-4 win
        # included).
        assert declarer is not None, "at_a_declaring: there is a declarer"
        failures[declarer] += 1
        events.append(Event("a_level_failed", {"team": declarer, "failures": failures[declarer]}))
        dropped = None
        if o.a_fail_limit and failures[declarer] >= o.a_fail_limit:
            dropped, reason = o.a_fail_reset_to, "a_failures"
        # S-6, D4: the opponents' first player out went out with Aces only.
        if o.ace_finish_demotion and aces:
            dropped, reason = "2", "ace_demotion"
        if dropped is not None:
            before_d = levels[declarer]
            levels[declarer] = dropped
            failures[declarer] = 0
            deltas.append(_delta(declarer, before_d, dropped, reason))
            events.append(Event("demoted", {"team": declarer, "reason": reason, "to": dropped}))
    for team in TEAMS:
        # S-9: the referee's level penalties of this deal, after its own result, within 2 … A;
        # where a bound cuts, a delta gives back what the penalty's own delta overstated.
        moved = ledger_levels.get(team, 0)
        if moved:
            before_l = LEVELS.index(levels[team])
            after_l = min(len(LEVELS) - 1, max(0, before_l + moved))
            levels[team] = LEVELS[after_l]
            if after_l - before_l != moved:
                deltas.append(ScoreDelta(team, "level", after_l - before_l - moved,
                                         "S-9: a level stays within 2 … A", text=BOUND))
    for team in TEAMS:  # a team that is not at A has no running count
        if levels[team] != "A":
            failures[team] = 0
    result = GuandanResult(order=order, finish=finish, winner=winner, levels=levels,
                           match_winner=match_winner)
    next_match = None
    if match_winner is None:
        prev = order[:2] if finish == "1-2" else order
        next_match = GuandanMatch(levels=levels, declarer=winner, a_failures=failures,
                                  previous_order=prev,
                                  tribute_payers=tribute_payers(players, prev, o),
                                  deal_number=m.deal_number + 1)
    return result, next_match, tuple(deltas), tuple(events)
