"""Options: the project defaults (the seed's game) and every row B-a … B-h of the rules page's
option table (docs/rules/manteur.md B.5; B-i has no option). The declaration rows feed
`DeclarationRules`; B-d, B-e, B-g and B-h are rules of the round machine (phases.py)."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

import msgspec

from engine.fields import Field, Option

from .declarations import DECKS, MIN_DECLARATIONS, DeclarationRules

OPTIONS = (
    Option("deck", Field("enum", "standard52: 52 cards, A high to 2; piquet32: 7 to A only",
                         choices=DECKS), "standard52", "B-a"),
    Option("jokers", Field("int", "wild jokers added to the deck (0 bars five of a kind)",
                           minimum=0, maximum=2), 2, "B-a"),
    Option("flush_above_full_house", Field(
        "bool", "flush ranks above full house; null: exactly with the piquet32 deck",
        nullable=True), None, "B-a"),
    Option("allow_straights", Field("bool", "straights (and straight flushes) may be declared"),
           True, "B-b"),
    Option("allow_flushes", Field("bool", "flushes (and straight flushes) may be declared"),
           True, "B-b"),
    Option("min_declaration", Field("enum", "the lowest hand type that may be declared",
                                    choices=MIN_DECLARATIONS), "high_card", "B-c"),
    Option("opener_may_exchange", Field("bool", "the round's first player may exchange 0-4 "
                                        "cards before declaring"), False, "B-d"),
    Option("next_round_starter", Field("enum", "loser: the player who took the penalty point "
                                       "starts the next round; next_player: the player after "
                                       "the last round's starter",
                                       choices=("loser", "next_player")), "loser", "B-e"),
    Option("ace_low_straight", Field("bool", "5-4-3-2-A (piquet: 10-9-8-7-A) is the lowest "
                                     "straight"), True, "B-f"),
    Option("penalty_limit", Field("int", "penalty points at which a player loses (penalty) "
                                  "or is out (elimination)", minimum=1, maximum=99), 5, "B-g"),
    Option("mode", Field("enum", "penalty: the game ends when a player reaches the limit, who "
                         "loses; elimination: that player is out, the last one in wins",
                         choices=("penalty", "elimination")), "penalty", "B-g"),
    Option("direction", Field("enum", "cw: the next player is the next id in seat order; ccw: "
                              "the previous one", choices=("cw", "ccw")), "cw", "B-h"),
)

PRESETS = {
    "standard": {},
    # B-a: the French 32-card game (flush above full house follows the deck).
    "piquet": {"deck": "piquet32"},
    # B-b, B-d, B-e, B-g, B-h: the jeu-casino.com variant.
    "jeu_casino": {"allow_straights": False, "allow_flushes": False,
                   "opener_may_exchange": True, "next_round_starter": "next_player",
                   "mode": "elimination", "direction": "ccw"},
}

DEFAULTS = {o.name: o.default for o in OPTIONS}


@lru_cache(maxsize=64)
def rules_of(options: Any) -> DeclarationRules:
    """The DeclarationRules of a state's options (a frozen, hashable Struct)."""
    return DeclarationRules.from_options(msgspec.structs.asdict(options), "state.options")
