"""Manillen's deals as a table reports them (engine/games/manillen/reported.py): the trump, the
doublings and each side's card points, scored by the game's own scoring to the match's booms
and points."""
from __future__ import annotations

import random

import msgspec
import pytest
from hypothesis import given, settings, strategies as st

from engine import adjudicate
from engine.games.manillen import GAME
from tests.adjudication import refused_at
from tests.conformance.helpers import play_match, tables
from tests.sizing import examples

from .helpers import PLAYERS

FOUR, THREE = PLAYERS[4], PLAYERS[3]
REPORTED = GAME.reported
assert REPORTED is not None


def score(*deals: dict, players=FOUR, **opts):
    reports = [msgspec.convert(d, REPORTED.deal) for d in deals]
    return REPORTED.score(GAME.resolve_options(opts), players, reports)


def points(standings) -> dict:
    """Each score holder's (booms, points toward the next boom)."""
    return {e.id: (e.total, e.text.en) for e in standings.entries}


def played(dealer: str, trump: str, card_points: dict, doublings=(), **more) -> dict:
    return {"dealer": dealer, "trump": trump, "card_points": card_points,
            "doublings": list(doublings), **more}


def test_rule_a28_a_side_over_30_scores_the_excess():
    standings = score(played("p0", "S", {"team_0_2": 50, "team_1_3": 10}))
    assert points(standings) == {"team_0_2": (0, "0 booms, 20 points"),
                                 "team_1_3": (0, "0 booms, 0 points")}


def test_rule_a18_no_trump_doubled_and_redoubled_multiplies_by_eight():
    # A28's example: 50 card points, no-trump, doubled and redoubled: 20 × 8 = 160 (a boom)
    deal = played("p0", "no_trump", {"team_0_2": 50, "team_1_3": 10}, doublings=["p1", "p0"])
    standings = score(deal, booms_to_win=2)
    assert points(standings)["team_0_2"] == (1, "1 boom, 0 points")  # A31: the count restarts
    assert not standings.finished
    assert points(score(deal, multiplier_cap=4, target_points=500))["team_0_2"] == \
        (0, "0 booms, 80 points")


def test_rule_a29_an_even_split_scores_nothing_and_doubles_the_next_deal():
    # 30–30, then 40 → (40 − 30) × 2 = 20; the deal passes to the left (A5)
    standings = score(played("p0", "H", {"team_0_2": 30, "team_1_3": 30}),
                      played("p1", "C", {"team_0_2": 20, "team_1_3": 40}))
    assert points(standings)["team_1_3"] == (0, "0 booms, 20 points")


def test_rule_a34_both_defenders_record_the_partnership_score():
    standings = score(played("p1", "D", {"dealer": 25, "defenders": 35}), players=THREE)
    assert [e.text.en for e in standings.entries] == \
        ["0 booms, 5 points", "0 booms, 0 points", "0 booms, 5 points"]


def test_rule_m_k_the_trick_bonus_counts_each_sides_tricks():
    # the French base: 60 + 8 tricks = 68, threshold 34; 36 + 5 tricks = 41 → 7
    deal = played("p0", "S", {"team_0_2": 36, "team_1_3": 24},
                  tricks={"team_0_2": 5, "team_1_3": 3})
    assert points(score(deal, preset="french_base"))["team_0_2"] == (0, "0 booms, 7 points")


def test_rule_m_m_a_deal_thrown_in_scores_nothing_and_keeps_the_carry():
    standings = score(played("p0", "S", {"team_0_2": 30, "team_1_3": 30}),
                      {"dealer": "p1", "thrown_in": True},
                      played("p2", "S", {"team_0_2": 35, "team_1_3": 25}))
    assert points(standings)["team_0_2"] == (0, "0 booms, 10 points")  # (35 − 30) × 2


def test_rule_a32_the_match_ends_at_its_booms_and_takes_no_more_deals():
    big = played("p0", "no_trump", {"team_0_2": 60, "team_1_3": 0}, doublings=["p1", "p2"])
    assert score(big).finished  # 30 × 8 = 240: a boom, the one boom the match needs
    assert refused_at(score, big, played("p1", "S", {"team_0_2": 30, "team_1_3": 30})) == "[1]"


@pytest.mark.parametrize(("deals", "opts", "path"), [
    ([played("p0", "S", {"team_0_2": 50, "team_1_3": 9})], {}, "[0].card_points"),
    ([played("p0", "S", {"team_0_2": 60})], {}, "[0].card_points"),
    ([played("p0", "S", {"dealer": 30, "defenders": 30})], {}, "[0].card_points"),
    ([played("p9", "S", {"team_0_2": 30, "team_1_3": 30})], {}, "[0].dealer"),
    ([played(None, "S", {"team_0_2": 30, "team_1_3": 30})], {}, "[0].dealer"),
    ([played("p0", "S", {"team_0_2": 30, "team_1_3": 30}),
      played("p2", "S", {"team_0_2": 30, "team_1_3": 30})], {}, "[1].dealer"),
    ([{"dealer": "p0", "card_points": {"team_0_2": 30, "team_1_3": 30}}], {}, "[0].trump"),
    ([played("p0", "S", {"team_0_2": 30, "team_1_3": 30}, doublings=["p2"])], {},
     "[0].doublings[0]"),
    ([played("p0", "S", {"team_0_2": 30, "team_1_3": 30}, doublings=["p1", "p3"])], {},
     "[0].doublings[1]"),
    ([played("p0", "S", {"team_0_2": 30, "team_1_3": 30}, doublings=["p3"])],
     {"double_by": "eldest_only"}, "[0].doublings[0]"),
    ([played("p0", "S", {"team_0_2": 30, "team_1_3": 30}, doublings=["p1", "p0", "p3"])],
     {"preset": "capped"}, "[0].doublings[2]"),
    ([played("p0", "no_trump", {"team_0_2": 30, "team_1_3": 30}, blind=True)], {},
     "[0].blind"),
    ([played("p0", "S", {"team_0_2": 30, "team_1_3": 30}, blind=True)],
     {"blind_no_trump": True}, "[0].blind"),
    ([played("p0", "no_trump", {"team_0_2": 30, "team_1_3": 30})], {"preset": "muette"},
     "[0].trump"),
    ([played("p0", "S", {"team_0_2": 30, "team_1_3": 30})], {"preset": "french_base"},
     "[0].tricks"),
    ([played("p0", "S", {"team_0_2": 30, "team_1_3": 30},
             tricks={"team_0_2": 4, "team_1_3": 3})], {}, "[0].tricks"),
    ([played("p0", "S", {"team_0_2": 55, "team_1_3": 5},
             tricks={"team_0_2": 8, "team_1_3": 0})], {}, "[0].card_points.team_1_3"),
    ([{"dealer": "p0", "thrown_in": True, "trump": "S"}], {}, "[0].trump"),
])
def test_a_report_the_rules_cannot_produce_is_refused_at_its_field(deals, opts, path):
    assert refused_at(score, *deals, **opts) == path


def test_only_a_partner_of_the_dealer_throws_a_deal_in():
    assert refused_at(score, {"dealer": "p0", "thrown_in": True}, players=THREE) == "[0].thrown_in"
    assert refused_at(score, players=PLAYERS[4] + ["p4"]) == "players"


def test_the_left_over_cards_count_for_a_dealer_who_takes_no_trick():
    deal = played("p0", "S", {"dealer": 7, "defenders": 53},
                  tricks={"dealer": 0, "defenders": 10})
    assert [e.total for e in score(deal, players=THREE).entries] == [0, 0, 0]


def test_a_peek_thrown_in_reports_and_scores_as_it_was_played():
    dealt = adjudicate.deal("manillen", FOUR, {"first_dealer": "first_player"}, "peek")
    peeked = adjudicate.validate(dealt["state"], {"type": "report_peek", "player": "p2"})
    final = GAME.decode(peeked.state)
    report = REPORTED.of_deal(final)
    assert msgspec.to_builtins(report) == {"dealer": "p0", "thrown_in": True}
    assert REPORTED.score(msgspec.to_builtins(final.options), FOUR, [report]) == \
        GAME.standings(final)


@settings(deadline=None, max_examples=examples(20))
@given(data=st.data())
def test_the_reports_of_a_random_match_score_to_its_standings(data):
    """Along a random match, the reports of the deals finished so far (through JSON, as a
    table sends them) score to the standings of the last deal's final state."""
    table = data.draw(tables("manillen"), label="table")
    rnd = random.Random(data.draw(st.integers(0, 2**32), label="play"))
    reports: list = []
    for _number, dealt, step in play_match("manillen", table, rnd):
        if step is None or step.applied.status != "finished":
            continue
        final = GAME.decode(step.applied.state)
        sent = msgspec.json.decode(msgspec.json.encode(REPORTED.of_deal(final)))
        reports.append(msgspec.convert(sent, REPORTED.deal))
        assert REPORTED.score(msgspec.to_builtins(final.options), dealt["players"],
                              reports) == GAME.standings(final)
