"""`card-referee event …`: a tournament director's commands over an event document
(docs/events.md "Endpoints and commands"), the same engine code the /v1/events endpoints run,
offline and without the service's limits."""
from __future__ import annotations

import argparse
import json
from contextlib import contextmanager
from typing import Any, Iterator

from .cli import BadInput, _json_out, _read_json

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
    event = sub.add_parser("event", help="seat and reveal an event's rounds",
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


def _next_round(args: argparse.Namespace) -> int:
    from engine.events import next_round

    event = _read_json(args.file, "an event")
    plan = _read_json(args.plan, "a plan") if args.plan else None
    with _faults(args.file):
        out = next_round(event, args.seed, args.salt, method=args.method, plan=plan)
    _write(out, args.out)
    return 0


def _reveal_round(args: argparse.Namespace) -> int:
    from engine.events import reveal_round

    event = _read_json(args.file, "an event")
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
        _json_out(document)
        return
    try:
        with open(out, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(document, ensure_ascii=False, indent=2) + "\n")
    except OSError as err:
        raise BadInput(f"{out}: cannot write it ({err.strerror or err})") from None
