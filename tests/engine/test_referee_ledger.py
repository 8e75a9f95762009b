"""The referee's ledger, the same in every game (engine/referee.py): warnings and penalties
recorded at any moment of a deal, withdrawn, counted in the score deltas and the match summary,
carried to the next deal, replayed to the same totals."""
from __future__ import annotations

import functools
import json
import random

import pytest

from engine import adjudicate, referee, registry
from engine.errors import InvalidDeal
from tests.conformance import helpers
from tests.sizing import examples

GAMES = helpers.GAME_IDS


def seats(game, rnd: random.Random) -> list[str]:
    """A random table the game is played at: between its least and most players, up to 5, a
    count it deals to (Manillen is not played by 5)."""
    counts = [n for n in range(game.min_players, min(game.max_players, 5) + 1)
              if _deals_to(game.id, n)]
    return [f"p{i}" for i in range(rnd.choice(counts))]


def _deals_to(game_id: str, count: int) -> bool:
    try:
        adjudicate.deal(game_id, [f"p{i}" for i in range(count)], None, "count")
    except InvalidDeal:
        return False
    return True


def ledger_act(rnd: random.Random, state: dict) -> dict:
    """A random warning, penalty or withdrawal (of an entry still standing, or now and then
    of one that is not, which is refused)."""
    players = state["players"]
    standing = [e for e in state["referee_ledger"] if not e["withdrawn"]]
    roll = rnd.random()
    if standing and roll < 0.3:
        e = rnd.choice(standing)
        return {"type": "withdraw", "player": e["player"], "entry": e["id"]}
    if roll < 0.35:
        return {"type": "withdraw", "player": rnd.choice(players),
                "entry": len(state["referee_ledger"]) + 1}
    if roll < 0.6:
        return {"type": "warning", "player": rnd.choice(players), "reason": "slow play"}
    return {"type": "penalty", "player": rnd.choice(players), "points": rnd.randint(1, 5),
            **({"reason": "exposed a card"} if rnd.random() < 0.5 else {})}


def holder_of(game_id: str, players, player: str) -> str:
    """Whose standing a seat's penalty moves (a seat, or its team: Guandan's S-9, Manillen's
    A41 with 4 or 6 players): what a penalty against the seat answers at the start of a deal
    of these players, which every later penalty of the match must answer too. It is the seat
    itself or one of the game's teams."""
    return _holders(game_id, tuple(players))[player]


@functools.cache
def _holders(game_id: str, players: tuple[str, ...]) -> dict[str, str]:
    state = adjudicate.deal(game_id, list(players), None, "holder")["state"]
    out = {}
    for p in players:
        answer = adjudicate.validate(state, {"type": "penalty", "player": p, "points": 1})
        (delta,) = answer.score_deltas
        assert delta["target"] in (p, *registry.get(game_id).team_ids), (p, delta)
        out[p] = delta["target"]
    return out


def per_seat(game_id: str, players, by_holder: dict[str, int]) -> dict[str, int]:
    """Seats' ledger totals summed by holder (the shape of the score deltas)."""
    out: dict[str, int] = {}
    for p, t in by_holder.items():
        h = holder_of(game_id, list(players), p)
        out[h] = out.get(h, 0) + t
    return {h: t for h, t in out.items() if t}


def play_out(game_id: str, rnd: random.Random, dealt: dict, log: list | None = None):
    """Random legal moves with ledger acts interleaved, to the end of the deal. Returns the
    last answer and the sum of the ledger's score deltas per holder of a standing (a seat, or
    its team: holder_of). Manteur's penalty points may reach the limit (B22): a penalty there
    may end the game or eliminate the seat (events beside the ledger's own), the only ledger
    acts that change whose turn it is."""
    game = registry.get(game_id)
    sign = referee.penalty_sign(game.referee.penalty_kind)
    state, to_act, status = dealt["state"], dealt["to_act"], dealt["status"]
    from_ledger: dict[str, int] = {}
    last = None
    for _ in range(4000):
        if status == "finished":
            break
        if rnd.random() < 0.15:
            action = ledger_act(rnd, state)
            out = adjudicate.validate(state, action)
            if not out.valid:
                assert out.refusal.code in ("ledger_entry_unknown", "ledger_entry_withdrawn")
                assert out.refusal.ja
                continue
            if len(out.events) == 1:
                # the ledger's entry alone (no limit reached, nobody eliminated: B22): it
                # never changes whose turn it is
                assert out.to_act == to_act, "a ledger entry never changes whose turn it is"
                assert out.status == status
            for d in out.score_deltas:
                assert d["kind"] == game.referee.penalty_kind
                assert d["target"] == holder_of(game_id, state["players"], action["player"])
                from_ledger[d["target"]] = from_ledger.get(d["target"], 0) + d["delta"]
            if action["type"] == "penalty":
                assert [d["delta"] for d in out.score_deltas] == [sign * action["points"]]
                # the ledger's event first, then what the game's standing made of it (B22)
                assert out.events[0]["type"] == "penalty_given"
            elif action["type"] == "warning":
                assert out.score_deltas == [] and [e["type"] for e in out.events] == ["warned"]
            else:
                assert out.events[0]["type"] == "withdrawn"
        else:
            legal = [a for p in to_act for a in adjudicate.legal_actions(state, p)]
            moving = [a for a in legal if a["type"] not in ("draw", "pass", "chombo", "end_turn")]
            action = rnd.choice(moving if moving and rnd.random() < 0.8 else legal)
            out = adjudicate.validate(state, action)
            assert out.valid, out
        if log is not None:
            log.append(action)
        state, to_act, status, last = out.state, out.to_act, out.status, out
    assert status == "finished", f"{game_id}: the deal did not end"
    return last, from_ledger


def standing_penalties(ledger: list[dict]) -> dict[str, int]:
    out: dict[str, int] = {}
    for e in ledger:
        if e["kind"] == "penalty" and not e["withdrawn"]:
            out[e["player"]] = out.get(e["player"], 0) + e["points"]
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_ledger_acts_interleaved_with_random_play_reach_the_end_of_a_match(game_id):
    game = registry.get(game_id)
    sign = referee.penalty_sign(game.referee.penalty_kind)
    for seed in range(examples(3)):
        rnd = random.Random(f"ledger-{game_id}-{seed}")
        players = seats(game, rnd)
        dealt = adjudicate.deal(game_id, players, None, f"ledger-{seed}")
        last, from_ledger = play_out(game_id, rnd, dealt)
        ledger = last.state["referee_ledger"]
        assert [e["id"] for e in ledger] == list(range(1, len(ledger) + 1))
        expected = standing_penalties(ledger)
        if last.next_match is None:
            # a game whose one state is the whole match (Manteur's rounds to the limit): no
            # summary to carry; the ledger of its last state is the match's
            assert {p: d for p, d in from_ledger.items() if d} == \
                per_seat(game_id, players, {p: sign * t for p, t in expected.items()})
            continue
        summary = last.next_match[referee.MATCH_KEY]
        assert summary["entries"] == ledger
        assert summary["totals"] == {p: expected.get(p, 0) for p in players}
        # the ledger's score deltas sum to its totals, in the game's unit and direction
        assert {p: d for p, d in from_ledger.items() if d} == \
            per_seat(game_id, players, {p: sign * t for p, t in summary["totals"].items()})
        if any(e["type"] == "match_finished" for e in last.events):
            continue  # the match ended with this deal (a short match): no next deal to carry to
        # the next deal of the match carries the ledger on; more entries continue its ids
        second = adjudicate.deal(game_id, players, None, f"ledger-next-{seed}",
                                 match=json.loads(json.dumps(last.next_match)))
        assert second["state"]["referee_ledger"] == ledger
        more = adjudicate.validate(second["state"], {"type": "penalty", "player": players[0],
                                                     "points": 2, "reason": "late"})
        assert more.valid and more.state["referee_ledger"][-1]["id"] == len(ledger) + 1
        last2, _ = play_out(game_id, rnd, {"state": more.state, "to_act": more.to_act,
                                           "status": more.status})
        totals2 = last2.next_match[referee.MATCH_KEY]["totals"]
        expected2 = standing_penalties(last2.state["referee_ledger"])
        assert totals2 == {p: expected2.get(p, 0) for p in players}


@pytest.mark.parametrize("game_id", GAMES)
def test_a_withdrawn_penalty_gives_its_points_back(game_id):
    game = registry.get(game_id)
    players = [f"p{i}" for i in range(game.min_players)]
    state = adjudicate.deal(game_id, players, None, "withdraw")["state"]
    penalized = adjudicate.validate(state, {"type": "penalty", "player": players[1],
                                            "points": 3, "reason": "slow"})
    (delta,) = penalized.score_deltas
    assert delta["kind"] == game.referee.penalty_kind
    assert delta["delta"] == 3 * referee.penalty_sign(game.referee.penalty_kind) != 0
    back = adjudicate.validate(penalized.state, {"type": "withdraw", "player": players[1],
                                                 "entry": 1})
    assert back.valid and [d["delta"] for d in back.score_deltas] == [-delta["delta"]]
    assert back.state["referee_ledger"][0]["withdrawn"] is True
    assert back.events[0] == {"type": "withdrawn", "game": game_id, "player": players[1],
                              "entry": 1, "kind": "penalty", "points": 3,
                              "text": {"en": f"{players[1]}'s penalty (entry 1) is withdrawn: 3 "
                                             "given back",
                                       "ja": f"{players[1]}の罰則(記録1)を取り消し: 3を戻す"}}
    again = adjudicate.validate(back.state, {"type": "withdraw", "player": players[1],
                                             "entry": 1})
    assert not again.valid and again.refusal.code == "ledger_entry_withdrawn"
    # an entry is withdrawn as the seat it is about: another seat names no such entry
    other = adjudicate.validate(penalized.state, {"type": "withdraw", "player": players[0],
                                                  "entry": 1})
    assert not other.valid and other.refusal.code == "ledger_entry_unknown"
    warned = adjudicate.validate(state, {"type": "warning", "player": players[0]})
    assert warned.valid and warned.score_deltas == []
    assert warned.state["referee_ledger"][0]["points"] == 0


@pytest.mark.parametrize("game_id", GAMES)
def test_a_replayed_log_with_ledger_entries_gives_the_same_totals_twice(game_id):
    game = registry.get(game_id)
    rnd = random.Random(f"replay-{game_id}")
    players = seats(game, rnd)
    request = {"game_id": game_id, "players": players, "seed": "replay-ledger",
               "seed_salt": "0" * 32}
    log: list = []
    play_out(game_id, rnd, adjudicate.deal(**request), log)
    assert any(a["type"] in referee.LEDGER_ACTION_TYPES for a in log)
    first, second = adjudicate.replay(request, log), adjudicate.replay(request, log)
    assert first["stopped"] is None and first["status"] == "finished"
    assert first["totals"] == second["totals"]
    assert first["next_match"] == second["next_match"]
    assert first["state"]["referee_ledger"] == second["state"]["referee_ledger"]
    ledger_steps = [d for s in first["steps"] if s["action"]["type"] in ("penalty", "withdraw")
                    for d in s["score_deltas"]]
    assert ledger_steps, "the log holds penalties"
    from_ledger: dict[str, int] = {}
    for d in ledger_steps:
        from_ledger[d["target"]] = from_ledger.get(d["target"], 0) + d["delta"]
    sign = referee.penalty_sign(game.referee.penalty_kind)
    assert {p: d for p, d in from_ledger.items() if d} == per_seat(game_id, players, {
        p: sign * t for p, t in standing_penalties(first["state"]["referee_ledger"]).items()})
    if first["next_match"] is None:  # the deal is the match (Manteur's rounds)
        return
    assert first["next_match"][referee.MATCH_KEY]["totals"] == {
        p: t for p, t in {p: standing_penalties(first["state"]["referee_ledger"]).get(p, 0)
                          for p in players}.items()}


def test_a_seat_may_not_be_named_referee():
    from engine.errors import InvalidDeal
    with pytest.raises(InvalidDeal) as err:
        adjudicate.deal("man", ["ann", "referee"], seed="x")
    assert err.value.path == "players[1]"


def test_referee_is_no_seat_without_the_referee_and_sees_all_with():
    dealt = adjudicate.deal("man", ["ann", "bob"], seed="view")
    state = dealt["state"]
    from engine.errors import InputError
    with pytest.raises(InputError) as err:
        adjudicate.view(state, "referee")
    assert err.value.code == "player_unknown"
    with pytest.raises(InputError):
        adjudicate.legal_actions(state, "referee")
    seen = adjudicate.view(state, "referee", referee_seen=True)
    assert seen["hands"] == state["hands"] and seen["stock"] == state["stock"]
    assert "seed" not in seen and "seed_salt" not in seen and seen["viewer"] == "referee"
    listed = adjudicate.legal_actions(state, "referee", referee_seen=True)
    assert {(a["type"], a["player"]) for a in listed} >= {
        (t, p) for t in ("warning", "penalty") for p in ("ann", "bob")}
    for action in listed:
        assert adjudicate.validate(state, action).valid, action
