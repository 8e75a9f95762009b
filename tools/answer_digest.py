"""Every answer of seeded random play-outs, one line each: run it before and after a change
meant to leave the rules alone (a speed-up), and compare the two files (`cmp`): any ruling,
refusal text, event, delta, state encoding or `to_act` that moved shows as a differing line.

Per game, `--deals` play-outs (random presets and table sizes, referee-mode violations in
some, Man's declared calls in some), each to its end; at every step: the legal actions of
every seat to act, a random action (mostly illegal) and a legal one altered (another seat,
other cards, a field left out) validated trusted and untrusted, then a legal one played —
validated trusted, untrusted (the two must agree) and with the public `to_act`. Lines are
`<game> <deal> <step> <what> <digest>` (`--full` writes the answers themselves, for a diff).

Usage: python -m tools.answer_digest OUT [--deals 200] [--games man,daifugo] [--full]
"""
from __future__ import annotations

import argparse
import hashlib
import random
import sys
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine import adjudicate, registry  # noqa: E402
from engine.errors import InputError, InvalidDeal  # noqa: E402
from tests.adjudication import random_action  # noqa: E402

SORTED = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
MAX_STEPS = 3000


def answer(out) -> str:
    """An adjudication's whole answer (or an input error's type, text, path and code)."""
    if isinstance(out, InputError):
        return repr(("input_error", type(out).__name__, str(out), getattr(out, "path", None),
                     getattr(out, "code", None)))
    if out.valid:
        return orjson.dumps({"state": out.state, "deltas": out.score_deltas,
                             "events": out.events, "to_act": out.to_act, "status": out.status,
                             "next_match": out.next_match, "action": out.action},
                            option=SORTED).decode()
    r = out.refusal
    return orjson.dumps({"refusal": [r.code, r.en, r.ja, r.rule, r.details, r.game,
                                     r.to_json("en"), r.to_json("ja")],
                         "state": out.state is not None}, option=SORTED, default=repr).decode()


def _validate(state, action, **kwargs):
    try:
        return adjudicate.validate(state, action, **kwargs)
    except InputError as err:
        return err


def _deal(game, rnd: random.Random, index: int) -> tuple[dict, list[str]]:
    presets = [None, *sorted(game.presets)]
    preset = rnd.choice(presets)
    counts = list(range(game.min_players, min(game.max_players, 6) + 1))
    while True:
        players = [f"p{k}" for k in range(rnd.choice(counts))]
        options = {"preset": preset} if preset else {}
        if "violations" in game.option_map() and rnd.random() < 0.4:
            options["violations"] = game.option_map()["violations"].field.choices[1]
        if game.id == "man" and rnd.random() < 0.3:
            options["calls"] = "declared"
        try:
            return adjudicate.deal(game.id, players, options or None, f"seed{index}",
                                   seed_salt="0" * 32), players
        except InvalidDeal:  # a preset's table size: try another
            counts.remove(len(players))


def _altered(rnd: random.Random, action: dict, state: dict, players: list[str]) -> dict:
    altered = dict(action)
    if rnd.random() < 0.3:
        altered["player"] = rnd.choice(players)
    hands = state.get("hands")
    hand = hands.get(altered["player"]) if isinstance(hands, dict) else None
    if hand and rnd.random() < 0.7:
        altered["cards"] = rnd.sample(hand, rnd.randint(1, min(len(hand), 5)))
    else:
        # a declared field left out (never `text`, a listed action's words, which the engine
        # ignores: leaving it out changes no answer)
        fields = [k for k in altered if k not in ("type", "player", "text")]
        if rnd.random() < 0.3 and fields:
            altered.pop(rnd.choice(fields))
    return altered


def lines(game_id: str, deals: int):
    """(prefix, answer) of every answer of `deals` play-outs of the game, in order."""
    game = registry.get(game_id)
    for index in range(deals):
        rnd = random.Random(f"{game_id}-{index}")
        dealt, players = _deal(game, rnd, index)
        yield f"{game_id} {index} deal", orjson.dumps(dealt, option=SORTED).decode()
        state, to_act, status = dealt["state"], dealt["to_act"], dealt["status"]
        for step in range(MAX_STEPS):
            if status == "finished":
                break
            at = f"{game_id} {index} {step}"
            legal = [a for p in to_act for a in adjudicate.legal_actions(state, p)]
            yield f"{at} legal", orjson.dumps(legal).decode()
            tried = [("random", random_action(rnd, game, players))]
            if legal:
                tried.append(("altered", _altered(rnd, rnd.choice(legal), state, players)))
            for what, action in tried:
                for trusted in (True, False):
                    yield f"{at} {what}-{trusted}", answer(_validate(state, action,
                                                                      trusted=trusted))
            if not legal:
                yield f"{at} no-legal-action", ""
                break
            moving = [a for a in legal if a["type"] not in ("draw", "pass", "chombo", "end_turn")]
            action = rnd.choice(moving if moving and rnd.random() < 0.8 else legal)
            played = adjudicate.validate(state, action, trusted=True)
            untrusted = adjudicate.validate(state, action, trusted=False)
            if answer(played) != answer(untrusted):
                raise AssertionError(f"{at}: trusted and untrusted answers differ")
            yield f"{at} played", answer(played)
            yield f"{at} public-to-act", orjson.dumps(
                adjudicate.validate(state, action, trusted=True, public=True).to_act).decode()
            if not played.valid:
                raise AssertionError(f"{at}: a listed legal action was refused")
            state, to_act, status = played.state, played.to_act, played.status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--games", default=",".join(g.id for g in registry.all_games()))
    parser.add_argument("--full", action="store_true", help="the answers, not their digests")
    args = parser.parse_args(argv)
    with open(args.out, "w", encoding="utf-8") as out:
        for game_id in args.games.split(","):
            for prefix, text in lines(game_id, args.deals):
                shown = text if args.full else hashlib.sha256(text.encode()).hexdigest()[:16]
                out.write(f"{prefix} {shown}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
