"""A seat cannot grow a state without bound in referee mode (engine/referee.py,
MAX_SANCTION_ENTRIES; docs/referee.md, "A bound on what a seat's acts record").

In referee mode an act the rules refuse is sanctioned, and a sanction that enters the ledger
adds an entry; an act taken back leaves the seat free to post it again. Unbounded, one seat
posting the same out-of-turn act thousands of times grows the state past the body limit, after
which nobody — the referee included — can post it, and under strict sequencing no older state
is accepted: the game is dead. The games are taken from the registry, so a new game with
sanctions is checked without touching this file."""
from __future__ import annotations

import json
import random

import msgspec
import pytest

from engine import adjudicate, referee, registry
from engine.errors import InputError
from engine.fields import MAX_SAFE_INT
from engine.state import LedgerEntry
from engine.values import FINISHED, Refusal
from service.config import Settings
from tests.engine.test_irregularities import irregular_act, table
from tests.sizing import examples

SANCTIONED = [g.id for g in registry.all_games() if g.referee.sanctions]
# Games whose irregular mode has no sanctions: a violation is charged another way (Man's chombo
# ends the deal, man 8), so a seat's repeats meet a finished deal.
UNSANCTIONED = [g.id for g in registry.all_games()
                if not g.referee.sanctions and "violations" in g.option_map()]
BOUND = referee.MAX_SANCTION_ENTRIES * referee.SANCTION_ENTRY_BYTES
REPEATS = 10_000


def size(value) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())


def irregular_mode(game) -> str:
    """The `violations` choice that sanctions instead of refusing (`referee`; Man's `chombo`)."""
    (mode,) = [c for c in game.option_map()["violations"].field.choices if c != referee.REJECT]
    return mode


def candidates(game, dealt: dict):
    """Well-formed acts a seat may post out of place, cheapest first: a seat's legal action
    posted by a seat not on turn, a pass by a seat on turn, then the other irregular acts the
    irregularity tests make (made one at a time: listing legal actions can be slow)."""
    state, to_act = dealt["state"], dealt["to_act"]
    players = state["players"]
    legal = [a for p in to_act for a in adjudicate.legal_actions(state, p)]
    yield from ({**a, "player": q} for a in legal for q in players if q not in to_act)
    yield from ({"type": "pass", "player": p} for p in to_act)
    rnd = random.Random(f"bound-{game.id}")
    for _ in range(3000):
        yield irregular_act(rnd, game, state, to_act, [])


def first_accepted(game, dealt: dict, accept) -> dict:
    """The first candidate act whose answer `accept` takes."""
    for action in candidates(game, dealt):
        try:
            out = adjudicate.validate(dealt["state"], action)
        except InputError:
            continue
        if out.valid and accept(out):
            return action
    raise AssertionError(f"{game.id}: no irregular act found")


def recorded_warning(game, dealt: dict) -> dict:
    """A seat's act that referee mode sanctions with a warning in the ledger (the act taken
    back, the turn unchanged)."""
    return first_accepted(game, dealt, lambda out: (
        out.events[0]["type"] == "irregularity_sanctioned"
        and game.referee.sanctions[out.events[0]["code"]].ledger == referee.WARNING))


def test_every_game_with_violations_is_checked_here():
    # the registry's every game with a `violations` option is one of the two lists above
    assert SANCTIONED and UNSANCTIONED == ["man"]
    assert {g.id for g in registry.all_games() if "violations" in g.option_map()} == \
        set(SANCTIONED) | set(UNSANCTIONED)


@pytest.mark.parametrize("game_id", SANCTIONED)
def test_a_seat_repeating_an_irregular_act_stays_under_the_bound_and_the_referee_still_acts(
        game_id):
    game = registry.get(game_id)
    players = [f"seat-{i}" for i in range(game.max_players)]
    dealt = adjudicate.deal(game_id, players, {"violations": referee.REFEREE_MODE}, "bound")
    action = recorded_warning(game, dealt)
    state, first, last = dealt["state"], None, None
    for _ in range(REPEATS):
        out = adjudicate.validate(state, action)
        if out.valid:
            first = first or out
            state = out.state
        else:
            last = out
    code = first.events[0]["code"]
    # the seat's first MAX_SANCTION_ENTRIES acts were sanctioned, every later one refused as in
    # reject mode (its own code and rule), the state unchanged
    _, loaded = adjudicate.load_state(state)
    assert referee.sanction_entries(game, loaded.referee_ledger, action["player"]) == \
        len(state["referee_ledger"]) == referee.MAX_SANCTION_ENTRIES
    assert last is not None and last.state == state
    assert last.refusal.code == code and last.refusal.rule == first.events[0]["rule"]
    assert str(referee.MAX_SANCTION_ENTRIES) in last.refusal.en
    assert str(referee.MAX_SANCTION_ENTRIES) in last.refusal.ja
    # the documented bound, far below the body limit
    assert size(state) - size(dealt["state"]) <= BOUND
    assert size(state) < Settings().max_body_bytes / 20
    # the referee still acts: a warning and a penalty against the seat, a withdrawal
    seat = action["player"]
    warned = adjudicate.validate(state, {"type": "warning", "player": seat, "reason": "again"})
    assert warned.valid and warned.state["referee_ledger"][-1]["kind"] == "warning"
    penalized = adjudicate.validate(warned.state, {"type": "penalty", "player": seat,
                                                   "points": 1, "reason": "and again"})
    assert penalized.valid and penalized.state["referee_ledger"][-1]["points"] == 1
    withdrawn = adjudicate.validate(penalized.state, {"type": "withdraw", "player": seat,
                                                      "entry": 1})
    assert withdrawn.valid and withdrawn.state["referee_ledger"][0]["withdrawn"]
    # and a withdrawal frees no room: the bound is on what was added, withdrawn or not
    again = adjudicate.validate(withdrawn.state, action)
    assert not again.valid and again.state == withdrawn.state


@pytest.mark.parametrize("game_id", SANCTIONED)
def test_the_bound_is_per_seat_another_seats_irregularity_is_still_sanctioned(game_id):
    game = registry.get(game_id)
    players = [f"p{i}" for i in range(4 if game.max_players >= 4 else game.max_players)]
    dealt = adjudicate.deal(game_id, players, {"violations": referee.REFEREE_MODE}, "per-seat")
    action = recorded_warning(game, dealt)
    state = dealt["state"]
    for _ in range(referee.MAX_SANCTION_ENTRIES + 3):
        out = adjudicate.validate(state, action)
        state = out.state
    assert not out.valid
    # the same act by another seat not on turn is still sanctioned
    other = next(p for p in players if p != action["player"] and p not in dealt["to_act"])
    out = adjudicate.validate(state, {**action, "player": other})
    assert out.valid and out.events[0]["type"] == "irregularity_sanctioned"


@pytest.mark.parametrize("game_id", UNSANCTIONED)
def test_a_violation_in_a_game_without_sanctions_ends_the_deal_so_repeats_add_nothing(game_id):
    game = registry.get(game_id)
    players = [f"p{i}" for i in range(game.max_players)]
    dealt = adjudicate.deal(game_id, players, {"violations": irregular_mode(game)}, "bound")
    # man 8: a violation is a chombo, which ends the deal
    action = first_accepted(game, dealt, lambda out: out.status == FINISHED)
    ended = adjudicate.validate(dealt["state"], action).state
    for _ in range(100):
        again = adjudicate.validate(ended, action)
        assert not again.valid and again.refusal.code == "game_finished"
        assert again.state == ended


def test_a_sanctions_ledger_entry_fits_its_documented_size():
    # every sanction's entry, with the longest player id the service takes by default and the
    # largest id a ledger can hold
    longest = "x" * Settings().max_player_id_length
    for game_id in SANCTIONED:
        game = registry.get(game_id)
        for code, sanction in game.referee.sanctions.items():
            if sanction.ledger is None:
                continue
            reason = referee.sanction_reason(f"{game_id} {sanction.rule}", Refusal(
                code, "", "", rule=game.refusals[code]))
            entry = LedgerEntry(id=MAX_SAFE_INT, kind=sanction.ledger, player=longest,
                                points=sanction.points, reason=reason, withdrawn=True)
            assert len(msgspec.json.encode(entry)) <= referee.SANCTION_ENTRY_BYTES, reason
    # eight seats at the bound, sealed (base64: × 4/3), stay far below the default body limit
    assert 8 * BOUND * 4 / 3 < Settings().max_body_bytes / 7


@pytest.mark.parametrize("game_id", SANCTIONED)
def test_random_play_with_a_seats_irregularities_keeps_the_ledger_under_the_bound(
        game_id, monkeypatch):
    # Property: legal acts mixed with many irregular ones, most of them by one seat, to the end
    # of the deal. After every step each seat has at most the bound's sanction entries and the
    # ledger stays within players × the bound in bytes; a sanctionable act is refused only when
    # its seat is at the bound; the referee's warning is accepted at any step. The bound is
    # lowered to `cap` so that random deals reach it (a deal rarely holds 50 irregularities of
    # one seat); the mechanism does not depend on its value.
    cap = 4
    monkeypatch.setattr(referee, "MAX_SANCTION_ENTRIES", cap)
    game = registry.get(game_id)
    capped = 0
    for seed in range(examples(3)):
        rnd = random.Random(f"bound-play-{game_id}-{seed}")
        players = table(game, rnd)
        troublemaker = rnd.choice(players)
        dealt = adjudicate.deal(game_id, players, {"violations": referee.REFEREE_MODE},
                                f"bound-play-{seed}")
        state, to_act, status = dealt["state"], dealt["to_act"], dealt["status"]
        stale: list[dict] = []
        for step in range(6000):
            if status == FINISHED:
                break
            legal = [a for p in to_act for a in adjudicate.legal_actions(state, p)]
            stale = (stale + rnd.sample(legal, min(3, len(legal))))[-12:]
            if rnd.random() < 0.75:
                action = irregular_act(rnd, game, state, [troublemaker] if troublemaker in
                                       to_act and rnd.random() < 0.5 else to_act, stale)
                if rnd.random() < 0.7:
                    action = {**action, "player": troublemaker}
                if action.get("type") in game.referee_actions:
                    continue  # the referee's, not a seat's
            else:
                action = rnd.choice(legal)
            try:
                out = adjudicate.validate(state, action)
            except InputError:
                continue
            _, before = adjudicate.load_state(state)
            at_bound = referee.sanction_entries(game, before.referee_ledger,
                                                action["player"]) >= cap
            if not out.valid:
                assert out.state == state
                sanction = game.referee.sanctions.get(out.refusal.code)
                if sanction is not None and sanction.ledger is not None:
                    assert at_bound, (action, out.refusal.code)
                    capped += 1
                continue
            state, to_act, status = out.state, out.to_act, out.status
            _, after = adjudicate.load_state(state)
            for p in players:
                assert referee.sanction_entries(game, after.referee_ledger, p) <= cap
            assert size(state["referee_ledger"]) <= \
                len(players) * cap * referee.SANCTION_ENTRY_BYTES
            if step % 17 == 0 and status != FINISHED:
                warned = adjudicate.validate(state, {"type": "warning", "player": troublemaker})
                assert warned.valid
    assert capped, f"{game_id}: no play-out reached the bound"
