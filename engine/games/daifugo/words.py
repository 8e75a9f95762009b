"""Daifugo's actions in words (Game.action_text): what a button offering each says, in both
languages, card names from engine.cards."""
from __future__ import annotations

from typing import Any

from engine.cards import JOKERS, SUIT_SYMBOLS, card_label, cards_label
from engine.summary import counted, ordinal
from engine.values import Action, Event

from .options import play_rules
from .phases import TITLE_NAMES
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


# What a play triggered (the `played` event's effects), and why the field was cleared (D9 …).
EFFECT_WORDS = {"spade3_return": ("♠3 return", "スペ3返し"), "revolution": ("revolution", "革命"),
                "jack_back": ("J-back", "Jバック"), "eight_cut": ("8-cut", "8切り"),
                "lock_formed": ("lock", "しばり"), "lock_broken": ("lock broken", "しばり解除"),
                "clear": ("the field clears", "場が流れる")}
CLEAR_WORDS = {"spade3_return": ("♠3 return", "スペ3返し"), "eight_cut": ("8-cut", "8切り"),
               "double_nine_cut": ("double-9 cut", "99切り"),
               "strongest": ("nothing can beat it", "最強の札"),
               "passes": ("everyone passed", "全員パス")}


def _played(d: Any) -> dict[str, str]:
    cards = d["cards"]
    kind = _form(d["form"], len(cards))
    en = f"{d['player']} plays {cards_label(cards, 'en')} · {kind[0]}"
    ja = f"{d['player']}が{cards_label(cards, 'ja')} を出す・{kind[1]}"
    jokers = [c for c in cards if c in JOKERS]
    for joker, value in zip(jokers, d.get("jokers") or ()):
        said = _stand_in(joker, value)
        en, ja = f"{en} ({said[0]})", f"{ja}({said[1]})"
    effects = [EFFECT_WORDS.get(x, (x, x)) for x in d["effects"]]
    if effects:
        en += " · " + ", ".join(x[0] for x in effects)
        ja += "・" + "、".join(x[1] for x in effects)
    return {"en": en, "ja": ja}


def _title(title: str) -> tuple[str, str]:
    ja, en = TITLE_NAMES.get(title, (title, title))
    return en, ja


def event_text(e: Event) -> dict[str, str]:
    """An event in words a referee reads out (Game.event_text)."""
    d = e.data
    if e.type == "played":
        return _played(d)
    if e.type == "passed":
        return {"en": f"{d['player']} passes", "ja": f"{d['player']}はパス"}
    if e.type == "field_cleared":
        why = CLEAR_WORDS.get(d["reason"], (d["reason"], d["reason"]))
        return {"en": f"The field clears ({why[0]}); {d['by']} leads",
                "ja": f"場が流れる({why[1]})。{d['by']}がリード"}
    if e.type == "went_out":
        place = ordinal(d["place"])
        return {"en": f"{d['player']} goes out, {place[0]}", "ja": f"{d['player']}が{place[1]}で上がり"}
    if e.type == "miyako_ochi":  # D23
        return {"en": f"{d['player']}, the last daifugo, falls (miyako-ochi)",
                "ja": f"前回の大富豪{d['player']}が都落ち"}
    if e.type == "skipped":
        return {"en": f"{d['player']} is skipped", "ja": f"{d['player']}は飛ばされる"}
    if e.type in ("gave", "exchanged"):
        n_en, n_ja = counted(d["count"], "card", "cards", "枚")
        if e.type == "gave":  # D18
            return {"en": f"{d['player']} gives {n_en} to {d['to']} (7-pass)",
                    "ja": f"{d['player']}が{d['to']}に{n_ja}渡す(7渡し)"}
        return {"en": f"{d['player']} gives {n_en} back to {d['to']} (exchange)",
                "ja": f"{d['player']}が{d['to']}に{n_ja}返す(カード交換)"}
    if e.type == "discarded":  # D19
        return {"en": f"{d['player']} discards {cards_label(d['cards'], 'en')} (10-discard)",
                "ja": f"{d['player']}が{cards_label(d['cards'], 'ja')} を捨てる(10捨て)"}
    return _end_text(e)


def _end_text(e: Event) -> dict[str, str]:
    d = e.data
    if e.type == "pass_limit_reached":  # D9
        ranked = ", ".join(d["ranked"])
        return {"en": f"{d['passes']} passes in a row end the deal; the rest ranked: {ranked}",
                "ja": f"{d['passes']}回連続のパスで終了。残りの順位: {'、'.join(d['ranked'])}"}
    if e.type == "deal_finished":
        titles = [(p, _title(d["titles"].get(p, ""))) for p in d["order"]]
        return {"en": "Deal over: " + ", ".join(f"{p} {t[0]}" for p, t in titles),
                "ja": "ディール終了: " + "、".join(f"{p} {t[1]}" for p, t in titles)}
    if e.type == "match_finished":
        who = ", ".join(d["winners"])
        deals = "deal" if d["deals_played"] == 1 else "deals"
        return {"en": f"Match over after {d['deals_played']} {deals}: {who} "
                      f"{'wins' if len(d['winners']) == 1 else 'win'}",
                "ja": f"{d['deals_played']}ディールで対戦終了: {'、'.join(d['winners'])}の勝ち"}
    return {"en": e.type.replace("_", " "), "ja": e.type.replace("_", " ")}
