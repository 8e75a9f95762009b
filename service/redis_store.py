"""Connecting to the Redis that CARDREF_REDIS_URL names: one server (`redis://`, `rediss://`,
`unix://`) or a Redis Cluster (`redis+cluster://host:port[,host:port…]`, `rediss+cluster://` with
TLS; docs/operations.md). The cache and strict sequencing take their client from here and
catch `ERRORS`, so neither needs to know which of the two it talks to.

Every key the service writes is alone in its command or script (a cache entry, one game's move
record, one match deal's claim), so a cluster serves each from the one slot its name hashes to;
no command or script spans two keys.
"""
from __future__ import annotations

import threading
from typing import Any
from urllib.parse import unquote, urlsplit

import redis
from redis.cluster import ClusterNode, RedisCluster
from redis.exceptions import RedisClusterException

CLUSTER_SCHEMES = {"redis+cluster": False, "rediss+cluster": True}  # scheme: TLS

# What a Redis or a Redis Cluster raises when it cannot answer. A cluster with uncovered slots
# (a master dead, its replica not yet promoted) raises RedisClusterException, no RedisError.
ERRORS = (redis.RedisError, RedisClusterException)


def is_cluster(url: str | None) -> bool:
    return bool(url) and urlsplit(url).scheme.lower() in CLUSTER_SCHEMES


def cluster_startup(url: str) -> tuple[list[tuple[str, int]], dict]:
    """The startup nodes and connection options a cluster URL names:
    `redis+cluster://[user:password@]host:port[,host:port…]` — any reachable node tells the
    client the rest of the cluster. ValueError when it names none, or a database (a cluster has
    database 0 only)."""
    parts = urlsplit(url)
    options: dict = {"ssl": CLUSTER_SCHEMES[parts.scheme.lower()]}
    userinfo, _, hosts = parts.netloc.rpartition("@")
    if userinfo:
        user, has_password, password = userinfo.partition(":")
        if user:
            options["username"] = unquote(user)
        if has_password:
            options["password"] = unquote(password)
    if parts.path not in ("", "/", "/0"):
        raise ValueError("a Redis Cluster has only database 0: end the URL at the last "
                         "host:port (or with /0)")
    if parts.query:
        raise ValueError("a cluster URL takes no query options")
    nodes = []
    for node in hosts.split(","):
        host, _, port = node.strip().rpartition(":")
        host = host.strip("[]")  # an IPv6 address in brackets
        if not host or not port.isdigit():
            raise ValueError(f"{node.strip()!r} is not host:port")
        nodes.append((host, int(port)))
    return nodes, options


class _LazyCluster:
    """A RedisCluster made at its first use. Making one asks a node for the cluster's layout,
    and a service must start (and answer from its in-process cache) while Redis is down: a
    failed attempt raises one of ERRORS and the next use tries again."""

    def __init__(self, make):
        self._make = make
        self._client: RedisCluster | None = None
        self._lock = threading.Lock()

    def client(self) -> RedisCluster:
        if self._client is None:
            with self._lock:
                if self._client is None:
                    self._client = self._make()
        return self._client

    def __getattr__(self, name):
        return getattr(self.client(), name)


def connect(url: str, timeout_seconds: float, retry: bool = True):
    """A client for `url`: a redis.Redis (one server) or a lazily made RedisCluster.
    `retry=False`: no retries inside a single server's client (strict sequencing retries
    itself, knowing its script is idempotent). A cluster client always retries a command a
    few times after a node stops answering, reading the cluster's layout again in between:
    that is how it finds the replica promoted in a failed master's place."""
    timeouts: dict[str, Any] = {"socket_timeout": timeout_seconds,
                                "socket_connect_timeout": timeout_seconds}
    if is_cluster(url):
        nodes, options = cluster_startup(url)
        return _LazyCluster(lambda: RedisCluster(
            startup_nodes=[ClusterNode(host, port) for host, port in nodes],
            **options, **timeouts))
    if retry:
        pool = redis.ConnectionPool.from_url(url, health_check_interval=30, **timeouts)
        return redis.Redis(connection_pool=pool)
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    return redis.Redis.from_url(url, retry=Retry(NoBackoff(), 0), **timeouts)


def nodes(client) -> list:
    """Every node of a cluster client (primaries first), for per-node checks."""
    return list(client.get_primaries()) + list(client.get_replicas())


def cluster_status(client) -> dict:
    """How the cluster stands, for /readyz, as one of its nodes sees it: its verdict (`state`
    ok, or fail: a slot without a reachable master), the masters serving slots and the
    replicas following them (neither counting a node marked failed). Raises one of ERRORS when
    no node answers."""
    node = client.get_random_node()
    info = client.execute_command("CLUSTER INFO", target_nodes=node)
    masters = replicas = 0
    for seen in client.execute_command("CLUSTER NODES", target_nodes=node).values():
        flags = seen["flags"].split(",")
        if "fail" in flags:
            continue
        masters += "master" in flags and bool(seen["slots"])
        replicas += "slave" in flags
    return {"state": str(info.get("cluster_state", "fail")), "masters": masters,
            "replicas": replicas}
