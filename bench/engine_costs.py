"""Engine costs per game, in one run: decode (checked), decode_trusted (signed states), apply,
encode, legal-action enumeration, and `validate`: the whole adjudicate.validate of a signed
(trusted) state, what POST /v1/validate asks of the engine (load, parse, apply, encode, the
numbers backstop, to_act), on a mid-game state. Speed is judged here, not in timed tests.

Usage: python bench/engine_costs.py [--n 2000]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.payloads import first_legal, mid_game, played  # noqa: E402
from engine import registry  # noqa: E402


def per_call_us(fn, n: int) -> float:
    start = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - start) / n * 1e6


def main() -> int:
    from engine import adjudicate

    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=2000)
    args = parser.parse_args()
    print(f"{'game':10}{'decode':>9}{'trusted':>9}{'ratio':>7}{'apply':>9}{'encode':>9}{'legal':>9}"
          f"{'validate':>9}  (µs per call)")
    for game in registry.all_games():
        state = mid_game(game.id)
        action = game.parse_action(first_legal(state), state["players"])
        decoded = game.decode(state)
        dec = per_call_us(lambda: game.decode(state), args.n)
        trusted = per_call_us(lambda: game.decode_trusted(state), args.n)
        app = per_call_us(lambda: game.apply(decoded, action), args.n)
        enc = per_call_us(lambda: game.encode(decoded), args.n)
        legal = per_call_us(lambda: [game.legal_actions(decoded, p) for p in decoded.players]
                            if hasattr(decoded, "players") else None, max(1, args.n // 4))
        posted = action.to_json()  # the parsed action as a client posts it
        whole = per_call_us(lambda: adjudicate.validate(state, posted, trusted=True), args.n)
        print(f"{game.id:10}{dec:9.1f}{trusted:9.1f}{trusted / dec:7.2f}{app:9.1f}{enc:9.1f}{legal:9.1f}"
              f"{whole:9.1f}")
    manteur_rows(args.n)
    _daifugo_rows(args.n)
    return 0


def manteur_rows(n: int) -> None:
    """Manteur's own costs: the declaration ladder (every declaration in B9 order, built once
    per set of declaration options and cached), the declarations listed after a bid, and the
    check lookup cold (first sight of a hand) and warm (memoized)."""
    from engine.games.manteur.declarations import DeclarationRules, parse_declaration
    from engine.games.manteur.ladder import Ladder, ladder
    from engine.games.manteur.truth import _check, lookup_check

    rules = DeclarationRules()
    build = per_call_us(lambda: Ladder(rules), max(1, n // 200))
    last = parse_declaration({"type": "pair", "ranks": ["J"]})
    reps = per_call_us(lambda: ladder(rules).representatives(last), n)
    body = {"hand": ["S2", "BJ", "CK", "D7", "S9"],
            "declaration": {"type": "two_pair", "ranks": ["K", "2"], "kickers": ["9"]}}

    def cold():
        _check.cache_clear()
        lookup_check(body)

    print(f"manteur   ladder build {build:9.1f}  representatives {reps:7.1f}  "
          f"check cold {per_call_us(cold, n):7.1f}  warm {per_call_us(lambda: lookup_check(body), n):7.1f}"
          "  (µs per call)")


def _daifugo_rows(n: int) -> None:
    """Daifugo under its other presets (5 seats; seed_full adds stairs and J-back, uecda the
    lock and stairs) and a lead enumeration with two jokers and stairs (the widest search)."""
    from engine.games.daifugo import GAME

    for preset, extra in (("seed_full", {}), ("uecda", {}), ("uecda", {"jokers": 2})):
        players = [f"p{i}" for i in range(5)]
        state = played("daifugo", players, 12, options={"preset": preset, **extra})
        action = GAME.parse_action(first_legal(state), state["players"])
        decoded = GAME.decode(state)
        dec = per_call_us(lambda: GAME.decode(state), n)
        trusted = per_call_us(lambda: GAME.decode_trusted(state), n)
        app = per_call_us(lambda: GAME.apply(decoded, action), n)
        enc = per_call_us(lambda: GAME.encode(decoded), n)
        legal = per_call_us(lambda: [GAME.legal_actions(decoded, p) for p in players],
                            max(1, n // 4))
        name = f"df/{preset}" + ("+2j" if extra else "")
        print(f"{name:14}{dec:5.1f}{trusted:9.1f}{trusted / dec:7.2f}{app:9.1f}{enc:9.1f}"
              f"{legal:9.1f}")


if __name__ == "__main__":
    sys.exit(main())
