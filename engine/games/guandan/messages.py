"""Refusal codes, each with the rule it cites (docs/rules/guandan.md) and English and Japanese
messages. Codes are stable API: clients switch on them."""
from __future__ import annotations

from typing import Any

from engine.fields import Field, refusal_details
from engine.parts import Sanction
from engine.values import Refusal

from .state import PHASES

# code: (rule, English, Japanese). Messages may use {placeholders} from details.
MESSAGES: dict[str, tuple[str, str, str]] = {
    "not_your_turn": (
        "P-2", "It is {turn}'s turn, not {player}'s.", "今は{turn}の手番です({player}の手番ではありません)。"),
    "barred_this_round": (
        "R-2", "{player} played out of turn in this round and may only pass until it ends.",
        "{player}はこのラウンドで越序したので、ラウンドが終わるまでパスしかできません。"),
    "lead_type_barred": (
        "R-3", "{player} may not lead the combination type the partner played out of turn in "
        "the last round; lead another.",
        "{player}は、前のラウンドでパートナーが越序で出した牌型をリードできません。別の役を"
        "リードしてください。"),
    "referee_mode_required": (
        "R-1", "The referee's sanctions void_hand and forfeit need the option "
        "violations=referee.",
        "審判の罰則 void_hand と forfeit には、オプション violations=referee が必要です。"),
    "void_hand_not_allowed": (
        "R-6", "Only the hand of a player who paid tribute in this deal and still plays is "
        "declared void, once play has begun; {player} is not such a player.",
        "手札を無効にできるのは、このディールで進貢し、まだプレイ中のプレイヤーだけで、プレイ"
        "開始後に限ります。{player}は該当しません。"),
    "forfeit_not_allowed": (
        "R-7", "A deal is forfeited for signalling once play has begun; {phase} is under way.",
        "合図による一局負けは、プレイ開始後に限ります(現在: {phase})。"),
    "tribute_first": (
        "T-11", "The tribute and return come before the first lead; {phase} is under way.",
        "最初のリードの前に進貢と返貢を済ませます(現在: {phase})。"),
    "card_not_in_hand": (
        "P-1", "{player} does not hold {card}.", "{player}は{card}を持っていません。"),
    "lead_cannot_pass": (
        "P-1", "The leader plays a combination; leading, you may not pass.",
        "リードするプレイヤーはパスできません。役を出してください。"),
    "not_a_combination": (
        "4", "These cards form no combination.", "これらのカードはどの役にもなりません。"),
    "reading_not_available": (
        "W-11", "The declared reading is not a reading of these cards.",
        "宣言された読み方はこれらのカードの読み方にありません。"),
    "ambiguous_reading": (
        "W-11", "These cards have several legal readings; declare one.",
        "これらのカードには複数の読み方があります。どれか一つを宣言してください。"),
    "does_not_beat": (
        "C-8", "These cards do not beat the table: play a higher combination of the same type "
        "and size, or a bomb.", "場のカードに勝てません。同じ種類・枚数でより強い役か、爆弾を出してください。"),
    "does_not_beat_bomb": (
        "B-2", "A bomb is on the table: only a higher bomb may be played.",
        "場に爆弾が出ています。より強い爆弾しか出せません。"),
    "no_tribute_due": (
        "T-1", "No tribute is being paid now.", "今は進貢の場面ではありません。"),
    "not_a_payer": (
        "T-2", "{player} does not pay tribute in this deal.", "{player}はこのディールで進貢しません。"),
    "tribute_already_paid": (
        "T-2", "{player} has already paid tribute.", "{player}はすでに進貢しました。"),
    "tribute_wild": (
        "W-12", "A wild ({card}) is never given as tribute.", "ワイルドカード({card})は進貢できません。"),
    "tribute_not_highest": (
        "T-4", "The tribute must be the highest card apart from the wilds: {highest}.",
        "進貢するのはワイルドカードを除いた最も強いカードです: {highest}。"),
    "no_choice_due": (
        "T-5", "There are no equal tributes to choose between now.",
        "今は同じ強さの進貢から選ぶ場面ではありません。"),
    "not_your_choice": (
        "T-5", "The 1st player ({first}) chooses between equal tributes.",
        "同じ強さの進貢は1位のプレイヤー({first})が選びます。"),
    "choice_not_a_payer": (
        "T-5", "{payer} paid no tribute to choose.", "{payer}は選べる進貢をしていません。"),
    "no_return_due": (
        "T-7", "No card is being returned now.", "今は返貢の場面ではありません。"),
    "return_wrong_player": (
        "T-7", "{player} received no tribute, so returns nothing.",
        "{player}は進貢を受けていないので、返貢しません。"),
    "return_already_given": (
        "T-7", "{player} has already returned a card.", "{player}はすでに返貢しました。"),
    "return_above_cap": (
        "T-7", "The return card must be of rank 10 or lower (D6).",
        "返貢するカードは10以下でなければなりません(D6)。"),
    "return_level_card": (
        "T-7", "A level card may not be returned (D6).", "級牌は返貢できません(D6)。"),
    "return_not_lowest": (
        "T-7", "With no card of rank 10 or lower, the lowest card is returned (D6).",
        "10以下のカードがないときは、最も弱いカードを返貢します(D6)。"),
    "return_received_card": (
        "T-8", "A card identical to the one just received ({card}) may not be given back.",
        "受け取ったカード({card})と同じカードをそのまま返すことはできません。"),
    "no_lead_choice_due": (
        "T-10", "The first lead is not being agreed now.", "今は最初のリードを決める場面ではありません。"),
    "lead_choice_not_yours": (
        "T-10", "The two payers of the equal tributes agree who leads.",
        "同じ強さの進貢をした2人が、誰がリードするかを決めます。"),
    "leader_not_a_payer": (
        "T-10", "The first lead goes to one of the two payers.",
        "最初のリードは進貢した2人のどちらかです。"),
    "anti_tribute_not_available": (
        "T-6", "Anti-tribute is claimed by a payer during the tribute (D14 optional), once, and "
        "only when the paying side may hold both big jokers as far as the payer can see.",
        "抗貢は、進貢中に進貢者が宣言するもので(D14 optional)、1回だけ、進貢者から見て進貢する"
        "側が大王を2枚持ちうるときに限ります。"),
}


# What each {placeholder} above carries: a refusal's details are its messages' fill values
# (Refusal.from_templates), so these kinds type every code's details (DETAILS).
DETAIL_KINDS: dict[str, Field] = {
    "turn": Field("player", "whose turn it is"),
    "player": Field("player", "the seat concerned"),
    "first": Field("player", "the 1st player, who chooses (T-5)"),
    "payer": Field("player", "the payer named"),
    "phase": Field("enum", "the phase under way", choices=PHASES),
    "cards": Field("cards", "the cards concerned"),
    "card": Field("card", "the card concerned"),
    "highest": Field("cards", "the cards that may be given as tribute (T-4)"),
}

# Every code's details, derived from its messages' placeholders.
DETAILS = refusal_details({code: texts for code, (_rule, *texts) in MESSAGES.items()},
                          DETAIL_KINDS)


def refuse(code: str, **details: Any) -> Refusal:
    """The Refusal for `code`, rule cited as "guandan <n>"; details fill the messages."""
    rule, en, ja = MESSAGES[code]
    return Refusal.from_templates("guandan", code, rule, en, ja, details)


# Referee mode (violations: referee, R-1): the codes whose act is recorded and sanctioned
# instead of refused, with the sanction of §14 of the rules page (R-2 … R-5).
_WRONG_TRIBUTE = Sanction(
    "R-4", "the card is taken back and the right one given; the referee warns the player "
    "(a wrong tribute or return caught before play begins).",
    "カードを戻して正しいカードを渡し直す。審判はそのプレイヤーに口頭警告を与える(プレイ開始前に"
    "見つかった貢错牌・还错牌)。")
_TAKEN_BACK = Sanction(
    "R-5", "the cards are taken back and the turn stays; the referee warns the player.",
    "出したカードを戻し、手番はそのまま。審判はそのプレイヤーに警告を与える。")
SANCTIONS: dict[str, Sanction] = {
    "not_your_turn": Sanction(
        "R-2", "the act is taken back; an out-of-turn play costs the player the right to play "
        "in this round (only a pass until the next lead), an out-of-turn pass costs it the "
        "player and the partner.",
        "行為を取り消す。越序出牌ならそのプレイヤーはこのラウンドの出牌権を失い(次のリードまで"
        "パスのみ)、越序表態ならそのプレイヤーとパートナーが失う。",
        effect="barred_for_round", ledger=None),
    **{code: _WRONG_TRIBUTE for code in (
        "tribute_not_highest", "tribute_wild", "return_above_cap", "return_level_card",
        "return_not_lowest", "return_received_card")},
    "lead_type_barred": Sanction(
        "R-3", "the lead is taken back; the player leads again, another combination type.",
        "リードを取り消す。そのプレイヤーは別の牌型でリードし直す。", ledger=None),
    **{code: _TAKEN_BACK for code in (
        "does_not_beat", "does_not_beat_bomb", "not_a_combination", "lead_cannot_pass",
        "barred_this_round")},
}
