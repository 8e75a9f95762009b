"""The events Man reports (`events` of validate and replay answers), declared once: the spec
publishes one schema per type, and the tests check every emitted event against it."""
from __future__ import annotations

from engine.fields import EventType, Field

_PLAYER = Field("player", "the seat it concerns")
_CARDS = Field("cards", "cards, canonical")
_TEXT = Field("text", "the words for people: {en, ja}")
_WINNERS = Field("str_list", "the players who won the match")

EVENTS = (
    EventType("start_cards_turned", "the dealer turned effect start cards over (2.3, 2.6)",
              {"player": _PLAYER, "cards": Field("cards", "the cards turned")}),
    EventType("called", "an end-of-turn call, made by the service or declared (6)", {
        "player": _PLAYER,
        "code": Field("str", "the call's code (reach, man …)"),
        "text": Field("text", "the call as spoken: {en, ja} (Japanese is how it is said at the "
                      "table)"),
        "suit": Field("suit", "the suit named with it", required=False),
        "deal": Field("bool", "a call made on the deal (2.2)", required=False)}),
    EventType("played", "cards played on the discard pile (3)", {
        "player": _PLAYER, "cards": _CARDS,
        "suit": Field("suit", "the suit named with an 8", required=False),
        "opening": Field("bool", "a play of the opening race (2.5)", required=False),
        "pending_draw": Field("int", "cards the next player must draw (3.8)"),
        "skipped": Field("int", "players skipped"),
        "direction": Field("int", "the direction of play after it (1 or -1)")}),
    EventType("reshuffled", "the discard pile became the stock (3.9)", {
        "number": Field("int", "the reshuffle's number in this game"),
        "count": Field("int", "cards in the new stock")}),
    EventType("deal_drawn", "the game (one deal) ended drawn (3.9)",
              {"reason": Field("enum", "why", choices=("stock_exhausted",))}),
    EventType("drew", "a player drew", {
        "player": _PLAYER, "count": Field("int", "cards drawn"),
        "penalty": Field("bool", "a pending draw was taken (3.8)")}),
    EventType("passed", "a player passed (3.4)", {
        "player": _PLAYER, "pending_draw": Field("int", "the pending draw left")}),
    EventType("man_called", "a man call (4, 5)", {
        "player": _PLAYER, "against": Field("player", "whose card was manned"),
        "card": Field("card", "the card manned"), "number": Field("int", "the man number"),
        "kinds": Field("str_list", "the kinds of man made"),
        "multiplier": Field("int", "the stake multiplier"),
        "name": Field("str", "the call's name"), "hand": Field("cards", "the caller's hand")}),
    EventType("kaeshi_called", "a man call answering a man call (5.6)", {
        "player": _PLAYER, "against": Field("player", "whose card was manned"),
        "card": Field("card", "the card manned"), "number": Field("int", "the man number"),
        "kinds": Field("str_list", "the kinds of man made"),
        "multiplier": Field("int", "the stake multiplier"),
        "name": Field("str", "the call's name"), "hand": Field("cards", "the caller's hand")}),
    EventType("declined", "a player declined to man (5.4)", {"player": _PLAYER}),
    EventType("stake_won", "a man call won the game (one deal) and its stake (4, 7)", {
        "winner": Field("player", "the winner"), "loser": Field("player", "who pays"),
        "stake": Field("int", "the stake"), "reason": Field("str", "why")}),
    EventType("penalized", "a chombo ended the game (8)", {
        "player": Field("player", "who broke the rule"),
        "rule": Field("str", "the rule broken"), "code": Field("str", "the refusal code"),
        "text": _TEXT,
        "reported_by": Field("player", "who reported it", required=False)}),
    EventType("deal_finished", "the game (one deal) ended (7.1)", {
        "result": Field("enum", "how it ended", choices=("man", "chombo", "draw")),
        "next_dealer": Field("player", "who deals next"),
        "totals": Field("int_map", "running totals by player id")}),
    EventType("match_finished", "the match ended (7.2)", {
        "winner": Field("player", "the match's winner"), "winners": _WINNERS,
        "totals": Field("int_map", "running totals by player id"),
        "games_played": Field("int", "games played")}),
)
