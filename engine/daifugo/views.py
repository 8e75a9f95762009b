"""What each seat may see of a deal of Daifugo: its own hand, every public card (the field's
pile, the discards), other hands as counts; the exchange's cards only to the two seats of a
pair; never the seed
(nor the referee's draw standing in for it)."""
from __future__ import annotations

from engine.state import encode_state

from .state import DaifugoState


def view(s: DaifugoState, player: str | None) -> dict:
    v = encode_state(s)
    del v["seed"]
    del v["seed_salt"]  # with it, a guessable seed is found from the commitment
    del v["pass_limit_order"]  # the referee's draw for D9's pass limit, like the seed's
    v["hands"] = {p: (list(h) if p == player else None) for p, h in s.hands.items()}
    v["hand_counts"] = {p: len(h) for p, h in s.hands.items()}
    v["exchange"] = [
        {**e, "tribute": e["tribute"] if player in (e["upper"], e["lower"]) else None,
         "returned": e["returned"] if player in (e["upper"], e["lower"]) else None,
         "returned_done": e["returned"] is not None}
        for e in v["exchange"]]
    v["viewer"] = player
    return v
