"""Seating an event's rounds (docs/events.md "Seating"): random events of every game and table
size, with late entries, withdrawals, entrants not checked in, substitutes, reported results
and disqualifications, seated round after round: everyone who may play is seated exactly once
or given a bye; byes go to those with the fewest so far (swiss: the lowest-placed of them);
swiss seats no two entrants together twice while a brute-force search finds a way; partners
repeat only when no split of the table avoids it; the same event and seed seat the same, and
the revealed seed re-derives it; a director's plan is checked."""
from __future__ import annotations

import copy
import itertools

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine import registry, rng
from engine.events import (
    InvalidEvent,
    deal_seeds,
    next_round,
    parse_event,
    reveal_round,
    verify_seating,
)
from engine.events.format import active_units
from engine.events.roster import event_points
from tests.events.helpers import event, random_events
from tests.sizing import examples

PROPERTY = settings(max_examples=examples(40), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
ORACLE_POOL = 10  # the brute force's pools (every partition into tables) stay this small


def per_table(ev: dict) -> int:
    s = ev["system"]
    if s.get("partners", "none") != "fixed":
        return s["table_size"]
    return len(registry.get(s["game"]).partnerships[s["table_size"]])


def may_play(ev: dict, number: int) -> set[str]:
    """Who may be seated in round `number`, read from the document as docs/events.md says."""
    out = {p["entrant"] for p in ev.get("penalties", [])
           if p["kind"] == "disqualification" and p["round"] < number}
    return {e["id"] for e in ev["entrants"] if e.get("checked_in", True)
            and e.get("entered_round", 1) <= number and e["id"] not in out
            and (e.get("withdrawn_round") is None or number < e["withdrawn_round"])}


def met_before(ev: dict) -> set[frozenset[str]]:
    return {frozenset(pair) for rnd in ev.get("rounds", []) for t in rnd["tables"]
            for pair in itertools.combinations({s["entrant"] for s in t["seats"]}, 2)}


def partnered_before(ev: dict, sides) -> set[frozenset[str]]:
    return {frozenset(pair) for rnd in ev.get("rounds", []) for t in rnd["tables"]
            for side in sides for pair in itertools.combinations(
                [t["seats"][i]["player"] for i in side], 2)}


def byes_before(ev: dict) -> dict[str, int]:
    out: dict[str, int] = {}
    for rnd in ev.get("rounds", []):
        for u in rnd.get("byes", []):
            out[u] = out.get(u, 0) + 1
    return out


def repeat_free_exists(pool: list[str], size: int, met: set[frozenset[str]]) -> bool:
    """The oracle: some partition of `pool` into tables of `size` seats no two who met."""
    if not pool:
        return True
    first, rest = pool[0], pool[1:]
    for others in itertools.combinations(rest, size - 1):
        group = (first, *others)
        if any(frozenset(p) in met for p in itertools.combinations(group, 2)):
            continue
        if repeat_free_exists([u for u in rest if u not in others], size, met):
            return True
    return False


def check_round(before: dict, after: dict) -> None:
    number = len(before.get("rounds", [])) + 1
    rnd = after["rounds"][-1]
    units = [list(dict.fromkeys(s["entrant"] for s in t["seats"])) for t in rnd["tables"]]
    seated = [u for group in units for u in group] + rnd.get("byes", [])
    # everyone who may play seated exactly once, or given a bye
    assert sorted(seated) == sorted(may_play(before, number))
    assert all(len(g) == per_table(before) for g in units)
    assert len(rnd.get("byes", [])) == len(seated) % per_table(before)
    # byes rotate: nobody has a second bye while someone seated has had fewer
    byes = byes_before(before)
    if rnd.get("byes", []):
        assert max(byes.get(u, 0) for u in rnd.get("byes", [])) <= \
            min(byes.get(u, 0) for g in units for u in g)
    met = met_before(before)
    repeats = [p for g in units for p in itertools.combinations(g, 2) if frozenset(p) in met]
    pool = [u for g in units for u in g]
    if rnd["method"] == "swiss" and repeats and len(pool) <= ORACLE_POOL:
        assert not repeat_free_exists(pool, per_table(before), met), (units, repeats)
    game = registry.get(before["system"]["game"])
    sides = game.partnerships.get(before["system"]["table_size"], ())
    if before["system"].get("partners", "none") == "rotating":
        partnered = partnered_before(before, sides)
        for t in rnd["tables"]:
            cost = sum(frozenset(p) in partnered for side in sides
                       for p in itertools.combinations([t["seats"][i]["player"] for i in side], 2))
            if cost:  # no split of this table into sides repeats fewer partnerships
                people = [s["player"] for s in t["seats"]]
                assert all(any(frozenset(p) in partnered for side in split
                               for p in itertools.combinations(side, 2))
                           for split in _splits(people, len(sides)))
    if before["system"].get("partners", "none") == "fixed":
        for t in rnd["tables"]:
            for side in sides:
                assert len({t["seats"][i]["entrant"] for i in side}) == 1


def _splits(people: list[str], count: int):
    size = len(people) // count
    if count == 1:
        yield [people]
        return
    for others in itertools.combinations(people[1:], size - 1):
        rest = [p for p in people[1:] if p not in others]
        for tail in _splits(rest, count - 1):
            yield [[people[0], *others], *tail]


def play_on(ev: dict, number: int, data) -> dict:
    """After round `number`: random reported places at some tables, a substitute in some seats,
    now and then a director's penalty, and the seed revealed."""
    rnd = ev["rounds"][-1]
    for t in rnd["tables"]:
        if data.draw(st.booleans()):
            units = list(dict.fromkeys(s["entrant"] for s in t["seats"]))
            order = data.draw(st.permutations(units))
            t["result"] = {"reported": {"places": {u: i + 1 for i, u in enumerate(order)}}}
        if data.draw(st.integers(0, 4)) == 0:
            t["seats"][0]["substitute"] = {"id": f"sub-{number}-{t['number']}", "name": "Sub"}
    kind = data.draw(st.sampled_from(["", "", "", "points", "disqualification", "warning"]))
    if kind:
        who = data.draw(st.sampled_from([e["id"] for e in ev["entrants"]]))
        ev.setdefault("penalties", []).append(
            {"round": number, "entrant": who, "kind": kind, "reason": "test",
             **({"points": 1} if kind == "points" else {})})
    return reveal_round(ev, number, f"seed-{number}", "ab" * 16)


@PROPERTY
@given(random_events(), st.data())
def test_every_round_seats_each_entrant_once_or_gives_a_bye(ev, data):
    for number in range(1, 5):
        if len(may_play(ev, number)) < per_table(ev):
            break
        before = copy.deepcopy(ev)
        ev = next_round(ev, f"seed-{number}", "ab" * 16)
        check_round(before, ev)
        # the same event and seed seat the same
        assert next_round(before, f"seed-{number}", "ab" * 16) == ev
        ev = play_on(ev, number, data)
        parse_event(ev)  # what the helpers wrote stays a well-formed event
    for number in range(1, len(ev.get("rounds", [])) + 1):
        assert verify_seating(ev, number)


@settings(max_examples=examples(15), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(random_events(max_entrants=11), st.data())
def test_byes_rotate_and_a_swiss_bye_goes_to_the_lowest_placed_of_those_with_fewest(ev, data):
    """Six rounds, so that byes come round again: nobody is given a second bye while someone
    seated in the round has had none (nor a third while someone has one …); among those with
    as few byes, swiss gives it to the fewest event points."""
    ev["system"]["rounds"] = 6
    for number in range(1, 7):
        if len(may_play(ev, number)) < per_table(ev):
            break
        before = copy.deepcopy(ev)
        ev = next_round(ev, f"seed-{number}", "ab" * 16)
        rnd = ev["rounds"][-1]
        given_bye = rnd.get("byes", [])
        seated = {s["entrant"] for t in rnd["tables"] for s in t["seats"]}
        had = byes_before(before)
        for resting in given_bye:
            assert all(had.get(resting, 0) <= had.get(u, 0) for u in seated), (resting, had)
        if given_bye and rnd["method"] == "swiss":
            parsed = parse_event(before)
            points = event_points(parsed, parsed.rounds)
            for resting in given_bye:
                assert all(points[resting] <= points[u] for u in seated
                           if had.get(u, 0) == had.get(resting, 0)), (resting, points)
        ev = play_on(ev, number, data)


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(3, 10), st.sampled_from([2, 3, 4]), st.integers(0, 2 ** 32), st.data())
def test_swiss_repeats_a_meeting_only_when_no_seating_avoids_it(count, size, salt, data):
    """Small pools against the brute force, many rounds (repeats become unavoidable)."""
    if count < size:
        count = size
    ev = event(count, game="man", table_size=size, rounds=12)
    for number in range(1, 9):
        before = copy.deepcopy(ev)
        ev = next_round(ev, f"{salt}-{number}")
        check_round(before, ev)


def test_swiss_seats_equal_event_points_together():
    ev = event(8, game="man", table_size=2, event_points=[3, 0])
    ev = next_round(ev, "one")
    for t in ev["rounds"][0]["tables"]:
        a, b = (s["entrant"] for s in t["seats"])
        t["result"] = {"reported": {"places": {a: 1, b: 2}}}
    winners = {t["seats"][0]["entrant"] for t in ev["rounds"][0]["tables"]}
    ev = next_round(ev, "two")
    for t in ev["rounds"][1]["tables"]:
        pair = {s["entrant"] for s in t["seats"]}
        assert pair <= winners or not pair & winners, pair


def test_the_revealed_seed_must_make_the_commitment():
    ev = next_round(event(9), "secret", "cd" * 16)
    assert ev["rounds"][0]["seed_commitment"] == rng.commitment("secret", "cd" * 16)
    with pytest.raises(InvalidEvent) as err:
        reveal_round(ev, 1, "guess", "cd" * 16)
    assert err.value.code == "commitment_mismatch"
    shown = reveal_round(ev, 1, "secret", "cd" * 16)
    assert verify_seating(shown, 1)
    # a seating edited after the fact no longer re-derives from its seed
    tables = shown["rounds"][0]["tables"]
    tables[0]["seats"][0], tables[1]["seats"][0] = tables[1]["seats"][0], tables[0]["seats"][0]
    assert not verify_seating(shown, 1)
    with pytest.raises(InvalidEvent, match="not revealed"):
        verify_seating(ev, 1)
    with pytest.raises(InvalidEvent, match="not seated"):
        verify_seating(shown, 2)


def test_same_deals_commit_one_seed_per_deal_revealed_after_the_round():
    ev = next_round(event(8, same_deals=3), "round-seed", "ef" * 16)
    deals = ev["rounds"][0]["deals"]
    assert len(deals) == 3 and all(set(d) == {"seed_commitment"} for d in deals)
    assert len({d["seed_commitment"] for d in deals}) == 3
    shown = reveal_round(ev, 1, "round-seed", "ef" * 16)
    for d in shown["rounds"][0]["deals"]:
        assert rng.commitment(d["seed"], d["seed_salt"]) == d["seed_commitment"]
    assert [d["seed_commitment"] for d in shown["rounds"][0]["deals"]] == \
        [d["seed_commitment"] for d in deals]


def test_a_fixed_plan_is_seated_as_the_director_wrote_it():
    ev = event(9, seating="fixed")
    plan = {"tables": [["p8", "p7", "p6", "p5"], ["p4", "p3", "p2", "p1"]], "byes": ["p0"]}
    out = next_round(ev, "s", plan=plan)
    rnd = out["rounds"][0]
    assert [[s["entrant"] for s in t["seats"]] for t in rnd["tables"]] == plan["tables"]
    assert rnd["byes"] == ["p0"]
    assert verify_seating(reveal_round(out, 1, "s"), 1)


@pytest.mark.parametrize("plan", [
    {"tables": [["p8", "p7", "p6", "p5"], ["p4", "p3", "p2", "p8"]], "byes": ["p0", "p1"]},
    {"tables": [["p8", "p7", "p6", "p5"], ["p4", "p3", "p2", "p1"]], "byes": []},
    {"tables": [["p8", "p7", "p6", "p5"], ["p4", "p3", "p2", "p1"]], "byes": ["p0", "zz"]},
    {"tables": [["p8", "p7", "p6"], ["p5", "p4", "p3", "p2", "p1"]], "byes": ["p0"]},
    {"byes": ["p0"]},
], ids=["someone twice", "someone left out", "no such entrant", "a table short", "no tables"])
def test_a_fixed_plan_that_does_not_seat_everyone_once_is_refused(plan):
    with pytest.raises(InvalidEvent) as err:
        next_round(event(9, seating="fixed"), "s", plan=plan)
    assert err.value.code == "plan_invalid"


def test_late_entries_withdrawals_and_disqualifications_change_who_is_seated():
    ev = event(9)
    ev["entrants"][0]["entered_round"] = 2
    ev["entrants"][1]["withdrawn_round"] = 2
    ev["entrants"][2]["checked_in"] = False
    ev = next_round(ev, "a")
    first = {s["entrant"] for t in ev["rounds"][0]["tables"] for s in t["seats"]}
    assert {"p0", "p2"}.isdisjoint(first | set(ev["rounds"][0].get("byes", [])))
    assert "p1" in first | set(ev["rounds"][0].get("byes", []))
    ev["penalties"] = [{"round": 1, "entrant": "p3", "kind": "disqualification",
                        "reason": "abuse of an official"}]
    ev = next_round(ev, "b")
    assert sorted(active_units(parse_event(ev), 2)) == sorted(
        u for u in may_play(ev, 2))
    second = {s["entrant"] for t in ev["rounds"][1]["tables"] for s in t["seats"]}
    assert "p0" in second | set(ev["rounds"][1].get("byes", []))
    assert {"p1", "p3"}.isdisjoint(second | set(ev["rounds"][1].get("byes", [])))


def test_an_event_seats_no_more_rounds_than_it_planned():
    ev = event(4, rounds=1)
    ev = next_round(ev, "a")
    with pytest.raises(InvalidEvent, match="all seated"):
        next_round(ev, "b")


def test_seating_is_pinned_so_a_change_of_algorithm_is_seen():
    """Like the deal's pinned shuffle (tests/engine/test_rng.py): anyone re-deriving a past
    round's seating needs this algorithm unchanged, whatever machine or Python hash seed."""
    ev = event(7, game="daifugo", table_size=3)
    for number in (1, 2, 3):
        ev = next_round(ev, f"pinned-{number}")
    assert [([[s["entrant"] for s in t["seats"]] for t in r["tables"]], r["byes"])
            for r in ev["rounds"]] == [
        ([["p1", "p5", "p4"], ["p6", "p2", "p3"]], ["p0"]),
        ([["p6", "p4", "p0"], ["p2", "p3", "p5"]], ["p1"]),
        ([["p2", "p0", "p1"], ["p4", "p6", "p5"]], ["p3"])]
    rotating = next_round(event(6, game="guandan", table_size=4, partners="rotating"), "pinned")
    assert [[s["entrant"] for s in t["seats"]] for t in rotating["rounds"][0]["tables"]] == \
        [["p3", "p5", "p0", "p2"]]
    assert rotating["rounds"][0]["byes"] == ["p4", "p1"]


def test_a_plan_is_only_for_a_fixed_round():
    with pytest.raises(InvalidEvent) as err:
        next_round(event(8), "s", method="swiss", plan={"tables": [], "byes": []})
    assert err.value.code == "plan_invalid"


@pytest.mark.parametrize("seed,salt,path", [("", None, "seed"), (7, None, "seed"),
                                            ("s", "not hex", "seed_salt")])
def test_a_round_seed_and_salt_are_checked(seed, salt, path):
    with pytest.raises(InvalidEvent) as err:
        next_round(event(8), seed, salt)
    assert err.value.path == path


def test_the_same_deals_seeds_are_derived_as_documented():
    import hashlib

    def derived(text: str, k: int) -> str:
        return hashlib.sha256(b"card-referee/event-deal/v1\x00" + text.encode() + b"\x00"
                              + str(k).encode()).hexdigest()[:32]
    salt = "0f" * 16
    assert deal_seeds("round-seed", salt, 2) == [
        {"seed": derived("round-seed", k), "seed_salt": derived(salt, k),
         "seed_commitment": rng.commitment(derived("round-seed", k), derived(salt, k))}
        for k in (1, 2)]
