"""Man's games as a table reports them without the moves (engine/parts.py ReportedDeals): how
the game ended — a man, with the winner, the loser and each call's kinds (5.4, 5.5), a chombo
and its offender (8.1), or a drawn game (3.9) — scored by scoring.py as a played game's end
is, the match carried from game to game (7.1–7.3)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Optional

from msgspec import Struct

from engine.errors import InputError, shown
from engine.state import PlayerId
from engine.summary import Standings
from engine.values import ScoreDelta

from .scoring import (
    chombo_deltas,
    kinds_name,
    kinds_name_ja,
    match_after,
    stake,
    stake_deltas,
    stake_reason,
    stake_text,
)
from .state import Kind, ManMatch, ManState, ResultKind, call_multiplier
from .summary import match_standings

# 5.4: a call that is not the chain's first is a man on a man, a kaeshi; 5.5: mekuri is the
# player on turn's, so one call of a chain at most.
KAESHI, MEKURI = "kaeshi", "mekuri"


class ManReportedDeal(Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One game as its table reports it: `result` `man` with `winner` (the last caller),
    `loser` (the player the last call was against: the previous caller, or the card's player
    for a single man) and `calls`, each call's kinds (5.5: `tanki`, `mekuri`, `kaeshi`, each
    ×2), the first man first (so `[[], ["kaeshi"]]`: a man, then a kaeshi man, stake ×2);
    `chombo` with its `offender` (8.1); or `draw` (3.9, under `stock_exhausted: draw_game`)."""
    result: ResultKind
    winner: Optional[PlayerId] = None
    loser: Optional[PlayerId] = None
    calls: tuple[tuple[Kind, ...], ...] = ()
    offender: Optional[PlayerId] = None


def _seated(players: Sequence[str], who: str | None, path: str, what: str) -> str:
    if who is None:
        raise InputError(f"a {what} is required", path)
    if who not in players:
        raise InputError(f"{shown(who)} is not seated at this table", path)
    return who


def _none_but(report: ManReportedDeal, kept: tuple[str, ...], path: str) -> None:
    """A report names only what its result has: a man no offender, a chombo no chain."""
    for name in ("winner", "loser", "calls", "offender"):
        if name not in kept and getattr(report, name) not in (None, ()):
            raise InputError(f"a {report.result} names no {name}", f"{path}.{name}")


def _check_calls(calls: Sequence[Sequence[str]], players: Sequence[str], path: str) -> None:
    """5.4, 5.5: a chain is one to (players) calls, no player calling twice; its first call a
    man on the card, every later one a kaeshi; mekuri on one call at most."""
    if not calls:
        raise InputError("5.4: a man is at least one call", f"{path}.calls")
    if len(calls) > len(players):
        raise InputError(f"5.4: nobody calls twice in a chain, so {len(players)} players make "
                         f"at most {len(players)} calls", f"{path}.calls")
    mekuri = 0
    for i, kinds in enumerate(calls):
        where = f"{path}.calls[{i}]"
        if len(set(kinds)) != len(kinds):
            raise InputError(f"5.5: a kind counts once per call: {list(kinds)}", where)
        if (KAESHI in kinds) != (i > 0):
            raise InputError("5.4: the first call is a man on the card, every later one a "
                             "kaeshi (a man on a man)", where)
        mekuri += MEKURI in kinds
        if mekuri > 1:
            raise InputError("5.5: mekuri is the call of the player on turn: one call of a "
                             "chain at most", where)


def _deltas(options: Mapping[str, Any], players: Sequence[str], report: ManReportedDeal,
            path: str) -> tuple[ScoreDelta, ...]:
    """The game's score deltas, from scoring.py as a played game's end (phases.py _resolve,
    _chombo, the drawn game) makes them."""
    if report.result == "man":
        _none_but(report, ("winner", "loser", "calls"), path)
        winner = _seated(players, report.winner, f"{path}.winner", "winner")
        loser = _seated(players, report.loser, f"{path}.loser", "loser")
        if winner == loser:
            raise InputError("5.4: the winner of a man wins from another player",
                             f"{path}.loser")
        _check_calls(report.calls, players, path)
        calls = [(kinds, call_multiplier(kinds)) for kinds in report.calls]
        total = stake(m for _, m in calls)
        en = " on ".join(kinds_name(k, m) for k, m in reversed(calls))
        ja = "←".join(f"{kinds_name_ja(k)}×{m}" for k, m in reversed(calls))
        return stake_deltas(winner, loser, total, stake_reason(calls, total),
                            stake_text(en, ja, winner, loser, total))
    if report.result == "chombo":
        _none_but(report, ("offender",), path)
        offender = _seated(players, report.offender, f"{path}.offender", "offender")
        if options["violations"] != "chombo":
            raise InputError("8.4: a chombo ends a game only under violations: chombo; "
                             "otherwise a violation is refused", f"{path}.result")
        return chombo_deltas(tuple(players), offender, "man 8.1: reported",
                             {"en": "reported by the table", "ja": "卓からの報告"})
    _none_but(report, (), path)
    if options["stock_exhausted"] != "draw_game":
        raise InputError("3.9: a game is drawn only under stock_exhausted: draw_game; "
                         "otherwise the discards are reshuffled", f"{path}.result")
    return ()


def score(options: Mapping[str, Any], players: Sequence[str],
          deals: Sequence[ManReportedDeal]) -> Standings:
    """The match standings after the reported games, the first game first: each game's
    deltas counted in the running totals and the match's end decided as a played game's
    end does (scoring.match_after, 7.2); a game after the match is over is refused (7.3)."""
    match = ManMatch({p: 0 for p in players}, 0, False, None)
    for k, report in enumerate(deals):
        path = f"[{k}]"
        if match.over:
            raise InputError(f"7.3: the match is over ({match.winner} won after "
                             f"{match.games_played} games): it takes no more games", path)
        match = match_after(match, _deltas(options, players, report, path),
                            options["match_games"], options["match_target"])
    return match_standings(players, match)


def of_deal(state: ManState) -> ManReportedDeal:
    """What the finished game's table reports: its result, and for a man the chain that won
    the stake (the resolved chain stays in the state, 5.4)."""
    result = state.result
    assert result is not None, "a finished game has its result"
    if result.kind == "man":
        assert state.chain is not None, "a man's chain stays in the finished state"
        return ManReportedDeal("man", winner=result.winner, loser=result.loser,
                               calls=tuple(c.kinds for c in state.chain.calls))
    if result.kind == "chombo":
        return ManReportedDeal("chombo", offender=result.offender)
    return ManReportedDeal("draw")
