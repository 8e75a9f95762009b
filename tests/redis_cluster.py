"""A throwaway Redis Cluster of 3 masters and 3 replicas on loopback ports, for the tests that
need a real one (never a mock).

Nodes are joined with the cluster commands themselves (CLUSTER ADDSLOTS, MEET, REPLICATE) —
what `redis-cli --cluster create … --cluster-replicas 1` sends — so only a cluster-capable
`redis-server` is needed (tests/redis_server.py says where it comes from, or what is missing).
Each node keeps an append-only file, as strict sequencing with CARDREF_SEQUENCE_REQUIRE_AOF
demands, and a short node timeout (1 s): a killed master is failed over in a few seconds.
"""
from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import redis

from tests.redis_server import redis_server_binary

SLOTS = 16384
NODE_TIMEOUT_MS = 1000


def _cluster_port() -> int:
    """A free port whose cluster bus port (10000 above it) is free and exists too."""
    for _ in range(200):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port + 10000 > 65535:
            continue
        with socket.socket() as bus:
            try:
                bus.bind(("127.0.0.1", port + 10000))
            except OSError:
                continue
        return port
    raise AssertionError("no free port pair (port, port + 10000) for a cluster node")


def _wait(what: str, ready, timeout: float = 30.0, every: float = 0.05):
    deadline = time.monotonic() + timeout
    while True:
        try:
            found = ready()
        except redis.RedisError:
            found = None
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"the test's Redis Cluster: {what} within {timeout:.0f} s")
        time.sleep(every)


class Node:
    def __init__(self, root: Path):
        self.port = _cluster_port()
        self.dir = root / str(self.port)
        self.dir.mkdir()
        self.proc: subprocess.Popen | None = None
        self.client = redis.Redis(port=self.port, socket_timeout=5, socket_connect_timeout=1,
                                  decode_responses=True)

    def start(self) -> None:
        log = open(self.dir / "redis.log", "wb")
        with log:
            self.proc = subprocess.Popen(
                [redis_server_binary(), "--port", str(self.port), "--bind", "127.0.0.1",
                 "--dir", str(self.dir), "--cluster-enabled", "yes",
                 "--cluster-config-file", "nodes.conf",
                 "--cluster-node-timeout", str(NODE_TIMEOUT_MS),
                 # a replica fails over whatever its last contact with its master
                 "--cluster-replica-validity-factor", "0",
                 "--save", "", "--appendonly", "yes"],
                stdout=log, stderr=subprocess.STDOUT)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def node_id(self) -> str:
        return self.client.execute_command("CLUSTER MYID")

    def known_nodes(self) -> int:
        return int(self.client.cluster("INFO")["cluster_known_nodes"])

    def state_ok(self) -> bool:
        return self.client.cluster("INFO")["cluster_state"] == "ok"

    def role(self) -> str:
        return self.client.execute_command("ROLE")[0]

    def kill(self) -> None:
        """SIGKILL: no goodbye to the cluster, no last write to its file."""
        if self.alive():
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.alive():
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.client.close()


class RedisCluster:
    """start() forms the cluster and waits until every slot is served and every replica in
    sync; close() stops every node and removes their directories (also after a failed start)."""

    def __init__(self, masters: int = 3):
        self._root = Path(tempfile.mkdtemp(prefix="cardref-cluster-"))
        self.masters = [Node(self._root) for _ in range(masters)]
        self.replicas = [Node(self._root) for _ in range(masters)]
        self.nodes = self.masters + self.replicas

    @property
    def url(self) -> str:
        """CARDREF_REDIS_URL naming the cluster by all its nodes (any one would do)."""
        return "redis+cluster://" + ",".join(f"127.0.0.1:{n.port}" for n in self.nodes)

    def start(self) -> RedisCluster:
        for node in self.nodes:
            node.start()
        for node in self.nodes:
            _wait(f"node {node.port} answers", lambda n=node: n.alive() and n.client.ping(),
                  every=0.02)
        per = SLOTS // len(self.masters)
        for i, master in enumerate(self.masters):
            last = SLOTS - 1 if i == len(self.masters) - 1 else (i + 1) * per - 1
            master.client.execute_command("CLUSTER ADDSLOTS", *range(i * per, last + 1))
            # distinct epochs, as redis-cli sets them: no collision to settle first
            master.client.execute_command("CLUSTER SET-CONFIG-EPOCH", i + 1)
        first = self.nodes[0]
        for node in self.nodes[1:]:
            node.client.execute_command("CLUSTER MEET", "127.0.0.1", first.port)
        for node in self.nodes:
            _wait("every node knows every other",
                  lambda n=node: n.known_nodes() == len(self.nodes))
        for master, replica in zip(self.masters, self.replicas):
            master_id = master.node_id()
            _wait("a replica may follow its master", lambda r=replica, m=master_id:
                  r.client.execute_command("CLUSTER REPLICATE", m) or True)
        for node in self.nodes:
            _wait("every slot served (cluster_state:ok)", node.state_ok)
        for node in self.nodes:
            _wait("every node sees every replica", lambda n=node: sum(
                "slave" in seen["flags"] for seen in n.client.cluster("NODES").values())
                == len(self.replicas))
        for replica in self.replicas:
            _wait("every replica in sync", lambda r=replica: r.client.info("replication")
                  .get("master_link_status") == "up")
        return self

    def master_of_key(self, key: str) -> Node:
        """The master serving `key`'s slot now (CLUSTER NODES of a live node)."""
        client = next(n for n in self.nodes if n.alive()).client
        slot = client.execute_command("CLUSTER KEYSLOT", key)
        for address, node in client.cluster("NODES").items():
            flags = node["flags"].split(",")
            if "master" in flags and "fail" not in flags and any(
                    int(start) <= slot <= int(end) for start, end in node["slots"]):
                port = int(address.split("@")[0].rpartition(":")[2])
                return next(n for n in self.nodes if n.port == port)
        raise AssertionError(f"no master serves slot {slot}")

    def replica_of(self, master: Node) -> Node:
        return self.replicas[self.masters.index(master)]

    def wait_failed_over(self, killed: Node, timeout: float = 30.0) -> float:
        """Wait until the killed master's replica is master and every live node says every
        slot is served; the seconds it took."""
        began = time.monotonic()
        replica = self.replica_of(killed)
        _wait("the replica took its killed master's place", lambda: replica.role() == "master",
              timeout)
        for node in self.nodes:
            if node.alive():
                _wait("every slot served again after the failover", node.state_ok, timeout)
        return time.monotonic() - began

    def command_calls(self, command: str) -> int:
        """How many times the live masters ran `command` (INFO commandstats)."""
        total = 0
        for node in self.nodes:
            if node.alive() and node.role() == "master":
                stats = node.client.info("commandstats").get(f"cmdstat_{command.lower()}")
                total += stats["calls"] if stats else 0
        return total

    def close(self) -> None:
        for node in self.nodes:
            node.stop()
        shutil.rmtree(self._root, ignore_errors=True)
