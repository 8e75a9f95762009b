"""Manteur's games as a table reports them (engine/games/manteur/reported.py): the loser of each
round, scored as a played challenge scores it, to the game's penalty standings."""
from __future__ import annotations

import random

import msgspec
import pytest
from hypothesis import given, settings, strategies as st

from engine.games.manteur import GAME
from tests.adjudication import refused_at
from tests.conformance.helpers import play_match, tables
from tests.sizing import examples

PLAYERS = ["A", "B", "C"]
REPORTED = GAME.reported
assert REPORTED is not None


def score(*deals: dict, players=PLAYERS, **opts):
    reports = [msgspec.convert(d, REPORTED.deal) for d in deals]
    return REPORTED.score(GAME.resolve_options(opts), players, reports)


def penalties(standings) -> dict:
    return {e.id: e.total for e in standings.entries}


def test_rule_b14_each_round_costs_its_loser_one_penalty_point():
    standings = score({"losers": ["A", "B", "A", "C"]})
    assert penalties(standings) == {"A": 2, "B": 1, "C": 1}
    assert not standings.finished
    assert standings.entries[0].text.en == "2 penalty points of 5"


def test_rule_b17_the_game_ends_when_a_player_reaches_the_limit():
    standings = score({"losers": ["A", "B", "A", "A"]}, penalty_limit=3)
    assert penalties(standings) == {"A": 3, "B": 1, "C": 0} and standings.finished
    assert refused_at(score, {"losers": ["A", "B", "A", "A", "C"]}, penalty_limit=3) == "[0].losers[4]"


def test_rule_b_g_in_elimination_mode_the_last_player_left_wins():
    opts = {"mode": "elimination", "penalty_limit": 2}
    standings = score({"losers": ["A", "B", "A", "C", "C"]}, **opts)  # A out, then C: B wins
    assert penalties(standings) == {"A": 2, "B": 1, "C": 2} and standings.finished
    assert not score({"losers": ["A", "B", "A"]}, **opts).finished  # B and C play on
    # an eliminated player plays no round
    assert refused_at(score, {"losers": ["A", "A", "A"]}, **opts) == "[0].losers[2]"


def test_a_game_reported_before_any_round_ends_stands_at_zero():
    assert penalties(score({"losers": []})) == {"A": 0, "B": 0, "C": 0}
    assert not score().finished


@pytest.mark.parametrize(("deals", "path"), [
    ([{"losers": ["A", "D"]}], "[0].losers[1]"),
    ([{"losers": ["A"]}, {"losers": ["B"]}], "[1]"),  # a game is its whole match (B17)
])
def test_a_report_the_rules_cannot_produce_is_refused_at_its_field(deals, path):
    assert refused_at(score, *deals) == path


def test_a_report_names_only_the_rounds_losers():
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"losers": ["A"], "winner": "B"}, REPORTED.deal)


@settings(deadline=None, max_examples=examples(12))
@given(data=st.data())
def test_the_report_of_a_random_game_scores_to_its_standings(data):
    """A random game's report (through JSON, as a table sends it) scores to the standings of
    its final state, eliminations and the end at the limit included."""
    table = data.draw(tables("manteur"), label="table")
    rnd = random.Random(data.draw(st.integers(0, 2**32), label="play"))
    for _number, dealt, step in play_match("manteur", table, rnd):
        if step is None or step.applied.status != "finished":
            continue
        final = GAME.decode(step.applied.state)
        sent = msgspec.json.decode(msgspec.json.encode(REPORTED.of_deal(final)))
        report = msgspec.convert(sent, REPORTED.deal)
        assert len(report.losers) == final.match.rounds
        assert REPORTED.score(msgspec.to_builtins(final.options), dealt["players"],
                              [report]) == GAME.standings(final)
