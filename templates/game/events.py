"""The events the game reports (`events` of validate and replay answers), declared once: the
spec publishes one schema per type, and the tests check every emitted event against it."""
from __future__ import annotations

from engine.fields import EventType, Field

_PLAYER = Field("player", "the seat it concerns")

EVENTS = (
    # the names and fields every game gives the same thing (docs/integrating.md "Events")
    EventType("played", "a player played a card (2.1)",
              {"player": _PLAYER, "cards": Field("cards", "the card played")}),
    EventType("passed", "a player passed (2.3)", {"player": _PLAYER}),
    EventType("round_won", "a round ended (3.1)", {
        "round": Field("int", "the round's number"),
        "player": Field("player", "who won it; null: no card was played", nullable=True),
        "card": Field("card", "the winning card", nullable=True)}),
    EventType("deal_finished", "the deal ended (3.3)",
              {"points": Field("int_map", "rounds won, by player id")}),
)
