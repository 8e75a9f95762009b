"""Play of a deal (§7, W-11 in play, G-5, P-6), by rule number."""
from engine import adjudicate
from engine.games.guandan import GAME

from .helpers import R, build, legal, ok, refused


def test_G_5_first_deal_the_cut_card_holder_leads():
    st = adjudicate.deal("guandan", ["a", "b", "c", "d"], seed="cut")["state"]
    card = st["cut_card"]
    assert card not in ("BJ", "RJ", "H2") and st["phase"] == "play"
    assert card in st["hands"][st["turn"]]
    assert st["tributes"] == [] and st["match"]["previous_order"] == []


def test_P_1_the_leader_may_not_pass_and_plays_any_combination():
    st = build({"a": ["S3", "D3", "S9"], "b": ["S4"], "c": ["S5"], "d": ["S6"]})
    assert refused(st, "pass", "a").code == "lead_cannot_pass"
    assert refused(st, "play", "a", cards=["S3", "S9"]).code == "not_a_combination"
    assert refused(st, "play", "a", cards=["S3", "S3"]).code == "card_not_in_hand"
    out = ok(st, "play", "a", cards=["S3", "D3"])
    assert out.to_act == ["b"] and out.state["hands"]["a"] == ["S9"]


def test_P_2_turn_is_checked_before_the_hand():
    st = build({"a": ["S3"], "b": ["S4"], "c": ["S5"], "d": ["S6"]})
    assert refused(st, "play", "b", cards=["RJ"]).code == "not_your_turn"
    assert refused(st, "pass", "c").code == "not_your_turn"


def test_C_8_follow_same_type_and_size_higher_or_a_bomb():
    st = build({"a": ["S3", "D3", "S9"], "b": ["S4", "D4", "S5", "C5", "H5", "D5", "S6"],
                "c": ["S7", "D7"], "d": ["S8"]})
    st = ok(st, "play", "a", cards=["S3", "D3"]).state
    assert refused(st, "play", "b", cards=["S6"]).code == "does_not_beat"
    assert refused(st, "play", "b", cards=["S4", "S6"]).code == "not_a_combination"
    st2 = ok(st, "play", "b", cards=["S4", "D4"]).state
    st3 = ok(st, "play", "b", cards=["S5", "C5", "H5", "D5"]).state  # B-2
    assert refused(st3, "play", "c", cards=["S7", "D7"]).code == "does_not_beat_bomb"
    assert ok(st2, "play", "c", cards=["S7", "D7"]).valid


def test_C_9_ties_never_beat():
    st = build({"a": ["S9", "D9", "C3"], "b": ["H9", "C9", "C4"], "c": ["S5"], "d": ["S6"]})
    st = ok(st, "play", "a", cards=["S9", "D9"]).state
    assert refused(st, "play", "b", cards=["H9", "C9"]).code == "does_not_beat"


def test_P_3_a_player_who_passed_may_play_later_in_the_trick():
    st = build({"a": ["S3", "C9"], "b": ["S4", "S8"], "c": ["S5", "C5"], "d": ["S6", "D6"]})
    st = ok(st, "play", "a", cards=["S3"]).state
    st = ok(st, "pass", "b").state
    st = ok(st, "play", "c", cards=["S5"]).state
    st = ok(st, "pass", "d").state
    st = ok(st, "pass", "a").state
    out = ok(st, "play", "b", cards=["S8"])
    assert out.state["trick"]["plays"][-1]["player"] == "b"


def test_P_4_trick_ends_when_every_other_active_player_passed_the_last_player_leads():
    st = build({"a": ["S3", "C9"], "b": ["S4", "S8"], "c": ["S5", "C5"], "d": ["S6", "D6"]})
    st = ok(st, "play", "a", cards=["S3"]).state
    st = ok(st, "play", "b", cards=["S4"]).state
    st = ok(st, "pass", "c").state
    st = ok(st, "pass", "d").state
    out = ok(st, "pass", "a")
    assert out.state["trick"] is None and out.to_act == ["b"]
    assert any(e["type"] == "trick_won" and e["player"] == "b" for e in out.events)
    assert [a for a in legal(out.state, "b") if a["type"] == "pass"] == []


def test_P_5_jiefeng_partner_leads_after_an_unbeaten_last_play():
    st = build({"a": ["S3"], "b": ["S4", "S8"], "c": ["S5", "C5"], "d": ["S6", "D6"]})
    st = ok(st, "play", "a", cards=["S3"]).state  # a is out
    assert st["out"] == [{"player": "a", "cards": ["S3"]}]
    st = ok(st, "pass", "b").state
    st = ok(st, "pass", "c").state
    out = ok(st, "pass", "d")
    assert out.to_act == ["c"]  # a's partner
    assert any(e["type"] == "jiefeng" for e in out.events)


def test_P_7_players_out_are_skipped():
    st = build({"a": ["S3"], "b": ["S4", "S8"], "c": ["S5", "C5"], "d": ["S6", "D6"]},
               out=[], turn="a")
    st = ok(st, "play", "a", cards=["S3"]).state
    st = ok(st, "play", "b", cards=["S4"]).state
    st = ok(st, "pass", "c").state
    out = ok(st, "play", "d", cards=["S6"])
    assert out.to_act == ["b"]  # a is out: skipped


def test_P_8_a_1_2_finish_ends_the_deal_at_once():
    st = build({"a": [], "b": ["S4", "S8"], "c": ["S5"], "d": ["S6", "D6"]},
               out=[("a", ["S3"])], turn="c")
    out = ok(st, "play", "c", cards=["S5"])
    assert out.status == "finished" and out.to_act == []
    res = out.state["result"]
    assert res["order"] == ["a", "c"] and res["finish"] == "1-2" and res["winner"] == "team1"
    assert out.state["next_match"]["previous_order"] == ["a", "c"]
    assert out.state["next_match"]["tribute_payers"] == ["b", "d"]


def test_P_8_the_third_out_ends_the_deal_the_last_is_fourth():
    st = build({"a": [], "b": ["S8"], "c": ["S5", "C5"], "d": []},
               out=[("a", ["S3"]), ("d", ["S6"])], turn="b")
    out = ok(st, "play", "b", cards=["S8"])
    res = out.state["result"]
    assert res["order"] == ["a", "d", "b", "c"] and res["finish"] == "1-4"
    assert res["winner"] == "team1"


def test_W_11_ambiguous_reading_is_refused_with_the_readings_then_declared():
    # level 4: H4 H4 8 8 9 9 — tube to 9, tube to 10, plate to 9
    st = build({"a": ["H4", "H4", "S8", "D8", "S9", "D9", "C3"], "b": ["S5"], "c": ["S6"],
                "d": ["S7"]}, level="4")
    cards = ["H4", "H4", "S8", "D8", "S9", "D9"]
    r = refused(st, "play", "a", cards=cards)
    assert r.code == "ambiguous_reading" and r.rule == "guandan W-11"
    assert {(x["type"], x["rank"]) for x in r.details["readings"]} == {
        ("tube", "9"), ("tube", "10"), ("plate", "9")}
    assert refused(st, "play", "a", cards=cards, reading=R("straight", "9")).code == \
        "reading_not_available"
    out = ok(st, "play", "a", cards=cards, reading={"type": "plate", "rank": "9"})
    assert out.state["trick"]["plays"][0]["reading"]["type"] == "plate"


def test_W_11_one_legal_reading_when_following_is_inferred():
    st = build({"a": ["H4", "H4", "S8", "D8", "S9", "D9", "C3"], "b": ["S5"], "c": ["S6"],
                "d": ["S7"]}, level="4", turn="a",
               trick=[("d", ["S6", "D6", "S7", "D7", "S8", "D8"], R("tube", "8"))])
    # tube to 9 and tube to 10 beat the table; the plate does not: still ambiguous
    assert refused(st, "play", "a", cards=["H4", "H4", "S8", "D8", "S9", "D9"]).code == \
        "ambiguous_reading"
    st2 = build({"a": ["H4", "H4", "S8", "D8", "S9", "D9", "C3"], "b": ["S5"], "c": ["S6"],
                 "d": ["S7"]}, level="4", turn="a",
                trick=[("d", ["S7", "D7", "S8", "D8", "S9", "D9"], R("tube", "9"))])
    out = ok(st2, "play", "a", cards=["H4", "H4", "S8", "D8", "S9", "D9"])
    assert out.state["trick"]["plays"][-1]["reading"]["rank"] == "10"


def test_legal_actions_list_each_play_once_each_with_its_reading():
    st = build({"a": ["H4", "H4", "S8", "D8", "S9", "D9", "C3", "BJ"], "b": ["S5"], "c": ["S6"],
                "d": ["S7"]}, level="4")
    acts = legal(st, "a")
    keys = [(tuple(sorted(a["cards"])), a["reading"]["type"], a["reading"]["rank"])
            for a in acts if a["type"] == "play"]
    assert len(keys) == len(set(keys))
    from engine.games.guandan.combos import reading_to_json, readings
    for a in acts:
        # W-11: the reading listed is one of the cards' own (its wild-card witness too),
        # whether they read one way or several, and the play posted back is played so
        assert a["reading"] in [reading_to_json(r) for r in readings(a["cards"], "4")], a
        out = adjudicate.validate(st, a)
        assert out.valid and out.state["trick"]["plays"][-1]["reading"] == a["reading"]
    # ♥4 ♥4 8 8 9 9 at level 4: a tube to 9, a tube to 10 and a plate to 9, each listed
    tubes = sorted((a["reading"]["type"], a["reading"]["rank"]) for a in acts
                   if sorted(a["cards"]) == sorted(["H4", "H4", "S8", "D8", "S9", "D9"]))
    assert tubes == [("plate", "9"), ("tube", "10"), ("tube", "9")]
    single = next(a for a in acts if a["cards"] == ["C3"])
    assert single["reading"] == {"type": "single", "rank": "3", "length": 1, "wilds": []}


def test_P_6_card_counts_shown_only_at_or_below_the_threshold():
    st = build({"a": ["S3"] + ["C4"] * 2 + ["D5"] * 2 + ["S6"] * 2 + ["S7"] * 2 + ["S8"] * 2,
                "b": ["S4"] * 2, "c": ["S5"], "d": ["S9"]})
    v = GAME.view(GAME.decode(st), "b")
    assert v["hand_counts"]["a"] is None and v["hand_counts"]["c"] == 1
    assert v["hands"]["a"] is None and v["hands"]["b"] == ["S4", "S4"] and "seed" not in v


def test_P_6_announce_emits_a_card_count_event():
    from .helpers import options_of
    st = build({"a": ["S3", "S4", "S9"], "b": ["S5"], "c": ["S6"], "d": ["S7"]},
               options=options_of("official"))
    out = ok(st, "play", "a", cards=["S3"])
    assert {"type": "count_announced", "game": "guandan", "player": "a", "count": 2,
            "text": {"en": "a has 2 cards left", "ja": "aの残りは2枚"}} in out.events
    st = build({"a": ["S3", "S4", "S9"], "b": ["S5"], "c": ["S6"], "d": ["S7"]})
    assert not any(e["type"] == "count_announced" for e in ok(st, "play", "a", cards=["S3"]).events)
