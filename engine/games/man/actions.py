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
              "turn-ending action, checked when given",
              "手番終了時のコール(6.1)。calls=declared では手番を終えるすべての行動に必須。"
              "指定すれば正否を確かめる", required=False, choices=tuple(CALLS))

# 3.10: with a stock of unknown order (a deal from the table, 2.7) the table says what came off it.
# Sealing on, naming them is the referee's act (PhysicalDeals.names_unseen_draw, docs/security.md).
SEALED_NOTE = ("; with states sealed, a draw naming cards is the referee's to enter (the referee "
               "key; a seat token alone gets 403 referee_key_required)")
SEALED_NOTE_JA = ("。状態を封印しているサービスでは、カードを指定した引きは審判が入力する"
                  "(審判用キーが必要。席のトークンだけなら 403 referee_key_required)")
_DRAWN = Field("cards", "the cards drawn, in the order drawn: required exactly when the stock's "
               "order is unknown (a deal from the table, 3.10), refused otherwise" + SEALED_NOTE,
               "引いたカード(引いた順)。山札の順番が分からないとき(卓の札から入力したディール、"
               "3.10)は必須、それ以外では指定できない" + SEALED_NOTE_JA, required=False)

ACTIONS = (
    ActionType("play", "Play one card, or several of one rank listed bottom to top (the last "
               "is on top and sets the suit). Also the opening race (2.4).",
               "カードを1枚、または同じ数字の複数枚を下から上の順に並べて出す(最後の1枚が一番上"
               "になりマークを決める)。開始時の早い者勝ち(2.4)もこれで出す。", {
                   "cards": Field("cards", "cards from the hand, bottom to top",
                                  "手札から出すカード(下から上の順)"),
                   "suit": Field("suit", "the suit named with an 8 (required then)",
                                 "8と一緒に指定するマーク(8を出すときは必須)", required=False),
                   "call": _CALL}, "3.1"),
    ActionType("draw", "Draw one card, or the whole pending draw when facing one.",
               "山札から1枚引く。ドローが掛かっているときはその枚数をまとめて引く。",
               {"call": _CALL, "cards": _DRAWN}, "3.3"),
    ActionType("pass", "First turn only: pass without drawing; a pending draw passes on.",
               "1周目のみ: 山札から引かずにパスする。掛かっているドローは次の人に回る。",
               {"call": _CALL}, "3.4"),
    ActionType("end_turn", "After a draw, end the turn without playing.",
               "山札から引いた後、カードを出さずに手番を終える。", {"call": _CALL}, "3.3"),
    ActionType("man", "Call man on the top card; while a man is open it is a kaeshi.",
               "一番上の場札にまんをコールする。まんが出ている間は返しまんになる。", {}, "5.1"),
    ActionType("decline", "Decline to counter the open man; it resolves when every eligible "
               "player has declined.",
               "出ているまんに返さず見送る。返せるプレイヤー全員が見送るとまんが成立する。",
               {}, "5.4"),
    ActionType("flip", "Dealer, start_card=by_dealer: turn the next card onto an effect start "
               "card.",
               "親(start_card=by_dealer): 効果カードの台札の上に次のカードをめくる。", {
                   "cards": Field("cards", "the cards turned, in order: required exactly when "
                                  "the stock's order is unknown (3.10), refused otherwise"
                                  + SEALED_NOTE.replace("a draw", "a flip"),
                                  "めくったカード(めくった順)。山札の順番が分からないとき"
                                  "(3.10)は必須、それ以外では指定できない"
                                  + SEALED_NOTE_JA.replace("引き", "めくり"), required=False)},
               "2.3"),
    ActionType("call", "calls=declared: call リーチ for a dealt hand totalling 13 or less, "
               "before any other action.",
               "calls=declared: 配られた手札の合計が13以下なら、他の行動の前にリーチをコールする。",
               {"call": Field("enum", "the call: reach", "コール: reach(リーチ)",
                              choices=tuple(CALLS))}, "2.2"),
    ActionType("chombo", "Referee: record a violation seen at the table (violations=chombo).",
               "審判: 卓上で見た反則を記録する(violations=chombo)。", {
                   "offender": Field("player", "the seat that broke a rule",
                                     "ルールを破った席"),
                   "reason": Field("str", "what happened, e.g. the rule broken",
                                   "何が起きたか(破られたルールなど)")}, "8.1",
               referee_only=True),
)
