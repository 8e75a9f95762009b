"""The running match and what a finished Manillen deal decided, declared once like the state
that carries it (`result` in engine/games/manillen/state.py; computed by scoring.settle)."""
from __future__ import annotations

from typing import Annotated, Optional

from msgspec import Meta, Struct

from engine.state import MAX_SAFE_INT, Count, Int, PlayerId

Multiplier = Annotated[int, Meta(ge=1, le=MAX_SAFE_INT)]
_PART = {"frozen": True, "forbid_unknown_fields": True}


class ManillenMatch(Struct, **_PART):
    """The running match as this deal began (`match`), or as the next one begins."""
    # per score holder: the teams (4, 6 players), else the players; below 0 only by a
    # referee's penalties (A41)
    scores: dict[str, Int]
    booms: dict[str, Count]
    carry: Multiplier                 # from 30–30 ties (A29, M-j)
    deal_number: Count                # picks the shuffle stream
    dealer: PlayerId


class ManillenSide(Struct, **_PART):
    id: str                           # a team, "dealer" or "defenders" (3 players), a player
    members: tuple[PlayerId, ...]
    card_points: Count
    tricks: Count
    points: Count                     # card points and trick bonus (M-k)
    score: Count


class ManillenFactors(Struct, **_PART):
    no_trump: Multiplier
    doubling: Multiplier
    carry: Multiplier


class ManillenBoom(Struct, **_PART):
    winner: str
    scores: dict[str, Int]


class ManillenResult(Struct, **_PART):
    """What the finished deal decided (docs/rules/manillen.md)."""
    thrown_in: bool
    sides: tuple[ManillenSide, ...]
    multiplier: Optional[Multiplier]
    factors: Optional[ManillenFactors]
    capped: bool
    threshold: Count                  # what a side must pass to score (A28, M-k)
    tie: bool
    deltas: dict[str, Count]
    scores: dict[str, Int]
    boom: Optional[ManillenBoom]
    match_over: bool
    match_winner: Optional[str]
