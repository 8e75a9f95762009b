"""The next round's seating, from the event so far and the round's seed (docs/events.md).

Deterministic: every random choice draws from engine/rng.py streams named by the round's seed
and a label ("event/round/<n>/…"), so anyone holding the event and the revealed seed re-derives
the same seating (`verify_seating`).

- `random`: the active entrants shuffled; byes to those with the fewest byes so far (the
  shuffle decides among them); tables in shuffled order.
- `swiss`: entrants ranked by event points (the shuffle orders equal points); byes to the
  lowest-placed without one so far (then fewest byes); tables filled from the top of the
  ranking so equal points sit together, no two entrants sharing a table twice while that can
  be avoided (a depth-first search with backtracking over the ranking, bounded by SEARCH_BUDGET;
  past it, or when no such seating exists, a greedy seating improved by swaps between tables).
- `fixed`: the director's plan, checked (every active entrant seated once or given a bye).

At each table: fixed teams take the game's sides in shuffled order; where partners rotate, the
split into sides repeats the fewest partnerships (the shuffle decides among equals); without
partners, seats in shuffled order.
"""
from __future__ import annotations

import hashlib
import itertools
from typing import Any, Iterator, Mapping, Sequence

import msgspec

from .. import rng
from ..errors import shown
from ..game import Game
from .format import (
    DealSeed,
    Event,
    InvalidEvent,
    Round,
    Seat,
    Table,
    active_units,
    check_system,
    parse_event,
    side_seats,
    unit_size,
)
from .roster import History, event_points, history

# The work the swiss search may do (candidates it weighs) before it seats greedily instead: a
# 200-entrant round that has a seating without repeats finds one in far less; the bound keeps
# the largest event's round near a second (docs/events.md, "Speed").
SEARCH_BUDGET = 400_000
REPAIR_PASSES = 20  # each pass tries every entrant who repeats a meeting once
REPAIR_BUDGET = 400_000  # swaps weighed in all
_DEAL_SEED = b"card-referee/event-deal/v1"


def next_round(event: Mapping[str, Any], seed: str, salt: str | None = None, *,
               method: str | None = None,
               plan: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The event with its next round seated: tables, byes, the round's seed commitment (and the
    same deals' seeds' commitments). `method`: the system's `seating` unless given; `fixed`
    takes `plan` ({"tables": [[entrant, …], …], "byes": [entrant, …]}, each table's entrants
    in seat order: a team per side). `salt`: the commitment's salt (engine/rng.py; None: the
    bare SHA-256 of the seed) — kept secret with the seed until the round is revealed."""
    _check_seed(seed, salt)
    ev = parse_event(event)
    method = method or ("fixed" if plan is not None else ev.system.seating)
    if plan is not None and method != "fixed":
        raise InvalidEvent(f"a plan is a fixed round's, not a {method} round's", "plan",
                           code="plan_invalid")
    rnd = seat_round(ev, seed, method, plan)
    rnd.seed_commitment = rng.commitment(seed, salt)
    rnd.deals = [DealSeed(seed_commitment=rng.commitment(*_deal_seed(seed, salt, k)))
                 for k in range(1, ev.system.same_deals + 1)]
    out: dict[str, Any] = msgspec.to_builtins(ev)
    out.pop("digest", None)  # the document changed: a digest it carried is no longer its own
    out.setdefault("rounds", []).append(msgspec.to_builtins(rnd))
    return out


def _check_seed(seed: Any, salt: Any) -> None:
    if not isinstance(seed, str) or not seed:
        raise InvalidEvent("a round's seed is a non-empty string", "seed")
    if salt is not None and not rng.valid_salt(salt):
        raise InvalidEvent("a seed salt is 32 lowercase hex digits (128 bits)", "seed_salt")


def _deal_seed(seed: str, salt: str | None, k: int) -> tuple[str, str | None]:
    """Deal k's seed (and its commitment's salt) for the same deals, from the round's."""
    def derive(text: str) -> str:
        return hashlib.sha256(_DEAL_SEED + b"\x00" + text.encode() + b"\x00" + str(k).encode()
                              ).hexdigest()[:32]
    return derive(seed), (derive(salt) if salt else None)


def deal_seeds(seed: str, salt: str | None, count: int) -> list[dict[str, Any]]:
    """The same deals' seeds of a round, revealed: {seed, seed_salt, seed_commitment} by deal
    number (a table's record deals deal k with these)."""
    out = []
    for k in range(1, count + 1):
        s, t = _deal_seed(seed, salt, k)
        out.append({"seed": s, "seed_salt": t, "seed_commitment": rng.commitment(s, t)})
    return out


def reveal_round(event: Mapping[str, Any], round_number: int, seed: str,
                 salt: str | None = None) -> dict[str, Any]:
    """The event with round `round_number`'s seed (and the same deals' seeds) revealed, after
    checking it makes the commitment published with the seating (`commitment_mismatch`)."""
    _check_seed(seed, salt)
    ev = parse_event(event)
    if not 1 <= round_number <= len(ev.rounds):
        raise InvalidEvent(f"round {round_number} is not seated", "rounds")
    rnd = ev.rounds[round_number - 1]
    if rng.commitment(seed, salt) != rnd.seed_commitment.strip().lower():
        raise InvalidEvent("the seed and salt do not make the round's commitment",
                           f"rounds[{round_number - 1}].seed_commitment",
                           code="commitment_mismatch")
    rnd.seed, rnd.seed_salt = seed, salt
    rnd.deals = [DealSeed(**d) for d in deal_seeds(seed, salt, len(rnd.deals))]
    out: dict[str, Any] = msgspec.to_builtins(ev)
    out.pop("digest", None)
    return out


def verify_seating(event: Mapping[str, Any], round_number: int) -> bool:
    """Whether round `round_number`'s seating is the one its revealed seed derives from the
    event before it (a fixed round: the director's plan, re-checked). The seats, byes and
    commitments are compared; substitutes and results are written later and are not."""
    ev = parse_event(event)
    if not 1 <= round_number <= len(ev.rounds):
        raise InvalidEvent(f"round {round_number} is not seated", "rounds")
    rnd = ev.rounds[round_number - 1]
    if rnd.seed is None:
        raise InvalidEvent("the round's seed is not revealed yet",
                           f"rounds[{round_number - 1}].seed")
    again = reseat(ev, round_number)
    return (_shape(again) == _shape(rnd)
            and rng.commitment(rnd.seed, rnd.seed_salt) == rnd.seed_commitment.strip().lower())


def reseat(ev: Event, round_number: int) -> Round:
    """Round `round_number` (from 1) of a parsed event seated again by its method from the
    rounds before it: a random or swiss round with its revealed seed, a fixed round from its
    own tables and byes as the director's plan (checked: `plan_invalid`). Its commitments are
    left empty."""
    rnd = ev.rounds[round_number - 1]
    before = msgspec.structs.replace(ev, rounds=ev.rounds[:round_number - 1])
    plan = {"tables": [_units(t) for t in rnd.tables], "byes": rnd.byes} \
        if rnd.method == "fixed" else None
    return seat_round(before, rnd.seed or "", rnd.method, plan)


def _units(table: Table) -> list[str]:
    return list(dict.fromkeys(s.entrant for s in table.seats))


def _shape(rnd: Round) -> Any:
    return (rnd.method, rnd.byes,
            [(t.number, [(s.entrant, s.player) for s in t.seats]) for t in rnd.tables])


# ---------------------------------------------------------------- one round

def seat_round(ev: Event, seed: str, method: str, plan: Mapping[str, Any] | None) -> Round:
    """The next round of a parsed event, its commitments left empty."""
    game = check_system(ev.system)
    number = len(ev.rounds) + 1
    if number > ev.system.rounds:
        raise InvalidEvent(f"the event has {ev.system.rounds} rounds, all seated", "rounds")
    active = active_units(ev, number)
    per_table = ev.system.table_size // unit_size(ev.system, game)
    if len(active) < per_table:
        raise InvalidEvent(f"{len(active)} entrants may be seated in round {number}: a table "
                           f"takes {per_table}", "entrants")
    sides = side_seats(ev.system, game)
    past = history(ev.rounds, sides)
    label = f"event/round/{number}"
    if method == "fixed":
        groups, byes = _plan(plan, active, per_table)
    elif method == "random":
        order = rng.shuffled(active, seed, f"{label}/order")
        byes = sorted(order, key=lambda u: past.byes[u])[:len(active) % per_table]
        resting = set(byes)
        rest = [u for u in order if u not in resting]
        groups = [rest[i:i + per_table] for i in range(0, len(rest), per_table)]
    elif method == "swiss":
        groups, byes = _swiss(ev, active, per_table, past, seed, label)
    else:
        raise InvalidEvent(f"seating methods: random, swiss, fixed; not {shown(method)}",
                           "method")
    tables = [Table(number=t + 1, seats=_seats(ev, game, group, past, seed, f"{label}/table/{t + 1}",
                                               fixed_order=method == "fixed"))
              for t, group in enumerate(groups)]
    return Round(method=method, seed_commitment="", tables=tables, byes=byes)  # type: ignore[arg-type]


def _plan(plan: Mapping[str, Any] | None, active: list[str],
          per_table: int) -> tuple[list[list[str]], list[str]]:
    """The director's plan, checked: every active entrant seated once or given a bye."""
    if not isinstance(plan, Mapping) or not isinstance(plan.get("tables"), list):
        raise InvalidEvent("a fixed round takes a plan: {\"tables\": [[entrant, …], …], "
                           "\"byes\": [entrant, …]}", "plan", code="plan_invalid")
    tables, byes = plan["tables"], plan.get("byes", [])
    if not isinstance(byes, list) or not all(isinstance(t, list) for t in tables):
        raise InvalidEvent("a plan's tables and byes are lists", "plan", code="plan_invalid")
    allowed, seen = set(active), set()
    for path, units in [*((f"plan.tables[{i}]", t) for i, t in enumerate(tables)),
                        ("plan.byes", byes)]:
        if path != "plan.byes" and len(units) != per_table:
            raise InvalidEvent(f"a table seats {per_table} entrants", path, code="plan_invalid")
        for u in units:
            if not isinstance(u, str) or u not in allowed:
                raise InvalidEvent(f"{shown(u)} is no entrant who may be seated", path,
                                   code="plan_invalid")
            if u in seen:
                raise InvalidEvent(f"{shown(u)} is seated twice", path, code="plan_invalid")
            seen.add(u)
    missing = [u for u in active if u not in seen]
    if missing:
        raise InvalidEvent(f"the plan seats every active entrant: not {shown(missing)}", "plan",
                           code="plan_invalid")
    if len(byes) >= per_table:
        raise InvalidEvent(f"fewer byes than a table's {per_table} entrants", "plan.byes",
                           code="plan_invalid")
    return [list(t) for t in tables], list(byes)


# ---------------------------------------------------------------- swiss

def _swiss(ev: Event, active: list[str], per_table: int, past: History, seed: str,
           label: str) -> tuple[list[list[str]], list[str]]:
    points = event_points(ev, ev.rounds)
    ranking = sorted(rng.shuffled(active, seed, f"{label}/order"), key=lambda u: -points[u])
    place = {u: i for i, u in enumerate(ranking)}
    count = len(active) % per_table
    # the lowest-placed without a bye; once everyone has had one, the fewest byes
    byes = sorted(ranking, key=lambda u: (past.byes[u], points[u], -place[u]))[:count]
    resting = set(byes)
    pool = [u for u in ranking if u not in resting]
    groups = tables_without_repeats(pool, per_table, past)
    if groups is None:
        groups = _repair(_fewest_repeats(pool, per_table, past), past, place)
    return groups, byes


def tables_without_repeats(pool: Sequence[str], per_table: int, past: History,
                           budget: int = SEARCH_BUDGET) -> list[list[str]] | None:
    """Tables of `per_table` from `pool` (in ranking order) where no two have met: the first
    such in the ranking's order (each table opened by the best-placed left, filled with the
    best-placed who fit); None when there is none, or none found within `budget` steps (each
    candidate weighed is one).

    A backtracking search over positions, iterative (a 2000-entrant round is deeper than
    Python's recursion): position p opens a table when p is a multiple of `per_table` (forced:
    the best-placed unseated), else takes the next unseated after the table's previous member
    who has met none of the table."""
    n = len(pool)
    index = {u: i for i, u in enumerate(pool)}
    met = [{index[v] for v in past.met.get(u, ()) if v in index} for u in pool]
    chosen, used = [-1] * n, [False] * n
    pos, back, steps = 0, False, 0
    while 0 <= pos < n:
        steps += 1
        if steps > budget:
            return None
        if pos % per_table == 0:
            if back:  # the table's opener is forced: nothing else to try here
                used[chosen[pos]], chosen[pos], pos = False, -1, pos - 1
                continue
            chosen[pos] = used.index(False)
            used[chosen[pos]], pos = True, pos + 1
            continue
        if back:
            used[chosen[pos]] = False
        start, table = chosen[pos] + 1 if back else chosen[pos - 1] + 1, pos - pos % per_table
        seated = chosen[table:pos]
        found = -1
        for i in range(start, n):
            steps += 1
            if not used[i] and met[i].isdisjoint(seated):
                found = i
                break
        if found < 0:
            chosen[pos], pos, back = -1, pos - 1, True
            continue
        chosen[pos], used[found], pos, back = found, True, pos + 1, False
    if pos < 0:
        return None
    return [[pool[chosen[p]] for p in range(t, t + per_table)] for t in range(0, n, per_table)]


GREEDY_WINDOW = 64  # the best-placed left whom the greedy weighs for a seat


def _fewest_repeats(pool: Sequence[str], per_table: int, past: History) -> list[list[str]]:
    """Greedy: each table from the best-placed left, adding whoever of the next GREEDY_WINDOW
    repeats fewest meetings (the better placed among equals)."""
    left = list(pool)
    groups = []
    none: set[str] = set()
    while left:
        group = [left.pop(0)]
        while len(group) < per_table:
            best = min(range(min(len(left), GREEDY_WINDOW)),
                       key=lambda i: (len(past.met.get(left[i], none).intersection(group)), i))
            group.append(left.pop(best))
        groups.append(group)
    return groups


def _repair(groups: list[list[str]], past: History, place: Mapping[str, int]) -> list[list[str]]:
    """Swaps between tables while one lowers the repeated meetings, each entrant who repeats
    trying the nearest-placed first (so equal points stay together where they can): the greedy
    seating's repeats removed where a swap finds a way, for rounds too large to search."""
    table_of = {u: t for t, group in enumerate(groups) for u in group}
    members = [set(group) for group in groups]
    by_place = sorted(table_of, key=lambda u: place[u])
    rank = {u: i for i, u in enumerate(by_place)}
    none: set[str] = set()

    def repeats(u: str, t: int, without: str) -> int:
        met = past.met.get(u, none)
        return len(met & members[t]) - (without in met)

    work = 0
    for _ in range(REPAIR_PASSES):
        swapped = False
        for u in by_place:
            a = table_of[u]
            here = repeats(u, a, u)
            if not here:
                continue
            if work > REPAIR_BUDGET:
                break
            for v in _nearest(by_place, rank[u]):
                work += 1
                b = table_of[v]
                if b == a:
                    continue
                before = here + repeats(v, b, v)
                after = repeats(u, b, v) + repeats(v, a, u)
                if after < before:
                    groups[a][groups[a].index(u)], groups[b][groups[b].index(v)] = v, u
                    members[a].symmetric_difference_update((u, v))
                    members[b].symmetric_difference_update((u, v))
                    table_of[u], table_of[v], swapped = b, a, True
                    break
        if not swapped:
            break
    return [sorted(g, key=lambda w: place[w]) for g in groups]


def _nearest(by_place: Sequence[str], i: int) -> Iterator[str]:
    """The others by distance in place from by_place[i], the better placed first at each
    distance (a sort per entrant cost n log n where a swap is usually found at once)."""
    for d in range(1, len(by_place)):
        if i - d >= 0:
            yield by_place[i - d]
        if i + d < len(by_place):
            yield by_place[i + d]


# ---------------------------------------------------------------- seats at a table

def _seats(ev: Event, game: Game[Any], group: list[str], past: History, seed: str, label: str,
           fixed_order: bool) -> list[Seat]:
    """A table's seats, in seat order. A fixed plan's order is the director's."""
    sides = side_seats(ev.system, game)
    by_id = {e.id: e for e in ev.entrants}
    order = group if fixed_order else rng.shuffled(group, seed, label)
    seats: list[Seat | None] = [None] * ev.system.table_size
    if ev.system.partners == "fixed":
        for side, unit in zip(sides, order):
            for i, member in zip(side, by_id[unit].members):
                seats[i] = Seat(entrant=unit, player=member.id)
    else:
        split = order if fixed_order or ev.system.partners == "none" else \
            _fewest_partner_repeats(order, sides, past)
        for i, unit in zip(_seat_order(sides), split):
            seats[i] = Seat(entrant=unit, player=unit)
    return [s for s in seats if s is not None]


def _seat_order(sides: Sequence[Sequence[int]]) -> list[int]:
    """Seat indices side by side: a split listed side after side lands on the right seats."""
    return [i for side in sides for i in side]


def _fewest_partner_repeats(order: list[str], sides: Sequence[Sequence[int]],
                            past: History) -> list[str]:
    """`order` rearranged side after side so that the fewest pairs who partnered before partner
    again; the first such split in the order's own (shuffled) order."""
    size = len(sides[0])
    best: tuple[int, list[str]] | None = None
    for split in _splits(order, len(sides), size):
        cost = sum(past.have_partnered(a, b) for side in split
                   for a, b in itertools.combinations(side, 2))
        if best is None or cost < best[0]:
            best = (cost, [u for side in split for u in side])
            if cost == 0:
                break
    assert best is not None
    return best[1]


def _splits(units: list[str], count: int, size: int) -> Any:
    """Every split of `units` into `count` ordered sides of `size` (the first unit's side
    first: a table of 8 has at most 35 splits into two sides)."""
    if count == 1:
        yield [units]
        return
    first, rest = units[0], units[1:]
    for others in itertools.combinations(rest, size - 1):
        side = [first, *others]
        remaining = [u for u in rest if u not in others]
        for tail in _splits(remaining, count - 1, size):
            yield [side, *tail]
