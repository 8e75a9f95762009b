"""The event's check (docs/events.md "Checking an event"): an event played as the engine seats
and scores it is consistent; a changed card or score in a table's record, a changed place or
score in a reported result, a changed seat, a changed revealed seed are each found at their
round, table (deal, step) and path, the first in the document's order."""
from __future__ import annotations

import copy
import random
import re
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings, strategies as st

from engine import records, registry
from engine.events import digest, next_round, parse_event
from engine.events.check import CODES, EventCheck, check_event
from engine.events.format import InvalidEvent
from tests.events.helpers import event, layouts
from tests.events.playing import finished, play_round
from tests.sizing import examples

# Whole events are slow to play: a failing example is reported as it was drawn (its seed,
# layout and size), not shrunk through hundreds of replayed events.
SETTINGS = settings(max_examples=examples(8), deadline=None,
                    phases=(Phase.explicit, Phase.reuse, Phase.generate),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


class Played(dict):  # type: ignore[type-arg]
    """An event played from a seed: shown by how it was made, not as its whole document."""

    def __init__(self, made: tuple[int, tuple[str, int, str], int], ev: dict[str, Any]):
        super().__init__(ev)
        self.made = made

    def __repr__(self) -> str:
        return f"finished(random.Random({self.made[0]}), {self.made[1]}, {self.made[2]}, 2, ...)"


def events(records_share: float = 0.5, same_deals: int = 0) -> Any:
    return st.builds(lambda seed, layout, n: Played((seed, layout, n), finished(
        random.Random(seed), layout, n, 2, records_share, same_deals)),
                     st.integers(0, 2**32), st.sampled_from(layouts()), st.integers(3, 9))


def resolve(doc: Any, path: str) -> Any:
    """What a discrepancy's path names in the document (KeyError/IndexError: nothing)."""
    for name, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", path):
        doc = doc[int(index)] if index else doc[name]
    return doc


def tables(ev: dict[str, Any], kind: str) -> list[tuple[int, int]]:
    """(round index, table index) of every table whose result is a `kind` (record, reported)."""
    return [(k, t) for k, rnd in enumerate(ev["rounds"]) for t, table in enumerate(rnd["tables"])
            if kind in (table.get("result") or {})]


def found(ev: dict[str, Any]) -> dict[str, Any]:
    answer = check_event(ev)
    assert not answer["consistent"]
    d = answer["discrepancy"]
    assert d["code"] in CODES
    resolve(ev, d["path"])  # the path names a place in the document
    assert d["message"]["en"] and d["message"]["ja"]
    return d


@given(events())
@SETTINGS
def test_an_event_played_as_the_engine_seats_and_scores_it_is_consistent(ev):
    answer = check_event(ev)
    assert answer == {"consistent": True, "discrepancy": None, "checked": answer["checked"]}
    checked = answer["checked"]
    assert checked["records"] == len(tables(ev, "record"))
    assert checked["reported"] == len(tables(ev, "reported"))
    assert checked["seatings"] == len(ev["rounds"])
    assert checked["commitments"] == len(ev["rounds"])
    assert checked["penalties"] == len(ev.get("penalties", []))
    msgspec.convert(answer, EventCheck)  # the answer is the Struct the spec publishes


@given(events(same_deals=2))
@SETTINGS
def test_the_same_deals_are_checked_against_the_rounds_seeds(ev):
    answer = check_event(ev)
    assert answer["consistent"], answer["discrepancy"]
    assert answer["checked"]["commitments"] == 3 * len(ev["rounds"])  # the round's and 2 deals'
    dealt = sum(min(2, len(resolve(ev, f"rounds[{k}].tables[{t}].result.record.deals")))
                for k, t in tables(ev, "record"))
    assert answer["checked"]["same_deals"] == dealt


def _cards(record: dict[str, Any]) -> list[str]:
    out = []
    for deal in record["deals"]:
        for entry in deal["actions"]:
            action = entry["action"]
            out += action.get("cards") or ([action["card"]] if "card" in action else [])
    return out


def _change_a_move(record: dict[str, Any], rnd: random.Random) -> None:
    """A card of a recorded action replaced by another card of the record (or, a record
    whose actions name no card, an action left out)."""
    cards = sorted(set(_cards(record)))
    moves = [(d, i) for d, deal in enumerate(record["deals"])
             for i, entry in enumerate(deal["actions"])
             if entry["action"].get("cards") or "card" in entry["action"]]
    if len(cards) < 2 or not moves:
        d = rnd.randrange(len(record["deals"]))
        actions = record["deals"][d]["actions"]
        if actions:
            del actions[rnd.randrange(len(actions))]
        else:
            record["deals"][d]["deal"]["seed"] += "x"
        return
    d, i = rnd.choice(moves)
    action = record["deals"][d]["actions"][i]["action"]
    if "card" in action:
        action["card"] = rnd.choice([c for c in cards if c != action["card"]])
    else:
        j = rnd.randrange(len(action["cards"]))
        action["cards"][j] = rnd.choice([c for c in cards if c != action["cards"][j]])


@given(events(records_share=0.7), st.randoms(use_true_random=False))
@SETTINGS
def test_a_changed_card_in_a_record_is_found_at_its_round_table_deal_and_step(ev, rnd):
    places = tables(ev, "record")
    assume(places)
    k, t = rnd.choice(places)
    changed = copy.deepcopy(ev)
    record = resolve(changed, f"rounds[{k}].tables[{t}].result.record")
    _change_a_move(record, rnd)
    own = records.check_record(record)["discrepancy"]  # what the record's own check finds
    assert own is not None
    d = found(changed)
    assert d["code"] == "record_inconsistent" and d["record_code"] == own["code"]
    assert (d["round"], d["table"]) == (k + 1, ev["rounds"][k]["tables"][t]["number"])
    assert (d["deal"], d["step"]) == (own["deal"], own["step"])
    assert d["path"].startswith(f"rounds[{k}].tables[{t}].result.record")
    assert own["message"].rstrip(".") in d["message"]["en"]


def _one_off(score: int) -> int:
    """Another score next to `score`, still one a record may hold (Manillen's doublings reach
    2^53 − 1, the largest)."""
    return score - 1 if score > 0 else score + 1


def _change_a_score(record: dict[str, Any], rnd: random.Random) -> None:
    """A score the record writes made one off: a step's score delta, or (a record whose
    steps score nothing, or now and then) a deal's result total."""
    steps = [entry for deal in record["deals"] for entry in deal["actions"]
             if entry.get("score_deltas")]
    totals = [deal["result"]["totals"] for deal in record["deals"] if deal["result"]["totals"]]
    if steps and (not totals or rnd.random() < 0.7):
        delta = rnd.choice(rnd.choice(steps)["score_deltas"])
        delta["delta"] = _one_off(delta["delta"])
    elif totals:
        deal_totals = rnd.choice(totals)
        who = rnd.choice(sorted(deal_totals))
        deal_totals[who] = _one_off(deal_totals[who])
    else:  # no score anywhere: a total where the engine has none
        record["deals"][-1]["result"]["totals"] = {record["players"][0]: 1}


@given(events(records_share=0.7), st.randoms(use_true_random=False))
@SETTINGS
def test_a_changed_score_in_a_record_is_found_at_its_round_table_deal_and_step(ev, rnd):
    places = tables(ev, "record")
    assume(places)
    k, t = rnd.choice(places)
    changed = copy.deepcopy(ev)
    record = resolve(changed, f"rounds[{k}].tables[{t}].result.record")
    _change_a_score(record, rnd)
    own = records.check_record(record)["discrepancy"]  # what the record's own check finds
    assert own is not None and own["code"] in ("score_differs", "result_differs")
    d = found(changed)
    assert d["code"] == "record_inconsistent" and d["record_code"] == own["code"]
    assert (d["round"], d["table"]) == (k + 1, ev["rounds"][k]["tables"][t]["number"])
    assert (d["deal"], d["step"]) == (own["deal"], own["step"])
    assert d["path"].startswith(f"rounds[{k}].tables[{t}].result.record.deals[{own['deal']}]")


@given(events(records_share=0.3), st.randoms(use_true_random=False), st.booleans())
@SETTINGS
def test_a_changed_place_or_score_in_a_reported_result_is_found_at_its_table(ev, rnd, place):
    places = tables(ev, "reported")
    assume(places)
    k, t = rnd.choice(places)
    changed = copy.deepcopy(ev)
    result = resolve(changed, f"rounds[{k}].tables[{t}].result.reported")
    unit = rnd.choice(sorted(result["places"]))
    if place:  # another place the table could give
        result["places"][unit] = rnd.choice([p for p in range(1, len(result["places"]) + 1)
                                             if p != result["places"][unit]])
    else:  # a score that moves the entrant to the other end of the table
        sign = -1 if registry.get(ev["system"]["game"]).standings_fewest_first else 1
        scores = result["scores"]
        if result["places"][unit] == 1:
            result["scores"][unit] = min(sign * s for s in scores.values()) * sign - sign
        else:
            result["scores"][unit] = max(sign * s for s in scores.values()) * sign + sign
    d = found(changed)
    assert d["code"] == "reported_inconsistent"
    assert (d["round"], d["table"]) == (k + 1, ev["rounds"][k]["tables"][t]["number"])
    assert d["path"].startswith(f"rounds[{k}].tables[{t}].result.reported.places")


@given(events(), st.randoms(use_true_random=False))
@SETTINGS
def test_a_changed_seat_is_found_at_its_round_and_table(ev, rnd):
    k = rnd.randrange(len(ev["rounds"]))
    rnd_tables = ev["rounds"][k]["tables"]
    assume(rnd_tables)
    t = rnd.randrange(len(rnd_tables))
    changed = copy.deepcopy(ev)
    table = changed["rounds"][k]["tables"][t]
    seats = table["seats"]
    game = registry.get(ev["system"]["game"])
    if ev["system"].get("partners") == "fixed":  # two teams change sides
        a, b = game.partnerships[len(seats)][:2]
        order = list(range(len(seats)))
        for i, j in zip(a, b):
            order[i], order[j] = j, i
    else:  # two entrants change seats
        order = list(range(len(seats)))
        i, j = rnd.sample(order, 2)
        order[i], order[j] = j, i
    table["seats"] = [seats[i] for i in order]
    record = (table.get("result") or {}).get("record")
    if record is not None:  # its seats as the table's (else the document is not well formed)
        record["players"] = [record["players"][i] for i in order]
    d = found(changed)
    assert d["code"] == "seating_mismatch"
    assert (d["round"], d["table"]) == (k + 1, table["number"])
    assert d["path"] == f"rounds[{k}].tables[{t}].seats"


@given(events(same_deals=2), st.randoms(use_true_random=False), st.booleans())
@SETTINGS
def test_a_changed_revealed_seed_is_found_at_its_round(ev, rnd, deal_seed):
    k = rnd.randrange(len(ev["rounds"]))
    changed = copy.deepcopy(ev)
    rnd_doc = changed["rounds"][k]
    if deal_seed:
        j = rnd.randrange(2)
        rnd_doc["deals"][j]["seed"] += "x"
    else:
        rnd_doc["seed"] += "x"
    d = found(changed)
    assert d["code"] == "commitment_mismatch"
    assert (d["round"], d["table"], d["step"]) == (k + 1, None, None)
    if deal_seed:
        assert (d["deal"], d["path"]) == (j, f"rounds[{k}].deals[{j}].seed_commitment")
    else:
        assert (d["deal"], d["path"]) == (None, f"rounds[{k}].seed_commitment")


def _played(layout: tuple[str, int, str] = ("daifugo", 4, "none"), **kw: Any) -> dict[str, Any]:
    return finished(random.Random(5), layout, 9, 3, **kw)


def test_the_first_discrepancy_in_the_document_is_the_one_named():
    ev = _played(records_share=0.0)
    ev["rounds"][2]["seed"] += "x"
    reported = ev["rounds"][1]["tables"][0]["result"]["reported"]
    reported["places"] = {u: 2 for u in reported["places"]}  # no one placed first
    d = found(ev)
    assert (d["code"], d["round"], d["table"]) == ("reported_inconsistent", 2, 1)


def test_a_same_deals_table_dealt_from_other_seeds_is_found_at_its_deal():
    ev = _played(records_share=1.0, same_deals=2)
    k, t = tables(ev, "record")[-1]
    deal = ev["rounds"][k]["tables"][t]["result"]["record"]["deals"][0]["deal"]
    deal["seed_commitment"] = "0" * 64
    d = found(ev)
    assert (d["code"], d["round"], d["deal"]) == ("same_deal_differs", k + 1, 0)
    assert d["path"] == f"rounds[{k}].tables[{t}].result.record.deals[0].deal"


def test_a_deal_seed_the_rounds_seed_does_not_derive_is_found():
    ev = _played(same_deals=2)
    ev["rounds"][0]["deals"][1] = {"seed_commitment": "ab" * 32}  # committed, not revealed
    d = found(ev)
    assert (d["code"], d["round"], d["deal"]) == ("deal_seed_mismatch", 1, 1)


def test_a_seating_that_leaves_out_an_entrant_who_may_play_is_found():
    ev = finished(random.Random(5), ("daifugo", 4, "none"), 9, 2)
    second = ev["rounds"][1]
    left_out = [s["entrant"] for s in second["tables"][0]["seats"]]
    second["tables"] = second["tables"][1:]
    ev["penalties"] = [p for p in ev.get("penalties", []) if p["entrant"] not in left_out]
    d = found(ev)
    assert (d["code"], d["round"], d["table"]) == ("seating_incomplete", 2, None)
    assert d["path"] == "rounds[1]"
    assert any(u in d["message"]["en"] and u in d["message"]["ja"] for u in left_out)


def test_an_unrevealed_round_is_not_re_derived():
    ev = _played()
    ev["rounds"][-1].pop("seed")
    ev["rounds"][-1].pop("seed_salt")
    ev["rounds"][-1]["deals"] = []
    answer = check_event(ev)
    assert answer["consistent"], answer["discrepancy"]
    assert answer["checked"]["seatings"] == answer["checked"]["commitments"] == 2


def test_a_penalty_to_an_entrant_no_longer_in_the_event_is_found():
    ev = finished(random.Random(5), ("daifugo", 4, "none"), 9, 1)
    unit = ev["entrants"][0]["id"]
    ev.setdefault("penalties", []).append(
        {"round": 1, "entrant": unit, "kind": "disqualification", "reason": "cheating"})
    ev = play_round(ev, 2, random.Random(6), 0.0, penalties=False)
    assert check_event(ev)["consistent"]
    ev["penalties"].append({"round": 2, "entrant": unit, "kind": "warning", "reason": "rude"})
    d = found(ev)
    assert (d["code"], d["round"], d["path"]) == \
        ("penalty_inconsistent", 2, f"penalties[{len(ev['penalties']) - 1}]")


def test_a_carried_digest_that_is_not_the_events_is_found_last():
    ev = _played()
    ev["digest"] = digest(ev)
    assert check_event(ev)["consistent"]
    ev["name"] = "Renamed Open"
    d = found(ev)
    assert (d["code"], d["path"], d["round"]) == ("digest_mismatch", "digest", None)


def test_a_record_that_does_not_replay_names_the_records_own_words_in_both_languages():
    ev = _played(records_share=1.0)
    k, t = tables(ev, "record")[0]
    record = ev["rounds"][k]["tables"][t]["result"]["record"]
    record["totals"] = {p: 99 for p in record["players"]}
    d = found(ev)
    assert (d["code"], d["record_code"], d["deal"], d["step"]) == \
        ("record_inconsistent", "totals_differ", None, None)
    assert d["path"] == f"rounds[{k}].tables[{t}].result.record.totals"
    assert d["message"]["ja"].startswith(f"第{k + 1}ラウンド 第")
    assert "記録の合計" in d["message"]["ja"]


def test_a_malformed_document_is_refused_not_checked():
    ev = _played()
    ev["rounds"][0]["tables"][0]["seats"][0]["entrant"] = "nobody"
    with pytest.raises(InvalidEvent) as err:
        check_event(ev)
    assert err.value.code == "event_invalid"
    assert err.value.path.startswith("rounds[0].tables[0]")
    parse_event(_played())  # the unchanged event reads


def test_a_record_changed_in_place_after_a_check_is_checked_again():
    ev = _played(records_share=1.0)
    assert check_event(ev)["consistent"]
    k, t = tables(ev, "record")[0]
    record = ev["rounds"][k]["tables"][t]["result"]["record"]
    record["totals"] = {p: 99 for p in record["players"]}  # the same object, changed
    assert found(ev)["code"] == "record_inconsistent"


def test_a_fixed_round_is_the_directors_plan_checked_for_everyone_seated_once():
    ev = finished(random.Random(5), ("daifugo", 4, "none"), 9, 1)
    units = [e["id"] for e in ev["entrants"]]
    ev = next_round(ev, "seed-2", plan={"tables": [units[:4], units[4:8]], "byes": units[8:]})
    assert ev["rounds"][1]["method"] == "fixed"
    answer = check_event(ev)  # not revealed: a fixed round is re-derived all the same
    assert answer["consistent"] and answer["checked"]["seatings"] == 2
    ev["rounds"][1]["byes"] = []
    d = found(ev)
    assert (d["code"], d["round"], d["path"]) == ("seating_incomplete", 2, "rounds[1]")
    assert units[8] in d["message"]["en"]


def test_a_reported_results_stated_places_and_scores_are_checked_against_its_deals():
    ev = next_round(event(2, game="guandan", table_size=4, partners="fixed",
                          event_points=[2, 0]), "s")
    table = ev["rounds"][0]["tables"][0]
    seats = [s["player"] for s in table["seats"]]
    first, second = table["seats"][0]["entrant"], table["seats"][1]["entrant"]
    # the first team's pair finishes 1st and 2nd: 2 → 5 (docs/events.md "Reported results")
    table["result"] = {"reported": {"deals": [{"order": [seats[0], seats[2]]}],
                                    "places": {first: 1, second: 2},
                                    "scores": {first: 5, second: 2}}}
    answer = check_event(ev)
    assert answer["consistent"] and answer["checked"]["reported"] == 1
    table["result"]["reported"]["scores"] = {first: 5, second: 3}
    d = found(ev)
    assert (d["code"], d["round"], d["table"]) == ("reported_inconsistent", 1, 1)
    assert d["path"] == f"rounds[0].tables[0].result.reported.scores.{second}"
    table["result"]["reported"]["places"] = {first: 2, second: 1}
    assert found(ev)["path"] == f"rounds[0].tables[0].result.reported.places.{first}"
