"""Guandan deals reported without their moves (engine/games/guandan/reported.py): each deal's
finishing order scored by the level-up code a played deal's end runs (§9: S-1 … S-6), the
match carried deal to deal (levels, declarer, failures at A). Seats p0 and p2 are team1, p1
and p3 team2 (G-1)."""
from __future__ import annotations

import pytest

from engine.games.guandan import GAME
from tests.adjudication import refused_at

REPORTED = GAME.reported
assert REPORTED is not None
SEATS = ["p0", "p1", "p2", "p3"]
ONE_TWO = {"order": ["p0", "p2"]}                   # team1 1st and 2nd: +3 (S-1, D1)
TO_A = [ONE_TWO] * 4                                # 2 → 5 → 8 → J → A


def scored(deals: list[dict], options: dict | None = None):
    return REPORTED.score(GAME.resolve_options(options), SEATS,
                          [REPORTED.deal(**d) for d in deals])


def levels(deals: list[dict], options: dict | None = None) -> dict:
    return {e.id: e.total for e in scored(deals, options).entries}


def refused(deals: list[dict], options: dict | None = None) -> str:
    return refused_at(scored, deals, options)


def test_s1_the_winners_go_up_by_their_finish():
    assert levels([]) == {"team1": 2, "team2": 2}
    assert levels([ONE_TWO]) == {"team1": 5, "team2": 2}
    assert levels([{"order": ["p1", "p0", "p3"]}]) == {"team1": 2, "team2": 4}       # 1-3
    assert levels([{"order": ["p1", "p0", "p2"]}]) == {"team1": 2, "team2": 3}       # 1-4
    assert levels([ONE_TWO], {"preset": "pagat"}) == {"team1": 6, "team2": 2}        # D1: 4


def test_the_fourth_player_may_be_named_or_left_out():
    assert levels([{"order": ["p1", "p0", "p3", "p2"]}]) == \
        levels([{"order": ["p1", "p0", "p3"]}])


def test_s3_a_win_at_a_as_declarer_ends_the_match_and_nothing_follows():
    assert levels(TO_A) == {"team1": 14, "team2": 2} and not scored(TO_A).finished
    won = [*TO_A, {"order": ["p2", "p1", "p0"]}]                                # 1-3 at A
    assert scored(won).finished
    assert refused([*won, ONE_TWO]) == "[5]"


def test_s4_winning_at_a_when_the_other_team_declared_does_not_end_the_match():
    # team2 wins deal 5 and declares; team1 at A then wins 1-2, not as declarer
    deals = [*TO_A, {"order": ["p1", "p3"]}, ONE_TWO]
    assert not scored(deals).finished
    assert scored(deals, {"a_win_requires_declarer": False}).finished           # D2 off


def test_s5_three_failures_as_declarer_at_a_send_the_team_back_to_2():
    one_four = {"order": ["p0", "p1", "p3"]}        # team1 wins 1-4 at A: a failure
    assert levels([*TO_A, one_four, one_four]) == {"team1": 14, "team2": 2}
    assert levels([*TO_A, one_four, one_four, one_four]) == {"team1": 2, "team2": 2}
    assert levels([*TO_A, one_four, one_four, one_four], {"preset": "official"}) == \
        {"team1": 14, "team2": 2}                   # D3: no limit


def test_s6_an_aces_finish_against_the_declarer_at_a_sends_it_back_to_2():
    aces = {"order": ["p1", "p3"], "aces_finish": True}
    assert levels([*TO_A, aces]) == {"team1": 2, "team2": 5}
    assert levels([*TO_A, aces], {"preset": "official"}) == {"team1": 14, "team2": 5}
    assert levels([aces]) == {"team1": 2, "team2": 5}   # no declarer at A: it does not count


@pytest.mark.parametrize("deal, path", [
    ({"order": ["p0"]}, "[1].order"),                        # not over
    ({"order": ["p0", "p1"]}, "[1].order"),                  # not over: one of each team
    ({"order": ["p0", "p2", "p1"]}, "[1].order[2]"),         # a 1-2 finish ends the deal
    ({"order": ["p0", "p9", "p1"]}, "[1].order[1]"),         # not seated
    ({"order": ["p0", "p1", "p0"]}, "[1].order[2]"),         # named twice
])
def test_a_report_the_rules_cannot_produce_is_refused_with_its_path(deal, path):
    assert refused([ONE_TWO, deal]) == path
