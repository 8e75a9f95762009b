"""What each seat may see of a deal of Daifugo: its own hand, every public card (the field's
pile, the discards), other hands as counts; the exchange's cards only to the two seats of a
pair; never the seed
(nor the referee's draw standing in for it)."""
from __future__ import annotations

from typing import Any, Optional

from msgspec import Struct

from engine.state import Cards, Count, PlayerId, encode_state, view_of

from .state import DaifugoState
from .summary import hand_order


class DaifugoExchangeView(Struct, frozen=True, forbid_unknown_fields=True):
    """One pair of the exchange as a seat sees it: the cards only by the pair's two seats."""
    upper: PlayerId
    lower: PlayerId
    count: Count
    tribute: Optional[Cards]          # null: not one of the pair
    returned: Optional[Cards]         # null: not given yet, or not one of the pair
    returned_done: bool


# Never shown to a seat: the seed and its salt (with the salt a guessable seed is found from
# the commitment) and the referee's draw for D9's pass limit, which stands in for the seed's.
UNSEEN = ('seed', 'seed_salt', 'pass_limit_order')

DaifugoView = view_of(DaifugoState, "DaifugoView", drop=UNSEEN, fields=[
    ("hands", dict[str, Optional[Cards]]),   # null: another seat's hand
    ("exchange", tuple[DaifugoExchangeView, ...]),
    ("hand_counts", dict[str, Count]),
    ("viewer", Optional[PlayerId]),          # null: a spectator
], doc="A deal of Daifugo as one seat (`viewer`) or a spectator (null) may see it")


def view(s: DaifugoState, player: str | None) -> dict[str, Any]:
    v = encode_state(s)
    for name in UNSEEN:
        del v[name]
    # the viewer's hand in the strength order of the moment (the state keeps the deal's order)
    v["hands"] = {p: (hand_order(s, h) if p == player else None) for p, h in s.hands.items()}
    v["hand_counts"] = {p: len(h) for p, h in s.hands.items()}
    v["exchange"] = [
        {**e, "tribute": e["tribute"] if player in (e["upper"], e["lower"]) else None,
         "returned": e["returned"] if player in (e["upper"], e["lower"]) else None,
         "returned_done": e["returned"] is not None}
        for e in v["exchange"]]
    v["viewer"] = player
    return v
