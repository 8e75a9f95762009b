"""Referee mode (`violations: referee`, engine/referee.py): an act the rules refuse is recorded
and sanctioned instead of refused, as each game's rules page lists; in `reject` mode (the
default) the same act is refused and nothing changes. Declarations, then random play-outs
with random irregular acts injected, replayed."""
from __future__ import annotations

import copy
import random
import re

import pytest

from engine import adjudicate, referee, registry
from engine.errors import InputError, InvalidAction
from tests.adjudication import random_action
from tests.conformance import helpers
from tests.engine.test_rules_translations import page, rule_numbers
from tests.sizing import examples

SANCTIONED = [g for g in helpers.GAME_IDS if registry.get(g).referee.sanctions]


def section(game_id: str, lang: str) -> str:
    """The part of the rules page that lists the game's sanctions: from the heading its
    conformance facts name (`sanctions_section`: en, ja) to the next heading."""
    heading = helpers.facts(game_id)["sanctions_section"][lang]
    text = page(game_id, lang)
    start = text.index(heading)
    end = re.search(r"^#{2,3} ", text[start + 4:], re.M)
    return text[start:start + 4 + end.start()] if end else text[start:]


def test_a_game_has_sanctions_exactly_when_it_offers_referee_mode():
    """Referee mode is `violations: referee`: a game offering it sanctions some refusals; a
    game whose violations are its own (Man's chombo, man 8) or that has none sanctions none."""
    assert SANCTIONED, "no game has referee mode to check"
    for game_id in helpers.GAME_IDS:
        game = registry.get(game_id)
        violations = game.option_map().get("violations")
        offered = violations is not None and referee.REFEREE_MODE in violations.field.choices
        assert bool(game.referee.sanctions) == offered, game_id


@pytest.mark.parametrize("game_id", SANCTIONED)
def test_every_sanctionable_code_is_a_refusal_listed_with_its_sanction_on_both_pages(game_id):
    game = registry.get(game_id)
    assert set(game.referee.sanctions) <= set(game.refusals)
    for lang in ("en", "ja"):
        text = section(game_id, lang)
        assert "`irregularity_sanctioned`" in text and "`violations`" in text
        missing = [code for code in game.referee.sanctions if f"`{code}`" not in text]
        assert not missing, (lang, missing)
        rules = rule_numbers(game_id, page(game_id, lang))
        assert {s.rule for s in game.referee.sanctions.values()} <= rules
        assert game.option_map()["violations"].rule in rules


@pytest.mark.parametrize("game_id", SANCTIONED)
def test_violations_defaults_to_reject_and_no_preset_turns_referee_mode_on(game_id):
    game = registry.get(game_id)
    option = game.option_map()["violations"]
    assert option.default == referee.REJECT
    assert option.field.choices == (referee.REJECT, referee.REFEREE_MODE)
    assert all("violations" not in values for values in game.presets.values())
    assert "irregularity_sanctioned" in {e.name for e in game.events}


def hand_of(state: dict, player: str) -> list[str]:
    hands = state.get("hands") or {}
    return list(hands.get(player) or ())


def irregular_act(rnd: random.Random, game, state: dict, to_act: list[str],
                  stale: list[dict]) -> dict:
    """A well-formed act the rules may refuse: an action legal a few moves ago (a declaration
    now too low, a card already played), a seat's legal action posted by another seat (out of
    turn), a legal action with other cards of the hand, or any random action."""
    players = state["players"]
    legal = [a for p in to_act for a in adjudicate.legal_actions(state, p)]
    roll = rnd.random()
    if stale and roll < 0.25:
        action = rnd.choice(stale)
        return {**action, "player": rnd.choice(to_act)} if to_act and rnd.random() < 0.5 \
            else action
    if legal and roll < 0.4:
        return {**rnd.choice(legal), "player": rnd.choice(players)}
    if legal and roll < 0.8:
        action = dict(rnd.choice(legal))
        hand = hand_of(state, action["player"])
        if hand and "cards" in action:
            action["cards"] = rnd.sample(hand, min(len(hand), rnd.randint(1, 3)))
        elif hand and "card" in action:
            action["card"] = rnd.choice(hand)
        action.pop("reading", None)
        action.pop("jokers", None)
        return action
    return random_action(rnd, game, players)


def play_out(game_id: str, rnd: random.Random, dealt: dict, mode: str) -> dict:
    """Random legal play with irregular acts injected, to the end. Returns the log of accepted
    actions, the sanctioned steps (state before, action, answer) and the summed deltas."""
    game = registry.get(game_id)
    state, to_act, status = dealt["state"], dealt["to_act"], dealt["status"]
    log, sanctioned, totals = [], [], {}
    stale: list[dict] = []
    for _ in range(4000):
        if status == "finished":
            break
        legal = [a for p in to_act for a in adjudicate.legal_actions(state, p)]
        stale = (stale + rnd.sample(legal, min(3, len(legal))))[-12:]
        if rnd.random() < 0.3:
            action = irregular_act(rnd, game, state, to_act, stale)
        else:
            moving = [a for a in legal if a["type"] not in ("pass", "accept")]
            action = rnd.choice(moving if moving and rnd.random() < 0.8 else legal)
        try:
            out = adjudicate.validate(state, action)
        except InputError:
            continue  # malformed: a 422, never sanctioned
        if not out.valid:
            assert out.state == state
            # in referee mode a sanctionable act is refused only once its seat is at the bound
            # on what a seat's acts record (referee.MAX_SANCTION_ENTRIES)
            assert mode == referee.REJECT or out.refusal.code not in game.referee.sanctions or \
                referee.sanction_entries(game, adjudicate.load_state(state)[1].referee_ledger,
                                         action["player"]) >= referee.MAX_SANCTION_ENTRIES
            continue
        marks = [e for e in out.events if e["type"] == "irregularity_sanctioned"]
        if mode == referee.REJECT:
            assert not marks
        elif marks:
            (mark,) = marks
            sanction = game.referee.sanctions[mark["code"]]
            assert mark["player"] == action["player"] and mark["sanction"] == sanction.effect
            assert mark["sanction_rule"] == f"{game_id} {sanction.rule}"
            assert mark["text"]["en"] and mark["text"]["ja"]
            if sanction.effect == referee.TAKEN_BACK and sanction.ledger != referee.PENALTY:
                # (a penalty counts in the game's standing: it may end the game, B22)
                assert out.to_act == to_act and out.status == status
            ledger = out.state["referee_ledger"]
            if sanction.ledger is None:
                assert "entry" not in mark and ledger == state["referee_ledger"]
            else:
                assert ledger[-1] == {"id": mark["entry"], "kind": sanction.ledger,
                                      "player": action["player"], "points": sanction.points,
                                      "reason": ledger[-1]["reason"], "withdrawn": False}
                assert ledger[-1]["reason"].startswith(f"{game_id} {sanction.rule}: ")
            sanctioned.append((state, action, out, len(log)))  # its index in the log
        # every card still exactly once, every invariant of the game (a full decode)
        adjudicate.load_state(out.state)
        ledger_deltas = 0
        for d in out.score_deltas:
            totals[d["target"]] = totals.get(d["target"], 0) + d["delta"]
            ledger_deltas += d["reason"].startswith("penalty")
        if game.zero_sum and not ledger_deltas:
            assert sum(d["delta"] for d in out.score_deltas) == 0
        log.append(action)
        state, to_act, status = out.state, out.to_act, out.status
    assert status == "finished", f"{game_id}: the deal did not end"
    return {"log": log, "sanctioned": sanctioned, "totals": totals, "state": state}


def table(game, rnd: random.Random) -> list[str]:
    counts = [n for n in range(game.min_players, min(game.max_players, 6) + 1)
              if not (game.id == "manillen" and n == 5)]
    return [f"p{i}" for i in range(rnd.choice(counts))]


@pytest.mark.parametrize("game_id", SANCTIONED)
def test_referee_mode_play_outs_with_irregular_acts_end_and_replay_to_the_same_totals(game_id):
    game = registry.get(game_id)
    seen: set[str] = set()
    for seed in range(examples(4)):
        rnd = random.Random(f"irregular-{game_id}-{seed}")
        request = {"game_id": game_id, "players": table(game, rnd),
                   "options": {"violations": referee.REFEREE_MODE},
                   "seed": f"irregular-{seed}", "seed_salt": "0" * 32}
        run = play_out(game_id, rnd, adjudicate.deal(**request), referee.REFEREE_MODE)
        seen |= {out.events[0]["code"] for _s, _a, out, _i in run["sanctioned"]}
        first, second = adjudicate.replay(request, run["log"]), \
            adjudicate.replay(request, run["log"])
        assert first["stopped"] is None and first["status"] == "finished"
        assert first["state"] == second["state"] == run["state"]
        assert first["totals"] == second["totals"] == run["totals"]
        if not run["sanctioned"]:
            continue
        # reject mode: the same log stops at the first sanctioned act, with its rule
        reject = {**request, "options": {"violations": referee.REJECT}}
        stopped = adjudicate.replay(reject, run["log"])["stopped"]
        _state, _action, out, index = run["sanctioned"][0]
        assert stopped["index"] == index
        assert stopped["error"].code == out.events[0]["code"]
        assert stopped["error"].rule == out.events[0]["rule"]
    assert seen, f"{game_id}: no act was sanctioned in {examples(4)} play-outs"


@pytest.mark.parametrize("game_id", SANCTIONED)
def test_in_reject_mode_every_sanctioned_act_is_refused_and_nothing_changes(game_id):
    game = registry.get(game_id)
    for seed in range(examples(3)):
        rnd = random.Random(f"reject-{game_id}-{seed}")
        dealt = adjudicate.deal(game_id, table(game, rnd), {"violations": "referee"},
                                f"reject-{seed}")
        for state, action, out, _index in play_out(game_id, rnd, dealt, referee.REFEREE_MODE)[
                "sanctioned"]:
            rejecting = copy.deepcopy(state)
            rejecting["options"]["violations"] = referee.REJECT
            answer = adjudicate.validate(rejecting, action)
            assert not answer.valid and answer.state == rejecting
            assert answer.refusal.code == out.events[0]["code"]
            assert answer.refusal.rule == out.events[0]["rule"]
        # and a play-out in reject mode never sanctions (play_out checks it)
        play_out(game_id, rnd, adjudicate.deal(game_id, dealt["state"]["players"], None,
                                               f"reject-{seed}"), referee.REJECT)


@pytest.mark.parametrize("game_id", SANCTIONED)
def test_a_malformed_action_is_never_sanctioned(game_id):
    game = registry.get(game_id)
    players = [f"p{i}" for i in range(game.min_players)]
    dealt = adjudicate.deal(game_id, players, {"violations": "referee"}, "malformed")
    state = dealt["state"]
    legal = adjudicate.legal_actions(state, dealt["to_act"][0])[0]
    other = next(p for p in players if p not in dealt["to_act"])
    for bad in ({**legal, "player": other, "unknown_field": 1},
                {**legal, "player": "nobody"}, {**legal, "type": "no_such_act"}):
        with pytest.raises(InvalidAction):
            adjudicate.validate(state, bad)
