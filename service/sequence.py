"""Strict sequencing (CARDREF_SEQUENCE=strict): the last move number of every game id, in Redis,
so an older or forked state of a game is refused (409 state_superseded) instead of undoing a
draw or branching a game. One atomic compare-and-set per accepted move (a Lua script).

The record says which action moved the game on: `<move>:<digest>`, the digest naming the action
and the move it was applied to (service/api/validate.py, action_digest). So the same action posted again on
the same state is the same move, answered as the first time (the engine is deterministic): a
client whose answer was lost (a timeout, a killed worker) retries safely. When Redis does not
answer in time, the compare-and-set is sent again (it is idempotent) until it answers or the
retry window (CARDREF_SEQUENCE_RETRY_SECONDS) ends; only then 503, saying the outcome is unknown
and that the same action on the same state may be posted again.

A record holds `rolled_back` once a state newer than its record was posted: Redis lost moves
(restored from an older snapshot, or a crash without AOF), so no state of that game can be
vouched for any more (409 sequence_rolled_back) — never an older state accepted as the latest.

Match summaries (next_match) are recorded too under strict sequencing: `cardref:match:<match
id>:<deal>` holds the digest of the deal request that used it, so a summary starts one deal
(the same request again gets the same deal; another, 409 match_superseded).

Stateless mode (the default) keeps nothing: any state the service signed stays valid forever.
"""
from __future__ import annotations

import logging
import time

from redis.commands.core import Script

from . import redis_store
from .redis_store import ERRORS

log = logging.getLogger(__name__)

ROLLED_BACK = "rolled_back"

# KEYS[1] the game's key; ARGV: expected move, next move, TTL seconds, action digest.
# Returns -2 when set, -3 when this very action already moved the game on from the expected
# move (a retry: the same answer), -1 when the game id is unknown (never dealt here, or
# expired), -4 when the record says the game was rolled back, else the current move number
# (the posted state is stale or forked). A posted move beyond the record marks the game rolled
# back (-4).
_ADVANCE = """
local cur = redis.call('GET', KEYS[1])
if not cur then return -1 end
local n, d = string.match(cur, '^(%d+):?(.*)$')
if not n then return -4 end
n = tonumber(n)
local expected = tonumber(ARGV[1])
if n == expected then
  redis.call('SET', KEYS[1], ARGV[2] .. ':' .. ARGV[4], 'EX', ARGV[3])
  return -2
end
if n == expected + 1 and d == ARGV[4] then return -3 end
if expected > n then
  redis.call('SET', KEYS[1], 'rolled_back', 'KEEPTTL')
  return -4
end
return n
"""

# KEYS[1] the game's key; ARGV[1] the posted move. The current move (-1 unknown, -4 rolled
# back; a posted move beyond the record marks the game rolled back).
_CHECK = """
local cur = redis.call('GET', KEYS[1])
if not cur then return -1 end
local n = string.match(cur, '^(%d+)')
if not n then return -4 end
n = tonumber(n)
if tonumber(ARGV[1]) > n then
  redis.call('SET', KEYS[1], 'rolled_back', 'KEEPTTL')
  return -4
end
return n
"""

# KEYS[1] the match summary's key; ARGV: the deal request's digest, TTL seconds. 1 when this
# request is the first to use the summary or the same request again, 0 when another used it.
_USE_MATCH = """
local cur = redis.call('GET', KEYS[1])
if not cur then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
  return 1
end
if cur == ARGV[1] then return 1 end
return 0
"""


class Superseded(Exception):
    """The posted state is not the game's latest (or its game id is unknown here)."""

    def __init__(self, message: str, current: int | None):
        super().__init__(message)
        self.current = current


class RolledBack(Exception):
    """Redis's record of the game is older than a state the service issued (409
    sequence_rolled_back): the store lost moves, so no state of the game is vouched for."""


class MatchSuperseded(Exception):
    """A next_match already used for another deal (409 match_superseded)."""


class SequenceUnavailable(Exception):
    """Strict mode cannot reach its store: refuse rather than accept blindly. `outcome_unknown`:
    an action's compare-and-set was sent and no answer came within the retry window, so it may
    have been taken; posting the same action on the same state again is safe."""

    def __init__(self, message: str, outcome_unknown: bool = False):
        super().__init__(message)
        self.outcome_unknown = outcome_unknown


_ROLLED_BACK_MESSAGE = ("strict sequencing's store holds an older move of this game than a "
                        "state this service issued (Redis lost moves: restored from an older "
                        "snapshot, or restarted without AOF); no state of this game is vouched "
                        "for any more (docs/security.md)")


class Sequencer:
    def __init__(self, redis_url: str, ttl_seconds: int, timeout_seconds: float,
                 retry_seconds: float = 2.0):
        # No retries inside redis-py on one server: advance() retries itself, knowing the
        # script is idempotent, and reads fail fast. (A cluster client retries a few times
        # anyway, reading the layout again: how it finds a promoted replica.)
        self.cluster = redis_store.is_cluster(redis_url)
        self._client = redis_store.connect(redis_url, timeout_seconds, retry=False)
        # Scripts as bytes: a Script made from text asks its client for an encoder, which
        # would connect a cluster client at start-up. Each names one key (one slot).
        self._advance = Script(self._client, _ADVANCE.encode())
        self._check = Script(self._client, _CHECK.encode())
        self._use_match = Script(self._client, _USE_MATCH.encode())
        self._ttl = ttl_seconds
        self._retry_seconds = retry_seconds

    @staticmethod
    def _key(game_id: str) -> str:
        return f"cardref:seq:{game_id}"

    def ping(self) -> bool:
        """Readiness: the store answers (a cluster: every master, and every slot served)."""
        try:
            if not self.cluster:
                return bool(self._client.ping())
            return bool(self._client.ping(target_nodes=self._client.PRIMARIES)) and \
                redis_store.cluster_status(self._client)["state"] == "ok"
        except ERRORS:
            return False

    def durability(self) -> str:
        """What the store keeps across a restart: "aof" (append-only file on), "rdb_only"
        (snapshots only: a restart rolls back to the last one), "none", or "unknown" (CONFIG
        and INFO disabled or renamed, or the store not answering)."""
        if not self.cluster:
            return self._node_durability({})
        # A cluster keeps what its weakest node keeps: a replica promoted in a failed
        # master's place must keep an append-only file too.
        try:
            found = {self._node_durability({"target_nodes": node})
                     for node in redis_store.nodes(self._client)}
        except ERRORS:
            return "unknown"
        for weakest in ("unknown", "none", "rdb_only", "aof"):
            if weakest in found:
                return weakest
        return "unknown"

    def _node_durability(self, target: dict) -> str:
        try:
            config = self._client.config_get("appendonly", **target)
            if config.get("appendonly") == "yes":
                return "aof"
            save = self._client.config_get("save", **target).get("save", "")
            return "rdb_only" if save.strip() else "none"
        except ERRORS:
            pass
        try:
            info = self._client.info("persistence", **target)
        except ERRORS:
            return "unknown"
        if info.get("aof_enabled") in (1, "1"):
            return "aof"
        return "unknown"  # without CONFIG, whether snapshots are taken is not said

    def start(self, game_id: str, move: int = 0) -> None:
        """A new game id (made at the deal, never reused) starts at `move`."""
        try:
            self._client.set(self._key(game_id), move, ex=self._ttl, nx=True)
        except ERRORS as err:
            raise SequenceUnavailable(str(err)) from None

    def check(self, game_id: str, move: int) -> None:
        """The posted state is the latest of its game (reads: view, legal actions, refusals)."""
        try:
            current = int(self._check(keys=[self._key(game_id)], args=[move]))
        except ERRORS as err:
            raise SequenceUnavailable(str(err)) from None
        if current == -1:
            raise Superseded("this game id is unknown here (never dealt, or expired)", None)
        if current == -4:
            raise RolledBack(_ROLLED_BACK_MESSAGE)
        if current != move:
            raise Superseded(f"this is move {move}; the game is at move {current}", current)

    def advance(self, game_id: str, move: int, digest: str) -> None:
        """Atomically move the game from `move` to `move + 1` by the action `digest` names; the
        same action on the same move again passes (it is the move already taken)."""
        deadline = time.monotonic() + self._retry_seconds
        while True:
            try:
                result = int(self._advance(keys=[self._key(game_id)],
                                           args=[move, move + 1, self._ttl, digest]))
                break
            except ERRORS as err:
                # The script may have run (Redis answering late) or not: sending it again is
                # safe (a retry of this very action), and its answer settles it.
                if time.monotonic() >= deadline:
                    log.warning("strict sequencing: move %s of %s unsettled: %s", move,
                                game_id, err)
                    raise SequenceUnavailable(str(err), outcome_unknown=True) from None
                time.sleep(0.05)
        if result in (-2, -3):
            return
        if result == -1:
            raise Superseded("this game id is unknown here (never dealt, or expired)", None)
        if result == -4:
            raise RolledBack(_ROLLED_BACK_MESSAGE)
        raise Superseded(f"this is move {move}; the game is at move {result}", result)

    def use_match(self, match_id: str, deal: int, request_digest: str) -> None:
        """The match summary that starts deal `deal` of `match_id` starts one deal: the first
        request to use it, or the same request again (a retry gets the same deal)."""
        try:
            first = int(self._use_match(keys=[f"cardref:match:{match_id}:{deal}"],
                                        args=[request_digest, self._ttl]))
        except ERRORS as err:
            raise SequenceUnavailable(str(err)) from None
        if not first:
            raise MatchSuperseded(f"this next_match already started deal {deal} of its match; "
                                  "a match summary starts one deal")
