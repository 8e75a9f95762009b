"""What each player may see of a game of Man."""
from __future__ import annotations

from engine.state import encode_state

from .state import ManState


def view(s: ManState, player: str | None) -> dict:
    """The state as `player` sees it: other hands as counts unless public (3.6) or shown
    (5.4); the stock and the seed (which fixes every later shuffle) never."""
    v = encode_state(s)
    del v["seed"]
    del v["seed_salt"]  # with it, a guessable seed is found from the commitment
    v["stock"] = None
    v["stock_count"] = len(s.stock)
    v["hands"] = {p: (list(h) if p == player or s.public[p] or s.shown[p] else None)
                  for p, h in s.hands.items()}
    v["hand_counts"] = {p: len(h) for p, h in s.hands.items()}
    if player is None or player != s.turn:
        v["drawn_cards"] = None
    v["viewer"] = player
    return v
