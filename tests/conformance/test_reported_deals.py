"""Conformance of reported deals (engine/parts.py ReportedDeals), over every registered game that
declares them: the reports of a random match's finished deals, scored by the game's own code,
give the standings the match's last state gives; a report changed into one the rules cannot
produce is refused with its path in the list. No game is named here."""
from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings, strategies as st

from engine import registry
from engine.errors import InputError
from engine.events.format import reported_deals
from engine.summary import Standings
from tests.conformance import helpers
from tests.conformance.helpers import GAME_IDS, jsonable, tables
from tests.sizing import examples

REPORTING = [g for g in GAME_IDS if registry.get(g).reported is not None]
by_game = pytest.mark.parametrize("game_id", REPORTING)
UNKNOWN = "nobody-seated"


def test_games_report_deals():
    """An empty parametrization would pass vacuously."""
    assert REPORTING, "no game declares reported deals"


def played_match(game_id: str, table: dict, rnd: random.Random) -> tuple[list[str], list[Any], Any]:
    """(players, each finished deal's report as JSON, the match's last state) of a random
    match."""
    game = registry.get(game_id)
    assert game.reported is not None
    players: list[str] = []
    reports: list[Any] = []
    last = None
    for _number, dealt, step in helpers.play_match(game_id, table, rnd):
        players = dealt["players"]
        if step is None:
            last = game.decode(jsonable(dealt["state"]))
            continue
        last = game.decode(jsonable(step.applied.state))
        if step.applied.status == "finished":
            reports.append(jsonable(msgspec.to_builtins(game.reported.of_deal(last))))
    return players, reports, last


def scored(game_id: str, options: dict, players: list[str], reports: list[Any]) -> Standings:
    """The reports decoded as an event decodes them (through JSON) and scored."""
    game = registry.get(game_id)
    assert game.reported is not None
    deals = reported_deals(game, reports, "")  # a shape that does not fit: its path "[k]…"
    return game.reported.score(game.resolve_options(options), players, deals)


def held(standings: Standings) -> tuple[Any, ...]:
    return (tuple((e.id, tuple(e.seats), e.total) for e in standings.entries),
            standings.finished)


def impossible(report: Any, names: set[str]) -> list[Any]:
    """The report changed in the one way no game's rules can produce: a seat (or team) it
    names replaced by one not at the table. (A seat named twice is not impossible in every
    game: Manteur's list of each round's loser names one seat as often as it lost; each game's
    own tests refuse a repeated seat where its rules do.)"""
    found: list[Any] = []

    def walk(value: Any, put) -> None:
        if isinstance(value, str) and value in names:
            found.append(put(UNKNOWN))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, lambda new, i=i: put([*value[:i], new, *value[i + 1:]]))
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(v, lambda new, k=k: put({**value, k: new}))

    walk(report, lambda new: new)
    return found


@by_game
@settings(max_examples=examples(3), deadline=None)
@given(data=st.data())
def test_reported_deals_score_as_the_match_they_report(game_id, data):
    """The reports of every finished deal of a random match (`of_deal`), scored (`score`),
    give the standings of the match's last state (`Game.standings`): the same holders, seats,
    totals and whether the match is over. And each deal's report changed into an impossible
    one (a seat not at the table) is refused: an InputError whose path is
    inside that deal's report. (One test: a random match is the costly part.)"""
    game = registry.get(game_id)
    table = data.draw(tables(game_id), label="table")
    rnd = random.Random(data.draw(st.integers(0, 2**32), label="play"))
    players, reports, last = played_match(game_id, table, rnd)
    if last is None:
        return  # options the game refuses however eased: no match
    assert reports, "a match plays at least one deal to its end"
    assert held(scored(game_id, table["options"], players, reports)) == \
        held(game.standings(last))
    names = set(players) | set(game.team_ids)
    changed = 0
    for k, report in enumerate(reports):
        for wrong in impossible(report, names):
            with pytest.raises(InputError) as refused:
                scored(game_id, table["options"], players, [*reports[:k], wrong, *reports[k + 1:]])
            assert refused.value.path.startswith(f"[{k}]"), (wrong, refused.value.path)
            changed += 1
    assert changed, f"{game_id}'s reports name no seat or team to change"
    # whatever a table writes in a report's shape is scored or refused with its path, never
    # a crash (a 500): each deal's lists shuffled, cut short or given a seat more
    for k, report in enumerate(reports):
        for _ in range(4):
            garbled = shuffled_lists(report, sorted(names), rnd)
            try:
                scored(game_id, table["options"], players, [*reports[:k], garbled])
            except InputError as err:
                assert err.path.startswith(f"[{k}]"), (garbled, err.path)


def shuffled_lists(value: Any, names: list[str], rnd: random.Random) -> Any:
    """`value` with each of its lists shuffled, cut short or given one more of `names`."""
    if isinstance(value, dict):
        return {k: shuffled_lists(v, names, rnd) for k, v in value.items()}
    if isinstance(value, list):
        out = [shuffled_lists(v, names, rnd) for v in value]
        rnd.shuffle(out)
        change = rnd.randrange(3)
        if change == 0 and out:
            del out[rnd.randrange(len(out))]
        elif change == 1 and all(isinstance(v, str) for v in out):
            out.insert(rnd.randrange(len(out) + 1), rnd.choice(names))
        return out
    return value
