"""What Manillen's score sheet shows of a deal (SheetLayout.lines, engine/sheets.py): each score
holder's card points and tricks, its running score, a boom (A31–A33); the trumps, the
multiplier and what made it (A10, A11, A14–A18), a 30–30 tie's carry (A29), a hand thrown in."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine.cards import SUIT_NAMES, SUIT_NAMES_JA
from engine.sheets import CheckedDeal, SheetColumn, SheetLine, seat_columns, words

from . import sides as sd


def columns(players: Sequence[str], names: Mapping[str, str]) -> list[SheetColumn]:
    """The score holders: two teams with 4 or 6 players (A3, A35), else each player."""
    holders = sd.holders(players)
    if holders == list(players):
        return seat_columns(players, names)
    return [SheetColumn(h, words(" + ".join(names.get(p, p) for p in sd.holder_members(players, h))
                                 + f" ({h})",
                                 "・".join(names.get(p, p) for p in sd.holder_members(players, h))
                                 + f"({h})"))
            for h in holders]


def _trump(e: Mapping[str, Any]) -> tuple[str, str]:
    if e["trump"] == "no_trump":
        return ("blind no-trump", "ブラインドのノートランプ") if e["blind"] else \
            ("no-trump", "ノートランプ")
    return f"trumps {SUIT_NAMES[e['trump']]}", f"切札 {SUIT_NAMES_JA[e['trump']]}"


def lines(deal: CheckedDeal) -> list[SheetLine]:
    holders = sd.holders(deal.players)
    en: list[str] = []
    ja: list[str] = []
    cells: dict[str, Any] = {}
    named = deal.last("trump_named")
    if named is not None:
        t_en, t_ja = _trump(named)
        en.append(f"{t_en} ({deal.name(named['player'])})")
        ja.append(f"{t_ja}({deal.name(named['player'])})")
    thrown = deal.last("thrown_in")
    if thrown is not None:
        en.append(f"thrown in: {deal.name(thrown['player'])} (M-m)")
        ja.append(f"配り直し: {deal.name(thrown['player'])}(M-m)")
    done = deal.last("deal_finished")
    if done is not None:
        booms = (deal.next_match or {}).get("booms") or {}
        over = deal.last("match_finished")
        if over is not None:
            booms = over["booms"]
        boom = deal.last("boom_reached")
        for side in done["sides"]:
            mine = [side["id"]] if side["id"] in holders else \
                [p for p in side["members"] if p in holders]
            for h in mine:
                score = done["scores"].get(h, 0)
                tricks = "trick" if side["tricks"] == 1 else "tricks"
                c_en = f"{side['points']} pts, {side['tricks']} {tricks} → {score}"
                c_ja = f"{side['points']}点・{side['tricks']}トリック → {score}"
                if boom is not None and boom["winner"] == h:
                    c_en += f" BOOM ({booms.get(h, 1)})"
                    c_ja += f" ブーム({booms.get(h, 1)})"
                cells[h] = words(c_en, c_ja)
        factors = done.get("factors") or {}
        made = [(name, factors.get(key, 1)) for key, name in
                (("no_trump", ("no-trump", "ノートランプ")), ("doubling", ("doubling", "ダブル")),
                 ("carry", ("carry", "持ち越し")))]
        made = [(n, v) for n, v in made if v > 1]
        if done.get("multiplier") is not None:
            why_en = " · ".join(f"{n[0]} ×{v}" for n, v in made)
            why_ja = "・".join(f"{n[1]} ×{v}" for n, v in made)
            en.append(f"×{done['multiplier']}" + (f" ({why_en})" if why_en else "") +
                      (" capped" if done.get("capped") else ""))
            ja.append(f"×{done['multiplier']}" + (f"({why_ja})" if why_ja else "") +
                      ("(上限)" if done.get("capped") else ""))
        if done.get("tie"):
            en.append(f"even split: nothing scores, ×{done['next_carry']} carried (A29)")
            ja.append(f"同点: 得点なし、×{done['next_carry']} を持ち越し(A29)")
        if boom is not None:
            members = [deal.name(p) for p in sd.holder_members(deal.players, boom["winner"])]
            en.append(f"boom: {' + '.join(members)}")
            ja.append(f"ブーム: {'・'.join(members)}")
        if over is not None:
            who = ", ".join(deal.name(p) for p in over["winners"])
            en.append(f"match won by {who}")
            ja.append(f"試合終了: {who}の勝ち")
    return [SheetLine(cells=cells, note=words("; ".join(en), "。".join(ja)))]
