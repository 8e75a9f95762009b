"""The events Daifugo reports (`events` of validate and replay answers), declared once: the
spec publishes one schema per type, and the tests check every emitted event against it."""
from __future__ import annotations

from engine.fields import EventType, Field
from engine.schema import by_key

from .state import FORMS, TITLES

_PLAYER = Field("player", "the seat it concerns")
# Outcome.effects (plays.py apply_play): what a play triggered.
EFFECTS = ("spade3_return", "revolution", "jack_back", "eight_cut", "lock_formed",
           "lock_broken", "clear")
# D24: the words of a foul finish's penalty (ranked last), like every event text {en, ja}.
FOUL_FINISH_TEXT = {"en": "A forbidden finish: ranked last among those still in (D24).",
                    "ja": "反則上がり:残っている人の中で最下位になります(D24)。"}
CLEAR_REASONS = ("spade3_return", "eight_cut", "double_nine_cut", "strongest", "passes")

EVENTS = (
    EventType("played", "a play on the field", {
        "player": _PLAYER, "cards": Field("cards", "the cards played"),
        "jokers": Field("str_list", "what each joker stands for", required=False),
        "form": Field("enum", "the play's form", choices=FORMS),
        "effects": Field("str_list", "what the play triggered", choices=EFFECTS)}),
    EventType("field_cleared", "the field was cleared", {
        "reason": Field("enum", "why", choices=CLEAR_REASONS),
        "by": Field("player", "who leads next: the last player, or the next player still in "
                    "when the last player has gone out (U5)")}),
    EventType("pass_limit_reached", "passes in a row without a play ended the deal (D9, "
              "leader_may_pass); the players left are ranked in a seeded random order", {
        "passes": Field("int", "passes in a row since the last play"),
        "ranked": Field("str_list", "the players left, in the order they are ranked")}),
    EventType("penalized", "a player went out with a forbidden finish (hansoku agari, D24) "
              "and ranks last among those still in", {
        "player": _PLAYER, "code": Field("enum", "the penalty", choices=("foul_finish",)),
        "rule": Field("str", "the rule applied"),
        "text": Field("text", "the penalty in words: {en, ja}"),
        "reasons": Field("str_list", "the forbidden finishes it made")}),
    EventType("went_out", "a player went out", {
        "player": _PLAYER, "place": Field("int", "their place (1st …)")}),
    EventType("miyako_ochi", "the previous daifugo fell (miyako-ochi)", {"player": _PLAYER}),
    EventType("skipped", "a player was skipped", {"player": _PLAYER}),
    EventType("passed", "a player passed", {"player": _PLAYER}),
    EventType("gave", "a player gave cards (7-pass)", {
        "player": _PLAYER, "to": Field("player", "who received them"),
        "count": Field("int", "cards given")}),
    EventType("discarded", "a player discarded cards (10-discard)", {
        "player": _PLAYER, "cards": Field("cards", "the cards discarded")}),
    EventType("exchanged", "a higher-ranked player gave back cards in the exchange", {
        "player": _PLAYER, "to": Field("player", "who received them"),
        "count": Field("int", "cards given")}),
    EventType("deal_finished", "the deal ended", {
        "order": Field("str_list", "the finishing order"),
        "titles": Field("object", "each player's title by id (daifugo … daihinmin)",
                        schema=by_key({"type": "string", "enum": list(TITLES)}))}),
    EventType("match_finished", "the match's last deal ended (D29, match_deals)", {
        "winners": Field("str_list", "the players with the most points (several on a tie)"),
        "totals": Field("int_map", "running points by player id"),
        "deals_played": Field("int", "deals played in the match")}),
)
