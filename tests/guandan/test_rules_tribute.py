"""Tribute, return, anti-tribute and the first lead (§8, D5–D7, D14), by rule number."""
from collections import Counter

import pytest

from engine import adjudicate
from engine.cards import double_deck_108
from engine.errors import InvalidDeal
from engine.games.guandan import GAME
from engine.games.guandan.combos import level_value
from engine.games.guandan.phases import card_value

from .helpers import PLAYERS, legal, match_json, ok, refused

LEVEL = "5"


def deal(spec: dict, order, low=(), preset="seed", level=LEVEL, seed="t", table=None,
         **opts) -> dict:
    """A next deal after the finish `order` (team1 declarer at `level`): `spec` gives cards per
    player; players in `low` are filled with the lowest cards (no wilds, jokers or level cards),
    the others with the rest."""
    first_team = "team1" if PLAYERS.index(order[0]) % 2 == 0 else "team2"
    m = match_json(levels={first_team: level}, order=order, declarer=first_team)
    m.pop("tribute_payers")
    pool = Counter(double_deck_108())
    for cards in spec.values():
        pool.subtract(cards)
    assert all(v >= 0 for v in pool.values())
    ranked = sorted(pool.elements(), key=lambda c: (c in ("BJ", "RJ") or c[1:] == level,
                                                     level_value(c if c in ("BJ", "RJ") else c[1:], level)))
    hands = {p: list(spec.get(p, [])) for p in PLAYERS}
    for p in list(low) + [p for p in PLAYERS if p not in low]:
        need = 27 - len(hands[p])
        hands[p] += ranked[:need]
        ranked = ranked[need:]
    return adjudicate.deal("guandan", PLAYERS, options={"preset": preset, **opts}, seed=seed,
                           match=m, hands=hands, table=table)["state"]


def test_T_1_no_tribute_in_a_first_deal():
    st = adjudicate.deal("guandan", PLAYERS, seed="first")["state"]
    assert st["phase"] == "play" and st["tributes"] == []


def test_T_2_T_4_W_12_single_tribute_the_highest_card_apart_from_the_wilds():
    st = deal({"d": ["H5", "S5", "S5", "SK"], "a": ["S3"]}, ["a", "b", "c", "d"], low=["d"])
    assert st["phase"] == "tribute" and adjudicate.deal  # noqa
    assert [t["payer"] for t in st["tributes"]] == ["d"]
    assert refused(st, "play", "a", cards=["S3"]).code == "tribute_first"
    assert refused(st, "tribute", "b", card="S3").code == "not_a_payer"
    assert refused(st, "tribute", "d", card="H5").code == "tribute_wild"
    assert refused(st, "tribute", "d", card="SK").code == "tribute_not_highest"
    assert refused(st, "tribute", "d", card="RJ").code == "card_not_in_hand"
    assert [a["card"] for a in legal(st, "d")] == ["S5"]
    out = ok(st, "tribute", "d", card="S5")
    st = out.state
    assert st["phase"] == "return" and out.to_act == ["a"]
    assert st["tributes"][0] == {"payer": "d", "card": "S5", "receiver": "a", "returned": None}
    assert st["hands"]["a"].count("S5") == 1 and len(st["hands"]["a"]) == 28
    assert refused(st, "tribute", "d", card="S5").code == "no_tribute_due"
    # T-7, T-8 [seed]: any card, but not the card received (a holds no other copy of S5)
    assert refused(st, "return", "b", card="S3").code == "return_wrong_player"
    assert refused(st, "return", "a", card="S5").code == "return_received_card"
    assert "S5" not in [a["card"] for a in legal(st, "a")]
    out = ok(st, "return", "a", card="S3")
    assert out.state["phase"] == "play" and out.to_act == ["d"]  # T-10: the payer leads
    assert "S3" in out.state["hands"]["d"] and len(out.state["hands"]["d"]) == 27
    assert refused(out.state, "return", "a", card="S3").code == "no_return_due"


def _received_twice(**opts):
    """d pays SK to a, who already held the other SK: the return phase, a to return."""
    st = deal({"d": ["SK"], "a": ["SK", "S3"]}, ["a", "b", "c", "d"], low=["d"], **opts)
    assert [a["card"] for a in legal(st, "d")] == ["SK"]  # T-4: d's highest card
    st = ok(st, "tribute", "d", card="SK").state
    assert st["hands"]["a"].count("SK") == 2
    return st


def test_T_8_D6_return_may_not_be_twin_of_received():
    # T-8 [seed] 「もらったカードをそのまま返すことはできません」: the two copies of a card cannot
    # be told apart at a table, so handing back the other SK undoes the tribute all the same.
    st = _received_twice()
    assert st["options"]["return_same_card"] == "never"
    refusal = refused(st, "return", "a", card="SK")
    assert refusal.code == "return_received_card" and refusal.rule == "guandan T-8"
    assert refusal.details == {"card": "SK"}
    assert "SK" in refusal.en and "SK" in refusal.ja
    returns = {a["card"] for a in legal(st, "a")}
    assert "SK" not in returns and "S3" in returns
    assert ok(st, "return", "a", card="S3").valid


@pytest.mark.parametrize("preset", ["seed", "official"])
def test_T_8_D6_presets_seed_and_official_keep_the_twin(preset):
    st = _received_twice(preset=preset)
    assert st["options"]["return_same_card"] == "never"
    assert "SK" not in {a["card"] for a in legal(st, "a")}


def test_T_8_D6_other_copy_lets_the_twin_go_back():
    # D6 return_same_card other_copy (pagat, the earlier reading): only the very card is barred; with a second
    # SK in hand one of them may go back.
    for opts in ({"return_same_card": "other_copy"}, {"preset": "pagat"}):
        st = _received_twice(**opts)
        assert st["options"]["return_same_card"] == "other_copy"
        assert "SK" in {a["card"] for a in legal(st, "a")}
        out = ok(st, "return", "a", card="SK")
        assert out.state["hands"]["a"].count("SK") == 1 and "SK" in out.state["hands"]["d"]


def test_T_8_D6_other_copy_still_refuses_the_very_card():
    st = deal({"d": ["H5", "S5", "S5", "SK"], "a": ["S3"]}, ["a", "b", "c", "d"], low=["d"],
              return_same_card="other_copy")
    st = ok(st, "tribute", "d", card="S5").state
    assert refused(st, "return", "a", card="S5").code == "return_received_card"
    assert "S5" not in {a["card"] for a in legal(st, "a")}


def test_T_7_official_return_10_or_lower_not_a_level_card():
    st = deal({"d": ["BJ"], "a": ["SA", "D5", "S3"]}, ["a", "b", "c", "d"], low=["d"],
              preset="official")
    st = ok(st, "tribute", "d", card="BJ").state
    assert refused(st, "return", "a", card="SA").code == "return_above_cap"
    assert refused(st, "return", "a", card="D5").code == "return_level_card"
    cards = {a["card"] for a in legal(st, "a")}
    assert "S3" in cards and not cards & {"SA", "D5", "BJ", "RJ"}
    assert all(c[1:] in ("2", "3", "4", "6", "7", "8", "9", "10") for c in cards)
    assert ok(st, "return", "a", card="S3").valid


def test_T_7_official_no_card_qualifies_the_lowest_is_returned():
    high = [s + r for r in ("J", "Q", "K") for s in "SHDC" for _ in range(2)] + ["SA", "DA", "CA"]
    st = deal({"a": high, "d": ["BJ"]}, ["a", "b", "c", "d"], low=["d"], preset="official")
    st = ok(st, "tribute", "d", card="BJ").state
    assert {a["card"] for a in legal(st, "a")} == {"SJ", "HJ", "DJ", "CJ"}
    assert refused(st, "return", "a", card="SK").code == "return_not_lowest"


@pytest.mark.parametrize("payer,expected", [("fourth", "c"), ("third_opponent", "d")])
def test_T_2_D7_who_pays_after_a_1_4(payer, expected):
    st = deal({}, ["a", "b", "d", "c"], low=["c", "d"], single_payer=payer)
    assert [t["payer"] for t in st["tributes"]] == [expected]
    assert st["match"]["tribute_payers"] == [expected]


def test_T_3_T_10_double_tribute_higher_to_the_1st_and_its_payer_leads():
    st = deal({"b": ["BJ"], "d": ["SA"]}, ["a", "c"], low=["b", "d"])
    assert sorted(t["payer"] for t in st["tributes"]) == ["b", "d"]
    assert set(adjudicate.deal and GAME.to_act(GAME.decode(st))) == {"b", "d"}
    st = ok(st, "tribute", "d", card="SA").state
    assert refused(st, "tribute", "d", card="SA").code == "tribute_already_paid"
    st = ok(st, "tribute", "b", card="BJ").state
    assert {t["payer"]: t["receiver"] for t in st["tributes"]} == {"b": "a", "d": "c"}
    # T-9: returns are blind until both are given
    st = ok(st, "return", "c", card=legal(st, "c")[0]["card"]).state
    given = next(t for t in st["tributes"] if t["receiver"] == "c")["returned"]
    for viewer in ("a", "b", "d", None):
        v = GAME.view(GAME.decode(st), viewer)
        assert all(t["returned"] is None for t in v["tributes"])
    assert any(t["returned"] == given for t in GAME.view(GAME.decode(st), "c")["tributes"])
    out = ok(st, "return", "a", card=legal(st, "a")[0]["card"])
    assert out.state["phase"] == "play" and out.to_act == ["b"]


def equal_double(**opts):
    st = deal({"b": ["SA"], "d": ["DA"]}, ["a", "c"], low=["b", "d"], **opts)
    st = ok(st, "tribute", "b", card="SA").state
    return ok(st, "tribute", "d", card="DA")


def test_T_5_seed_winners_choose_then_the_payers_agree_who_leads():
    out = equal_double()
    st = out.state
    assert st["phase"] == "choose" and out.to_act == ["a"]
    assert refused(st, "take", "c", payer="b").code == "not_your_choice"
    assert refused(st, "take", "a", payer="c").code == "choice_not_a_payer"
    assert refused(st, "return", "a", card="S3").code == "no_return_due"
    st = ok(st, "take", "a", payer="d").state
    assert {t["payer"]: t["receiver"] for t in st["tributes"]} == {"b": "c", "d": "a"}
    assert refused(st, "take", "a", payer="d").code == "no_choice_due"
    st = ok(st, "return", "a", card=legal(st, "a")[0]["card"]).state
    out = ok(st, "return", "c", card=legal(st, "c")[0]["card"])
    st = out.state
    assert st["phase"] == "lead" and sorted(out.to_act) == ["b", "d"]
    assert refused(st, "lead", "a", leader="b").code == "lead_choice_not_yours"
    assert refused(st, "lead", "b", leader="a").code == "leader_not_a_payer"
    assert refused(st, "play", "b", cards=[st["hands"]["b"][0]]).code == "tribute_first"
    out = ok(st, "lead", "b", leader="d")
    assert out.state["phase"] == "play" and out.to_act == ["d"]
    assert refused(out.state, "lead", "b", leader="d").code == "no_lead_choice_due"


def test_T_5_official_clockwise_the_payer_after_the_1st_pays_the_1st_and_leads():
    out = equal_double(preset="official")
    st = out.state
    assert {t["payer"]: t["receiver"] for t in st["tributes"]} == {"b": "a", "d": "c"}
    st = ok(st, "return", "a", card=legal(st, "a")[0]["card"]).state
    out = ok(st, "return", "c", card=legal(st, "c")[0]["card"])
    assert out.to_act == ["b"]


def test_T_5_random_the_referee_draws_in_a_physical_deal_and_that_payer_leads():
    """D5 random with equal double tributes: a deal from hands takes the draw from the referee
    (`table.tribute_to_first`), never from the seed; the payer drawn pays the 1st player and
    leads (T-10)."""
    for drawn in ("b", "d"):
        for seed in ("r1", "r2", "r3"):
            st = deal({"b": ["SA"], "d": ["DA"]}, ["a", "c"], low=["b", "d"], seed=seed,
                      equal_tribute="random", table={"tribute_to_first": drawn})
            st = ok(ok(st, "tribute", "b", card="SA").state, "tribute", "d", card="DA").state
            assert next(t["payer"] for t in st["tributes"] if t["receiver"] == "a") == drawn
            st = ok(st, "return", "a", card=legal(st, "a")[0]["card"]).state
            assert ok(st, "return", "c", card=legal(st, "c")[0]["card"]).to_act == [drawn]
    with pytest.raises(InvalidDeal) as err:
        deal({"b": ["SA"], "d": ["DA"]}, ["a", "c"], low=["b", "d"], equal_tribute="random")
    assert err.value.path == "table.tribute_to_first"


def test_T_5_random_a_dealt_deal_draws_from_its_seed():
    seen = set()
    m = match_json(levels={"team1": LEVEL}, order=["a", "c"], declarer="team1")
    m.pop("tribute_payers")
    for k in range(40):
        st = adjudicate.deal("guandan", PLAYERS, {"equal_tribute": "random"}, seed=f"r{k}",
                             match=m)["state"]
        if st["phase"] != "tribute":
            continue
        for t in st["tributes"]:
            card = legal(st, t["payer"])[0]["card"]
            st = ok(st, "tribute", t["payer"], card=card).state
        if st["phase"] == "return" and len({card_value(t["card"], LEVEL)
                                            for t in st["tributes"]}) == 1:
            seen.add(next(t["payer"] for t in st["tributes"] if t["receiver"] == "a"))
    assert seen == {"b", "d"}


def test_T_6_anti_tribute_single_payer_with_both_big_jokers():
    st = deal({"d": ["RJ", "RJ"]}, ["a", "b", "c", "d"], low=["d"])
    assert st["phase"] == "play" and st["anti_tribute"] and st["turn"] == "a"
    assert st["tributes"] == []
    assert refused(st, "tribute", "d", card="RJ").code == "no_tribute_due"


def test_T_6_anti_tribute_double_big_jokers_split_between_the_payers():
    st = deal({"b": ["RJ"], "d": ["RJ"]}, ["a", "c"], low=["b", "d"])
    assert st["anti_tribute"] and st["turn"] == "a"
    st = deal({"b": ["RJ"], "a": ["RJ"]}, ["a", "c"], low=["b", "d"])
    assert not st["anti_tribute"] and st["phase"] == "tribute"


def test_T_6_D14_optional_a_payer_claims_it():
    st = deal({"d": ["RJ", "RJ"]}, ["a", "b", "c", "d"], low=["d"], anti_tribute="optional")
    assert st["phase"] == "tribute"
    assert {"type": "anti_tribute", "player": "d"} in legal(st, "d")
    assert refused(st, "anti_tribute", "a").code == "anti_tribute_not_available"
    out = ok(st, "anti_tribute", "d")
    assert out.state["phase"] == "play" and out.to_act == ["a"] and out.state["anti_tribute"]
    st = deal({"d": ["RJ", "RJ"]}, ["a", "b", "c", "d"], low=["d"])
    assert refused(st, "anti_tribute", "d").code == "anti_tribute_not_available"


def test_T_6_D14_optional_a_payers_claim_is_listed_whatever_the_partner_holds():
    # A double tribute (a and c finished 1-2; b and d pay). b holds no big joker; whether d
    # holds both is hidden from b, so b's listing and b's claim may not depend on it: the claim
    # is listed either way, and a claim that fails is made in the open, not refused.
    with_jokers = deal({"d": ["RJ", "RJ"]}, ["a", "c"], low=["b", "d"],
                       anti_tribute="optional")
    without = deal({"a": ["RJ", "RJ"]}, ["a", "c"], low=["b", "d"], anti_tribute="optional")
    claim = {"type": "anti_tribute", "player": "b"}
    assert with_jokers["phase"] == without["phase"] == "tribute"
    assert claim in legal(with_jokers, "b") and claim in legal(without, "b")
    granted = ok(with_jokers, "anti_tribute", "b")
    assert granted.state["anti_tribute"] and granted.state["phase"] == "play"
    failed = ok(without, "anti_tribute", "b")
    assert [e["type"] for e in failed.events] == ["anti_tribute_failed"]
    assert failed.state["phase"] == "tribute" and not failed.state["anti_tribute"]
    assert failed.state["hands"] == without["hands"] and failed.to_act == ["b", "d"]
    # the failure is public: no second claim, by either payer; the tribute goes on
    st = failed.state
    assert claim not in legal(st, "b") and refused(st, "anti_tribute", "d").code == \
        "anti_tribute_not_available"
    for payer in ("b", "d"):
        st = ok(st, "tribute", payer, card=legal(st, payer)[0]["card"]).state
    assert st["phase"] in ("return", "choose")


def test_T_6_D14_optional_a_partner_who_paid_no_big_joker_holds_none():
    # T-4: a payer holding a big joker pays it; d paid something else, so b (no big joker)
    # knows the side cannot hold both, and the claim is neither listed nor heard.
    st = deal({"a": ["RJ", "RJ"]}, ["a", "c"], low=["b", "d"], anti_tribute="optional")
    st = ok(st, "tribute", "d", card=legal(st, "d")[0]["card"]).state
    assert {"type": "anti_tribute", "player": "b"} not in legal(st, "b")
    assert refused(st, "anti_tribute", "b").code == "anti_tribute_not_available"
