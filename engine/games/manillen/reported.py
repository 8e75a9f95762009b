"""Manillen's deals as a table reports them without the moves (engine/parts.py ReportedDeals):
the dealer, the trump (or no-trump, blind or not), who doubled and redoubled, and each side's
card points (and tricks), or a deal thrown in — scored by scoring.scored_deal as a played
deal's end is (threshold, multipliers, the tie's carry, booms and the match, A28–A33)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Optional

from msgspec import Struct

from engine.errors import InputError, shown
from engine.state import Count, PlayerId
from engine.summary import Standings

from . import sides as sd
from .result import ManillenMatch, ManillenResult
from .scoring import Counted, factors_in_range, scored_deal
from .state import ManillenOptions, ManillenState, Trump
from .summary import match_standings

DECK_POINTS = 60  # A2: 10 = 5, A = 4, K = 3, Q = 2, J = 1 in four suits
LEFTOVER_POINTS = 10  # A34, A35: two left-over cards hold at most two 10s


class ManillenReportedDeal(Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One deal as its table reports it. `dealer`: who dealt (required for a match's first
    deal unless `first_dealer` is `first_player`; later deals pass to the left, A5). A deal
    played out names its `trump` (`S` `H` `D` `C` or `no_trump`; `blind`: blind no-trump,
    M-c), `doublings` (who called, in order: a double by the non-dealing side, then a redouble
    by the dealer's side, and so on, A14–A17) and `card_points` by side (`team_0_2` and
    `team_1_3` with 4 players, `team_0_2_4` and `team_1_3_5` with 6, `dealer` and
    `defenders` with 3, each player's id with 2; the left-over cards count for the dealer's
    side, A34, A35), adding up to 60; `tricks` by side too (required with a trick bonus, M-k).
    A deal thrown in (A8, M-m: a partner of the dealer looked) says `thrown_in` and nothing
    else."""
    dealer: Optional[PlayerId] = None
    trump: Optional[Trump] = None
    blind: bool = False
    doublings: tuple[PlayerId, ...] = ()
    card_points: Optional[dict[str, Count]] = None
    tricks: Optional[dict[str, Count]] = None
    thrown_in: bool = False


def _dealer(opts: ManillenOptions, players: Sequence[str], match: ManillenMatch | None,
            report: ManillenReportedDeal, path: str) -> str:
    """Who dealt: the report's dealer, checked against the match's (A5: the deal passes on)."""
    given = report.dealer
    if given is not None and given not in players:
        raise InputError(f"{shown(given)} is not seated at this table", f"{path}.dealer")
    if match is not None:
        if given is not None and given != match.dealer:
            raise InputError(f"A5: the deal passes on to {match.dealer}, who deals this deal",
                             f"{path}.dealer")
        return match.dealer
    if given is None:
        if opts.first_dealer != "first_player":
            raise InputError("A5: the match's first deal names its dealer (the winner of the "
                             "cut)", f"{path}.dealer")
        return players[0]
    return given


def _by_side(given: Mapping[str, int], ids: Sequence[str], path: str,
             what: str) -> list[int]:
    if set(given) != set(ids):
        raise InputError(f"{what} by side: exactly {', '.join(ids)}", path)
    return [given[i] for i in ids]


def _doublings(opts: ManillenOptions, players: Sequence[str], dealer: int, carry: int,
               report: ManillenReportedDeal, path: str) -> None:
    """A14–A18, M-d, M-e: each call by a player of the side whose call it is, as the
    doubling phase asks them (sides.doubling_candidates), within max_doublings and JSON's
    safe range."""
    seats: list[int] = []
    for i, who in enumerate(report.doublings):
        where = f"{path}.doublings[{i}]"
        if who not in players:
            raise InputError(f"{shown(who)} is not seated at this table", where)
        if opts.max_doublings is not None and i >= opts.max_doublings:
            raise InputError(f"M-d: at most {opts.max_doublings} doubling calls "
                             "(max_doublings)", where)
        if not factors_in_range(opts, report.trump, report.blind, carry, i + 1):
            raise InputError("A18: a call past 2^53 − 1 is never made (the side asked may "
                             "only pass)", where)
        may = [players[s] for s in sd.doubling_candidates(len(players), dealer, seats, opts)]
        if who not in may:
            call = "double" if i % 2 == 0 else "redouble"
            raise InputError(f"A14–A17, M-d, M-e: the {call} is made by {' or '.join(may)}, "
                             f"not {who}", where)
        seats.append(players.index(who))


def _counted(opts: ManillenOptions, players: Sequence[str], dealer: int, carry: int,
             report: ManillenReportedDeal, path: str) -> Counted | None:
    """The deal as scoring counts it, from the report (None: thrown in)."""
    n = len(players)
    if report.thrown_in:
        if n not in sd.TEAMS or opts.french_form != "none":
            raise InputError("A8: a deal is thrown in only when a partner of the dealer (4 or "
                             "6 players, trumps not turned up) looks before trumps are named",
                             f"{path}.thrown_in")
        for name in ("trump", "blind", "doublings", "card_points", "tricks"):
            if getattr(report, name) not in (None, False, ()):
                raise InputError(f"A8: a deal thrown in is not played: it has no {name}",
                                 f"{path}.{name}")
        return None
    if report.trump is None:
        raise InputError("A9: a deal played out names its trump (S, H, D, C or no_trump)",
                         f"{path}.trump")
    if report.trump == "no_trump" and opts.french_form != "none":
        raise InputError("A37: the turned card fixes trumps: the French form has no no-trump",
                         f"{path}.trump")
    if report.blind and (not opts.blind_no_trump or report.trump != "no_trump"):
        raise InputError("M-c, A11: blind no-trump is a no-trump, called only with the "
                         "blind_no_trump option", f"{path}.blind")
    _doublings(opts, players, dealer, carry, report, path)
    ids = [side["id"] for side in sd.sides(players, dealer)]  # the dealer's side first
    if report.card_points is None:
        raise InputError("A28: a deal played out gives each side's card points",
                         f"{path}.card_points")
    points = _by_side(report.card_points, ids, f"{path}.card_points", "card points")
    if sum(points) != DECK_POINTS:
        raise InputError(f"A2: the card points add up to {DECK_POINTS}, not {sum(points)}",
                         f"{path}.card_points")
    if report.tricks is None:
        if opts.trick_bonus_points:
            raise InputError("M-k: with a trick bonus the report gives each side's tricks",
                             f"{path}.tricks")
        tricks = [0] * len(ids)
    else:
        tricks = _by_side(report.tricks, ids, f"{path}.tricks", "tricks")
        if sum(tricks) != sd.TRICKS[n]:
            raise InputError(f"A27: {n} players play {sd.TRICKS[n]} tricks, not {sum(tricks)}",
                             f"{path}.tricks")
        for i, (side, got, took) in enumerate(zip(ids, points, tricks)):
            most = LEFTOVER_POINTS if i == 0 and sd.LEFTOVER[n] else 0
            if took == 0 and got > most:
                raise InputError(f"A28: {side} took no trick, so its card points are those "
                                 f"of the left-over cards at most ({most})",
                                 f"{path}.card_points.{side}")
    return Counted(report.trump, report.blind, len(report.doublings), list(zip(points, tricks)))


def score(options: Mapping[str, Any], players: Sequence[str],
          deals: Sequence[ManillenReportedDeal]) -> Standings:
    """The match standings after the reported deals, the first deal first: each scored by
    scoring.scored_deal in the match the previous one left (points, the carry, booms), as a
    played deal's end scores it; a deal after the match is won is refused (A32)."""
    if len(players) not in sd.TRICKS:
        raise InputError("Manillen is played by 2, 3, 4 or 6 players (A3, A34–A36)",
                         "players")
    opts = ManillenOptions(**options)
    fresh = {h: 0 for h in sd.holders(players)}
    match: ManillenMatch | None = None  # as the next deal begins
    begun = ManillenMatch(fresh, fresh, 1, 0, players[0])  # as the last deal began
    result: ManillenResult | None = None
    for k, report in enumerate(deals):
        path = f"[{k}]"
        if result is not None and result.match_over:
            raise InputError(f"A32: the match is over ({result.match_winner} won it): it takes "
                             "no more deals", path)
        dealer_id = _dealer(opts, players, match, report, path)
        begun = match or ManillenMatch(fresh, fresh, 1, 0, dealer_id)
        counted = _counted(opts, players, players.index(dealer_id), begun.carry, report, path)
        result, match = scored_deal(opts, players, begun, dealer_id, counted)
    return match_standings(players, begun, result)


def of_deal(state: ManillenState) -> ManillenReportedDeal:
    """What a finished deal's table reports: the dealer, and the trump, the doubling calls
    and each side's card points and tricks as the deal's result counted them (or a deal
    thrown in)."""
    result = state.result
    assert result is not None, "a finished deal has its result"
    if state.thrown_in:
        return ManillenReportedDeal(dealer=state.dealer, thrown_in=True)
    return ManillenReportedDeal(
        dealer=state.dealer, trump=state.trump, blind=state.blind,
        doublings=state.doubling.calls,
        card_points={side.id: side.card_points for side in result.sides},
        tricks={side.id: side.tricks for side in result.sides})
