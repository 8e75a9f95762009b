"""What the rounds played so far say about each entrant: event points, who met whom, who
partnered whom, who had a bye. Seating reads only these (engine/events/seating.py).

Event points are the standings' (engine/events/standings.py): each table's places from its
record (replayed, once per record: kept by its canonical form) or its reported result, byes
and the director's points penalties, over the rounds before the one being seated.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Sequence

from .format import Round
from .standings import bye_points, event_points, table_places

__all__ = ["History", "bye_points", "event_points", "history", "table_places"]


@dataclass
class History:
    """The rounds so far, as seating needs them."""

    met: dict[str, set[str]] = field(default_factory=dict)       # entrants who shared a table
    partnered: dict[str, set[str]] = field(default_factory=dict)  # players who shared a side
    byes: Counter[str] = field(default_factory=Counter)

    def has_met(self, a: str, b: str) -> bool:
        return b in self.met.get(a, ())

    def have_partnered(self, a: str, b: str) -> bool:
        return b in self.partnered.get(a, ())


def history(rounds: Sequence[Round], sides: Sequence[Sequence[int]]) -> History:
    """Meetings (by entrant), partnerships (by seat id, over the game's sides) and byes."""
    h = History()
    for rnd in rounds:
        h.byes.update(rnd.byes)
        for table in rnd.tables:
            units = {s.entrant for s in table.seats}
            for u in units:
                h.met.setdefault(u, set()).update(units - {u})
            for side in sides:
                if len(side) < 2:
                    continue
                players = {table.seats[i].player for i in side}
                for p in players:
                    h.partnered.setdefault(p, set()).update(players - {p})
    return h
