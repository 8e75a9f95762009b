"""In-process cost of one request: the floor app (bench/floor_app.py) against POST /v1/validate,
each called as a WSGI app with a prebuilt environ, no sockets, no server. The wrk benchmark
(bench/validate_vs_floor.py) is the verdict; this is the A/B tool behind it: repeatable to a few
percent on a busy machine (wall-clock ratios under wrk move by ±0.1 there), and with --profile
it shows where a validate request's time goes.

The service is built as gunicorn builds it (service.wsgi: Settings from the environment, metrics
on in Prometheus multiprocess mode, access log off as in the wrk benchmark), with a state
secret; the posted state is a mid-game Man state (bench/payloads.py's seeded deal and
first legal actions) signed and bound by the service itself: dealt by POST /v1/games/man/deal
and moved on by POST /v1/validate, as a client would hold it.

Usage: python bench/wsgi_costs.py [--game man] [--n 5000] [--repeat 5] [--secret bench-secret]
           [--profile] [--only floor|validate]
Instruction counts (repeatable under load), e.g.:
    valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out \\
        python bench/wsgi_costs.py --n 2000 --repeat 1 --only validate
"""
from __future__ import annotations

import argparse
import atexit
import io
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def _configure_env(secret: str) -> None:
    # Before prometheus_client is imported: its value class (multiprocess files, as under
    # gunicorn, service/gunicorn_conf.py) is chosen at import.
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        made = os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="wsgi-costs-")
        atexit.register(shutil.rmtree, made, True)
    os.environ["CARDREF_STATE_SECRET"] = secret
    os.environ["CARDREF_ACCESS_LOG"] = ""
    os.environ.setdefault("HOME", tempfile.mkdtemp())


def signed_mid_game(client, game_id: str, steps: int = 12) -> tuple[dict, dict]:
    """(state, next action): the seeded deal of bench/payloads.py's mid_game, dealt and moved on
    by the service (so signed and bound as it signs), `steps` first-legal actions in."""
    from bench.payloads import first_legal, seats_of

    answer = client.post(f"/v1/games/{game_id}/deal",
                         json={"players": [f"p{i}" for i in range(seats_of(game_id))],
                               "seed": "bench"})
    if answer.status_code == 403:  # a chosen seed is a referee act when states are signed
        raise SystemExit("deal refused: set CARDREF_REFEREE_KEYS for the bench (see main)")
    state = answer.get_json()["state"]
    for _ in range(steps):
        action = first_legal(_plain(state))
        if action is None:
            break
        out = client.post("/v1/validate", json={"state": state, "action": action}).get_json()
        if not out.get("valid") or out["status"] == "finished":
            break
        state = out["state"]
    return state, first_legal(_plain(state))


def _plain(state: dict) -> dict:
    return {k: v for k, v in state.items() if k not in ("meta", "signature")}


def environ_for(path: str, body: bytes) -> dict:
    from werkzeug.test import EnvironBuilder

    builder = EnvironBuilder(path=path, method="POST", data=body,
                             headers={"Content-Type": "application/json", "Host": "127.0.0.1"})
    try:
        environ = builder.get_environ()
        environ["wsgi.input_terminated"] = True  # as gunicorn's: the server ends the body
        return environ
    finally:
        builder.close()


def caller(app, environ: dict, body: bytes):
    """One request: a fresh copy of the environ with a fresh body stream, the answer drained."""
    statuses: list[str] = []

    def start_response(status, headers, exc_info=None):
        statuses.append(status)

    def call():
        env = environ.copy()
        env["wsgi.input"] = io.BytesIO(body)
        result = app(env, start_response)
        try:
            for _ in result:
                pass
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
    return call, statuses


def per_request_us(call, n: int, repeat: int) -> float:
    """The best of `repeat` runs of n calls, in this process's CPU time: on a shared machine
    the time spent waiting for a core is not counted (wall-clock µs moved by 2× under load)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(n):
            call()
        best = min(best, (time.process_time() - start) / n * 1e6)
    return best


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="man")
    parser.add_argument("--n", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--secret", default="bench-secret", help="'' to bench without signing")
    parser.add_argument("--only", choices=("floor", "validate"))
    parser.add_argument("--profile", action="store_true", help="cProfile the validate calls")
    args = parser.parse_args()
    _configure_env(args.secret)
    # The bench deals with a chosen seed (a referee act when states are signed).
    os.environ.setdefault("CARDREF_REFEREE_KEYS", "bench-referee")

    from floor_app import app as floor_app

    from service.wsgi import app as service_app

    client = service_app.test_client()
    client.environ_base["HTTP_AUTHORIZATION"] = "Bearer " + os.environ["CARDREF_REFEREE_KEYS"]
    state, action = signed_mid_game(client, args.game)
    del client.environ_base["HTTP_AUTHORIZATION"]
    import orjson

    body = orjson.dumps({"state": state, "action": action})
    floor_body = b"{}"
    floor_call, floor_status = caller(floor_app, environ_for("/floor", floor_body), floor_body)
    validate_call, validate_status = caller(service_app, environ_for("/v1/validate", body), body)
    validate_call()
    floor_call()
    assert floor_status[-1].startswith("200") and validate_status[-1].startswith("200"), \
        (floor_status, validate_status)

    if args.profile:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(args.n):
            validate_call()
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(60)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(40)
        return 0

    print(f"game={args.game} body={len(body)} bytes signing={'on' if args.secret else 'off'} "
          f"n={args.n} best of {args.repeat}")
    floor_us = validate_us = None
    if args.only in (None, "floor"):
        floor_us = per_request_us(floor_call, args.n, args.repeat)
        print(f"floor     {floor_us:8.1f} µs/request")
    if args.only in (None, "validate"):
        validate_us = per_request_us(validate_call, args.n, args.repeat)
        print(f"validate  {validate_us:8.1f} µs/request")
    if floor_us and validate_us:
        print(f"floor / validate {floor_us / validate_us:.2f} "
              "(in-process; the wrk ratio adds the server's per-request cost to both)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
