"""What each player may see of a game of Manteur."""
from __future__ import annotations

from engine.state import encode_state

from .declarations import Declaration, describe
from .state import ManteurState


def _words(d: dict) -> dict:
    m = Declaration(d["type"], tuple(d["ranks"]), tuple(d["kickers"]))
    return {"en": describe(m), "ja": describe(m, "ja")}


def view(s: ManteurState, player: str | None) -> dict:
    """The state as `player` sees it: the hand only by its holder (B15: passed face down)
    until a challenge reveals it (B14; `last_round.hand`, and the final hand once the game is
    over); the declarations with their words and how many cards each holder exchanged; never
    the stock, the face-down discards, or the seed (which fixes every later shuffle)."""
    v = encode_state(s)
    del v["seed"]
    del v["seed_salt"]  # with it, a guessable seed is found from the commitment
    v["stock"] = None
    v["stock_count"] = len(s.stock)
    v["discard"] = None
    v["discard_count"] = len(s.discard)
    if not (player == s.holder or s.phase == "finished"):
        v["hand"] = None
    v["hand_count"] = len(s.hand)
    for call in v["calls"]:
        call["words"] = _words(call["declaration"])
    if v["last_round"] is not None:
        v["last_round"]["words"] = _words(v["last_round"]["declaration"])
    v["viewer"] = player
    return v
