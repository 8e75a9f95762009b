"""What Manteur's score sheet shows: its deal is a whole game of rounds, so one row per round
(B16), each ended by a challenge (B14): who challenged whose declaration, true or a lie, who
took the penalty point and how many they have (B17); the referee's penalty points and their
withdrawals with the count they leave (B22); a player out (elimination), back in, and the end —
a challenge's or a penalty's."""
from __future__ import annotations

from typing import Any, Mapping

from engine.sheets import CheckedDeal, SheetLine, words


def _ends(deal: CheckedDeal, event: Mapping[str, Any]) -> tuple[str, str]:
    """(en, ja) of an event that puts a player out or back in, or ends the game."""
    if event["type"] == "eliminated":
        return f"{deal.name(event['player'])} is out", f"{deal.name(event['player'])}が脱落"
    if event["type"] == "reinstated":
        return (f"{deal.name(event['player'])} is back in ({event['penalties']})",
                f"{deal.name(event['player'])}が復帰({event['penalties']})")
    return (f"game over, lost by {deal.name(event['loser'])}",
            f"ゲーム終了: {deal.name(event['loser'])}の負け")


_ENDS = ("eliminated", "reinstated", "match_finished")


def _referee_counts(deal: CheckedDeal, start: int, end: int) -> dict[str, Any]:
    """The cells of the referee's penalty points (and withdrawals) in steps [start, end): each
    seat's count after the last of them (B22: they count with the challenges')."""
    cells: dict[str, Any] = {}
    for step in deal.steps:
        if not start <= step["index"] < end or \
                not any(e.get("type") in ("penalty_given", "withdrawn") for e in step["events"]):
            continue
        for d in step["score_deltas"]:
            if d["kind"] == "penalty" and "total" in d:
                cells[d["target"]] = words(f"points ({d['total']})", f"失点({d['total']})")
    return cells


def lines(deal: CheckedDeal) -> list[SheetLine]:
    out: list[SheetLine] = []
    start = 0
    for step, e in deal.events("challenged"):
        n = len(out) + 1
        loser = e["loser"]
        said = e["text"]
        verdict_en, verdict_ja = ("true", "本当") if e["truthful"] else ("a lie", "嘘")
        en = [f"{deal.name(e['player'])} challenged {deal.name(e['declarer'])}'s "
              f"{said['en']}: {verdict_en}; {deal.name(loser)} takes a point ({e['penalties']})"]
        ja = [f"{deal.name(e['player'])}が{deal.name(e['declarer'])}の「{said['ja']}」に挑戦: "
              f"{verdict_ja}。{deal.name(loser)}が失点({e['penalties']})"]
        for _, x in (x for x in deal.events(*_ENDS) if start <= x[0] <= step):
            en.append(_ends(deal, x)[0])
            ja.append(_ends(deal, x)[1])
        cells = {**_referee_counts(deal, start, step + 1),
                 loser: words(f"point ({e['penalties']})", f"失点({e['penalties']})")}
        if e["declarer"] != loser:
            cells[e["declarer"]] = words("true", "本当")
        out.append(SheetLine(cells=cells, note=words("; ".join(en), "。".join(ja)),
                             label=words(f"round {n}", f"第{n}ラウンド"), end=step + 1))
        start = step + 1
    last = deal.steps[-1]["index"] if deal.steps else -1
    # a round still in play when the record stops, or the game ended by a referee's penalty
    # (B22) after the last challenge (every round above has its end)
    if not out or start <= last:
        n = len(out) + 1
        said = [_ends(deal, x) for s, x in deal.events(*_ENDS) if s >= start]
        out.append(SheetLine(cells=_referee_counts(deal, start, last + 1),
                             note=words("; ".join(en for en, _ in said),
                                        "。".join(ja for _, ja in said)),
                             label=words(f"round {n}", f"第{n}ラウンド")))
    return out
