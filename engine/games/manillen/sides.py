"""Seats, partners, sides and score holders of the three forms.

Seat order is clockwise: seat i+1 sits on seat i's left (A5, A7, A19).
- 4 players (A3): seats 0+2 ("team_0_2") against 1+3 ("team_1_3"); the teams hold the scores.
- 3 players (A34): the dealer alone against a temporary partnership of the other two; every
  player keeps their own score, and each partner records the partnership's score.
- 2 players (A36): each player is a side and holds their own score.
- 6 players (A35): two teams of three seated alternately, seats 0+2+4 ("team_0_2_4") against
  1+3+5 ("team_1_3_5"); the teams hold the scores.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence

TEAMS = {4: ("team_0_2", "team_1_3"), 6: ("team_0_2_4", "team_1_3_5")}
TRICKS = {2: 16, 3: 10, 4: 8, 6: 5}     # tricks in a deal = cards each player plays
PER_SEAT = TRICKS
LEFTOVER = {2: 0, 3: 2, 4: 0, 6: 2}     # cards laid aside face up for the dealer (A34, A35)


def step(options: Any) -> int:
    """The direction of play: +1 clockwise (Belgian, A3), -1 counter-clockwise (the French
    form, A37). Dealing, the first lead, play and the passing of the deal all follow it."""
    return -1 if options.french_form != "none" else 1


def holders(players: Sequence[str]) -> list[str]:
    """Ids that keep a running score (the keys of match.scores and match.booms)."""
    n = len(players)
    return list(TEAMS[n]) if n in TEAMS else list(players)


def holder_members(players: Sequence[str], holder: str) -> list[str]:
    """The players a score holder stands for: a team's seats, else the player itself."""
    teams = TEAMS.get(len(players), ())
    if holder in teams:
        return [p for i, p in enumerate(players) if i % 2 == teams.index(holder)]
    return [holder]


def partners(n: int, dealer: int, seat: int) -> tuple[int, ...]:
    """The seats on `seat`'s side besides itself (A3, A34, A35; none with 2 players)."""
    if n in TEAMS:
        return tuple((seat + k) % n for k in range(2, n, 2))
    if n == 3 and seat != dealer:
        return (3 - seat - dealer,)    # the other non-dealer (seats sum to 0+1+2 = 3)
    return ()


def dealer_side(n: int, dealer: int) -> tuple[int, ...]:
    return (dealer, *partners(n, dealer, dealer))


def other_side(n: int, dealer: int) -> tuple[int, ...]:
    mine = dealer_side(n, dealer)
    return tuple((dealer + k) % n for k in range(1, n) if (dealer + k) % n not in mine)


def sides(players: Sequence[str], dealer: int) -> list[dict[str, Any]]:
    """The two sides of this deal, dealer's side first: id, seats, and score holders."""
    n = len(players)
    mine, theirs = dealer_side(n, dealer), other_side(n, dealer)
    if n in TEAMS:
        def team(seats: Sequence[int]) -> str:
            return TEAMS[n][min(seats) % 2]
        return [{"id": team(mine), "seats": mine, "holders": [team(mine)]},
                {"id": team(theirs), "seats": theirs, "holders": [team(theirs)]}]
    if n == 3:
        return [{"id": "dealer", "seats": mine, "holders": [players[dealer]]},
                {"id": "defenders", "seats": theirs, "holders": [players[s] for s in theirs]}]
    return [{"id": players[s], "seats": (s,), "holders": [players[s]]} for s in (mine + theirs)]


def doubling_candidates(n: int, dealer: int, calls: Sequence[int],
                        options: Any) -> list[int]:
    """Seats that may make the next call, in the order they are asked (_doubling_candidates),
    memoized: a pure function of the table, the calls and the (frozen) options, asked on
    every doubling action."""
    try:
        return list(_doubling_candidates_cached(n, dealer, tuple(calls), options))
    except TypeError:  # options not hashable (a mapping): worked out each time
        return _doubling_candidates(n, dealer, calls, options)


@lru_cache(maxsize=1024)
def _doubling_candidates_cached(n: int, dealer: int, calls: tuple[int, ...],
                                options: Any) -> tuple[int, ...]:
    return tuple(_doubling_candidates(n, dealer, calls, options))


def _doubling_candidates(n: int, dealer: int, calls: Sequence[int],
                         options: Any) -> list[int]:
    """Seats that may make the next call, in the order they are asked.

    A14/A15, M-e, M-d: an even number of calls so far means the non-dealing side may double
    (either opponent, or only the eldest hand), an odd number that the dealer's side may
    redouble (either member, or only the dealer's partner; with 2 or 3 players the dealer is
    the whole side). The side is asked clockwise from the seat after the last caller (at the
    start, from the dealer's left), so the eldest hand is asked first.
    """
    level = len(calls)
    if level % 2 == 0:
        seats = list(other_side(n, dealer))
        if options.double_by == "eldest_only":
            seats = [(dealer + step(options)) % n]
    else:
        seats = list(dealer_side(n, dealer))
        if n in TEAMS and options.redouble_by == "dealer_partner":
            seats = list(partners(n, dealer, dealer))
    start = calls[-1] if calls else dealer
    d = step(options)
    return sorted(seats, key=lambda s: (d * (s - start) - 1) % n)
