"""What each seat (or a spectator) may see: its own hand, the others' as counts."""
from __future__ import annotations

from typing import Any, Optional

from engine.state import Cards, Count, Hidden, PlayerId, encode_state, view_of

from .state import PREFIX, State

# Never shown to a seat: the seed (it fixes the deal) and its salt (with it a guessable seed
# is found from the commitment).
UNSEEN = ("seed", "seed_salt")

View = view_of(State, f"{PREFIX}View", drop=UNSEEN, fields=[
    ("stock", Hidden),                       # always null: face down (1.2)
    ("hands", dict[str, Optional[Cards]]),   # null: a hand the viewer may not see
    ("stock_count", Count),
    ("hand_counts", dict[str, Count]),
    ("viewer", Optional[PlayerId]),          # null: a spectator
], doc="A deal as one seat (`viewer`) or a spectator (null) may see it")


def view(s: State, player: str | None) -> dict[str, Any]:
    """The state as `player` sees it: the viewer's own hand, every other as a count; the stock
    and the seed never."""
    v = encode_state(s)
    for name in UNSEEN:
        del v[name]
    v["stock"] = None
    v["stock_count"] = len(s.stock)
    v["hands"] = {p: (list(h) if p == player else None) for p, h in s.hands.items()}
    v["hand_counts"] = {p: len(h) for p, h in s.hands.items()}
    v["viewer"] = player
    return v
