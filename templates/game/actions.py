"""The actions a client posts (beyond `type` and `player`): their shape only. Whether one is
legal now is phases.apply's business."""
from __future__ import annotations

from engine.fields import ActionType, Field

ACTIONS = (
    ActionType("play", "Play one card from your hand to the round (2.1).",
               "手札から1枚を場に出す(2.1)。",
               {"card": Field("card", "the card played", "出すカード")}, "2.1"),
    ActionType("pass", "Play no card this round (2.3).", "このラウンドはカードを出さない(2.3)。",
               {}, "2.3"),
)
