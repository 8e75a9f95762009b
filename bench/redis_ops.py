"""Redis commands per request, counted — not guessed: each request of a game is sent to the
service (in process) in every mode (plain, signed, sealed; stateless or strict sequencing),
and the commands its Redis received are read from MONITOR (round trips, and in parentheses
the commands a script ran inside Redis). The Redis is one this script starts, so nothing else
is counted. docs/scaling.md quotes the table; tests/service/test_redis_operations.py holds it.

Usage: python bench/redis_ops.py [--markdown]
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import redis  # noqa: E402

from service.app import create_app  # noqa: E402
from service.config import Settings  # noqa: E402
from service.sealing import new_key  # noqa: E402
from tests.redis_server import RedisProcess  # noqa: E402

PLAYERS = ["ann", "bob", "cho"]
MODES = {
    "plain": {},
    "signed": {"state_secrets": ("ops-secret",)},
    "sealed": {"seal_keys": "sealed"},
    "signed, strict": {"state_secrets": ("ops-secret",), "sequence": "strict"},
    "sealed, strict": {"seal_keys": "sealed", "sequence": "strict"},
}
# A cache hit on the worker that computed the answer is served by its own first tier (no
# Redis); on another worker or instance it is one GET.
REQUESTS = ("deal", "validate (accepted)", "validate (refused)", "legal-actions (miss)",
            "legal-actions (hit, same worker)", "legal-actions (hit, another instance)", "view",
            "lookup (miss)", "lookup (hit, same worker)", "lookup (hit, another instance)",
            "replay (20 actions)")


class Counted:
    """The Redis commands each request sent (round trips) and the commands its scripts ran
    inside Redis, read from MONITOR: every command up to a marker this counter sends after the
    request."""

    def __init__(self, url: str):
        self._redis = redis.Redis.from_url(url)
        self._marks = 0
        # How many keys each script call named: one, so that on a Redis Cluster every script
        # runs on the one slot of its key (docs/operations.md, "Redis Cluster").
        self.script_keys: Counter = Counter()

    def __call__(self, send) -> tuple[object, Counter]:
        self._marks += 1
        mark = f"cardref-ops-mark-{self._marks}"
        ran: Counter = Counter()
        with self._redis.monitor() as monitor:
            answer = send()
            self._redis.echo(mark)
            for seen in monitor.listen():
                command = seen["command"]
                if command == f"ECHO {mark}":
                    break
                name = command.split()[0].upper()
                if name in ("EVAL", "EVALSHA") and seen["client_type"] != "lua":
                    self.script_keys[int(command.split()[2])] += 1
                ran[f"({name})" if seen["client_type"] == "lua" else name] += 1
        return answer, ran


def _settings(url: str, mode: dict) -> Settings:
    options = dict(mode)
    if options.get("seal_keys") == "sealed":
        from service.sealing import parse_key

        options["seal_keys"] = (parse_key(new_key()),)
    return Settings(redis_url=url, metrics=False, **options)


def _play(client, other, counted: Counted, lookup_cards: list[str]) -> dict[str, Counter]:
    """One of each request, in an order that makes each what its name says (`other`: a second
    instance of the same service on the same Redis)."""
    ran: dict[str, Counter] = {}
    dealt, ran["deal"] = counted(lambda: client.post(
        "/v1/games/man/deal", json={"players": PLAYERS}).get_json())
    tokens = dealt.get("seat_tokens") or {}
    for player in dealt["to_act"]:  # a player with something to do now
        header = {"X-Seat-Token": tokens[player]} if tokens else {}
        body = {"state": dealt["state"], "player": player}
        legal = client.post("/v1/legal-actions", json=body, headers=header).get_json()
        if legal["actions"]:
            break
    # Man's enumerations are cheap and not cached; Guandan's are (Game.legal_actions_cacheable)
    guandan = client.post("/v1/games/guandan/deal",
                          json={"players": [*PLAYERS, "dai"]}).get_json()
    first = guandan["to_act"][0]
    enumerate_body = {"state": guandan["state"], "player": first}
    enumerate_header = {"X-Seat-Token": guandan["seat_tokens"][first]} if tokens else {}
    _, ran["legal-actions (miss)"] = counted(lambda: client.post(
        "/v1/legal-actions", json=enumerate_body, headers=enumerate_header))
    _, ran["legal-actions (hit, same worker)"] = counted(lambda: client.post(
        "/v1/legal-actions", json=enumerate_body, headers=enumerate_header))
    _, ran["legal-actions (hit, another instance)"] = counted(lambda: other.post(
        "/v1/legal-actions", json=enumerate_body, headers=enumerate_header))
    _, ran["view"] = counted(lambda: client.post("/v1/view", json=body, headers=header))
    action = legal["actions"][0]
    accepted, ran["validate (accepted)"] = counted(lambda: client.post(
        "/v1/validate", json={"state": dealt["state"], "action": action},
        headers=header).get_json())
    assert accepted["valid"] is True, accepted
    # the same card again, on the state it moved to: no longer the player's to play
    refused, ran["validate (refused)"] = counted(lambda: client.post(
        "/v1/validate", json={"state": accepted["state"], "action": action},
        headers=header).get_json())
    assert refused["valid"] is False, refused
    lookup = {"cards": lookup_cards, "level": "2"}
    _, ran["lookup (miss)"] = counted(lambda: client.post("/v1/games/guandan/classify",
                                                          json=lookup))
    _, ran["lookup (hit, same worker)"] = counted(lambda: client.post(
        "/v1/games/guandan/classify", json=lookup))
    _, ran["lookup (hit, another instance)"] = counted(lambda: other.post(
        "/v1/games/guandan/classify", json=lookup))
    actions = _actions_of_a_seeded_deal(20)
    replay, ran["replay (20 actions)"] = counted(lambda: client.post(
        "/v1/replay", json={"deal": {"game": "man", "players": PLAYERS, "seed": "ops"},
                            "actions": actions}, headers={"Authorization": "Bearer ops-referee"}))
    assert replay.status_code == 200, replay.get_json()
    return ran


def _actions_of_a_seeded_deal(count: int) -> list[dict]:
    from engine import adjudicate

    out = adjudicate.deal("man", PLAYERS, None, "ops")
    state, to_act, actions = out["state"], out["to_act"], []
    for _ in range(count):
        action = adjudicate.legal_actions(state, to_act[0])[0]
        applied = adjudicate.validate(state, action)
        actions.append(action)
        state, to_act = applied.state, applied.to_act
    return actions


def count_operations(script_keys: Counter | None = None) -> dict[str, dict[str, Counter]]:
    """{mode: {request: Counter(command: calls)}}, each mode on a Redis of its own;
    `script_keys` counts the scripts called by how many keys each named."""
    table = {}
    for i, (name, mode) in enumerate(MODES.items()):
        server = RedisProcess().start()
        try:
            settings = _settings(server.url, {**mode, "referee_keys": ("ops-referee",)})
            client = create_app(settings).test_client()
            other = create_app(settings).test_client()
            counted = Counted(server.url)
            # A first game loads the scripts and opens the connections: a running service's
            # steady state is what is counted, in a second game.
            _play(client, other, counted, ["S3"])
            table[name] = _play(client, other, counted, ["S5", "H5", "D5", f"C{i + 6}"])
            if script_keys is not None:
                script_keys.update(counted.script_keys)
        finally:
            server.close()
    return table


def _cell(ran: Counter) -> str:
    """Round trips, then what they were; commands a script ran inside Redis in parentheses."""
    trips = sum(n for cmd, n in ran.items() if not cmd.startswith("("))
    if not ran:
        return "0"
    return f"{trips}: " + " + ".join(
        f"{n} {cmd}" if n > 1 else cmd for cmd, n in sorted(
            ran.items(), key=lambda item: (item[0].startswith("("), item[0])))


def main() -> int:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    table = count_operations()
    modes = list(table)
    print("| request | " + " | ".join(modes) + " |")
    print("|---|" + "---|" * len(modes))
    for request in REQUESTS:
        print(f"| {request} | " + " | ".join(_cell(table[m][request]) for m in modes) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
