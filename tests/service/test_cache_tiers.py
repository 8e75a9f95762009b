"""The in-process LRU in front of Redis (service/cache.py): an entry is named by the hash of
the whole question under the engine version, so a copy held in process never goes stale; a
repeated question skips the round trip, and another instance still finds it in Redis."""
from __future__ import annotations

import uuid

import redis

from service.cache import Cache, LocalLRU


def test_a_repeated_question_is_answered_in_process_without_redis(redis_url):
    cache = Cache(size=16, redis_url=redis_url)
    r = redis.Redis.from_url(redis_url)
    key = f"cardref:test-tiers:{uuid.uuid4().hex}"
    cache.set(key, b"answer")
    assert r.get(key) == b"answer"  # shared with every other instance
    r.delete(key)
    assert cache.get(key) == b"answer"  # this instance's own copy: no round trip


def test_an_entry_found_in_redis_is_kept_in_process(redis_url):
    r = redis.Redis.from_url(redis_url)
    key = f"cardref:test-tiers:{uuid.uuid4().hex}"
    r.set(key, b"computed elsewhere", ex=60)
    cache = Cache(size=16, redis_url=redis_url)
    assert cache.get(key) == b"computed elsewhere"
    r.delete(key)
    assert cache.get(key) == b"computed elsewhere"


def test_a_miss_in_both_tiers_is_a_miss(redis_url):
    cache = Cache(size=16, redis_url=redis_url)
    assert cache.get(f"cardref:test-tiers:{uuid.uuid4().hex}") is None


def test_the_local_tier_is_bounded_by_bytes():
    lru = LocalLRU(size=100, max_bytes=10)
    lru.set("a", b"12345")
    lru.set("b", b"12345")
    lru.set("c", b"12345")  # 15 bytes: the oldest goes
    assert lru.get("a") is None and lru.get("b") == b"12345" and lru.get("c") == b"12345"
    lru.set("huge", b"x" * 11)  # larger than the whole budget: never held
    assert lru.get("huge") is None and lru.get("c") == b"12345"
    lru.set("b", b"1")  # replacing an entry counts its new size only: 6 bytes held
    lru.set("d", b"1234")  # 10 bytes: nothing goes
    assert lru.get("b") == b"1" and lru.get("c") == b"12345" and lru.get("d") == b"1234"
