"""What Manteur's score sheet shows: its deal is a whole game of rounds, so one row per round
(B16), each ended by a challenge (B14): who challenged whose declaration, true or a lie, who
took the penalty point and how many they have (B17); a player out (elimination) and the end."""
from __future__ import annotations

from typing import cast

from engine.sheets import CheckedDeal, SheetLine, words


def lines(deal: CheckedDeal) -> list[SheetLine]:
    out: list[SheetLine] = []
    for step, e in deal.events("challenged"):
        n = len(out) + 1
        loser = e["loser"]
        said = e["text"]
        verdict_en, verdict_ja = ("true", "本当") if e["truthful"] else ("a lie", "嘘")
        en = (f"{deal.name(e['player'])} challenged {deal.name(e['declarer'])}'s "
              f"{said['en']}: {verdict_en}; {deal.name(loser)} takes a point ({e['penalties']})")
        ja = (f"{deal.name(e['player'])}が{deal.name(e['declarer'])}の「{said['ja']}」に挑戦: "
              f"{verdict_ja}。{deal.name(loser)}が失点({e['penalties']})")
        ends = [x for s, x in deal.events("eliminated", "match_finished") if s == step]
        for x in ends:
            if x["type"] == "eliminated":
                en += f"; {deal.name(x['player'])} is out"
                ja += f"。{deal.name(x['player'])}が脱落"
            else:
                en += f"; game over, lost by {deal.name(x['loser'])}"
                ja += f"。ゲーム終了: {deal.name(x['loser'])}の負け"
        cells = {loser: words(f"point ({e['penalties']})", f"失点({e['penalties']})")}
        if e["declarer"] != loser:
            cells[e["declarer"]] = words("true", "本当")
        out.append(SheetLine(cells=cells, note=words(en, ja),
                             label=words(f"round {n}", f"第{n}ラウンド"), end=step + 1))
    last = deal.steps[-1]["index"] if deal.steps else -1
    # a round still in play when the record stops (every round above has its end)
    if not out or cast(int, out[-1].end) <= last:
        n = len(out) + 1
        out.append(SheetLine(label=words(f"round {n}", f"第{n}ラウンド")))
    return out
