"""The actions a client posts (beyond `type` and `player`)."""
from __future__ import annotations

from engine.fields import ActionType, Field

ACTIONS = (
    ActionType("play", "Play a combination or a bomb (leading or following).", {
        "cards": Field("cards", "the cards played, from the hand"),
        "reading": Field("object", "the declared reading {type, rank, length?, wilds?} (W-11): "
                         "required when the cards have several legal readings",
                         required=False)}, "P-2"),
    ActionType("pass", "Pass this turn (never when leading); a player who passed may play "
               "later in the same trick.", {}, "P-3"),
    ActionType("tribute", "Pay tribute: the highest card apart from the wilds.", {
        "card": Field("card", "the tribute card")}, "T-4"),
    ActionType("take", "Equal double tributes with equal_tribute=winners_choose: the 1st "
               "player takes the tribute of one payer; the 2nd gets the other.", {
                   "payer": Field("player", "whose tribute the 1st player takes")}, "T-5"),
    ActionType("return", "Give a card back to the player who paid you tribute.", {
        "card": Field("card", "the card returned")}, "T-7"),
    ActionType("lead", "Equal double tributes with equal_tribute=winners_choose: the two payers "
               "agree who leads; either posts it.", {
                   "leader": Field("player", "one of the two payers")}, "T-10"),
    ActionType("anti_tribute", "Claim anti-tribute (anti_tribute=optional): the paying side "
               "shows both big jokers and no tribute is paid.", {}, "T-6"),
)
