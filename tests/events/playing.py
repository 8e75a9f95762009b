"""Whole events played for the tests: every round seated by next_round, each table given a
result — the record of a random play-out (tests/records.py), or a reported result whose places
agree with its scores — the director's points penalties given before the next round is seated
(as a director gives them), and each round's seed revealed. Such an event is what the check
calls consistent. `deal_reports`: a record's deals as its table would report them."""
from __future__ import annotations

import random
from typing import Any

import msgspec

from engine import records, registry
from engine.events import deal_seeds, next_round, parse_event, reveal_round
from engine.events.format import seat_ids, side_seats
from tests.events.helpers import event
from tests.records import random_record


def salt_of(number: int) -> str:
    return f"{number:032x}"


def reported(ev: dict[str, Any], table: Any, rnd: random.Random) -> dict[str, Any]:
    """A reported result of a table: random scores (a side's partners share theirs) and the
    places they give (the fewest first where the game counts against)."""
    parsed = parse_event(ev)
    game = registry.get(parsed.system.game)
    sides = side_seats(parsed.system, game) if parsed.system.partners == "rotating" else \
        [[i] for i in range(len(table.seats))]
    scores: dict[str, int] = {}
    for side in sides:
        score = rnd.randint(-3, 3)
        for i in side:
            scores[table.seats[i].entrant] = score
    sign = -1 if game.standings_fewest_first else 1
    places = {u: 1 + sum(sign * s > sign * v for s in scores.values()) for u, v in scores.items()}
    return {"places": places, "scores": scores}


def deal_reports(game_id: str, record: dict[str, Any]) -> list[Any]:
    """What the record's table would report of each of its deals (`of_deal` of each deal's
    final state: the record cut after it, replayed)."""
    game = registry.get(game_id)
    assert game.reported is not None
    out = []
    for k in range(len(record["deals"])):
        cut = {key: v for key, v in record.items() if key not in ("totals", "digest")}
        cut["deals"] = record["deals"][:k + 1]
        report, state = records.replay_record(cut)
        assert report["consistent"], report["discrepancy"]
        out.append(msgspec.json.decode(msgspec.json.encode(game.reported.of_deal(state))))  # as JSON carries it
    return out


def play_round(ev: dict[str, Any], number: int, rnd: random.Random, records_share: float,
               penalties: bool = True) -> dict[str, Any]:
    seed = f"seed-{number}-{rnd.getrandbits(32)}"
    ev = next_round(ev, seed, salt_of(number))
    parsed = parse_event(ev)
    game = parsed.system.game
    same = [(d["seed"], d["seed_salt"])
            for d in deal_seeds(seed, salt_of(number), parsed.system.same_deals)]
    for table, raw in zip(parsed.rounds[-1].tables, ev["rounds"][-1]["tables"]):
        if rnd.random() < records_share:
            raw["result"] = {"record": random_record(
                game, rnd, deals=max(1, len(same)) if same else rnd.randint(1, 2),
                physical=0.0, ledger=0.0, comments=0.0, players=seat_ids(table),
                options=ev["system"].get("options") or None, seeds=same or None)}
        else:
            raw["result"] = {"reported": reported(ev, table, rnd)}
    if penalties and rnd.random() < 0.5:
        seated = [s.entrant for t in parsed.rounds[-1].tables for s in t.seats]
        ev.setdefault("penalties", []).append(
            {"round": number, "entrant": rnd.choice(seated), "kind": "points",
             "points": rnd.randint(1, 2), "reason": "late to the table"})
    return reveal_round(ev, number, seed, salt_of(number))


def finished(rnd: random.Random, layout: tuple[str, int, str], entrants: int, rounds: int,
             records_share: float = 0.5, same_deals: int = 0, **system: Any) -> dict[str, Any]:
    """An event of `rounds` rounds played (of one more planned) at the layout (game, table size,
    partners), never fewer entrants than a table takes."""
    game, size, partners = layout
    side = len(registry.get(game).partnerships[size][0]) if partners == "fixed" else 1
    entrants = max(entrants, size // side + 1)
    ev = event(entrants, game=game, table_size=size, partners=partners, rounds=rounds + 1,
               event_points=[3, 1, 0], bye_points=2, same_deals=same_deals,
               tie_breaks=["opponents_points", "match_score", "first_places", "head_to_head"],
               **system)
    for number in range(1, rounds + 1):
        ev = play_round(ev, number, rnd, records_share)
    return ev
