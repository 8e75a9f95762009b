"""What a seat of Manillen may see (ManillenGame.view builds it), declared once: published as
`ManillenView`, and every view of random deals is checked against it."""
from __future__ import annotations

from typing import Annotated, Any, Literal, Optional

from msgspec import Meta, Struct

from engine.state import Count, PlayerId, view_struct

from .result import ManillenMatch, ManillenResult, Multiplier
from .state import PHASES, TRUMPS, Card, Cards, ManillenCut, ManillenDoubling

_PART = {"frozen": True, "forbid_unknown_fields": True}


class ManillenPileView(Struct, **_PART):
    """A table pile (A36): its face-up card (null once taken) and whether one lies under it."""
    up: Optional[Card]
    down: bool


class ManillenSide(Struct, **_PART):
    id: str
    members: tuple[PlayerId, ...]


class ManillenSeatedCard(Struct, **_PART):
    player: PlayerId
    card: Card


class ManillenTrickView(Struct, **_PART):
    leader: PlayerId
    cards: tuple[ManillenSeatedCard, ...]


class ManillenLastTrickView(Struct, **_PART):
    leader: PlayerId
    cards: tuple[ManillenSeatedCard, ...]
    winner: PlayerId


# The viewer's legal actions, each as /v1/validate takes it: the spec types the items as the
# game's own `Action` union (service/schemas.py reads this mark).
LegalActions = Annotated[tuple[dict[str, Any], ...], Meta(
    description="the viewer's legal actions now (none for a spectator)",
    extra_json_schema={"x-game-actions": True})]

ManillenView = view_struct("manillen", "ManillenView", [
    ("players", tuple[PlayerId, ...]),
    ("seat", Optional[PlayerId]),            # null: a spectator
    ("phase", Literal[PHASES]),
    ("status", Literal["in_progress", "finished"]),
    ("dealer", PlayerId),
    ("cut", tuple[ManillenCut, ...]),
    ("to_act", tuple[PlayerId, ...]),
    ("trump", Optional[Literal[TRUMPS]]),
    ("blind", bool),
    ("trump_passed", bool),
    ("turned", Optional[Card]),
    ("doubling", ManillenDoubling),
    ("multiplier", Multiplier),
    ("hand", Optional[Cards]),               # null: a spectator, or hidden (A8, A11)
    ("hand_hidden", bool),
    ("hand_counts", dict[str, Count]),
    ("table", Optional[dict[str, tuple[ManillenPileView, ...]]]),
    ("leftover", Cards),
    ("sides", tuple[ManillenSide, ...]),
    ("trick", Optional[ManillenTrickView]),
    ("last_trick", Optional[ManillenLastTrickView]),
    ("tricks_won", dict[str, Count]),
    ("match", ManillenMatch),
    ("thrown_in", bool),
    ("revoked_by", Optional[PlayerId]),      # A39: whose revoke lost the deal (referee mode)
    ("result", Optional[ManillenResult]),
    ("next_match", Optional[ManillenMatch]),
    ("next_dealer", Optional[PlayerId]),
    ("legal_actions", LegalActions),
], doc="A deal of Manillen as one seat (`seat`) or a spectator (null) may see it: no "
       "captured cards, only the current and the last trick (A27)")
