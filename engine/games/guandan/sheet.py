"""What Guandan's score sheet shows of a deal (SheetLayout.lines, engine/sheets.py): each team's
level, from → to for the team that went up (S-1, S-2) or was sent back (S-5, S-6); a hand
declared void (R-6) and a forfeited deal (R-7); the finish and the finishing order (L), a
failure at A (S-5), the match's end (S-3)."""
from __future__ import annotations

from typing import Mapping, Sequence

from engine.sheets import CheckedDeal, SheetColumn, SheetLine, words

from .state import TEAMS, team_of


def columns(players: Sequence[str], names: Mapping[str, str]) -> list[SheetColumn]:
    """The two teams (G-1: seats 0 and 2 against 1 and 3): the levels are theirs."""
    out = []
    for team in TEAMS:
        members = [p for p in players if team_of(players, p) == team]
        out.append(SheetColumn(team, words(
            " + ".join(names.get(p, p) for p in members) + f" ({team})",
            "・".join(names.get(p, p) for p in members) + f"({team})")))
    return out


def lines(deal: CheckedDeal) -> list[SheetLine]:
    before = dict(((deal.match or {}).get("levels")) or {})
    after = dict(((deal.next_match or {}).get("levels")) or {})
    moves: dict[str, list[tuple[str, str]]] = {t: [] for t in TEAMS}
    for d in deal.deltas():
        if d["kind"] == "level" and d["target"] in moves and "from" in d:
            moves[d["target"]].append((d["from"], d["to"]))
    cells = {}
    for team in TEAMS:
        if moves[team]:
            path = [moves[team][0][0]] + [to for _, to in moves[team]]
            cells[team] = words("→".join(path))
        else:
            level = after.get(team) or before.get(team) or ("2" if deal.match is None else "")
            if level:
                cells[team] = words(level)
    en: list[str] = []
    ja: list[str] = []
    for _, e in deal.events("hand_voided"):
        en.append(f"{deal.name(e['player'])}'s hand void, ranked last (R-6: wrong tribute)")
        ja.append(f"{deal.name(e['player'])}の手札は無効、最下位(R-6: 貢错牌)")
    for _, e in deal.events("deal_forfeited"):
        en.append(f"{e['team']} forfeited the deal (R-7: signalling by {deal.name(e['player'])})")
        ja.append(f"{e['team']}は一局負け(R-7: {deal.name(e['player'])}の合図)")
    done = deal.last("deal_finished")
    if done is not None:
        team = done["team"]
        up = moves[team][0] if moves[team] else None
        order = ", ".join(deal.name(p) for p in done["order"])
        en.append(f"{done['finish']} finish: {team} up" +
                  (f" {up[0]}→{up[1]}" if up else "") + f"; order {order}")
        ja.append(f"{done['finish']} で {team} が昇級" +
                  (f" {up[0]}→{up[1]}" if up else "") + f"。順位 {'、'.join(deal.name(p) for p in done['order'])}")
    for _, e in deal.events("a_level_failed"):
        en.append(f"{e['team']} failed at A ({e['failures']})")
        ja.append(f"{e['team']} はAで失敗({e['failures']}回目)")
    for _, e in deal.events("demoted"):
        en.append(f"{e['team']} sent back to {e['to']} ({e['reason']})")
        ja.append(f"{e['team']} は {e['to']} に降級({e['reason']})")
    over = deal.last("match_finished")
    if over is not None:
        en.append(f"match won by {over['team']}")
        ja.append(f"試合終了: {over['team']}の勝ち")
    return [SheetLine(cells=cells, note=words("; ".join(en), "。".join(ja)))]
