"""The actions a client posts (beyond `type` and `player`), and the shape check of a
declaration inside one.

A declaration's *shape* (B4, B5, B7, B10: an object, a known type, real ranks, the right
number in the right order) is checked when the action is parsed: a malformed one is an
InvalidAction (HTTP 422) whose code is the declaration error's (`rank_unknown` …) and whose
path points into it (`action.declaration.ranks[1]`). Whether *this game* allows it (options
B-a, B-b, B-c, B-f) and whether it beats the last one (B8, B9) are refusals, checked by apply.
"""
from __future__ import annotations

from typing import Any

from engine.errors import InvalidAction
from engine.fields import ActionType, Field
from engine.schema import obj

from .declarations import TYPES, DeclarationError, DeclarationRules, parse_declaration, to_json

# A declaration as a client writes it (B10; declarations.parse_declaration): ranks and
# kickers highest first, each a rank (T for 10), either list left out (or null) when empty:
# parse_declaration reads null as an empty list, so the spec admits it (`nullable`).
_RANK_INPUT = {"type": "string", "pattern": "^\\s*([2-9]|10|[TtJjQqKkAa])\\s*$"}
DECLARATION_INPUT = obj({"type": {"type": "string", "enum": list(TYPES)},
                         "ranks": {"type": "array", "items": dict(_RANK_INPUT), "nullable": True},
                         "kickers": {"type": "array", "items": dict(_RANK_INPUT),
                                     "nullable": True}},
                        optional=("ranks", "kickers"))

# The most permissive rules: everything any option set allows parses under them.
SHAPE_RULES = DeclarationRules()

ACTIONS = (
    ActionType("declare", "Announce a poker hand the cards are claimed to contain, higher "
               "than the round's last declaration (B8). Made by the holder: the round's "
               "starter, or a player who accepted (after exchanging, or instead of it: "
               "declaring without an exchange exchanges no cards).",
               "手札に含まれると主張するポーカーの役を、ラウンドの直前の宣言より強く宣言する"
               "(B8)。宣言するのは手札を持つ人: ラウンドを始めた人、または承認した人(交換の後、"
               "または交換の代わりに。交換せずに宣言すればカードは交換しない)。", {
                   "declaration": Field("object", "{type, ranks?, kickers?} (B5, B10)",
                                        "宣言 {type, ranks?, kickers?}(B5、B10)",
                                        schema=DECLARATION_INPUT)},
               "B8"),
    ActionType("accept", "Believe the last declaration and take the hand face down (B15).",
               "直前の宣言を信じて承認し、手札を裏向きのまま受け取る(B15)。",
               {}, "B13"),
    ActionType("challenge", "Call the last declaration a lie: the hand is revealed and the "
               "wrong side takes a penalty point (B14).",
               "直前の宣言を嘘だと挑戦する: 手札を公開し、間違っていた側が1失点する(B14)。",
               {}, "B14"),
    ActionType("exchange", "After accepting (or as the opener with opener_may_exchange): "
               "give back 0-4 cards of the hand and draw as many from the stock (B15, B18).",
               "承認の後(または opener_may_exchange のときの最初のプレイヤーとして): 手札から"
               "0〜4枚を戻し、同じ枚数を山札から引く(B15、B18)。", {
                   "cards": Field("cards", "the cards given back; [] exchanges none",
                                  "戻すカード。[] なら交換しない"),
                   "drawn": Field("cards", "the cards received from the stock, as many as "
                                  "given back: required exactly when the stock's order is "
                                  "unknown (a physical deal, B.6), refused otherwise; with "
                                  "states sealed, an exchange naming cards is the referee's to "
                                  "enter (the referee key; a seat token alone gets 403 "
                                  "referee_key_required)",
                                  "山札から受け取ったカード(戻した枚数と同じ)。山札の順番が"
                                  "分からないとき(卓の札から入力したディール、B.6)は必須、"
                                  "それ以外では指定できない。状態を封印しているサービスでは、"
                                  "カードを指定した交換は審判が入力する(審判用キーが必要。"
                                  "席のトークンだけなら 403 referee_key_required)",
                                  required=False)},
               "B15"),
    ActionType("deal", "A physical game with an unknown stock (B.6): the five cards the new "
               "round's starter was dealt after a challenge (B16), posted as the starter's; "
               "with states sealed, by the referee (the referee key; a seat token alone gets "
               "403 referee_key_required).",
               "山札の順番が分からない卓のゲーム(B.6): 挑戦の後、新しいラウンドの最初の"
               "プレイヤーに配られた5枚(B16)。最初のプレイヤーの行動として送る。状態を"
               "封印しているサービスでは審判が送る(審判用キーが必要。席のトークンだけなら "
               "403 referee_key_required)。", {
                   "cards": Field("cards", "the five cards dealt; required (the listed action "
                                  "leaves them for the table to fill in)",
                                  "配られた5枚。必須(挙げられる行動では卓が埋める)",
                                  required=False)},
               "B16"),
)


def parse_shape(data: Any, path: str = "action.declaration") -> dict[str, Any]:
    """The canonical JSON of a declaration whose shape is right, else InvalidAction."""
    try:
        return to_json(parse_declaration(data, path, SHAPE_RULES))
    except DeclarationError as err:
        invalid = InvalidAction(err.message, err.path, code=err.code)
        invalid.ja = err.ja  # the service answers Japanese callers in Japanese
        raise invalid from None
