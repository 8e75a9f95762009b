"""The profile `make bench` prints for a row below 0.30 of the floor (bench/hot_paths.py): the
row's own requests, answered as the bench's server answers them, and the project functions
their time went through — the game's work named, the request's wrappers left out."""
from __future__ import annotations

import random

import pytest

from bench import hot_paths, payloads


def _row(cases, group, name):
    return next(c for c in cases if c.group == group and c.name == name)


def test_profile_of_a_cold_enumeration_names_the_games_own_enumeration():
    case = _row(payloads.legal_cases(4, random.Random(1)), "legal-actions",
                "guandan leader, 27 cards, cold")
    # the words of 1,411 plays are as costly as finding them: their many small functions
    # can fill a short list, and a loaded machine reorders near-equal shares (cProfile times by
    # the clock): the enumeration is named by its entry (phases.py play_actions) or by the
    # search it runs (moves.py legal_plays), whichever the run ranks in
    found = hot_paths.profile(case, requests=3, top=24)
    places = [where for _, where in found]
    assert any(where.startswith("engine/games/guandan/")
               and ("(play_actions)" in where or "(legal_plays)" in where)
               for where in places), places
    assert all(0 < share < hot_paths.WRAPPER_SHARE for share, _ in found)
    assert [share for share, _ in found] == sorted((share for share, _ in found), reverse=True)
    assert all(where.startswith(("engine/", "service/")) for where in places)


def test_profile_refuses_a_row_the_service_does_not_answer_as_expected():
    case = _row(payloads.deal_cases(), "deal", "man")
    wrong = payloads.Case(case.group, case.name, case.path, case.bodies, case.service,
                          case.headers, status=422)
    with pytest.raises(SystemExit, match="expected 422"):
        hot_paths.profile(wrong, requests=2)
