"""Strict sequencing against a real Redis that answers late, loses answers or loses moves: a move
is taken once, a retry of the same action on the same state is answered as the first time, a
503 never says "not taken" of a move that was, and a store that rolled back is noticed."""
from __future__ import annotations

import threading
import time

import pytest
import redis

from service.app import create_app
from service.config import Settings
from tests.redis_server import RedisProcess

REFEREE = {"Authorization": "Bearer seq-referee"}
PLAYERS = ["ann", "bob", "cho"]


def strict_client(url: str, **settings):
    settings.setdefault("metrics", False)
    settings.setdefault("referee_keys", ("seq-referee",))
    settings.setdefault("state_secrets", ("seq-secret",))
    return create_app(Settings(redis_url=url, sequence="strict", **settings)).test_client()


def _dealt_with_two_actions(client):
    """A deal and two different legal actions on its first state (a referee's seed, so the
    first trick is known to offer two)."""
    for seed in range(20):
        dealt = client.post("/v1/games/man/deal", json={"players": PLAYERS, "seed": f"s{seed}"},
                            headers=REFEREE).get_json()
        actions = []
        for player in dealt["to_act"]:
            resp = client.post("/v1/legal-actions",
                               json={"state": dealt["state"], "player": player})
            assert resp.status_code == 200, resp.get_json()
            actions += resp.get_json()["actions"]
        if len(actions) >= 2:
            return dealt, actions[0], actions[1]
    raise AssertionError("no seed offered two first actions")


def _warmed(client):
    """A first move on another deal: a running service's Redis already holds the scripts, so
    a frozen Redis has the compare-and-set itself to run when it comes back."""
    dealt, action, _ = _dealt_with_two_actions(client)
    assert _validate(client, dealt["state"], action).status_code == 200
    return client


def _validate(client, state, action):
    return client.post("/v1/validate", json={"state": state, "action": action})


def _record(url: str, game_id: str) -> str | None:
    value = redis.Redis.from_url(url).get(f"cardref:seq:{game_id}")
    return None if value is None else value.decode()


def test_a_move_whose_store_answers_late_is_taken_and_answered(own_redis):
    # A half-second freeze (shorter than the retry window): the compare-and-set lands late and
    # the answer is the accepted move, not a 503 for a move Redis then takes.
    client = _warmed(strict_client(own_redis.url, redis_timeout_seconds=0.2,
                                   sequence_retry_seconds=3))
    dealt, action, other = _dealt_with_two_actions(client)
    own_redis.pause()
    threading.Timer(0.5, own_redis.resume).start()
    first = _validate(client, dealt["state"], action)
    assert first.status_code == 200 and first.get_json()["valid"], first.get_json()
    assert first.get_json()["state"]["meta"]["move"] == 1
    again = _validate(client, dealt["state"], action)
    assert again.status_code == 200 and again.data == first.data
    forked = _validate(client, dealt["state"], other)
    assert forked.status_code == 409 and forked.get_json()["code"] == "state_superseded"


def test_a_store_silent_past_the_retry_window_answers_outcome_unknown_and_the_retry_is_safe(
        own_redis):
    client = _warmed(strict_client(own_redis.url, redis_timeout_seconds=0.1,
                                   sequence_retry_seconds=0.3))
    dealt, action, other = _dealt_with_two_actions(client)
    own_redis.pause()
    try:
        unknown = _validate(client, dealt["state"], action)
    finally:
        own_redis.resume()
    assert unknown.status_code == 503
    problem = unknown.get_json()
    assert problem["code"] == "sequence_unavailable"
    assert "unknown" in problem["detail"] and "not taken" not in problem["detail"]
    # Redis took the move when it came back (the compare-and-set was sent before the freeze)
    deadline = time.monotonic() + 5
    while not (_record(own_redis.url, dealt["game_id"]) or "").startswith("1:"):
        assert time.monotonic() < deadline, _record(own_redis.url, dealt["game_id"])
        time.sleep(0.02)
    retried = _validate(client, dealt["state"], action)
    assert retried.status_code == 200 and retried.get_json()["valid"], retried.get_json()
    assert retried.get_json()["state"]["meta"]["move"] == 1
    assert _validate(client, dealt["state"], action).data == retried.data
    forked = _validate(client, dealt["state"], other)
    assert forked.status_code == 409 and forked.get_json()["code"] == "state_superseded"
    # and the game goes on from the retried answer
    nxt = retried.get_json()
    player = nxt["to_act"][0]
    legal = client.post("/v1/legal-actions", json={"state": nxt["state"], "player": player})
    assert legal.status_code == 200


def test_a_lost_answer_is_given_again_identically(redis_url):
    # The move is recorded, the answer never reaches the client (a worker killed, a dropped
    # connection): the same action on the same state gets the same answer, byte for byte.
    client = strict_client(redis_url)
    dealt, action, other = _dealt_with_two_actions(client)
    first = _validate(client, dealt["state"], action)
    second = _validate(client, dealt["state"], action)
    assert first.status_code == second.status_code == 200
    assert first.data == second.data
    # the same action spelt differently (no optional `game`) is the same move
    bare = {k: v for k, v in action.items() if k != "game"}
    assert _validate(client, dealt["state"], bare).data == first.data
    assert _validate(client, dealt["state"], other).status_code == 409
    # once the game moved on, the old move is not answered again
    nxt = first.get_json()
    player = nxt["to_act"][0]
    follow = client.post("/v1/legal-actions", json={"state": nxt["state"], "player": player}
                         ).get_json()["actions"][0]
    assert _validate(client, nxt["state"], follow).status_code == 200
    assert _validate(client, dealt["state"], action).status_code == 409


def test_two_different_actions_racing_on_one_state_take_one_move(redis_url):
    client = strict_client(redis_url)
    for _ in range(20):
        dealt, a, b = _dealt_with_two_actions(client)
        answers: list = []
        barrier = threading.Barrier(2)

        def post(action):
            barrier.wait()
            answers.append(_validate(client, dealt["state"], action).status_code)

        threads = [threading.Thread(target=post, args=(x,)) for x in (a, b)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(answers) == [200, 409]


def test_a_state_newer_than_the_store_is_refused_as_rolled_back_and_so_is_the_older(own_redis):
    # Redis restored from an older snapshot: its record is behind a state the service issued.
    # The newer state is refused with a code that says so, and from then on the older one too:
    # never an older state accepted as the latest (undo) after the loss is seen.
    client = strict_client(own_redis.url)
    dealt, action, _ = _dealt_with_two_actions(client)
    snapshot = _record(own_redis.url, dealt["game_id"])
    moved = _validate(client, dealt["state"], action).get_json()
    redis.Redis.from_url(own_redis.url).set(f"cardref:seq:{dealt['game_id']}", snapshot)
    player = moved["to_act"][0]
    newer = client.post("/v1/view", json={"state": moved["state"], "player": player})
    assert newer.status_code == 409 and newer.get_json()["code"] == "sequence_rolled_back"
    older = _validate(client, dealt["state"], action)
    assert older.status_code == 409 and older.get_json()["code"] == "sequence_rolled_back"


# ---------------------------------------------------------------- what strict mode needs of Redis

@pytest.mark.parametrize("args, durability", [
    ((), "none"),                                        # neither snapshots nor AOF
    (("--save", "3600 1"), "rdb_only"),                  # a restart rolls back to the snapshot
    (("--appendonly", "yes"), "aof"),
    (("--rename-command", "CONFIG", ""), "unknown"),     # CONFIG disabled: not guessed
])
def test_readyz_says_what_strict_sequencings_redis_keeps_across_a_restart(args, durability):
    server = RedisProcess(extra_args=args).start()
    try:
        client = strict_client(server.url)
        ready = client.get("/readyz")
        assert ready.status_code == 200
        assert ready.get_json()["sequence_durability"] == durability
        # required: only an append-only file is ready
        required = strict_client(server.url, sequence_require_aof=True).get("/readyz")
        assert required.status_code == (200 if durability == "aof" else 503)
        assert required.get_json()["sequence_durability"] == durability
    finally:
        server.close()


def test_readyz_of_stateless_mode_says_nothing_of_durability(redis_url):
    client = create_app(Settings(metrics=False, redis_url=redis_url)).test_client()
    assert "sequence_durability" not in client.get("/readyz").get_json()
