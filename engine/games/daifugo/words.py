"""Daifugo's actions in words (Game.action_text): what a button offering each says, in both
languages, card names from engine.cards."""
from __future__ import annotations

from typing import Any

from engine.cards import JOKERS, SUIT_SYMBOLS, card_label, cards_label
from engine.values import Action

from .options import play_rules
from .plays import PlayError, read_play
from .state import DaifugoState

PASS = {"en": "Pass", "ja": "パス"}
# D5, D6: what a play is, by its form and its number of cards.
_SET = {2: ("pair", "ペア"), 3: ("three of a kind", "3枚組"), 4: ("four of a kind", "4枚組")}


def _form(form: str, size: int) -> tuple[str, str]:
    if form == "stairs":
        return "stairs", "階段"
    if form == "single":
        return "single", "1枚出し"
    return _SET.get(size, (f"{size} of a kind", f"{size}枚組"))


def _stand_in(joker: str, value: str) -> tuple[str, str]:
    """D7: what a joker stands for, in words: a card, `*<rank>` (a set's 5th/6th card), or
    `<suit>-` / `<suit>+` (below / above the stairs)."""
    name = card_label(joker)
    if value.startswith("*"):
        return f"{name['en']} as a {value[1:]}", f"{name['ja']}を{value[1:]}として"
    if value[-1:] in "-+" and value[:-1] in SUIT_SYMBOLS:
        suit = SUIT_SYMBOLS[value[:-1]]
        if value.endswith("-"):
            return f"{name['en']} as the {suit} below the stairs", \
                f"{name['ja']}を階段の下の{suit}として"
        return f"{name['en']} as the {suit} above the stairs", \
            f"{name['ja']}を階段の上の{suit}として"
    card = card_label(value)
    return f"{name['en']} as {card['en']}", f"{name['ja']}を{card['ja']}として"


def _play(s: DaifugoState, a: Action) -> dict[str, str]:
    cards = a.get("cards")
    given = a.get("jokers") or ()
    en, ja = f"Play {cards_label(cards, 'en')}", f"{cards_label(cards, 'ja')} を出す"
    try:
        play = read_play(cards, list(given) or None, play_rules(s.options))
        kind_en, kind_ja = _form(play.form, play.size)
        stand_ins = play.jokers
    except PlayError:  # not a play of these rules: the cards alone (listed plays always read)
        kind_en = kind_ja = ""
        stand_ins = tuple(given)
    if kind_en:
        en, ja = f"{en} · {kind_en}", f"{ja}・{kind_ja}"
    jokers = [c for c in cards if c in JOKERS]
    for joker, value in zip(jokers, stand_ins):
        said = _stand_in(joker, value)
        en, ja = f"{en} ({said[0]})", f"{ja}({said[1]})"
    if a.get("jack_back"):
        en, ja = f"{en} · J-back", f"{ja}・Jバック"
    return {"en": en, "ja": ja}


def action_text(s: DaifugoState, a: Action) -> dict[str, Any]:
    if a.type == "pass":
        return dict(PASS)
    if a.type == "play":
        return _play(s, a)
    cards = a.get("cards") or []
    en, ja = cards_label(cards, "en"), cards_label(cards, "ja")
    if a.type == "give":  # D18
        to = s.owed.receiver if s.owed is not None else None
        if to:
            return {"en": f"Give {en} to {to}", "ja": f"{ja} を{to}に渡す"}
        return {"en": f"Give {en}", "ja": f"{ja} を渡す"}
    if a.type == "discard":  # D19
        return {"en": f"Discard {en}", "ja": f"{ja} を捨てる"}
    # exchange (D11): the cards given back to the seat that paid tribute
    pair = next((e for e in s.exchange if e.upper == a.player), None)
    if pair is not None:
        return {"en": f"Give back {en} to {pair.lower}", "ja": f"{ja} を{pair.lower}に返す"}
    return {"en": f"Give back {en}", "ja": f"{ja} を返す"}
