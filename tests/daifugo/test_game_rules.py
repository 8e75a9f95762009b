"""The game through the service contract, one test (or a few) per rule number of
docs/rules/daifugo.md, each on a hand-built deal."""
import pytest

from engine import adjudicate
from engine.cards import deck_52
from engine.errors import InvalidDeal, InvalidOptions
from engine.games.daifugo import GAME

from .helpers import build, events, ok, pass_, play, refused

ABC = ("A", "B", "C")


def deal(players=ABC, **kw):
    return adjudicate.deal("daifugo", list(players), seed=kw.pop("seed", "t"), **kw)


# ---- GET /v1/games: which rules are on ------------------------------------------------------

def test_C4_describe_lists_every_option_with_default_and_allowed_values_and_presets():
    d = GAME.describe()
    names = {o["name"]: o for o in d["options"]}
    for name in ("jokers", "stairs", "lock", "jack_back", "jack_back_limit", "five_skip",
                 "seven_pass", "ten_discard", "double_nine_cut", "triple_nine_revolution",
                 "reverse_rank", "miyako_ochi", "forbidden_finish", "spade3_return",
                 "exchange", "rank_points", "first_leader", "pass_locks_until_clear"):
        assert name in names and "default" in names[name], name
    assert names["lock"]["allowed"] == ["off", "suit", "suit_and_sequence", "number"]
    assert set(d["presets"]) == {"seed", "seed_full", "uecda"}
    assert d["presets"]["uecda"]["lock"] == "suit"
    s = deal(options={"preset": "uecda"}, players="ABCDE")["state"]
    assert s["options"]["lock"] == "suit" and s["options"]["stairs"] == "standard"


def test_C4_options_combine_with_any_preset_and_bad_values_are_422():
    s = deal(options={"preset": "uecda", "seven_pass": True, "lock": "off"})["state"]
    assert s["options"]["seven_pass"] and s["options"]["lock"] == "off"
    with pytest.raises(InvalidOptions):
        deal(options={"lock": "partial"})
    with pytest.raises(InvalidOptions) as e:
        deal(options={"forbidden_finish": ["joker", "queen"]})
    assert e.value.path == "options.forbidden_finish[1]"


# ---- D1 / D3 dealing ------------------------------------------------------------------------

@pytest.mark.parametrize("jokers,n", [(0, 3), (1, 5), (2, 8)])
def test_D3_every_card_dealt_as_evenly_as_possible(jokers, n):
    s = deal(players=[f"p{i}" for i in range(n)], options={"jokers": jokers})["state"]
    sizes = [len(h) for h in s["hands"].values()]
    assert sum(sizes) == 52 + jokers and max(sizes) - min(sizes) <= 1


def test_D3_given_hands_are_checked_against_the_deck_and_counts():
    deck = deck_52() + ["BJ"]
    hands = {"A": deck[:18], "B": deck[18:36], "C": deck[36:]}
    s = deal(hands=hands, table={"leader": "A"})["state"]  # D4: the random leader is given
    assert s["hands"]["A"] == deck[:18]
    with pytest.raises(InvalidDeal) as e:  # a second joker in a one-joker game
        deal(hands={**hands, "C": deck[36:-1] + ["RJ"]})
    assert e.value.path == "hands.C[16]"
    with pytest.raises(InvalidDeal) as e:
        deal(hands={"A": deck[:20], "B": deck[20:36], "C": deck[36:]})
    assert e.value.path.startswith("hands.")
    with pytest.raises(InvalidDeal) as e:
        deal(hands={"A": deck[:18], "B": deck[18:36], "C": deck[36:-1]})
    assert e.value.path == "hands"


# ---- D4 leaders -----------------------------------------------------------------------------

def test_D4_U2_diamond3_holder_leads():
    deck = deck_52() + ["BJ"]
    d3 = deck.index("D3")
    hands = {"A": deck[:18], "B": deck[18:36], "C": deck[36:]}
    holder = next(p for p, h in hands.items() if "D3" in h)
    s = deal(hands=hands, options={"first_leader": "diamond3_first_then_daihinmin"})
    assert s["to_act"] == [holder] and d3 >= 0


def test_D4_later_deals_led_by_the_daihinmin_or_the_daifugo():
    m = {"deal": 2, "points": {}, "finish_order": ["B", "C", "A"]}
    assert deal(match=m)["to_act"] == ["A"]
    assert deal(match=m, options={"next_leader": "daifugo"})["to_act"] == ["B"]


# ---- D6 following ---------------------------------------------------------------------------

def test_D6_follow_by_count_and_strength():
    s = build({"A": ["H9", "S9", "C5"], "B": ["D4"], "C": ["C3"]}, top=["H7", "S7"], by="C")
    assert refused(s, "play", "A", cards=["C5"]).code == "count_mismatch"
    assert refused(s, "play", "A", cards=["H9", "C5"]).code == "not_a_combination"
    s2 = play(s, "A", "H9 S9")
    assert s2["top"]["cards"] == ["H9", "S9"] and s2["turn"] == "B"
    t = build({"A": ["H6", "C5"], "B": ["D4"], "C": ["C3"]}, top=["H7"], by="C")
    assert refused(t, "play", "A", cards=["H6"]).code == "not_stronger"


def test_D7_ambiguous_joker_reading_is_refused_with_the_readings():
    o = {"stairs": "standard"}
    s = build({"A": ["H5", "H6", "BJ", "C9"], "B": ["D4"], "C": ["C3"]}, opts=o)
    r = refused(s, "play", "A", cards=["H5", "H6", "BJ"])
    assert r.code == "ambiguous_reading" and sorted(r.details["readings"]) == [["H4"], ["H7"]]
    s2 = play(s, "A", "H5 H6 BJ", jokers=["H7"])
    assert s2["top"]["jokers"] == ["H7"]


def test_D8_turn_is_checked_before_the_hand():
    s = build({"A": ["H9"], "B": ["D4"], "C": ["C3"]}, top=["H7"], by="C")
    r = refused(s, "play", "B", cards=["SK"])  # B holds no SK: the turn is told, not that
    assert r.code == "not_your_turn" and "SK" not in r.en
    assert refused(s, "play", "A", cards=["SK"]).code == "card_not_in_hand"


# ---- D9 clearing ----------------------------------------------------------------------------

def test_D9_field_clears_when_everyone_else_passed_and_last_player_leads():
    s = build({"A": ["H9", "C4"], "B": ["D4", "S5"], "C": ["C3", "C6"]}, top=["H7"], by="C",
              turn="A")
    s = pass_(pass_(s, "A"), "B")
    assert s["top"] is None and s["turn"] == "C" and "H7" in s["discards"]
    assert refused(s, "pass", "C").code == "must_lead"


def test_D9_seed7_passed_player_may_play_again():
    s = build({"A": ["H9", "C4"], "B": ["D8", "S5"], "C": ["C3", "C6"]}, top=["H4"], by="C")
    s = pass_(s, "A")
    s = play(s, "B", "S5")
    s = play(s, "C", "C6")
    assert s["turn"] == "A"
    s = play(s, "A", "H9")
    assert s["top"]["cards"] == ["H9"]


def test_D9_strongest_play_clears_at_once():
    s = build({"A": ["BJ", "C4"], "B": ["D4", "S5"], "C": ["C3", "C6"]}, top=["H7"], by="C")
    res = ok(s, "play", "A", cards=["BJ"])
    assert res.state["top"] is None and res.state["turn"] == "A"
    s2 = build({"A": ["BJ", "C4"], "B": ["D4", "S5"], "C": ["C3", "C6"]}, top=["H7"], by="C",
               opts={"strongest_play_clears": False})
    assert play(s2, "A", "BJ")["top"]["cards"] == ["BJ"]


def test_D25_U5_pass_lock_and_the_last_player_must_pass_too():
    s = build({"A": ["H9", "C4"], "B": ["D8", "S5"], "C": ["C3", "CK"], "D": ["SK", "H3"]},
              top=["H4"], by="D", preset="uecda", turn="A", opts={"lock": "off"})
    s = pass_(s, "A")
    s = play(s, "B", "S5")
    s = play(s, "C", "CK")
    assert s["turn"] == "D"          # A passed: locked out until the field clears
    s = pass_(s, "D")
    assert s["turn"] == "B"
    s = pass_(s, "B")
    assert s["turn"] == "C" and s["top"] is not None   # C may beat their own cards
    s = pass_(s, "C")
    assert s["top"] is None and s["turn"] == "C"


# ---- D10 finishing and titles ---------------------------------------------------------------

def test_D10_finishing_order_titles_and_rank_deltas():
    s = build({"A": ["H9"], "B": ["D4", "S5"], "C": ["C3", "C6", "CK"]}, top=["H7"], by="C")
    res = ok(s, "play", "A", cards=["H9"])
    assert res.state["finished"] == ["A"]
    s = pass_(pass_(res.state, "B"), "C")
    assert s["top"] is None and s["turn"] == "B"   # the finished A's lead passes on (U5)
    s = play(play(s, "B", "D4"), "C", "C6")
    s = pass_(s, "B")
    s = play(s, "C", "C3")
    res = ok(s, "play", "B", cards=["S5"])
    r = res.state["result"]
    assert r["finish_order"] == ["A", "B", "C"]
    assert r["titles"] == {"A": "daifugo", "B": "heimin", "C": "daihinmin"}
    assert {d["target"]: (d["kind"], d["delta"], d["title"]) for d in res.score_deltas} == {
        "A": ("rank", 2, "daifugo"), "B": ("rank", 0, "heimin"), "C": ("rank", -2, "daihinmin")}
    assert res.state["next_match"] == {"deal": 2, "points": {"A": 2, "B": 0, "C": -2},
                                       "finish_order": ["A", "B", "C"]}


# ---- D11 exchange ---------------------------------------------------------------------------

def _deck_hands(players, seed="x"):
    return {p: h for p, h in deal(players=players, seed=seed)["state"]["hands"].items()}


def test_D11_U8_exchange_forced_strongest_with_ties_then_free_returns():
    players = "ABCD"
    deck = deck_52() + ["BJ"]
    low = ["S2", "H2", "D2", "C2"]  # the 大貧民 D holds all four 2s: S2 and H2 go (D-r)
    rest = [c for c in deck if c not in low and c != "BJ"]
    hands = {"A": rest[:12] + ["BJ"], "B": rest[12:25], "C": rest[25:38], "D": low + rest[38:]}
    m = {"deal": 2, "points": {}, "finish_order": ["A", "B", "C", "D"]}
    d = deal(players=players, hands=hands, match=m, options={"exchange": "2_1"})
    s = d["state"]
    assert s["phase"] == "exchange" and sorted(d["to_act"]) == ["A", "B"]
    ex = {e["upper"]: e for e in s["exchange"]}
    assert ex["A"]["tribute"] == ["S2", "H2"] and ex["A"]["lower"] == "D"
    assert ex["B"]["lower"] == "C" and len(ex["B"]["tribute"]) == 1
    assert "BJ" not in s["hands"]["C"] or ex["B"]["tribute"] == ["BJ"]
    assert refused(s, "play", "D", cards=[s["hands"]["D"][0]]).code == "exchange_in_progress"
    assert refused(s, "exchange", "C", cards=[s["hands"]["C"][0]]).code == "no_exchange_due"
    assert refused(s, "exchange", "A", cards=[s["hands"]["A"][0]]).code == "exchange_count"
    give = s["hands"]["A"][:2]
    s = ok(s, "exchange", "A", cards=give).state
    assert set(give) <= set(s["hands"]["D"]) and s["phase"] == "exchange"
    s = ok(s, "exchange", "B", cards=s["hands"]["B"][:1]).state
    assert s["phase"] == "play" and s["turn"] == "D"   # the 大貧民 leads


def test_D11_weakest_returns_are_automatic():
    m = {"deal": 2, "points": {}, "finish_order": ["A", "B", "C"]}
    d = deal(match=m, options={"exchange": "2_1", "exchange_top_gives": "weakest"})
    assert d["state"]["phase"] == "play" and d["state"]["exchange"][0]["returned"]


# ---- D12 revolution and D16 J-back ----------------------------------------------------------

def test_D12_revolution_reverses_and_counter_revolution_reverts():
    s = build({"A": ["H9", "S9", "D9", "C9", "C4"], "B": ["D4", "S5"], "C": ["C3", "C6"]})
    res = ok(s, "play", "A", cards=["H9", "S9", "D9", "C9"])
    assert res.state["revolution"] and "revolution" in res.events[0]["effects"]


def test_D16_revolution_inside_jack_back_restores_normal_order_until_the_clear():
    o = {"jack_back": "declared", "jack_back_limit": 1}
    s = build({"A": ["HJ", "C4", "SQ"], "B": ["D10", "S10", "H10", "C10", "S5"],
               "C": ["C3", "C6", "D3"]}, top=["H9"], by="C", opts=o)
    assert refused(s, "play", "A", cards=["SQ"], jack_back=True).code == "jack_back_needs_jack"
    s = play(s, "A", "HJ", jack_back=True)
    assert s["jack_back"] and s["jack_backs_used"] == 1
    s1 = play(s, "B", "S5")            # lower wins while reversed
    assert s1["top"]["cards"] == ["S5"]
    t = build({"A": ["HJ", "C4", "SJ"], "B": ["D10", "S10", "H10", "C10", "S5"],
               "C": ["C3", "C6", "D3"]}, top=["HQ", "SQ", "DQ", "CQ"], by="C", opts=o, turn="B",
              jack_back=True, jack_backs_used=1)
    # in J-back, four 10s beat four Qs and make a revolution: reversed twice = normal order
    r = ok(t, "play", "B", cards=["D10", "S10", "H10", "C10"])
    assert r.state["revolution"] and r.state["jack_back"]
    assert refused(build({"A": ["HJ", "C4"], "B": ["S5"], "C": ["C3"]}, top=["H9"], by="C",
                         opts=o, jack_backs_used=1), "play", "A", cards=["HJ"],
                   jack_back=True).code == "jack_back_limit_reached"
    assert refused(build({"A": ["HJ", "C4"], "B": ["S5"], "C": ["C3"]}, top=["H9"], by="C"),
                   "play", "A", cards=["HJ"], jack_back=True).code == "jack_back_off"


def test_D16_eleven_back_any_reverses_without_declaring():
    s = build({"A": ["HJ", "C4"], "B": ["S5", "D6"], "C": ["C3", "C7"]}, top=["H9"], by="C",
              opts={"jack_back": "any"})
    s = play(s, "A", "HJ")
    assert s["jack_back"]
    s = pass_(pass_(s, "B"), "C")
    assert s["top"] is None and not s["jack_back"]


# ---- D13 8-cut ------------------------------------------------------------------------------

@pytest.mark.parametrize("form,cards", [("standard", "H7 H8 H9"), ("seed", "H7 H8 H9")])
def test_D13_eight_inside_stairs_cuts_under_both_forms(form, cards):
    s = build({"A": ["H7", "H8", "H9", "C4"], "B": ["C5", "D6"], "C": ["C3", "C7"]},
              top=["S4", "S5", "S6"], by="C",
              opts={"stairs": form})
    r = ok(s, "play", "A", cards=cards.split())
    assert r.state["top"] is None and r.state["turn"] == "A"
    s2 = build({"A": ["H7", "H8", "H9", "C4"], "B": ["C5", "D6"], "C": ["C3", "C7"]},
               top=["S4", "S5", "S6"], by="C",
               opts={"stairs": form, "eight_cut_in_stairs": False})
    assert ok(s2, "play", "A", cards=cards.split()).state["top"] is not None


def test_D13_eight_cut_single():
    s = build({"A": ["H8", "C4"], "B": ["S5", "D6"], "C": ["C3", "C7"]}, top=["H6"], by="C")
    r = ok(s, "play", "A", cards=["H8"])
    assert r.state["top"] is None and r.state["turn"] == "A"


def test_U5_an_eight_cut_with_the_last_cards_gives_the_lead_to_the_next_player_still_in():
    # U5 (the seed's D9 alike): the last player leads a cleared field, or the next player
    # still in when they have finished. A's 8-cut is their last card: the field clears and
    # `field_cleared.by`, declared as who leads next, is B, the player on turn after it.
    s = build({"A": ["H8"], "B": ["S5", "D6"], "C": ["C3", "C7"], "D": ["D4", "S9"]},
              top=["H6"], by="D", preset="uecda")
    res = ok(s, "play", "A", cards=["H8"])
    assert events(res) == ["played", "field_cleared", "went_out"]
    cleared = res.events[1]
    assert cleared["reason"] == "eight_cut" and cleared["by"] == "B"
    assert res.state["top"] is None and res.state["turn"] == "B" and res.to_act == ["B"]


def test_U5_a_field_cleared_by_passes_after_a_finisher_names_the_next_player_still_in():
    # U5: A goes out on ♥9 (no clear); B, C and D pass, the field clears, and the lead passes
    # to the next player still in after A, which `field_cleared.by` names (not A, who is out).
    s = build({"A": ["H9"], "B": ["S5", "D6"], "C": ["C3", "C7"], "D": ["D4", "S9"]},
              top=["H6"], by="D", preset="uecda")
    s = pass_(pass_(play(s, "A", "H9"), "B"), "C")
    res = ok(s, "pass", "D")
    assert events(res) == ["passed", "field_cleared"]
    assert res.events[1]["reason"] == "passes" and res.events[1]["by"] == "B"
    assert res.state["turn"] == "B" and res.to_act == ["B"]


# ---- D14 lock -------------------------------------------------------------------------------

def test_D14_lock_kept_and_broken_by_a_lone_joker():
    o = {"lock": "suit", "strongest_play_clears": False}
    s = build({"A": ["H9", "S9", "C4"], "B": ["DK", "HK", "BJ", "S5"], "C": ["C3", "CQ"]},
              top=["H4"], by="C", opts=o)
    s = play(s, "A", "H9")
    assert s["locked_suits"] == ["H"]
    assert refused(s, "play", "B", cards=["DK"]).code == "suit_locked"
    s2 = play(s, "B", "HK")
    assert s2["locked_suits"] == ["H"]
    s3 = play(s, "B", "BJ")
    assert s3["locked_suits"] is None and s3["top"]["cards"] == ["BJ"]


# ---- D15 spade-3 return ---------------------------------------------------------------------

def test_D15_spade3_returns_a_lone_joker_not_after_a_pass():
    o = {"spade3_return": "single_joker", "strongest_play_clears": False}
    s = build({"A": ["S3", "C4"], "B": ["S5", "D6"], "C": ["C3", "C7"]}, top=["BJ"], by="C",
              opts=o)
    r = ok(s, "play", "A", cards=["S3"])
    assert r.state["top"] is None and r.state["turn"] == "A"
    t = build({"A": ["S3", "C4"], "B": ["S5", "D6"], "C": ["C3", "C7"]}, top=["BJ"], by="C",
              opts=o, passed_field=["A"])
    assert refused(t, "play", "A", cards=["S3"]).code == "spade3_return_after_pass"
    u = build({"A": ["S3", "C4"], "B": ["S5", "D6"], "C": ["C3", "C7"]}, top=["BJ"], by="C")
    assert refused(u, "play", "A", cards=["S3"]).code == "not_stronger"


# ---- D17 skip, D20 reverse ------------------------------------------------------------------

def test_D17_five_skip_per_card():
    s = build({"A": ["H5", "S5", "C4"], "B": ["SK", "D6"], "C": ["C3", "C7"],
               "D": ["D3", "DA"]}, top=["H4", "S4"], by="D", opts={"five_skip": "per_card"})
    s = play(s, "A", "H5 S5")
    assert s["turn"] == "D" and s["passed"] == ["B", "C"]
    t = build({"A": ["H5", "C4"], "B": ["SK", "D6"], "C": ["C3", "C7"]}, top=["H4"], by="C",
              opts={"five_skip": "per_card"})
    t = play(t, "A", "H5")
    assert t["turn"] == "C"


def test_D20_nine_reverses_the_direction():
    s = build({"A": ["H9", "C4"], "B": ["SK", "D6"], "C": ["C3", "C7"], "D": ["D3", "DA"]},
              top=["H4"], by="D", opts={"reverse_rank": 9})
    s = play(s, "A", "H9")
    assert s["direction"] == -1 and s["turn"] == "D"


# ---- D18 7-pass, D19 10-discard -------------------------------------------------------------

def test_D18_seven_pass_gives_to_the_next_player():
    s = build({"A": ["H7", "C4", "CK"], "B": ["SK", "D6"], "C": ["C3", "C8"]}, top=["H4"],
              by="C", opts={"seven_pass": True})
    s = play(s, "A", "H7")
    assert s["phase"] == "give" and s["owed"]["give"] == 1 and s["owed"]["receiver"] == "B"
    assert refused(s, "pass", "B").code == "seven_pass_pending"
    assert refused(s, "give", "A", cards=["C4", "CK"]).code == "give_count"
    r = ok(s, "give", "A", cards=["CK"])
    assert "CK" in r.state["hands"]["B"] and r.state["phase"] == "play"
    assert r.state["turn"] == "B"


def test_D18_D19_too_few_cards_left_give_what_is_left_and_finish():
    s = build({"A": ["H7", "S7", "C4"], "B": ["SK", "D6"], "C": ["C3", "C8"]},
              top=["H5", "S5"], by="C", opts={"seven_pass": True})
    s = play(s, "A", "H7 S7")
    assert s["owed"]["give"] == 1           # two 7s, one card left
    r = ok(s, "give", "A", cards=["C4"])
    assert r.state["finished"] == ["A"] and r.state["turn"] == "B"
    t = build({"A": ["H10", "S10", "D10", "C4"], "B": ["SK", "D6"], "C": ["C3", "C8"]},
              top=["H5", "S5", "D5"], by="C", opts={"ten_discard": True})
    t = play(t, "A", "H10 S10 D10")
    assert t["phase"] == "discard" and t["owed"]["discard"] == 1
    assert refused(t, "discard", "B", cards=["SK"]).code == "nothing_to_discard"
    r = ok(t, "discard", "A", cards=["C4"])
    assert "C4" in r.state["discards"] and r.state["finished"] == ["A"]


# ---- D21, D22 -------------------------------------------------------------------------------

def test_D21_double_nine_clears_and_D22_triple_nine_revolts():
    s = build({"A": ["H9", "S9", "D9", "C4"], "B": ["SK", "D6"], "C": ["C3", "C8"]},
              top=["H5", "S5"], by="C", opts={"double_nine_cut": True})
    assert play(s, "A", "H9 S9")["top"] is None
    t = build({"A": ["H9", "S9", "D9", "C4"], "B": ["SK", "D6"], "C": ["C3", "C8"]},
              top=["H5", "S5", "D5"], by="C", opts={"triple_nine_revolution": True})
    assert play(t, "A", "H9 S9 D9")["revolution"]


# ---- D23 都落ち, D24 foul finishes -----------------------------------------------------------

def test_D23_miyako_ochi_sends_the_last_daifugo_to_the_bottom():
    m = {"deal": 2, "points": {"A": 0, "B": 0, "C": 0, "D": 0},
         "finish_order": ["C", "A", "B", "D"]}
    s = build({"A": ["H9"], "B": ["SK", "D6"], "C": ["C3", "C8"], "D": ["D3", "DA"]},
              top=["H4"], by="D", opts={"miyako_ochi": True}, match=m)
    r = ok(s, "play", "A", cards=["H9"])
    assert r.state["finished"] == ["A"] and r.state["fallen"] == ["C"]
    assert "miyako_ochi" in events(r) and r.state["turn"] == "B"


def test_D24_foul_finish_ranks_last_and_before_a_fallen_daifugo():
    m = {"deal": 2, "points": {"A": 0, "B": 0, "C": 0, "D": 0},
         "finish_order": ["C", "A", "B", "D"]}
    o = {"miyako_ochi": True, "forbidden_finish": ["top_rank"]}
    s = build({"A": ["H2"], "B": ["SK", "D6"], "C": ["C3", "C8"], "D": ["D3", "DA", "H5"]},
              top=["H4"], by="D", opts=o, match=m)
    s = play(s, "A", "H2")                   # foul: A ranks last for now
    assert s["fallen"] == ["A"] and s["finished"] == []
    s = pass_(pass_(pass_(s, "B"), "C"), "D")
    assert s["top"] is None and s["turn"] == "B"
    s = play(s, "B", "SK")
    s = pass_(pass_(s, "C"), "D")
    s = play(s, "B", "D6")                   # B first: C (last 大富豪) falls
    assert s["fallen"] == ["A", "C"]
    assert s["status"] == "finished"
    assert s["result"]["finish_order"] == ["B", "D", "C", "A"]


# ---- D9 a leader's pass (leader_may_pass, UECda) and the last move's clear -------------------

def test_d9_leader_must_lead_in_the_seed_presets():
    for preset in ("seed", "seed_full"):
        s = build({"A": ["H9"], "B": ["D4"], "C": ["C3"]}, preset=preset)
        assert refused(s, "pass", "A").code == "must_lead"
        assert all(a.type == "play" for a in GAME.legal_actions(GAME.decode(s), "A"))


def test_d9_leader_may_pass_under_uecda():
    s = build({"A": ["H9", "C4"], "B": ["D4", "S5"], "C": ["C3", "C6"]}, preset="uecda")
    assert any(a.type == "pass" for a in GAME.legal_actions(GAME.decode(s), "A"))
    res = ok(s, "pass", "A")
    assert events(res) == ["passed"]
    s = res.state
    assert s["top"] is None and s["turn"] == "B" and s["passes_in_a_row"] == 1
    # the pass lasts until the field clears (U5): B leads, C follows, A is skipped
    s = play(s, "B", "D4")
    assert s["turn"] == "C"
    s = pass_(s, "C")
    assert s["turn"] == "B" and s["passes_in_a_row"] == 1


def test_d9_leader_may_pass_option_in_a_seed_preset():
    s = build({"A": ["H9", "C4"], "B": ["D4", "S5"], "C": ["C3", "C6"]},
              opts={"leader_may_pass": True})
    s = pass_(s, "A")
    s = play(s, "B", "D4")          # seed ⑦: A passed, and may play again on B's field
    assert s["turn"] == "C"
    s = pass_(s, "C")
    assert s["turn"] == "A" and ok(s, "play", "A", cards=["H9"]).valid


def test_d9_everyone_passing_a_clear_field_gives_the_leader_the_lead_again():
    s = build({"A": ["H9", "C4"], "B": ["D4", "S5"], "C": ["C3", "C6"]}, preset="uecda",
              turn="B")
    s = pass_(pass_(s, "B"), "C")
    res = ok(s, "pass", "A")
    assert events(res) == ["passed", "field_cleared"]
    assert res.events[1]["reason"] == "passes" and res.events[1]["by"] == "B"
    s = res.state
    assert s["turn"] == "B" and s["passed"] == [] and s["passes_in_a_row"] == 3
    s = play(s, "B", "S5")          # a play ends the run of passes
    assert s["passes_in_a_row"] == 0


def test_d9_twenty_passes_in_a_row_rank_the_rest_in_the_seeded_order():
    from engine.games.daifugo.phases import PASS_LIMIT
    from engine.rng import shuffled
    hands = {"A": [], "B": ["D4", "S5"], "C": ["C3", "C6"], "D": ["H3"], "E": ["S9"]}
    s = build(hands, preset="uecda", turn="B", finished=["A"],
              passes_in_a_row=PASS_LIMIT - 2)
    s = pass_(s, "B")
    assert s["status"] == "in_progress" and s["turn"] == "C"
    res = ok(s, "pass", "C")
    assert events(res) == ["passed", "pass_limit_reached", "deal_finished"]
    rest = shuffled(["B", "C", "D", "E"], "test", "pass_limit")
    assert res.events[1] == {"type": "pass_limit_reached", "game": "daifugo",
                             "passes": PASS_LIMIT, "ranked": rest,
                             "text": {"en": f"{PASS_LIMIT} passes in a row end the deal; the "
                                            f"rest ranked: {', '.join(rest)}",
                                      "ja": f"{PASS_LIMIT}回連続のパスで終了。残りの順位: "
                                            f"{'、'.join(rest)}"}}
    assert res.state["result"]["finish_order"] == ["A", *rest]
    assert ok(s, "pass", "C").state == res.state        # a replay ranks them the same
    other = build(hands, preset="uecda", turn="B", finished=["A"],
                  passes_in_a_row=PASS_LIMIT - 1, seed="other")
    assert ok(other, "pass", "B").state["result"]["finish_order"] == \
        ["A", *shuffled(["B", "C", "D", "E"], "other", "pass_limit")]


def test_d9_passes_never_end_a_deal_without_leader_may_pass():
    s = build({"A": ["H9", "C4"], "B": ["D4", "S5"], "C": ["C3", "C6"]}, top=["H7"], by="C",
              passes_in_a_row=40)
    s = pass_(s, "A")
    assert s["status"] == "in_progress" and s["passes_in_a_row"] == 41


def test_d9_the_last_move_clears_the_field_like_any_other():
    # B passed on A's ♥7 (U5: until the clear); A beats its own cards and goes out, leaving B
    # alone: everyone still in has passed, so the field clears, as on any move
    s = build({"A": ["H9"], "B": ["D4", "S5"], "C": []}, top=["H7"], by="A", turn="A",
              preset="uecda", finished=["C"], passed=["B"], passed_field=["B"])
    res = ok(s, "play", "A", cards=["H9"])
    assert events(res) == ["played", "went_out", "field_cleared", "deal_finished"]
    assert res.events[2]["reason"] == "passes"
    assert res.state["top"] is None and {"H7", "H9"} <= set(res.state["discards"])
    # B has not passed: no clear, at the last move as at any other
    s = build({"A": ["H9"], "B": ["D4", "S5"], "C": []}, top=["H7"], by="B", turn="A",
              preset="uecda", finished=["C"])
    assert events(ok(s, "play", "A", cards=["H9"])) == ["played", "went_out", "deal_finished"]
