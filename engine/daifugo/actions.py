"""The actions a client posts (beyond `type` and `player`)."""
from __future__ import annotations

from engine.fields import ActionType, Field

ACTIONS = (
    ActionType("play", "Play a single, a set or stairs from the hand (D5, D6).", {
        "cards": Field("cards", "the cards put down"),
        "jokers": Field("str_list", "what each joker stands for, in the order the jokers "
                        "appear in cards: a card (S2), *<rank> for the 5th/6th card of a set, "
                        "<suit>- / <suit>+ below / above the stair order; inferred when only "
                        "one reading is legal (D7)", required=False),
        "jack_back": Field("bool", "declare J-back with a play holding a J (D16, declared)",
                           required=False)}, "D5"),
    ActionType("pass", "Pass (D8); a leader on a clear field must play.", {}, "D8"),
    ActionType("give", "7-pass: give the next player the cards owed (D18).",
               {"cards": Field("cards", "as many cards as 7s played (or all that are left)")},
               "D18"),
    ActionType("discard", "10-discard: discard the cards owed (D19).",
               {"cards": Field("cards", "as many cards as 10s played (or all that are left)")},
               "D19"),
    ActionType("exchange", "Card exchange: the 大富豪 / 富豪 give back cards of their choice "
               "(D11); the tribute of the 大貧民 / 貧民 was taken at the deal.",
               {"cards": Field("cards", "the cards given back")}, "D11"),
)
