"""`card-referee`: start the service, and the referee's commands."""
from __future__ import annotations

import argparse
import json
import os
import sys

from .console import (
    EXIT_BAD_INPUT,
    EXIT_REFUSED,
    BadInput,
    columns,
    json_out,
    read_json,
    say,
    write_text,
)


def _serve(args: argparse.Namespace) -> int:
    from gunicorn.app.wsgiapp import run

    from .config import (
        EMBEDDED_REDIS_DIR_ENV,
        KEPT_DIRECTOR_KEY_ENV,
        Settings,
        SettingsError,
        data_dir,
        embedded_redis_wanted,
        kept_director_key,
    )
    from .embedded_redis import EmbeddedRedis, EmbeddedRedisError

    # No CARDREF_REDIS_URL: a Redis of our own, started here in the master before gunicorn forks
    # any worker, its URL in the environment the workers inherit (service/embedded_redis.py).
    embedded = None
    os.environ.pop(EMBEDDED_REDIS_DIR_ENV, None)  # only ever what this serve started
    os.environ.pop(KEPT_DIRECTOR_KEY_ENV, None)
    if embedded_redis_wanted(dict(os.environ)):
        try:
            embedded = EmbeddedRedis(data_dir(dict(os.environ))).start()
        except EmbeddedRedisError as err:
            raise BadInput(f"the embedded Redis: {err}") from None
        os.environ["CARDREF_REDIS_URL"] = embedded.url
        os.environ[EMBEDDED_REDIS_DIR_ENV] = str(embedded.dir)
    try:
        # One command at a venue: with its own Redis and no director key set, serve keeps one in
        # the data folder (made once, the same after a restart), for the workers and printed at
        # start with the director's page (service/gunicorn_conf.py). The data folder is this
        # serve's alone by now (the embedded Redis's lock).
        if embedded is not None and not os.environ.get("CARDREF_DIRECTOR_KEYS"):
            try:
                key_file, key = kept_director_key(data_dir(dict(os.environ)))
            except SettingsError as err:
                raise BadInput(f"the director key: {err}") from None
            os.environ["CARDREF_DIRECTOR_KEYS"] = key
            os.environ[KEPT_DIRECTOR_KEY_ENV] = key_file
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
    finally:
        # gunicorn's master leaves run() by SystemExit once its workers have stopped; a worker
        # leaves through here too (it was forked inside run()), and stop() lets it pass.
        if embedded is not None:
            embedded.stop()
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


REPLAY_FORMAT = """\
The log is one JSON object (UTF-8), as POST /v1/replay takes it:

  {
    "deal":    {"game": "man", "players": ["ann", "bob", "cho"], "seed": "table-7",
                "options": {...}, "dealer": "ann", "deck": [...], "hands": {...},
                "table": {...}},
    "actions": [{"type": "play", "player": "ann", "cards": ["SA"]}, ...]
  }

deal.game and deal.players are required; the other deal fields are optional, as for
POST /v1/games/{game}/deal. Each action is exactly what POST /v1/validate takes
(GET /v1/games lists each game's action types and fields). "-" reads the log from stdin.

Prints a table of the steps (--json: every step, the final state and totals as JSON).
Exit status: 0 every action valid,
1 an action was refused (the replay stops there; its code and rule are printed),
2 the log itself is bad (missing file, not JSON, no deal, a malformed action).
"""


def _read_log(path: str) -> dict:
    log = read_json(path, "a game log")
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
    if args.json:
        json_out(out)
    else:
        _print_replay(out, deal, args.lang)
    return 0 if out["stopped"] is None else EXIT_REFUSED


# ---------------------------------------------------------------- for a person to read

_WORDS = {
    "en": {"step": "#", "player": "player", "action": "action", "score": "score",
           "to_act": "to act", "status": "status", "totals": "Totals", "none": "none",
           "stopped": "STOPPED at step {n}: {code}", "rule": "rule", "finished": "finished",
           "in_progress": "in progress", "deal": "Deal {n}", "seed": "seed {seed!r}",
           "commitment": "commitment {c}", "checked": "checked against the seed",
           "unchecked": "not given in the record", "physical": "dealt from the cards",
           "deal_totals": "deal totals", "match_totals": "Match totals",
           "digest": "Digest", "digest_ok": "the record carries it", "digest_bad":
           "the record carries another: {d}", "digest_none": "the record carries none",
           "consistent": "CONSISTENT: every action, score and total agrees with the rules.",
           "discrepancy": "DISCREPANCY", "where": "deal {deal}, step {step}",
           "where_deal": "deal {deal}", "where_record": "the record's totals or digest",
           "recorded": "recorded", "engine": "engine", "match_over": "the match is over",
           "game": "Game", "players": "Players", "actions": "{n} actions"},
    "ja": {"step": "#", "player": "プレイヤー", "action": "アクション", "score": "得点",
           "to_act": "手番", "status": "状態", "totals": "合計", "none": "なし",
           "stopped": "手 {n} で停止: {code}", "rule": "ルール", "finished": "終了",
           "in_progress": "進行中", "deal": "第{n}局", "seed": "シード {seed!r}",
           "commitment": "コミットメント {c}", "checked": "シードと照合済み",
           "unchecked": "記録になし", "physical": "実際のカードから配札",
           "deal_totals": "局の合計", "match_totals": "試合の合計",
           "digest": "ダイジェスト", "digest_ok": "記録のものと一致", "digest_bad":
           "記録のものと不一致: {d}", "digest_none": "記録になし",
           "consistent": "整合: すべてのアクション・得点・合計がルールどおりです。",
           "discrepancy": "不整合", "where": "第{deal}局 手 {step}",
           "where_deal": "第{deal}局", "where_record": "記録の合計またはダイジェスト",
           "recorded": "記録", "engine": "エンジン", "match_over": "試合終了",
           "game": "ゲーム", "players": "プレイヤー", "actions": "{n} 手"},
}


def _shown_value(value) -> str:
    if isinstance(value, list):
        return " ".join(_shown_value(v) for v in value) or "-"
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _action_text(action: dict) -> str:
    """`play H7 S7`, `penalty points=2 reason=slow`: the type, then its fields (cards bare)."""
    parts = [str(action.get("type"))]
    for key, value in action.items():
        if key in ("type", "player", "game"):
            continue
        parts.append(_shown_value(value) if key in ("cards", "card") else
                     f"{key}={_shown_value(value)}")
    return " ".join(parts)


def _deltas_text(deltas: list) -> str:
    return ", ".join(f"{d['target']} {d['delta']:+d}" for d in deltas)


def _totals_text(totals: dict, none: str) -> str:
    return ", ".join(f"{t} {v:+d}" for t, v in totals.items()) or none


def _step_rows(steps: list, w: dict, comments: bool = False) -> list[list[str]]:
    from engine.sheets import visible
    head = [w["step"], w["player"], w["action"], w["score"], w["to_act"], w["status"]]
    rows = [head + (["comment"] if comments else [])]
    for step in steps:
        a = step["action"]
        row = [str(step["index"] + 1), str(a.get("player")), _action_text(a),
               _deltas_text(step["score_deltas"]), " ".join(step["to_act"]),
               w.get(step["status"], step["status"])]
        if comments:
            row.append(step.get("comment", ""))
        rows.append([visible(cell) for cell in row])  # before the widths are measured
    return rows


def _print_replay(out: dict, deal: dict, lang: str) -> None:
    w = _WORDS[lang]
    say(f"{w['game']}: {deal['game_id']}   {w['players']}: {' '.join(deal['players'])}")
    say(f"{w['commitment'].format(c=out['seed_commitment'])}")
    say(columns(_step_rows(out["steps"], w)))
    stopped = out["stopped"]
    if stopped is not None:
        error = stopped["error"]
        rule = f" ({w['rule']} {error['rule']})" if error.get("rule") else ""
        say(f"{w['stopped'].format(n=stopped['index'] + 1, code=error['code'])}{rule}: "
              f"{_action_text(stopped['action']) if isinstance(stopped['action'], dict) else ''}")
        say(f"  {error['message']}")
    say(f"{w['totals']}: {_totals_text(out['totals'], w['none'])}   "
          f"{w['status']}: {w.get(out['status'], out['status'])}")


CHECK_FORMAT = """\
The file is one match record (JSON, UTF-8; docs/records.md), as POST /v1/records/check takes it:

  {"format": "card-referee/match-record", "format_version": 1, "game": "man",
   "players": ["ann", "bob", "cho"], "options": {"preset": "referee"}, "tags": {...},
   "deals": [{"deal": {"seed": "...", "seed_salt": "...", "seed_commitment": "..."},
              "actions": [{"action": {...}, "comment": "...", "score_deltas": [...]}, ...],
              "result": {"status": "finished", "totals": {...}}}, ...],
   "totals": {...}, "digest": "sha256:..."}

Replays every deal with the match carried between them and prints, for a person, each deal
(how it was dealt, whether its commitment was checked, its actions, its totals), the match
totals, the digest and the first discrepancy with its deal, step and rule (counted from 1;
--json prints the report as the API answers it, indices from 0). "-" reads stdin.
Exit status: 0 consistent, 1 a discrepancy, 2 the file is unreadable or not a match record.
"""


SHEET_HELP = """\
FILE is a match record (docs/records.md; examples/ has one per game); "-" reads it from stdin.
The record is checked as `card-referee check` checks it, then printed as a score sheet: deals
as rows (Manteur: its rounds), seats or teams as columns, the game's own scoring, every
ruling marked and listed (the referee's warnings, penalties and withdrawals, each
irregularity sanctioned in referee mode), the totals, the tags and the record's digest.

  text  a table for a terminal (Japanese names and words aligned by display width)
  csv   the heading as label,value rows, an empty row, the table, then the rulings (RFC 4180)
  html  a printable A4 page, self-contained (no script, no outside font)

Exit status: 0 the record is consistent, 1 the check stopped at a discrepancy (the sheet is
still printed, up to it, and says where it stopped), 2 the record itself is bad (missing
file, not JSON, not a match record).
"""


def _check(args: argparse.Namespace) -> int:
    """Check a match record offline: every deal, the totals, the digest, the first discrepancy."""
    from engine import records
    from engine.game import InputError

    data = read_json(args.file, "a match record")
    try:
        report = records.check_record(data, keep_steps=not args.json, lang=args.lang)
    except InputError as err:
        where = f" at {err.path}" if err.path else ""
        raise BadInput(f"{args.file}: {err.code}{where}: {err.message}") from None
    if args.json:
        json_out(report)
    else:
        _print_check(data, report, args.lang)
    return 0 if report["consistent"] else EXIT_REFUSED


def _print_check(record: dict, report: dict, lang: str) -> None:
    w = _WORDS[lang]
    tags = record.get("tags") or {}
    names = tags.get("names")
    if not isinstance(names, dict):
        names = {}
    seats = " ".join(f"{p} ({names[p]})" if p in names else p for p in record["players"])
    say(f"{w['game']}: {report['game']}   {w['players']}: {seats}")
    about = [str(tags[k]) for k in ("event", "site", "date", "round", "table", "referee")
             if k in tags]
    if about:
        say(" / ".join(about))
    for summary in report["deals"]:
        k = summary["index"]
        dealt = record["deals"][k]["deal"]
        if "seed" in dealt:
            how = w["seed"].format(seed=dealt["seed"])
            if summary["seed_commitment"]:
                how += ", " + w["commitment"].format(c=summary["seed_commitment"]) + " " + (
                    w["checked"] if summary["commitment_checked"] else w["unchecked"])
        else:
            how = w["physical"]
        say()
        say(f"{w['deal'].format(n=k + 1)}: {how}")
        if summary.get("steps"):
            say(columns(_step_rows(summary["steps"], w, comments=any(
                "comment" in s for s in summary["steps"]))))
        state = w.get(summary["status"], summary["status"])
        if summary["match_over"]:
            state += f", {w['match_over']}"
        say(f"{w['actions'].format(n=summary['actions'])}, {state}; {w['deal_totals']}: "
              f"{_totals_text(summary['totals'], w['none'])}")
    say()
    say(f"{w['match_totals']}: {_totals_text(report['totals'], w['none'])}")
    carried = {True: w["digest_ok"], None: w["digest_none"],
               False: w["digest_bad"].format(d=record.get("digest"))}[report["digest_matches"]]
    say(f"{w['digest']}: {report['digest']} ({carried})")
    found = report["discrepancy"]
    if found is None:
        say(w["consistent"])
        return
    if found["deal"] is None:
        where = w["where_record"]
    elif found["step"] is None:
        where = w["where_deal"].format(deal=found["deal"] + 1)
    else:
        where = w["where"].format(deal=found["deal"] + 1, step=found["step"] + 1)
    rule = f" ({w['rule']} {found['rule']})" if found.get("rule") else ""
    say(f"{w['discrepancy']}: {where}: {found['code']}{rule}")
    say(f"  {found['message']}")
    for key in ("recorded", "engine"):
        if found.get(key) is not None:
            say(f"  {w[key]}: {json.dumps(found[key], ensure_ascii=False)}")


def _sheet(args: argparse.Namespace) -> int:
    """Check a match record and print its score sheet."""
    from engine import records, sheets
    from engine.game import InputError

    record = read_json(args.file, "a match record")
    if not isinstance(record, dict):
        raise BadInput(f"{args.file}: a match record is a JSON object")
    try:
        report = records.check_record(record, keep_steps=True, lang=args.lang)
    except InputError as err:
        where = f" at {err.path}" if err.path else ""
        raise BadInput(f"{args.file}: {err.code}{where}: {err.message}") from None
    text = sheets.render(record, report, args.format, args.lang)
    write_text(text, args.output)
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
    serve = sub.add_parser("serve", help="start the service under gunicorn (and a Redis of its "
                           "own when CARDREF_REDIS_URL is not set, with a director key kept "
                           "beside its data unless CARDREF_DIRECTOR_KEYS is set: "
                           "docs/operations.md)")
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
    rep.add_argument("--json", action="store_true",
                     help="print every step, the final state and totals as JSON (the machine's "
                          "output) instead of a table")
    rep.set_defaults(func=_replay)
    chk = sub.add_parser("check", help="check a match record: every deal, the totals, the "
                         "digest and the first discrepancy",
                         description="Check a match record offline.", epilog=CHECK_FORMAT,
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    chk.add_argument("file", help="the match record (JSON; - for stdin)")
    chk.add_argument("--lang", choices=["en", "ja"], default="en")
    chk.add_argument("--json", action="store_true",
                     help="print the check report as JSON (as POST /v1/records/check answers)")
    chk.set_defaults(func=_check)
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
    from .event_cli import add_commands as add_event_commands

    add_event_commands(sub)
    health = sub.add_parser("healthcheck", help="exit 0 when the service's /healthz answers 200")
    health.add_argument("--bind", help="the service's host:port (default CARDREF_BIND or 0.0.0.0:8000)")
    health.add_argument("--url", help="ask this URL instead")
    health.add_argument("--timeout", type=float, default=2.0, help="seconds (default 2)")
    health.set_defaults(func=_healthcheck)
    args = parser.parse_args(argv)  # usage errors: argparse's one line, exit 2
    try:
        code = args.func(args)
        sys.stdout.flush()  # a reader gone is met here, where it is handled, not at exit
        return code
    except BadInput as err:
        from engine.sheets import visible  # a record's text in the message: never raw
        print(visible(f"card-referee {args.command}: error: {err}"), file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`card-referee event standings FILE | head`): what it read is
        # what it wanted. Python would still flush stdout at exit and print a traceback, so
        # stdout goes to /dev/null first (the way the Python docs give for SIGPIPE).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, as a shell reports a command a pipe's end closed


if __name__ == "__main__":
    sys.exit(main())
