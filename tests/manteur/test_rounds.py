"""The round machine, rule by rule (B3, B8, B13-B18, options B-d B-e B-g B-h)."""
import pytest

from engine import adjudicate
from engine.errors import InvalidAction
from engine.games.manteur import GAME

from .helpers import act, deal, declare, ok, refused

HAND = ["S2", "H2", "CK", "D7", "S9"]  # a pair of 2s


def test_b3_only_the_starter_is_dealt_five_cards():
    s = deal(HAND, starter="B")
    assert s["holder"] == s["starter"] == "B" and s["hand"] == HAND
    assert len(s["stock"]) == 49 and s["discard"] == [] and s["phase"] == "declare"
    assert GAME.to_act(GAME.decode(s)) == ["B"]
    seeded = adjudicate.deal("manteur", ["A", "B"], seed="x")["state"]
    assert len(seeded["hand"]) == 5 and seeded["starter"] == "A"


def test_b3_an_explicit_deck_must_be_the_deck_in_use():
    with pytest.raises(Exception) as info:
        adjudicate.deal("manteur", ["A", "B"], seed="x", deck=["S2"] * 54)
    assert info.value.path == "deck"


def test_b13_next_player_accepts_or_challenges_and_turns_are_checked_first():
    s = declare(deal(HAND), "A", "pair", ["2"])
    assert s["phase"] == "respond" and GAME.to_act(GAME.decode(s)) == ["B"]
    assert refused(s, "accept", "C").code == "not_your_turn"
    assert refused(s, "challenge", "A").code == "not_your_turn"
    assert refused(s, "exchange", "A", cards=["S2"]).code == "not_your_turn"
    assert refused(s, "declare", "B", declaration={"type": "flush"}).code == "respond_first"
    assert refused(s, "exchange", "B", cards=[]).code == "respond_first"
    s0 = deal(HAND)
    assert refused(s0, "accept", "A").code == "nothing_to_respond"
    assert refused(s0, "challenge", "A").code == "nothing_to_respond"
    assert refused(s0, "declare", "B", declaration={"type": "pair"}).code == "not_your_turn"


def test_b8_each_declaration_higher_than_the_last():
    s = declare(deal(HAND), "A", "pair", ["J"])
    s = ok(s, "accept", "B").state
    for decl, code in [({"type": "pair", "ranks": ["J"]}, "declaration_same"),
                       ({"type": "high_card", "ranks": ["A"]}, "declaration_type_lower"),
                       ({"type": "pair", "ranks": ["10"]}, "declaration_ranks_lower"),
                       ({"type": "pair"}, "declaration_ranks_lower")]:
        r = refused(s, "declare", "B", declaration=decl)
        assert r.code == code and r.rule.startswith("manteur B") and r.ja
    declare(s, "B", "pair", ["J"], ["2"])  # B7: a kicker is higher
    declare(s, "B", "pair", ["Q"])


def test_b10_a_malformed_declaration_is_a_422_naming_the_field():
    s = deal(HAND)
    with pytest.raises(InvalidAction) as info:
        act(s, "declare", "A", declaration={"type": "pair", "ranks": ["1"]})
    assert (info.value.code, info.value.path) == ("rank_unknown", "action.declaration.ranks[0]")
    with pytest.raises(InvalidAction) as info:
        act(s, "declare", "A", declaration="pair")
    assert info.value.path == "action.declaration"
    with pytest.raises(InvalidAction) as info:
        act(s, "declare", "A", declaration={"type": "pair", "ranks": ["2"], "kickers": ["2"]})
    assert info.value.code == "kicker_matches_rank"


@pytest.mark.parametrize("options, decl, code, rule", [
    ({"allow_straights": False}, {"type": "straight"}, "straights_not_allowed", "B-b"),
    ({"allow_flushes": False}, {"type": "straight_flush"}, "flushes_not_allowed", "B-b"),
    ({"min_declaration": "one_pair"}, {"type": "high_card"}, "type_below_minimum", "B-c"),
    ({"jokers": 0}, {"type": "five_of_a_kind"}, "five_of_a_kind_needs_jokers", "B5"),
    ({"deck": "piquet32"}, {"type": "pair", "ranks": ["2"]}, "rank_not_in_deck", "B-a"),
    ({"ace_low_straight": False}, {"type": "straight", "ranks": ["5"]},
     "ace_low_straight_not_allowed", "B-f"),
])
def test_b_options_a_declaration_this_game_does_not_allow_is_refused(options, decl, code, rule):
    hand = ["S7", "H7", "CK", "D8", "S9"]
    r = refused(deal(hand, **options), "declare", "A", declaration=decl)
    assert (r.code, r.rule) == (code, f"manteur {rule}")
    assert GAME.refusals[code] == f"manteur {rule}"


def test_b15_accept_takes_the_hand_then_exchange_then_declare_higher():
    s = declare(deal(HAND), "A", "pair", ["2"])
    stock = s["stock"]
    s = ok(s, "accept", "B").state
    assert s["holder"] == "B" and s["phase"] == "exchange" and s["hand"] == HAND
    out = ok(s, "exchange", "B", cards=["CK", "D7"])
    t = out.state
    assert t["hand"] == ["S2", "H2", "S9"] + stock[:2] and t["stock"] == stock[2:]
    assert t["discard"] == ["CK", "D7"] and t["exchanged"] == 2 and t["phase"] == "declare"
    assert [e["type"] for e in out.events] == ["exchanged"] and out.events[0]["count"] == 2
    assert refused(t, "exchange", "B", cards=[]).code == "already_exchanged"
    t = declare(t, "B", "pair", ["2"], ["9"])
    assert t["calls"][-1]["exchanged"] == 2 and GAME.to_act(GAME.decode(t)) == ["C"]


def test_b15_zero_to_four_cards_from_the_hand():
    s = ok(declare(deal(HAND), "A", "pair", ["2"]), "accept", "B").state
    t = ok(s, "exchange", "B", cards=[]).state
    assert t["hand"] == HAND and t["exchanged"] == 0
    assert refused(s, "exchange", "B", cards=HAND).code == "exchange_too_many"
    assert refused(s, "exchange", "B", cards=["S2", "S2"]).code == "cards_duplicate"
    assert refused(s, "exchange", "B", cards=["SA"]).code == "card_not_in_hand"
    # declaring straight away exchanges no cards
    t = declare(s, "B", "three_of_a_kind")
    assert t["calls"][-1]["exchanged"] == 0


def test_b_d_opener_may_exchange():
    s = deal(HAND)
    assert refused(s, "exchange", "A", cards=[]).code == "opener_may_not_exchange"
    s = deal(HAND, opener_may_exchange=True)
    assert s["phase"] == "exchange"
    t = ok(s, "exchange", "A", cards=["CK"]).state
    assert t["calls"] == [] and t["exchanged"] == 1
    assert declare(t, "A", "pair")["calls"][0]["exchanged"] == 1


def test_b18_stock_runs_out_discards_reshuffled_not_the_hand_nor_the_cards_given_back():
    s = ok(declare(deal(HAND), "A", "pair", ["2"]), "accept", "B").state
    old = s["stock"][1:]
    s = {**s, "stock": s["stock"][:1], "discard": old}
    GAME.decode(s)
    out = ok(s, "exchange", "B", cards=["CK", "D7", "S9"])
    t = out.state
    assert [e["type"] for e in out.events] == ["reshuffled", "exchanged"]
    assert t["reshuffles"] == 1 and t["discard"] == ["CK", "D7", "S9"]
    assert len(t["stock"]) == len(old) - 2 and set(t["stock"]) < set(old)
    assert len(set(t["hand"] + t["stock"] + t["discard"])) == 54


def test_b14_challenge_of_a_true_declaration_costs_the_challenger():
    s = declare(deal(HAND), "A", "pair", ["2"])
    out = ok(s, "challenge", "B")
    assert [d["target"] for d in out.score_deltas] == ["B"]
    assert out.score_deltas[0]["kind"] == "penalty" and out.score_deltas[0]["delta"] == 1
    t = out.state
    r = t["last_round"]
    assert r["truthful"] and r["loser"] == "B" and r["hand"] == HAND
    assert r["proof"] == {"cards": ["S2", "H2"], "jokers": {}}
    assert t["match"]["penalties"] == {"A": 0, "B": 1, "C": 0}
    # B16 / B-e: a new round, all 54 cards shuffled, dealt to the loser
    assert t["round"] == 2 and t["starter"] == t["holder"] == "B" and t["calls"] == []
    assert len(t["hand"]) == 5 and len(t["stock"]) == 49 and t["discard"] == []
    assert [e["type"] for e in out.events] == ["challenged", "round_started"]


def test_b14_challenge_of_a_lie_costs_the_declarer_b11_named_rank_must_be_there():
    s = declare(deal(["SK", "HK", "C3", "D7", "S9"]), "A", "pair", ["2"])
    out = ok(s, "challenge", "B")
    r = out.state["last_round"]
    assert not r["truthful"] and r["proof"] is None and r["loser"] == "A"
    assert out.state["starter"] == "A"


def test_b11_jokers_wild_in_a_challenge():
    s = declare(deal(["SK", "BJ", "C3", "D7", "RJ"]), "A", "three_of_a_kind", ["K"])
    r = ok(s, "challenge", "B").state["last_round"]
    assert r["truthful"] and set(r["proof"]["jokers"]) == {"BJ", "RJ"}


def test_b_e_next_player_starts_the_next_round():
    s = declare(deal(HAND, next_round_starter="next_player", starter="B"), "B", "flush")
    t = ok(s, "challenge", "C").state  # a lie: B loses, C started nothing
    assert t["last_round"]["loser"] == "B" and t["starter"] == "C"


def test_b_h_counter_clockwise():
    s = declare(deal(HAND, direction="ccw"), "A", "pair")
    assert GAME.to_act(GAME.decode(s)) == ["C"]
    assert refused(s, "accept", "B").code == "not_your_turn"


def test_b17_the_game_ends_at_the_penalty_limit():
    s = declare(deal(HAND, penalty_limit=1), "A", "flush")
    out = ok(s, "challenge", "B")
    t = out.state
    assert t["status"] == "finished" and t["result"] == {"loser": "A", "winner": None}
    assert out.to_act == [] and out.events[-1]["type"] == "match_finished"
    assert refused(t, "declare", "A", declaration={"type": "pair"}).code == "game_finished"


def test_b_g_elimination_mode_the_last_player_in_wins():
    s = declare(deal(HAND, penalty_limit=1, mode="elimination"), "A", "flush")
    t = ok(s, "challenge", "B").state
    assert t["status"] == "in_progress" and t["eliminated"] == ["A"] and t["starter"] == "B"
    t = declare(t, "B", "five_of_a_kind", ["A"])
    assert GAME.to_act(GAME.decode(t)) == ["C"]  # A is skipped
    out = ok(t, "challenge", "C")
    assert out.state["result"] == {"loser": "B", "winner": "C"}
    assert out.state["eliminated"] == ["A", "B"]


def test_b8_the_highest_declaration_cannot_be_accepted():
    s = declare(deal(HAND), "A", "five_of_a_kind", ["A"])
    assert refused(s, "accept", "B").code == "nothing_higher"
    assert [a["type"] for a in adjudicate.legal_actions(s, "B")] == ["challenge"]


def test_match_penalties_carried_into_a_deal():
    s = adjudicate.deal("manteur", ["A", "B"], seed="x", match={"penalties": {"B": 4}})["state"]
    assert s["match"]["penalties"] == {"A": 0, "B": 4}
    with pytest.raises(Exception) as info:
        adjudicate.deal("manteur", ["A", "B"], seed="x", match={"penalties": {"B": 5}})
    assert info.value.path == "match.penalties.B"


@pytest.mark.parametrize("change, path", [
    ({"hand": ["S2", "H2", "CK", "D7"], "discard": ["S9"]}, "state.hand"),
    ({"hand": ["S2", "H2", "CK", "D7"]}, "state.stock"),
    ({"holder": "Z"}, "state.holder"),
    ({"exchanged": 5}, "state.exchanged"),
    ({"phase": "exchange", "exchanged": 0}, "state.exchanged"),
    ({"phase": "respond"}, "state.calls"),
    ({"eliminated": ["A"]}, "state.eliminated"),
    ({"match": {"penalties": {"A": 0, "B": 0}, "rounds": 0}}, "state.match.penalties"),
    ({"calls": [{"player": "C", "exchanged": 0, "declaration": {
        "type": "pair", "ranks": ["2", "3"], "kickers": []}}]}, "state.calls[0].declaration.ranks[1]"),
])
def test_invariants_name_the_inconsistent_field(change, path):
    from engine.errors import InvalidState
    with pytest.raises(InvalidState) as info:
        GAME.decode({**deal(HAND), **change})
    assert info.value.path == path
