"""The event document, format 1 (docs/events.md): declared once, read with a path and a stable
code for each fault, and a canonical digest as match records have; event points from the
results that carry places, byes and the director's penalties."""
from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine.errors import InputError
from engine.events import digest, next_round, parse_event
from engine.events.roster import event_points
from tests.events.helpers import event
from tests.sizing import examples


def reordered(value, rnd: random.Random):
    if isinstance(value, dict):
        keys = list(value)
        rnd.shuffle(keys)
        return {k: reordered(value[k], rnd) for k in keys}
    if isinstance(value, list):
        return [reordered(v, rnd) for v in value]
    return value


def seated(entrants=9, **kw) -> dict:
    return next_round(event(entrants, **kw), "seed")


def test_the_digest_is_the_canonical_form_whatever_the_spelling():
    ev = seated()
    made = digest(ev)
    assert made.startswith("sha256:") and len(made) == 71
    spelt = json.loads(json.dumps(reordered(ev, random.Random(3)), indent=2))
    assert digest(spelt) == made
    assert digest({**ev, "digest": "sha256:whatever"}) == made  # the digest leaves itself out
    changed = copy.deepcopy(ev)
    changed["entrants"][0]["name"] = "Someone else"
    assert digest(changed) != made


def test_a_seated_event_reads_back_as_it_was_written():
    ev = seated(game="guandan", table_size=4, partners="fixed", same_deals=2)
    assert next_round(ev, "again")["rounds"][0] == ev["rounds"][0]
    parse_event(ev)


def _refused(ev: dict) -> InputError:
    with pytest.raises(InputError) as err:
        parse_event(ev)
    return err.value


def _edit(path_value):
    def apply(ev):
        *keys, last = path_value[0]
        target = ev
        for k in keys:
            target = target[k]
        target[last] = path_value[1]
        return ev
    return apply


CASES = [
    # (what, edit, code, path)
    ("not an event", lambda ev: {**ev, "format": "card-referee/match-record"},
     "event_invalid", "format"),
    ("a newer version", lambda ev: {**ev, "format_version": 2},
     "event_version_unsupported", "format_version"),
    ("a misspelt field", lambda ev: {**ev, "system": {**ev["system"], "tabel_size": 4}},
     "event_invalid", "system"),
    ("a fraction", _edit((["system", "event_points"], [3, 1.5])), "event_invalid",
     "system.event_points[1]"),
    ("an unknown game", _edit((["system", "game"], "chess")), "game_unknown", "system.game"),
    ("a wrong option", _edit((["system", "options"], {"preset": "nope"})), "options_invalid",
     "system.options.preset"),
    ("a table too large", _edit((["system", "table_size"], 9)), "event_invalid",
     "system.table_size"),
    ("a round end of no deals", _edit((["system", "round_end"], {"kind": "deals", "deals": 0})),
     "event_invalid", "system.round_end"),
    ("a bell without its rule", _edit((["system", "round_end"], {"kind": "time", "minutes": 50})),
     "event_invalid", "system.round_end"),
    ("look-alike ids", _edit((["entrants", 1, "id"], "P0")), "event_invalid", "entrants[1].id"),
    ("a tie-break twice", _edit((["system", "tie_breaks"], ["head_to_head", "head_to_head"])),
     "event_invalid", "system.tie_breaks"),
    ("more rounds than planned", _edit((["system", "rounds"], 0)), "event_invalid",
     "system.rounds"),
    ("a withdrawal before entry", _edit((["entrants", 0, "withdrawn_round"], 1)),
     "event_invalid", "entrants[0].withdrawn_round"),
]


@pytest.mark.parametrize("what,edit,code,path", CASES, ids=[c[0] for c in CASES])
def test_a_malformed_event_is_refused_naming_its_path(what, edit, code, path):
    err = _refused(edit(seated()))
    assert (err.code, err.path) == (code, path), err.message


def test_partners_follow_what_the_game_has_at_the_table_size():
    assert _refused(event(8, game="guandan", table_size=4)).path == "system.partners"
    assert _refused(event(8, game="man", table_size=4, partners="rotating")).path == \
        "system.partners"
    assert _refused(event(8, game="manillen", table_size=5)).path == "system.table_size"
    team = event(8, game="guandan", table_size=4, partners="fixed")
    team["entrants"][0]["members"].pop()
    assert _refused(team).path == "entrants[0].members"
    named = event(8, game="guandan", table_size=4, partners="fixed")
    named["entrants"][0]["members"][0]["id"] = "Team1"  # looks like the game's team id
    assert _refused(named).path == "entrants[0].members[0].id"


def test_a_round_seats_only_who_may_play_and_each_once():
    ev = seated()
    table = ev["rounds"][0]["tables"][0]
    twice = copy.deepcopy(ev)
    twice["rounds"][0]["tables"][1]["seats"][0] = copy.deepcopy(table["seats"][0])
    assert "seated twice" in _refused(twice).message
    late = copy.deepcopy(ev)
    late["entrants"][int(table["seats"][0]["entrant"][1:])]["entered_round"] = 2
    assert _refused(late).path == "rounds[0].tables[0].seats"
    wrong_player = copy.deepcopy(ev)
    wrong_player["rounds"][0]["tables"][0]["seats"][0]["player"] = "nobody"
    assert _refused(wrong_player).path == "rounds[0].tables[0].seats[0].player"


def test_a_tables_result_is_a_record_of_its_seats_or_a_reported_result():
    ev = seated()
    table = ev["rounds"][0]["tables"][0]
    units = [s["entrant"] for s in table["seats"]]
    table["result"] = {"reported": {"places": {u: i + 1 for i, u in enumerate(units)}}}
    parse_event(ev)
    table["result"]["reported"]["places"][units[0]] = 9
    assert _refused(ev).path == f"rounds[0].tables[0].result.reported.places.{units[0]}"
    record = {"format": "card-referee/match-record", "format_version": 1, "game": "daifugo",
              "players": units, "deals": [{"deal": {"seed": "t1"}}]}
    table["result"] = {"record": record}
    parse_event(ev)
    table["seats"][1]["substitute"] = {"id": "stand-in", "name": "Stand-in"}
    assert _refused(ev).path == "rounds[0].tables[0].result.record.players"
    record["players"] = [units[0], "stand-in", *units[2:]]  # the substitute sits in the record
    parse_event(ev)
    record["deals"] = []
    assert _refused(ev).path == "rounds[0].tables[0].result.record.deals"
    table["result"] = {"record": {**record, "deals": [{"deal": {"seed": "t"}}], "game": "man"}}
    assert _refused(ev).path == "rounds[0].tables[0].result.record.game"
    table["result"] = {}
    assert _refused(ev).path == "rounds[0].tables[0].result"


def test_event_points_count_places_byes_and_the_directors_points():
    ev = seated(9, event_points=[5, 3, 1], bye_points=4)
    rnd = ev["rounds"][0]
    for t in rnd["tables"]:
        units = [s["entrant"] for s in t["seats"]]
        t["result"] = {"reported": {"places": {u: min(i + 1, 3) for i, u in enumerate(units)}}}
    ev["penalties"] = [{"round": 1, "entrant": rnd["tables"][0]["seats"][0]["entrant"],
                        "kind": "points", "points": 2, "reason": "late"}]
    parsed = parse_event(ev)
    points = event_points(parsed, parsed.rounds)
    first = rnd["tables"][0]["seats"]
    assert [points[s["entrant"]] for s in first] == [5 - 2, 3, 1, 1]
    assert points[rnd["byes"][0]] == 4
    bad = copy.deepcopy(ev)
    bad["penalties"][0]["points"] = 0
    assert _refused(bad).path == "penalties[0].points"


def test_a_substitute_sits_once_in_a_round_under_an_id_of_their_own():
    ev = seated()
    tables = ev["rounds"][0]["tables"]
    tables[0]["seats"][0]["substitute"] = {"id": "stand-in"}
    parse_event(ev)
    tables[1]["seats"][0]["substitute"] = {"id": "Stand-In"}  # looks like the first
    assert _refused(ev).path == "rounds[0].tables[1].seats[0]"
    tables[1]["seats"][0]["substitute"] = {"id": tables[0]["seats"][1]["player"]}
    assert _refused(ev).path == "rounds[0].tables[1].seats[0]"
    team = seated(game="guandan", table_size=4, partners="fixed")
    team["rounds"][0]["tables"][0]["seats"][0]["substitute"] = {"id": "team2"}
    assert _refused(team).path == "rounds[0].tables[0].seats[0]"


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 10) | st.text(max_size=4)
                    | st.floats(allow_nan=False, allow_infinity=False),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=6)


def _paths(value, here=()):
    yield here
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*here, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*here, i))


@settings(max_examples=examples(50), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_edit_of_an_event_reads_or_is_refused_with_a_code(data):
    """Whatever a client writes anywhere in an event, reading and seating it answer or refuse
    with a stable code: never another exception (the service would answer 500)."""
    layout = data.draw(st.sampled_from([("daifugo", "none"), ("guandan", "fixed"),
                                        ("guandan", "rotating")]))
    ev = next_round(event(9, game=layout[0], partners=layout[1]), "s")
    table = ev["rounds"][0]["tables"][0]
    table["result"] = {"reported": {"places": {s["entrant"]: 1 for s in table["seats"]}}}
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(list(_paths(ev))[1:]))
        target = ev
        for key in path[:-1]:
            target = target[key]
        if data.draw(st.booleans()) and isinstance(target, dict):
            del target[path[-1]]
        else:
            target[path[-1]] = data.draw(JSON)
    try:
        next_round(ev, "t")
    except InputError as err:
        assert err.code and isinstance(err.path, str)


def test_an_event_holds_no_more_rounds_than_it_plans():
    ev = seated(rounds=2)
    ev = next_round(ev, "again")
    ev["system"]["rounds"] = 1
    assert _refused(ev).path == "rounds"
