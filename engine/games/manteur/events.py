"""The events Manteur reports (`events` of validate and replay answers), declared once: the
spec publishes one schema per type, and the tests check every emitted event against it."""
from __future__ import annotations

from engine.fields import EventType, Field
from engine.state import openapi_schema

from .state import ManteurDeclaration, ManteurProof

_PLAYER = Field("player", "the seat it concerns")
_DECLARATION = Field("object", "the declaration: {type, ranks, kickers}",
                     schema=openapi_schema(ManteurDeclaration))
_WORDS = Field("text", "the declaration in words: {en, ja}")

EVENTS = (
    EventType("declared", "a player declared a hand (B5)", {
        "player": _PLAYER, "declaration": _DECLARATION, "text": _WORDS,
        "exchanged": Field("int", "cards exchanged before declaring"),
        "next": Field("player", "who responds")}),
    EventType("accepted", "a player accepted the declaration and holds the hand", {
        "player": _PLAYER, "from": Field("player", "the declarer")}),
    EventType("reshuffled", "the discards became the stock", {
        "number": Field("int", "the reshuffle's number"),
        "count": Field("int", "cards in the new stock")}),
    EventType("exchanged", "a player exchanged cards with the stock", {
        "player": _PLAYER, "count": Field("int", "cards exchanged")}),
    EventType("challenged", "a declaration was challenged and the hand shown (B10)", {
        "player": _PLAYER, "declarer": Field("player", "who declared"),
        "declaration": _DECLARATION, "text": _WORDS, "hand": Field("cards", "the hand shown"),
        "truthful": Field("bool", "the hand holds the declaration"),
        "proof": Field("object", "the cards that make the declaration", nullable=True,
                       schema=openapi_schema(ManteurProof)),
        "loser": Field("player", "who takes the penalty"),
        "penalties": Field("int", "the loser's penalty points now")}),
    EventType("eliminated", "a player reached the limit (elimination mode)",
              {"player": _PLAYER}),
    EventType("reinstated", "a withdrawn referee's penalty took an eliminated player back "
              "below the limit: in again from the next turn (B22)",
              {"player": _PLAYER, "penalties": Field("int", "the player's penalty points now")}),
    EventType("match_finished", "the game (the whole match of rounds) ended (B17)", {
        "winners": Field("str_list", "who won: the last player left (elimination mode), else "
                         "everyone but the loser"),
        "loser": Field("player", "who reached the limit"),
        "winner": Field("player", "who is left (elimination mode)", nullable=True),
        "penalties": Field("int_map", "penalty points by player id")}),
    EventType("dealt", "a physical round's five cards were entered (B.6)",
              {"player": _PLAYER}),
    EventType("round_started", "a new round was dealt (B16)", {
        "round": Field("int", "the round's number"), "starter": Field("player", "who starts")}),
)
