"""The Redis commands each request costs, in every mode, as docs/scaling.md states them
(bench/redis_ops.py counts them from MONITOR on a Redis of its own): stateless modes touch
Redis only for cached work, strict sequencing adds one round trip — one script — per request
on a game's state (a script naming one key: one slot on a cluster), and no request ever costs
more than three."""
from collections import Counter

from bench.redis_ops import REQUESTS, count_operations

STATELESS = {
    "deal": {}, "validate (accepted)": {}, "validate (refused)": {}, "view": {},
    "replay (20 actions)": {},
    "legal-actions (miss)": {"GET": 1, "SET": 1},
    # the worker that computed an answer keeps it in its own first tier; another reads Redis
    "legal-actions (hit, same worker)": {}, "legal-actions (hit, another instance)": {"GET": 1},
    "lookup (miss)": {"GET": 1, "SET": 1},
    "lookup (hit, same worker)": {}, "lookup (hit, another instance)": {"GET": 1},
}
STRICT = {
    "deal": {"SET": 1},  # the game's record, at move 0 (SET NX)
    "replay (20 actions)": {"SET": 1},  # the replayed game's record, at its last move
    # one compare-and-set script: read the record, write the next move
    "validate (accepted)": {"EVALSHA": 1, "(GET)": 1, "(SET)": 1},
    # reads check that the state is the game's latest: one script that only reads
    "validate (refused)": {"EVALSHA": 1, "(GET)": 1},
    "view": {"EVALSHA": 1, "(GET)": 1},
    "legal-actions (miss)": {"EVALSHA": 1, "(GET)": 1, "GET": 1, "SET": 1},
    "legal-actions (hit, same worker)": {"EVALSHA": 1, "(GET)": 1},
    "legal-actions (hit, another instance)": {"EVALSHA": 1, "(GET)": 1, "GET": 1},
    "lookup (miss)": {"GET": 1, "SET": 1},
    "lookup (hit, same worker)": {}, "lookup (hit, another instance)": {"GET": 1},
}


def test_each_request_costs_the_redis_commands_docs_scaling_states():
    script_keys = Counter()
    table = count_operations(script_keys)
    # every script names exactly one key: on a Redis Cluster it runs on that key's slot
    assert set(script_keys) == {1} and script_keys[1] >= 8
    for mode, ran in table.items():
        expected = STRICT if "strict" in mode else STATELESS
        assert set(ran) == set(REQUESTS)
        for request in REQUESTS:
            assert ran[request] == Counter(expected[request]), (mode, request, ran[request])
