"""Options: every **[default]** of the rules page as a named option, plus the two modes of 8.4
and 6.2. Presets bundle them."""
from __future__ import annotations

from engine.fields import Field, Option

OPTIONS = (
    Option("violations", Field("enum", "reject: refuse an illegal action and keep the state "
                               "(front ends); chombo: apply the chombo penalty and end the game "
                               "(referee tools)", choices=("reject", "chombo")), "reject", "8.4"),
    Option("calls", Field("enum", "automatic: the service makes each end-of-turn call; declared: "
                          "every turn-ending action carries the spoken call, checked",
                          choices=("automatic", "declared")), "automatic", "6.2"),
    Option("no_opening_match", Field("enum", "flip_again: the dealer turns more cards until "
                                     "someone can match; dealer_left_starts: the player left of "
                                     "the dealer takes the first turn on the start card",
                                     choices=("flip_again", "dealer_left_starts")),
           "flip_again", "2.5"),
    Option("multi_card_effects", Field("enum", "per_card: two 2s draw 4, two As skip two, two Js "
                                       "reverse twice; once: a group acts as one card",
                                       choices=("per_card", "once")), "per_card", "3.2"),
    Option("penalty_draw_ends_turn", Field("bool", "drawing a pending draw ends the turn"),
           True, "3.8"),
    Option("stock_exhausted", Field("enum", "reshuffle: the discard pile under the top card "
                                    "becomes the stock; draw_game: the game ends drawn",
                                    choices=("reshuffle", "draw_game")), "reshuffle", "3.9"),
)

PRESETS = {
    "standard": {},
    "referee": {"violations": "chombo", "calls": "declared"},
}

DEFAULTS = {o.name: o.default for o in OPTIONS}
