"""What each seat may see of a Guandan deal: its own hand; the others' card counts only at or
below the D8 threshold (P-6); the table, what was played, the finishing order, the levels;
returns in a double tribute only once all are given (T-9); never the seed."""
from __future__ import annotations

from engine.state import encode_state

from .phases import to_act
from .state import TEAMS, GuandanState


def view(s: GuandanState, player: str | None) -> dict:
    v = encode_state(s)
    del v["seed"]
    del v["seed_salt"]  # with it, a guessable seed is found from the commitment
    del v["tribute_to_first"]  # the referee's draw standing in for the seed's (D5 random)
    threshold = s.options.count_threshold
    v["hands"] = {p: (list(h) if p == player else None) for p, h in s.hands.items()}
    v["hand_counts"] = {p: (len(h) if p == player or len(h) <= threshold else None)
                        for p, h in s.hands.items()}
    if s.phase == "return":
        v["tributes"] = [{**t, "returned": t["returned"] if t["receiver"] == player else None,
                          "return_given": t["returned"] is not None} for t in v["tributes"]]
    v["teams"] = {team: [s.players[i], s.players[i + 2]] for i, team in enumerate(TEAMS)}
    v["to_act"] = to_act(s)
    v["viewer"] = player
    return v
