"""Deal results, levels and the level-A rules (§9, D1–D4) under the presets, by rule number.
Each test builds a state one play from the end of a deal and plays it."""
import pytest

from .helpers import build, match_json, ok, options_of

ORDER = ["a", "b", "c", "d"]


def finish(kind: str, levels=None, declarer="team1", failures=None, preset="seed",
           opp_final=("S9",), **opts):
    """Play the last play of a deal ending `kind` (1-2, 1-3, 1-4 for team1, or 'lose' 1-3 for
    team2); returns the Applied result."""
    m = match_json(levels=levels, declarer=declarer, failures=failures,
                   order=ORDER if declarer == "team1" else ["b", "a", "c", "d"], payers=["d"])
    level = m["levels"][declarer]
    options = options_of(preset, **opts)
    if kind == "1-2":
        st = build({"c": ["S5"], "b": ["S4", "S8"], "d": ["S6", "D6"]}, out=[("a", ["S3"])],
                   turn="c", level=level, match=m, options=options)
        return ok(st, "play", "c", cards=["S5"])
    if kind == "1-3":
        st = build({"c": ["S5"], "d": ["S6", "D6"]}, out=[("a", ["S3"]), ("b", list(opp_final))],
                   turn="c", level=level, match=m, options=options)
        return ok(st, "play", "c", cards=["S5"])
    if kind == "1-4":
        st = build({"c": ["S5", "C5"], "d": ["S6"]}, out=[("a", ["S3"]), ("b", list(opp_final))],
                   turn="d", level=level, match=m, options=options)
        return ok(st, "play", "d", cards=["S6"])
    # team2 wins 1-3: b out first, then a, then d
    st = build({"d": ["S6"], "c": ["S5", "C5"]}, out=[("b", list(opp_final)), ("a", ["S3"])],
               turn="d", level=level, match=m, options=options)
    return ok(st, "play", "d", cards=["S6"])


def level_delta(out, team):
    return [d for d in out.score_deltas if d["target"] == team and d["kind"] == "level"]


@pytest.mark.parametrize("kind,up", [("1-2", 3), ("1-3", 2), ("1-4", 1)])
def test_S_1_winners_go_up_3_2_1(kind, up):
    out = finish(kind, levels={"team1": "5"})
    assert out.state["result"]["finish"] == kind
    to = ["2", "3", "4", "5", "6", "7", "8", "9", "10"][3 + up]
    assert level_delta(out, "team1") == [{"target": "team1", "kind": "level", "delta": up,
                                          "reason": f"finish {kind}", "from": "5", "to": to,
                                          "text": {"en": f"Finish {kind}: level 5 → {to}",
                                                   "ja": f"{kind}で終了: レベル5→{to}"},
                                          "game": "guandan"}]
    assert level_delta(out, "team2") == []
    nm = out.state["next_match"]
    assert nm["levels"]["team1"] == to and nm["declarer"] == "team1"
    assert nm["deal_number"] == 2


def test_S_1_D1_pagat_gives_4_for_a_1_2():
    out = finish("1-2", levels={"team1": "5"}, preset="pagat")
    assert out.state["result"]["levels"]["team1"] == "9"


def test_S_2_levels_never_pass_A():
    out = finish("1-2", levels={"team1": "Q"}, declarer="team2")
    assert level_delta(out, "team1")[0]["to"] == "A"
    assert out.state["next_match"]["levels"]["team1"] == "A"


@pytest.mark.parametrize("preset", ["seed", "official"])
@pytest.mark.parametrize("kind", ["1-2", "1-3"])
def test_S_3_declarer_at_A_wins_the_match_with_1_2_or_1_3(preset, kind):
    out = finish(kind, levels={"team1": "A"}, preset=preset)
    assert out.state["result"]["match_winner"] == "team1"
    assert out.state["next_match"] is None
    assert any(e["type"] == "match_finished" for e in out.events)


@pytest.mark.parametrize("preset", ["seed", "official"])
def test_S_3_a_1_4_at_A_does_not_win_and_counts_as_a_failure(preset):
    out = finish("1-4", levels={"team1": "A"}, preset=preset)
    assert out.state["result"]["match_winner"] is None
    nm = out.state["next_match"]
    assert nm["levels"]["team1"] == "A" and nm["a_failures"]["team1"] == 1


def test_S_4_winning_at_A_when_the_other_team_declared_does_not_end_the_match():
    out = finish("1-2", levels={"team1": "A", "team2": "5"}, declarer="team2")
    assert out.state["result"]["match_winner"] is None
    assert out.state["next_match"]["declarer"] == "team1"


def test_S_3_D2_off_any_1_2_win_at_A_ends_the_match():
    out = finish("1-2", levels={"team1": "A", "team2": "5"}, declarer="team2",
                 a_win_requires_declarer=False)
    assert out.state["result"]["match_winner"] == "team1"


def test_S_5_seed_third_failure_at_A_sends_the_declarer_back_to_2():
    out = finish("lose", levels={"team1": "A", "team2": "7"}, failures={"team1": 2})
    nm = out.state["next_match"]
    assert nm["levels"]["team1"] == "2" and nm["a_failures"]["team1"] == 0
    assert nm["levels"]["team2"] == "9" and nm["declarer"] == "team2"
    assert {"target": "team1", "kind": "level", "delta": -12, "reason": "a_failures",
            "from": "A", "to": "2", "game": "guandan",
            "text": {"en": "Too many failed deals at A (S-5): level A → 2",
                     "ja": "Aでの失敗が規定回数に達した(S-5): レベルA→2"}} in out.score_deltas
    assert any(e["type"] == "demoted" for e in out.events)


def test_S_5_second_failure_only_counts():
    out = finish("lose", levels={"team1": "A", "team2": "7"}, failures={"team1": 1})
    nm = out.state["next_match"]
    assert nm["levels"]["team1"] == "A" and nm["a_failures"]["team1"] == 2


def test_S_5_D3_reset_to_K():
    out = finish("lose", levels={"team1": "A"}, failures={"team1": 2}, a_fail_reset_to="K")
    assert out.state["next_match"]["levels"]["team1"] == "K"


def test_S_5_official_has_no_limit():
    out = finish("lose", levels={"team1": "A"}, failures={"team1": 5}, preset="official")
    nm = out.state["next_match"]
    assert nm["levels"]["team1"] == "A" and nm["a_failures"]["team1"] == 6


def test_S_6_seed_aces_finish_by_the_opponents_first_out_demotes_the_A_declarer():
    out = finish("lose", levels={"team1": "A"}, opp_final=("SA", "DA"))
    assert out.state["next_match"]["levels"]["team1"] == "2"
    assert any(e.get("reason") == "ace_demotion" for e in out.events)
    out = finish("1-4", levels={"team1": "A"}, opp_final=("SA",))  # the 1-4 failure, and aces
    assert out.state["next_match"]["levels"]["team1"] == "2"


def test_S_6_official_no_aces_demotion_and_not_with_other_cards():
    out = finish("lose", levels={"team1": "A"}, opp_final=("SA", "DA"), preset="official")
    assert out.state["next_match"]["levels"]["team1"] == "A"
    out = finish("lose", levels={"team1": "A"}, opp_final=("SA", "DK"))
    assert out.state["next_match"]["levels"]["team1"] == "A"


def test_S_8_next_match_is_passed_back_as_match():
    from engine import adjudicate
    out = finish("1-3", levels={"team1": "5"})
    nm = out.state["next_match"]
    st = adjudicate.deal("guandan", ORDER, seed="next", match=nm)["state"]
    assert st["level"] == "7" and st["match"] == nm
    assert st["phase"] in ("tribute", "play")
