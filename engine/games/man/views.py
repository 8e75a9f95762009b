"""What each player may see of a game of Man."""
from __future__ import annotations

from typing import Any, Optional

from engine.state import Cards, Count, Hidden, PlayerId, encode_state, view_of

from .state import ManState
from .summary import hand_order

# The view, declared once: the state as a seat sees it (published as `ManView`).
# Never shown to a seat: the seed (it fixes every later shuffle) and its salt (with it a
# guessable seed is found from the commitment).
UNSEEN = ('seed', 'seed_salt')

ManView = view_of(ManState, "ManView", drop=UNSEEN, fields=[
    ("stock", Hidden),
    ("hands", dict[str, Optional[Cards]]),   # null: a hand the viewer may not see
    ("drawn_cards", Optional[Cards]),        # null but for the player on turn
    ("stock_count", Count),
    ("hand_counts", dict[str, Count]),
    ("viewer", Optional[PlayerId]),          # null: a spectator
], doc="A game of Man as one seat (`viewer`) or a spectator (null) may see it")


def view(s: ManState, player: str | None) -> dict[str, Any]:
    """The state as `player` sees it: other hands as counts unless public (3.6) or shown
    (5.4); the stock and the seed (which fixes every later shuffle) never."""
    v = encode_state(s)
    for name in UNSEEN:
        del v[name]
    v["stock"] = None
    v["stock_count"] = len(s.stock)
    # hands by suit and number (the state keeps the order they were dealt and drawn in)
    v["hands"] = {p: (hand_order(h) if p == player or s.public[p] or s.shown[p] else None)
                  for p, h in s.hands.items()}
    v["hand_counts"] = {p: len(h) for p, h in s.hands.items()}
    if player is None or player != s.turn:
        v["drawn_cards"] = None
    v["viewer"] = player
    return v
