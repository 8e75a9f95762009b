"""What Guandan's score sheet shows of a deal (SheetLayout.lines, engine/sheets.py): each team's
level, from → to for the team that went up (S-1, S-2) or was sent back (S-5, S-6), then the
referee's level penalties of the deal, counted at its end (S-9), and the level the next deal is
played at (`2→5, penalty −1 → 4`); a hand declared void (R-6) and a forfeited deal (R-7); the
finish and the finishing order (L), a failure at A (S-5), the match's end (S-3)."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine.sheets import CheckedDeal, SheetColumn, SheetLine, signed, words

from .state import LEVELS, TEAMS, team_of


def columns(players: Sequence[str], names: Mapping[str, str]) -> list[SheetColumn]:
    """The two teams (G-1: seats 0 and 2 against 1 and 3): the levels are theirs."""
    out = []
    for team in TEAMS:
        members = [p for p in players if team_of(players, p) == team]
        out.append(SheetColumn(team, words(
            " + ".join(names.get(p, p) for p in members) + f" ({team})",
            "・".join(names.get(p, p) for p in members) + f"({team})")))
    return out


def _referee_levels(deal: CheckedDeal) -> tuple[dict[str, int], dict[str, int]]:
    """By team: (the referee's level penalties and withdrawals of the deal, signed; every
    level delta that is not a move from → to, the bounds' corrections included). S-9: they
    all count when the deal ends, after its own result."""
    ruled = {t: 0 for t in TEAMS}
    moved = {t: 0 for t in TEAMS}
    for step in deal.steps:
        by_referee = any(e.get("type") in ("penalty_given", "withdrawn")
                         for e in step.get("events", ()))
        for d in step["score_deltas"]:
            if d["kind"] == "level" and d["target"] in moved and "from" not in d:
                moved[d["target"]] += d["delta"]
                if by_referee:
                    ruled[d["target"]] += d["delta"]
    return ruled, moved


def _level_cell(level: str, ruled: int, moved: int, finished: bool) -> dict[str, Any]:
    """A team's cell: its level (or path), then a penalty of the deal and the level the next
    deal is played at; a deal not finished shows the penalty still to count at its end."""
    if not ruled and not moved:
        return words(level)
    en_kind, ja_kind = ("penalty", "罰則") if ruled <= 0 else ("penalty withdrawn", "罰則取消")
    if not finished:
        return words(f"{level}, {en_kind} {signed(ruled)} at the deal's end",
                     f"{level}、{ja_kind} {signed(ruled)}(局の終わりに)")
    # the deltas of a finished deal sum to the move the bounds let through (scoring.finish_deal)
    index = LEVELS.index(level.rsplit("→", 1)[-1]) + moved
    then = LEVELS[min(len(LEVELS) - 1, max(0, index))]
    return words(f"{level}, {en_kind} {signed(ruled)} → {then}",
                 f"{level}、{ja_kind} {signed(ruled)} → {then}")


def lines(deal: CheckedDeal) -> list[SheetLine]:
    before = dict(((deal.match or {}).get("levels")) or {})
    moves: dict[str, list[tuple[str, str]]] = {t: [] for t in TEAMS}
    for d in deal.deltas():
        if d["kind"] == "level" and d["target"] in moves and "from" in d:
            moves[d["target"]].append((d["from"], d["to"]))
    ruled, moved = _referee_levels(deal)
    finished = deal.status == "finished"
    cells = {}
    for team in TEAMS:
        if moves[team]:
            level = "→".join([moves[team][0][0]] + [to for _, to in moves[team]])
        else:  # the level the deal was played at (a match's first deal: 2, phases.deal)
            level = str(before.get(team) or "2")
        cells[team] = _level_cell(level, ruled[team], moved[team], finished)
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
