"""A whole Swiss event of every game run as a tournament director runs one, with the CLI only
(docs/events.md "Running a whole event with the CLI"): an entrant count the tables do not
divide, a late entry, a withdrawal and a substitute; each round seated from a seed with
`card-referee event next-round`, each table's result written into the file — half of them the
match record of a random play-out, half the same kind of play-out reported deal by deal
(`Game.reported.of_deal`) — and the seed revealed with `event reveal-round`; after the last
round the standings printed in English and Japanese, the HTML sheet and the check. Then anyone
holding the file, in a process of their own (`card-referee event standings FILE --json`),
re-derives every seating and the very standings the director printed.

The director's commands run in this process (`service.cli.main(argv)`, the console script's
entry point): a Python start per command would cost about a second each, some sixty of them.
The stranger's re-derivation runs in a subprocess of the installed console script, one per
game."""
from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import registry
from engine.events import parse_event, verify_seating
from engine.events.format import seat_ids
from service import cli
from tests.events.helpers import event, layouts
from tests.events.playing import deal_reports, reported
from tests.records import random_record

ROUNDS = 3
TABLE_SIZE = 4  # the table each game is played at here, or the nearest size it takes
SALTS = {n: f"{n:02d}" * 16 for n in range(1, ROUNDS + 1)}
SUBSTITUTE = {"id": "sub-1", "name": "代打 Sub"}
ROOT = Path(__file__).resolve().parents[2]


def whole_event_layouts() -> list[tuple[str, int, str]]:
    """Every game of the registry at tables of four (or the nearest size it takes): each way
    its partners can go there (Guandan's and Manillen's fixed pairs and rotating partners)."""
    out = []
    for game in registry.all_games():
        mine = [layout for layout in layouts() if layout[0] == game.id]
        size = min({layout[1] for layout in mine}, key=lambda n: (abs(n - TABLE_SIZE), n))
        out += [layout for layout in mine if layout[1] == size]
    return out


def console_script() -> list[str]:
    """`card-referee` as installed beside this Python, else the module its entry point runs."""
    script = Path(sys.executable).with_name("card-referee")
    return [str(script)] if script.exists() else [sys.executable, "-m", "service.cli"]


def units_per_table(layout: tuple[str, int, str]) -> int:
    game, size, partners = layout
    side = len(registry.get(game).partnerships[size][0]) if partners == "fixed" else 1
    return size // side


def entry_list(layout: tuple[str, int, str]) -> dict[str, Any]:
    """The event before round 1: one entrant more than two tables seat, so that the tables do
    not divide them and round 2, with everyone in, has a bye; the last entrant enters late
    (round 2), the first withdraws after round 2."""
    game, size, partners = layout
    count = 2 * units_per_table(layout) + 1
    ev = event(count, game=game, table_size=size, partners=partners, rounds=ROUNDS,
               round_end={"kind": "deals", "deals": 1}, event_points=[3, 1, 0],
               bye_points=1, seating="swiss",
               tie_breaks=["opponents_points", "match_score", "first_places"])
    ev["name"] = f"Whole {game} Swiss"
    ev["entrants"][-1]["entered_round"] = 2
    ev["entrants"][0]["withdrawn_round"] = 3
    return ev


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    """One `card-referee …` command, as the console script runs it: its exit status and what
    it printed."""
    status = cli.main(list(argv))
    return status, capsys.readouterr().out


def table_result(game_id: str, options: dict[str, Any] | None, table: Any, as_record: bool,
                 rnd: random.Random, ev: dict[str, Any]) -> dict[str, Any]:
    """A table's result: the record of a random one-deal play-out, or that play-out's deal as
    the table reports it (its places only, for a game that scores no reported deals)."""
    record = random_record(game_id, rnd, deals=1, physical=0.0, ledger=0.0, comments=0.0,
                           players=seat_ids(table), options=options)
    if as_record:
        return {"record": record}
    if registry.get(game_id).reported is None:
        return {"reported": reported(ev, table, rnd)}
    return {"reported": {"deals": deal_reports(game_id, record)}}


def seated_once_or_bye(ev: dict[str, Any], number: int) -> list[str]:
    rnd = ev["rounds"][number - 1]
    seated = [u for t in rnd["tables"] for u in dict.fromkeys(s["entrant"] for s in t["seats"])]
    return sorted(seated + rnd.get("byes", []))


def may_play(start: dict[str, Any], number: int) -> list[str]:
    return sorted(e["id"] for e in start["entrants"] if e.get("entered_round", 1) <= number
                  and number < e.get("withdrawn_round", ROUNDS + 1))


def standings_rows(printed: str) -> list[tuple[int, str, int]]:
    """(rank, entrant id, event points) of each line `event standings` printed (its columns
    two spaces apart at least; the entrant as `name (id)`)."""
    rows = []
    for line in printed.splitlines()[2:]:
        cells = re.split(r" {2,}", line.strip())
        if not cells[0].isdigit():
            break  # the check's line follows the table
        who = re.fullmatch(r".*\((.+)\)", cells[1])
        rows.append((int(cells[0]), who.group(1) if who else cells[1], int(cells[2])))
    return rows


@pytest.mark.parametrize("layout", whole_event_layouts(), ids=lambda layout: f"{layout[0]}-{layout[2]}")
def test_a_director_runs_a_whole_swiss_event_with_the_cli_and_anyone_re_derives_it(
        layout, tmp_path, capsys):
    game, _, partners = layout
    rnd = random.Random(f"whole-{game}-{partners}")
    start = entry_list(layout)
    assert len(start["entrants"]) % units_per_table(layout)  # the tables do not divide
    path = tmp_path / "event.json"
    path.write_text(json.dumps(start, ensure_ascii=False), encoding="utf-8")
    kinds = set()
    for number in range(1, ROUNDS + 1):
        seed = f"{game}-round-{number}-{rnd.getrandbits(48):012x}"
        assert run(capsys, "event", "next-round", str(path), "--seed", seed,
                   "--salt", SALTS[number], "-o", str(path))[0] == 0
        ev = json.loads(path.read_text(encoding="utf-8"))
        seated = ev["rounds"][-1]
        assert "seed" not in seated and seated["method"] == "swiss"
        assert seated_once_or_bye(ev, number) == may_play(start, number)
        if number == 2:  # the director writes a substitute into a seat once the round is seated
            seated["tables"][0]["seats"][1]["substitute"] = SUBSTITUTE
        parsed = parse_event(ev)
        for k, (table, raw) in enumerate(zip(parsed.rounds[-1].tables, seated["tables"])):
            as_record = (k + number) % 2 == 0
            raw["result"] = table_result(game, ev["system"].get("options") or None, table,
                                         as_record, rnd, ev)
            kinds.add(next(iter(raw["result"])))
        path.write_text(json.dumps(ev, ensure_ascii=False), encoding="utf-8")
        assert run(capsys, "event", "reveal-round", str(path), "--round", str(number),
                   "--seed", seed, "--salt", SALTS[number], "-o", str(path))[0] == 0
    assert kinds == {"record", "reported"}
    ev = json.loads(path.read_text(encoding="utf-8"))
    assert sum(len(r.get("byes", [])) for r in ev["rounds"]) > 0
    assert any(s.get("substitute") == SUBSTITUTE for s in ev["rounds"][1]["tables"][0]["seats"])

    # after the last round: the standings in English and Japanese, the sheet, the check
    status, english = run(capsys, "event", "standings", str(path))
    assert status == 0 and "CONSISTENT" in english
    status, japanese = run(capsys, "event", "standings", str(path), "--lang", "ja")
    assert status == 0 and "順位" in japanese and "整合" in japanese
    assert "得点差" in japanese.splitlines()[1]  # a tie-break's column under its Japanese name
    assert "game score difference" in english.splitlines()[1]
    assert standings_rows(japanese) == standings_rows(english)
    assert len(standings_rows(english)) == len(start["entrants"])
    status, report = run(capsys, "event", "standings", str(path), "--json")
    printed = json.loads(report)
    assert status == 0 and printed["check"]["consistent"]
    assert [(line["rank"], line["entrant"], line["event_points"])
            for line in printed["standings"]] == standings_rows(english)
    page = tmp_path / "sheet.html"
    assert run(capsys, "event", "sheet", str(path), "--format", "html", "-o", str(page))[0] == 0
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and SUBSTITUTE["id"] in html
    assert all(e["name"] in html for e in start["entrants"])
    status, checked = run(capsys, "event", "check", str(path))
    assert status == 0 and "CONSISTENT" in checked

    # anyone holding the file: every seating from its revealed seed, and the same standings
    assert all(verify_seating(ev, number) for number in range(1, ROUNDS + 1))
    stranger = subprocess.run(
        [*console_script(), "event", "standings", str(path), "--json"], capture_output=True,
        text=True, encoding="utf-8", timeout=120, check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=tmp_path)
    assert stranger.returncode == 0, stranger.stderr
    again = json.loads(stranger.stdout)
    assert again["check"]["consistent"]
    assert again["check"]["checked"]["seatings"] == ROUNDS
    assert again["check"]["checked"]["commitments"] == ROUNDS
    assert again["standings"] == printed["standings"]
