"""The legal-actions filters (engine/filters.py): a filtered list is exactly the full list kept
by hand — the cards a player picked (as a multiset, in any notation), action types,
combination kinds — over random Guandan and Daifugo states, through the tribute and the play
(Guandan answers the picked cards from those cards alone: Game.legal_actions_of_cards); and a
filter that cannot be read is a 422 with its path."""
from __future__ import annotations

import random
from collections import Counter

import orjson
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine import adjudicate, registry
from engine.errors import InputError
from tests.sizing import examples

from .. import adjudication
from ..guandan.helpers import build, options_of


def cards_of(game, action: dict) -> tuple[str, ...] | None:
    """The cards an action names, by hand: its declared card and cards fields together."""
    kinds = {f: spec.kind for f, spec in game.action_map()[action["type"]].fields.items()}
    found = []
    for name, kind in kinds.items():
        if kind == "card" and name in action:
            found.append(action[name])
        elif kind == "cards" and name in action:
            found += action[name]
    return tuple(sorted(found)) if found else None


def picks(rnd: random.Random, hand: list[str], listed: list[dict], game) -> list[list[str]]:
    """Cards a player might pick: those of some listed actions (in another order, in lower
    case), some of the hand at random (mostly no play), and a card the hand may not hold."""
    out = []
    named = [c for c in (cards_of(game, a) for a in listed) if c]
    for cards in rnd.sample(named, min(4, len(named))):
        shuffled = list(cards)
        rnd.shuffle(shuffled)
        out.append([c.lower() if rnd.random() < 0.3 else c for c in shuffled])
    for _ in range(3):
        if hand:
            out.append(rnd.sample(hand, rnd.randint(1, min(len(hand), 6))))
    out.append(["BJ", "BJ", "BJ"])  # never three copies: nothing
    return out


def check_filters(game, state: dict, player: str, rnd: random.Random) -> None:
    full = adjudicate.legal_actions(state, player)
    hand = (state.get("hands") or {}).get(player) or []
    for picked in picks(rnd, hand, full, game):
        wanted = tuple(sorted(c.upper() for c in picked))
        expected = [a for a in full if cards_of(game, a) == wanted]
        assert adjudicate.legal_actions(state, player, cards=picked) == expected, picked
    types = [a.name for a in game.actions]
    some = rnd.sample(types, rnd.randint(1, len(types)))
    assert adjudicate.legal_actions(state, player, some) == [a for a in full if a["type"] in some]
    if game.combinations:
        kinds = rnd.sample(game.combinations, rnd.randint(1, len(game.combinations)))
        by_kind = [a for a in full if a.get("reading", {}).get("type") in kinds]
        assert adjudicate.legal_actions(state, player, combinations=kinds) == by_kind
        if full and cards_of(game, full[0]):
            picked = list(cards_of(game, full[0]) or ())
            both = [a for a in by_kind if cards_of(game, a) == tuple(sorted(picked))]
            assert adjudicate.legal_actions(state, player, ["play"], cards=picked,
                                            combinations=kinds) == both


def states_of(game_id: str, rnd: random.Random, seed: str, every: int):
    """Every `every`-th state of a random play-out; for Guandan the next deal's first states
    too (its tribute and return: actions naming one `card`)."""
    step, last = 0, None
    for _players, state, applied in adjudication.random_deal_play_out(game_id, rnd, seed, 5):
        if applied is None:
            break
        if step % every == 0:
            yield state
        step += 1
        last = applied
    if game_id == "guandan" and last is not None and last.next_match is not None:
        out = adjudicate.deal("guandan", last.state["players"], None, seed + "-2",
                              match=orjson.loads(orjson.dumps(last.next_match)))
        state = out["state"]
        for _ in range(6):
            yield state
            legal = [a for p in out["to_act"] for a in adjudicate.legal_actions(state, p)]
            if not legal:
                break
            applied = adjudicate.validate(state, rnd.choice(legal))
            state, out = applied.state, {"to_act": applied.to_act}


@settings(max_examples=examples(8), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["guandan", "daifugo"]), st.integers(0, 10**6))
def test_filtered_legal_actions_are_the_full_list_kept_by_hand(game_id, seed):
    game = registry.get(game_id)
    rnd = random.Random(seed)
    seen: Counter[str] = Counter()
    for state in states_of(game_id, rnd, f"filters-{seed}", every=9):
        # the seats to act (whose lists are long), and another now and then (empty lists)
        to_act = game.to_act(game.decode(state))
        for player in to_act + [rnd.choice(state["players"])]:
            check_filters(game, state, player, rnd)
        seen[state.get("phase", "")] += 1
    assert seen


def test_picked_cards_list_every_reading_of_those_cards_only():
    """W-11 at level 4: ♥4 ♥4 8 8 9 9 picked is a tube to 9, a tube to 10 and a plate to 9,
    each with its reading; picked in any notation and order; cards not in the hand, none."""
    st_ = build({"a": ["H4", "H4", "S8", "D8", "S9", "D9", "C3", "BJ"], "b": ["S5"],
                 "c": ["S6"], "d": ["S7"]}, level="4")
    got = adjudicate.legal_actions(st_, "a", cards=["d9", "s8", "h4", "D8", "H4", "s9"])
    assert sorted((a["reading"]["type"], a["reading"]["rank"]) for a in got) == \
        [("plate", "9"), ("tube", "10"), ("tube", "9")]
    assert all(sorted(a["cards"]) == ["D8", "D9", "H4", "H4", "S8", "S9"] for a in got)
    assert adjudicate.legal_actions(st_, "a", cards=["C3", "BJ"]) == []  # no combination
    assert adjudicate.legal_actions(st_, "a", cards=["RJ"]) == []  # not in the hand
    assert adjudicate.legal_actions(st_, "b", cards=["S5"]) == []  # not b's turn
    assert [a["reading"]["type"] for a in adjudicate.legal_actions(
        st_, "a", combinations=["plate"])] == ["plate"]


def test_picked_cards_keep_a_lead_ban_as_the_whole_list_does():
    """R-3 decides from the whole hand whether a ban holds: the picked cards' plays are those
    the whole list gives, banned or freed alike."""
    hands = {"a": ["S3", "S4"], "b": ["C5", "C6", "CK"], "c": ["D8"], "d": ["S9", "S10"]}
    st_ = adjudicate.validate(build(hands, turn="c", options=options_of(violations="referee")),
                              {"type": "play", "player": "c", "cards": ["D8"]}).state
    st_ = adjudicate.validate(st_, {"type": "play", "player": "b", "cards": ["CK"]}).state
    for action in ({"type": "play", "player": "d", "cards": ["S9"]},
                   {"type": "pass", "player": "a"}, {"type": "pass", "player": "b"}):
        st_ = adjudicate.validate(st_, action).state
    full = adjudicate.legal_actions(st_, "d")
    assert adjudicate.legal_actions(st_, "d", cards=["S10"]) == full != []


@pytest.mark.parametrize("filters, path", [
    ({"cards": ["S10", "XX"]}, "cards[1]"),
    ({"cards": []}, "cards"),
    ({"combinations": ["tube", "triangle"]}, "combinations[1]"),
    ({"combinations": []}, "combinations"),
])
def test_a_filter_that_cannot_be_read_is_refused_with_its_path(filters, path):
    state = adjudicate.deal("guandan", ["a", "b", "c", "d"], seed="filters")["state"]
    with pytest.raises(InputError) as err:
        adjudicate.legal_actions(state, "a", **filters)
    assert err.value.code == "request_invalid" and err.value.path == path


def test_a_game_without_combinations_refuses_that_filter():
    state = adjudicate.deal("man", ["a", "b", "c"], seed="filters")["state"]
    with pytest.raises(InputError) as err:
        adjudicate.legal_actions(state, "a", combinations=["pair"])
    assert err.value.path == "combinations[0]" and "no combinations" in err.value.message
