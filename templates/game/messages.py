"""Refusal codes, each with the rule of rules.md it cites and its messages in English and
Japanese. Codes are stable API: GET /v1/games publishes them with their rules."""
from __future__ import annotations

from typing import Any

from engine.fields import Field, refusal_details
from engine.values import Refusal

from .options import GAME_ID

# code: (rule, English, Japanese). Messages use {placeholders} filled from the details.
MESSAGES: dict[str, tuple[str, str, str]] = {
    "not_your_turn": (
        "2.2", "It is {turn}'s turn, not {player}'s.", "今は{turn}の番です({player}の番ではありません)。"),
    "card_not_in_hand": (
        "2.1", "{player} does not hold {card}.", "{player}は{card}を持っていません。"),
}

CATALOGUE: dict[str, str] = {code: f"{GAME_ID} {rule}" for code, (rule, _, _) in MESSAGES.items()}

# What each {placeholder} carries: the refusal's `details`, published per code.
DETAIL_KINDS: dict[str, Field] = {
    "turn": Field("player", "whose turn it is"),
    "player": Field("player", "the seat that acted"),
    "card": Field("card", "the card named"),
}
DETAILS = refusal_details({code: texts for code, (_rule, *texts) in MESSAGES.items()},
                          DETAIL_KINDS)


def refuse(code: str, **details: Any) -> Refusal:
    """The Refusal for `code`, its rule cited as "<game id> <rule>"."""
    rule, en, ja = MESSAGES[code]
    return Refusal.from_templates(GAME_ID, code, rule, en, ja, details)
