"""The actions a client posts (beyond `type` and `player`)."""
from __future__ import annotations

from engine.cards import SUIT_NAMES, SUIT_NAMES_JA
from engine.fields import ActionType, Field

# 6.1: the end-of-turn calls, romanized for the API, with the words spoken at the table.
CALLS = {
    "hai": ("はい", "Hai"),
    "reach": ("リーチ", "Reach"),
    "reach_continue": ("リーチ続行", "Reach continues"),
    "reach_cancel": ("リーチ解除", "Reach cancelled"),
    "tanki_reach": ("単騎リーチ", "Tanki reach"),
    "tanki_reach_continue": ("単騎リーチ続行", "Tanki reach continues"),
    "pass": ("パス", "Pass"),
    "pass_continue": ("パス続行", "Pass, reach continues"),
}


def call_words(code: str, suit: str | None = None) -> tuple[str, str]:
    """(Japanese, English) words of a call; 6.1: an 8 adds the named suit."""
    ja, en = CALLS[code]
    if suit:
        return f"{SUIT_NAMES_JA[suit]}、{ja}", f"{SUIT_NAMES[suit].capitalize()}, {en.lower()}"
    return ja, en

_CALL = Field("enum", "the end-of-turn call (6.1); required with calls=declared on every "
              "turn-ending action, checked when given", required=False, choices=tuple(CALLS))

ACTIONS = (
    ActionType("play", "Play one card, or several of one rank listed bottom to top (the last "
               "is on top and sets the suit). Also the opening race (2.4).", {
                   "cards": Field("cards", "cards from the hand, bottom to top"),
                   "suit": Field("suit", "the suit named with an 8 (required then)",
                                 required=False),
                   "call": _CALL}, "3.1"),
    ActionType("draw", "Draw one card, or the whole pending draw when facing one.",
               {"call": _CALL}, "3.3"),
    ActionType("pass", "First turn only: pass without drawing; a pending draw passes on.",
               {"call": _CALL}, "3.4"),
    ActionType("end_turn", "After a draw, end the turn without playing.", {"call": _CALL}, "3.3"),
    ActionType("man", "Call man on the top card; while a man is open it is a kaeshi.", {}, "5.1"),
    ActionType("decline", "Decline to counter the open man; it resolves when every eligible "
               "player has declined.", {}, "5.4"),
    ActionType("flip", "Dealer, start_card=by_dealer: turn the next card onto an effect start "
               "card.", {}, "2.3"),
    ActionType("call", "calls=declared: call リーチ for a dealt hand totalling 13 or less, "
               "before any other action.", {"call": Field(
                   "enum", "the call: reach", choices=tuple(CALLS))}, "2.2"),
    ActionType("chombo", "Referee: record a violation seen at the table (violations=chombo).", {
        "offender": Field("player", "the seat that broke a rule"),
        "reason": Field("str", "what happened, e.g. the rule broken")}, "8.1"),
)
