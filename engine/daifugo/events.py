"""The events Daifugo reports (`events` of validate and replay answers), declared once: the
spec publishes one schema per type, and the tests check every emitted event against it."""
from __future__ import annotations

from engine.fields import EventType, Field

from .state import FORMS

_PLAYER = Field("player", "the seat it concerns")
# Outcome.effects (plays.py apply_play): what a play triggered.
EFFECTS = ("spade3_return", "revolution", "jack_back", "eight_cut", "lock_formed",
           "lock_broken", "clear")
CLEAR_REASONS = ("spade3_return", "eight_cut", "double_nine_cut", "strongest", "passes")

EVENTS = (
    EventType("play", "a play on the field", {
        "player": _PLAYER, "cards": Field("cards", "the cards played"),
        "jokers": Field("str_list", "what each joker stands for", required=False),
        "form": Field("enum", "the play's form", choices=FORMS),
        "effects": Field("str_list", "what the play triggered", choices=EFFECTS)}),
    EventType("field_cleared", "the field was cleared", {
        "reason": Field("enum", "why", choices=CLEAR_REASONS),
        "by": Field("player", "who leads next")}),
    EventType("pass_limit", "passes in a row without a play ended the deal (D9, "
              "leader_may_pass); the players left are ranked in a seeded random order", {
        "passes": Field("int", "passes in a row since the last play"),
        "ranked": Field("str_list", "the players left, in the order they are ranked")}),
    EventType("foul_finish", "a player went out with a forbidden finish (反則上がり, D24)", {
        "player": _PLAYER, "reasons": Field("str_list", "the forbidden finishes it made")}),
    EventType("finished", "a player went out", {
        "player": _PLAYER, "position": Field("int", "their place (1st …)")}),
    EventType("miyako_ochi", "the previous daifugo fell (都落ち)", {"player": _PLAYER}),
    EventType("skipped", "a player was skipped", {"player": _PLAYER}),
    EventType("pass", "a player passed", {"player": _PLAYER}),
    EventType("gave", "a player gave cards (7-pass)", {
        "player": _PLAYER, "to": Field("player", "who received them"),
        "count": Field("int", "cards given")}),
    EventType("discarded", "a player discarded cards (10-discard)", {
        "player": _PLAYER, "cards": Field("cards", "the cards discarded")}),
    EventType("exchanged", "a higher-ranked player gave back cards in the exchange", {
        "player": _PLAYER, "to": Field("player", "who received them"),
        "count": Field("int", "cards given")}),
    EventType("deal_over", "the deal ended", {
        "finish_order": Field("str_list", "the finishing order"),
        "titles": Field("object", "each player's title by id (daifugo … daihinmin)")}),
)
