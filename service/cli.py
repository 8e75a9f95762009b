"""`card-referee`: start the service, and the referee's commands."""
from __future__ import annotations

import argparse
import json
import os
import sys


def _serve(args: argparse.Namespace) -> int:
    from gunicorn.app.wsgiapp import run

    from .config import Settings, SettingsError

    try:  # a wrong setting: one line now, not a traceback from every worker
        Settings.from_env()
    except (SettingsError, ValueError) as err:
        raise BadInput(f"settings: {err}") from None
    os.environ.setdefault("CARDREF_ACCESS_LOG", "on")
    conf = os.path.join(os.path.dirname(__file__), "gunicorn_conf.py")
    argv = ["gunicorn", "-c", conf]
    if args.bind:
        argv += ["--bind", args.bind]
    if args.workers:
        argv += ["--workers", str(args.workers)]
    argv.append("service.wsgi:app")
    sys.argv = argv
    run()
    return 0


def _openapi(args: argparse.Namespace) -> int:
    from .app import create_app
    from .config import Settings

    app = create_app(Settings(metrics=False))
    text = app.extensions["card_referee"].api.spec.to_yaml()
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(text)
    return 0


# Exit codes: 0 all actions valid (or seed matches), 1 an action refused (or seed mismatch),
# 2 bad input (a file missing or unreadable, not JSON, not a game log, a malformed action).
EXIT_REFUSED = 1
EXIT_BAD_INPUT = 2

REPLAY_FORMAT = """\
The log is one JSON object (UTF-8), as POST /v1/replay takes it:

  {
    "deal":    {"game": "man", "players": ["ann", "bob", "cho"], "seed": "table-7",
                "options": {...}, "dealer": "ann", "deck": [...], "hands": {...}},
    "actions": [{"type": "play", "player": "ann", "cards": ["SA"]}, ...]
  }

deal.game and deal.players are required; the other deal fields are optional, as for
POST /v1/games/{game}/deal. Each action is exactly what POST /v1/validate takes
(GET /v1/games lists each game's action types and fields). "-" reads the log from stdin.

Prints every step, the final state and totals as JSON. Exit status: 0 every action valid,
1 an action was refused (the replay stops there; its code and rule are printed),
2 the log itself is bad (missing file, not JSON, no deal, a malformed action).
"""


class BadInput(Exception):
    """Input the command cannot use: one line on stderr, exit 2."""


def _read_log(path: str) -> dict:
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
    except FileNotFoundError:
        raise BadInput(f"{path}: no such file") from None
    except IsADirectoryError:
        raise BadInput(f"{path}: is a directory, not a game log") from None
    except (OSError, UnicodeDecodeError) as err:
        raise BadInput(f"{path}: cannot read it ({err.__class__.__name__}: "
                       f"{getattr(err, 'strerror', None) or err})") from None
    try:
        log = json.loads(text)
    except json.JSONDecodeError as err:
        raise BadInput(f"{path}: not JSON: {err.msg} at line {err.lineno}, "
                       f"column {err.colno}") from None
    if not isinstance(log, dict):
        raise BadInput(f"{path}: a game log is a JSON object with deal and actions "
                       "(see replay --help)")
    deal, actions = log.get("deal"), log.get("actions", [])
    if not isinstance(deal, dict):
        raise BadInput(f"{path}: the log has no deal object (see replay --help)")
    if not isinstance(deal.get("game"), str):
        raise BadInput(f"{path}: deal.game (the game's id, e.g. \"man\") is missing")
    players = deal.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise BadInput(f"{path}: deal.players (a list of player ids) is missing")
    if not isinstance(actions, list):
        raise BadInput(f"{path}: actions is a list of actions")
    return log


def _replay(args: argparse.Namespace) -> int:
    """Replay a whole log offline: {deal: {...}, actions: [...]} -> each step and totals."""
    from engine import adjudicate
    from engine.game import InputError

    log = _read_log(args.file)
    deal = dict(log["deal"])
    deal["game_id"] = deal.pop("game")
    try:
        out = adjudicate.replay(deal, log.get("actions", []))
    except InputError as err:
        where = f" at {err.path}" if err.path else ""
        raise BadInput(f"{args.file}: {err.code}{where}: {err.message}") from None
    except (TypeError, ValueError, KeyError, AttributeError) as err:
        raise BadInput(f"{args.file}: the log does not fit the game ({err})") from None
    if out["stopped"] is not None:
        out["stopped"]["error"] = out["stopped"]["error"].to_json(args.lang)
    json.dump(out, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0 if out["stopped"] is None else EXIT_REFUSED


SHEET_HELP = """\
FILE is a match record (docs/records.md; examples/ has one per game); "-" reads it from stdin.
The record is checked as `card-referee check` checks it, then printed as a score sheet: deals
as rows (Manteur: its rounds), seats or teams as columns, the game's own scoring, the
referee's warnings and penalties marked, the totals, the tags and the record's digest.

  text  a table for a terminal (Japanese names and words aligned by display width)
  csv   the heading as label,value rows, an empty row, then the table (RFC 4180)
  html  a printable A4 page, self-contained (no script, no outside font)

Exit status: 0 the record is consistent, 1 the check stopped at a discrepancy (the sheet is
still printed, up to it, and says where it stopped), 2 the record itself is bad (missing
file, not JSON, not a match record).
"""


def _read_json_object(path: str, what: str) -> dict:
    """A JSON object from a file (or stdin for "-"); anything else is a BadInput."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
    except FileNotFoundError:
        raise BadInput(f"{path}: no such file") from None
    except IsADirectoryError:
        raise BadInput(f"{path}: is a directory, not {what}") from None
    except (OSError, UnicodeDecodeError) as err:
        raise BadInput(f"{path}: cannot read it ({err.__class__.__name__}: "
                       f"{getattr(err, 'strerror', None) or err})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise BadInput(f"{path}: not JSON: {err.msg} at line {err.lineno}, "
                       f"column {err.colno}") from None
    if not isinstance(data, dict):
        raise BadInput(f"{path}: {what} is a JSON object")
    return data


def _sheet(args: argparse.Namespace) -> int:
    """Check a match record and print its score sheet."""
    from engine import records, sheets
    from engine.game import InputError

    record = _read_json_object(args.file, "a match record")
    try:
        report = records.check_record(record, keep_steps=True, lang=args.lang)
    except InputError as err:
        where = f" at {err.path}" if err.path else ""
        raise BadInput(f"{args.file}: {err.code}{where}: {err.message}") from None
    text = sheets.render(record, report, args.format, args.lang)
    if args.output in (None, "-"):
        sys.stdout.write(text)
    else:
        try:
            with open(args.output, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
        except OSError as err:
            raise BadInput(f"{args.output}: cannot write it ({err.strerror or err})") from None
    return 0 if report["consistent"] else EXIT_REFUSED


def _verify_seed(args: argparse.Namespace) -> int:
    """Exit 0 when the seed (and salt) match the commitment, 1 when not. With --salt the
    salted commitment every deal publishes now; without it the bare SHA-256 of the seed that
    deals made before salting published (a salted commitment never matches that way)."""
    from engine import rng

    salt = args.salt
    if salt is not None:
        salt = salt.strip().lower()
        if not rng.valid_salt(salt):
            raise BadInput(f"--salt {args.salt!r}: a salt is 32 hex digits (the deal's "
                           "revealed seed_salt)")
    ok = rng.commitment(args.seed, salt) == args.commitment.strip().lower()
    print("match" if ok else "MISMATCH")
    return 0 if ok else 1


def healthz_url(bind: str) -> str:
    """The /healthz URL of a service bound to `bind` (host:port, as CARDREF_BIND): a wildcard
    host is asked on the loopback address of its family."""
    host, sep, port = bind.rpartition(":")
    if not sep or not port.isdigit() or bind.startswith(("unix:", "fd://")):
        raise BadInput(f"bind {bind!r}: the health check needs host:port")
    host = host.strip("[]")
    if host in ("", "0.0.0.0"):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/healthz"


def _healthcheck(args: argparse.Namespace) -> int:
    """Exit 0 when /healthz answers 200 within the timeout, 1 otherwise (Docker HEALTHCHECK):
    it asks the address the service was told to bind, so a changed CARDREF_BIND is followed."""
    import urllib.error
    import urllib.request

    url = args.url or healthz_url(args.bind or os.environ.get("CARDREF_BIND") or "0.0.0.0:8000")
    try:
        with urllib.request.urlopen(url, timeout=args.timeout) as resp:
            status = resp.status
    except urllib.error.HTTPError as err:
        status = err.code
    except (OSError, ValueError) as err:
        print(f"unhealthy: {url}: {getattr(err, 'reason', None) or err}", file=sys.stderr)
        return 1
    if status != 200:
        print(f"unhealthy: {url} answered {status}", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="card-referee", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="start the service under gunicorn")
    serve.add_argument("--bind", help="host:port (default CARDREF_BIND or 0.0.0.0:8000)")
    serve.add_argument("--workers", type=int, help="worker processes (default: one per core)")
    serve.set_defaults(func=_serve)
    spec = sub.add_parser("openapi", help="write the OpenAPI spec the code generates")
    spec.add_argument("output", nargs="?", default="openapi.yaml")
    spec.set_defaults(func=_openapi)
    rep = sub.add_parser("replay", help="replay a game log offline and print every step",
                         description="Replay a game log offline and print every step.",
                         epilog=REPLAY_FORMAT, formatter_class=argparse.RawDescriptionHelpFormatter)
    rep.add_argument("file", help="the game log (JSON; - for stdin)")
    rep.add_argument("--lang", choices=["en", "ja"], default="en")
    rep.set_defaults(func=_replay)
    sheet = sub.add_parser("sheet", help="check a match record and print its score sheet",
                           description="Check a match record and print its score sheet.",
                           epilog=SHEET_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    sheet.add_argument("file", help="the match record (JSON; - for stdin)")
    sheet.add_argument("--format", choices=["text", "csv", "html"], default="text")
    sheet.add_argument("--lang", choices=["en", "ja"], default="en")
    sheet.add_argument("-o", "--output", help="write the sheet to this file (default stdout)")
    sheet.set_defaults(func=_sheet)
    ver = sub.add_parser("verify-seed", help="check a revealed seed and salt against the "
                         "deal's commitment")
    ver.add_argument("seed")
    ver.add_argument("commitment")
    ver.add_argument("--salt", help="the salt revealed with the seed (seed_salt); omit only "
                     "for a deal made before commitments were salted (bare SHA-256)")
    ver.set_defaults(func=_verify_seed)
    health = sub.add_parser("healthcheck", help="exit 0 when the service's /healthz answers 200")
    health.add_argument("--bind", help="the service's host:port (default CARDREF_BIND or 0.0.0.0:8000)")
    health.add_argument("--url", help="ask this URL instead")
    health.add_argument("--timeout", type=float, default=2.0, help="seconds (default 2)")
    health.set_defaults(func=_healthcheck)
    args = parser.parse_args(argv)  # usage errors: argparse's one line, exit 2
    try:
        return args.func(args)
    except BadInput as err:
        print(f"card-referee {args.command}: error: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
