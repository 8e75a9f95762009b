"""One small cache interface, two backends: Redis when configured, an in-process LRU always.

Only work that costs more than a Redis round trip and repeats is cached (lookups, legal-action
enumerations) — see docs/performance.md. Keys are namespaced by the engine version so
a deploy never serves a stale ruling. When Redis fails, the request is answered through the
in-process LRU, the cache reports `degraded`, and Redis is tried again after a short back-off.

The in-process LRU is also the first tier in front of Redis: an entry is named by the SHA-256
of the whole question under the engine version, so it never changes and a copy never goes
stale. A repeated question is answered without the round trip (which was most of a cached
lookup's time, bench/endpoints.py); another instance still finds what this one computed in
Redis. The LRU is bounded by entries (CARDREF_CACHE_SIZE) and by bytes (LOCAL_CACHE_BYTES: a
27-card Guandan enumeration is ~125 KB).
"""
from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict

from engine import ENGINE_VERSION

from . import redis_store

log = logging.getLogger(__name__)


def cache_key(namespace: str, digest: str) -> str:
    return f"cardref:v{ENGINE_VERSION}:{namespace}:{digest}"


LOCAL_CACHE_BYTES = 64 * 1024 * 1024  # per worker process


class LocalLRU:
    def __init__(self, size: int, max_bytes: int = LOCAL_CACHE_BYTES):
        self._size = max(1, size)
        self._max_bytes = max_bytes
        self._bytes = 0
        self._data: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> bytes | None:
        with self._lock:
            value = self._data.get(key)
            if value is not None:
                self._data.move_to_end(key)
            return value

    def set(self, key: str, value: bytes) -> None:
        if len(value) > self._max_bytes:
            return
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self._bytes -= len(old)
            self._data[key] = value
            self._bytes += len(value)
            while len(self._data) > self._size or self._bytes > self._max_bytes:
                self._bytes -= len(self._data.popitem(last=False)[1])


class Cache:
    """get/set of bytes by key, and a status for /readyz."""

    def __init__(self, size: int, redis_url: str | None = None, ttl_seconds: int = 86400,
                 timeout_seconds: float = 0.2, retry_seconds: float = 1.0):
        self.local = LocalLRU(size)
        self.ttl = ttl_seconds
        self.redis_url = redis_url
        self._retry_seconds = retry_seconds
        self._down_until = 0.0
        self.cluster = redis_store.is_cluster(redis_url)
        # A client (its pools) per process: gunicorn forks workers after the app is created
        # only with --preload, which we do not use, so each worker builds its own.
        self._client = redis_store.connect(redis_url, timeout_seconds) if redis_url else None

    @property
    def backend(self) -> str:
        return "redis" if self._client is not None else "memory"

    def _redis_usable(self) -> bool:
        return self._client is not None and time.monotonic() >= self._down_until

    def _mark_down(self, err: Exception) -> None:
        if time.monotonic() >= self._down_until:
            log.warning("redis unavailable, serving from the in-process cache: %s", err)
        self._down_until = time.monotonic() + self._retry_seconds

    def get(self, key: str) -> bytes | None:
        value = self.local.get(key)  # the first tier: entries never change (module doc)
        client = self._client
        if value is not None or client is None or not self._redis_usable():
            return value
        try:
            value = client.get(key)
            self._down_until = 0.0
        except redis_store.ERRORS as err:
            self._mark_down(err)
            return None
        if value is not None:
            self.local.set(key, value)
        return value

    def set(self, key: str, value: bytes) -> None:
        self.local.set(key, value)
        client = self._client
        if client is not None and self._redis_usable():
            try:
                client.set(key, value, ex=self.ttl)
                self._down_until = 0.0
            except redis_store.ERRORS as err:
                self._mark_down(err)

    def status(self) -> dict:
        """Live check for /readyz: pings Redis whatever the back-off says."""
        if self._client is None:
            return {"backend": "memory", "redis": "not_configured", "ready": True}
        try:
            if not self.cluster:
                self._client.ping()
                self._down_until = 0.0
                return {"backend": "redis", "redis": "ok", "ready": True}
            # A cluster: every master answers and the cluster says each slot is served.
            self._client.ping(target_nodes=self._client.PRIMARIES)
            cluster = redis_store.cluster_status(self._client)
            up = cluster["state"] == "ok"
            if up:
                self._down_until = 0.0
            return {"backend": "redis", "redis": "ok" if up else "down", "ready": up,
                    "cluster": cluster}
        except redis_store.ERRORS as err:
            self._mark_down(err)
            return {"backend": "redis", "redis": "down", "ready": False}
