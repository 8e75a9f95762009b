"""The hot path of a bench row: its requests answered in process under cProfile, and where
their time went. `make bench` prints one for every row below 0.30 of the floor, so the table
says why with a profile, measured in the same run (docs/performance.md).

The row's bodies go through the service's WSGI app built here with the same trust mode as the
bench's server (bench/payloads.py SERVICE_ENV), without sockets or gunicorn (their cost is the
floor's too); a cold row's distinct bodies are sent once each, as under wrk.

Usage: python bench/hot_paths.py [--group legal-actions] [--name "guandan leader, 27 cards, cold"]
           [--requests 200]
"""
from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import payloads  # noqa: E402

# The request's own wrappers (Flask's dispatch, the view) contain everything: a function whose
# inclusive share is above this is a wrapper, not a place the time goes.
WRAPPER_SHARE = 0.9
OURS = (str(ROOT / "engine") + os.sep, str(ROOT / "service") + os.sep)


def _app(mode: str):
    from service.app import create_app
    from service.config import Settings

    env = {"HOME": os.environ.get("HOME") or tempfile.gettempdir(), "CARDREF_ACCESS_LOG": "",
           "CARDREF_LOG_LEVEL": "WARNING", "CARDREF_METRICS": "off",
           **payloads.SERVICE_ENV[mode]}
    return create_app(Settings.from_env(env))


def _caller(app, case: payloads.Case):
    from werkzeug.test import EnvironBuilder

    statuses: list[int] = []

    def call(body: bytes) -> None:
        builder = EnvironBuilder(path=case.path, method="POST", data=body,
                                 headers={"Content-Type": "application/json",
                                          "Host": "127.0.0.1", **case.headers})
        try:
            environ = builder.get_environ()
        finally:
            builder.close()

        def start_response(status, headers, exc_info=None):
            statuses.append(int(status.split()[0]))

        result = app(environ, start_response)
        try:
            for _ in result:
                pass
        finally:
            getattr(result, "close", lambda: None)()
    return call, statuses


def _where(func: tuple) -> str:
    path, line, name = func
    try:
        path = str(Path(path).resolve().relative_to(ROOT))
    except ValueError:
        path = Path(path).name if path not in ("~", "") else ""
    return f"{path}:{line}({name})" if path else name


def profile(case: payloads.Case, requests: int = 200, top: int = 10) -> list[tuple[float, str]]:
    """(share of the request's time, function) for the `top` project functions the row's time
    goes through (engine/, service/), wrappers left out: the hot path, outermost first."""
    app = _app(case.service)
    call, statuses = _caller(app, case)
    bodies = case.bodies
    call(bodies[0])  # warm: imports, first-use caches (a cold row's next bodies still miss)
    count = min(requests, len(bodies) - 1) if case.cold else requests
    profiler = cProfile.Profile()
    profiler.enable()
    for i in range(count):
        call(bodies[(i + 1) % len(bodies)] if case.cold else bodies[0])
    profiler.disable()
    if any(status != case.status for status in statuses):
        raise SystemExit(f"{case.group} {case.name}: answered {sorted(set(statuses))}, "
                         f"expected {case.status}")
    stats = pstats.Stats(profiler, stream=io.StringIO())
    total = sum(entry[3] for entry in stats.stats.values() if entry[4] == {}) or \
        max(entry[3] for entry in stats.stats.values())
    ours = []
    for func, (_, _, _, cumulative, _) in stats.stats.items():
        share = cumulative / total if total else 0.0
        if share < WRAPPER_SHARE and func[0].startswith(OURS):
            ours.append((share, _where(func)))
    ours.sort(reverse=True)
    return ours[:top]


def lines(case: payloads.Case, requests: int = 200, top: int = 10) -> list[str]:
    """The profile as markdown bullet lines, for the bench's output."""
    return [f"  - {share:5.1%} {where}" for share, where in profile(case, requests, top)]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--group", default="legal-actions")
    parser.add_argument("--name", default="guandan leader, 27 cards, cold")
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args()
    cases = [c for c in payloads.all_cases(cold_count=2 * args.requests, seed=1)
             if c.group == args.group and c.name == args.name]
    if not cases:
        raise SystemExit(f"no row {args.group} / {args.name}")
    print(f"{args.group} {args.name}: where its time goes (share of a request, in process)")
    print("\n".join(lines(cases[0], args.requests, args.top)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
