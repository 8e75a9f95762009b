"""Daifugo deals reported without their moves (engine/games/daifugo/reported.py): the players
out in order with their foul finishes, placed as a played deal places them (D10, D23, D24, D9's
pass limit) and scored by the titles' points (D-s), the running points carried deal to deal."""
from __future__ import annotations

import msgspec
import pytest

from engine import registry
from engine.games.daifugo import GAME
from engine.games.daifugo.phases import PASS_LIMIT
from tests.adjudication import refused_at
from tests.daifugo.helpers import build, ok

REPORTED = GAME.reported
assert REPORTED is not None
SEATS = ["A", "B", "C", "D"]


def totals(deals: list[dict], options: dict | None = None, seats: list[str] = SEATS) -> dict:
    standings = REPORTED.score(GAME.resolve_options(options), seats,
                               [REPORTED.deal(**d) for d in deals])
    return {e.id: e.total for e in standings.entries}


def refused(deals: list[dict], options: dict | None = None, seats: list[str] = SEATS) -> str:
    return refused_at(totals, deals, options, seats)


def test_d10_the_players_out_take_the_titles_points_in_order_and_carry_them():
    # 2/1/0/-1/-2 by default (D-s): 大富豪 2, 富豪 1, 貧民 -1, 大貧民 -2 at four seats
    assert totals([{"out": ["B", "D", "A"]}]) == {"B": 2, "D": 1, "A": -1, "C": -2}
    assert totals([{"out": ["B", "D", "A"]}, {"out": ["A", "B", "C"]}]) == \
        {"A": 1, "B": 3, "C": -3, "D": -1}


def test_the_last_player_left_may_be_named_or_left_out():
    assert totals([{"out": ["B", "D", "A", "C"]}]) == totals([{"out": ["B", "D", "A"]}])


def test_d24_a_foul_finish_ranks_from_the_bottom():
    options = {"forbidden_finish": ["top_rank"]}
    # A went out first on a 2 (a foul): last; the others ranked in the order they went out
    assert totals([{"out": ["A", "B", "C"], "fouls": ["A"]}], options) == \
        {"B": 2, "C": 1, "D": -1, "A": -2}
    # two fouls: the earlier one lower
    assert totals([{"out": ["A", "C", "B"], "fouls": ["A", "C"]}], options) == \
        {"B": 2, "D": 1, "C": -1, "A": -2}


def test_d23_miyako_ochi_sends_the_last_daifugo_down_when_another_finishes_first():
    options = {"miyako_ochi": True}
    first = {"out": ["C", "A", "B"]}                     # C is 大富豪
    # B finishes first: C falls to 大貧民 at once; A, then D, the one left
    assert totals([first, {"out": ["B", "A"]}], options) == \
        {"C": 2 - 2, "A": 1 + 1, "B": -1 + 2, "D": -2 - 1}
    # C, fallen with cards, never goes out
    assert refused([first, {"out": ["B", "C", "A"]}], options) == "[1].out[1]"


def test_d23_d24_the_earlier_foul_ranks_lower_than_the_fallen_daifugo():
    # the rules page's example (test_game_rules D24): A fouls, B finishes first, C falls
    options = {"miyako_ochi": True, "forbidden_finish": ["top_rank"]}
    first = {"out": ["C", "A", "B"]}
    # the second deal: B, D, C, A (C 大富豪 first deal, A 富豪, B 貧民, D 大貧民)
    assert totals([first, {"out": ["A", "B"], "fouls": ["A"]}], options) == \
        {"B": -1 + 2, "D": -2 + 1, "C": 2 - 1, "A": 1 - 2}


def test_d9_the_players_left_at_the_pass_limit_take_the_places_drawn():
    seats = ["A", "B", "C", "D", "E"]
    # uecda: 5/4/3/2/1
    assert totals([{"out": ["A"], "pass_limit": ["C", "B", "E", "D"]}], {"preset": "uecda"},
                  seats) == {"A": 5, "C": 4, "B": 3, "E": 2, "D": 1}
    assert refused([{"out": ["A"], "pass_limit": ["C", "B", "E", "D"]}], None, seats) == \
        "[0].pass_limit"                                # not without leader_may_pass
    assert refused([{"out": ["A"], "pass_limit": ["C", "B", "E"]}], {"preset": "uecda"},
                   seats) == "[0].pass_limit"           # D still holds cards


def test_a_played_deal_ended_at_the_pass_limit_reports_what_scores_it():
    hands = {"A": [], "B": ["D4", "S5"], "C": ["C3", "C6"], "D": ["H3"], "E": ["S9"]}
    s = build(hands, preset="uecda", turn="B", finished=["A"], passes_in_a_row=PASS_LIMIT - 1)
    done = GAME.decode(ok(s, "pass", "B").state)
    report = REPORTED.of_deal(done)
    assert report.out == ["A"] and len(report.pass_limit) == 4
    standings = REPORTED.score(msgspec.to_builtins(done.options), list(done.players), [report])
    assert [e.total for e in standings.entries] == [e.total for e in GAME.standings(done).entries]


def test_d29_no_deal_follows_the_matchs_last():
    options = {"match_deals": 1}
    standings = REPORTED.score(GAME.resolve_options(options), SEATS,
                               [REPORTED.deal(out=["B", "D", "A"])])
    assert standings.finished
    assert refused([{"out": ["B", "D", "A"]}, {"out": ["A", "B", "C"]}], options) == "[1]"


@pytest.mark.parametrize("deal, path", [
    ({"out": ["B", "Z", "A"]}, "[0].out[1]"),             # not seated
    ({"out": ["B", "D", "B"]}, "[0].out[2]"),             # named twice
    ({"out": ["B", "D"]}, "[0].out"),                     # A and C still hold cards
    ({"out": ["B", "D", "A", "C", "B"]}, "[0].out[4]"),   # after the deal was over
    ({"out": ["B", "D", "A"], "fouls": ["C"]}, "[0].fouls[0]"),  # a foul not out
    ({"out": ["B", "D", "A"], "fouls": ["B"]}, "[0].fouls[0]"),  # no foul finish is listed
])
def test_a_report_the_rules_cannot_produce_is_refused_with_its_path(deal, path):
    assert refused([{"out": ["A", "B", "C"]}, deal]) == "[1]" + path.removeprefix("[0]")


def test_the_game_declares_its_reported_deals():
    assert registry.get("daifugo").reported is REPORTED
