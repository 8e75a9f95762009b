"""The events Manillen reports (`events` of validate and replay answers), declared once: the
spec publishes one schema per type, and the tests check every emitted event against it."""
from __future__ import annotations

from engine.fields import EventType, Field
from engine.state import openapi_schema

from .result import ManillenFactors, ManillenSide
from .state import TRUMPS

_PLAYER = Field("player", "the seat it concerns")
_MULTIPLIER = Field("int", "the deal's multiplier now")

EVENTS = (
    EventType("hand_looked_at", "the trump chooser looked at their hand (blind play declined)",
              {"player": _PLAYER}),
    EventType("trump_named", "trumps were named", {
        "player": _PLAYER, "trump": Field("enum", "the trump suit, or no_trump", choices=TRUMPS),
        "blind": Field("bool", "named blind, before looking"), "multiplier": _MULTIPLIER}),
    EventType("trump_choice_passed", "the choice of trumps passed to the partner", {
        "player": _PLAYER, "to": Field("player", "who names trumps")}),
    EventType("thrown_in", "the deal was thrown in (a peek reported)", {
        "player": _PLAYER, "next_dealer": Field("player", "who deals next")}),
    EventType("spoke", "a signal to the partner (French parlée form, A37)", {
        "player": _PLAYER, "to": Field("player", "who plays next"),
        "says": Field("enum", "the signal", choices=("take", "leave"))}),
    EventType("passed", "a player did not double", {"player": _PLAYER}),
    EventType("doubled", "a player doubled or redoubled", {
        "player": _PLAYER, "call": Field("enum", "the call", choices=("double", "redouble")),
        "calls": Field("int", "doubling calls so far"), "multiplier": _MULTIPLIER}),
    EventType("doubling_ended", "doubling is over; play starts", {
        "multiplier": _MULTIPLIER, "calls": Field("int", "doubling calls made")}),
    EventType("played", "a card played to the trick", {
        "player": _PLAYER, "cards": Field("cards", "the card played (always one)")}),
    EventType("trick_won", "a trick was won", {
        "player": Field("player", "who won it"), "trick": Field("int", "the trick's number"),
        "cards": Field("cards", "the trick's cards"), "points": Field("int", "its card points")}),
    EventType("deal_finished", "the deal ended and was scored", {
        "sides": Field("object_list", "each side: id, members, card_points, tricks, points, score",
                       schema=openapi_schema(ManillenSide)),
        "multiplier": Field("int", "the deal's multiplier", nullable=True),
        "factors": Field("object", "what made the multiplier", nullable=True,
                         schema=openapi_schema(ManillenFactors)),
        "capped": Field("bool", "the multiplier was capped"),
        "tie": Field("bool", "a 30–30 tie (its multiplier carries)"),
        "scores": Field("int_map", "running scores by score holder"),
        "next_carry": Field("int", "the multiplier carried to the next deal")}),
    EventType("boom_reached", "a score holder passed the boom total", {
        "winner": Field("str", "the score holder"),
        "scores": Field("int_map", "scores after the boom")}),
    EventType("match_finished", "the match ended", {
        "winner": Field("str", "the score holder who won"),
        "winners": Field("str_list", "the players who won the match (the holder's members)"),
        "booms": Field("int_map", "booms won by score holder")}),
)
