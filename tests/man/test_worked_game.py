"""The seed's fully worked 4-player game (man.ja.txt, 実際にやってみるとこんな感じ), move by move."""
from __future__ import annotations

from engine import adjudicate
from engine.games.man import GAME

from .helpers import arranged_deck

# Hands as the post deals them (suits the post leaves open chosen to fit every remark).
HANDS = [["S6", "S8", "SK"],   # A: three spades, total 27
         ["S4", "H5", "D6"],   # B: 15, no reach
         ["H8", "HA", "D2"],   # C: 11, calls reach at the deal
         ["D8", "H7", "D5"]]   # D: 20
# The dealer turns J, A, 2 (effect cards, no effect) and then the spade 10 (2.3); after that
# the stock gives B the club Q, C the heart 4, D the spade 9, A a 3, B a 3, C the club 3.
THEN = ["HJ", "CA", "C2", "S10", "CQ", "H4", "S9", "D3", "H3", "C3"]
DECK = arranged_deck(HANDS, THEN)

MOVES = [
    ({"type": "play", "player": "B", "cards": ["S4"]}, "リーチ"),
    ({"type": "pass", "player": "C"}, "パス続行"),
    ({"type": "pass", "player": "D"}, "パス"),
    ({"type": "play", "player": "A", "cards": ["SK"]}, "はい"),
    ({"type": "draw", "player": "B"}, None),
    ({"type": "end_turn", "player": "B"}, "リーチ解除"),
    ({"type": "draw", "player": "C"}, None),
    ({"type": "end_turn", "player": "C"}, "リーチ解除"),
    ({"type": "draw", "player": "D"}, None),
    ({"type": "play", "player": "D", "cards": ["S9"]}, "はい"),
    ({"type": "play", "player": "A", "cards": ["S8"], "suit": "H"}, "ハート、単騎リーチ"),
    ({"type": "play", "player": "B", "cards": ["H5"]}, "はい"),
    ({"type": "play", "player": "C", "cards": ["H8"], "suit": "S"}, "スペード、リーチ"),
    ({"type": "play", "player": "D", "cards": ["D8"], "suit": "C"}, "クラブ、リーチ"),
    ({"type": "draw", "player": "A"}, None),
    ({"type": "end_turn", "player": "A"}, "リーチ続行"),
    ({"type": "draw", "player": "B"}, None),
    ({"type": "play", "player": "B", "cards": ["CQ"]}, "リーチ"),
    ({"type": "draw", "player": "C"}, None),
    ({"type": "play", "player": "C", "cards": ["C3"]}, "リーチ続行"),
    ({"type": "man", "player": "B"}, None),
    ({"type": "man", "player": "A"}, None),
    # 5.4: 「残りのプレイヤー2人がさらに返しまんを続けてくれることに望みをかけますが、プレイヤーC・D
    # は3に対してまんすることができないので」: C, whose 3 it is, and D could go on; neither makes 3.
    ({"type": "decline", "player": "C"}, None),
    ({"type": "decline", "player": "D"}, None),
]
CODES = {"リーチ": "reach", "パス続行": "pass_continue", "パス": "pass", "はい": "hai",
         "リーチ解除": "reach_cancel", "ハート、単騎リーチ": "tanki_reach",
         "スペード、リーチ": "reach", "クラブ、リーチ": "reach", "リーチ続行": "reach_continue"}


def _deal(**options):
    return adjudicate.deal("man", ["A", "B", "C", "D"], options=options, seed="worked",
                           dealer="A", deck=DECK)


def test_worked_game_deal_settles_start_card_and_opening_race():
    dealt = _deal()
    st = dealt["state"]
    assert st["start_cards"] == ["HJ", "CA", "C2", "S10"]
    assert st["discard"][-1] == "S10"
    assert st["reach"] == {"A": False, "B": False, "C": True, "D": False}  # 2.2: only C
    assert dealt["to_act"] == ["A", "B"]  # 2.4: A (spades) and B (S4) can match S10


def test_rule_5_6_worked_game_move_by_move():
    state = _deal()["state"]
    totals = {}
    for index, (action, spoken) in enumerate(MOVES):
        res = adjudicate.validate(state, action)
        assert res.valid, (index, action, res.refusal.code, res.refusal.en)
        calls = [e for e in res.events if e["type"] == "called"]
        if spoken is None:
            assert calls == [] or action["type"] != "draw"
        else:
            assert [c["text"]["ja"] for c in calls] == [spoken], (index, action)
        for d in res.score_deltas:
            totals[d["target"]] = totals.get(d["target"], 0) + d["delta"]
        state = res.state
        if index == 19:  # C's club 3: a draw of 3 now waits for D; B and A can make 3 (6 − 3)
            assert state["pending_draw"] == 3
            assert res.to_act == ["D", "A", "B"]
        if index == 20:
            assert [e["type"] for e in res.events] == ["man_called"]
            assert res.to_act == ["A", "C", "D"]  # C too: a counter-man is a man on B's man
        if index == 21:
            kaeshi = res.events[0]
            assert kaeshi["type"] == "kaeshi_called" and kaeshi["multiplier"] == 2
            assert res.to_act == ["C", "D"]  # 「残りのプレイヤー2人」: B already called
            # C's hand (A, 2, 4) cannot make 3: refused for the number, not for whose card
            assert adjudicate.validate(state, {"type": "man", "player": "C"}).refusal.code == \
                "man_number_not_made"
    assert res.status == "finished"
    assert totals == {"A": 2, "B": -2}
    assert state["match"]["totals"] == {"A": 2, "B": -2, "C": 0, "D": 0}
    assert state["result"]["winner"] == "A" and state["result"]["loser"] == "B"
    assert state["result"]["stake"] == 2
    assert state["next_dealer"] == "A"  # 7.1: the winner deals next
    assert sum(d["delta"] for d in res.score_deltas) == 0


def test_worked_game_replay_gives_identical_final_state():
    state = _deal()["state"]
    for action, _ in MOVES:
        state = adjudicate.validate(state, action).state
    out = adjudicate.replay({"game_id": "man", "players": ["A", "B", "C", "D"],
                             "seed": "worked", "dealer": "A", "deck": DECK,
                             "seed_salt": state["seed_salt"]},
                            [a for a, _ in MOVES])
    assert out["stopped"] is None
    assert out["state"] == state
    assert out["totals"] == {"A": 2, "B": -2}
    assert GAME.encode(GAME.decode(out["state"])) == out["state"]


# Referee mode (start_card=by_dealer, calls=declared): C calls リーチ at the deal, then the
# dealer A turns J, A, 2 one by one until the spade 10 settles (2.2, 2.3).
REFEREE_OPENING = [{"type": "call", "player": "C", "call": "reach"},
                   {"type": "flip", "player": "A"}, {"type": "flip", "player": "A"}]


def _referee_deal():
    dealt = _deal(preset="referee")
    state = dealt["state"]
    assert state["discard"] == ["HJ"] and dealt["to_act"] == ["A", "C"]
    for action in REFEREE_OPENING:
        res = adjudicate.validate(state, action)
        assert res.valid, (action, res.refusal.code)
        state = res.state
    flip = adjudicate.validate(state, {"type": "flip", "player": "A"})
    assert flip.events == [{"type": "start_cards_turned", "game": "man", "player": "A", "cards": ["S10"],
                            "text": {"en": "A turns over ♠10", "ja": "Aが♠10 をめくる"}}]
    assert flip.state["start_cards"] == ["HJ", "CA", "C2", "S10"] and flip.to_act == ["A", "B"]
    return flip.state


def test_worked_game_with_declared_calls_in_referee_mode():
    state = _referee_deal()
    for action, spoken in MOVES:
        if spoken is not None:
            action = {**action, "call": CODES[spoken]}
        res = adjudicate.validate(state, action)
        assert res.valid and not any(e["type"] == "penalized" for e in res.events), action
        state = res.state
    assert state["match"]["totals"] == {"A": 2, "B": -2, "C": 0, "D": 0}


def test_worked_game_wrong_call_is_chombo_in_referee_mode():
    state = _referee_deal()
    # B's opening play leaves 11: "reach", not "hai" (6.2) → chombo, B −3, others +1.
    res = adjudicate.validate(state, {"type": "play", "player": "B", "cards": ["S4"],
                                      "call": "hai"})
    assert res.valid and res.status == "finished"
    assert {d["target"]: d["delta"] for d in res.score_deltas} == {"B": -3, "A": 1, "C": 1,
                                                                   "D": 1}
    assert res.state["result"]["code"] == "call_wrong"
    assert res.state["next_dealer"] == "A"  # 7.1: same dealer after a chombo
