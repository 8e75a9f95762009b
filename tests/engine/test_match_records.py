"""Match records (docs/records.md): a whole match of any game written down, re-checked move by
move. Random legal matches of every game (tests/records.py: several deals with the match carried,
physical deals, referee ledger entries) are consistent and keep one digest however their JSON is
spelled; each kind of tampering is found at its deal and step; malformed records are refused with
a path naming what is wrong."""
from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine import adjudicate, records, registry, rng
from engine.errors import InvalidOptions
from engine.fields import MAX_SAFE_INT
from tests.records import random_record
from tests.sizing import examples

GAMES = [g.id for g in registry.all_games()]
SEEDS = st.integers(min_value=0, max_value=2 ** 32)
PROPERTY = settings(max_examples=examples(12), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def check(record: dict, **kw) -> dict:
    return records.check_record(copy.deepcopy(record), **kw)


def reordered(value, rnd: random.Random):
    """The same JSON with every object's keys in a random order."""
    if isinstance(value, dict):
        keys = list(value)
        rnd.shuffle(keys)
        return {k: reordered(value[k], rnd) for k in keys}
    if isinstance(value, list):
        return [reordered(v, rnd) for v in value]
    return value


# ---------------------------------------------------------------- consistent records

@pytest.mark.parametrize("game_id", GAMES)
@PROPERTY
@given(seed=SEEDS)
def test_a_random_match_record_is_consistent_deal_by_deal(game_id, seed):
    record = random_record(game_id, random.Random(seed))
    report = check(record, keep_steps=True)
    assert report["discrepancy"] is None and report["consistent"]
    assert report["digest"] == record["digest"] and report["digest_matches"] is True
    assert report["game"] == game_id and report["format_version"] == 1
    assert len(report["deals"]) == len(record["deals"])
    for k, (entry, summary) in enumerate(zip(record["deals"], report["deals"])):
        assert summary["index"] == k
        assert summary["actions"] == len(entry["actions"]) == len(summary["steps"])
        assert summary["status"] == entry["result"]["status"]
        assert summary["totals"] == entry["result"]["totals"]
        assert summary["commitment_checked"] == ("seed_commitment" in entry["deal"])
        if "seed" in entry["deal"]:
            assert summary["seed_commitment"] == entry["deal"]["seed_commitment"]
        for step, written in zip(summary["steps"], entry["actions"]):
            assert step["action"]["type"] == written["action"]["type"]
            assert step.get("comment") == written.get("comment")
    assert report["totals"] == record["totals"]


@pytest.mark.parametrize("game_id", GAMES)
@PROPERTY
@given(seed=SEEDS)
def test_the_digest_is_the_same_however_the_json_is_spelled(game_id, seed):
    rnd = random.Random(seed)
    record = random_record(game_id, rnd, deals=2)
    spelled = json.loads(json.dumps(reordered(record, rnd), indent=rnd.choice([None, 1, 4]),
                                    ensure_ascii=rnd.random() < 0.5))
    assert records.digest(spelled) == records.digest(record) == record["digest"]
    assert check(spelled)["digest"] == record["digest"]
    # JCS for keys of the Basic Multilingual Plane: code-point order, no whitespace, UTF-8
    body = {k: v for k, v in record.items() if k != "digest"}
    plain = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert records.canonical_bytes(record) == plain.encode()


def test_the_digest_covers_every_field_but_itself_unknown_tags_included():
    record = random_record("man", random.Random(3), deals=1)
    base = records.digest(record)
    assert records.digest({**record, "digest": "sha256:" + "0" * 64}) == base
    assert records.digest({**record, "tags": {**record["tags"], "x-note": "rain"}}) != base
    report = check({**record, "tags": {**record["tags"], "x-note": {"any": ["json", 1, None]}}})
    assert report["consistent"] is False  # the carried digest no longer matches
    assert report["discrepancy"]["code"] == "digest_mismatch"
    unsealed = {k: v for k, v in record.items() if k != "digest"}
    assert check(unsealed)["consistent"] and check(unsealed)["digest_matches"] is None


def test_the_match_is_carried_between_deals_as_a_client_carries_it():
    for seed in range(40):
        record = random_record("daifugo", random.Random(seed), deals=3)
        if len(record["deals"]) == 3:
            break
    report = check(record)
    first, second = report["deals"][0], report["deals"][1]
    again = adjudicate.deal("daifugo", record["players"], None, record["deals"][1]["deal"]["seed"],
                            match=first["next_match"],
                            seed_salt=record["deals"][1]["deal"]["seed_salt"])
    assert again["seed_commitment"] == second["seed_commitment"]
    assert first["next_match"]["deal"] + 1 == second["next_match"]["deal"]


def test_a_deal_after_the_match_ended_is_match_over():
    for seed in range(200):
        record = random_record("manteur", random.Random(seed), deals=2)
        if check(record)["match_finished"]:
            break
    else:
        pytest.fail("no random Manteur match ended")
    extra = copy.deepcopy(record["deals"][-1])
    record = {**record, "deals": record["deals"] + [extra], "totals": None, "digest": None}
    found = check(record)["discrepancy"]
    assert (found["deal"], found["step"], found["code"]) == (len(record["deals"]) - 1, None,
                                                            "match_over")


def test_a_deal_left_unfinished_cannot_be_followed_by_another():
    record = random_record("man", random.Random(5), deals=2)
    first = record["deals"][0]
    cut = {**record, "deals": [{**first, "actions": first["actions"][:1], "result": None}]
           + record["deals"][1:], "totals": None, "digest": None}
    found = check(cut)["discrepancy"]
    assert (found["deal"], found["step"], found["code"]) == (0, None, "deal_unfinished")


# ---------------------------------------------------------------- tampering is found

def _mutable_steps(record: dict, want) -> list[tuple[int, int]]:
    return [(k, i) for k, d in enumerate(record["deals"]) for i, a in enumerate(d["actions"])
            if want(a)]


@pytest.mark.parametrize("game_id", GAMES)
@PROPERTY
@given(seed=SEEDS)
def test_a_changed_score_delta_is_found_at_its_deal_and_step(game_id, seed):
    rnd = random.Random(seed)
    record = random_record(game_id, rnd, deals=2)
    places = _mutable_steps(record, lambda a: a.get("score_deltas"))
    if not places:
        return
    k, i = rnd.choice(places)
    delta = rnd.choice(record["deals"][k]["actions"][i]["score_deltas"])
    change = rnd.choice([-2, -1, 1, 3])
    fits = abs(delta["delta"] + change) <= MAX_SAFE_INT  # (Manillen's booms double a lot)
    delta["delta"] += change if fits else -change
    found = check(record)["discrepancy"]
    assert (found["deal"], found["step"], found["code"]) == (k, i, "score_differs")
    assert found["recorded"] != found["engine"]


@pytest.mark.parametrize("game_id", GAMES)
@PROPERTY
@given(seed=SEEDS)
def test_a_changed_deal_total_or_match_total_is_found(game_id, seed):
    rnd = random.Random(seed)
    record = random_record(game_id, rnd, deals=2)
    k = rnd.randrange(len(record["deals"]))
    totals = record["deals"][k]["result"]["totals"]
    target = rnd.choice(sorted(totals) or record["players"])
    changed = copy.deepcopy(record)
    change = 1 if totals.get(target, 0) < MAX_SAFE_INT else -1
    changed["deals"][k]["result"]["totals"][target] = totals.get(target, 0) + change
    found = check(changed)["discrepancy"]
    assert (found["deal"], found["step"], found["code"]) == (k, None, "result_differs")
    # the other way for the match total, unless that leaves JSON's safe range (a Manillen score
    # may reach its edge)
    total = record["totals"].get(target, 0)
    record["totals"][target] = total - change if -MAX_SAFE_INT < total - change < MAX_SAFE_INT \
        else total + change
    found = check(record)["discrepancy"]
    assert (found["deal"], found["step"], found["code"]) == (None, None, "totals_differ")


def _state_before(record: dict, k: int, i: int) -> dict:
    """The state deal k stands in before its step i, replayed through the engine alone."""
    report = check({**record, "deals": record["deals"][:k + 1], "totals": None, "digest": None})
    match = report["deals"][k - 1]["next_match"] if k else record.get("match")
    d = record["deals"][k]["deal"]
    state = adjudicate.deal(record["game"], record["players"], record["options"],
                            d.get("seed", records.PHYSICAL_SEED), match=match,
                            seed_salt=d.get("seed_salt"), hands=d.get("hands"),
                            table=d.get("table"), dealer=d.get("dealer"))["state"]
    for entry in record["deals"][k]["actions"][:i]:
        state = adjudicate.validate(state, entry["action"]).state
    return state


def _either_order(first: dict, second: dict) -> bool:
    """Two entries the rules take in either order to the same end, so swapping them changes
    nothing but the digest: Man's declines in a chain (5.4: every eligible player decides, in
    no set order), neither the one that resolves it (that one carries the score deltas)."""
    return all(e["action"]["type"] == "decline" and not e.get("score_deltas")
               for e in (first, second))


@pytest.mark.parametrize("game_id", GAMES)
@PROPERTY
@given(seed=SEEDS)
def test_two_swapped_actions_are_found_where_the_first_is_refused(game_id, seed):
    rnd = random.Random(seed)
    record = random_record(game_id, rnd, deals=2, ledger=0)
    places = [(k, i) for k, d in enumerate(record["deals"]) for i in range(len(d["actions"]) - 1)
              if d["actions"][i]["action"] != d["actions"][i + 1]["action"]
              and not _either_order(d["actions"][i], d["actions"][i + 1])]
    if not places:
        return
    k, i = rnd.choice(places)
    actions = record["deals"][k]["actions"]
    later = actions[i + 1]["action"]
    taken_first = adjudicate.validate(_state_before(record, k, i), later)
    actions[i], actions[i + 1] = actions[i + 1], actions[i]
    found = check(record)["discrepancy"]
    assert found is not None and found["deal"] == k
    if not taken_first.valid:  # the engine alone says the later action cannot come first
        assert (found["step"], found["code"]) == (i, "action_refused")
        assert found["refusal"]["code"] == taken_first.refusal.code
        assert found.get("rule", "") == taken_first.refusal.rule
    else:
        assert found["step"] is None or found["step"] >= i


def _played_cards(action: dict) -> list[str]:
    cards = action.get("cards") or ([action["card"]] if isinstance(action.get("card"), str) else [])
    return [c for c in cards if isinstance(c, str)]


@pytest.mark.parametrize("game_id", [g for g in GAMES if registry.get(g).physical is not None])
@PROPERTY
@given(seed=SEEDS)
def test_a_card_swapped_between_two_hands_is_found_by_the_time_it_is_played(game_id, seed):
    rnd = random.Random(seed)
    record = random_record(game_id, rnd, deals=3, physical=1.0, ledger=0)
    places = []
    for k, d in enumerate(record["deals"]):
        hands = d["deal"].get("hands")
        if not hands:
            continue
        for i, entry in enumerate(d["actions"]):
            seat = entry["action"]["player"]
            mine = [c for c in _played_cards(entry["action"]) if c in hands.get(seat, ())]
            others = [p for p in hands if p != seat and hands[p]]
            if mine and others:
                places.append((k, i, seat, mine[0], others))
                break
    if not places:
        return
    k, i, seat, card, others = rnd.choice(places)
    hands = record["deals"][k]["deal"]["hands"]
    other = rnd.choice(others)
    given_card = rnd.choice([c for c in hands[other] if c != card] or [card])
    if given_card == card:
        return
    hands[seat][hands[seat].index(card)] = given_card
    hands[other][hands[other].index(given_card)] = card
    found = check(record)["discrepancy"]
    assert found is not None and found["deal"] == k, found
    assert found["step"] is None or found["step"] <= i


@pytest.mark.parametrize("game_id", GAMES)
@PROPERTY
@given(seed=SEEDS)
def test_a_wrong_commitment_is_found_before_its_deal_is_played(game_id, seed):
    rnd = random.Random(seed)
    record = random_record(game_id, rnd, deals=2, physical=0)
    k = rnd.randrange(len(record["deals"]))
    deal = record["deals"][k]["deal"]
    right = deal["seed_commitment"]
    deal["seed_commitment"] = right[:-1] + ("0" if right[-1] != "0" else "1")
    report = check(record)
    found = report["discrepancy"]
    assert (found["deal"], found["step"], found["code"]) == (k, None, "commitment_mismatch")
    assert found["engine"] == right
    assert len(report["deals"]) == k  # the deal is not played on a seed it was not promised


def test_a_wrong_salt_or_seed_is_a_commitment_mismatch_and_uppercase_hex_is_the_same():
    record = random_record("guandan", random.Random(8), deals=1, physical=0)
    deal = record["deals"][0]["deal"]
    upper = copy.deepcopy(record)
    upper["deals"][0]["deal"]["seed_commitment"] = deal["seed_commitment"].upper()
    assert check(upper)["deals"][0]["commitment_checked"] is True
    assert check(upper)["discrepancy"]["code"] == "digest_mismatch"  # only the digest moved
    for key, value in (("seed", deal["seed"] + "x"), ("seed_salt", "f" * 32)):
        bad = copy.deepcopy(record)
        bad["deals"][0]["deal"][key] = value
        assert check(bad)["discrepancy"]["code"] == "commitment_mismatch"


def test_an_unsalted_commitment_of_an_old_deal_is_the_bare_sha256():
    record = random_record("daifugo", random.Random(2), deals=1, physical=0)
    deal = record["deals"][0]["deal"]
    del deal["seed_salt"]
    deal["seed_commitment"] = rng.commitment(deal["seed"])
    record["digest"] = records.digest(record)
    assert check(record)["consistent"]


def test_an_action_the_rules_refuse_names_its_rule_and_refusal_in_the_callers_language():
    record = random_record("man", random.Random(11), deals=1)
    entries = record["deals"][0]["actions"]
    i = next(i for i, e in enumerate(entries) if e["action"]["type"] == "play")
    entries.insert(i, copy.deepcopy(entries[i]))  # the same card played twice
    found = check(record, lang="ja")["discrepancy"]
    assert (found["deal"], found["step"], found["code"]) == (0, i + 1, "action_refused")
    assert found["rule"].startswith("man ") and found["refusal"]["code"]
    assert found["message"] == found["refusal"]["message"]
    assert any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in found["message"])


def test_an_action_that_does_not_fit_the_game_is_action_invalid_at_its_step():
    record = random_record("guandan", random.Random(4), deals=1)
    record["deals"][0]["actions"][2]["action"] = {"type": "fly", "player": record["players"][0]}
    found = check(record)["discrepancy"]
    assert (found["deal"], found["step"], found["code"]) == (0, 2, "action_invalid")
    assert "action.type" in found["message"]


def test_a_deal_the_engine_refuses_is_deal_invalid():
    record = random_record("manillen", random.Random(6), deals=1, physical=0)
    seated = copy.deepcopy(record)
    seated["deals"][0]["deal"]["dealer"] = "nobody"
    found = check(seated)["discrepancy"]
    assert (found["deal"], found["step"], found["code"]) == (0, None, "deal_invalid")
    assert "dealer" in found["message"]
    hands = {p: ["S7"] for p in record["players"]}  # one card in every hand
    record["deals"][0]["deal"] = {"hands": hands}
    found = check(record)["discrepancy"]
    assert (found["deal"], found["step"], found["code"]) == (0, None, "deal_invalid")


# ---------------------------------------------------------------- malformed records

def _record(**changes) -> dict:
    base = {"format": records.FORMAT, "format_version": 1, "game": "man",
            "players": ["ann", "bob", "cho"], "deals": [{"deal": {"seed": "s"}, "actions": []}]}
    return {**base, **changes}


@pytest.mark.parametrize("record, code, path", [
    ([], "record_invalid", ""),
    (_record(format="pgn"), "record_invalid", "format"),
    (_record(format_version="1"), "record_invalid", "format_version"),
    (_record(format_version=True), "record_invalid", "format_version"),
    (_record(format_version=2, brand_new_field=1), "record_version_unsupported", "format_version"),
    (_record(game="chess"), "game_unknown", "game"),
    (_record(players=["ann"]), "record_invalid", "players"),
    (_record(players=["ann", "ann", "bob"]), "record_invalid", "players"),
    (_record(deals=[]), "record_invalid", "deals"),
    (_record(deals=[{"deal": {}}]), "record_invalid", "deals[0].deal"),
    (_record(deals=[{"deal": {"seed_commitment": "ab"}}]), "record_invalid", "deals[0].deal.seed"),
    (_record(deals=[{"deal": {"seed": 7}}]), "record_invalid", "deals[0].deal.seed"),
    (_record(deals=[{"deal": {"seed": "s"}, "actions": [{"action": {}, "score_deltas": [
        {"target": "ann", "kind": "points", "delta": "2"}]}]}]),
     "record_invalid", "deals[0].actions[0].score_deltas[0].delta"),
    (_record(deals=[{"deal": {"seed": "s"}, "actions": [{"action": {}, "coment": "typo"}]}]),
     "record_invalid", "deals[0].actions[0]"),
    (_record(deals=[{"deal": {"seed": "s"}, "result": {"status": "won"}}]),
     "record_invalid", "deals[0].result.status"),
    (_record(tags={"date": "25/11/2026"}), "record_invalid", "tags.date"),
    (_record(tags={"date": "2026-02-30"}), "record_invalid", "tags.date"),
    (_record(tags={"names": {"zed": "Zed"}}), "record_invalid", "tags.names.zed"),
    (_record(tags={"event": ["a"]}), "record_invalid", "tags.event"),
    (_record(tags={"x-rating": 1.5}), "record_invalid", "tags.x-rating"),
    (_record(totals={"ann": 2 ** 60}), "record_invalid", "totals.ann"),
    (_record(match={"points": "lots"}), "record_invalid", "match.points"),
])
def test_a_malformed_record_is_refused_naming_its_path(record, code, path):
    with pytest.raises(records.InvalidRecord) as err:
        records.check_record(record)
    assert (err.value.code, err.value.path) == (code, path), err.value.message


def test_options_of_a_record_are_checked_as_a_deal_requests():
    with pytest.raises(InvalidOptions) as err:
        records.check_record(_record(options={"no_such_option": 1}))
    assert err.value.path.startswith("options")


def test_a_record_nested_too_deep_is_refused_not_a_crash():
    deep: list = []
    for _ in range(2000):
        deep = [deep]
    with pytest.raises(records.InvalidRecord) as err:
        records.check_record(_record(tags={"x-deep": deep}))
    assert err.value.path.startswith("tags.x-deep")


def test_unknown_tags_are_kept_whatever_json_they_hold():
    record = _record(tags={"event": "Autumn Open", "round": "3", "table": 7,
                           "x-sponsor": {"name": "喫茶", "tiers": [1, 2, None, True]},
                           "weather": "rain"})
    report = records.check_record(record)
    assert report["consistent"]
    assert report["digest"] == records.digest(record)


def test_record_size_counts_deals_and_actions_before_anything_is_checked():
    record = random_record("daifugo", random.Random(1), deals=2)
    assert records.record_size(record) == (len(record["deals"]),
                                           sum(len(d["actions"]) for d in record["deals"]))
    assert records.record_size({"deals": "many"}) == (0, 0)
    assert records.record_size([1]) == (0, 0)
