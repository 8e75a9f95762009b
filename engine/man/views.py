"""What each player may see of a game of Man."""
from __future__ import annotations

from .state import ManState, encode


def view(s: ManState, player: str | None) -> dict:
    """The state as `player` sees it: other hands as counts unless public (3.6) or shown
    (5.4); the stock and the seed (which fixes every later shuffle) never."""
    v = encode(s)
    seat = None if player is None else s.players.index(player)
    del v["seed"]
    v["stock"] = None
    v["stock_count"] = len(s.stock)
    v["hands"] = {p: (list(h) if i == seat or s.public[i] or s.shown[i] else None)
                  for i, (p, h) in enumerate(zip(s.players, s.hands))}
    v["hand_counts"] = {p: len(h) for p, h in zip(s.players, s.hands)}
    if seat is None or seat != s.turn:
        v["drawn_cards"] = None
    v["viewer"] = player
    return v
