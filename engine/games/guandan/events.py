"""The events Guandan reports (`events` of validate and replay answers), declared once: the
spec publishes one schema per type, and the tests check every emitted event against it."""
from __future__ import annotations

from engine.fields import EventType, Field
from engine.state import openapi_schema

from .state import FINISHES, LEVELS, TEAMS, GuandanReading

_PLAYER = Field("player", "the seat it concerns")
_TEAM = Field("enum", "a team id (team1: seats 0 and 2, team2: seats 1 and 3)",
              choices=TEAMS)

EVENTS = (
    EventType("played", "a combination played (P)", {
        "player": _PLAYER, "cards": Field("cards", "the cards played"),
        "reading": Field("object", "the combination as read (type, rank, wild cards' stand-ins)",
                         schema=openapi_schema(GuandanReading))}),
    EventType("went_out", "a player played their last card", {
        "player": _PLAYER, "place": Field("int", "their place (1st …)")}),
    EventType("count_announced", "a player's count announced (count_disclosure=announce)", {
        "player": _PLAYER, "count": Field("int", "cards left")}),
    EventType("passed", "a player passed", {"player": _PLAYER}),
    EventType("jiefeng", "the lead passes to the partner of a player out (P-5)", {
        "from": Field("player", "the player out who won the trick"),
        "leader": Field("player", "who leads")}),
    EventType("trick_won", "every other player passed (P-4)", {
        "player": Field("player", "who won the trick"), "leader": Field("player", "who leads")}),
    EventType("tribute_received", "a tribute card went to its receiver (T)", {
        "payer": Field("player", "who paid"), "receiver": Field("player", "who receives"),
        "card": Field("card", "the card")}),
    EventType("tribute_paid", "a player paid tribute (T-2)", {
        "payer": Field("player", "who paid"), "card": Field("card", "the card")}),
    EventType("tribute_taken", "a receiver chose a tribute (equal tributes)", {
        "player": Field("player", "who chose"), "payer": Field("player", "whose tribute")}),
    EventType("return_given", "a receiver gave their return card (T-9: shown together)",
              {"player": _PLAYER}),
    EventType("returned", "a return card went back to its payer (T-9)", {
        "player": Field("player", "who returned it"), "to": Field("player", "the payer"),
        "card": Field("card", "the card")}),
    EventType("first_leader_named", "who leads the deal's first trick", {"player": _PLAYER}),
    EventType("anti_tribute_claimed", "a player claimed anti-tribute (T-5)", {
        "player": _PLAYER, "leader": Field("player", "who leads")}),
    EventType("anti_tribute_failed", "an anti-tribute claim failed: the paying side does not "
              "hold both big jokers; the tribute goes on (T-6, D14 optional)", {
                  "player": Field("player", "who claimed")}),
    EventType("lead_type_barred", "referee mode, R-3: after an out-of-turn play the partner "
              "may not lead its combination types in the next round", {
                  "player": Field("player", "the partner barred"),
                  "offender": Field("player", "who played out of turn"),
                  "types": Field("str_list", "the combination types barred")}),
    EventType("hand_voided", "referee mode, R-6: a wrong tribute found after play began; the "
              "payer's hand is void and ranks last", {
                  "player": _PLAYER,
                  "reason": Field("str", "what happened (absent: not given)", required=False)}),
    EventType("deal_forfeited", "referee mode, R-7: a team lost the deal for signalling", {
        "player": Field("player", "who signalled"), "team": _TEAM,
        "reason": Field("str", "what happened (absent: not given)", required=False)}),
    EventType("deal_finished", "the deal ended (L)", {
        "team": _TEAM, "finish": Field("enum", "the finish", choices=FINISHES),
        "order": Field("str_list", "the finishing order")}),
    EventType("match_finished", "the match ended (S)", {
        "team": _TEAM, "winners": Field("str_list", "the players who won the match (the team)")}),
    EventType("a_level_failed", "a failure as declarer at A (S-5)", {
        "team": _TEAM, "failures": Field("int", "failures so far")}),
    EventType("demoted", "a team's level dropped (S-5)", {
        "team": _TEAM, "reason": Field("enum", "why", choices=("a_failures", "ace_demotion")),
        "to": Field("enum", "the new level", choices=LEVELS)}),
)
