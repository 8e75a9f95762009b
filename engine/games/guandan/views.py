"""What each seat may see of a Guandan deal: its own hand; the others' card counts only at or
below the D8 threshold (P-6); the table, what was played, the finishing order, the levels;
returns in a double tribute only once all are given (T-9); never the seed."""
from __future__ import annotations

from typing import Any, Optional

from msgspec import Struct

from engine.state import Card, Cards, Count, PlayerId, encode_state, view_of

from .state import TEAMS, GuandanState
from .summary import hand_order


class GuandanTributeView(Struct, frozen=True, forbid_unknown_fields=True):
    """A tribute as a seat sees it: in a double tribute's return phase the card given back
    only by its receiver, and whether it is given (`return_given`, in that phase only)."""
    payer: PlayerId
    card: Optional[Card]
    receiver: Optional[PlayerId]
    returned: Optional[Card]
    return_given: bool = False


# Never shown to a seat: the seed and its salt (with the salt a guessable seed is found from
# the commitment) and the referee's draw standing in for the seed's (D5 random).
UNSEEN = ('seed', 'seed_salt', 'tribute_to_first')

GuandanView = view_of(GuandanState, "GuandanView", drop=UNSEEN, fields=[
    ("hands", dict[str, Optional[Cards]]),   # null: another seat's hand
    ("tributes", tuple[GuandanTributeView, ...]),
    ("hand_counts", dict[str, Optional[Count]]),  # null: above the count threshold (P-6)
    ("teams", dict[str, tuple[PlayerId, ...]]),
    ("viewer", Optional[PlayerId]),          # null: a spectator
], doc="A deal of Guandan as one seat (`viewer`) or a spectator (null) may see it")


def view(s: GuandanState, player: str | None) -> dict[str, Any]:
    v = encode_state(s)
    for name in UNSEEN:
        del v[name]
    threshold = s.options.count_threshold
    # the viewer's hand in the strength order of its level (the state keeps the deal's order)
    v["hands"] = {p: (hand_order(s, h) if p == player else None) for p, h in s.hands.items()}
    v["hand_counts"] = {p: (len(h) if p == player or len(h) <= threshold else None)
                        for p, h in s.hands.items()}
    if s.phase == "return":
        v["tributes"] = [{**t, "returned": t["returned"] if t["receiver"] == player else None,
                          "return_given": t["returned"] is not None} for t in v["tributes"]]
    v["teams"] = {team: [s.players[i], s.players[i + 2]] for i, team in enumerate(TEAMS)}
    v["viewer"] = player
    return v
