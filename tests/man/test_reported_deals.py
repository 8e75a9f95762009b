"""Man's games as a table reports them (engine/games/man/reported.py): a man's winner, loser and
calls, a chombo, a drawn game, scored by the game's own scoring to the match's standings."""
from __future__ import annotations

import random

import msgspec
import pytest
from hypothesis import given, settings, strategies as st

from engine import adjudicate
from engine.games.man import GAME
from tests.adjudication import refused_at
from tests.conformance.helpers import play_match, tables
from tests.sizing import examples

from .test_worked_game import MOVES, _deal

PLAYERS = ["A", "B", "C", "D"]
REPORTED = GAME.reported
assert REPORTED is not None


def options(**given) -> dict:
    return GAME.resolve_options(given)


def reported(*deals: dict) -> list:
    """The reports as the engine decodes them from JSON."""
    return [msgspec.convert(d, REPORTED.deal) for d in deals]


def as_json(report) -> dict:
    """A report as a table sends it."""
    return msgspec.json.decode(msgspec.json.encode(report))


def totals(standings) -> dict:
    return {e.id: e.total for e in standings.entries}


def score(deals: list[dict], players=PLAYERS, **opts):
    return REPORTED.score(options(**opts), players, reported(*deals))


def test_rule_5_6_a_kaeshi_man_wins_the_doubled_stake_from_the_first_caller():
    # 5.6: B mans C's club 3, A counters, C and D decline: A +2, B −2.
    standings = score([{"result": "man", "winner": "A", "loser": "B",
                        "calls": [[], ["kaeshi"]]}])
    assert totals(standings) == {"A": 2, "B": -2, "C": 0, "D": 0}
    assert not standings.finished


def test_rule_5_5_every_kind_of_every_call_doubles_the_stake():
    # 5.5's reason: "kaeshi man ×2 on tanki mekuri man ×4: stake ×8"
    standings = score([{"result": "man", "winner": "D", "loser": "C",
                        "calls": [["tanki", "mekuri"], ["kaeshi"]]},
                       {"result": "man", "winner": "B", "loser": "A",
                        "calls": [["tanki"], ["kaeshi", "tanki"], ["kaeshi", "mekuri"]]}])
    assert totals(standings) == {"A": -32, "B": 32, "C": -8, "D": 8}


def test_rule_8_1_a_chombo_costs_the_offender_one_point_to_every_other_player():
    standings = score([{"result": "chombo", "offender": "C"}], violations="chombo")
    assert totals(standings) == {"A": 1, "B": 1, "C": -3, "D": 1}


def test_rule_3_9_a_drawn_game_scores_nothing_but_counts_as_a_game_played():
    standings = score([{"result": "draw"}], stock_exhausted="draw_game", match_games=1)
    assert totals(standings) == {p: 0 for p in PLAYERS}
    assert not standings.finished  # 7.2: four players tied for the lead play on


def test_rule_7_2_the_match_ends_at_its_target_and_takes_no_more_games():
    single = {"result": "man", "winner": "A", "loser": "B", "calls": [["tanki"]]}
    standings = score([single, single], match_target=4)
    assert totals(standings)["A"] == 4 and standings.finished
    assert refused_at(score, [single, single, single], match_target=4) == "[2]"  # 7.3


def test_rule_7_2_a_tie_for_the_lead_plays_on_after_the_last_game():
    one = {"result": "man", "winner": "A", "loser": "B", "calls": [[]]}
    back = {"result": "man", "winner": "B", "loser": "A", "calls": [[]]}
    assert not score([one, back], players=["A", "B"], match_games=2).finished
    assert score([one, back, one], players=["A", "B"], match_games=2).finished


@pytest.mark.parametrize(("deal", "opts", "path"), [
    ({"result": "man", "winner": "E", "loser": "B", "calls": [[]]}, {}, "[0].winner"),
    ({"result": "man", "winner": "A", "calls": [[]]}, {}, "[0].loser"),
    ({"result": "man", "winner": "A", "loser": "A", "calls": [[]]}, {}, "[0].loser"),
    ({"result": "man", "winner": "A", "loser": "B"}, {}, "[0].calls"),
    ({"result": "man", "winner": "A", "loser": "B", "calls": [["kaeshi"]]}, {}, "[0].calls[0]"),
    ({"result": "man", "winner": "A", "loser": "B", "calls": [[], ["tanki"]]}, {},
     "[0].calls[1]"),
    ({"result": "man", "winner": "A", "loser": "B", "calls": [["tanki", "tanki"]]}, {},
     "[0].calls[0]"),
    ({"result": "man", "winner": "A", "loser": "B",
      "calls": [["mekuri"], ["kaeshi", "mekuri"]]}, {}, "[0].calls[1]"),
    ({"result": "man", "winner": "A", "loser": "B",
      "calls": [[]] + [["kaeshi"]] * 4}, {}, "[0].calls"),
    ({"result": "man", "winner": "A", "loser": "B", "calls": [[]], "offender": "C"}, {},
     "[0].offender"),
    ({"result": "chombo", "offender": "C"}, {}, "[0].result"),
    ({"result": "chombo", "offender": "C", "winner": "A"}, {"violations": "chombo"},
     "[0].winner"),
    ({"result": "chombo"}, {"violations": "chombo"}, "[0].offender"),
    ({"result": "draw"}, {}, "[0].result"),
    ({"result": "draw", "calls": [[]]}, {"stock_exhausted": "draw_game"}, "[0].calls"),
])
def test_a_report_the_rules_cannot_produce_is_refused_at_its_field(deal, opts, path):
    assert refused_at(score, [deal], **opts) == path


def test_a_report_names_only_the_fields_of_a_reported_game():
    with pytest.raises(msgspec.ValidationError):
        reported({"result": "man", "winner": "A", "loser": "B", "calls": [[]], "stake": 2})
    with pytest.raises(msgspec.ValidationError):
        reported({"result": "man", "winner": "A", "loser": "B", "calls": [["double"]]})


def test_the_worked_game_reports_and_scores_as_it_was_played():
    state = _deal()["state"]
    for action, _spoken in MOVES:
        state = adjudicate.validate(state, action).state
    final = GAME.decode(state)
    report = REPORTED.of_deal(final)
    assert as_json(report) == {"result": "man", "winner": "A", "loser": "B",
                               "calls": [[], ["kaeshi"]]}
    assert REPORTED.score(options(), PLAYERS, [report]) == GAME.standings(final)


@settings(deadline=None, max_examples=examples(12))
@given(data=st.data())
def test_the_reports_of_a_random_match_score_to_its_standings(data):
    """Along a random match, the reports of the games finished so far (through JSON, as a
    table sends them) score to the standings of the last game's final state."""
    table = data.draw(tables("man"), label="table")
    rnd = random.Random(data.draw(st.integers(0, 2**32), label="play"))
    reports: list = []
    for _number, dealt, step in play_match("man", table, rnd):
        if step is None or step.applied.status != "finished":
            continue
        final = GAME.decode(step.applied.state)
        reports += reported(as_json(REPORTED.of_deal(final)))
        resolved = msgspec.to_builtins(final.options)  # as the deal resolved them
        assert REPORTED.score(resolved, dealt["players"], reports) == GAME.standings(final)


def test_a_chombo_the_referee_records_reports_and_scores_as_it_was_played():
    state = _deal(violations="chombo")["state"]
    applied = adjudicate.validate(state, {"type": "chombo", "player": "A", "offender": "D",
                                          "reason": "showed a card"})
    final = GAME.decode(applied.state)
    report = REPORTED.of_deal(final)
    assert as_json(report) == {"result": "chombo", "offender": "D"}
    assert REPORTED.score(options(violations="chombo"), PLAYERS, [report]) == \
        GAME.standings(final)
