"""Event documents for the tests: a small builder and a hypothesis strategy of random events
(any game of the registry, table sizes it takes, partners as the game has them, late entries,
withdrawals, entrants not checked in)."""
from __future__ import annotations

import functools
from typing import Any

from hypothesis import strategies as st

from engine import registry
from engine.events.format import MAX_TABLE, MIN_TABLE, InvalidEvent, parse_event


def event(entrants: int = 8, *, game: str = "daifugo", table_size: int = 4,
          partners: str = "none", rounds: int = 6, **system: Any) -> dict[str, Any]:
    if partners == "fixed":
        side = len(registry.get(game).partnerships[table_size][0])
        people = [{"id": f"t{i}", "name": f"Team {i}",
                   "members": [{"id": f"t{i}m{j}", "name": f"M{j}"} for j in range(side)]}
                  for i in range(entrants)]
    else:
        people = [{"id": f"p{i}", "name": f"Player {i}"} for i in range(entrants)]
    return {"format": "card-referee/event", "format_version": 1, "name": "Test Open",
            "system": {"game": game, "table_size": table_size, "rounds": rounds,
                       "round_end": {"kind": "deals", "deals": 4},
                       "event_points": [3, 2, 1, 0], "partners": partners, **system},
            "entrants": people}


@functools.cache
def layouts() -> list[tuple[str, int, str]]:
    """(game, table size, partners) for every table size of every game an event can seat."""
    out = []
    for game in registry.all_games():
        for n in range(max(MIN_TABLE, game.min_players), min(MAX_TABLE, game.max_players) + 1):
            kinds = ["fixed", "rotating"] if n in game.partnerships else ["none"]
            for partners in kinds:
                try:
                    parse_event(event(8, game=game.id, table_size=n, partners=partners))
                except InvalidEvent:
                    continue  # a size the game does not deal (Manillen's five)
                out.append((game.id, n, partners))
    return out


@st.composite
def random_events(draw: Any, max_entrants: int = 20) -> dict[str, Any]:
    game, size, partners = draw(st.sampled_from(layouts()))
    per_table = size // (len(registry.get(game).partnerships[size][0])
                         if partners == "fixed" else 1)
    count = draw(st.integers(per_table + 1, max(per_table + 1, max_entrants)))
    ev = event(count, game=game, table_size=size, partners=partners,
               seating=draw(st.sampled_from(["swiss", "random"])))
    for entrant in ev["entrants"][per_table:]:  # never fewer than a table
        change = draw(st.sampled_from(["", "", "", "late", "withdrawn", "not_checked_in"]))
        if change == "late":
            entrant["entered_round"] = draw(st.integers(2, 4))
        elif change == "withdrawn":
            entrant["withdrawn_round"] = draw(st.integers(2, 5))
        elif change == "not_checked_in":
            entrant["checked_in"] = False
    return ev
