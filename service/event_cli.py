"""`card-referee event …`: a tournament director's commands over an event document
(docs/events.md "Endpoints and commands"), the same engine code the /v1/events endpoints run,
offline and without the service's limits: seat the next round, reveal a round's seed, print
the standings, check the whole event, print its sheet."""
from __future__ import annotations

import argparse
import json
from contextlib import contextmanager
from typing import Any, Iterator

from .console import EXIT_REFUSED, BadInput, columns, json_out, read_json, say, write_text

EVENT_HELP = """\
FILE is an event document (JSON, UTF-8; docs/events.md), "card-referee/event" format 1; "-"
reads it from stdin. A fault in it is one line on stderr naming its code and path
(`event_invalid at rounds[0].tables[1].seats`), exit status 2.
"""

NEXT_ROUND_HELP = EVENT_HELP + """
Seats the round after the last one (the system's `seating`, or --method; --plan seats a fixed
round) from the event so far and the round's seed, and writes the event with that round to
stdout (or --out): its tables, byes and the seed's commitment, never the seed. Keep the seed
and salt secret until the round is over, then reveal them with `event reveal-round`.
"""

REVEAL_ROUND_HELP = EVENT_HELP + """
After round N: checks the seed and salt against the commitment published with its seating
(a mismatch is `commitment_mismatch`, exit status 2) and writes the event with the round's
seed, salt and the same deals' seeds revealed to stdout (or --out).
"""


def add_commands(sub: Any) -> None:
    """The `event` command and its subcommands, on the top-level parser's subparsers."""
    event = sub.add_parser("event", help="an event: seat and reveal its rounds, print its "
                           "standings and sheet, check it",
                           description="A tournament director's commands over an event "
                                       "document (docs/events.md).")
    commands = event.add_subparsers(dest="event_command", required=True)

    seat = commands.add_parser("next-round", help="seat the event's next round",
                               description="Seat the event's next round.",
                               epilog=NEXT_ROUND_HELP,
                               formatter_class=argparse.RawDescriptionHelpFormatter)
    seat.add_argument("file", help="the event (JSON; - for stdin)")
    seat.add_argument("--seed", required=True, help="the round's seed (keep it secret until "
                                                    "the round is over)")
    seat.add_argument("--salt", help="its commitment's salt, 32 lowercase hex digits (keep it "
                                     "with the seed); omit only for a seed nobody could guess")
    seat.add_argument("--method", choices=["random", "swiss", "fixed"],
                      help="how to seat the round (default: the system's seating; fixed with "
                           "--plan)")
    seat.add_argument("--plan", help="a fixed round's plan: a JSON file "
                                     "{\"tables\": [[entrant, …], …], \"byes\": [entrant, …]}")
    seat.add_argument("-o", "--out", help="write the event to this file (default stdout)")
    seat.set_defaults(func=_next_round)

    reveal = commands.add_parser("reveal-round", help="reveal a round's seed after it",
                                 description="Reveal a round's seed after it.",
                                 epilog=REVEAL_ROUND_HELP,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    reveal.add_argument("file", help="the event (JSON; - for stdin)")
    reveal.add_argument("--round", type=int, required=True, help="the round, from 1")
    reveal.add_argument("--seed", required=True, help="the seed the round was seated with")
    reveal.add_argument("--salt", help="the salt it was committed with")
    reveal.add_argument("-o", "--out", help="write the event to this file (default stdout)")
    reveal.set_defaults(func=_reveal_round)
    _add_publishing(commands)


STANDINGS_HELP = EVENT_HELP + """
Prints the standings, best first: each entrant's rank, event points, the value of every
tie-break the system declares, tables played and byes, then the event's check (--json: the
report as POST /v1/events/standings answers it). Exit status 0, or 1 when the check found a
discrepancy (the standings are still printed; the discrepancy is named).
"""

CHECK_HELP = EVENT_HELP + """
Re-derives everything in the event (each revealed seed against its commitment, each seating,
each table's record replayed and reported result scored, the penalties, the digest) and names
the first discrepancy with its round, table, deal, step and path (--json: as POST
/v1/events/check answers). Exit status 0 consistent, 1 a discrepancy.
"""

SHEET_HELP = EVENT_HELP + """
Prints the event's publication: the check's outcome, the standings, a crosstable, each
round's seating and results, the deals with their seeds once revealed and the penalties.

  text  for a terminal (Japanese names and words aligned by display width)
  csv   RFC 4180, a spreadsheet's
  html  a printable page, self-contained (no script, no outside font)

Exit status 0, or 1 when the check found a discrepancy (the sheet is still printed).
"""


def _add_publishing(commands: Any) -> None:
    standings = commands.add_parser("standings", help="print the event's standings",
                                    description="Print the event's standings.",
                                    epilog=STANDINGS_HELP,
                                    formatter_class=argparse.RawDescriptionHelpFormatter)
    standings.add_argument("file", help="the event (JSON; - for stdin)")
    standings.add_argument("--lang", choices=["en", "ja"], default="en")
    standings.add_argument("--json", action="store_true",
                           help="print the standings report as JSON")
    standings.set_defaults(func=_standings)

    check = commands.add_parser("check", help="check the whole event; name the first "
                                "discrepancy", description="Check the whole event.",
                                epilog=CHECK_HELP,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    check.add_argument("file", help="the event (JSON; - for stdin)")
    check.add_argument("--lang", choices=["en", "ja"], default="en")
    check.add_argument("--json", action="store_true", help="print the check as JSON")
    check.set_defaults(func=_check)

    sheet = commands.add_parser("sheet", help="print the event's sheet (its publication)",
                                description="Print the event's sheet.", epilog=SHEET_HELP,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sheet.add_argument("file", help="the event (JSON; - for stdin)")
    sheet.add_argument("--format", choices=["text", "csv", "html"], default="text")
    sheet.add_argument("--lang", choices=["en", "ja"], default="en")
    sheet.add_argument("-o", "--output", help="write the sheet to this file (default stdout)")
    sheet.set_defaults(func=_sheet)


_WORDS = {
    "en": {"rank": "rank", "entrant": "entrant", "points": "points", "played": "played",
           "byes": "byes", "consistent": "CONSISTENT: every commitment, seating, record and "
           "reported result re-derived.", "discrepancy": "DISCREPANCY",
           "disqualified": "disqualified"},
    "ja": {"rank": "順位", "entrant": "参加者", "points": "ポイント", "played": "対戦数",
           "byes": "バイ", "consistent": "整合: コミットメント・席順・記録・申告された結果を"
           "すべて導き直しました。", "discrepancy": "不整合", "disqualified": "失格"},
}


def _standings(args: argparse.Namespace) -> int:
    from engine.events.publish import standings_report

    data = read_json(args.file, "an event")
    with _faults(args.file):
        report = standings_report(data, args.lang)
    if args.json:
        json_out(report)
    else:
        _print_standings(report, args.lang)
        _print_check(report["check"], args.lang)
    return 0 if report["check"]["consistent"] else EXIT_REFUSED


def _print_standings(report: dict[str, Any], lang: str) -> None:
    from engine.events.publish import tie_break_name

    w = _WORDS[lang]
    say(" — ".join(x for x in (report["name"], report["system"]) if x))
    head = [w["rank"], w["entrant"], w["points"],
            *(tie_break_name(t, lang) for t in report["tie_breaks"]), w["played"], w["byes"]]
    rows = [head]
    for line in report["standings"]:
        who = f"{line['name']} ({line['entrant']})" if line["name"] != line["entrant"] \
            else line["entrant"]
        if line["disqualified"]:
            who += f" [{w['disqualified']}]"
        rows.append([str(line["rank"]), who, str(line["event_points"]),
                     *(str(line["tie_breaks"].get(t, "")) for t in report["tie_breaks"]),
                     str(line["played"]), str(line["byes"])])
    say(columns(rows))


def _check(args: argparse.Namespace) -> int:
    from engine.events.check import check_event

    data = read_json(args.file, "an event")
    with _faults(args.file):
        checked = check_event(data)
    if args.json:
        json_out(checked)
    else:
        _print_check(checked, args.lang)
    return 0 if checked["consistent"] else EXIT_REFUSED


def _print_check(checked: dict[str, Any], lang: str) -> None:
    w = _WORDS[lang]
    found = checked["discrepancy"]
    if found is None:
        say(w["consistent"])
        return
    say(f"{w['discrepancy']}: {found['code']} at {found['path'] or '(the document)'}")
    say(f"  {found['message'][lang]}")


def _sheet(args: argparse.Namespace) -> int:
    from engine.events.check import check_event
    from engine.events.publish import sheet

    data = read_json(args.file, "an event")
    with _faults(args.file):
        text = sheet(data, args.format, args.lang)
        consistent = check_event(data)["consistent"]
    write_text(text, args.output)
    return 0 if consistent else EXIT_REFUSED


def _next_round(args: argparse.Namespace) -> int:
    from engine.events import next_round

    event = read_json(args.file, "an event")
    plan = read_json(args.plan, "a plan") if args.plan else None
    with _faults(args.file):
        out = next_round(event, args.seed, args.salt, method=args.method, plan=plan)
    _write(out, args.out)
    return 0


def _reveal_round(args: argparse.Namespace) -> int:
    from engine.events import reveal_round

    event = read_json(args.file, "an event")
    with _faults(args.file):
        out = reveal_round(event, args.round, args.seed, args.salt)
    _write(out, args.out)
    return 0


@contextmanager
def _faults(path: str) -> Iterator[None]:
    """An engine fault in the document, as one line (`FILE: code at path: message`), exit 2."""
    from engine.errors import InputError

    try:
        yield
    except InputError as err:
        where = f" at {err.path}" if err.path else ""
        raise BadInput(f"{path}: {err.code}{where}: {err.message}") from None


def _write(document: Any, out: str | None) -> None:
    """The document to stdout, or to the file `out` (as a person would keep it: indented)."""
    if out in (None, "-"):
        json_out(document)
        return
    try:
        with open(out, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(document, ensure_ascii=False, indent=2) + "\n")
    except OSError as err:
        raise BadInput(f"{out}: cannot write it ({err.strerror or err})") from None
