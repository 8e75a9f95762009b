"""Whole-match records for tests: random legal matches of any game written down as match records
(docs/records.md), with several deals and the match carried between them, some deals dealt from
the physical cards, some referee ledger entries, comments and the score deltas of every step."""
from __future__ import annotations

import copy
import random
from typing import Any

import orjson

from engine import adjudicate, records, registry
from engine.errors import InputError, InvalidDeal
from engine.fields import MAX_SAFE_INT
from tests.man import physical as man_physical

# Action types a random walk takes less often: they rarely take a deal on.
_IDLE = ("draw", "pass", "chombo", "end_turn")


def physical_deal(game_id: str, players: list[str], state: dict) -> dict:
    """The deal fields that deal `state`'s cards again from the table: each seat's hand, what
    lay face up (the game's table fields the state has) and the dealer."""
    game = registry.get(game_id)
    if "hands" in state:
        hands = {p: list(state["hands"][p]) for p in players}
    else:  # one hand travels (Manteur, B3): the starter's, every other seat's empty
        hands = {p: list(state["hand"]) if p == state.get("starter", players[0]) else []
                 for p in players}
    out: dict[str, Any] = {"hands": hands}
    table_fields = game.physical.table_fields if game.physical else {}
    table = {n: state[n] for n in table_fields if state.get(n) not in (None, [], {})}
    if table:
        out["table"] = table
    if isinstance(state.get("dealer"), str):
        out["dealer"] = state["dealer"]
    return out


def random_record(game_id: str, rnd: random.Random, deals: int = 3, physical: float = 0.3,
                  ledger: float = 0.02, comments: float = 0.05, most_players: int = 5,
                  options: dict | None = None, irregular: float = 0.0,
                  withdrawals: float = 0.0, players: list[str] | None = None,
                  seeds: list[tuple[str, str | None]] | None = None) -> dict:
    """A consistent record of a random match of `game_id`: up to `deals` deals, each played by
    random legal actions to its end (the record stops early when the match ends or a deal
    does not finish within 3,000 actions), a share of deals dealt from the physical cards
    (where the game takes hands), a share of steps preceded by a referee's warning or penalty
    to a random seat, a share of actions with a comment. Carries its digest.

    `options`: the record's options (e.g. `{"violations": "referee"}`). `irregular`: a share of
    steps where an act the rules refuse is tried (a seat's legal act posted by another seat,
    or an act legal a few moves ago): in referee mode a sanctionable one is recorded as the
    engine sanctions it, any other is left out. `withdrawals`: the share of the referee's
    entries that withdraw a standing ledger entry instead. `players`: the seat ids (an event's
    table), instead of a random count of p0, p1 …. `seeds`: the first deals' seeds and salts
    (an event's same deals at every table), dealt from them and never from the cards."""
    game = registry.get(game_id)
    counts = list(range(game.min_players, min(game.max_players, most_players) + 1))
    while players is None:
        tried = [f"p{i}" for i in range(rnd.choice(counts))]
        try:
            adjudicate.check_players(game, tried)
            adjudicate.deal(game_id, tried, options, "probe")
            players = tried
        except InvalidDeal:
            counts.remove(len(tried))  # a count the game is not played by (Manillen: 5)
    record: dict[str, Any] = {
        "format": records.FORMAT, "format_version": records.FORMAT_VERSION, "game": game_id,
        "players": players, "options": dict(options or {}),
        "tags": {"event": "Property Open", "date": "2026-11-25", "round": rnd.randint(1, 9),
                 "names": {p: f"Player {p}" for p in players}, "engine": "test",
                 "x-club": {"rated": True, "ids": [rnd.randint(1, 99), "年"]}},
        "deals": []}
    match = None
    match_totals: dict[str, int] = {}
    for k in range(deals):
        seed = f"{rnd.getrandbits(64):016x}"
        salt: str | None = f"{rnd.getrandbits(128):032x}"
        given = seeds is not None and k < len(seeds)
        if given:
            seed, salt = seeds[k]
        dealt = adjudicate.deal(game_id, players, options, seed, match=match, seed_salt=salt)
        fields: dict[str, Any] = {"seed": seed, "seed_salt": salt,
                                  "seed_commitment": dealt["seed_commitment"]}
        if game.physical is not None and not given and rnd.random() < physical:
            table_fields = physical_deal(game_id, players, dealt["state"])
            try:
                dealt = adjudicate.deal(game_id, players, options, records.PHYSICAL_SEED,
                                        match=match, **table_fields)
                fields = table_fields
            except InvalidDeal:
                pass  # a deal this game does not take from the table (the seeded one stands)
        try:
            entries, state, status, next_match, over = _play(game_id, players, dealt, rnd,
                                                             ledger, comments, irregular,
                                                             withdrawals)
        except _UnknownStock:  # a physical deal whose draws name cards (Manteur): seeded
            dealt = adjudicate.deal(game_id, players, options, seed, match=match, seed_salt=salt)
            fields = {"seed": seed, "seed_salt": salt, "seed_commitment": dealt["seed_commitment"]}
            entries, state, status, next_match, over = _play(game_id, players, dealt, rnd,
                                                             ledger, comments, irregular,
                                                             withdrawals)
        totals: dict[str, int] = {}
        for e in entries:
            for d in e.get("score_deltas", ()):
                totals[d["target"]] = totals.get(d["target"], 0) + d["delta"]
        running = {t: match_totals.get(t, 0) + totals.get(t, 0) for t in {*match_totals, *totals}}
        if any(abs(v) > MAX_SAFE_INT for v in running.values()):
            break  # doubled past what JSON holds exactly (random Manillen booms): no record has it
        match_totals = running
        record["deals"].append({"deal": fields, "actions": entries,
                                "result": {"status": status, "totals": totals}})
        if status != "finished" or next_match is None or over:
            break
        match = orjson.loads(orjson.dumps(next_match))  # as a client holds it: JSON
    record["totals"] = match_totals
    record["digest"] = records.digest(record)
    return record


def pushed(record: dict, actions: int) -> dict:
    """The record as a table page pushes it after its first `actions` actions: the deals begun,
    the last one's actions so far (its result once finished), the match's totals and digest
    only once every deal is finished. Shares its deals' entries with `record`: copy before
    changing them."""
    deals, left = [], actions
    for entry in record["deals"]:
        if left <= 0:
            break
        taken = entry["actions"][:left]
        left -= len(taken)
        deal = {"deal": entry["deal"], "actions": taken}
        if len(taken) == len(entry["actions"]):
            deal["result"] = entry["result"]
        deals.append(deal)
    out = {k: v for k, v in record.items() if k not in ("deals", "totals", "digest")}
    out["deals"] = deals
    if len(deals) == len(record["deals"]) and all("result" in d for d in deals):
        out["totals"] = record["totals"]
        out["digest"] = records.digest(out)
    return out


def pushed_actions(record: dict) -> int:
    """The actions a whole record pushes, one at a time."""
    return sum(len(d["actions"]) for d in record["deals"])


class _UnknownStock(Exception):
    """A physical deal's draw must name the cards drawn, which a random walk does not know."""


def _play(game_id: str, players: list[str], dealt: dict, rnd: random.Random, ledger: float,
          comments: float, irregular: float = 0.0, withdrawals: float = 0.0
          ) -> tuple[list[dict], dict, str, Any, bool]:
    """The entries of one deal played out, its last state, status and next_match, and
    whether its match ended with it."""
    state, to_act, status = dealt["state"], dealt["to_act"], dealt["status"]
    entries: list[dict] = []
    next_match, over = None, False
    stale: list[dict] = []  # acts legal a few moves ago: most are refused now
    for _ in range(3000):
        if status == "finished":
            break
        legal: list[dict] = []
        if rnd.random() < ledger:
            action = _ledger_act(rnd, players, state, withdrawals)
        else:
            legal = [a for p in to_act for a in adjudicate.legal_actions(state, p)]
            if irregular and rnd.random() < irregular:
                action = _irregular_act(rnd, players, to_act, legal, stale)
            else:
                moving = [a for a in legal if a["type"] not in _IDLE]
                action = rnd.choice(moving if moving and rnd.random() < 0.8 else legal)
            if game_id == "man":  # a draw from a physical deal's unknown stock names its cards
                action = man_physical.complete(rnd, state, action)
        if irregular:
            stale = (stale + rnd.sample(legal, min(2, len(legal))))[-12:]
        try:
            applied = adjudicate.validate(state, action)
        except InputError:
            assert irregular, action  # only a tried irregular act may be malformed
            continue
        if not applied.valid and applied.refusal.code == "stock_cards_required":
            raise _UnknownStock
        if not applied.valid and irregular and action not in legal:
            continue  # refused, not sanctioned (not referee mode, or not sanctionable): left out
        assert applied.valid, (action, applied.refusal.code)
        entry: dict[str, Any] = {"action": action}
        if applied.score_deltas:
            entry["score_deltas"] = applied.score_deltas
        if rnd.random() < comments:
            entry["comment"] = rnd.choice(["fast", "考慮中", "table talk"])
        entries.append(entry)
        state, to_act, status = applied.state, applied.to_act, applied.status
        next_match = applied.next_match
        over = over or any(e["type"] == records.MATCH_FINISHED for e in applied.events)
    return entries, state, status, next_match, over


def _ledger_act(rnd: random.Random, players: list[str], state: dict, withdrawals: float) -> dict:
    """A referee's warning or penalty to a random seat, or (a share `withdrawals`) the
    withdrawal of a standing entry."""
    standing = [e for e in state.get("referee_ledger") or () if not e["withdrawn"]]
    if withdrawals and standing and rnd.random() < withdrawals:
        entry = rnd.choice(standing)
        return {"type": "withdraw", "player": entry["player"], "entry": entry["id"]}
    return rnd.choice([
        {"type": "warning", "player": rnd.choice(players), "reason": "slow play"},
        {"type": "penalty", "player": rnd.choice(players), "points": rnd.randint(1, 3),
         "reason": "card exposed"}])


def _irregular_act(rnd: random.Random, players: list[str], to_act: list[str], legal: list[dict],
                   stale: list[dict]) -> dict:
    """An act the rules likely refuse: a seat's legal act posted by a seat not on turn, or an
    act that was legal a few moves ago."""
    others = [p for p in players if p not in to_act]
    if stale and (not legal or not others or rnd.random() < 0.4):
        return rnd.choice(stale)
    if legal and others:
        return {**rnd.choice(legal), "player": rnd.choice(others)}
    return rnd.choice(legal)


# ------------------------------------------------------------------ a record as a table pushes it

def record_cut(record: dict, actions: int, with_result: bool = True) -> dict:
    """The record as a table has it after its first `actions` actions: the deals begun, the
    last one's actions so far (its written result once finished, unless not `with_result`),
    totals once every deal is finished, its digest."""
    deals, left = [], actions
    for entry in record["deals"]:
        if left <= 0 and deals:
            break
        taken = entry["actions"][:max(left, 0)]
        left -= len(taken)
        deal = {"deal": entry["deal"], "actions": copy.deepcopy(taken)}
        if len(taken) == len(entry["actions"]) and "result" in entry:
            deal["result"] = entry["result"]
        deals.append(deal)
    if not with_result:
        deals[-1].pop("result", None)
    out = {k: copy.deepcopy(v) for k, v in record.items() if k not in ("deals", "totals", "digest")}
    out["deals"] = deals
    if len(deals) == len(record["deals"]) and all("result" in d for d in deals):
        out["totals"] = record["totals"]
    out["digest"] = records.digest(out)
    return out


def record_append(old: dict, new: dict) -> dict:
    """What `new` adds to `old` (a shorter cut of the same match), as an append carries it."""
    k = len(old["deals"]) - 1
    last, now = old["deals"][k], new["deals"][k]
    part: dict = {"actions": now["actions"][len(last["actions"]):],
                  "deals": new["deals"][k + 1:]}
    if "result" in now and now.get("result") != last.get("result"):
        part["result"] = now["result"]
    for name in ("totals", "digest"):
        if name in new:
            part[name] = new[name]
    return part
