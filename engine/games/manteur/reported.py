"""Manteur's games as a table reports them without the moves (engine/parts.py ReportedDeals):
who lost each round (B14), scored as a played round's challenge scores it (phases.round_lost:
the penalty point, the end at the limit, B17, or who is out, B-g). A game is its whole match,
so a table reports one."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from msgspec import Struct

from engine.errors import InputError, shown
from engine.state import PlayerId
from engine.summary import Standings

from .options import DEFAULTS
from .phases import round_lost
from .state import ManteurMatch, ManteurOptions, ManteurResult, ManteurState
from .summary import penalty_standings


class ManteurReportedDeal(Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One game as its table reports it: `losers`, the player who took the penalty point of
    each round (the challenger of a true declaration, the declarer of a lie, B14), the first
    round first, to the game's end (B17) or as far as it was played."""
    losers: tuple[PlayerId, ...]


def score(options: Mapping[str, Any], players: Sequence[str],
          deals: Sequence[ManteurReportedDeal]) -> Standings:
    """The standings after the reported game's rounds: each loser's penalty point, the end at
    the limit or the eliminations (B17, B-g) as a played challenge decides them."""
    rules = ManteurOptions(**{**DEFAULTS, **dict(options)})
    match = ManteurMatch({p: 0 for p in players}, 0)
    eliminated: tuple[str, ...] = ()
    done: ManteurResult | None = None
    for k, report in enumerate(deals):
        if k > 0:
            raise InputError("B17: a Manteur game is its whole match: a table reports one "
                             "game", f"[{k}]")
        for i, loser in enumerate(report.losers):
            path = f"[{k}].losers[{i}]"
            if done is not None:
                raise InputError(f"B17: the game ended after round {match.rounds} "
                                 f"({done.loser} reached {rules.penalty_limit} penalty "
                                 "points)", path)
            if loser not in players:
                raise InputError(f"{shown(loser)} is not seated at this table", path)
            if loser in eliminated:
                raise InputError(f"B-g: {loser} is out (eliminated) and plays no more rounds",
                                 path)
            match, eliminated, done = round_lost(players, rules, match, eliminated, loser)
    return penalty_standings(players, match.penalties, rules.penalty_limit, done is not None)


def of_deal(state: ManteurState) -> ManteurReportedDeal:
    """The rounds' losers a finished game's table reports. The state keeps each player's
    penalty points and who went out in which order, not the order of every round, so the
    rounds come in an order that ends the same way: the players never out first (in seat
    order, the game's loser apart in penalty mode), then each eliminated player in the order
    they went out, the game's loser last."""
    last = [] if state.result is None or state.result.loser in state.eliminated \
        else [state.result.loser]
    order = [p for p in state.players if p not in state.eliminated and p not in last]
    order += [*state.eliminated, *last]
    return ManteurReportedDeal(tuple(p for p in order for _ in range(state.match.penalties[p])))
