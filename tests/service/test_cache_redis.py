"""The cache against a real Redis: shared hits, keys namespaced by engine version, and
degradation when the Redis this test started is stopped mid-test, recovery when it returns."""
import hashlib
import time
import uuid

import orjson
import redis

from engine import ENGINE_VERSION
from service.cache import Cache, cache_key
from tests.service.conftest import deal_toy


def test_cache_keys_are_namespaced_by_engine_version():
    assert cache_key("lookup:x", "abc") == f"cardref:v{ENGINE_VERSION}:lookup:x:abc"


def lookup_key(card, lang="en"):
    """A lookup's cache key: the question and the language of its answer (Accept-Language)."""
    identity = orjson.dumps(["toy", "card-value", {"card": card}, lang],
                            option=orjson.OPT_SORT_KEYS)
    return cache_key("lookup:toy:card-value", hashlib.sha256(identity).hexdigest())


def test_lookup_answers_are_cached_in_redis_and_shared_between_processes(make_client, redis_url):
    client = make_client(redis_url=redis_url)
    assert client.get("/readyz").get_json()["cache"] == {"backend": "redis", "redis": "ok", "ready": True}
    r = redis.Redis.from_url(redis_url)
    key = lookup_key("SQ")
    r.delete(key)
    first = client.post("/v1/games/toy/card-value", json={"card": "sq"})  # spelled differently
    assert first.get_json() == {"card": "SQ", "value": 11}
    assert r.get(key) == b'{"card":"SQ","value":11}' and 0 < r.ttl(key) <= 86400
    # another app (another worker) answers from Redis: poison the entry to prove it is read
    r.set(key, b'{"card":"SQ","value":11,"from":"redis"}')
    second = make_client(redis_url=redis_url).post("/v1/games/toy/card-value", json={"card": "SQ"})
    assert second.get_json()["from"] == "redis"
    r.delete(key)


def test_legal_action_enumerations_are_cached(make_client, redis_url):
    client = make_client(redis_url=redis_url)
    state = deal_toy(client, seed=uuid.uuid4().hex)["state"]
    r = redis.Redis.from_url(redis_url)
    # the question as the route names it: state, player, types, combinations
    identity = orjson.dumps([state, "ann", None, None], option=orjson.OPT_SORT_KEYS)
    key = cache_key("legal", hashlib.sha256(identity).hexdigest())
    out = client.post("/v1/legal-actions", json={"state": state, "player": "ann"}).get_json()
    assert out["count"] == 2
    assert orjson.loads(r.get(key)) == out
    r.delete(key)


def test_redis_stopped_mid_test_requests_still_200_readyz_degraded_then_recovers(make_client, own_redis):
    client = make_client(redis_url=own_redis.url, redis_retry_seconds=0.2)
    assert client.get("/readyz").get_json()["status"] == "ready"
    assert client.post("/v1/games/toy/card-value", json={"card": "S2"}).status_code == 200

    own_redis.stop()
    for card in ("S2", "S3", "H4"):  # a hit that was in Redis, and new misses
        resp = client.post("/v1/games/toy/card-value", json={"card": card})
        assert resp.status_code == 200
    state = deal_toy(client)["state"]
    assert client.post("/v1/legal-actions", json={"state": state, "player": "ann"}).status_code == 200
    ready = client.get("/readyz").get_json()
    assert ready["status"] == "degraded" and ready["cache"]["redis"] == "down"

    own_redis.start()
    deadline = time.monotonic() + 10
    while client.get("/readyz").get_json()["status"] != "ready":
        assert time.monotonic() < deadline, "did not reconnect to Redis"
        time.sleep(0.1)
    time.sleep(0.25)  # past the back-off: the next request goes to Redis again
    assert client.post("/v1/games/toy/card-value", json={"card": "D5"}).status_code == 200
    r = redis.Redis.from_url(own_redis.url)
    assert list(r.scan_iter(f"cardref:v{ENGINE_VERSION}:lookup:toy:card-value:*"))


def test_redis_down_at_start_serves_from_memory(make_client):
    client = make_client(redis_url="redis://127.0.0.1:1/0")
    assert client.post("/v1/games/toy/card-value", json={"card": "S2"}).status_code == 200
    assert client.get("/readyz").get_json()["status"] == "degraded"


def test_local_cache_is_bounded():
    cache = Cache(size=2)
    for i in range(3):
        cache.set(f"k{i}", b"v")
    assert cache.get("k0") is None and cache.get("k2") == b"v"


def test_cheap_enumerations_are_not_cached(make_client, redis_url):
    """docs/performance.md: a Redis round trip costs more than listing a cheap game's legal actions."""
    from engine import registry

    game = next(g for g in registry.all_games()
                if g.id not in ("toy", "crash") and not g.legal_actions_cacheable)
    client = make_client(redis_url=redis_url)
    players = [f"p{i}" for i in range(max(game.min_players, 2))]
    body = {"players": players, "seed": uuid.uuid4().hex}
    state = client.post(f"/v1/games/{game.id}/deal", json=body).get_json()["state"]
    r = redis.Redis.from_url(redis_url)
    identity = orjson.dumps([state, players[0], None, None], option=orjson.OPT_SORT_KEYS)
    key = cache_key("legal", hashlib.sha256(identity).hexdigest())
    resp = client.post("/v1/legal-actions", json={"state": state, "player": players[0]})
    assert resp.status_code == 200 and not r.exists(key)
