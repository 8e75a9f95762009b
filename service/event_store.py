"""Hosted events' store (docs/hosted-events.md): each event the service keeps, in the Redis
CARDREF_REDIS_URL names (one server or a Cluster: service/redis_store.py).

An event's keys share one hash tag, `{<id>}`, so a Cluster keeps them on one node and one Lua
script may read and write them all:

- `cardref:ev:{<id>}`         hash: `doc` (the event document, the engine's
                              `card-referee/event`, without its tables' results), `version`
                              (1 at creation, +1 per change), `stamp` (random, new with each
                              change: a version's number may come back after a Redis failover
                              lost the change that first took it, a stamp does not),
                              `published` ("1" once final) and `frame` (+1 each time `doc` is
                              written);
- `cardref:ev:{<id>}:results` hash: `<round>.<table>` → that table's result (JSON): the
                              document is `doc` with each table's result put in (`_assembled`).
                              A table's push writes its own field, not a document of every
                              table's records (megabytes at a 200-entrant event);
- `cardref:ev:{<id>}:tails`   hash: `<round>.<table>` → how many appends that table's record
                              took since its result was last written whole; each is a JSON line
                              in `cardref:ev:{<id>}:lines` (hash: `<round>.<table>#<n>` → the
                              n-th): an append writes one field, whatever the record's length.
                              Read, they are put in (engine/records.py `appended`): the
                              document, every view and check read the record as if written
                              whole;
- `cardref:ev:{<id>}:ends`    hash: `<round>.<table>` → the prefix key (hex) of that table's
                              record's end (engine/records.py `record_end`): the base an append
                              must name. Written with the record, gone with it (and whenever
                              the result is written by anything but a table's whole push);
- `cardref:ev:{<id>}:stamps`  hash: `<round>.<table>` → the stamp of the change that last
                              wrote that table's result or appended to it: the public view
                              reads again only the tables whose stamp is not the one it built
                              them from (`parts`);
- `cardref:ev:{<id>}:secrets` hash: `round:<n>` → the seed and salt of round n while it is not
                              revealed (they are never in the document before reveal_round);
- `cardref:ev:{<id>}:tokens`  hash: token id → the token's role and the SHA-256 of its secret
                              (never the token itself);
- `cardref:ev:{<id>}:calls`   hash: `<round>.<table>` → that table's call for the referee
                              waiting (JSON: when, why). Live status, not the event: no
                              version, no stamp (the public view, cached by them, shows no
                              call), nothing in the document;
- `cardref:ev:{<id>}:idem:<sha256 of an Idempotency-Key>`: the answer to a change sent with
                              that key, kept IDEMPOTENCY_SECONDS, encrypted with a key derived
                              from the Idempotency-Key and the request (it may carry tokens).

Every change is one compare-and-set on the version (`_CHANGE`, a Lua script: atomic on one
server and on the node a Cluster keeps the event on): the expected version, the new document
(or none: only results change), the results that change, what changes among the secrets and
tokens, and the answer kept for a retry, all or nothing. A read is one script too (`_READ`):
the document and its results at one version.
The store knows no rules: the engine computes every document (engine/events/), the HTTP layer
(service/api/hosted_events.py) decides who may ask.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import orjson
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from redis.commands.core import Script

from engine import records

from . import redis_store
from .redis_store import ERRORS

# An event id: 128 random bits, URL-safe (secrets.token_urlsafe(16)); anything else is no id.
EVENT_ID = re.compile(r"[A-Za-z0-9_-]{22}")
TOKEN_ID = re.compile(r"[A-Za-z0-9_-]{11}")
TOKEN_SEPARATOR = "."
IDEMPOTENCY_SECONDS = 24 * 3600
IDEMPOTENCY_KEY = re.compile(r"[\x21-\x7e]{1,128}")  # visible ASCII, as a header carries it
# A change whose version moved under it (another table's write) is computed again from the new
# document this many times before the caller is told to retry (409 version_conflict).
APPLY_ATTEMPTS = 8
_ID_PURPOSE = b"card-referee event id v1\x00"
_ANSWER_PURPOSE = b"card-referee idempotent answer v1\x00"

# KEYS: 1 the event, 2 its secrets, 3 its tokens, 4 the idempotency record, 5 its results,
# 6 its results' tails, 7 its records' ends, 8 its results' stamps, 9 the tails' lines.
# ARGV: 1 the expected version (0: the event must not exist yet), 2 the new document ("": the
# document is unchanged), 3 the
# request's digest ("": no Idempotency-Key), 4 the answer to keep, 5 its TTL in seconds, 6 the
# changes to the secrets, tokens, results and the event's own fields (JSON), 7 the token id the
# caller acts with ("": the director key), which must still exist.
# Returns {outcome, value}: ok/new version, replay/kept answer, reused, conflict/"<current
# version>:<frame>", revoked. `frame` counts the writes of `doc` (the document without its
# results): a change computed from the document alone still stands at a newer version of the
# same frame (only tables' results changed since).
_CHANGE = """
-- a table's appends forgotten (its result written whole: they are in it), a thousand an HDEL
local function forget_tail(field)
  local n = tonumber(redis.call('HGET', KEYS[6], field) or '0')
  local i = 1
  while i <= n do
    local names = {}
    for k = i, math.min(n, i + 999) do names[#names + 1] = field .. '#' .. k end
    redis.call('HDEL', KEYS[9], unpack(names))
    i = i + 1000
  end
  redis.call('HDEL', KEYS[6], field)
end
if ARGV[3] ~= '' then
  local kept = redis.call('GET', KEYS[4])
  if kept then
    if string.sub(kept, 1, 64) == ARGV[3] then return {'replay', string.sub(kept, 66)} end
    return {'reused', ''}
  end
end
if ARGV[7] ~= '' and redis.call('HEXISTS', KEYS[3], ARGV[7]) == 0 then
  return {'revoked', ''}
end
local version = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if version ~= tonumber(ARGV[1]) then
  return {'conflict', tostring(version) .. ':' .. (redis.call('HGET', KEYS[1], 'frame') or '0')}
end
local changes = cjson.decode(ARGV[6])
redis.call('HSET', KEYS[1], 'version', version + 1)
if ARGV[2] ~= '' then
  redis.call('HSET', KEYS[1], 'doc', ARGV[2])
  redis.call('HINCRBY', KEYS[1], 'frame', 1)
end
for field, value in pairs(changes['results']) do
  if value == '' then redis.call('HDEL', KEYS[5], field)
  else redis.call('HSET', KEYS[5], field, value) end
  -- a result written whole: its appends are in it, and its end is the one given, or none
  forget_tail(field)
  local ended = changes['ends'][field]
  if ended then redis.call('HSET', KEYS[7], field, ended)
  else redis.call('HDEL', KEYS[7], field) end
  if value == '' then redis.call('HDEL', KEYS[8], field)
  else redis.call('HSET', KEYS[8], field, changes['event']['stamp']) end
end
for field, value in pairs(changes['event']) do redis.call('HSET', KEYS[1], field, value) end
for field, value in pairs(changes['secrets']) do
  if value == '' then redis.call('HDEL', KEYS[2], field)
  else redis.call('HSET', KEYS[2], field, value) end
end
for field, value in pairs(changes['tokens']) do
  if value == '' then redis.call('HDEL', KEYS[3], field)
  else redis.call('HSET', KEYS[3], field, value) end
end
if ARGV[3] ~= '' then
  redis.call('SET', KEYS[4], ARGV[3] .. '\\n' .. ARGV[4], 'EX', ARGV[5])
end
return {'ok', tostring(version + 1)}
"""

# A table's appends from the (`from` + 1)-th on, as one text (a JSON line each, each ended by a
# newline), false when there are none: read from the count in the tails hash and the lines
# hash, a thousand lines an HMGET (Lua's unpack has a bound). Put at the head of every script
# that reads appends.
_TAIL_OF = """
local function tail_of(tails, lines, field, from)
  local n = tonumber(redis.call('HGET', tails, field) or '0')
  if n <= from then return false end
  local out = {}
  local i = from + 1
  while i <= n do
    local last = math.min(n, i + 999)
    local names = {}
    for k = i, last do names[#names + 1] = field .. '#' .. k end
    local got = redis.call('HMGET', lines, unpack(names))
    for k = 1, #got do out[#out + 1] = got[k] end
    i = last + 1
  end
  return table.concat(out, '\\n') .. '\\n'
end
"""

# KEYS: 1 the event, 2 its results, 3 their tails, 4 their lines. ARGV: 1 "1": with the
# results; 2 (optional)
# one result's field, read alone with its tail (a table's record: not every table's). Returns
# {doc, version, published, frame, {field, value, …}, stamp, {field, tail, …}, framestamp} at
# one version.
_READ = _TAIL_OF + """
local doc = redis.call('HMGET', KEYS[1], 'doc', 'version', 'published', 'frame', 'stamp',
                       'framestamp')
local results, tails = {}, {}
if ARGV[1] == '1' then
  results = redis.call('HGETALL', KEYS[2])
  for i = 1, #results, 2 do
    local tail = tail_of(KEYS[3], KEYS[4], results[i], 0)
    if tail then
      tails[#tails + 1] = results[i]
      tails[#tails + 1] = tail
    end
  end
elseif ARGV[2] then
  local one = redis.call('HGET', KEYS[2], ARGV[2])
  if one then results = {ARGV[2], one} end
  local tail = tail_of(KEYS[3], KEYS[4], ARGV[2], 0)
  if tail then tails = {ARGV[2], tail} end
end
return {doc[1], doc[2], doc[3], doc[4] or '0', results, doc[5] or '', tails, doc[6] or ''}
"""

# KEYS: 1 the event, 2 its results, 3 their tails, 4 their stamps, 5 the tails' lines. ARGV: 1
# the frame stamp of the
# document the caller holds ("": none), then the stamp of each table's result it holds (field,
# stamp, …). Returns {doc (false: the one the caller holds), version, published, frame,
# {field, value, …}, stamp, {field, tail, …}, framestamp, {field, stamp, …}} at one version:
# only the results (and tails) whose stamp is not the caller's, and those without a stamp.
_READ_CHANGED = _TAIL_OF + """
local ev = redis.call('HMGET', KEYS[1], 'version', 'published', 'frame', 'stamp', 'framestamp')
local doc = false
if ev[1] and ((ev[5] or '') == '' or ev[5] ~= ARGV[1]) then
  doc = redis.call('HGET', KEYS[1], 'doc')
end
local known = {}
for i = 2, #ARGV, 2 do known[ARGV[i]] = ARGV[i + 1] end
local stamps = redis.call('HGETALL', KEYS[4])
local stamped = {}
for i = 1, #stamps, 2 do stamped[stamps[i]] = stamps[i + 1] end
local results, tails = {}, {}
for _, field in ipairs(redis.call('HKEYS', KEYS[2])) do
  local now = stamped[field]
  if now == nil or known[field] ~= now then
    results[#results + 1] = field
    results[#results + 1] = redis.call('HGET', KEYS[2], field)
    local tail = tail_of(KEYS[3], KEYS[5], field, 0)
    if tail then
      tails[#tails + 1] = field
      tails[#tails + 1] = tail
    end
  end
end
return {doc, ev[1], ev[2], ev[3] or '0', results, ev[4] or '', tails, ev[5] or '', stamps}
"""

# KEYS: 1 the results, 2 their tails, 3 the records' ends, 4 the tails' lines. ARGV: 1 a table's
# field. Returns {result, tail, end} at one moment.
_READ_TABLE = _TAIL_OF + """
return {redis.call('HGET', KEYS[1], ARGV[1]), tail_of(KEYS[2], KEYS[4], ARGV[1], 0),
        redis.call('HGET', KEYS[3], ARGV[1])}
"""

# KEYS: 1 the results' tails, 2 the records' ends, 3 the tails' lines. ARGV: 1 a table's field,
# 2 how many of its appends the caller has seen. Returns {the appends after those, end}: a
# process that kept an earlier end of the record reads only the appends it has not seen.
_READ_TAIL = _TAIL_OF + """
return {tail_of(KEYS[1], KEYS[3], ARGV[1], tonumber(ARGV[2])),
        redis.call('HGET', KEYS[2], ARGV[1])}
"""

# An append to a table's record (engine/records.py `append`), the record not read: written if
# the document without results is the one the append was checked against (its frame stamp: the
# round still open, the table still seated), the event not published, and the table's stored
# end is the append's base. Other tables' writes meanwhile do not refuse it: its version is
# taken here, the next, and kept beside the answer for a retry (the answer is sealed before).
# KEYS: 1 the event, 2 its tokens, 3 the idempotency record, 4 the results' tails, 5 the records'
# ends, 6 the results' stamps, 7 the tails' lines. ARGV: 1 the frame stamp, 2 the request's digest
# ("": no Idempotency-Key), 3 the answer to keep, 4 its TTL, 5 the acting token id ("": the
# director key), 6 the table's field, 7 the base (hex), 8 the new end (hex), 9 the part (one JSON
# line), 10 the new stamp. Returns {outcome, value}: ok/"<new version> <appends since the whole
# record>", replay/"#<version>\n<kept answer>", reused, revoked, moved (the document or
# publication changed), base/"<the stored end>" (or "").
_APPEND = """
if ARGV[2] ~= '' then
  local kept = redis.call('GET', KEYS[3])
  if kept then
    if string.sub(kept, 1, 64) == ARGV[2] then return {'replay', string.sub(kept, 66)} end
    return {'reused', ''}
  end
end
if ARGV[5] ~= '' and redis.call('HEXISTS', KEYS[2], ARGV[5]) == 0 then
  return {'revoked', ''}
end
local event = redis.call('HMGET', KEYS[1], 'framestamp', 'published')
if (event[1] or '') ~= ARGV[1] or event[2] == '1' then return {'moved', ''} end
local stored = redis.call('HGET', KEYS[5], ARGV[6])
if stored ~= ARGV[7] then return {'base', stored or ''} end
local version = redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('HSET', KEYS[1], 'stamp', ARGV[10])
local count = redis.call('HINCRBY', KEYS[4], ARGV[6], 1)
redis.call('HSET', KEYS[7], ARGV[6] .. '#' .. count, ARGV[9])
redis.call('HSET', KEYS[5], ARGV[6], ARGV[8])
redis.call('HSET', KEYS[6], ARGV[6], ARGV[10])
if ARGV[2] ~= '' then
  redis.call('SET', KEYS[3], ARGV[2] .. '\\n#' .. version .. '\\n' .. ARGV[3], 'EX', ARGV[4])
end
return {'ok', tostring(version) .. ' ' .. tostring(count)}
"""


# KEYS: 1 the event's calls. ARGV: 1 the table's field, 2 the call. A table already waiting
# keeps its first call (how long it has waited is what the director reads). Returns {1 if
# new, the call waiting}.
_CALL = """
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 1 then return {1, ARGV[2]} end
return {0, redis.call('HGET', KEYS[1], ARGV[1])}
"""

# Why a table calls the referee, when it says: a fixed list, no free text (a call is seen by
# the director, and a phone's words are nobody's to show).
CALL_REASONS = ("ruling", "irregularity", "dispute", "result")


@dataclass(frozen=True)
class RefereeCall:
    """A table's call for the referee, waiting: its round and table, when it was made (Unix
    seconds, the service's clock) and why (None: not said)."""

    round: int
    table: int
    at: float
    reason: str | None = None


class EventsUnavailable(Exception):
    """The store does not answer (503 events_unavailable): nothing is known to have changed
    unless `outcome_unknown` (a change was sent and no answer came: send it again with the
    same Idempotency-Key)."""

    def __init__(self, message: str, outcome_unknown: bool = False):
        super().__init__(message)
        self.outcome_unknown = outcome_unknown


class VersionConflict(Exception):
    """The event is no longer at the version the change was computed from (409
    version_conflict); `current` is its version now."""

    def __init__(self, message: str, current: int, frame: int | None = None):
        super().__init__(message)
        self.current = current
        self.frame = frame


class BaseMismatch(Exception):
    """An append whose base is not the table's stored record's end (409 record_base_mismatch):
    `stored` is that end's key (hex), "" when the table has no record an append may extend."""

    def __init__(self, message: str, stored: str):
        super().__init__(message)
        self.stored = stored


class DocumentMoved(Exception):
    """The document an append was checked against was written since, or the event published:
    check it again."""


class IdempotencyKeyReused(Exception):
    """An Idempotency-Key already used for another request (409 idempotency_key_reused)."""


class TokenRevoked(Exception):
    """The caller's token was revoked while its change was computed (403 event_token_invalid)."""


@dataclass(frozen=True)
class Snapshot:
    """An event as stored at one version: its whole document, or (`EventStore.get(…,
    results=False)`) the document without its tables' results; `results`, each stored
    result's field and JSON as read (what a change compares with to write only those that
    changed); `frame`, how many times the document without results was written."""

    id: str
    version: int
    document: dict[str, Any]
    published: bool
    results: dict[str, bytes] | None = None
    frame: int = 0
    stamp: str = ""  # the change's own random mark ("" for an event stored before stamps)
    # the stamp of the change that last wrote the document without results ("": none since
    # frame stamps were kept): names that document even after a failover
    frame_stamp: str = ""


@dataclass(frozen=True)
class StoredParts:
    """An event as stored at one version, not read into a document: `document`, the JSON
    bytes of the document without its tables' results; `results`, each stored result's field
    and JSON bytes, and `tails` the appends to its record since (what the public view compares
    with the last it built, table by table: `result_bytes` puts them together)."""

    id: str
    version: int
    published: bool
    document: bytes | None  # None: the one of `frame_stamp` the reader holds (parts)
    results: dict[str, bytes]
    frame: int = 0
    stamp: str = ""
    tails: dict[str, bytes] = field(default_factory=dict)  # appends since a result was written
    frame_stamp: str = ""
    stamps: dict[str, str] = field(default_factory=dict)  # each result's (parts)


def result_bytes(kept: bytes, tail: bytes | None) -> bytes:
    """A table's result as JSON bytes, its record's appends since it was written whole
    (`tail`) put in."""
    return orjson.dumps(with_tail(kept, tail)) if tail else kept


def result_field(round_number: int, table: int) -> str:
    return f"{round_number}.{table}"


def split(document: dict[str, Any]) -> tuple[dict[str, Any], dict[str, bytes]]:
    """(the document without its tables' results, each result's field and JSON): how a
    document is stored."""
    results: dict[str, bytes] = {}
    rounds = []
    for k, rnd in enumerate(document.get("rounds") or []):
        tables = []
        for table in rnd.get("tables") or []:
            if isinstance(table, dict) and "result" in table:
                results[result_field(k + 1, table["number"])] = orjson.dumps(table["result"])
                table = {key: v for key, v in table.items() if key != "result"}
            tables.append(table)
        rounds.append({**rnd, "tables": tables} if "tables" in rnd else rnd)
    frame = {**document, "rounds": rounds} if "rounds" in document else document
    return frame, results


def _assembled(frame: dict[str, Any], results: dict[str, bytes],
               tails: dict[str, bytes] | None = None) -> dict[str, Any]:
    """The document: `frame` (as stored, read for this one use) with each stored result in
    its table, a record's appends since it was written whole put in (`tails`; `results`
    then holds the whole result)."""
    for k, rnd in enumerate(frame.get("rounds") or []):
        for table in rnd.get("tables") or []:
            name = result_field(k + 1, table["number"])
            kept = results.get(name)
            if kept is None:
                continue
            tail = tails.get(name) if tails else None
            if tail:
                result = with_tail(kept, tail)
                results[name] = orjson.dumps(result)
                table["result"] = result
            else:
                table["result"] = orjson.loads(kept)
    return frame


def _fields(flat: list[bytes]) -> dict[str, bytes]:
    """A hash's fields as a script answers them (HGETALL's field, value, field, …)."""
    return {flat[i].decode(): flat[i + 1] for i in range(0, len(flat), 2)}


def with_tail(kept: bytes, tail: bytes) -> dict[str, Any]:
    """A table's result as stored whole (`kept`) with the appends stored since (`tail`, a JSON
    line each) put in its record: the result as if written whole."""
    result: dict[str, Any] = orjson.loads(kept)
    record = result.get("record")
    for line in tail.split(b"\n"):
        if line and isinstance(record, dict):
            records.appended(record, orjson.loads(line))
    return result


@dataclass(frozen=True)
class Token:
    """A token's stored record: its id, role (`director` or `table`) and, for a table token,
    the round and table it writes."""

    id: str
    role: str
    round: int = 0
    table: int = 0


@dataclass
class Change:
    """What one change writes beside the new document: secrets and tokens set (a value) or
    removed (""), the event's own fields (`published`)."""

    document: dict[str, Any] | None
    secrets: dict[str, str]
    tokens: dict[str, str]
    event: dict[str, str]
    results: dict[str, bytes] = field(default_factory=dict)
    # each result written here whose record appends may extend: its end's key (hex); any
    # other result written loses its end (an append to it is refused: record_base_mismatch)
    ends: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, document: dict[str, Any]) -> "Change":
        return cls(document, {}, {}, {})

    @classmethod
    def of_result(cls, round_number: int, table: int, result: Any) -> "Change":
        """One table's result (None: it has none again), the document otherwise unchanged."""
        return cls(None, {}, {}, {}, {result_field(round_number, table):
                                     b"" if result is None else orjson.dumps(result)})


@dataclass(frozen=True)
class Retry:
    """A change's Idempotency-Key and what identifies its request (method, path, body and the
    caller's token id): the same key with another request is refused."""

    key: str
    request: bytes

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.request).hexdigest()

    def _aead(self) -> AESGCM:
        return AESGCM(hashlib.sha256(_ANSWER_PURPOSE + self.key.encode() + b"\x00"
                                     + self.request).digest())

    def seal(self, answer: bytes) -> str:
        nonce = os.urandom(12)
        return base64.b64encode(nonce + self._aead().encrypt(nonce, answer, None)).decode()

    def open(self, kept: bytes) -> bytes:
        raw = base64.b64decode(kept)
        return self._aead().decrypt(raw[:12], raw[12:], None)


def _call_of(field_name: str, raw: bytes) -> RefereeCall:
    round_number, _, table = field_name.partition(".")
    kept = orjson.loads(raw)
    return RefereeCall(int(round_number), int(table), float(kept["at"]), kept.get("reason"))


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def new_token(role: str, round_number: int = 0, table: int = 0) -> tuple[str, Token, str]:
    """(the token to hand out, its record, the record as stored): `<id>.<secret>`, the secret
    stored only as its SHA-256."""
    token_id = secrets.token_urlsafe(8)
    secret = new_secret()
    record: dict[str, Any] = {"role": role,
                              "hash": hashlib.sha256(secret.encode()).hexdigest()}
    if role == "table":
        record.update(round=round_number, table=table)
    return (f"{token_id}{TOKEN_SEPARATOR}{secret}", Token(token_id, role, round_number, table),
            orjson.dumps(record).decode())


def token_id_of(token: str) -> str:
    """The id a presented token names ("": it is no token of ours)."""
    token_id, sep, secret = token.partition(TOKEN_SEPARATOR)
    return token_id if sep and TOKEN_ID.fullmatch(token_id) and secret else ""


def verified(token: str, raw: bytes | None) -> Token | None:
    """The record of a presented token, stored as `raw` under its id (None: none), or None
    when its secret is not the one issued (compared as SHA-256 digests, in constant time)."""
    if raw is None:
        return None
    record = orjson.loads(raw)
    secret = token.partition(TOKEN_SEPARATOR)[2]
    given = hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()
    if not hmac.compare_digest(given.encode(), record["hash"].encode()):
        return None
    return Token(token_id_of(token), record["role"], record.get("round", 0),
                 record.get("table", 0))


def event_id(director_key: str | None = None, idempotency_key: str | None = None) -> str:
    """A new event's id: random, or — for a creation sent with an Idempotency-Key — derived
    from that key under the director key (HMAC): a retry names the same event, and whoever
    lacks the director key cannot guess it."""
    if director_key is None or idempotency_key is None:
        return secrets.token_urlsafe(16)
    mac = hmac.new(director_key.encode(), _ID_PURPOSE + idempotency_key.encode(),
                   hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode()[:22]


class _SharedRead:
    """One read of an event's revision and the callers waiting for it (EventStore.revision)."""

    __slots__ = ("done", "found", "error")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.found: tuple[int, str] | None = None
        self.error: Exception | None = None


class EventStore:
    def __init__(self, redis_url: str, timeout_seconds: float, retry_seconds: float = 2.0):
        self._client = redis_store.connect(redis_url, timeout_seconds, retry=False)
        self._change = Script(self._client, _CHANGE.encode())  # bytes: no connection yet
        self._read = Script(self._client, _READ.encode())
        self._call_script = Script(self._client, _CALL.encode())
        self._append = Script(self._client, _APPEND.encode())
        self._read_table = Script(self._client, _READ_TABLE.encode())
        self._read_tail = Script(self._client, _READ_TAIL.encode())
        self._read_changed = Script(self._client, _READ_CHANGED.encode())
        self._retry_seconds = retry_seconds
        # revision's shared reads by event: the one sent and not yet answered, and the next,
        # which callers join until it is sent
        self._reads_lock = threading.Lock()
        self._sent_reads: dict[str, _SharedRead] = {}
        self._next_reads: dict[str, _SharedRead] = {}

    @staticmethod
    def _keys(eid: str, retry: Retry | None = None) -> list[str]:
        base = f"cardref:ev:{{{eid}}}"
        idem = f"{base}:idem:{hashlib.sha256(retry.key.encode()).hexdigest()}" if retry \
            else f"{base}:idem:-"
        return [base, f"{base}:secrets", f"{base}:tokens", idem, f"{base}:results",
                f"{base}:tails", f"{base}:ends", f"{base}:stamps", f"{base}:lines"]

    def _call(self, what, *args, **kwargs):
        try:
            return what(*args, **kwargs)
        except ERRORS as err:
            raise EventsUnavailable(f"the events' store does not answer: {err}") from None

    # -- reads ---------------------------------------------------------------------------
    def get(self, eid: str, results: bool = True) -> Snapshot | None:
        """The event at its latest version: the whole document, or without its tables'
        results (`results=False`: what a table's push reads)."""
        keys = self._keys(eid)
        doc, version, published, frames, flat, stamp, tails, frame_stamp = self._call(
            self._read, keys=[keys[0], keys[4], keys[5], keys[8]],
            args=["1" if results else "0"])
        if doc is None or version is None:
            return None
        frame = orjson.loads(doc)
        if not results:
            return Snapshot(eid, int(version), frame, published == b"1", None, int(frames),
                            (stamp or b"").decode(), (frame_stamp or b"").decode())
        kept, added = _fields(flat), _fields(tails)
        return Snapshot(eid, int(version), _assembled(frame, kept, added), published == b"1",
                        kept, int(frames), (stamp or b"").decode(),
                        (frame_stamp or b"").decode())

    def push_context(self, eid: str, token_id: str) -> tuple[int, bool, str, bytes | None] | None:
        """What a table's append reads before it is checked, in one round trip: the event's
        version, whether it is published, its document's frame stamp, and the caller's token's
        stored record (None: no such event)."""
        keys = self._keys(eid)
        pipe = self._client.pipeline(transaction=False)
        pipe.hmget(keys[0], ["version", "published", "framestamp"])
        pipe.hget(keys[2], token_id)
        (version, published, frame_stamp), token = self._call(pipe.execute)
        if version is None:
            return None
        return int(version), published == b"1", (frame_stamp or b"").decode(), token

    def record_end(self, eid: str, round_number: int, table: int) -> str:
        """The key of a table's record's end ("": none an append may extend)."""
        end = self._call(self._client.hget, self._keys(eid)[6],
                         result_field(round_number, table))
        return (end or b"").decode()

    def table_tail(self, eid: str, round_number: int, table: int, seen: int = 0
                   ) -> tuple[list[dict[str, Any]], str]:
        """The appends a table's record took since it was written whole (each with the base
        it extended) but the first `seen`, and its end's key, read at one moment."""
        keys = self._keys(eid)
        tail, end = self._call(self._read_tail, keys=[keys[5], keys[6], keys[8]],
                               args=[result_field(round_number, table), seen])
        return ([orjson.loads(line) for line in (tail or b"").split(b"\n") if line],
                (end or b"").decode())

    def table_record(self, eid: str, round_number: int, table: int
                     ) -> tuple[dict[str, Any] | None, str]:
        """A table's result as it stands (its appends put in; None: none) and its record's
        end's key ("" when no append may extend it), read at one moment."""
        keys = self._keys(eid)
        name = result_field(round_number, table)
        kept, tail, end = self._call(self._read_table,
                                     keys=[keys[4], keys[5], keys[6], keys[8]], args=[name])
        if kept is None:
            return None, ""
        result = with_tail(kept, tail) if tail else orjson.loads(kept)
        return result, (end or b"").decode()

    def parts(self, eid: str, frame_stamp: str = "", known: dict[str, str] | None = None
              ) -> StoredParts | None:
        """The event at its latest version as stored: its document without results, each
        table's result and each table's appends since (`tails`), as bytes, none of it parsed
        nor put together — but for what the caller holds already: the document when its frame
        stamp is `frame_stamp` (`document` None), and each table's result whose stamp is the
        one `known` gives (left out of `results` and `tails`; `stamps` has every table's).
        The public view reads again only what changed since the last it built, not every
        closed round's records with every push."""
        keys = self._keys(eid)
        args = [frame_stamp, *(x for pair in (known or {}).items() for x in pair)]
        doc, version, published, frames, flat, stamp, tails, framestamp, stamps = self._call(
            self._read_changed, keys=[keys[0], keys[4], keys[5], keys[7], keys[8]], args=args)
        if version is None or (doc is None and not frame_stamp):
            return None
        return StoredParts(eid, int(version), published == b"1", doc, _fields(flat),
                           int(frames), (stamp or b"").decode(), _fields(tails),
                           framestamp.decode(),
                           {f: v.decode() for f, v in _fields(stamps).items()})


    def with_table_result(self, eid: str, round_number: int, table: int) -> Snapshot | None:
        """The event at its latest version without its tables' results, and (in `results`,
        where it has one) the one result of table `table` of round `round_number`, its appends
        put in: a closed round's record is read without reading every other table's."""
        keys = self._keys(eid)
        name = result_field(round_number, table)
        doc, version, published, frames, flat, stamp, tails, frame_stamp = self._call(
            self._read, keys=[keys[0], keys[4], keys[5], keys[8]], args=["0", name])
        if doc is None or version is None:
            return None
        kept, added = _fields(flat), _fields(tails)
        if kept.get(name) is not None and added.get(name):
            kept[name] = orjson.dumps(with_tail(kept[name], added[name]))
        return Snapshot(eid, int(version), orjson.loads(doc), published == b"1", kept,
                        int(frames), (stamp or b"").decode(), (frame_stamp or b"").decode())

    def version(self, eid: str) -> int | None:
        """The event's version (None: no such event), without reading its document."""
        version = self._call(self._client.hget, self._keys(eid)[0], "version")
        return None if version is None else int(version)

    def revision(self, eid: str) -> tuple[int, str] | None:
        """The event's version and its change's stamp (None: no such event), without its
        document: what names this very document for a cache, even after a failover.

        Read once for every caller that asked before the read was sent (a spectators' poll
        is many requests at once, each of which cost a round trip): a caller never takes the
        answer of a read sent before it asked, so it sees every change made before it asked,
        whichever process made it."""
        with self._reads_lock:
            read = self._next_reads.get(eid)
            if read is not None:  # not sent yet: its answer is as new as this caller needs
                leader, ahead = False, None
            else:
                read = self._next_reads[eid] = _SharedRead()
                leader, ahead = True, self._sent_reads.get(eid)
        if not leader:
            read.done.wait()
            if read.error is not None:
                raise read.error
            return read.found
        try:
            if ahead is not None:
                ahead.done.wait()  # sent before this caller asked: this one is sent after it
            with self._reads_lock:
                del self._next_reads[eid]
                self._sent_reads[eid] = read
            version, stamp = self._call(self._client.hmget, self._keys(eid)[0],
                                        ["version", "stamp"])
            read.found = None if version is None else (int(version), (stamp or b"").decode())
        except Exception as err:
            read.error = err
            raise
        finally:
            with self._reads_lock:
                for reads in (self._next_reads, self._sent_reads):
                    if reads.get(eid) is read:
                        del reads[eid]
            read.done.set()
        return read.found

    def token(self, eid: str, token: str) -> Token | None:
        """The record of a token presented for event `eid`, or None: unknown, revoked, or
        its secret not the one issued (compared as SHA-256 digests, in constant time)."""
        token_id = token_id_of(token)
        if not token_id:
            return None
        return verified(token, self._call(self._client.hget, self._keys(eid)[2], token_id))

    def tokens(self, eid: str) -> list[Token]:
        raw = self._call(self._client.hgetall, self._keys(eid)[2])
        out = []
        for token_id, value in raw.items():
            record = orjson.loads(value)
            out.append(Token(token_id.decode(), record["role"], record.get("round", 0),
                             record.get("table", 0)))
        return sorted(out, key=lambda t: (t.role != "director", t.round, t.table, t.id))

    def secret(self, eid: str, round_number: int) -> dict[str, Any] | None:
        raw = self._call(self._client.hget, self._keys(eid)[1], f"round:{round_number}")
        return None if raw is None else orjson.loads(raw)

    def revoke(self, eid: str, token_id: str) -> bool:
        """Whether the token existed; it does not any more. Not a change of the event (no new
        version): a revocation never waits for, nor loses to, a race."""
        return bool(self._call(self._client.hdel, self._keys(eid)[2], token_id))

    # -- referee calls: live status beside the event, not a change of it -----------------
    def _calls_key(self, eid: str) -> str:
        return f"{self._keys(eid)[0]}:calls"

    def call_referee(self, eid: str, round_number: int, table: int,
                     reason: str | None) -> tuple[RefereeCall, bool]:
        """The table's call, waiting from now, or the one it made before still waiting
        (then False: not new)."""
        value = orjson.dumps({"at": time.time(), "reason": reason})
        new, kept = self._call(self._call_script, keys=[self._calls_key(eid)],
                               args=[result_field(round_number, table), value])
        return _call_of(result_field(round_number, table), kept), bool(new)

    def referee_call(self, eid: str, round_number: int, table: int) -> RefereeCall | None:
        """The table's call waiting, or None."""
        field_name = result_field(round_number, table)
        raw = self._call(self._client.hget, self._calls_key(eid), field_name)
        return None if raw is None else _call_of(field_name, raw)

    def referee_calls(self, eid: str) -> list[RefereeCall]:
        """Every call waiting, the longest waiting first."""
        raw = self._call(self._client.hgetall, self._calls_key(eid))
        return sorted((_call_of(f.decode(), v) for f, v in raw.items()),
                      key=lambda c: (c.at, c.round, c.table))

    def clear_calls(self, eid: str, *tables: tuple[int, int]) -> int:
        """The tables' calls cleared (none waiting: nothing to do); how many were waiting."""
        if not tables:
            return 0
        return int(self._call(self._client.hdel, self._calls_key(eid),
                              *(result_field(r, t) for r, t in tables)))

    # -- changes -------------------------------------------------------------------------
    def change(self, eid: str, expected: int, change: Change, answer, retry: Retry | None,
               acting: str = "", base: Snapshot | None = None) -> tuple[int, bytes]:
        """Write `change` if the event is at version `expected` (0: it does not exist yet);
        (the new version, the answer's bytes). `answer(version)` builds the answer to give and
        to keep for a retry with the same Idempotency-Key; a retry gets the kept one
        (version 0). Raises VersionConflict, IdempotencyKeyReused, TokenRevoked or
        EventsUnavailable (`outcome_unknown` when the script may have run)."""
        body = answer(expected + 1)
        document, results = b"", {}
        if change.document is not None:
            # stored as its frame and each table's result, only the results that changed
            # written (`base`: the snapshot the change was computed from)
            frame, given = split(change.document)
            document = orjson.dumps(frame)
            before = (base.results if base is not None else None) or {}
            results.update({f: v for f, v in given.items() if before.get(f) != v})
            results.update({f: b"" for f in before if f not in given})
        results.update(change.results)  # a result named explicitly is written as named
        # every change gets a new stamp beside its version (the public view is cached by both);
        # a new document, its frame stamp (what a table's append knows it by)
        stamp = secrets.token_hex(8)
        event = {**(change.event or {}), "stamp": stamp}
        if document:
            event["framestamp"] = stamp
        changes = orjson.dumps({"event": event,
                                "secrets": change.secrets or {},
                                "tokens": change.tokens or {},
                                "results": {f: v.decode() for f, v in results.items()},
                                "ends": {f: v for f, v in change.ends.items() if f in results}})
        # cjson reads an empty JSON object as an empty table either way
        args: list[bytes | str | int] = [expected, document, retry.digest if retry else "",
                retry.seal(body) if retry else "", IDEMPOTENCY_SECONDS, changes, acting]
        outcome, value = self._script(self._change, self._keys(eid, retry), args, retry)
        return self._outcome(outcome, value, expected, body, retry)

    def _script(self, script, keys: list[str], args: list, retry: Retry | None
                ) -> tuple[str, bytes]:
        """Run a change's script: (its outcome, its value)."""
        deadline = time.monotonic() + self._retry_seconds
        while True:
            try:
                outcome, value = script(keys=keys, args=args)
                break
            except ERRORS as err:
                # Sent again only with an Idempotency-Key: then a script that ran already is
                # answered from its kept answer; without one, a second run could not be told
                # from a first and the outcome is the caller's to find out.
                if retry is None or time.monotonic() >= deadline:
                    raise EventsUnavailable(
                        f"the events' store did not answer: {err}", outcome_unknown=True
                    ) from None
                time.sleep(0.05)
        return outcome.decode() if isinstance(outcome, bytes) else outcome, value

    def _outcome(self, outcome: str, value: bytes, expected: int, body: bytes,
                 retry: Retry | None) -> tuple[int, bytes]:
        if outcome == "ok":
            return int(value), body
        if outcome == "replay":
            assert retry is not None
            return 0, _opened(retry, value)
        if outcome == "reused":
            raise IdempotencyKeyReused("this Idempotency-Key was used for another request "
                                       f"in the last {IDEMPOTENCY_SECONDS // 3600} hours: "
                                       "a new request takes a new key")
        if outcome == "revoked":
            raise TokenRevoked("this token was revoked")
        current, _, frame = value.decode().partition(":")
        raise VersionConflict(f"the event is at version {current}, not {expected}",
                              int(current), int(frame))

    def append(self, eid: str, frame_stamp: str, round_number: int, table: int, base: str,
               end: str, part: bytes, answer, retry: Retry | None, acting: str = ""
               ) -> tuple[bytes, int | None]:
        """Add `part` (one JSON line) to a table's record if the document is still the one of
        `frame_stamp` and the record's stored end is `base` (hex); its end is `end` from then
        on. The answer's bytes (`answer(version)`; a retry gets the kept one) and how many
        appends the record took since it was written whole, this one included (None: a retry
        answered as before). Raises BaseMismatch, DocumentMoved besides change's refusals."""
        args: list[bytes | str | int] = [
            frame_stamp, retry.digest if retry else "", retry.seal(answer(0)) if retry else "",
            IDEMPOTENCY_SECONDS, acting, result_field(round_number, table), base, end, part,
            secrets.token_hex(8)]
        keys = self._keys(eid, retry)
        outcome, value = self._script(self._append, [keys[0], keys[2], keys[3], keys[5],
                                                     keys[6], keys[7], keys[8]], args, retry)
        if outcome == "base":
            raise BaseMismatch("the table's stored record does not end where this append "
                               "begins: push the whole record", value.decode())
        if outcome == "moved":
            raise DocumentMoved("the event's document changed since the append was checked")
        if outcome == "ok":
            version, count = value.split()
            return answer(int(version)), int(count)
        assert retry is not None or outcome != "replay"
        return self._outcome(outcome, value, 0, b"", retry)[1], None

    def kept_answer(self, eid: str, retry: Retry) -> bytes | None:
        """The answer kept for `retry`'s key, when it was this very request (IdempotencyKeyReused
        when another request used the key)."""
        kept = self._call(self._client.get, self._keys(eid, retry)[3])
        if kept is None:
            return None
        digest, _, sealed = kept.partition(b"\n")
        if digest.decode() != retry.digest:
            raise IdempotencyKeyReused("this Idempotency-Key was used for another request "
                                       f"in the last {IDEMPOTENCY_SECONDS // 3600} hours: "
                                       "a new request takes a new key")
        return _opened(retry, sealed)


def _opened(retry: Retry, kept: bytes) -> bytes:
    """A kept answer: sealed whole, or (an append's, `#<version>\\n` first) sealed before its
    version was known, the version put in."""
    if not kept.startswith(b"#"):
        return retry.open(kept)
    version, _, sealed = kept[1:].partition(b"\n")
    answer = orjson.loads(retry.open(sealed))
    answer["version"] = int(version)
    return orjson.dumps(answer)
