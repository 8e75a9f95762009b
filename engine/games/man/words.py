"""Man's actions in words (Game.action_text): what a button offering each says, in both
languages, card names from engine.cards and the calls as spoken at the table (6.1)."""
from __future__ import annotations

from typing import Any

from engine.cards import SUIT_NAMES, SUIT_NAMES_JA, cards_label
from engine.values import Action

from .actions import CALLS
from .state import ManState

# What each action does, in words, before its cards and its call.
_PLAIN = {"pass": ("Pass", "パス"), "end_turn": ("End the turn", "手番を終える"),
          "decline": ("Let the man stand", "返さずに見送る"),
          "flip": ("Turn the next card", "次のカードをめくる")}


def _draw(s: ManState, a: Action) -> tuple[str, str]:
    cards = a.get("cards")
    if cards:  # 3.10: the cards drawn from a stock of unknown order, named
        return f"Draw {cards_label(cards, 'en')}", f"{cards_label(cards, 'ja')} を引く"
    n = s.pending_draw if s.pending_draw > 1 else 1  # 3.8: the whole pending draw at once
    return ("Draw a card", "1枚引く") if n == 1 else (f"Draw {n} cards", f"{n}枚引く")


def _with_call(en: str, ja: str, call: str | None) -> dict[str, str]:
    """6.1: the end-of-turn call said with the action."""
    if call and CALLS[call][1] != en:  # a pass called "pass" says it once
        said_ja, said_en = CALLS[call]
        en, ja = f"{en} · “{said_en}”", f"{ja}・「{said_ja}」"
    return {"en": en, "ja": ja}


def action_text(s: ManState, a: Action) -> dict[str, Any]:
    t = a.type
    if t == "play":
        cards = a.get("cards")
        en, ja = f"Play {cards_label(cards, 'en')}", f"{cards_label(cards, 'ja')} を出す"
        suit = a.get("suit")
        if suit:  # 3.1: an 8 names a suit
            en, ja = f"{en} · name {SUIT_NAMES[suit]}", f"{ja}・{SUIT_NAMES_JA[suit]}を指定"
        return _with_call(en, ja, a.get("call"))
    if t == "draw":
        return _with_call(*_draw(s, a), a.get("call"))
    if t == "man":  # 5.1: a man on an open man is a kaeshi
        if s.chain is not None:
            return {"en": "Kaeshi man!", "ja": "返しまん"}
        return {"en": "Man!", "ja": "まん"}
    if t == "call":  # 2.2
        said_ja, said_en = CALLS[a.get("call")]
        return {"en": f"Call “{said_en}”", "ja": f"「{said_ja}」とコールする"}
    if t == "chombo":  # 8.1, the referee's
        return {"en": f"Chombo by {a.get('offender')}", "ja": f"{a.get('offender')}のチョンボ"}
    en, ja = _PLAIN[t]
    return _with_call(en, ja, a.get("call"))
