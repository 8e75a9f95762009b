"""Refusal codes, each with the rule it cites, whether it is a violation (8.3: in `chombo` mode a
violation ends the game with the penalty instead of being refused), and English and Japanese
messages. Codes are stable API: clients switch on them."""
from __future__ import annotations

from typing import Any

from engine.fields import Field, refusal_details
from engine.values import Refusal

from .actions import CALLS

# code: (rule, violation, English, Japanese). Messages may use {placeholders} from details.
MESSAGES: dict[str, tuple[str, bool, str, str]] = {
    "not_your_turn": (
        "3.1", True, "It is {turn}'s turn, not {player}'s.",
        "今は{turn}の手番です({player}の手番ではありません)。"),
    "opening_race_play_only": (
        "2.4", True, "The opening race is on: the only action is playing a card that matches "
        "the start card.", "開始時の早い者勝ちの最中です。台札と同じ数字かマークのカードを出すことしかできません。"),
    "start_card_unsettled": (
        "2.6", True, "The start card {card} is an effect card; the dealer must keep turning "
        "cards before anyone plays.", "台札{card}は効果カードです。効果カード以外が出るまで親がめくり続けます。"),
    "cards_empty": (
        "3.2", False, "Play at least one card.", "カードを1枚以上出してください。"),
    "cards_duplicate": (
        "3.2", False, "{card} is listed twice.", "{card}が2回指定されています。"),
    "card_not_in_hand": (
        "3.1", False, "{player} does not hold {card}.", "{player}は{card}を持っていません。"),
    "ranks_differ": (
        "3.2", True, "Cards played together must all have the same rank.",
        "同時に出せるのは同じ数字のカードだけです。"),
    "card_does_not_match": (
        "3.1", True, "Neither the rank nor the suit ({suit}) of the top card {top} matches {cards}.",
        "{cards}は一番上の場札{top}と数字もマーク({suit})も一致しません。"),
    "suit_required": (
        "3.1", True, "Name a suit when playing an 8.", "8を出すときはマークを指定してください。"),
    "suit_not_allowed": (
        "3.1", False, "A suit is named only when an 8 is played.", "マークを指定できるのは8を出したときだけです。"),
    "pending_draw_must_answer": (
        "3.8", True, "A draw of {pending} is pending: answer with a matching 2, 3, 8, A or J, "
        "or draw the cards.",
        "{pending}枚のドローが掛かっています。同じ数字かマークの2・3・8・A・Jで返すか、"
        "カードを引いてください。"),
    "already_drew": (
        "3.3", True, "Only one draw per turn: play a card or end the turn.",
        "山札から引けるのは1手番に1回です。カードを出すか手番を終えてください。"),
    "must_play_big_hand": (
        "3.5", True, "With 8 or more cards in hand on your turn a playable card must be played.",
        "自分の手番で手札が8枚以上のときは、出せるカードを必ず出さなければなりません。"),
    "draw_first": (
        "3.3", True, "A turn ends by playing a card; ending without playing needs a draw first.",
        "カードを出さずに手番を終えるには、先に山札から1枚引く必要があります。"),
    "pass_after_first_turn": (
        "3.4", True, "Passing is allowed only in a player's first turn.",
        "パスできるのは1周目(自分の最初の手番)だけです。"),
    "pass_after_draw": (
        "3.4", True, "A pass is made without drawing; after a draw, play or end the turn.",
        "パスは山札から引かずに行います。引いた後はカードを出すか手番を終えてください。"),
    "man_on_start_card": (
        "5.2", True, "No man may be called on the start card.", "台札(最初の場札)にはまんできません。"),
    "man_on_first_turn_card": (
        "5.2", True, "No man may be called on a card played during its player's first turn.",
        "1周目に出されたカードにはまんできません。"),
    "man_own_card": (
        "5.1", True, "No man on a card you played yourself.", "自分が出したカードにはまんできません。"),
    "man_window_closed": (
        "5.3", True, "The top card can no longer be manned by {player}.",
        "{player}はこの場札にもうまんできません。"),
    "man_not_in_reach": (
        "4", True, "False man: the hand totals {total}, over 13, so it makes no numbers.",
        "まんの誤り:手札の合計が{total}で13を超えているため、リーチしていません。"),
    "man_number_not_made": (
        "5.1", True, "False man: the hand cannot make {number}.",
        "まんの誤り:手札で{number}を作ることはできません。"),
    "man_already_called": (
        "5.4", True, "Each player calls at most once per man chain.",
        "1回のまんの応酬で、まんできるのは1人1回までです。"),
    "man_chain_open": (
        "5.4", False, "A man has been called: only a kaeshi or a decline may follow.",
        "まんがコールされています。返しまんか見送りしかできません。"),
    "no_man_chain": (
        "5.4", False, "There is no man to decline.", "見送るまんがありません。"),
    "not_eligible_to_decline": (
        "5.4", False, "{player} cannot counter this man, so has nothing to decline.",
        "{player}はこのまんに返しまんできる立場にないため、見送りは不要です。"),
    "already_declined": (
        "5.4", False, "{player} already declined.", "{player}はすでに見送っています。"),
    "call_missing": (
        "6.2", True, "The end-of-turn call is missing (expected {expected_text[en]}).",
        "手番終了時のコールがありません(正しくは「{expected_text[ja]}」)。"),
    "call_wrong": (
        "6.2", True, "Wrong call {call_text[en]}: expected {expected_text[en]}.",
        "コール「{call_text[ja]}」は誤りです(正しくは「{expected_text[ja]}」)。"),
    "call_not_due": (
        "6.2", False, "No call is due now: the service makes the calls, or this one was made.",
        "今はコールの必要がありません(サービスがコールするか、すでにコール済みです)。"),
    "flip_not_due": (
        "2.3", False, "The start card is settled (or the deal turns it): nothing to flip.",
        "台札はすでに決まっています(またはディールでめくられます)。めくる必要はありません。"),
    "not_dealer": (
        "2.3", False, "Only the dealer {dealer} turns the start cards, not {player}.",
        "台札をめくるのは親の{dealer}です({player}ではありません)。"),
    "stock_cards_required": (
        "3.10", False, "The stock's order is unknown (a deal from the table): name the card(s) "
        "drawn or turned in `cards`.",
        "山札の順番は分かりません(卓の札から入力したディール)。"
        "引いた、またはめくったカードを `cards` で指定してください。"),
    "stock_cards_not_allowed": (
        "3.10", False, "The stock's order is known (a seeded or ordered deck): the service draws "
        "and turns the cards itself, so name none.",
        "山札の順番は分かっています(シードまたは並べたデッキ)。カードはサービスが引くので指定しないでください。"),
    "stock_cards_count": (
        "3.10", False, "{given} card(s) named, but {count} are drawn here.",
        "{given}枚指定されていますが、ここで引くのは{count}枚です。"),
    "stock_card_seen": (
        "3.10", False, "{card} cannot come from the stock: it is {where_text[en]}.",
        "{card}は山札から出てくることはありません: {where_text[ja]}。"),
    "flip_stops_earlier": (
        "2.3", False, "Turning stops at {card} (2.3, 2.5): name the cards up to it only.",
        "めくるのは{card}で止まります(2.3、2.5)。そこまでのカードだけを指定してください。"),
    "flip_goes_on": (
        "2.3", False, "Turning goes on after {card} (2.3, 2.5): name every card turned.",
        "{card}の後もめくり続けます(2.3、2.5)。めくったカードをすべて指定してください。"),
    "chombo_not_enabled": (
        "8.4", False, "Recording a chombo needs the option violations=chombo (referee mode).",
        "チョンボの記録には violations=chombo(審判モード)が必要です。"),
    "chombo_offender_unknown": (
        "8.1", False, "{offender} is not seated in this game.", "{offender}はこの対局の参加者ではありません。"),
}

# Why a card named as drawn cannot come from an unknown stock (3.10), in both languages: only
# what the seat that names it can see (its own hand, the discard pile, its own action, the
# deck). A card in another hand is "not in the stock", never where: refusals that cost nothing
# must not map the hidden cards.
WHERE = {
    "in your hand": "あなたの手札にあります",
    "on the discard pile": "捨て札にあります",
    "named twice": "2回指定されています",
    "not in the deck": "このゲームのデッキにありません",
    "not in the stock": "山札の残りのカードの中にありません",
}

# What each {placeholder} above carries: a refusal's details are its messages' fill values
# (Refusal.from_templates), so these kinds type every code's details (DETAILS).
DETAIL_KINDS: dict[str, Field] = {
    "turn": Field("player", "whose turn it is"),
    "player": Field("player", "the seat concerned"),
    "dealer": Field("player", "the dealer"),
    "offender": Field("str", "the offender named, as given"),
    "card": Field("card", "the card concerned"),
    "cards": Field("cards", "the cards played"),
    "top": Field("card", "the top card of the discard pile"),
    "suit": Field("suit", "the suit to follow (3.1)"),
    "pending": Field("int", "cards the pending draw makes the player take (3.8)"),
    "total": Field("int", "the hand's plain total, A=1 (4)"),
    "number": Field("int", "the man number called"),
    "expected_text": Field("text", "the call due in words, or why none is: {en, ja}"),
    "call_text": Field("text", "the call made in words: {en, ja}"),
    "given": Field("int", "how many cards the action named"),
    "count": Field("int", "how many cards are drawn (3.10)"),
    "where": Field("enum", "why the card cannot be drawn (3.10), as far as the seat can see: in "
                   "its own hand, on the discard pile, named twice, not in the deck, or else "
                   "not in the stock (never where)", choices=tuple(WHERE)),
    "where_text": Field("text", "the same in words: {en, ja}"),
}
_CALL_MADE = Field("enum", "the call made (its code, 6.1)", choices=tuple(CALLS))
_CALL_DUE = Field("enum", "the call due (its code, 6.1); null: none is due",
                  choices=(*CALLS, None))
# Codes whose details carry a code beside its words (the words fill the messages).
EXPLICIT_DETAILS: dict[str, dict[str, Field]] = {
    "call_missing": {"expected": _CALL_DUE, "expected_text": DETAIL_KINDS["expected_text"]},
    "call_wrong": {"call": _CALL_MADE, "call_text": DETAIL_KINDS["call_text"],
                   "expected": _CALL_DUE, "expected_text": DETAIL_KINDS["expected_text"]},
    "stock_card_seen": {"card": DETAIL_KINDS["card"], "where": DETAIL_KINDS["where"],
                        "where_text": DETAIL_KINDS["where_text"]},
}

# Every code's details, derived from its messages' placeholders.
DETAILS = refusal_details({code: (en, ja) for code, (_r, _v, en, ja) in MESSAGES.items()},
                          DETAIL_KINDS, explicit=EXPLICIT_DETAILS)

VIOLATIONS = frozenset(code for code, (_, v, _, _) in MESSAGES.items() if v)


def refuse(code: str, **details: Any) -> Refusal:
    """The Refusal for `code`, rule cited as "man <n>"; details fill the messages and travel
    with the refusal."""
    rule, _violation, en, ja = MESSAGES[code]
    return Refusal.from_templates("man", code, rule, en, ja, details)


def is_violation(refusal: Refusal) -> bool:
    return refusal.code in VIOLATIONS
