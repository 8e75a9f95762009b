"""Refusal codes of the round machine, each with the rule it cites and English and Japanese
messages. Codes are stable API. The declaration refusals (is_higher, B8/B9) and the
option-dependent declaration errors live in declarations.py; `CATALOGUE` joins them all."""
from __future__ import annotations

from typing import Any

from engine.fields import Field, refusal_details
from engine.parts import PENALTY, Sanction
from engine.values import Refusal

from .declarations import ERROR_MESSAGES, ERRORS, GAME_ID, REFUSAL_MESSAGES, REFUSALS

# code: (rule, English, Japanese). Messages use {placeholders} from the details.
MESSAGES: dict[str, tuple[str, str, str]] = {
    "not_your_turn": (
        "B13", "It is {turn}'s turn, not {player}'s.",
        "今は{turn}の番です({player}の番ではありません)。"),
    "respond_first": (
        "B13", "{declarer} has declared: accept or challenge first.",
        "{declarer}が宣言しました。まず承認するか挑戦してください。"),
    "nothing_to_respond": (
        "B13", "There is no declaration to accept or challenge yet: {holder} must declare.",
        "承認や挑戦をする宣言がまだありません。{holder}が宣言する番です。"),
    "nothing_higher": (
        "B8", "{last[en]} is the highest declaration there is: nothing could be declared "
              "after it, so it can only be challenged.",
        "{last[ja]}は最も強い宣言で、これより強い宣言はできません。挑戦するしかありません。"),
    "opener_may_not_exchange": (
        "B-d", "The round's first player declares without exchanging (opener_may_exchange "
               "is off).",
        "最初のプレイヤーは交換せずに宣言します(opener_may_exchange がオフ)。"),
    "already_exchanged": (
        "B15", "{player} has already exchanged this turn; now declare.",
        "{player}はこの番ですでに交換しました。宣言してください。"),
    "exchange_too_many": (
        "B15", "Exchange 0 to 4 cards, not {count}.", "交換できるのは0〜4枚です({count}枚ではありません)。"),
    "cards_duplicate": (
        "B15", "{card} is listed twice.", "{card}が2回指定されています。"),
    "card_not_in_hand": (
        "B15", "{player} does not hold {card}.", "{player}は{card}を持っていません。"),
    "stock_cards_required": (
        "B15", "The stock's order is unknown (a physical deal): name the cards received "
               "(`drawn` of an exchange, `cards` of a deal).",
        "山札の順番は分かりません(卓の札から入力したディール)。受け取ったカードを指定してください"
        "(交換では `drawn`、配りでは `cards`)。"),
    "stock_cards_not_allowed": (
        "B15", "The stock's order is known (a seeded or ordered deck): the service draws the "
               "cards itself, so name none.",
        "山札の順番は分かっています(シードまたは並べたデッキ)。カードはサービスが引くので指定しないでください。"),
    "stock_cards_count": (
        "B15", "{given} card(s) named, but {count} are received here.",
        "{given}枚指定されていますが、ここで受け取るのは{count}枚です。"),
    "stock_card_seen": (
        "B15", "{card} cannot come from the stock: it is {where_text[en]}.",
        "{card}は山札から出てくることはありません: {where_text[ja]}。"),
    "deal_first": (
        "B16", "The new round's cards are not entered yet: {holder} is dealt five cards first "
               "(`deal`).",
        "新しいラウンドのカードがまだ入力されていません。まず{holder}に配られた5枚を入力してください(`deal`)。"),
    "deal_not_due": (
        "B16", "No round waits for its cards: the hand is dealt.",
        "カードを待っているラウンドはありません。手札は配られています。"),
}

# B.6 (the physical deals section; refusals cite the rule they apply: B15 receiving cards
# from the stock, B16 a new round's deal): why a card named as received cannot come from an
# unknown stock, in both languages: only what the receiving seat can see (the hand it holds,
# its own action, the deck). A card among the face-down discards is "not in the stock", never
# where: refusals that cost nothing must not map the hidden cards.
WHERE = {
    "in the hand": "手札にあります",
    "not in the stock": "山札の残りのカードの中にありません",
    "being given back": "今戻しているカードです",
    "named twice": "2回指定されています",
    "not in the deck": "このゲームのデッキにありません",
}

# Declaration errors that depend on the game's options: a well-formed declaration this game
# does not allow is refused (200, valid=false); a malformed one is a 422 (see actions.py).
OPTION_ERRORS = ("five_of_a_kind_needs_jokers", "straights_not_allowed", "flushes_not_allowed",
                 "type_below_minimum", "rank_not_in_deck", "ace_low_straight_not_allowed")

CATALOGUE: dict[str, str] = {
    **{code: f"{GAME_ID} {rule}" for code, (rule, _, _) in MESSAGES.items()},
    **REFUSALS,
    **{code: ERRORS[code] for code in OPTION_ERRORS},
}


# What each {placeholder} of MESSAGES carries: `refuse` sends its fill values as the details,
# but for the `_ja` ones (the English and Japanese words of one value).
DETAIL_KINDS: dict[str, Field] = {
    "turn": Field("player", "whose turn it is"),
    "player": Field("player", "the seat concerned"),
    "declarer": Field("player", "who declared"),
    "holder": Field("player", "who must declare"),
    "last": Field("text", "the last declaration in words: {en, ja}"),
    "count": Field("int", "how many cards"),
    "card": Field("card", "the card concerned"),
    "given": Field("int", "how many cards the action named"),
    "where": Field("enum", "why the card cannot come from the stock (B.6), as far as the "
                   "receiving seat can see (never where an unseen card lies)",
                   choices=tuple(WHERE)),
    "where_text": Field("text", "the same in words: {en, ja}"),
}
_DECLARATIONS = {"new": Field("text", "the declaration made, in words: {en, ja}"),
                 "last": Field("text", "the declaration it had to beat, in words: {en, ja}")}
# The declaration refusals (declarations.is_higher: B5, B8, B9) carry both declarations; a
# declaration the options rule out (DeclarationError.to_refusal) carries where it fails.
EXPLICIT_DETAILS: dict[str, dict[str, Field]] = {
    **{code: _DECLARATIONS for code in REFUSAL_MESSAGES},
    **{code: {"path": Field("str", "where in the action, e.g. action.declaration.type")}
       for code in OPTION_ERRORS},
    # the reason's code beside its words (the words fill the messages)
    "stock_card_seen": {k: DETAIL_KINDS[k] for k in ("card", "where", "where_text")},
}

# Every code's details, derived from its messages' placeholders.
DETAILS = refusal_details(
    {**{code: texts for code, (_rule, *texts) in MESSAGES.items()},
     **{code: texts for code, (_rule, *texts) in REFUSAL_MESSAGES.items()},
     **{code: ERROR_MESSAGES[code][1:] for code in OPTION_ERRORS}},
    DETAIL_KINDS, explicit=EXPLICIT_DETAILS, sent=lambda name: not name.endswith("_ja"))


def refuse(code: str, **details: Any) -> Refusal:
    """The Refusal for `code`, rule cited as "manteur <n>"; details fill the messages."""
    rule, en, ja = MESSAGES[code]
    return Refusal.from_templates(GAME_ID, code, rule, en, ja, details,
                                  {k: v for k, v in details.items() if not k.endswith("_ja")})


# Referee mode (violations: referee, B19): the codes whose act is recorded and sanctioned
# instead of refused (B.7 of the rules page). The seed knows one sanction, the penalty point
# (B-g); a declaration that does not beat the last costs one (B20, a Decision). Cards the
# player does not hold and cards named from the stock are entry errors and stay refused.
_NOT_HIGHER = Sanction(
    "B20", "the declaration is taken back and the player declares again; the player takes "
    "one penalty point.",
    "宣言を取り消し、そのプレイヤーが宣言し直す。そのプレイヤーは1ポイントの失点をする。",
    ledger=PENALTY, points=1)
_TAKEN_BACK = Sanction(
    "B21", "the act is taken back and the turn stays; the referee warns the player.",
    "行為を取り消し、手番はそのまま。審判はそのプレイヤーに警告を与える。")
SANCTIONS: dict[str, Sanction] = {
    **{code: _NOT_HIGHER for code in REFUSAL_MESSAGES},
    **{code: _TAKEN_BACK for code in ("not_your_turn", "respond_first", "nothing_to_respond",
                                      "nothing_higher", "opener_may_not_exchange",
                                      "already_exchanged", "exchange_too_many",
                                      *OPTION_ERRORS)},
}
