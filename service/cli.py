"""`card-referee`: start the service, and the referee's commands."""
from __future__ import annotations

import argparse
import json
import os
import sys


def _serve(args: argparse.Namespace) -> int:
    from gunicorn.app.wsgiapp import run

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


def _replay(args: argparse.Namespace) -> int:
    """Replay a whole log offline: {deal: {...}, actions: [...]} -> each step and totals."""
    from engine import adjudicate
    from engine.game import InputError

    with open(args.file, encoding="utf-8") as fh:
        log = json.load(fh)
    deal = dict(log["deal"])
    deal["game_id"] = deal.pop("game")
    try:
        out = adjudicate.replay(deal, log["actions"])
    except InputError as err:
        print(json.dumps({"code": err.code, "path": err.path, "message": err.message}), file=sys.stderr)
        return 2
    if out["stopped"] is not None:
        out["stopped"]["error"] = out["stopped"]["error"].to_json(args.lang)
    json.dump(out, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0 if out["stopped"] is None else 1


def _verify_seed(args: argparse.Namespace) -> int:
    from engine import rng

    ok = rng.commitment(args.seed) == args.commitment.lower()
    print("match" if ok else "MISMATCH")
    return 0 if ok else 1


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
    rep = sub.add_parser("replay", help="replay a game log offline and print every step")
    rep.add_argument("file")
    rep.add_argument("--lang", choices=["en", "ja"], default="en")
    rep.set_defaults(func=_replay)
    ver = sub.add_parser("verify-seed", help="check a revealed seed against its commitment")
    ver.add_argument("seed")
    ver.add_argument("commitment")
    ver.set_defaults(func=_verify_seed)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
