"""Guandan deals a table reports without their moves (engine/parts.py ReportedDeals; an event's
table without a referee, docs/events.md "Reported results"): each deal's finishing order,
scored by the level-up code a played deal's end runs (scoring.score_finish), the match
carried from deal to deal as a played match carries it (levels, the declarer, the A-level
failures, who pays tribute)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any

import msgspec

from engine.errors import InputError, shown
from engine.parts import ReportedDeals
from engine.summary import Standings
from engine.values import DealSetup

from .phases import parse_match
from .scoring import aces_finish, score_finish
from .state import GuandanOptions, GuandanState, team_of
from .summary import levels_standings


class GuandanReportedDeal(msgspec.Struct, frozen=True, forbid_unknown_fields=True,
                          omit_defaults=True):
    """One Guandan deal as its table reports it."""

    order: Annotated[list[str], msgspec.Meta(description=(
        "the finishing order, seat ids, the 1st player out first, as far as the deal decides "
        "it (P-8): a 1-2 finish names its two players only; otherwise the first three out, "
        "and the fourth, who is left with cards, may be named last or left out"))]
    aces_finish: Annotated[bool, msgspec.Meta(description=(
        "the first of the declarer's opponents to go out went out with a play of Aces only "
        "(S-6): it counts only while the declarer is at A under ace_finish_demotion"))] = False


def _finish_order(players: Sequence[str], order: Sequence[str], path: str) -> list[str]:
    """The players out in order, checked: seated, each once, and the deal over exactly when
    the order ends (P-8: both players of one team are out), the forced fourth allowed last."""
    seen: set[str] = set()
    for i, seat in enumerate(order):
        if seat not in players:
            raise InputError(f"{shown(seat)} is not seated at the table", f"{path}.order[{i}]")
        if seat in seen:
            raise InputError(f"{shown(seat)} is named twice", f"{path}.order[{i}]")
        seen.add(seat)
    outs = list(order[:3] if len(order) == 4 else order)  # the fourth is forced: never "out"
    teams = [team_of(players, p) for p in outs]
    for i in range(len(outs)):
        if len(set(teams[:i + 1])) < i + 1:  # a team has both players out: the deal is over
            if i + 1 < len(outs):
                raise InputError("the deal is over once both players of a team are out "
                                    "(P-8): name no one after them", f"{path}.order[{i + 1}]")
            return outs
    raise InputError(f"the deal is not over after {len(order)} players out: give the "
                        "finishing order until both players of a team are out (P-8)",
                        f"{path}.order")


def score(options: Mapping[str, Any], players: Sequence[str],
          deals: Sequence[GuandanReportedDeal]) -> Standings:
    """The teams' levels after `deals`, each scored as a played deal's end scores it."""
    seats = tuple(players)
    rules = GuandanOptions(**options)
    match = parse_match(DealSetup(seats, options, ""), seats)
    levels, over = dict(match.levels), False
    for k, deal in enumerate(deals):
        if over:
            raise InputError("the match was won by the deal before (S-3): no deal follows",
                                f"[{k}]")
        outs = _finish_order(seats, deal.order, f"[{k}]")
        result, following, _deltas, _events = score_finish(seats, rules, match, outs,
                                                           aces=deal.aces_finish)
        levels, over = result.levels, result.match_winner is not None
        if following is not None:
            match = following
    return levels_standings(seats, levels, over)


def of_deal(state: GuandanState) -> GuandanReportedDeal:
    """What the table of a finished deal reports: its finishing order (as the result gives
    it) and whether S-6's Aces finish happened."""
    result = state.result
    assert result is not None, "a finished deal has its result"
    # a 1-2 finish names its two (the result may list all four when void hands, R-6, end it)
    order = result.order[:2] if result.finish == "1-2" else result.order
    return GuandanReportedDeal(list(order), aces_finish(state))


REPORTED = ReportedDeals(GuandanReportedDeal, score, of_deal)
