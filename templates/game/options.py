"""The game's id and its options (rules.md, option row T-a).

GAME_ID is the package's name: the registry requires a game's id to be its package's name
(engine/registry.py), so the template takes it from where it was copied to."""
from __future__ import annotations

from engine.fields import Field, Option

GAME_ID = __name__.rsplit(".", 2)[-2]  # engine.games.<id>.options -> <id>

OPTIONS = (
    Option("hand_size", Field("int", "cards dealt to each player", "各プレイヤーに配る枚数",
                              minimum=1, maximum=5), 3, "T-a"),
)

PRESETS = {
    "standard": {},
    "quick": {"hand_size": 1},  # one round a deal
}

DEFAULTS = {o.name: o.default for o in OPTIONS}
