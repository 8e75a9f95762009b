"""Property tests over the house options (5.3 man_window and let_pass, 7.1
dealer_after_no_winner, 7.2 match_games / match_target, 2.3 start_card): whole games and whole
matches played with random legal actions, random illegal ones tried on the way (the checks of
test_properties.play_game)."""
from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from engine import adjudicate
from engine.errors import InvalidDeal
from tests.sizing import examples

from .test_properties import BASE_OPTIONS, play_game

option_sets = st.fixed_dictionaries({
    **BASE_OPTIONS,
    "man_window": st.sampled_from(["next_action", "until_covered"]),
    "let_pass": st.sampled_from(["blocked", "reopens"]),
    "dealer_after_no_winner": st.sampled_from(["same", "left"]),
    "start_card": st.sampled_from(["in_deal", "by_dealer"]),
    "match_games": st.one_of(st.none(), st.integers(1, 3)),
    "match_target": st.one_of(st.none(), st.integers(1, 4)),
})


def _check_let_go(final: dict) -> None:
    """5.3: records name seated players, never on their own card; none under reopens."""
    if final["options"]["let_pass"] == "reopens":
        assert final["let_go"] == []
    for x in final["let_go"]:
        assert x["player"] != x["by"] and 1 <= x["number"] <= 13


@settings(deadline=None, max_examples=examples(150))
@given(n=st.integers(2, 8), options=option_sets, seed=st.text(min_size=1, max_size=8),
       choices=st.integers(0, 2**32))
def test_random_playouts_with_the_new_options_end_consistently(n, options, seed, choices):
    players = [f"p{i}" for i in range(n)]
    final, deltas = play_game(random.Random(choices), players, options, seed)
    _check_let_go(final)
    if final["status"] != "finished":
        return
    result = final["result"]
    if result["kind"] == "man":
        assert final["next_dealer"] == result["winner"]
    elif options["dealer_after_no_winner"] == "same":
        assert final["next_dealer"] == final["dealer"]
    else:
        assert final["next_dealer"] == players[(players.index(final["dealer"]) + 1) % n]
    m = final["match"]
    assert m["games_played"] == 1 and m["over"] == (m["winner"] is not None)


@settings(deadline=None, max_examples=examples(30))
@given(n=st.integers(2, 5), options=option_sets, seed=st.text(min_size=1, max_size=8),
       choices=st.integers(0, 2**32))
def test_random_matches_end_with_the_single_leader(n, options, seed, choices):
    rng = random.Random(choices)
    players = [f"p{i}" for i in range(n)]
    options = {**options, "stock_exhausted": "draw_game"}
    if options["match_games"] is None and options["match_target"] is None:
        options["match_games"] = 2
    match, running = None, Counter()
    for game_no in range(12):
        final, deltas = play_game(rng, players, options, f"{seed}/{game_no}", None, match,
                                  check_all=False)
        if final["status"] != "finished":
            return
        running.update(deltas)
        m = final["match"]
        assert m["games_played"] == game_no + 1
        assert m["totals"] == {p: running[p] for p in players}
        nxt = {**m, "next_dealer": final["next_dealer"]}
        if game_no > 0:
            assert final["dealer"] == match["next_dealer"]  # 7.1: the match names the dealer
        top = max(m["totals"].values())
        leaders = [p for p, t in m["totals"].items() if t == top]
        due = (options["match_games"] is not None and m["games_played"] >= options["match_games"]) \
            or (options["match_target"] is not None and top >= options["match_target"])
        assert m["over"] == (due and len(leaders) == 1)
        if m["over"]:
            assert m["winner"] == leaders[0]
            with pytest.raises(InvalidDeal):  # 7.3
                adjudicate.deal("man", players, options=options, seed="after", match=nxt)
            return
        assert m["winner"] is None
        match = nxt
