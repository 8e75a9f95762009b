"""What each player may see of a game of Manteur."""
from __future__ import annotations

from types import GenericAlias
from typing import Any, Optional

from msgspec import Struct

from engine.state import Cards, Count, Hidden, PlayerId, encode_state, view_of

from .declarations import Declaration, describe
from .state import ManteurCall, ManteurReveal, ManteurState
from .summary import hand_order


class ManteurText(Struct, frozen=True, forbid_unknown_fields=True):
    """A declaration in words, in both languages (`text`, as on the events)."""
    en: str
    ja: str


def _worded(kind: type[Struct], name: str) -> type[Struct]:
    """`kind` with its declaration's `text` added (its words, {en, ja})."""
    from msgspec import defstruct, structs
    return defstruct(name, [(f.name, f.type) for f in structs.fields(kind)]
                     + [("text", ManteurText)], frozen=True, forbid_unknown_fields=True)


ManteurCallView = _worded(ManteurCall, "ManteurCallView")
ManteurRevealView = _worded(ManteurReveal, "ManteurRevealView")

# Never shown to a seat: the seed and its salt (with it a guessable seed is found from the
# commitment).
UNSEEN = ('seed', 'seed_salt')

ManteurView = view_of(ManteurState, "ManteurView", drop=UNSEEN, fields=[
    ("hand", Optional[Cards]),               # null: not the holder's (until revealed, B14)
    ("stock", Hidden),
    ("discard", Hidden),
    ("calls", GenericAlias(tuple, (ManteurCallView, ...))),  # tuple[…, ...] of a run-time type
    ("last_round", Optional[ManteurRevealView]),
    ("stock_count", Count),
    ("discard_count", Count),
    ("hand_count", Count),
    ("viewer", Optional[PlayerId]),          # null: a spectator
], doc="A game of Manteur as one seat (`viewer`) or a spectator (null) may see it")


def _words(d: dict[str, Any]) -> dict[str, Any]:
    m = Declaration(d["type"], tuple(d["ranks"]), tuple(d["kickers"]))
    return {"en": describe(m), "ja": describe(m, "ja")}


def view(s: ManteurState, player: str | None) -> dict[str, Any]:
    """The state as `player` sees it: the hand only by its holder (B15: passed face down)
    until a challenge reveals it (B14; `last_round.hand`, and the final hand once the game is
    over); the declarations with their words and how many cards each holder exchanged; never
    the stock, the face-down discards, or the seed (which fixes every later shuffle)."""
    v = encode_state(s)
    for name in UNSEEN:
        del v[name]
    v["stock"] = None
    v["stock_count"] = len(s.stock)
    v["discard"] = None
    v["discard_count"] = len(s.discard)
    # B14: a challenge that ends the game leaves its hand shown; a game a referee's penalty
    # ends (B19) shows nothing more than it did
    shown = s.phase == "finished" and s.last_round is not None and \
        s.last_round.round == s.round
    # by suit and rank (the state keeps the order the cards came in)
    v["hand"] = hand_order(s.hand) if player == s.holder or shown else None
    v["hand_count"] = len(s.hand)
    for call in v["calls"]:
        call["text"] = _words(call["declaration"])
    if v["last_round"] is not None:
        v["last_round"]["text"] = _words(v["last_round"]["declaration"])
    v["viewer"] = player
    return v
