"""What the rounds played so far say about each entrant: event points, who met whom, who
partnered whom, who had a bye. Seating reads only these (engine/events/seating.py).

Event points are a seam: the standings (a later slice, docs/events.md) will rank a table's
entrants from its match record; until then only results that carry places count (a reported
result's `places`), with byes and the director's points penalties. A table whose result is a
record, or that has no result yet, gives its entrants 0.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Sequence

from .format import Event, Round, Table


def bye_points(event: Event) -> int:
    """A bye scores `system.bye_points`, or by default 1st place's event points."""
    s = event.system
    return s.event_points[0] if s.bye_points is None else s.bye_points


def table_places(table: Table) -> dict[str, int] | None:
    """The place of each entrant at a table, where its result carries them: a reported
    result's places. A record's places come with the standings (not built yet): None."""
    if table.result is not None and table.result.reported is not None:
        return dict(table.result.reported.places)
    return None


def event_points(event: Event, rounds: Sequence[Round]) -> dict[str, int]:
    """Each entrant's event points after `rounds` (the first rounds of the event): places
    scored by `system.event_points`, byes by bye_points, less the director's points penalties
    given in those rounds."""
    scale = event.system.event_points
    points = {e.id: 0 for e in event.entrants}
    for rnd in rounds:
        for unit in rnd.byes:
            points[unit] += bye_points(event)
        for table in rnd.tables:
            for unit, place in (table_places(table) or {}).items():
                points[unit] += scale[place - 1] if place <= len(scale) else 0
    for p in event.penalties:
        if p.kind == "points" and p.round <= len(rounds):
            points[p.entrant] -= p.points
    return points


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
