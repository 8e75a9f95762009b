"""Writes examples/<game>.json: one whole match record per game (docs/records.md), played through
the engine by seeded random legal play, so every example is a real match that `card-referee check`
finds consistent, and the same every time it is made (`python -m tools.make_examples`).

Each match is filled in as a tournament would: tags (event, site, date, round, table, referee,
names — some in Japanese), server-seeded deals with their seed, salt and the commitment published
before play, one deal entered from the cards on a physical table (hands, and the `table` of what
lay face up), the referee's rulings (a warning, a penalty, a withdrawal; Man's chombo) as explicit
entries with comments, the score deltas written at the table, each deal's result and the totals.

A physical deal is played beside a seeded twin of the same cards: the twin picks the moves and
says what came off the stock when the table's stock is of unknown order (Man's draws, Manteur's
exchanges and new rounds), exactly as a referee types in what the players show.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import Any

from engine import adjudicate, registry, rng
from engine.records import FORMAT, FORMAT_VERSION, digest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
# A deal of random play ends long before this; a bound keeps a bug from looping for ever.
MAX_ACTIONS_PER_DEAL = 3000


@dataclass(frozen=True)
class Ruling:
    """A referee's entry, made before the deal's action number `at` (0: before the first).
    kind: warning, penalty, withdraw (the seat's last penalty) or chombo (Man, 8)."""

    at: int
    kind: str
    seat: str
    reason: str = ""
    points: int = 0
    comment: str = ""


@dataclass(frozen=True)
class Plan:
    game: str
    players: list[str]
    options: dict[str, Any]
    tags: dict[str, Any]
    deals: int
    physical: int                      # the deal entered from the cards on the table
    rulings: dict[int, list[Ruling]] = field(default_factory=dict)
    comments: dict[tuple[int, int], str] = field(default_factory=dict)  # (deal, action) -> text


PLANS = [
    Plan("man", ["aoki", "baba", "chiba", "doi"], {"violations": "chombo", "match_games": 4},
         {"event": "まん秋季オープン 2026", "site": "京都", "date": "2026-11-21", "round": "2",
          "table": "5", "referee": "佐藤", "names": {"aoki": "青木", "baba": "馬場",
                                                     "chiba": "千葉", "doi": "土井"}},
         deals=4, physical=2,
         rulings={0: [Ruling(6, "warning", "baba", "slow play", comment="二度目の長考")],
                  1: [Ruling(9, "chombo", "chiba", "played out of turn (3.1)",
                             comment="手番外に出した: チョンボ")],
                  3: [Ruling(4, "penalty", "doi", "showed a card", points=1,
                             comment="手札を見せた"),
                      Ruling(8, "withdraw", "doi", comment="審判長の裁定で取り消し")]},
         comments={(0, 0): "opening race"}),
    Plan("manillen", ["anna", "bram", "cis", "dirk"], {"booms_to_win": 3, "max_doublings": 2},
         {"event": "Manillenkampioenschap Brugge", "site": "Brugge", "date": "2026-10-03",
          "round": 4, "table": 12, "referee": "Lieve Peeters",
          "names": {"anna": "Anna Claes", "bram": "Bram Maes", "cis": "Cis Wouters",
                    "dirk": "Dirk Jacobs"}},
         deals=3, physical=1,
         rulings={1: [Ruling(12, "penalty", "cis", "renounce (A24)", points=5,
                             comment="did not follow suit, seen by both sides")],
                  2: [Ruling(3, "warning", "bram", "talking during play")]}),
    Plan("guandan", ["p1", "p2", "p3", "p4"], {},
         {"event": "掼蛋邀请赛 / Guandan Invitational", "site": "Taipei", "date": "2026-09-12",
          "round": "QF", "table": "3", "referee": "林",
          "names": {"p1": "王", "p2": "李", "p3": "張", "p4": "陳"}, "stream": "table-3"},
         deals=3, physical=1,
         rulings={2: [Ruling(10, "warning", "p4", "signalling to the partner"),
                      Ruling(25, "penalty", "p4", "signalling again", points=1,
                             comment="second offence: one level")]}),
    Plan("daifugo", ["ken", "yui", "sho", "mei", "ren"], {"preset": "seed"},
         {"event": "大富豪 名人戦 予選", "site": "東京", "date": "2026-12-05", "round": "1",
          "table": "8", "referee": "高橋",
          "names": {"ken": "健", "yui": "結衣", "sho": "翔", "mei": "芽衣", "ren": "蓮"}},
         deals=4, physical=2,
         rulings={1: [Ruling(5, "warning", "sho", "slow play", comment="持ち時間超過")],
                  3: [Ruling(2, "penalty", "mei", "exchange card shown", points=1,
                             comment="交換のカードを見せた")]}),
    Plan("manteur", ["alice", "bruno", "chloe"], {"penalty_limit": 3},
         {"event": "Tournoi du Menteur", "site": "Lyon", "date": "2026-11-14", "round": "final",
          "table": "1", "referee": "Mme Girard",
          "names": {"alice": "Alice", "bruno": "Bruno", "chloe": "Chloé"}},
         deals=1, physical=0,
         rulings={0: [Ruling(3, "warning", "bruno", "showed a card while exchanging"),
                      Ruling(7, "penalty", "chloe", "declared out of turn", points=1,
                             comment="pénalité d'un point")]}),
]



def named_draws(game_id: str) -> dict[str, str]:
    """A physical table's stock has no known order: the field of each action that names what
    came off it, as the game's package states it (its conformance.json `named_draws`)."""
    module = sys.modules[type(registry.get(game_id)).__module__]
    facts = json.loads((Path(module.__file__).parent / "conformance.json").read_text("utf-8"))
    return facts.get("named_draws", {})


def _salt(name: str) -> str:
    return hashlib.sha256(f"salt:{name}".encode()).hexdigest()[:32]


def _hand(state: dict, seat: str) -> list[str]:
    if "hands" in state:
        return list(state["hands"][seat])
    return list(state["hand"]) if state.get("holder") == seat else []  # Manteur: one hand


def _gained(before: list[str], after: list[str]) -> list[str]:
    """The cards `after` holds beyond `before`, in the order the hand took them (3.10: cards
    off an unknown stock are named in the order drawn; a reshuffle may come between them)."""
    left = Counter(before)
    out = []
    for card in after:
        if left[card]:
            left[card] -= 1
        else:
            out.append(card)
    return out


def _physical(plan: Plan, twin: dict) -> tuple[dict, dict]:
    """The deal request of the twin's cards entered from the table: (record entry, request)."""
    state = twin["state"]
    if plan.game == "manteur":  # B.6: the starter's five cards, every other seat empty
        hands = {p: _hand(state, p) if p == state["starter"] else [] for p in plan.players}
    else:
        hands = {p: list(state["hands"][p]) for p in plan.players}
    entry: dict[str, Any] = {"hands": hands}
    if plan.game == "man":  # 2.7: the start cards lie face up
        entry["table"] = {"start_cards": list(state["start_cards"])}
    return entry, {"hands": hands, "table": entry.get("table"), "seed": ""}


def _ruling_action(ruling: Ruling, entries: dict[str, int]) -> dict:
    if ruling.kind == "withdraw":
        return {"type": "withdraw", "player": ruling.seat, "entry": entries[ruling.seat]}
    if ruling.kind == "chombo":
        return {"type": "chombo", "player": ruling.seat, "offender": ruling.seat,
                "reason": ruling.reason}
    action = {"type": ruling.kind, "player": ruling.seat, "reason": ruling.reason}
    if ruling.kind == "penalty":
        action["points"] = ruling.points
    return action


def _entry(action: dict, applied, comment: str = "") -> dict:
    out: dict[str, Any] = {"action": action}
    if comment:
        out["comment"] = comment
    if applied.score_deltas:
        out["score_deltas"] = [{"target": d["target"], "kind": d["kind"], "delta": d["delta"]}
                               for d in applied.score_deltas]
    return out


def _play_deal(plan: Plan, k: int, match: dict | None, rnd: random.Random) -> tuple[dict, dict]:
    """One deal of the match: (its record entry, the next deal's match)."""
    name = f"{plan.tags['event']}/r{plan.tags['round']}/t{plan.tags['table']}/deal-{k + 1}"
    seed = hashlib.sha256(name.encode()).hexdigest()[:24]
    salt = _salt(name)
    twin = adjudicate.deal(plan.game, plan.players, plan.options, seed=seed, seed_salt=salt,
                           match=match)
    if k == plan.physical:
        recorded, request = _physical(plan, twin)
        real = adjudicate.deal(plan.game, plan.players, plan.options, match=match,
                               seed_salt=salt, **request)
    else:
        recorded = {"seed": seed, "seed_salt": salt,
                    "seed_commitment": rng.commitment(seed, salt)}
        real = twin
    twin_state, state, to_act, status = twin["state"], real["state"], real["to_act"], real["status"]
    actions: list[dict] = []
    totals: Counter = Counter()
    entries: dict[str, int] = {}
    rulings = sorted(plan.rulings.get(k, ()), key=lambda r: r.at)
    next_match = None
    over = False

    def post(action: dict, comment: str = "") -> Any:
        nonlocal state, to_act, status, next_match, over
        applied = adjudicate.validate(state, action)
        assert applied.valid, (plan.game, k, action, applied.refusal.code, applied.refusal.en)
        actions.append(_entry(action, applied, comment))
        for d in applied.score_deltas:
            totals[d["target"]] += d["delta"]
        for e in applied.events:
            if e["type"] == "penalty_given":
                entries[e["player"]] = e["entry"]
            if e["type"] == "match_finished":  # no next deal, whatever the game carries on
                over = True
        state, to_act, status = applied.state, applied.to_act, applied.status
        # as a client passes it on: JSON (Guandan's summary holds tuples, a deal takes lists)
        next_match = json.loads(json.dumps(applied.next_match))
        return applied

    while status != "finished":
        assert len(actions) < MAX_ACTIONS_PER_DEAL, (plan.game, k)
        if rulings and rulings[0].at <= len(actions):
            ruling = rulings.pop(0)
            action = _ruling_action(ruling, entries)
            post(action, ruling.comment)
            if ruling.kind == "chombo":  # 8: the game ends; the twin is no longer needed
                break
            twin_state = state if real is twin else adjudicate.validate(twin_state, action).state
            continue
        legal = [a for p in to_act for a in adjudicate.legal_actions(state, p)]
        if plan.game == "manteur" and legal and all(a["type"] == "deal" for a in legal):
            # B.6: the new round's five cards, as the twin's shuffle dealt them
            seat = legal[0]["player"]
            post({"type": "deal", "player": seat, "cards": _hand(twin_state, seat)})
            continue
        twin_legal = [a for p in _twin_to_act(twin_state)
                      for a in adjudicate.legal_actions(twin_state, p)]
        moving = [a for a in twin_legal if a["type"] not in ("draw", "pass", "end_turn")]
        choice = rnd.choice(moving if moving and rnd.random() < 0.8 else twin_legal)
        before = _hand(twin_state, choice["player"])
        twin_after = adjudicate.validate(twin_state, choice)
        assert twin_after.valid
        # as a table writes it down: the fields that judge it, not a button's words
        action = {k2: v for k2, v in choice.items() if k2 not in ("game", "text")}
        filled = named_draws(plan.game).get(action["type"])
        if state is not twin_state and filled:
            gained = _gained(before, _hand(twin_after.state, choice["player"]))
            if gained or action["type"] == "exchange":
                action[filled] = gained
        post(action, plan.comments.get((k, len(actions)), ""))
        twin_state = state if real is twin else twin_after.state
    deal_totals = _in_seat_order(plan, totals)
    return {"deal": recorded, "actions": actions,
            "result": {"status": status, "totals": deal_totals}}, None if over else next_match


def _in_seat_order(plan: Plan, totals: Counter) -> dict[str, int]:
    """Seats first in seat order, then teams (a team game's targets) by name."""
    order = {p: i for i, p in enumerate(plan.players)}
    return {t: totals[t] for t in sorted(totals, key=lambda t: (order.get(t, len(order)), t))}


def dumps(record: dict) -> str:
    """Readable JSON: the header indented, one action a line (a record of hundreds of actions
    stays a page a person can read and diff)."""
    def one(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = ["{"]
    keys = list(record)
    for i, key in enumerate(keys):
        end = "," if i < len(keys) - 1 else ""
        if key != "deals":
            lines.append(f" {one(key)}: {one(record[key])}{end}")
            continue
        lines.append(' "deals": [')
        for j, deal in enumerate(record["deals"]):
            lines.append("  {")
            lines.append(f'   "deal": {one(deal["deal"])},')
            lines.append('   "actions": [')
            acts = deal["actions"]
            lines += [f"    {one(a)}{',' if n < len(acts) - 1 else ''}" for n, a in enumerate(acts)]
            lines.append("   ],")
            lines.append(f'   "result": {one(deal["result"])}')
            lines.append("  }" + ("," if j < len(record["deals"]) - 1 else ""))
        lines.append(" ]" + end)
    lines.append("}")
    return "\n".join(lines) + "\n"


def _twin_to_act(state: dict) -> list[str]:
    game, decoded = adjudicate.load_state(state)
    return game.to_act(decoded)


def make(plan: Plan) -> dict:
    rnd = random.Random(f"examples/{plan.game}")
    deals, totals, match = [], Counter(), None
    for k in range(plan.deals):
        entry, match = _play_deal(plan, k, match, rnd)
        deals.append(entry)
        for target, value in entry["result"]["totals"].items():
            totals[target] += value
        if match is None:
            break
    record = {"format": FORMAT, "format_version": FORMAT_VERSION, "game": plan.game,
              "players": plan.players, "options": plan.options,
              "tags": {**plan.tags, "engine": version("card-referee")}, "deals": deals,
              "totals": _in_seat_order(plan, totals)}
    record["digest"] = digest(record)
    return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(EXAMPLES), help="directory (default examples/)")
    parser.add_argument("games", nargs="*", help="only these games")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for plan in PLANS:
        if args.games and plan.game not in args.games:
            continue
        record = make(plan)
        path = out / f"{plan.game}.json"
        text = dumps(record)
        assert json.loads(text) == record
        path.write_text(text, encoding="utf-8")
        print(f"{path}: {len(record['deals'])} deals, "
              f"{sum(len(d['actions']) for d in record['deals'])} actions, totals {record['totals']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
