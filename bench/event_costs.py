"""Events' costs (docs/events.md, docs/performance.md "Events"), in one run, each measured
against its target as measured / target (≤ 1.00 meets it). Not a test.

The event: 200 Daifugo players (the issue's game; `--game guandan` seats 200 fixed pairs
instead) at tables of 4, 8 swiss rounds of one deal a table, each table's result the match
record of a seeded random legal play-out (tests/records.py random_record) as a table writes it
down (tools/make_event_examples.py written_down: no button words), each round seated by
next_round and revealed: 400 records, ~3 MB of JSON. Built once per run by this script (a
minute or so: every move of 400 matches is enumerated), or read from `--event FILE` (written
there when the file does not exist yet).

The measures run in a fresh child process, one core, CPU time of that process:
  (a) standings (parse_event + standings) with every record replayed: nothing cached yet  < 10 s
  (b) the same again, the document unchanged: the records' outcomes kept (median of 5)   < 200 ms
  (c) seating the 8th round (next_round, swiss) of the event's first 7 rounds (median of 5) < 1 s

Usage: python bench/event_costs.py [--entrants 200] [--rounds 8] [--game daifugo]
           [--event FILE] [--profile a|b|c]
"""
from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.events import FORMAT, FORMAT_VERSION, next_round, parse_event, reveal_round  # noqa: E402
from engine.events.standings import standings  # noqa: E402

TARGETS = {"a": 10.0, "b": 0.2, "c": 1.0}  # seconds
WHAT = {"a": "standings, every record replayed (fresh process)",
        "b": "standings again, records unchanged (cached)",
        "c": "seating the last round (next_round, swiss)"}
SYSTEMS = {
    "daifugo": {"game": "daifugo", "table_size": 4, "event_points": [4, 2, 1, 0]},
    "guandan": {"game": "guandan", "table_size": 4, "partners": "fixed", "event_points": [2, 0]},
}


def build(game: str, entrants: int, rounds: int) -> dict[str, Any]:
    """The finished event: every round seated by next_round, every table's match played out
    by seeded random legal play, every seed revealed."""
    from tests.records import random_record
    from tools.make_event_examples import written_down

    system = {**SYSTEMS[game], "rounds": rounds, "round_end": {"kind": "deals", "deals": 1},
              "tie_breaks": ["opponents_points", "match_score"], "seating": "swiss"}
    if system.get("partners") == "fixed":
        people = [{"id": f"t{i}", "members": [{"id": f"t{i}a"}, {"id": f"t{i}b"}]}
                  for i in range(entrants)]
    else:
        people = [{"id": f"p{i}"} for i in range(entrants)]
    event: dict[str, Any] = {"format": FORMAT, "format_version": FORMAT_VERSION,
                             "name": "Bench Open", "system": system, "entrants": people}
    rnd = random.Random(f"bench/events/{game}/{entrants}")
    for number in range(1, rounds + 1):
        seed, salt = _seed(number), _seed(number, "salt")
        event = next_round(event, seed, salt)
        for table in event["rounds"][-1]["tables"]:
            players = [s["player"] for s in table["seats"]]
            record = random_record(game, rnd, deals=1, physical=0, ledger=0, comments=0,
                                   players=players)
            table["result"] = {"record": written_down(record)}
        event = reveal_round(event, number, seed, salt)
        print(f"  round {number} seated and played", file=sys.stderr)
    return event


def _seed(number: int, what: str = "seed") -> str:
    return hashlib.sha256(f"bench/events/round/{number}/{what}".encode()).hexdigest()[:32]


def cpu(fn: Callable[[], Any]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def measure(path: Path, profile: str | None) -> dict[str, float]:
    """(a), (b) and (c) of the event in `path`, in this process (the child's side)."""
    data = json.loads(path.read_bytes())
    before = {**data, "rounds": data["rounds"][:-1]}
    before.pop("digest", None)

    def table() -> None:
        standings(parse_event(data))

    def seat() -> None:
        next_round(before, _seed(len(data["rounds"])), _seed(len(data["rounds"]), "salt"))

    steps = {"a": table, "b": table, "c": seat}
    out: dict[str, float] = {}
    for name, fn in steps.items():
        if name == profile:
            profiler = cProfile.Profile()
            profiler.runcall(fn)
            pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(25)
            return out
        out[name] = cpu(fn) if name == "a" else statistics.median(cpu(fn) for _ in range(5))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entrants", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--game", choices=sorted(SYSTEMS), default="daifugo")
    parser.add_argument("--event", help="the event's file: read when it exists, else written")
    parser.add_argument("--profile", choices=sorted(TARGETS),
                        help="print where one measure's time goes (cProfile), in the child")
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # the child: the event's file
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(Path(args.measure), args.profile)))
        return 0

    keep = Path(args.event) if args.event else None
    path = keep or Path(tempfile.mkstemp(prefix="cardref-event-", suffix=".json")[1])
    try:
        if keep is None or not keep.exists():
            started = time.monotonic()
            print(f"building the event: {args.entrants} entrants, {args.rounds} rounds of "
                  f"{args.game}…", file=sys.stderr)
            path.write_bytes(json.dumps(build(args.game, args.entrants, args.rounds)).encode())
            print(f"  built in {time.monotonic() - started:.0f} s", file=sys.stderr)
        child = subprocess.run(
            [sys.executable, __file__, "--measure", str(path),
             *(["--profile", args.profile] if args.profile else [])],
            check=True, stdout=subprocess.PIPE, text=True, env={**os.environ})
        times = json.loads(child.stdout)
        event = json.loads(path.read_bytes())
    finally:
        if keep is None:
            path.unlink(missing_ok=True)
    if args.profile:
        return 0
    from bench.endpoints import machine  # the header endpoints.py prints: model, cores, load

    tables = sum(len(r["tables"]) for r in event["rounds"])
    print(f"events · {machine()} · {event['system']['game']}, "
          f"{len(event['entrants'])} entrants, {len(event['rounds'])} rounds, {tables} tables' "
          f"records, {path.stat().st_size if keep else len(json.dumps(event)):,} bytes · "
          "CPU time of one process")
    print(f"{'measure':58}{'measured':>10}{'target':>9}{'ratio':>7}")
    for name, seconds in times.items():
        ratio = seconds / TARGETS[name]
        print(f"({name}) {WHAT[name]:54}{_shown(seconds):>10}{_shown(TARGETS[name]):>9}"
              f"{ratio:7.2f}{'' if ratio <= 1 else '  missed'}")
    return 0


def _shown(seconds: float) -> str:
    return f"{seconds:.2f} s" if seconds >= 1 else f"{seconds * 1000:.0f} ms"


if __name__ == "__main__":
    sys.exit(main())
