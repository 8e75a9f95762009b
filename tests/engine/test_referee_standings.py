"""The referee's penalties count in each game's own match standing (Game.count_penalty): Man's
totals (7.4), Manillen's scores (A41), Guandan's levels (S-9), Daifugo's points (D28) and
Manteur's penalty points and their limit (B22); a withdrawal gives them back. And deals from an
explicit deck take what the rules decide at random from `table`, so they replay without a seed.

The property tests play whole matches of random deck deals with random warnings, penalties and
withdrawals: each deal's standing after is its standing before plus every score delta of the
deal, the game's own and the ledger's alike, and the referee's log replays twice the same."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from engine import adjudicate, registry
from engine.cards import deck_32, deck_52, double_deck_108
from engine.errors import InvalidDeal
from engine.games.guandan.state import LEVELS
from tests.engine.test_referee_ledger import ledger_act
from tests.sizing import examples

GAMES = ("man", "manillen", "guandan", "daifugo", "manteur")


def act(state: dict, action: dict):
    out = adjudicate.validate(state, action)
    assert out.valid, getattr(out, "refusal", None) and out.refusal.to_json()
    return out


def penalty(state: dict, player: str, points: int, reason: str = "slow play"):
    return act(state, {"type": "penalty", "player": player, "points": points,
                       "reason": reason})


def withdraw(state: dict, player: str, entry: int):
    return act(state, {"type": "withdraw", "player": player, "entry": entry})


def finish(state: dict, rnd: random.Random) -> tuple[object, Counter]:
    """Random legal moves to the end of the deal: the last answer, every delta summed."""
    deltas: Counter = Counter()
    out = None
    to_act = adjudicate.game_by_id(state["game"]).to_act(
        adjudicate.load_state(state)[1])
    for _ in range(4000):
        if not to_act:
            break
        legal = [a for p in to_act for a in adjudicate.legal_actions(state, p)]
        moving = [a for a in legal if a["type"] not in ("draw", "pass", "end_turn")]
        out = act(state, rnd.choice(moving if moving and rnd.random() < 0.8 else legal))
        for d in out.score_deltas:
            deltas[d["target"]] += d["delta"]
        state, to_act = out.state, out.to_act
        if out.status == "finished":
            break
    assert out is not None and out.status == "finished"
    return out, deltas


# ------------------------------------------------------------------ one rule per game

def test_rule_7_4_man_a_penalty_counts_in_the_match_totals_and_decides_the_winner():
    players = ["ann", "bob"]
    dealt = adjudicate.deal("man", players, {"match_games": 2}, seed="standing")
    given = penalty(dealt["state"], "ann", 1000, "insulted the table")
    assert given.state["match"]["totals"] == {"ann": -1000, "bob": 0}
    assert given.score_deltas == [{"target": "ann", "kind": "points", "delta": -1000,
                                   "reason": "penalty: insulted the table", "game": "man",
                                   "text": {"en": "Referee's penalty: insulted the table",
                                            "ja": "審判の罰則: insulted the table"}}]
    last, deltas = finish(given.state, random.Random(1))
    summary = last.next_match
    # the match totals are the game's deltas and the ledger's
    assert summary["totals"] == {p: deltas[p] + (-1000 if p == "ann" else 0) for p in players}
    assert summary["referee_ledger"]["totals"] == {"ann": 1000, "bob": 0}
    assert not summary["over"]
    # the next deal carries the totals, penalty included; a withdrawal there gives it back
    second = adjudicate.deal("man", players, {"match_games": 2}, seed="standing-2",
                             match=json.loads(json.dumps(summary)))
    assert second["state"]["match"]["totals"] == summary["totals"]
    back = withdraw(second["state"], "ann", 1)
    assert back.state["match"]["totals"]["ann"] == summary["totals"]["ann"] + 1000
    assert [d["text"] for d in back.score_deltas] == [{"en": "Penalty 1 withdrawn",
                                                       "ja": "罰則1の取り消し"}]
    again = penalty(back.state, "ann", 500)
    last2, deltas2 = finish(again.state, random.Random(2))
    totals = last2.next_match["totals"]
    assert totals == {p: summary["totals"][p] + deltas2[p] + (500 if p == "ann" else 0)
                      for p in players}
    # 7.2: two games played, the match ends; the penalty of 500 decides it
    assert last2.next_match["over"] and last2.next_match["winner"] == "bob"
    assert sum(totals.values()) == -500, "a penalty is paid to nobody (7.4)"


def test_rule_A41_manillen_a_penalty_counts_in_the_team_score_even_below_zero():
    players = ["p0", "p1", "p2", "p3"]
    options = {"booms_to_win": 3}
    dealt = adjudicate.deal("manillen", players, options, seed="standing")
    given = penalty(dealt["state"], "p2", 7, "revoke")
    assert given.state["match"]["scores"] == {"team_0_2": -7, "team_1_3": 0}
    assert [(d["target"], d["delta"]) for d in given.score_deltas] == [("team_0_2", -7)]
    last, deltas = finish(given.state, random.Random(3))
    result = last.state["result"]
    assert result["scores"] == {h: deltas[h] - (7 if h == "team_0_2" else 0)
                                for h in ("team_0_2", "team_1_3")}
    summary = last.next_match
    if result["boom"] is None:
        assert summary["scores"] == result["scores"]
    second = adjudicate.deal("manillen", players, options, seed="standing-2",
                             match=json.loads(json.dumps(summary)))
    back = withdraw(second["state"], "p2", 1)
    assert back.state["match"]["scores"]["team_0_2"] == summary["scores"]["team_0_2"] + 7
    assert [(d["target"], d["delta"]) for d in back.score_deltas] == [("team_0_2", 7)]


def test_rule_S_9_guandan_a_level_penalty_lowers_the_team_when_the_deal_ends_never_below_2():
    players = ["p0", "p1", "p2", "p3"]
    dealt = adjudicate.deal("guandan", players, seed="standing")
    given = penalty(dealt["state"], "p0", 3, "out of turn")
    # the deal's level rank stays (L-2); the team's level moves when the deal ends
    assert given.state["level"] == "2" and given.state["ledger_levels"] == {"team1": -3}
    assert [(d["target"], d["kind"], d["delta"]) for d in given.score_deltas] == \
        [("team1", "level", -3)]
    last, deltas = finish(given.state, random.Random(4))
    levels = last.state["result"]["levels"]
    # team1: its own result, then −3, never below 2; every delta together says the level
    assert LEVELS.index(levels["team1"]) == deltas["team1"] - 3
    assert LEVELS.index(levels["team2"]) == deltas["team2"]
    if last.state["result"]["winner"] == "team2":
        assert levels["team1"] == "2"  # 2 − 3 stops at 2 (S-9)
        bound = [d for d in last.score_deltas if d["reason"].startswith("S-9")]
        assert [(d["target"], d["delta"]) for d in bound] == [("team1", 3)]
    # a withdrawal in the next deal gives the points back at that deal's end, never past A
    second = adjudicate.deal("guandan", players, seed="standing-2",
                             match=json.loads(json.dumps(last.next_match)))
    back = withdraw(second["state"], "p0", 1)
    assert back.state["ledger_levels"] == {"team1": 3}
    start = {t: LEVELS.index(v) for t, v in last.next_match["levels"].items()}
    last2, deltas2 = finish(back.state, random.Random(5))
    after = {t: LEVELS.index(v) for t, v in last2.state["result"]["levels"].items()}
    assert after == {t: start[t] + deltas2[t] + (3 if t == "team1" else 0) for t in start}
    assert after["team1"] <= len(LEVELS) - 1


def test_rule_S_9_guandan_a_bound_answers_the_delta_the_penalty_overstated():
    players = ["p0", "p1", "p2", "p3"]
    dealt = adjudicate.deal("guandan", players, seed="bound")
    given = penalty(dealt["state"], "p2", 20)
    last, deltas = finish(given.state, random.Random(8))
    assert last.state["result"]["levels"]["team1"] == "2"
    bound = [d for d in last.score_deltas if d["reason"].startswith("S-9")]
    assert len(bound) == 1 and bound[0]["target"] == "team1"
    assert deltas["team1"] - 20 == 0, "the team's deltas sum to its level change"
    # a withdrawal in a later deal gives back all 20 levels, never past A (not owed: S-9)
    second = adjudicate.deal("guandan", players, seed="bound-2",
                             match=json.loads(json.dumps(last.next_match)))
    back = withdraw(second["state"], "p2", 1)
    last2, deltas2 = finish(back.state, random.Random(9))
    assert last2.state["result"]["levels"]["team1"] == "A"
    assert deltas2["team1"] + 20 == len(LEVELS) - 1 - LEVELS.index(
        last.next_match["levels"]["team1"])


def test_rule_S_9_guandan_a_team_penalized_during_the_deal_does_not_win_the_match_with_it():
    players = ["p0", "p1", "p2", "p3"]
    match = {"levels": {"team1": "A", "team2": "A"}, "declarer": "team1",
             "a_failures": {"team1": 0, "team2": 0}, "previous_order": ["p0", "p2"],
             "tribute_payers": ["p1", "p3"], "deal_number": 1}
    # both at A: whichever team wins 1-2 or 1-3 would win the match (S-3, D2 off)
    dealt = adjudicate.deal("guandan", players, {"a_win_requires_declarer": False},
                            seed="at-a", match=match)
    state = dealt["state"]
    for p in ("p0", "p1"):
        state = penalty(state, p, 1).state
    last, _ = finish(state, random.Random(7))
    assert last.state["result"]["match_winner"] is None
    assert not any(e["type"] == "match_finished" for e in last.events)
    assert last.next_match is not None


def test_rule_D28_daifugo_a_penalty_counts_in_the_running_points_not_the_titles():
    players = ["p0", "p1", "p2", "p3"]
    dealt = adjudicate.deal("daifugo", players, seed="standing")
    given = penalty(dealt["state"], "p1", 4, "foul")
    assert given.state["match"]["points"] == {"p0": 0, "p1": -4, "p2": 0, "p3": 0}
    last, deltas = finish(given.state, random.Random(6))
    result = last.state["result"]
    assert last.next_match["points"] == {p: result["points"][p] - (4 if p == "p1" else 0)
                                         for p in players}
    assert last.next_match["points"] == {p: deltas[p] - (4 if p == "p1" else 0)
                                         for p in players}
    assert len(set(result["titles"].values())) == 4  # titles by the finishing order alone
    second = adjudicate.deal("daifugo", players, seed="standing-2",
                             match=json.loads(json.dumps(last.next_match)))
    back = withdraw(second["state"], "p1", 1)
    assert back.state["match"]["points"]["p1"] == last.next_match["points"]["p1"] + 4


def test_rule_B22_manteur_a_penalty_reaching_the_limit_ends_the_game():
    players = ["ann", "bob", "cho"]
    dealt = adjudicate.deal("manteur", players, {"penalty_limit": 3}, seed="limit")
    one = penalty(dealt["state"], "bob", 2)
    assert one.state["match"]["penalties"] == {"ann": 0, "bob": 2, "cho": 0}
    assert one.to_act == dealt["to_act"] and one.status == "in_progress"
    back = withdraw(one.state, "bob", 1)
    assert back.state["match"]["penalties"]["bob"] == 0
    ended = penalty(back.state, "bob", 3, "marked cards")
    assert ended.status == "finished" and ended.to_act == []
    assert ended.state["result"] == {"loser": "bob", "winner": None}
    assert [e["type"] for e in ended.events] == ["penalty_given", "match_finished"]
    assert ended.events[-1]["winners"] == ["ann", "cho"]
    assert ended.score_deltas[0]["total"] == 3
    refused = adjudicate.validate(ended.state, {"type": "withdraw", "player": "bob",
                                                "entry": 2})
    assert not refused.valid and refused.refusal.code == "game_finished"


def test_rule_B22_manteur_elimination_voids_the_holders_round_and_a_withdrawal_brings_back():
    players = ["ann", "bob", "cho", "dai"]
    options = {"penalty_limit": 2, "mode": "elimination"}
    dealt = adjudicate.deal("manteur", players, options, seed="elim", dealer="ann")
    state = dealt["state"]
    assert state["holder"] == "ann" and state["round"] == 1
    out = penalty(state, "ann", 2)  # the holder is out: the round is void (B16)
    assert out.state["eliminated"] == ["ann"]
    assert out.state["round"] == 2 and out.state["starter"] == "bob"
    assert [e["type"] for e in out.events] == ["penalty_given", "eliminated", "round_started"]
    # a seat not holding the hand goes out; play goes on around it
    out2 = penalty(out.state, "dai", 5)
    assert out2.state["eliminated"] == ["ann", "dai"] and out2.state["round"] == 2
    assert out2.to_act == out.to_act
    # the withdrawal takes dai back below the limit: in again
    back = withdraw(out2.state, "dai", 2)
    assert back.state["eliminated"] == ["ann"]
    assert [e["type"] for e in back.events] == ["withdrawn", "reinstated"]
    # the last one left wins
    out3 = penalty(out2.state, "cho", 2)
    assert out3.status == "finished"
    assert out3.state["result"] == {"loser": "cho", "winner": "bob"}


# ------------------------------------------------------------------ deck deals and `table`

def deck_request(game_id: str, players: list[str], rnd: random.Random,
                 match: dict | None = None) -> dict:
    """A deal of the game from an explicit deck in a random order, with the `table` of what
    its rules decide at random, no seed."""
    game = registry.get(game_id)
    options = game.resolve_options({})
    cards = {"man": deck_52, "manillen": deck_32, "guandan": double_deck_108,
             "daifugo": lambda: deck_52() + ["BJ", "RJ"][:options["jokers"]],
             "manteur": lambda: deck_52() + ["BJ", "RJ"][:options["jokers"]]}[game_id]()
    if game_id == "manteur" and options["deck"] == "piquet32":
        cards = deck_32() + ["BJ", "RJ"][:options["jokers"]]
    rnd.shuffle(cards)
    request: dict = {"players": players, "deck": cards}
    if match is not None:
        request["match"] = match
    table: dict = {}
    if game_id == "guandan" and not (match or {}).get("previous_order"):
        k = rnd.randrange(108)  # G-4: the card turned up in the cut, its holder leads
        table = {"cut_card": cards[k], "leader": players[k % 4]}
    if game_id == "daifugo" and not (match or {}).get("finish_order"):
        table = {"leader": rnd.choice(players)}  # D4: random_then_daihinmin, the first deal
    if table:
        request["table"] = table
    return request


@pytest.mark.parametrize("game_id", GAMES)
def test_a_deck_deal_with_its_table_replays_twice_to_the_same_result_without_a_seed(game_id):
    game = registry.get(game_id)
    rnd = random.Random(f"deck-{game_id}")
    players = [f"p{i}" for i in range(4)]
    request = deck_request(game_id, players, rnd)
    dealt = adjudicate.deal(game_id, **request)
    log: list[dict] = []
    state = dealt["state"]
    for _ in range(4000):
        if game.status(game.decode(state)) == "finished":
            break
        to_act = game.to_act(game.decode(state))
        legal = [a for p in to_act for a in adjudicate.legal_actions(state, p)]
        action = rnd.choice(legal) if rnd.random() > 0.05 else \
            {"type": "penalty", "player": rnd.choice(players), "points": 1}
        state = act(state, action).state
        log.append(action)
    first = adjudicate.replay({"game_id": game_id, **request}, log)
    second = adjudicate.replay({"game_id": game_id, **request}, log)
    assert first["stopped"] is None and first["status"] == "finished"
    for key in ("steps", "totals", "next_match"):
        assert first[key] == second[key], key
    same = {k: v for k, v in state.items() if k != "seed_salt"}
    assert {k: v for k, v in first["state"].items() if k != "seed_salt"} == same
    assert {k: v for k, v in second["state"].items() if k != "seed_salt"} == same


@pytest.mark.parametrize("game_id, path", [("guandan", "table.cut_card"),
                                           ("daifugo", "table.leader")])
def test_a_deck_deal_takes_the_random_first_lead_from_the_table(game_id, path):
    rnd = random.Random(path)
    request = deck_request(game_id, ["p0", "p1", "p2", "p3"], rnd)
    leader = request["table"].get("leader")
    dealt = adjudicate.deal(game_id, **request)
    if game_id == "daifugo":
        assert dealt["state"]["leader"] == dealt["state"]["turn"] == leader
    else:
        assert dealt["state"]["turn"] == leader
        assert dealt["state"]["cut_card"] == request["table"]["cut_card"]
    del request["table"]
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal(game_id, **request)
    assert err.value.path == path


def test_a_deck_deal_of_manillen_takes_only_the_cut_from_the_table():
    rnd = random.Random("manillen-cut")
    players = ["p0", "p1", "p2", "p3"]
    request = deck_request("manillen", players, rnd)
    cut = [{"player": "p0", "card": "S7"}, {"player": "p1", "card": "H10"},
           {"player": "p2", "card": "D8"}, {"player": "p3", "card": "C9"}]
    dealt = adjudicate.deal("manillen", options={"first_dealer": "cut"},
                            table={"cut": cut}, **request)
    assert dealt["state"]["dealer"] == "p1"  # 10 is the strongest card shown (A5)
    # without the cut the named dealer, else the first seat, deals: no cut from the seed
    plain = adjudicate.deal("manillen", options={"first_dealer": "cut"}, **request)["state"]
    assert plain["cut"] == [] and plain["dealer"] == request.get("dealer", "p0")
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal("manillen", players=players, deck=request["deck"],
                        table={"leftover": ["S7", "S8"]})
    assert err.value.path == "table.leftover"


def test_a_deck_deal_of_man_takes_no_table():
    request = deck_request("man", ["p0", "p1"], random.Random(0))
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal("man", table={"start_cards": ["S10"]}, **request)
    assert err.value.path == "table"


# ------------------------------------------------------------------ whole matches

def standing(game_id: str, state: dict, after: bool) -> dict[str, int]:
    """The game's own match standing by holder: before the deal (its start) or after it."""
    if game_id == "man":
        return dict(state["match"]["totals"])
    if game_id == "daifugo":
        return dict((state["next_match"] if after else state["match"])["points"])
    if game_id == "manillen":
        return dict((state["result"] if after else state["match"])["scores"])
    if game_id == "guandan":
        levels = (state["result"] if after else state["match"])["levels"]
        return {t: LEVELS.index(v) for t, v in levels.items()}
    return dict(state["match"]["penalties"])


def play_deal(game_id: str, request: dict, rnd: random.Random):
    """One deal of random moves and random ledger acts: (log, final answer, deltas by target,
    the standing it started from)."""
    game = registry.get(game_id)
    dealt = adjudicate.deal(game_id, **request)
    state, to_act, status = dealt["state"], dealt["to_act"], dealt["status"]
    before = standing(game_id, state, after=False)
    log: list[dict] = []
    deltas: Counter = Counter()
    last = None
    for _ in range(4000):
        if status == "finished":
            break
        if rnd.random() < 0.12:
            action = ledger_act(rnd, state)
            if action["type"] == "penalty" and game_id == "manteur":
                action["points"] = 1  # Manteur's limit is small: let the rounds play too
        else:
            legal = [a for p in to_act for a in adjudicate.legal_actions(state, p)]
            moving = [a for a in legal if a["type"] not in ("draw", "pass", "end_turn")]
            action = rnd.choice(moving if moving and rnd.random() < 0.8 else legal)
        out = adjudicate.validate(state, action)
        if not out.valid:
            assert out.refusal.code in ("ledger_entry_unknown", "ledger_entry_withdrawn")
            continue
        ledger = action["type"] in ("warning", "penalty", "withdraw")
        for d in out.score_deltas:
            assert d["kind"] == game.penalty_kind or not ledger
            deltas[d["target"]] += d["delta"]
        if game.zero_sum and not ledger:  # the game's own deltas; a penalty is paid to nobody
            assert sum(d["delta"] for d in out.score_deltas) == 0
        log.append(action)
        state, to_act, status, last = out.state, out.to_act, out.status, out
    assert status == "finished"
    return log, last, deltas, before


@settings(deadline=None, max_examples=examples(8))
@given(game_id=st.sampled_from(GAMES), choices=st.integers(0, 2**32))
def test_random_deck_matches_with_random_penalties_total_the_game_and_the_ledger(game_id,
                                                                                choices):
    rnd = random.Random(choices)
    players = [f"p{i}" for i in range(4)]
    match = None
    for _ in range(3):
        request = deck_request(game_id, players, rnd, match)
        log, last, deltas, before = play_deal(game_id, request, rnd)
        after = standing(game_id, last.state, after=True)
        # the standing after = before + every delta of the deal: the game's and the ledger's
        assert after == {h: before[h] + deltas[h] for h in before}, (before, deltas)
        ledger = last.state["referee_ledger"]
        standing_points = Counter()
        for e in ledger:
            if e["kind"] == "penalty" and not e["withdrawn"]:
                standing_points[e["player"]] += e["points"]
        if last.next_match is not None:
            assert last.next_match["referee_ledger"]["totals"] == \
                {p: standing_points[p] for p in players}
        for _ in range(2):  # the referee's log replays the same, without a seed
            again = adjudicate.replay({"game_id": game_id, **request}, log)
            assert again["stopped"] is None
            assert {k: v for k, v in again["state"].items() if k != "seed_salt"} == \
                {k: v for k, v in last.state.items() if k != "seed_salt"}
            assert Counter(again["totals"]) == deltas
            assert again["next_match"] == last.next_match
        match = last.next_match
        if match is None or any(e["type"] == "match_finished" for e in last.events) or \
                match.get("over"):
            return
        match = json.loads(json.dumps(match))
