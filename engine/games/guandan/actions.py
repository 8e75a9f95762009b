"""The actions a client posts (beyond `type` and `player`)."""
from __future__ import annotations

from engine.cards import RANKS
from engine.fields import ActionType, Field
from engine.schema import CARDS_INPUT, nullable, obj

from .combos import TYPES

# A reading as a client declares it (combos.reading_from_json): `length` only a bomb needs,
# `wilds` informational; rank null for four jokers.
READING_INPUT = obj({
    "type": {"type": "string", "enum": list(TYPES)},
    "rank": nullable({"type": "string", "enum": [*RANKS, "BJ", "RJ"]}),
    "length": {"type": "integer", "minimum": 1, "maximum": 10},
    "wilds": CARDS_INPUT}, optional=("length", "wilds"))

ACTIONS = (
    ActionType("play", "Play a combination or a bomb (leading or following).",
               "役または爆弾を出す(リードでも、後に続けるときでも)。", {
                   "cards": Field("cards", "the cards played, from the hand",
                                  "手札から出すカード"),
                   "reading": Field("object", "the declared reading {type, rank, length?, "
                                    "wilds?} (W-11): required when the cards have several "
                                    "legal readings. Every listed play carries its own "
                                    "(length and wilds too: what each wild stands for), "
                                    "and is accepted posted back as listed",
                                    "宣言する読み方 {type, rank, length?, wilds?}(W-11)。"
                                    "カードに正しい読み方が複数あるときは必須。合法手の一覧の"
                                    "各プレイは必ず自分の読み方(length と、各ワイルドが何の"
                                    "代わりかを示す wilds も)を持ち、そのまま送れば受け付けられる",
                                    required=False, schema=READING_INPUT)}, "P-2"),
    ActionType("pass", "Pass this turn (never when leading); a player who passed may play "
               "later in the same trick.",
               "この手番をパスする(リードのときはできない)。パスしたプレイヤーも、同じ場で"
               "後から出してよい。", {}, "P-3"),
    ActionType("tribute", "Pay tribute: the highest card apart from the wilds.",
               "進貢する: 逢人牌(ワイルドカード)を除いた最も強いカードを渡す。", {
                   "card": Field("card", "the tribute card", "進貢するカード")}, "T-4"),
    ActionType("take", "Equal double tributes with equal_tribute=winners_choose: the 1st "
               "player takes the tribute of one payer; the 2nd gets the other.",
               "同じ強さの双方進貢で equal_tribute=winners_choose のとき: 1位のプレイヤーが"
               "一方の進貢を取り、2位がもう一方を受け取る。", {
                   "payer": Field("player", "whose tribute the 1st player takes",
                                  "1位のプレイヤーが取る進貢の進貢者")}, "T-5"),
    ActionType("return", "Give a card back to the player who paid you tribute.",
               "自分に進貢したプレイヤーにカードを1枚返す(返貢)。", {
                   "card": Field("card", "the card returned", "返貢するカード")}, "T-7"),
    ActionType("lead", "Equal double tributes with equal_tribute=winners_choose: the two payers "
               "agree who leads; either posts it.",
               "同じ強さの双方進貢で equal_tribute=winners_choose のとき: 進貢した2人が"
               "誰がリードするかを決め、どちらかが送る。", {
                   "leader": Field("player", "one of the two payers",
                                   "進貢した2人のうちの1人")}, "T-10"),
    ActionType("anti_tribute", "Claim anti-tribute (anti_tribute=optional): the paying side "
               "shows both big jokers and no tribute is paid; if it does not hold both, the "
               "claim fails in the open and the tribute goes on.",
               "抗貢を宣言する(anti_tribute=optional): 進貢する側が大王2枚を見せ、進貢は"
               "行われない。2枚を持っていなければ宣言は公開で失敗し、進貢が続く。", {}, "T-6"),
    ActionType("void_hand", "Referee (violations=referee): a wrong tribute found after play "
               "began; the hand of `player`, who paid it, is void: face down, no more turns, "
               "ranked last (R-6).",
               "審判(violations=referee): プレイ開始後に貢错牌が見つかった。進貢した `player` "
               "の手札は無効: 伏せて置き、以後手番はなく、最下位(下游)とする(R-6)。",
               {"reason": Field("str", "what happened (shown with the event)",
                                "何が起きたか(イベントに表示)", required=False)},
               "R-6", referee_only=True),
    ActionType("forfeit", "Referee (violations=referee): `player` signalled to the partner; "
               "their team loses the deal, scored as the opponents' 1st-and-2nd finish (R-7).",
               "審判(violations=referee): `player` がパートナーに合図を送った。そのチームは"
               "この一局を負けとし、相手の1位・2位として計算する(R-7)。",
               {"reason": Field("str", "what happened (shown with the event)",
                                "何が起きたか(イベントに表示)", required=False)},
               "R-7", referee_only=True),
)
