"""Strict sequencing (CARDREF_SEQUENCE=strict): the last move number of every game id, in Redis,
so an older or forked state of a game is refused (409 state_superseded) instead of undoing a
draw or branching a game. One atomic compare-and-set per accepted move (a Lua script); with
Redis unreachable the service answers 503 rather than accept blindly.

Stateless mode (the default) keeps nothing: any state the service signed stays valid forever.
"""
from __future__ import annotations

import redis

# KEYS[1] the game's key; ARGV: expected move, next move, TTL seconds.
# Returns -2 when set, -1 when the game id is unknown (never dealt here, or expired), else the
# current move number (the posted state is stale or forked).
_ADVANCE = """
local cur = redis.call('GET', KEYS[1])
if not cur then return -1 end
if tonumber(cur) ~= tonumber(ARGV[1]) then return tonumber(cur) end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
return -2
"""


class Superseded(Exception):
    """The posted state is not the game's latest (or its game id is unknown here)."""

    def __init__(self, message: str, current: int | None):
        super().__init__(message)
        self.current = current


class SequenceUnavailable(Exception):
    """Strict mode cannot reach its store: refuse rather than accept blindly."""


class Sequencer:
    def __init__(self, redis_url: str, ttl_seconds: int, timeout_seconds: float):
        self._client = redis.Redis.from_url(redis_url, socket_timeout=timeout_seconds,
                                            socket_connect_timeout=timeout_seconds)
        self._advance = self._client.register_script(_ADVANCE)
        self._ttl = ttl_seconds

    @staticmethod
    def _key(game_id: str) -> str:
        return f"cardref:seq:{game_id}"

    def ping(self) -> bool:
        """Readiness: the store answers."""
        try:
            return bool(self._client.ping())
        except redis.RedisError:
            return False

    def start(self, game_id: str, move: int = 0) -> None:
        """A new game id (made at the deal, never reused) starts at `move`."""
        try:
            self._client.set(self._key(game_id), move, ex=self._ttl, nx=True)
        except redis.RedisError as err:
            raise SequenceUnavailable(str(err)) from None

    def check(self, game_id: str, move: int) -> None:
        """The posted state is the latest of its game (reads: view, legal actions, refusals)."""
        try:
            current = self._client.get(self._key(game_id))
        except redis.RedisError as err:
            raise SequenceUnavailable(str(err)) from None
        if current is None:
            raise Superseded("this game id is unknown here (never dealt, or expired)", None)
        if int(current) != move:
            raise Superseded(f"this is move {move}; the game is at move {int(current)}",
                             int(current))

    def advance(self, game_id: str, move: int) -> None:
        """Atomically move the game from `move` to `move + 1` (an accepted action)."""
        try:
            result = int(self._advance(keys=[self._key(game_id)], args=[move, move + 1, self._ttl]))
        except redis.RedisError as err:
            raise SequenceUnavailable(str(err)) from None
        if result == -1:
            raise Superseded("this game id is unknown here (never dealt, or expired)", None)
        if result >= 0:
            raise Superseded(f"this is move {move}; the game is at move {result}", result)
