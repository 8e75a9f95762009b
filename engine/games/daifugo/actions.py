"""The actions a client posts (beyond `type` and `player`)."""
from __future__ import annotations

from engine.fields import ActionType, Field

ACTIONS = (
    ActionType("play", "Play a single, a set or stairs from the hand (D5, D6).",
               "手札から1枚、同じ数字の組、または階段を出す(D5、D6)。", {
        "cards": Field("cards", "the cards put down", "出すカード"),
        "jokers": Field("str_list", "what each joker stands for, in the order the jokers "
                        "appear in cards: a card (S2), *<rank> for the 5th/6th card of a set, "
                        "<suit>- / <suit>+ below / above the stair order; inferred when only "
                        "one reading is legal (D7)",
                        "各ジョーカーが何の代わりか(cards に現れる順): カード(S2)、組の5枚目・"
                        "6枚目なら *<数字>、階段の並びの下・上なら <マーク>- / <マーク>+。"
                        "正しい読み方が一つだけなら省略できる(D7)", required=False),
        "jack_back": Field("bool", "declare J-back with a play holding a J (D16, declared)",
                           "Jを含む手と一緒にJバックを宣言する(D16、declared のとき)",
                           required=False)}, "D5"),
    ActionType("pass", "Pass (D8); a leader on a clear field must play.",
               "パスする(D8)。場が流れた後の親は出さなければならない。", {}, "D8"),
    ActionType("give", "7-pass: give the next player the cards owed (D18).",
               "7渡し: 次のプレイヤーに渡すべき枚数のカードを渡す(D18)。",
               {"cards": Field("cards", "as many cards as 7s played (or all that are left)",
                               "出した7と同じ枚数のカード(残りが少なければ全部)")},
               "D18"),
    ActionType("discard", "10-discard: discard the cards owed (D19).",
               "10捨て: 捨てるべき枚数のカードを捨てる(D19)。",
               {"cards": Field("cards", "as many cards as 10s played (or all that are left)",
                               "出した10と同じ枚数のカード(残りが少なければ全部)")},
               "D19"),
    ActionType("exchange", "Card exchange: the 大富豪 / 富豪 give back cards of their choice "
               "(D11); the tribute of the 大貧民 / 貧民 was taken at the deal.",
               "カード交換: 大富豪・富豪が選んだカードを返す(D11)。大貧民・貧民が差し出すカードは"
               "配ったときにすでに取られている。",
               {"cards": Field("cards", "the cards given back", "返すカード")}, "D11"),
)
