"""Writes examples/events/*.json: whole finished events (docs/events.md), made through the engine
the way a director runs one, so every example re-derives and the same every time it is made
(`python -m tools.make_event_examples`).

Each round is seated by `next_round` from the round's seed (derived from the example's name and
the round number: fixed, so the files are reproducible), every table plays a short match by
seeded random legal play (tests/records.py `random_record`, as tools/answer_digest.py imports
from tests/) written down as its match record, and the round's seed is revealed after it
(`reveal_round`). The director's substitutes are written into their seats before play (the
record seats the substitute's id) and the director's penalties after the round they were given
in. The finished event carries its digest.

- guandan-swiss-16-pairs.json: 16 fixed pairs, 4 swiss rounds of one deal per table, a
  substitute in round 3, a warning and a points penalty from the director.
- daifugo-20-players.json: 20 players at tables of 4, 4 swiss rounds of two deals per table;
  one player enters late (round 2) and one withdraws before round 4, so rounds 1 and 4 have 19
  players: three byes each, to the lowest placed without one.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: the repository's packages (engine, tests)
    sys.path.insert(0, str(ROOT))

from engine import records  # noqa: E402
from engine.events import FORMAT, FORMAT_VERSION, digest, next_round, reveal_round  # noqa: E402
from tests.records import random_record  # noqa: E402

EXAMPLES = ROOT / "examples" / "events"
# A value whose JSON fits on its line within this many characters is written on one line (an
# action, a table's seats, a deal's seed fields); a longer one is broken into its members.
LINE = 160
# The document's keys in the order a reader wants them (the engine writes its own order).
KEY_ORDER = ("format", "format_version", "name", "tags", "system", "entrants", "rounds",
             "penalties", "digest")


@dataclass(frozen=True)
class Substitute:
    """The director's substitute: `person` takes `player`'s seat in round `round`."""

    round: int
    player: str
    person: dict[str, str]


@dataclass(frozen=True)
class EventPlan:
    file: str
    name: str
    tags: dict[str, Any]
    system: dict[str, Any]
    entrants: list[dict[str, Any]]
    substitutes: list[Substitute] = field(default_factory=list)
    penalties: list[dict[str, Any]] = field(default_factory=list)


GUANDAN_PAIRS = [
    ("aoi", "Aoi", [("aoki", "青木"), ("aida", "相田")]),
    ("bamboo", "Bamboo", [("bai", "白"), ("bao", "鲍")]),
    ("crane", "Crane", [("chen", "陈"), ("cai", "蔡")]),
    ("dragon", "Dragon", [("deng", "邓"), ("ding", "丁")]),
    ("east", "East Wind", [("emma", "Emma"), ("eli", "Eli")]),
    ("fuji", "Fuji", [("fujita", "藤田"), ("fukuda", "福田")]),
    ("gold", "Golden Bridge", [("gao", "高"), ("guo", "郭")]),
    ("harbor", "Harbour", [("hana", "Hana"), ("hugo", "Hugo")]),
    ("iris", "Iris", [("ito", "伊藤"), ("imai", "今井")]),
    ("jade", "Jade", [("jiang", "江"), ("jin", "金")]),
    ("kite", "Kite", [("kato", "加藤"), ("kondo", "近藤")]),
    ("lotus", "Lotus", [("li", "李"), ("lin", "林")]),
    ("maple", "Maple", [("mori", "森"), ("mika", "美香")]),
    ("north", "North Star", [("nina", "Nina"), ("noah", "Noah")]),
    ("orchid", "Orchid", [("ou", "欧"), ("ouyang", "欧阳")]),
    ("pine", "Pine", [("pan", "潘"), ("peng", "彭")]),
]

DAIFUGO_PLAYERS = [
    ("ken", "健"), ("yui", "結衣"), ("sho", "翔"), ("mei", "芽衣"), ("ren", "蓮"),
    ("aoi", "葵"), ("haru", "陽"), ("riko", "莉子"), ("sota", "颯太"), ("hina", "陽菜"),
    ("yuto", "悠斗"), ("mio", "美桜"), ("riku", "陸"), ("saki", "咲"), ("kaito", "海斗"),
    ("nana", "七海"), ("taku", "拓"), ("emi", "恵美"), ("jun", "潤"), ("rina", "里奈"),
]

PLANS = [
    EventPlan(
        "guandan-swiss-16-pairs", "掼蛋 Swiss Pairs / 掼蛋スイス",
        {"site": "Taipei", "date": "2026-12-12", "director": "林"},
        {"game": "guandan", "table_size": 4, "partners": "fixed", "rounds": 4,
         "round_end": {"kind": "deals", "deals": 1}, "event_points": [2, 0],
         "tie_breaks": ["opponents_points", "match_score", "head_to_head"], "seating": "swiss"},
        [{"id": team, "name": name,
          "members": [{"id": pid, "name": person} for pid, person in members]}
         for team, name, members in GUANDAN_PAIRS],
        substitutes=[Substitute(3, "deng", {"id": "du", "name": "杜"})],
        penalties=[{"round": 1, "entrant": "kite", "kind": "warning",
                    "reason": "late to the table"},
                   {"round": 2, "entrant": "kite", "kind": "points", "points": 1,
                    "reason": "late to the table again"}]),
    EventPlan(
        "daifugo-20-players", "大富豪 冬の陣 / Daifugo Winter Open",
        {"site": "東京", "date": "2026-12-19", "director": "高橋"},
        {"game": "daifugo", "options": {"preset": "seed"}, "table_size": 4, "rounds": 4,
         "round_end": {"kind": "deals", "deals": 2}, "event_points": [4, 2, 1, 0],
         "bye_points": 2, "tie_breaks": ["match_score", "opponents_points", "first_places"],
         "seating": "swiss"},
        [{"id": pid, "name": name,
          **({"entered_round": 2} if pid == "rina" else {}),
          **({"withdrawn_round": 4} if pid == "taku" else {})}
         for pid, name in DAIFUGO_PLAYERS]),
]


def round_seed(plan: EventPlan, number: int) -> tuple[str, str]:
    """Round `number`'s seed and salt. A director draws them at random and keeps them secret
    until the round is over; an example derives them from its name, so it is made the same
    every time."""
    def derived(what: str) -> str:
        return hashlib.sha256(f"examples/events/{plan.file}/round/{number}/{what}".encode()
                              ).hexdigest()[:32]
    return derived("seed"), derived("salt")


def _names(plan: EventPlan) -> dict[str, str]:
    """Every seat id's name: individuals', team members' and substitutes'."""
    out = {}
    for entrant in plan.entrants:
        for member in entrant.get("members") or [entrant]:
            out[member["id"]] = member["name"]
    for sub in plan.substitutes:
        out[sub.person["id"]] = sub.person["name"]
    return out


def table_record(plan: EventPlan, number: int, table: dict[str, Any],
                 rnd: random.Random) -> dict[str, Any]:
    """The table's match: random legal play of the round's deals, written as a table writes
    it down (the fields that judge each action, not a button's words), with the event's tags."""
    system = plan.system
    players = [(s.get("substitute") or {}).get("id", s["player"]) for s in table["seats"]]
    record = random_record(system["game"], rnd, deals=system["round_end"]["deals"], physical=0,
                           ledger=0, comments=0, options=system.get("options"),
                           players=players)
    written_down(record)
    # the match totals in seat order, then teams by name (random_record gathers them in a set,
    # whose order changes from one process to the next)
    order = {p: i for i, p in enumerate(players)}
    record["totals"] = {t: record["totals"][t] for t in
                        sorted(record["totals"], key=lambda t: (order.get(t, len(order)), t))}
    names = _names(plan)
    record["tags"] = {"event": plan.name, "site": plan.tags["site"], "date": plan.tags["date"],
                      "round": number, "table": table["number"],
                      "names": {p: names[p] for p in players}}
    record["digest"] = records.digest(record)
    return record


def written_down(record: dict[str, Any]) -> dict[str, Any]:
    """The record as a table writes it down (the table page's record.js): each action's fields
    that judge it, not the words of the button it was picked from. Its digest made again."""
    for deal in record["deals"]:
        for entry in deal["actions"]:
            entry["action"] = {k: v for k, v in entry["action"].items()
                               if k not in ("game", "text")}
    record["digest"] = records.digest(record)
    return record


def make(plan: EventPlan) -> dict[str, Any]:
    """The finished event: every round seated, played, recorded and revealed."""
    rnd = random.Random(f"examples/events/{plan.file}")
    event: dict[str, Any] = {"format": FORMAT, "format_version": FORMAT_VERSION,
                             "name": plan.name, "tags": plan.tags, "system": plan.system,
                             "entrants": plan.entrants}
    for number in range(1, plan.system["rounds"] + 1):
        seed, salt = round_seed(plan, number)
        event = next_round(event, seed, salt)
        played = event["rounds"][-1]
        for sub in plan.substitutes:
            if sub.round == number:
                seat = next(s for t in played["tables"] for s in t["seats"]
                            if s["player"] == sub.player)
                seat["substitute"] = dict(sub.person)
        for table in played["tables"]:
            table["result"] = {"record": table_record(plan, number, table, rnd)}
        event = reveal_round(event, number, seed, salt)
        event.setdefault("penalties", []).extend(
            dict(p) for p in plan.penalties if p["round"] == number)
    event["digest"] = digest(event)
    return {k: event[k] for k in sorted(event, key=lambda k: (k not in KEY_ORDER,
                                                              KEY_ORDER.index(k)
                                                              if k in KEY_ORDER else 0, k))}


def dumps(value: Any, indent: int = 0, column: int = 0) -> str:
    """JSON a person can read and diff: a value that fits on its line within LINE characters
    written on it, a longer object or list one member a line (a table's record: one action a
    line). `indent`: the nesting's spaces; `column`: where on its line the value starts."""
    flat = json.dumps(value, ensure_ascii=False)
    if column + len(flat) <= LINE or not isinstance(value, (dict, list)) or not value:
        return flat
    pad = " " * (indent + 1)
    if isinstance(value, dict):
        members = []
        for k, v in value.items():
            head = f"{pad}{json.dumps(k, ensure_ascii=False)}: "
            members.append(head + dumps(v, indent + 1, len(head)))
    else:
        members = [pad + dumps(v, indent + 1, len(pad)) for v in value]
    return ("{" if isinstance(value, dict) else "[") + "\n" + ",\n".join(members) + "\n" \
        + " " * indent + ("}" if isinstance(value, dict) else "]")


def text(event: dict[str, Any]) -> str:
    """The file's text (what the test compares with the committed file)."""
    return dumps(event) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(EXAMPLES),
                        help="directory (default examples/events/)")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for plan in PLANS:
        event = make(plan)
        written = text(event)
        assert json.loads(written) == event
        path = out / f"{plan.file}.json"
        path.write_text(written, encoding="utf-8")
        tables = sum(len(r["tables"]) for r in event["rounds"])
        byes = sum(len(r.get("byes", ())) for r in event["rounds"])
        print(f"{path}: {len(event['entrants'])} entrants, {len(event['rounds'])} rounds, "
              f"{tables} tables, {byes} byes, {len(written.encode()):,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
