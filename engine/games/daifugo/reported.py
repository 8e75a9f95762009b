"""Daifugo deals a table reports without their moves (engine/parts.py ReportedDeals; an event's
table without a referee, docs/events.md "Reported results"): who went out in what order, which
of those finishes were fouls (反則上がり, D24), and who was left when the pass limit ended the
deal (D9). Each player out is placed by the code a played deal places them with
(phases.place_out: foul finishes from the bottom, 都落ち, D23) and the deal scored by its end
(phases.deal_result: titles, points, D10, D-s), the running points carried from deal to deal
as a played match carries them."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any

import msgspec

from engine.errors import InputError, shown
from engine.parts import ReportedDeals
from engine.summary import Standings
from engine.values import DealSetup

from .phases import deal_result, fall_at_pass_limit, options_of, parse_match, place_out, still_in
from .state import DaifugoMatch, DaifugoOptions, DaifugoState, last_deal
from .summary import points_standings


class DaifugoReportedDeal(msgspec.Struct, frozen=True, forbid_unknown_fields=True,
                          omit_defaults=True):
    """One Daifugo deal as its table reports it."""

    out: Annotated[list[str], msgspec.Meta(description=(
        "seat ids in the order the players went out (emptied their hands), foul finishes "
        "included where they happened; the one player left holding cards at the end may be "
        "named last or left out, and a previous 大富豪 sent down by 都落ち (D23) is not named"))]
    fouls: Annotated[list[str], msgspec.Meta(description=(
        "those of `out` whose finish was a foul (反則上がり, D24: finishing with a card "
        "`forbidden_finish` lists); each is ranked from the bottom"))] = []
    pass_limit: Annotated[list[str], msgspec.Meta(description=(
        "with leader_may_pass (D9): the players still holding cards when the 20th pass in a "
        "row ended the deal, in the order drawn for their places, highest first; empty when "
        "the deal ended as usual"))] = []


def _placed(players: tuple[str, ...], rules: DaifugoOptions, match: DaifugoMatch,
            deal: DaifugoReportedDeal, path: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The deal's places (finished from the top, fallen from the bottom) as the deal's play
    would leave them, every player out placed in turn; a report the rules cannot produce
    refused with its path."""
    fouls = set(deal.fouls)
    for j, seat in enumerate(deal.fouls):
        if seat not in deal.out or deal.fouls.index(seat) != j:
            raise InputError(f"{shown(seat)}: a foul finish names a player of `out`, once",
                             f"{path}.fouls[{j}]")
        if not rules.forbidden_finish:
            raise InputError("no finish is a foul under these options (forbidden_finish is "
                             "empty, D24)", f"{path}.fouls[{j}]")
    finished: tuple[str, ...] = ()
    fallen: tuple[str, ...] = ()
    last_named = False
    for i, seat in enumerate(deal.out):
        where = f"{path}.out[{i}]"
        if seat not in players:
            raise InputError(f"{shown(seat)} is not seated at the table", where)
        if seat in deal.out[:i]:
            raise InputError(f"{shown(seat)} is named twice", where)
        left = still_in(players, finished, fallen)
        if len(left) <= 1:  # the deal is over (D10): only its last player may follow, unplaced
            if left == [seat] and not last_named and seat not in fouls:
                last_named = True
                continue
            raise InputError("the deal was over before: every place was decided", where)
        if seat not in left:
            raise InputError(f"{shown(seat)} was sent down by 都落ち (D23) and holds cards: "
                             "they never go out", where)
        finished, fallen, _fell = place_out(players, finished, fallen, seat, seat in fouls,
                                            match.finish_order, rules.miyako_ochi)
    left = still_in(players, finished, fallen)
    if deal.pass_limit:
        if not rules.leader_may_pass:
            raise InputError("the pass limit ends a deal only with leader_may_pass (D9)",
                             f"{path}.pass_limit")
        if len(left) <= 1 or sorted(deal.pass_limit) != sorted(left):
            raise InputError(f"the players left at the pass limit are {left}, each once",
                             f"{path}.pass_limit")
        fallen = fall_at_pass_limit(fallen, deal.pass_limit)
    elif len(left) > 1:
        raise InputError(f"the deal is not over: {left} still hold cards (name them in `out` "
                         "as they went out)", f"{path}.out")
    return finished, fallen


def score(options: Mapping[str, Any], players: Sequence[str],
          deals: Sequence[DaifugoReportedDeal]) -> Standings:
    """Each seat's running points after `deals`, each ended as a played deal ends."""
    seats = tuple(players)
    rules = options_of(dict(options))
    first = parse_match(DealSetup(seats, options, ""))
    match: DaifugoMatch | None = first
    totals = dict(first.points)
    over = False
    for k, deal in enumerate(deals):
        if match is None:
            raise InputError(f"the match of {rules.match_deals} deals is over (D29): no deal "
                             "follows", f"[{k}]")
        finished, fallen = _placed(seats, rules, match, deal, f"[{k}]")
        over = last_deal(rules, match)
        _result, totals, match = deal_result(seats, rules, match, finished, fallen)
    return points_standings(seats, totals, over)


def of_deal(state: DaifugoState) -> DaifugoReportedDeal:
    """What the table of a finished deal reports. The state keeps the places, not the order
    of the players out among foul finishes; any order that places them the same is the same
    report (a foul before the first finish still counts before it: 都落ち, D23, depends on
    it)."""
    s = state
    previous = s.match.finish_order[0] if s.match.finish_order else None
    # Of the players ranked from the bottom: foul finishers went out (no cards left); the
    # previous 大富豪 sent down by 都落ち and those left at the pass limit hold cards.
    fell = previous if (s.options.miyako_ochi and previous in s.fallen and s.hands[previous]
                        and s.finished and s.finished[0] != previous) else None
    fouls = [p for p in s.fallen if not s.hands[p]]
    rest = [p for p in reversed(s.fallen) if s.hands[p] and p != fell]
    before = s.fallen.index(fell) if fell is not None else len(s.fallen)
    first = [p for p in s.fallen[:before] if p in fouls]
    out = first + list(s.finished) + [p for p in fouls if p not in first]
    return DaifugoReportedDeal(out, fouls, rest)


REPORTED = ReportedDeals(DaifugoReportedDeal, score, of_deal)
