"""The table summarised and the standings (engine/summary.py), for every game: every view of
random play-outs carries the public `to_act`, a summary that fits the one shared schema, names
every seat in seat order and never shows a card the rest of the view hides, and standings that
agree with the game's own match data over random matches; the facts each game must name are
named when their situation arises; Daifugo's match length (D29) ends a match."""
from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import msgspec
import pytest

from engine import adjudicate, registry
from engine.cards import is_card
from engine.errors import InvalidDeal
from engine.summary import Standings, TableSummary
from tests.adjudication import random_deal_play_out
from tests.sizing import examples

GAMES = ("daifugo", "guandan", "man", "manillen", "manteur")

# A card as summaries print it (engine/cards.py card_label), in either language.
_LABEL = re.compile(r"([♠♥♦♣])(10|[2-9AJQK])|(Black Joker|黒ジョーカー)|(Red Joker|赤ジョーカー)")
_SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def cards_named(node: Any) -> set[str]:
    """Every card a piece of JSON names: as a code anywhere, or by its label inside a text."""
    found: set[str] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            if is_card(item) and item.upper() == item:
                found.add(item)
            for m in _LABEL.finditer(item):
                found.add(_SUIT[m.group(1)] + m.group(2) if m.group(1) else
                          "BJ" if m.group(3) else "RJ")
    return found


# Facts that name a card of the rules rather than a card on the table or in a hand.
RULE_CARDS = {"wild_card"}


def play_outs(game_id: str, count: int):
    for seed in range(count):
        rnd = random.Random(f"summary-{game_id}-{seed}")
        for players, state, _ in random_deal_play_out(game_id, rnd, f"summary-{seed}"):
            yield players, state


@pytest.mark.parametrize("game_id", GAMES)
def test_every_view_carries_a_summary_of_the_shared_schema_that_hides_what_the_view_hides(game_id):
    game = registry.get(game_id)
    seen_keys: Counter[str] = Counter()
    for players, state in play_outs(game_id, examples(3)):
        loaded = game.decode(state)
        everything = cards_named(state)
        for viewer in [*players, None]:
            view = adjudicate.view(state, viewer)
            summary = msgspec.convert(view["summary"], TableSummary)
            msgspec.convert(view["standings"], Standings)
            assert view["to_act"] == game.public_to_act(loaded)
            assert [s.seat for s in summary.seats] == players
            for f in summary.facts:
                seen_keys[f.key] += 1
                assert f.label.en and f.label.ja and f.text.en and f.text.ja
                assert f.seat is None or f.seat in players
            # what the rest of the view shows; a summary may name nothing else
            rest = cards_named({k: v for k, v in view.items()
                                if k not in ("summary", "standings")})
            hidden = everything - rest
            # a wild card is named as a rule (W-1), not as where a card lies
            located = [f for f in view["summary"]["facts"] if f["key"] not in RULE_CARDS]
            leaked = cards_named([located, view["summary"]["seats"]]) & hidden
            assert not leaked, f"{viewer!r} reads hidden cards {sorted(leaked)} in the summary"
    assert seen_keys, f"{game_id}: no facts at all"


# What a summary must name when the situation arises: (game, the state's condition, the key).
MUST_NAME = [
    ("daifugo", lambda s: s["revolution"], "revolution"),
    ("daifugo", lambda s: s["top"] is not None, "to_beat"),
    ("daifugo", lambda s: s["locked_suits"], "lock"),
    ("guandan", lambda s: True, "level"),
    ("guandan", lambda s: True, "wild_card"),
    ("guandan", lambda s: s["phase"] == "play", "to_beat"),
    ("man", lambda s: s["pending_draw"] > 0, "pending_draw"),
    ("man", lambda s: s["named_suit"] is not None, "named_suit"),
    ("man", lambda s: True, "top_card"),
    ("manillen", lambda s: True, "trump"),
    ("manillen", lambda s: True, "doubling"),
    ("manillen", lambda s: bool(s["trick"] and s["trick"]["cards"]), "to_beat"),
    ("manteur", lambda s: bool(s["calls"]), "to_beat"),
]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_summary_names_what_the_table_must_know(game_id):
    rules = [(cond, key) for g, cond, key in MUST_NAME if g == game_id]
    arisen: Counter[str] = Counter()
    options = {"daifugo": {"preset": "uecda"}}.get(game_id)
    for seed in range(max(3, examples(3))):  # enough deals for each situation to arise
        rnd = random.Random(f"facts-{game_id}-{seed}")
        for state in _steps(_deal(game_id, rnd, options, f"facts-{seed}"), rnd):
            keys = {f["key"] for f in adjudicate.view(state, None)["summary"]["facts"]}
            for cond, key in rules:
                if cond(state):
                    arisen[key] += 1
                    assert key in keys, f"{game_id}: {key} not named"
    # every situation arose at least once in these play-outs
    assert set(arisen) == {key for _, key in rules}, f"{game_id}: only {sorted(arisen)} arose"


def test_guandan_names_the_level_and_its_wild_card_with_the_card():
    state = adjudicate.deal("guandan", ["a", "b", "c", "d"], None, "wild",
                            match={"levels": {"team1": "7", "team2": "2"}, "declarer": "team1",
                                   "previous_order": ["a", "c"]})["state"]
    facts = {f["key"]: f for f in adjudicate.view(state, "a")["summary"]["facts"]}
    assert "7" in facts["level"]["text"]["en"] and "7" in facts["level"]["text"]["ja"]
    assert facts["wild_card"]["cards"] == ["H7"]
    assert "♥7" in facts["wild_card"]["text"]["en"]


def test_manillen_names_the_trump_and_the_multiplier():
    rnd = random.Random("manillen-trump")
    state = next(s for s in _steps(_deal("manillen", rnd, None, "trump", players=4), rnd)
                 if s["phase"] == "play")
    facts = {f["key"]: f for f in adjudicate.view(state, None)["summary"]["facts"]}
    assert state["trump"] is not None
    words = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}.get(state["trump"],
                                                                              "No trumps")
    assert words in facts["trump"]["text"]["en"]
    assert f"×{state['multiplier']}" in facts["doubling"]["text"]["en"]


# ------------------------------------------------------------------ standings

def _deal(game_id: str, rnd: random.Random, options: dict | None, seed: str,
          match: dict | None = None, players: int | None = None) -> dict:
    game = registry.get(game_id)
    if players is None:
        players = 4 if game.min_players <= 4 <= game.max_players else game.min_players
    return adjudicate.deal(game_id, [f"p{i}" for i in range(players)], options, seed,
                           match=match)["state"]


def _steps(state: dict, rnd: random.Random, events: list | None = None):
    """The states of a random deal, from `state` to its end; each applied action's events
    appended to `events`."""
    yield state
    for _ in range(3000):
        if state["status"] == "finished":
            return
        game, loaded = adjudicate.load_state(state)
        legal = [a for p in game.to_act(loaded) for a in game.legal_actions(loaded, p)]
        moving = [a for a in legal if a.type not in ("draw", "pass", "chombo", "end_turn")]
        chosen = rnd.choice(moving if moving and rnd.random() < 0.8 else legal)
        applied = adjudicate.validate(state, chosen.to_json())
        if events is not None:
            events.extend(applied.events)
        state = applied.state
        yield state


def _last(state: dict, rnd: random.Random, events: list | None = None) -> dict:
    """The end of a random deal from `state`."""
    for state in _steps(state, rnd, events):  # noqa: B007, B020 (the last one is wanted)
        pass
    return state


def _own_totals(game_id: str, state: dict) -> dict[str, int]:
    """The match standing as the game's own match data holds it, after a finished deal."""
    nxt = state.get("next_match")
    if game_id == "man":
        return dict(state["match"]["totals"])
    if game_id == "daifugo":
        return dict(nxt["points"]) if nxt else \
            {p: state["match"]["points"][p] + state["result"]["points"][p]
             for p in state["players"]}
    if game_id == "guandan":
        from engine.games.guandan.state import LEVELS
        return {t: LEVELS.index(v) + 2 for t, v in state["result"]["levels"].items()}
    if game_id == "manillen":
        booms = dict(state["match"]["booms"])
        if state["result"]["boom"]:
            booms[state["result"]["boom"]["winner"]] += 1
        return booms
    return dict(state["match"]["penalties"])


MATCH_OPTIONS = {"man": {"match_games": 3}, "daifugo": {"match_deals": 3},
                 "manillen": {"target_points": 20, "booms_to_win": 1}}


@pytest.mark.parametrize("game_id", GAMES)
def test_standings_agree_with_the_games_own_match_data_over_random_matches(game_id):
    game = registry.get(game_id)
    for seed in range(examples(2)):
        rnd = random.Random(f"standings-{game_id}-{seed}")
        match = None
        for deal_no in range(6):
            events: list = []
            start = _deal(game_id, rnd, MATCH_OPTIONS.get(game_id), f"st-{seed}-{deal_no}", match)
            for state in _steps(start, rnd, events):
                standings = adjudicate.view(state, None)["standings"]
                assert standings["entries"] and not (standings["finished"] and
                                                     state["status"] != "finished")
            assert state["status"] == "finished"
            standings = adjudicate.view(state, None)["standings"]
            got = {e["id"]: e["total"] for e in standings["entries"]}
            assert got == _own_totals(game_id, state)
            for e in standings["entries"]:
                assert str(e["total"]) in e["text"]["en"] and str(e["total"]) in e["text"]["ja"]
            assert sorted(p for e in standings["entries"] for p in e["seats"]) == \
                sorted(state["players"])
            over = any(e["type"] == "match_finished" for e in events)
            assert standings["finished"] == over
            # as a client holds it: JSON
            match = msgspec.json.decode(msgspec.json.encode(game.next_match(game.decode(state))))
            if over or match is None:
                break


def test_daifugo_match_length_ends_the_match_with_its_last_deal():
    rnd = random.Random("d29")
    players = ["a", "b", "c", "d"]
    match = None
    for deal_no in (1, 2):
        events: list = []
        start = adjudicate.deal("daifugo", players, {"match_deals": 2}, f"d29-{deal_no}",
                                match=match)["state"]
        assert start["match"]["deal"] == deal_no
        state = _last(start, rnd, events)
        finished = [e for e in events if e["type"] == "match_finished"]
        standings = adjudicate.view(state, "a")["standings"]
        if deal_no == 1:
            assert not finished and not standings["finished"]
            assert state["next_match"] is not None
            match = state["next_match"]
        else:
            assert finished and standings["finished"] and state["next_match"] is None
            totals = {e["id"]: e["total"] for e in standings["entries"]}
            assert finished[0]["totals"] == totals
            top = max(totals.values())
            assert finished[0]["winners"] == [p for p in players if totals[p] == top]
    with pytest.raises(InvalidDeal) as err:  # D29: a match that is over takes no more deals
        adjudicate.deal("daifugo", players, {"match_deals": 2}, "d29-3",
                        match={**match, "deal": 3})
    assert "D29" in err.value.message


def test_daifugo_without_a_match_length_plays_on():
    rnd = random.Random("d29-none")
    start = adjudicate.deal("daifugo", ["a", "b", "c"], None, "open",
                            match={"deal": 40, "points": {}, "finish_order": []})["state"]
    assert start["options"]["match_deals"] is None
    state = _last(start, rnd)
    assert state["next_match"]["deal"] == 41
    assert not adjudicate.view(state, None)["standings"]["finished"]
