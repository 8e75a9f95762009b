"""Refusal codes with their rule and their messages in English and Japanese.

Every refusal of a card play names the obligation broken and lists, in `details.required` and
in the message, the cards that would have been legal instead.
"""
from __future__ import annotations

from typing import Any, Sequence

from engine.cards import SUIT_NAMES, SUIT_NAMES_JA
from engine.fields import Field, refusal_details
from engine.parts import Sanction
from engine.values import Refusal

from .state import PHASES

PHASE_JA = {"blind": "見ずノートランプの宣言", "trump": "切札決め", "doubling": "ダブル",
            "play": "プレイ", "over": "終了"}

# code: (rule, English, Japanese). Placeholders are filled by `refuse`.
TEMPLATES: dict[str, tuple[str, str, str]] = {
    "game_finished": (
        "A31", "This deal is finished; no more actions are taken.",
        "このディールは終了しています。これ以上のアクションはできません。"),
    "wrong_phase": (
        "A9", "{action} is not possible now: the deal is in the {phase} phase.",
        "今は{action}はできません（{phase_ja}の段階です）。"),
    "not_your_turn": (
        "A20", "It is {turn}'s turn, not {player}'s.",
        "今は{turn}の番です({player}の番ではありません)。"),
    "card_not_playable": (
        "A21", "{player} cannot play {card}: it is not in their hand{table}.",
        "{player}は{card}を出せません。手札{table_ja}にありません。"),
    "must_follow_suit": (
        "A21", "You must follow suit ({suit}); play one of: {cards}.",
        "リードされたスート（{suit_ja}）を出さなければなりません。出せるカード: {cards}"),
    "must_overtake": (
        "A24", "An opponent is winning the trick and you can beat it in {suit}: play one of: "
        "{cards}.",
        "相手がトリックに勝っていて、{suit_ja}で上回れます。次のどれかを出してください: {cards}"),
    "must_trump": (
        "A22", "You cannot follow suit and your partner is not winning: you must trump; play "
        "one of: {cards}.",
        "リードされたスートがなく、パートナーが勝っていないので切札を出さなければなりません。"
        "出せるカード: {cards}"),
    "must_overtrump": (
        "A25", "The trick is trumped and you cannot follow suit: you must overtrump; play one "
        "of: {cards}.",
        "トリックに切札が出ていてリードされたスートがないので、より強い切札を出さなければ"
        "なりません。出せるカード: {cards}"),
    "no_undertrump": (
        "A26", "You may not play a trump lower than the {best} already in the trick while you "
        "hold another card; play one of: {cards}.",
        "他のカードがあるので、トリックに出ている{best}より弱い切札は出せません。"
        "出せるカード: {cards}"),
    "must_undertrump": (
        "M-h", "You cannot overtrump but hold trumps: under this table's rule you must play a "
        "trump; play one of: {cards}.",
        "より強い切札はありませんが、このルールでは切札を出さなければなりません。"
        "出せるカード: {cards}"),
    "blind_no_trump_disabled": (
        "A11", "Blind no-trump is not played at this table (option blind_no_trump).",
        "このテーブルでは見ずノートランプはありません（オプション blind_no_trump）。"),
    "blind_no_trump_too_late": (
        "A11", "Blind no-trump must be called before the dealer looks at their hand.",
        "見ずノートランプは手札を見る前に宣言しなければなりません。"),
    "trump_pass_disabled": (
        "A12", "The dealer may not pass the trump choice to their partner at this table "
        "(option allow_pass_trump_to_partner).",
        "このテーブルではディーラーは切札決めをパートナーに任せられません"
        "（オプション allow_pass_trump_to_partner）。"),
    "trump_already_passed": (
        "A12", "The trump choice has already been passed to the dealer's partner.",
        "切札決めはすでにパートナーに任されています。"),
    "wrong_doubling_call": (
        "A15", "It is {side}'s turn to {call}, not to {posted}.",
        "今は{side_ja}が{call_ja}するかどうかの番です（{posted_ja}ではありません）。"),
    "speech_not_allowed": (
        "A37", "Nothing may be said at this table: signals are allowed only in manille parlée "
        "(option french_form: parlee).",
        "このテーブルでは発言できません。合図はマニーユ・パルレ（オプション french_form: parlee）"
        "でのみ認められます。"),
    "speech_not_now": (
        "A37", "{player} may speak only during the play, to their partner who is about to play.",
        "{player}が発言できるのはプレイ中、これからカードを出すパートナーに対してだけです。"),
    "peek_report_not_allowed": (
        "A8", "Only the dealer's partner, before trumps are named, can be reported for looking "
        "at their cards.",
        "切札が決まる前にカードを見たと報告できるのはディーラーのパートナーだけです。"),
}

# The details each code carries. Manillen's messages are filled from values of their own
# (`refuse`'s keywords); what travels in `details` is given as `details=`, declared here.
_TO_ACT = Field("str_list", "the seats that may act now")
_OBLIGATION = {"required": Field("cards", "the cards that would have been legal"),
               "card": Field("card", "the card played")}
EXPLICIT_DETAILS: dict[str, dict[str, Field]] = {
    "wrong_phase": {"phase": Field("enum", "the deal's phase", choices=PHASES)},
    # the same details as every game's not_your_turn (one seat acts at a time: to_act)
    "not_your_turn": {"turn": Field("player", "whose turn it is"),
                      "player": Field("player", "the seat concerned")},
    "speech_not_now": {"to_act": _TO_ACT},
    "wrong_doubling_call": {"due": Field("enum", "the call due (A15)",
                                         choices=("double", "redouble"))},
    "card_not_playable": {"card": Field("card", "the card played"),
                          "playable": Field("cards", "the cards the player may play")},
    **{code: _OBLIGATION for code in ("must_follow_suit", "must_overtake", "must_trump",
                                      "must_overtrump", "no_undertrump", "must_undertrump")},
}

# Every code's details: the explicit ones, none for the others.
DETAILS = refusal_details({code: texts for code, (_rule, *texts) in TEMPLATES.items()}, {},
                          explicit=EXPLICIT_DETAILS, sent=lambda name: False)

CALL_JA = {"double": "ダブル", "redouble": "リダブル"}


def cards_text(cards: Sequence[str]) -> str:
    return ", ".join(cards) if cards else "(none)"


def refuse(code: str, details: dict[str, Any] | None = None, **kw: Any) -> Refusal:
    rule, en, ja = TEMPLATES[code]
    if "cards" in kw and not isinstance(kw["cards"], str):
        kw["cards"] = cards_text(kw["cards"])
    if "suit" in kw:
        kw.setdefault("suit_ja", SUIT_NAMES_JA.get(kw["suit"], kw["suit"]))
        kw["suit"] = SUIT_NAMES.get(kw["suit"], kw["suit"])
    if "phase" in kw:
        kw.setdefault("phase_ja", PHASE_JA.get(kw["phase"], kw["phase"]))
    if "call" in kw:
        kw.setdefault("call_ja", CALL_JA.get(kw["call"], kw["call"]))
    if "posted" in kw:
        kw.setdefault("posted_ja", CALL_JA.get(kw["posted"], kw["posted"]))
    if "side" in kw:
        kw.setdefault("side_ja", {"the non-dealing side": "ディーラーのいないチーム",
                                  "the dealer's side": "ディーラーのチーム"}.get(kw["side"],
                                                                             kw["side"]))
    if "table" in kw:
        kw.setdefault("table_ja", "やテーブルの表向きのカード" if kw["table"] else "")
    return Refusal(code, en.format(**kw), ja.format(**kw), rule=f"manillen {rule}",
                   details=details or {})


# Referee mode (violations: referee, A38): the codes whose act is recorded and sanctioned
# instead of refused ("Irregularities" on the rules page). A card the player cannot have
# played (not in hand or on the table) is an entry error and stays refused.
REVOKE = Sanction(
    "A39", "a revoke (verzaken): the offending side loses the deal; every card not yet won "
    "goes to the opponents, and the deal is scored as usual (A28–A30).",
    "リボーク(verzaken): 違反したチームはこのディールを失う。まだ取られていないカードはすべて"
    "相手チームのものとなり、ディールは通常どおり得点計算する(A28〜A30)。",
    effect="deal_lost", ledger=None)
_TAKEN_BACK = Sanction(
    "A40", "the act is taken back and the turn stays; the referee warns the player.",
    "行為を取り消し、手番はそのまま。審判はそのプレイヤーに警告を与える。")
SANCTIONS: dict[str, Sanction] = {
    **{code: REVOKE for code in ("must_follow_suit", "must_overtake", "must_trump",
                                 "must_overtrump", "no_undertrump", "must_undertrump")},
    **{code: _TAKEN_BACK for code in ("not_your_turn", "wrong_doubling_call",
                                      "speech_not_allowed", "speech_not_now")},
}
