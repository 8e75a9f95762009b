"""The less-used options through the service contract, one test per rule number and option,
each on a hand-built deal (`build`: exact hands and field; `deal`: exact `hands`): the legal
case, and the refused case with its refusal code and the rule it cites on
docs/rules/daifugo.md."""
import pytest

from engine import adjudicate
from engine.cards import deck_52
from engine.errors import InvalidOptions

from .helpers import build, events, ok, pass_, play, refused


def deal(players, **kw):
    return adjudicate.deal("daifugo", list(players), seed=kw.pop("seed", "t"), **kw)


def refused_by(state, code, rule, type_, player, **fields):
    """The action is refused with `code`, citing `rule` of the Daifugo rules page."""
    r = refused(state, type_, player, **fields)
    assert (r.code, r.rule) == (code, f"daifugo {rule}"), (r.code, r.rule, r.en)
    return r


# ---- D14 lock: number (数字縛り) ----------------------------------------------------------

NUMBER = {"lock": "number", "strongest_play_clears": False}


def _number_locked():
    """C led S5, A follows with H6: exactly one step stronger, so the sequence locks."""
    s = build({"A": ["H6", "BJ", "C4"], "B": ["D7", "D9", "S3"], "C": ["C3", "CK", "C10"]},
              top=["S5"], by="C", opts=NUMBER)
    res = ok(s, "play", "A", cards=["H6"])
    assert "lock_formed" in res.events[0]["effects"]
    assert res.state["sequence_lock"] and res.state["locked_suits"] is None
    return res.state


def test_D14_number_lock_forms_on_the_next_step_and_keeps_the_sequence():
    s = _number_locked()
    refused_by(s, "number_locked", "D14", "play", "B", cards=["D9"])   # stronger, not next
    s = play(s, "B", "D7")                                              # any suit, next step
    assert s["sequence_lock"] and s["top"]["cards"] == ["D7"]
    refused_by(s, "number_locked", "D14", "play", "C", cards=["CK"])
    s = pass_(s, "C")
    assert s["sequence_lock"] and s["turn"] == "A"


def test_D14_number_lock_does_not_form_on_a_bigger_step():
    s = build({"A": ["H7", "C4"], "B": ["D9", "S3"], "C": ["C3", "CK"]}, top=["S5"], by="C",
              opts=NUMBER)
    s = play(s, "A", "H7")
    assert not s["sequence_lock"]
    assert play(s, "B", "D9")["top"]["cards"] == ["D9"]


def test_D14_number_lock_on_sets_and_in_reversed_order():
    s = build({"A": ["H6", "D6", "C4"], "B": ["D7", "C7", "S9", "H9"], "C": ["C3", "CK"]},
              top=["S5", "H5"], by="C", opts=NUMBER)
    s = play(s, "A", "H6 D6")
    assert s["sequence_lock"]
    refused_by(s, "number_locked", "D14", "play", "B", cards=["S9", "H9"])
    assert play(s, "B", "D7 C7")["sequence_lock"]
    # during a revolution one step stronger is one rank lower
    r = build({"A": ["H5", "C9"], "B": ["D4", "DK", "S3"], "C": ["C3", "CK"]}, top=["S6"],
              by="C", opts=NUMBER, revolution=True)
    r = play(r, "A", "H5")
    assert r["sequence_lock"]
    refused_by(r, "number_locked", "D14", "play", "B", cards=["S3"])
    assert play(r, "B", "D4")["top"]["cards"] == ["D4"]


def test_D14_number_lock_broken_by_a_lone_joker():
    s = _number_locked()
    s = play(s, "B", "D7")
    s = pass_(s, "C")
    res = ok(s, "play", "A", cards=["BJ"])       # D-i: exempt from the lock, and breaks it
    assert "lock_broken" in res.events[0]["effects"]
    assert not res.state["sequence_lock"] and res.state["top"]["cards"] == ["BJ"]
    strict = _number_locked()
    strict = {**strict, "options": {**strict["options"], "lone_joker_ignores_lock": False}}
    strict = pass_(play(strict, "B", "D7"), "C")
    refused_by(strict, "number_locked", "D14", "play", "A", cards=["BJ"])
    kept = _number_locked()
    kept = {**kept, "options": {**kept["options"], "lone_joker_clears_lock": False}}
    kept = play(pass_(play(kept, "B", "D7"), "C"), "A", "BJ")
    assert kept["sequence_lock"]


# ---- D14 lock: suit_and_sequence (激縛り) --------------------------------------------------

SUIT_SEQ = {"lock": "suit_and_sequence", "strongest_play_clears": False}


def _suit_and_sequence_locked():
    s = build({"A": ["S6", "H6", "S8", "C4"], "B": ["S7", "H7", "S9", "BJ", "D3"],
               "C": ["C3", "CK", "D5"]}, top=["S5"], by="C", opts=SUIT_SEQ)
    s = play(s, "A", "S6")
    assert s["locked_suits"] == ["S"] and s["sequence_lock"]
    return s


def test_D14_suit_and_sequence_lock_kept():
    s = _suit_and_sequence_locked()
    refused_by(s, "suit_locked", "D14", "play", "B", cards=["H7"])    # next step, other suit
    refused_by(s, "number_locked", "D14", "play", "B", cards=["S9"])  # same suit, too far
    s = play(s, "B", "S7")
    assert s["locked_suits"] == ["S"] and s["sequence_lock"]


def test_D14_suit_and_sequence_needs_both_to_lock():
    base = build({"A": ["S6", "H6", "S7", "C4"], "B": ["H8", "D9", "D3"], "C": ["C3", "CK"]},
                 top=["S5"], by="C", opts=SUIT_SEQ)
    other_suit = play(base, "A", "H6")          # next step, other suit: no lock
    assert other_suit["locked_suits"] is None and not other_suit["sequence_lock"]
    assert play(other_suit, "B", "D9")["top"]["cards"] == ["D9"]
    too_far = play(base, "A", "S7")             # same suit, two steps: no lock
    assert too_far["locked_suits"] is None and not too_far["sequence_lock"]
    assert play(too_far, "B", "D9")["top"]["cards"] == ["D9"]


def test_D14_suit_and_sequence_lock_broken_by_a_lone_joker():
    s = _suit_and_sequence_locked()
    res = ok(s, "play", "B", cards=["BJ"])
    assert "lock_broken" in res.events[0]["effects"]
    assert res.state["locked_suits"] is None and not res.state["sequence_lock"]


def test_D9_D14_lock_ends_when_the_field_clears():
    s = _suit_and_sequence_locked()
    s = pass_(pass_(s, "B"), "C")
    assert s["top"] is None and s["locked_suits"] is None and not s["sequence_lock"]
    assert s["turn"] == "A" and play(s, "A", "C4")["top"]["cards"] == ["C4"]


# ---- D15 spade-3 return: any_joker --------------------------------------------------------

def _on(top, jokers, opts, **kw):
    return build({"A": ["S3", "C4"], "B": ["D5", "D6"], "C": ["C7", "C9"]}, top=top,
                 jokers=jokers, by="C", opts=opts, **kw)


def test_D15_any_joker_spade3_answers_a_set_holding_a_joker():
    anyj = {"spade3_return": "any_joker"}
    res = ok(_on(["H7", "BJ"], ["S7"], anyj), "play", "A", cards=["S3"])
    assert "spade3_return" in res.events[0]["effects"]
    assert res.state["top"] is None and res.state["turn"] == "A"     # spade3_clears
    refused_by(_on(["H7", "BJ"], ["S7"], {"spade3_return": "single_joker"}),
               "count_mismatch", "D6", "play", "A", cards=["S3"])
    refused_by(_on(["H7", "D7"], None, anyj), "count_mismatch", "D6", "play", "A",
               cards=["S3"])                                          # no joker in it
    refused_by(_on(["H7", "BJ"], ["S7"], anyj, passed_field=["A"]),
               "spade3_return_after_pass", "D15", "play", "A", cards=["S3"])


def test_D15_any_joker_spade3_answers_stairs_and_a_lone_joker():
    anyj = {"spade3_return": "any_joker", "stairs": "standard", "strongest_play_clears": False}
    res = ok(_on(["H5", "BJ", "H7"], ["H6"], anyj), "play", "A", cards=["S3"])
    assert res.state["top"] is None and res.state["turn"] == "A"
    assert ok(_on(["BJ"], None, anyj), "play", "A", cards=["S3"]).state["top"] is None
    refused_by(_on(["H5", "H6", "H7"], None, anyj), "form_mismatch", "D6", "play", "A",
               cards=["S3"])
    kept = ok(_on(["H7", "BJ"], ["S7"], {**anyj, "spade3_clears": False}), "play", "A",
              cards=["S3"])
    assert kept.state["top"]["cards"] == ["S3"] and kept.state["turn"] == "B"


# ---- D12 stairs revolution ----------------------------------------------------------------

STAIRS_REV = {"stairs": "standard", "stairs_revolution_min": 5}


def _stairs_lead(opts, cards=("D9", "D10", "DJ", "DQ", "DK")):
    s = build({"A": list(cards) + ["C4"],
               "B": ["S3", "S4", "S5", "S6", "S7", "C10", "CJ", "CQ", "CK", "CA"],
               "C": ["H3", "H4"]}, opts=opts)
    return ok(s, "play", "A", cards=list(cards))


def test_D12_stairs_of_five_make_a_revolution():
    res = _stairs_lead(STAIRS_REV)
    assert "revolution" in res.events[0]["effects"] and res.state["revolution"]
    s = res.state
    refused_by(s, "not_stronger", "D6", "play", "B", cards=["C10", "CJ", "CQ", "CK", "CA"])
    s = play(s, "B", "S3 S4 S5 S6 S7")  # lower wins in the revolution, and reverts it (革命返し)
    assert not s["revolution"] and s["top"]["cards"] == ["S3", "S4", "S5", "S6", "S7"]


def test_D12_shorter_stairs_or_never_no_revolution():
    four = _stairs_lead(STAIRS_REV, ("D9", "D10", "DJ", "DQ"))
    assert not four.state["revolution"]
    refused_by(four.state, "not_stronger", "D6", "play", "B", cards=["S3", "S4", "S5", "S6"])
    assert _stairs_lead({**STAIRS_REV, "stairs_revolution_min": 4},
                        ("D9", "D10", "DJ", "DQ")).state["revolution"]
    # the seed presets: stairs never make a revolution (D-d), in either stair form
    assert not _stairs_lead({"stairs": "seed"}).state["revolution"]
    assert not _stairs_lead({"stairs": "standard"}).state["revolution"]


# ---- D4 / D-b leaders: spade3_first and random ---------------------------------------------

def _hands_with(card, holder, players="ABC"):
    deck = [c for c in deck_52() + ["BJ"] if c != card]
    n = len(players)
    hands = {p: deck[i::n] for i, p in enumerate(players)}
    small = min(hands, key=lambda p: len(hands[p]))
    hands[holder].append(card)
    if holder != small:                              # keep the deal even (D3)
        hands[small].append(hands[holder].pop(0))
    return hands


def test_D4_spade3_first_the_spade3_holder_leads_the_first_deal():
    for holder in "ABC":
        d = deal("ABC", hands=_hands_with("S3", holder),
                 options={"first_leader": "spade3_first"})
        assert d["to_act"] == [holder]
        other = next(p for p in "ABC" if p != holder)
        refused_by(d["state"], "not_your_turn", "D8", "play", other,
                   cards=[d["state"]["hands"][other][0]])
        assert ok(d["state"], "play", holder, cards=["S3"]).state["turn"] != holder
    # later deals: the 大貧民 (or the 大富豪) leads, wherever the ♠3 is
    m = {"deal": 2, "points": {}, "finish_order": ["B", "C", "A"]}
    o = {"first_leader": "spade3_first"}
    assert deal("ABC", hands=_hands_with("S3", "B"), match=m, options=o)["to_act"] == ["A"]
    assert deal("ABC", hands=_hands_with("S3", "A"), match=m,
                options={**o, "next_leader": "daifugo"})["to_act"] == ["B"]


def test_D4_random_first_leader_is_seeded_and_reaches_every_seat():
    """A dealt deal draws the leader from its seed; a physical one takes it from the referee
    (tests/daifugo/test_physical_deals.py)."""
    leaders = {}
    for seed in range(20):
        d = deal("ABCD", seed=f"s{seed}")
        assert d["to_act"] == deal("ABCD", seed=f"s{seed}")["to_act"]
        leaders[d["to_act"][0]] = d
    assert set(leaders) == set("ABCD")      # not tied to the ♠3 or ♦3 or the first seat
    d = leaders["C"]
    refused_by(d["state"], "not_your_turn", "D8", "play", "A", cards=[d["state"]["hands"]["A"][0]])
    m = {"deal": 2, "points": {}, "finish_order": ["B", "C", "D", "A"]}
    assert {deal("ABCD", seed=f"s{k}", match=m)["to_act"][0] for k in range(8)} == {"A"}


# ---- D11 / D-q exchange sizes 1_0 and 1_1, D-r ties ----------------------------------------

M4 = {"deal": 2, "points": {}, "finish_order": ["A", "B", "C", "D"]}


def _exchange_deal(exchange, players="ABCD", match=M4, **opts):
    """The last seat (the 大貧民 of `match`) holds the joker."""
    deck = deck_52()
    n = len(players)
    hands = {p: deck[i::n] for i, p in enumerate(players)}
    hands[players[-1]].append("BJ")
    return deal(players, hands=hands, match=match, options={"exchange": exchange, **opts})


def test_D11_exchange_1_0_only_daifugo_and_daihinmin_one_card():
    d = _exchange_deal("1_0")
    s = d["state"]
    assert d["to_act"] == ["A"] and len(s["exchange"]) == 1
    e = s["exchange"][0]
    assert (e["upper"], e["lower"], e["count"]) == ("A", "D", 1)
    assert e["tribute"] == ["BJ"] and "BJ" in s["hands"]["A"]        # joker first (D11)
    refused_by(s, "no_exchange_due", "D11", "exchange", "B", cards=[s["hands"]["B"][0]])
    refused_by(s, "exchange_count", "D11", "exchange", "A", cards=s["hands"]["A"][:2])
    refused_by(s, "exchange_in_progress", "D11", "play", "D", cards=[s["hands"]["D"][0]])
    give = s["hands"]["A"][0]
    s = ok(s, "exchange", "A", cards=[give]).state
    assert give in s["hands"]["D"] and s["phase"] == "play" and s["turn"] == "D"
    assert sorted(len(h) for h in s["hands"].values()) == [13, 13, 13, 14]


def test_D11_exchange_1_1_one_card_each_pair():
    d = _exchange_deal("1_1")
    s = d["state"]
    assert sorted(d["to_act"]) == ["A", "B"]
    assert {(e["upper"], e["lower"], e["count"]) for e in s["exchange"]} == {
        ("A", "D", 1), ("B", "C", 1)}
    refused_by(s, "exchange_count", "D11", "exchange", "B", cards=s["hands"]["B"][:2])
    refused_by(s, "no_exchange_due", "D11", "exchange", "C", cards=[s["hands"]["C"][0]])
    s = ok(s, "exchange", "B", cards=[s["hands"]["B"][0]]).state
    assert s["phase"] == "exchange"
    refused_by(s, "no_exchange_due", "D11", "exchange", "B", cards=[s["hands"]["B"][0]])
    s = ok(s, "exchange", "A", cards=[s["hands"]["A"][0]]).state
    assert s["phase"] == "play" and s["turn"] == "D"


def test_D11_three_players_only_daifugo_and_daihinmin_exchange():
    m3 = {"deal": 2, "points": {}, "finish_order": ["A", "B", "C"]}
    for size, count in (("2_1", 2), ("1_1", 1), ("1_0", 1)):
        s = _exchange_deal(size, "ABC", m3)["state"]
        assert [(e["upper"], e["lower"], e["count"]) for e in s["exchange"]] == [
            ("A", "C", count)], size


def test_D11_Dr_exchange_with_ties_follows_the_tribute_suit_order():
    deck = deck_52() + ["BJ"]
    twos = ["S2", "H2", "D2", "C2"]
    rest = [c for c in deck if c not in twos and c != "BJ"]
    hands = {"A": rest[:13], "B": rest[13:26], "C": rest[26:39] + ["BJ"],
             "D": twos + rest[39:]}
    for order, tribute in (("SHDC", ["S2", "H2"]), ("CDHS", ["C2", "D2"]),
                           ("DCSH", ["D2", "C2"])):
        s = deal("ABCD", hands=hands, match=M4,
                 options={"exchange": "2_1", "tribute_suit_order": order})["state"]
        ex = {e["upper"]: e["tribute"] for e in s["exchange"]}
        assert ex == {"A": tribute, "B": ["BJ"]}, order          # the joker before any 2
    with pytest.raises(InvalidOptions):
        deal("ABCD", hands=hands, match=M4, options={"tribute_suit_order": "SHD"})


def test_D11_Dr_two_jokers_red_before_black_then_twos():
    deck = deck_52() + ["BJ", "RJ"]
    low = ["BJ", "RJ", "H2", "C2"]
    rest = [c for c in deck if c not in low]
    hands = {"A": rest[:14], "B": rest[14:27], "C": rest[27:40], "D": low + rest[40:]}
    s = deal("ABCD", hands=hands, match=M4,
             options={"jokers": 2, "exchange": "2_1", "tribute_suit_order": "CDHS"})["state"]
    assert {e["upper"]: e["tribute"] for e in s["exchange"]}["A"] == ["RJ", "BJ"]


# ---- D20 reverse_even_cancels -------------------------------------------------------------

def _nines(opts):
    return build({"A": ["H9", "S9", "D9", "C4"], "B": ["SK", "D6"], "C": ["C3", "C7"],
                  "D": ["D3", "DA"]}, top=["H4"], by="D",
                 opts={"reverse_rank": 9, "strongest_play_clears": False, **opts})


def test_D20_reverse_even_cancels_two_nines_do_nothing():
    pairs = {"reverse_rank": 9, "reverse_even_cancels": True}
    s = build({"A": ["H9", "S9", "C4"], "B": ["SK", "SQ", "D6"], "C": ["C3", "C7"],
               "D": ["D3", "DA"]}, top=["H4", "S4"], by="D", opts=pairs)
    res = ok(s, "play", "A", cards=["H9", "S9"])
    assert res.state["direction"] == 1 and res.state["turn"] == "B"
    refused_by(res.state, "not_your_turn", "D8", "pass", "D")
    plain = build({"A": ["H9", "S9", "C4"], "B": ["SK", "SQ", "D6"], "C": ["C3", "C7"],
                   "D": ["D3", "DA"]}, top=["H4", "S4"], by="D", opts={"reverse_rank": 9})
    res = ok(plain, "play", "A", cards=["H9", "S9"])
    assert res.state["direction"] == -1 and res.state["turn"] == "D"
    refused_by(res.state, "not_your_turn", "D8", "pass", "B")


def test_D20_reverse_even_cancels_odd_counts_still_reverse():
    one = play(_nines({"reverse_even_cancels": True}), "A", "H9")
    assert one["direction"] == -1 and one["turn"] == "D"
    refused_by(one, "not_your_turn", "D8", "pass", "B")
    three = build({"A": ["H9", "S9", "D9", "C4"], "B": ["SK", "D6"], "C": ["C3", "C7"],
                   "D": ["D3", "DA"]}, top=["H4", "S4", "D4"], by="D",
                  opts={"reverse_rank": 9, "reverse_even_cancels": True})
    three = play(three, "A", "H9 S9 D9")
    assert three["direction"] == -1 and three["turn"] == "D"


# ---- D-s rank_points ----------------------------------------------------------------------

POINTS = {"2/1/0/-1/-2": (2, 1, 0, -1, -2), "5/4/3/2/1": (5, 4, 3, 2, 1),
          "1/0/0/0/-1": (1, 0, 0, 0, -1), "0/0/0/0/0": (0, 0, 0, 0, 0)}


def _last_play(points, players="ABCDE"):
    """Every seat but the last two is out in seat order; the second-last plays its last card
    and the last is left (大貧民)."""
    hands = {p: [] for p in players[:-2]}
    hands.update({players[-2]: ["H9"], players[-1]: ["S4", "S5"]})
    m = {"deal": 3, "points": {p: 10 for p in players}, "finish_order": list(players)}
    s = build(hands, opts={"rank_points": points}, finished=list(players[:-2]),
              turn=players[-2], leader=players[-2], match=m)
    return ok(s, "play", players[-2], cards=["H9"])


@pytest.mark.parametrize("points", sorted(POINTS))
def test_Ds_rank_points_per_title(points):
    table = POINTS[points]
    res = _last_play(points)
    r = res.state["result"]
    assert r["finish_order"] == list("ABCDE")
    assert r["titles"] == dict(zip("ABCDE", ["daifugo", "fugo", "heimin", "hinmin",
                                              "daihinmin"]))
    assert r["points"] == dict(zip("ABCDE", table))
    assert [(d["target"], d["delta"], d["title"], d["place"]) for d in res.score_deltas] == [
        (p, table[i], r["titles"][p], i + 1) for i, p in enumerate("ABCDE")]
    assert res.state["next_match"]["points"] == {p: 10 + table[i] for i, p in enumerate("ABCDE")}
    # every extra 平民 of a bigger table scores the 平民 points
    six = _last_play(points, "ABCDEF").state["result"]
    assert [six["points"][p] for p in "ABCDEF"] == [table[0], table[1], table[2], table[2],
                                                    table[3], table[4]]
    assert refused(res.state, "pass", "E").code == "game_finished"


def test_Ds_rank_points_outside_the_list_are_refused():
    with pytest.raises(InvalidOptions) as e:
        deal("ABC", options={"rank_points": "3/2/1/0/-1"})
    assert e.value.path.startswith("options")


# ---- D24 foul finishes and their ranking --------------------------------------------------

def test_D24_two_foul_finishes_rank_in_reverse_order_below_everyone():
    o = {"forbidden_finish": ["joker", "eight"]}
    s = build({"A": ["BJ"], "B": ["H8"], "C": ["H5"], "D": ["S6"], "E": ["C4", "C7"]}, opts=o)
    res = ok(s, "play", "A", cards=["BJ"])            # foul: the joker
    assert "penalized" in events(res) and res.state["fallen"] == ["A"]
    s = res.state
    assert s["top"] is None and s["turn"] == "B"      # the lone joker cleared (D9)
    refused_by(s, "player_out", "D10", "pass", "A")
    s = play(s, "B", "H8")                            # foul: an 8 (it still cuts)
    assert s["fallen"] == ["A", "B"] and s["top"] is None and s["turn"] == "C"
    s = play(s, "C", "H5")
    s = play(s, "D", "S6")
    assert s["status"] == "finished"
    # the earlier foul finisher takes the lower place
    assert s["result"]["finish_order"] == ["C", "D", "E", "B", "A"]
    assert s["result"]["titles"]["A"] == "daihinmin" and s["result"]["titles"]["B"] == "hinmin"


def test_D24_unlisted_cards_finish_normally_and_top_rank_follows_the_order():
    o = {"forbidden_finish": ["top_rank"]}
    s = build({"A": ["H3"], "B": ["SK", "D6"], "C": ["C4", "C8"]}, opts=o, revolution=True,
              top=["H5"], by="C")
    s = play(s, "A", "H3")                 # a 3 in a revolution: foul
    assert s["fallen"] == ["A"] and s["finished"] == []
    t = build({"A": ["H2"], "B": ["SK", "D6"], "C": ["C4", "C8"]}, opts=o, revolution=True,
              top=["H5"], by="C", turn="A")
    refused_by(t, "not_stronger", "D6", "play", "A", cards=["H2"])
    u = build({"A": ["H3"], "B": ["SK", "D6"], "C": ["C4", "C8"]}, opts=o)
    assert play(u, "A", "H3")["finished"] == ["A"]  # a 3 in normal order: fine
