"""Refusal codes: the play codes of plays.REFUSALS and the turn, follow-up and exchange codes
below, each (rule, English, Japanese). Codes are stable API: clients switch on them."""
from __future__ import annotations

from typing import Any

from engine.fields import Field, refusal_details
from engine.parts import Sanction
from engine.values import Refusal

from .plays import REFUSALS, PlayError

PHASE_REFUSALS: dict[str, tuple[str, str, str]] = {
    "not_your_turn": ("D8", "It is {turn}'s turn, not {player}'s.",
                      "今は{turn}の番です({player}の番ではありません)。"),
    "card_not_in_hand": ("D5", "{player} does not hold {card}.",
                         "{player}は{card}を持っていません。"),
    "must_lead": ("D9", "The field is clear: the leader plays something.",
                  "場が流れた後の親はパスできません。何か出してください。"),
    "player_out": ("D10", "{player} has no more turns in this deal.",
                   "{player}はこのゲームではもう手番がありません。"),
    "exchange_in_progress": ("D11", "The card exchange comes first: {waiting} still give back "
                             "cards.", "先にカード交換をします({waiting}が返すカードを選んでいません)。"),
    "no_exchange_due": ("D11", "{player} has no cards to give back in this exchange.",
                        "{player}はこのカード交換で返すカードはありません。"),
    "exchange_count": ("D11", "Give back exactly {count} card(s).",
                       "ちょうど{count}枚返してください。"),
    "seven_pass_pending": ("D18", "{player} first gives {count} card(s) to {receiver} (7-pass).",
                           "先に{player}が{receiver}へ{count}枚渡します(7渡し)。"),
    "ten_discard_pending": ("D19", "{player} first discards {count} card(s) (10-discard).",
                            "先に{player}が{count}枚捨てます(10捨て)。"),
    "nothing_to_give": ("D18", "{player} owes no 7-pass now.", "{player}が今渡すカードはありません。"),
    "nothing_to_discard": ("D19", "{player} owes no 10-discard now.",
                           "{player}が今捨てるカードはありません。"),
    "give_count": ("D18", "Give exactly {count} card(s).", "ちょうど{count}枚渡してください。"),
    "discard_count": ("D19", "Discard exactly {count} card(s).",
                      "ちょうど{count}枚捨ててください。"),
}

MESSAGES: dict[str, tuple[str, str, str]] = {**REFUSALS, **PHASE_REFUSALS}


# What each {placeholder} above carries: a refusal's details are its messages' fill values
# (Refusal.from_templates), so these kinds type every code's details (DETAILS).
DETAIL_KINDS: dict[str, Field] = {
    "turn": Field("player", "whose turn it is"),
    "player": Field("player", "the seat concerned"),
    "receiver": Field("player", "who receives the 7-pass (D18)"),
    "card": Field("card", "the card concerned"),
    "count": Field("int", "how many cards"),
    "waiting": Field("str", "the seats still to give back cards, comma-separated"),
}

_READINGS = Field("str_list_list", "the possible readings: for each, what every joker stands "
                  "for, as a play's `jokers` (D7)", required=False)
# The play refusals (plays.PlayError) fill no placeholders; two carry details of their own.
PLAY_DETAILS: dict[str, dict[str, Field]] = {
    "ambiguous_reading": {"readings": Field("str_list_list", _READINGS.description)},
    "joker_reading_invalid": {
        "token": Field("str", "the stand-in that names no card", required=False),
        "readings": _READINGS,
        "expected": Field("int", "how many stand-ins the play needs: one per joker",
                          required=False)},
}

# Every code's details, derived from its messages' placeholders.
DETAILS = refusal_details({code: texts for code, (_rule, *texts) in MESSAGES.items()},
                          DETAIL_KINDS, explicit=PLAY_DETAILS)


def refuse(code: str, **details: Any) -> Refusal:
    """The Refusal for `code`, its rule cited as "daifugo <n>"."""
    rule, en, ja = MESSAGES[code]
    return Refusal.from_templates("daifugo", code, rule, en, ja, details)


def from_play_error(err: PlayError) -> Refusal:
    return Refusal(err.code, err.en, err.ja, rule=f"daifugo {err.rule}", details=err.details)


# Referee mode (violations: referee, D26): the codes whose act is recorded and sanctioned
# instead of refused (C.5 of the rules page). No tournament rule we found says more than
# "taken back": D27 is a Decision. A card the player does not hold, a joker notation and a
# player already out are entry errors, not acts at a table: they stay refused.
_TAKEN_BACK = Sanction(
    "D27", "the act is taken back and the turn stays; the referee warns the player.",
    "行為を取り消し、手番はそのまま。審判はそのプレイヤーに警告を与える。")
SANCTIONS: dict[str, Sanction] = {code: _TAKEN_BACK for code in (
    "not_your_turn", "must_lead", "not_a_combination", "stairs_off", "form_mismatch",
    "count_mismatch", "not_stronger", "suit_locked", "number_locked",
    "spade3_return_after_pass", "jack_back_off", "jack_back_needs_jack",
    "jack_back_limit_reached", "exchange_count", "give_count", "discard_count",
    "seven_pass_pending", "ten_discard_pending", "exchange_in_progress")}
