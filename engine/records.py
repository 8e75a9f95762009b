"""Match records: one whole match of any game, written down so anyone can check it (docs/records.md).

A record is a small header (format, version, game, seats, options, optional tags), then each deal
— how it was dealt (a server seed with its salted commitment, or the physical cards), every action
with an optional comment and the score deltas written at the table, the deal's result — and the
match totals. `check_record` replays it deal after deal, the match carried between deals as a
client carries it (deal k+1 is dealt with deal k's `next_match`, never with anything written in
the record), and answers each deal's result, the totals, the record's digest and the first
discrepancy with its deal, step and rule.

The digest is "sha256:" + the hex SHA-256 of the record's canonical serialization without its
`digest` key: RFC 8785 (JCS). A record's numbers are integers within ±(2^53 − 1) (fractions
are refused), so JCS is: UTF-8, object keys sorted by their UTF-16 code units, no insignificant
whitespace, strings escaped as orjson writes them (only `"`, `\\` and control characters).
"""
from __future__ import annotations

import datetime
import hashlib
import re
from collections import Counter
from dataclasses import dataclass
from itertools import chain, compress, repeat
from operator import is_
from typing import Annotated, Any, Literal, Mapping, Sequence

import msgspec
import orjson

from . import adjudicate, referee, registry, rng
from .errors import InputError, InvalidDeal, InvalidOptions, shown
from .fields import MAX_SAFE_INT, FieldError, parse_fields
from .game import Game
from .values import FINISHED, Refusal

FORMAT = "card-referee/match-record"
FORMAT_VERSION = 1  # the version this checker reads; a higher one is refused, never half-read
DIGEST_PREFIX = "sha256:"
# Deals dealt from cards (deck or hands) without a seed are replayed with this seed, so a check
# answers the same every time (a seed still decides e.g. a cut for the first leader).
PHYSICAL_SEED = ""

# The event every game answers when the last deal of its match ends (its next_match, if any,
# deals nothing more).
MATCH_FINISHED = "match_finished"

# What the record's known tags hold; any other tag is kept as it is (any JSON).
KNOWN_TAGS = ("event", "site", "date", "round", "table", "referee", "names", "engine")
# The bounds of a record's tags (docs/records.md "Tags"), checked before anything reads them, so
# the work a record's tags ask for stays small whatever they hold (record_invalid past them).
MAX_TAGS = 32          # tags in one record
MAX_TAG_NAME = 64      # characters of a tag's name
MAX_TAG_BYTES = 4096   # a tag's value written as JSON (UTF-8 bytes), `names` included
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class InvalidRecord(InputError):
    """A record that is not well formed (HTTP 422): its path names what is wrong."""

    code = "record_invalid"


# ---------------------------------------------------------------- the declared shape (format 1)

class _Strict(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    pass


def _about(text: str) -> msgspec.Meta:
    return msgspec.Meta(description=text)


class RecordedDelta(msgspec.Struct, omit_defaults=True):
    """A score delta as written in the record; compared with the engine's on target, kind and
    delta. Other keys (`reason`, `from`, `to`, `game` of a delta copied from an answer) are
    kept, not compared."""

    target: str
    kind: str
    delta: int


class RecordedAction(_Strict):
    """One action of a deal as the table took it."""

    action: Annotated[dict[str, Any], _about(
        "exactly what POST /v1/validate takes as `action` (`game` optional)")]
    comment: Annotated[str | None, _about("free text, any language")] = None
    score_deltas: Annotated[list[RecordedDelta] | None, _about(
        "the score deltas written for this action: compared with the engine's")] = None


class RecordedDeal(_Strict):
    """How a deal was dealt: a deal request without game, players, options and match (the
    match is carried from the previous deal by the checker). A `seed` (with the `seed_salt` and
    the `seed_commitment` published before play: checked), or the cards: `deck`, or `hands`
    (+ `table`). A deal from the cards without a seed is replayed with the empty seed."""

    seed: str | None = None
    seed_salt: Annotated[str | None, _about(
        "the salt of the seed's commitment, revealed with the seed")] = None
    seed_commitment: Annotated[str | None, _about(
        "the commitment published before play: SHA-256 over the salt and the seed "
        "(engine/rng.py), checked against them")] = None
    deck: Annotated[list[str] | None, _about("an explicit deck, top card first")] = None
    hands: Annotated[dict[str, list[str]] | None, _about("each seat's cards, exactly")] = None
    table: Annotated[dict[str, Any] | None, _about(
        "with hands: what else lay face up (the game's `<Game>Table`)")] = None
    dealer: str | None = None


class DealResult(_Strict):
    """A deal's result as written: compared with the engine's when present."""

    status: Literal["in_progress", "finished"] | None = None
    totals: Annotated[dict[str, int] | None, _about(
        "the deal's score deltas summed per target (targets at zero may be left out)")] = None


class DealEntry(_Strict):
    """One deal of the match: how it was dealt, its actions in order, its result."""

    deal: RecordedDeal
    actions: list[RecordedAction] = []
    result: DealResult | None = None


class MatchRecord(_Strict):
    """A whole match, checkable move by move (docs/records.md)."""

    format: Literal["card-referee/match-record"]
    format_version: Annotated[int, _about(
        "1; a checker refuses a higher one (record_version_unsupported) rather than half-read it")]
    game: str
    players: Annotated[list[str], _about("player ids in seat order")]
    deals: Annotated[list[DealEntry], _about("at least one, in the order played")]
    options: Annotated[dict[str, Any], _about(
        "as a deal request's: `preset` and named options")] = {}
    tags: Annotated[dict[str, Any], _about(
        "event, site, date (YYYY-MM-DD), round, table, referee, names ({seat: name}), engine; "
        "any other tag is kept as it is")] = {}
    match: Annotated[dict[str, Any] | None, _about(
        "the match values the first deal starts from (a match entered part-way)")] = None
    totals: Annotated[dict[str, int] | None, _about(
        "summed over all deals; compared when present")] = None
    digest: Annotated[str | None, _about(
        "\"sha256:\" + hex SHA-256 of the record's canonical form without `digest`")] = None


# The known tags as the spec publishes them (checked by _check_tags); others pass as they are.
TAGS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "event": {"type": "string"}, "site": {"type": "string"},
        "date": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$",
                 "description": "YYYY-MM-DD"},
        "round": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
        "table": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
        "referee": {"type": "string"},
        "names": {"type": "object", "additionalProperties": {"type": "string"},
                  "description": "seat id -> the player's name"},
        "engine": {"type": "string", "description": "the engine version the record was made with"},
    },
    "additionalProperties": True,
    "description": "optional tags: the known ones typed, any other kept as it is (any JSON but "
                   "fractions)"}


# ---------------------------------------------------------------- canonical form and digest

MAX_DEPTH = 32  # nesting of objects and lists (a tag's value may nest; nothing else goes deep)


def _canonical(value: Any, where: Any = None, depth: int = 0,
               error: type[InputError] = InvalidRecord) -> Any:
    """A copy of `value` in JCS order (object keys sorted by UTF-16 code units), refusing what
    JCS cannot write the same in every language: fractions, integers past ±(2^53 − 1), text
    that is not Unicode. `where` is the value's path as a chain (parent, key), written out only
    for a fault: building each element's path as text cost a long key's length per element.
    `error`: the fault's class (a match record's, or an event's: engine/events)."""
    if depth > MAX_DEPTH:
        raise error(f"a document nests at most {MAX_DEPTH} levels deep", _path(where))
    # Text first, the commonest value: ASCII text is Unicode (`isascii` costs far less than
    # encoding it), and a record is mostly ASCII. A table pushes its record after every
    # action, and each push puts it in canonical form more than once.
    if type(value) is str:
        if not value.isascii():
            _check_text(value, where, error)
        return value
    if isinstance(value, dict):
        keys = list(value)
        if all(type(k) is str and k.isascii() for k in keys):
            keys.sort()  # ASCII: code point order is UTF-16 code unit order
        else:
            keys.sort(key=lambda k: k.encode("utf-16-be", "surrogatepass")
                      if isinstance(k, str) else b"")
        out = {}
        for key in keys:
            if not isinstance(key, str):
                raise error("object keys are strings", _path(where))
            if not key.isascii():
                _check_text(key, where, error)
            out[key] = _canonical(value[key], (where, key), depth + 1, error)
        return out
    if isinstance(value, list):
        return [_canonical(v, (where, i), depth + 1, error) for i, v in enumerate(value)]
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        if not -MAX_SAFE_INT <= value <= MAX_SAFE_INT:
            raise error("a document's integers are within ±(2^53 − 1), what every JSON "
                        "reader holds exactly", _path(where))
        return value
    if isinstance(value, float):
        raise error("a document's numbers are integers (its digest's canonical form "
                    "writes no fractions)", _path(where))
    if isinstance(value, str):
        _check_text(value, where, error)
        return value
    raise error(f"not a JSON value: {shown(value)}", _path(where))


def _path(where: Any) -> str:
    """The path a (parent, key) chain names, as faults name it: `tags.x[2]`."""
    keys = []
    while where is not None:
        where, key = where
        keys.append(key)
    out = ""
    for key in reversed(keys):
        out = f"{out}[{key}]" if isinstance(key, int) else (f"{out}.{key}" if out else key)
    return out


def _check_text(text: str, where: Any, error: type[InputError] = InvalidRecord) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise error("text must be Unicode (a lone surrogate is not)", _path(where)) from None


def canonical_bytes(record: Mapping[str, Any], error: type[InputError] = InvalidRecord) -> bytes:
    """The record's canonical serialization, without its `digest` key (what the digest hashes).
    `error`: the class of a fault (an event document is canonicalized the same way)."""
    if not isinstance(record, Mapping):
        raise error("a document is a JSON object", "")
    body = {k: v for k, v in record.items() if k != "digest"}
    fast = _fast_canonical(body)
    return fast if fast is not None else orjson.dumps(_canonical(body, error=error))


# The fast way to the same bytes (a 200-entrant event's 400 records, 3 MB: _canonical's step
# in Python per value took 0.3 s of CPU, this a sixth of it, mostly _plain). orjson refuses lone
# surrogates, keys that are not strings and integers past ±(2^53 − 1) itself; what it would
# write although _canonical refuses it (a fraction, NaN written as null, a tuple, a date) is
# kept out by _plain; and it sorts keys by code point, which is JCS's UTF-16 order unless a
# key holds a character from U+E000 up, whose UTF-8 lead bytes _PAST_E000 finds (in any
# string: such a character in a value only sends the document the slow way). Whatever the fast
# way does not vouch for goes through _canonical, which writes it or names the fault.
_PLAIN_SCALARS = frozenset({str, int, bool, type(None)})
_PLAIN = _PLAIN_SCALARS | {dict, list}
_PAST_E000 = tuple(bytes([lead]) for lead in range(0xEE, 0xF5))  # each found by memchr


def _fast_canonical(body: dict[str, Any]) -> bytes | None:
    """`orjson.dumps(_canonical(body))` when the fast way vouches for it, else None."""
    if not _plain(body):
        return None
    try:
        out = orjson.dumps(body, option=orjson.OPT_SORT_KEYS | orjson.OPT_STRICT_INTEGER)
    except orjson.JSONEncodeError:
        return None
    if not out.isascii() and any(lead in out for lead in _PAST_E000):
        return None
    return out


def _plain(body: dict[str, Any]) -> bool:
    """Whether every value in `body` is exactly a dict, list, str, int, bool or None (no
    subclass), nested no deeper than _canonical allows. Depth by depth, each depth's members
    gathered and their types taken by C loops (itertools, map): no Python step per value."""
    dicts: list[dict[str, Any]] = [body]
    lists: list[list[Any]] = []
    for _ in range(MAX_DEPTH):  # the containers at this depth: their members one deeper
        members = list(chain(chain.from_iterable(map(dict.values, dicts)),
                             chain.from_iterable(lists)))
        types = list(map(type, members))
        kinds = set(types)
        if not kinds <= _PLAIN:
            return False
        dicts = list(compress(members, map(is_, types, repeat(dict)))) if dict in kinds else []
        lists = list(compress(members, map(is_, types, repeat(list)))) if list in kinds else []
        if not dicts and not lists:
            return True
    return False  # containers MAX_DEPTH deep: _canonical decides


def canonical_form(record: Mapping[str, Any]) -> dict[str, Any]:
    """`_canonical` of the record without its digest (InvalidRecord naming a fault): the fast
    way's bytes read back where it vouches for them (a pushed record is canonicalized by each
    push that reads it whole, and `_canonical`'s step per value cost milliseconds)."""
    body = {k: v for k, v in record.items() if k != "digest"}
    fast = _fast_canonical(body)
    out: dict[str, Any] = orjson.loads(fast) if fast is not None else _canonical(body)
    return out


def digest(record: Mapping[str, Any]) -> str:
    """"sha256:" + hex SHA-256 of the record's canonical serialization without `digest`."""
    return DIGEST_PREFIX + hashlib.sha256(canonical_bytes(record)).hexdigest()


# ---------------------------------------------------------------- reading a record

_MSGSPEC_PATH = re.compile(r" - at `\$(.*)`$")


def check_bounds(data: Any) -> None:
    """The record's cheap shape checks, made before any per-entry work (a record of 70,000
    seats or a tag of a million characters is refused by its counts and lengths, not walked):
    as many seats as the game takes, the tags within MAX_TAGS, MAX_TAG_NAME, MAX_TAG_BYTES."""
    if not isinstance(data, Mapping):
        raise InvalidRecord("a record is a JSON object", "")
    gid = data.get("game")
    game = registry.get(gid) if isinstance(gid, str) else None
    players = data.get("players")
    if game is not None and isinstance(players, list) and len(players) > game.max_players:
        raise InvalidRecord(f"{game.id} takes {game.min_players}–{game.max_players} players, "
                            f"not {len(players)}", "players")
    tags = data.get("tags")
    if not isinstance(tags, Mapping):
        return
    if len(tags) > MAX_TAGS:
        raise InvalidRecord(f"a record has at most {MAX_TAGS} tags, not {len(tags)}", "tags")
    for name, value in tags.items():
        if isinstance(name, str) and len(name) > MAX_TAG_NAME:
            raise InvalidRecord(f"a tag's name has at most {MAX_TAG_NAME} characters, not "
                                f"{len(name)}", "tags")
        try:
            size = len(orjson.dumps(value))
        except orjson.JSONEncodeError:
            continue  # nested past what orjson writes, or no JSON: the canonical form refuses it
        if size > MAX_TAG_BYTES:
            raise InvalidRecord(f"a tag's value has at most {MAX_TAG_BYTES} bytes as JSON, "
                                f"not {size}", f"tags.{name}")


def parse_record(data: Any) -> MatchRecord:
    """The record, declared types checked; any fault an InvalidRecord naming its path. A
    format_version this checker does not read is refused as such before anything else, so a
    newer record's new fields are not mistaken for mistakes."""
    if not isinstance(data, Mapping):
        raise InvalidRecord("a record is a JSON object", "")
    if data.get("format") != FORMAT:
        raise InvalidRecord(f"a match record says \"format\": \"{FORMAT}\", not "
                            f"{shown(data.get('format'))}", "format")
    version = data.get("format_version")
    if type(version) is not int or version < 1:
        raise InvalidRecord("format_version is a positive integer", "format_version")
    if version > FORMAT_VERSION:
        raise InvalidRecord(f"this checker reads match records up to format_version "
                            f"{FORMAT_VERSION}, not {version}: check it with a newer Card Referee",
                            "format_version", code="record_version_unsupported")
    try:
        record = msgspec.convert(data, MatchRecord)
    except msgspec.ValidationError as err:
        text = str(err)
        found = _MSGSPEC_PATH.search(text)
        path = found.group(1).lstrip(".") if found else ""
        raise InvalidRecord(text[:found.start()] if found else text, path) from None
    if not record.deals:
        raise InvalidRecord("a record has at least one deal", "deals")
    _check_tags(record)
    for k, entry in enumerate(record.deals):
        d = entry.deal
        if d.seed_commitment is not None and d.seed is None:
            raise InvalidRecord("a commitment is checked against its revealed seed: give the "
                                "seed (and seed_salt)", f"deals[{k}].deal.seed")
        if d.seed is None and d.deck is None and d.hands is None:
            raise InvalidRecord("a recorded deal says how it was dealt: seed, deck or hands",
                                f"deals[{k}].deal")
    return record


def _check_tags(record: MatchRecord) -> None:
    tags = record.tags
    for name in ("event", "site", "referee", "engine"):
        if name in tags and not isinstance(tags[name], str):
            raise InvalidRecord(f"the tag {name} is text", f"tags.{name}")
    for name in ("round", "table"):
        if name in tags and (isinstance(tags[name], bool) or
                             not isinstance(tags[name], (str, int))):
            raise InvalidRecord(f"the tag {name} is text or a number", f"tags.{name}")
    if "date" in tags:
        date = tags["date"]
        try:
            if not (isinstance(date, str) and _DATE.match(date)):
                raise ValueError
            datetime.date.fromisoformat(date)
        except ValueError:
            raise InvalidRecord("the tag date is a date, YYYY-MM-DD", "tags.date") from None
    if "names" in tags:
        names = tags["names"]
        if not isinstance(names, dict):
            raise InvalidRecord("the tag names maps seats to names", "tags.names")
        seats = set(record.players)  # a set: a list scan per name was quadratic
        for seat, name in names.items():
            if seat not in seats:
                raise InvalidRecord(f"{shown(seat)} is not one of the record's players",
                                    f"tags.names.{seat}")
            if not isinstance(name, str):
                raise InvalidRecord("a name is text", f"tags.names.{seat}")


def record_size(data: Any) -> tuple[int, int]:
    """(deals, actions) of a record as posted, counted before anything is checked (the
    service's bounds); what is not a list counts as empty."""
    deals = data.get("deals") if isinstance(data, Mapping) else None
    if not isinstance(deals, list):
        return 0, 0
    actions = sum(len(d["actions"]) for d in deals
                  if isinstance(d, Mapping) and isinstance(d.get("actions"), list))
    return len(deals), actions


# ---------------------------------------------------------------- the referee's acts in a record

def referee_acts(data: Any) -> list[str]:
    """The paths of the referee's acts a record holds, in record order: what the service asks
    the referee key for when states are signed or sealed (docs/security.md), as a record
    writes it down. They are
    - `match`: match values the first deal starts from (a match entered part-way): a deal
      with match values the service did not sign is the referee's;
    - `deals[k].deal`: a deal from the cards (`deck`, `hands` or `table`), or, past the first
      deal, one naming a `dealer` (the match carried from the previous deal names its dealer);
    - `deals[k].actions[i]`: an action of a type its game declares referee-only
      (`Game.referee_actions`: the ledger's warning, penalty and withdraw in every game, and
      the game's own, e.g. Man's chombo).
    A seed is not among them: a record reveals every deal's seed, whoever drew it. Read from
    the record as given (no replay); what is not well formed is skipped (the record's check
    words it), and a game this engine does not know has no referee-only actions."""
    if not isinstance(data, dict):  # JSON's objects (typing's Mapping checks cost µs each)
        return []
    gid = data.get("game")
    game = registry.get(gid) if isinstance(gid, str) else None
    referee_only = game.referee_actions if game is not None else frozenset()
    out = ["match"] if data.get("match") is not None else []
    deals = data.get("deals")
    for k, entry in enumerate(deals if isinstance(deals, list) else ()):
        if not isinstance(entry, dict):
            continue
        dealt = entry.get("deal")
        if isinstance(dealt, dict) and (
                any(dealt.get(f) is not None for f in ("deck", "hands", "table")) or
                (k > 0 and dealt.get("dealer") is not None)):
            out.append(f"deals[{k}].deal")
        actions = entry.get("actions")
        for i, recorded in enumerate(actions if isinstance(actions, list) else ()):
            action = recorded.get("action") if isinstance(recorded, dict) else None
            kind = action.get("type") if isinstance(action, dict) else None
            if isinstance(kind, str) and kind in referee_only:
                out.append(f"deals[{k}].actions[{i}]")
    return out


def appended_referee_acts(end: RecordEnd, parts: Any) -> list[str]:
    """The paths, in the append `parts` (`append`'s), of the referee's acts it adds to the
    record `end` ends: every act in it is new, the stored record holding none of its entries.
    The same acts `referee_acts` finds in the whole new record: the last deal's appended
    actions (`actions[i]`) and each new deal's dealing and actions (`deals[k].deal`,
    `deals[k].actions[i]`; a new deal is past the record's first, so naming a dealer is an
    act). What is not well formed is skipped, as there."""
    if not isinstance(parts, dict):
        return []
    # the whole record's view of the appended entries: its header (the game), the last deal
    # without its dealing (stored already), then the new deals
    new = parts.get("deals")
    new = list(new) if isinstance(new, list) else []
    # (a record ended before its first deal: its first new deal is the record's first)
    last = [{"actions": parts.get("actions")}] if end.deals else []
    mini = {"game": end.header.get("game"), "deals": [*last, *new]}
    out = []
    for path in referee_acts(mini):
        found = _ACT_PATH.match(path)
        if found is None:
            continue
        k = int(found.group(1)) - len(last)
        out.append(found.group(2) if k < 0 else f"deals[{k}].{found.group(2)}")
    return out


_ACT_PATH = re.compile(r"^deals\[(\d+)\]\.(deal|actions\[(\d+)\])$")


def referee_act_at(data: Mapping[str, Any], path: str) -> Any:
    """What the referee's act at `path` (one of `referee_acts`) says: the match values, the
    deal's `deal` object or the action's `action` object (its comment and written score
    deltas are not the act)."""
    if path == "match":
        return data.get("match")
    found = _ACT_PATH.match(path)
    if found is None:
        raise ValueError(f"not a referee act's path: {path}")
    entry = data["deals"][int(found.group(1))]
    if found.group(3) is None:
        return entry["deal"]
    return entry["actions"][int(found.group(3))]["action"]


def new_referee_acts(data: Any, held: Any = None) -> list[str]:
    """The paths of the referee's acts of record `data` that record `held` (the one stored
    before it, None: none) does not hold: an act is held when `held` has the same act at the
    same path (the same match values, the same deal, the same action, compared as canonical
    JSON). So a record sent again one action longer holds no new act but what that action
    is, while an act moved, changed or added anywhere is new."""
    acts = referee_acts(data)
    if not acts or not isinstance(held, dict):
        return acts
    known = set(referee_acts(held))

    def same(path: str) -> bool:
        return path in known and _same_json(referee_act_at(data, path), referee_act_at(held, path))
    return [p for p in acts if not same(p)]


def _same_json(a: Any, b: Any) -> bool:
    """Whether two acts are the same act: the same JSON, a key given as null the same as one
    left out (`"seed": null` beside a deal's hands says what its absence says)."""
    try:
        return bool(orjson.dumps(_given(a), option=orjson.OPT_SORT_KEYS) ==
                    orjson.dumps(_given(b), option=orjson.OPT_SORT_KEYS))
    except (orjson.JSONEncodeError, TypeError):
        return False  # not JSON orjson writes (a record's check refuses it): never held


def _given(value: Any) -> Any:
    return {k: v for k, v in value.items() if v is not None} if isinstance(value, dict) \
        else value


# ---------------------------------------------------------------- checking

_MESSAGES = {
    "commitment_mismatch": ("The revealed seed and salt do not make the commitment published "
                            "before play.",
                            "公開されたシードとソルトが、対局前に公開されたコミットメントと一致しません。"),
    "deal_invalid": ("The engine refuses this deal: {detail}",
                     "この配札はエンジンに受け付けられません: {detail}"),
    "action_invalid": ("This action is not well formed for the game: {detail}",
                       "このアクションはゲームの形式に合いません: {detail}"),
    "score_differs": ("The score deltas written for this action differ from the engine's.",
                      "このアクションに記録された得点の増減がエンジンの計算と異なります。"),
    "result_differs": ("The deal's recorded result differs from the engine's.",
                       "この局の記録された結果がエンジンの結果と異なります。"),
    "totals_differ": ("The record's totals differ from the sum of its deals.",
                      "記録の合計が各局の合計と異なります。"),
    "match_over": ("The match was over after the previous deal; the record goes on.",
                   "前の局で試合は終わっていますが、記録が続いています。"),
    "deal_unfinished": ("This deal is not finished, yet the record goes on to another deal.",
                        "この局は終わっていないのに、記録が次の局に進んでいます。"),
    "digest_mismatch": ("The digest the record carries is not its digest: the record was "
                        "changed after it was made.",
                        "記録が持つダイジェストが記録のダイジェストと一致しません(作成後に変更されています)。"),
}


# Every discrepancy's code (the spec publishes them): the rules refuse an action, and the others.
DISCREPANCY_CODES = ("action_refused", *_MESSAGES)


def _discrepancy(code: str, lang: str, deal: int | None, step: int | None,
                 recorded: Any = None, engine: Any = None, detail: str = "",
                 refusal: Refusal | None = None) -> dict[str, Any]:
    if refusal is not None:
        message = refusal.message(lang)
    else:
        en, ja = _MESSAGES[code]
        message = (ja if lang == "ja" else en).format(detail=detail)
    out: dict[str, Any] = {"deal": deal, "step": step, "code": code, "message": message}
    if refusal is not None:
        if refusal.rule:
            out["rule"] = refusal.rule
        out["refusal"] = refusal.to_json(lang)
    out["recorded"] = recorded
    out["engine"] = engine
    return out


def _nonzero(totals: Mapping[str, int]) -> dict[str, int]:
    """Totals as compared: a target whose deltas sum to zero may be written or left out."""
    return {k: v for k, v in totals.items() if v != 0}


def _delta_key(d: Mapping[str, Any]) -> tuple[Any, ...]:
    return d["target"], d["kind"], d["delta"]


def _compared(deltas: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [{"target": d["target"], "kind": d["kind"], "delta": d["delta"]} for d in deltas]


def _deal_request(record: MatchRecord, entry: DealEntry, match: Any) -> dict[str, Any]:
    d = entry.deal
    return {"game_id": record.game, "players": record.players, "options": record.options,
            "seed": PHYSICAL_SEED if d.seed is None else d.seed, "seed_salt": d.seed_salt,
            "dealer": d.dealer, "match": match, "deck": d.deck, "hands": d.hands,
            "table": d.table}


def _check_header(record: MatchRecord) -> Game[Any]:
    """The header's faults are the record's (422), not a deal's: game, seats, options, match."""
    game = registry.get(record.game)
    if game is None:
        raise InvalidRecord(f"unknown game {shown(record.game)}", "game", code="game_unknown")
    try:
        adjudicate.check_players(game, record.players)
    except InvalidDeal as err:
        raise InvalidRecord(err.message, err.path) from None
    game.resolve_options(record.options)  # InvalidOptions names the option (422)
    if record.match is not None:
        try:
            parse_fields(game.match.fields if game.match else {}, record.match, "match")
        except FieldError as err:
            raise InvalidRecord(err.message, err.path) from None
    return game


def check_record(data: Any, *, keep_steps: bool = False, lang: str = "en") -> dict[str, Any]:
    """Replay a whole record and answer its report (docs/records.md "Checking"): every deal's
    status, action count, totals and next_match, the match totals, the digest and the first
    discrepancy (None when the record is consistent). `keep_steps`: each deal also lists its
    steps as /v1/replay answers them (plus the action's recorded `comment`). A record that is not
    well formed raises InvalidRecord (or the engine's InvalidOptions) naming its path."""
    return replay_record(data, keep_steps=keep_steps, lang=lang)[0]


def replay_record(data: Any, *, keep_steps: bool = False, lang: str = "en"
                  ) -> tuple[dict[str, Any], Any]:
    """check_record's report, and the state the replay ended in (None when no deal could be
    dealt): what the match's `Game.standings` reads (an event's standings,
    engine/events/standings.py)."""
    report, state, _ = _replay(data, keep_steps, lang, None)
    return report, state


@dataclass(frozen=True)
class Checkpoint:
    """Where a replay stood after the first `actions` actions of deal `deal`: the deals before
    it summarised, this deal's summary so far, the state its last action left. `key` names the
    exact prefix it replayed (`prefix_keys`): the header, every earlier deal whole (how it was
    dealt, its actions, its written result) and this deal's dealing and first actions.
    Immutable, and a game's states are too: one checkpoint resumes any number of replays."""

    key: bytes
    deal: int
    actions: int
    deals: tuple[dict[str, Any], ...]
    summary: dict[str, Any]
    state: Any
    players: tuple[str, ...]


def replay_from(data: Any, known: Mapping[bytes, Checkpoint], lang: str = "en"
                ) -> tuple[dict[str, Any], Any, Checkpoint | None]:
    """replay_record's report and state, replaying only what follows the longest prefix of
    this record that a checkpoint of `known` replayed (a match pushed again after each action
    replays one action); and the checkpoint at this record's end (None when its replay stopped
    at a discrepancy in play or a deal that could not be dealt). A prefix is recognised by
    its content only (`prefix_keys`): any change to an earlier deal, action, result or the
    header is another prefix, and the record is replayed from the last one that agrees. The
    report is what replay_record answers for the same record."""
    return _replay(data, False, lang, known)


def _chain(key: bytes, tag: bytes, part: Any) -> bytes:
    return hashlib.sha256(key + tag + orjson.dumps(part)).digest()


def prefix_keys(canonical: Mapping[str, Any]) -> dict[tuple[int, int], bytes]:
    """The key of every prefix of a record (in canonical form, `_canonical`) a replay can stop
    at: (deal, actions) → a SHA-256 chained over the header, each deal's dealing, each action
    entry and — once past it — each deal's written result, so two records share a key exactly
    when they agree up to that point."""
    header = {k: v for k, v in canonical.items() if k not in ("deals", "totals", "digest")}
    key = _chain(b"", b"card-referee record prefix v1\x00", header)
    out: dict[tuple[int, int], bytes] = {}
    deals = canonical.get("deals")
    for k, entry in enumerate(deals if isinstance(deals, list) else []):
        if not isinstance(entry, Mapping):
            break
        key = _chain(key, b"D", entry.get("deal"))
        out[k, 0] = key
        actions = entry.get("actions")
        for i, action in enumerate(actions if isinstance(actions, list) else []):
            key = _chain(key, b"A", action)
            out[k, i + 1] = key
        key = _chain(key, b"R", entry.get("result"))
    return out


def _replay(data: Any, keep_steps: bool, lang: str, known: Mapping[bytes, Checkpoint] | None
            ) -> tuple[dict[str, Any], Any, Checkpoint | None]:
    check_bounds(data)  # counts and lengths first: nothing below walks more than they allow
    if not isinstance(data, Mapping):
        raise InvalidRecord("a record is a JSON object", "")
    canonical = canonical_form(data)
    record_digest = DIGEST_PREFIX + hashlib.sha256(orjson.dumps(canonical)).hexdigest()
    record = parse_record(data)
    game = _check_header(record)
    gid = game.id
    keys = prefix_keys(canonical) if known is not None else {}
    resume: Checkpoint | None = None
    if known:
        for where in sorted(keys, reverse=True):
            hit = known.get(keys[where])
            if hit is not None and (hit.deal, hit.actions) == where:
                resume = hit
                break
    deals: list[dict[str, Any]] = [dict(d, totals=dict(d["totals"]))
                                   for d in resume.deals] if resume else []
    first = resume.deal if resume else 0
    started = (resume.state, dict(resume.summary, totals=dict(resume.summary["totals"])),
               resume.actions, list(resume.players)) if resume else None
    totals, discrepancy, last_state, in_play, match_finished = _replay_deals(
        game, record, record.deals[first:], first, len(record.deals), deals, record.match,
        resume.state if resume else None, started, keep_steps, lang)

    checkpoint = None
    if known is not None and in_play and deals and len(deals) == len(record.deals):
        last = len(deals) - 1
        at = (last, deals[-1]["actions"])
        if at in keys:
            # copies: the report handed out is the caller's to change
            so_far = {**deals[-1], "totals": dict(deals[-1]["totals"]),
                      "next_match": None}  # made again when the deal ends
            earlier = tuple(dict(d, totals=dict(d["totals"])) for d in deals[:-1])
            checkpoint = Checkpoint(keys[at], last, deals[-1]["actions"], earlier, so_far,
                                    last_state, tuple(last_state.players))
    carried = record.digest
    digest_matches = None if carried is None else carried.strip().lower() == record_digest
    if discrepancy is None and digest_matches is False:
        discrepancy = _discrepancy("digest_mismatch", lang, None, None, recorded=carried,
                                   engine=record_digest)
    return {"consistent": discrepancy is None, "digest": record_digest,
            "digest_matches": digest_matches, "game": gid, "format_version": record.format_version,
            "deals": deals, "totals": totals, "match_finished": match_finished,
            "discrepancy": discrepancy}, last_state, checkpoint


def _replay_deals(game: Game[Any], record: MatchRecord, entries: Sequence[DealEntry],
                  first: int, count: int, deals: list[dict[str, Any]], match: Any,
                  last_state: Any, started: tuple[Any, dict[str, Any], int, list[str]] | None,
                  keep_steps: bool, lang: str
                  ) -> tuple[dict[str, int], dict[str, Any] | None, Any, bool, bool]:
    """Deals `first`, `first` + 1, … of a record of `count` deals replayed in order (`entries`:
    theirs), after `deals` (the summaries of those before, appended to in place), the first
    resumed from `started` when given (a checkpoint), else dealt from `match` (the record's
    starting match values) or the deal before's next match. (the match totals so far, the first
    discrepancy or None, the state the replay ended in, whether every action of every deal
    dealt was applied, whether the match finished). Shared by a whole replay and an append's."""
    totals: dict[str, int] = {}
    for done in deals:
        for target, value in done["totals"].items():
            totals[target] = totals.get(target, 0) + value
    discrepancy: dict[str, Any] | None = None
    match_finished = False
    in_play = True  # the replay went through every action of every deal dealt
    for j, entry in enumerate(entries):
        k = first + j
        begun = started if j == 0 else None
        if begun is None and k > 0:
            previous = deals[-1]
            if previous["status"] != FINISHED:
                discrepancy = _discrepancy("deal_unfinished", lang, k - 1, None,
                                           recorded={"deals": count},
                                           engine={"status": previous["status"]})
                break
            if previous["match_over"]:
                discrepancy = _discrepancy("match_over", lang, k, None,
                                           recorded={"deals": count}, engine={"deals": k})
                break
            match = previous["next_match"]
        found, summary, state, played = _check_deal(game, record, entry, k, match, keep_steps,
                                                    lang, begun)
        in_play = played
        if state is not None:
            last_state = state
        if summary is not None:
            deals.append(summary)
            for target, value in summary["totals"].items():
                totals[target] = totals.get(target, 0) + value
        if found is not None:
            discrepancy = found
            break
    else:
        match_finished = deals[-1]["match_over"]
        if record.totals is not None and _nonzero(record.totals) != _nonzero(totals):
            discrepancy = _discrepancy("totals_differ", lang, None, None,
                                       recorded=record.totals, engine=totals)
    return totals, discrepancy, last_state, in_play, match_finished


def _check_deal(game: Game[Any], record: MatchRecord, entry: DealEntry, k: int, match: Any,
                keep_steps: bool, lang: str,
                started: tuple[Any, dict[str, Any], int, list[str]] | None = None
                ) -> tuple[dict[str, Any] | None, dict[str, Any] | None, Any, bool]:
    """(the deal's discrepancy or None, its summary or None when it could not be dealt, the
    state its replay ended in or None, whether every action was applied). `started`: the
    state, summary, action count and seats a checkpoint resumes the deal from (replay_from)."""
    d = entry.deal
    if started is not None:
        state, summary, first, players = started
    else:
        commitment = None if d.seed is None else rng.commitment(d.seed, d.seed_salt or None)
        if d.seed_commitment is not None and d.seed_commitment.strip().lower() != commitment:
            return _discrepancy("commitment_mismatch", lang, k, None,
                                recorded=d.seed_commitment, engine=commitment), None, None, False
        try:
            dealt = adjudicate.deal(**_deal_request(record, entry, match))
        except InvalidOptions:
            raise  # the record's options: checked in its header, refused there
        except InputError as err:  # InvalidDeal, or a game's own code for what it cannot deal
            where = f" ({err.path})" if err.path else ""
            return _discrepancy("deal_invalid", lang, k, None, recorded=msgspec.to_builtins(d),
                                detail=err.message + where), None, None, False
        state_json = dealt["state"]
        _, state = adjudicate.load_state(state_json)
        players = state_json["players"]
        summary = {
            "index": k, "seed_commitment": commitment,
            "commitment_checked": d.seed_commitment is not None,
            "status": dealt["status"], "actions": 0, "totals": {}, "next_match": None,
            "match_over": False}
        first = 0
    deal_totals: dict[str, int] = summary["totals"]
    steps: list[dict[str, Any]] = []
    if keep_steps:
        summary["steps"] = steps
    gid = game.id
    for i, recorded in enumerate(entry.actions[first:], first):
        try:
            action = game.parse_action(recorded.action, players)
        except InputError as err:  # InvalidAction, or a game's own code (Manteur's declarations)
            path = f"action{err.path[len('action'):]}" if err.path.startswith("action") else err.path
            return _discrepancy("action_invalid", lang, k, i, recorded=recorded.action,
                                detail=f"{err.message} ({path})"), summary, state, False
        try:
            tr, _ = adjudicate.apply_parsed(game, state, action)
        except Refusal as refusal:
            return _discrepancy("action_refused", lang, k, i, recorded=recorded.action,
                                refusal=refusal), summary, state, False
        state = tr.state
        deltas = [dl.to_json(gid) for dl in tr.score_deltas]
        if any(e.type == MATCH_FINISHED for e in tr.events):
            summary["match_over"] = True
        if recorded.score_deltas is not None:
            written = [msgspec.to_builtins(dl) for dl in recorded.score_deltas]
            if Counter(map(_delta_key, written)) != Counter(map(_delta_key, deltas)):
                return _discrepancy("score_differs", lang, k, i, recorded=_compared(written),
                                    engine=_compared(deltas)), summary, state, False
        for dl in deltas:
            deal_totals[dl["target"]] = deal_totals.get(dl["target"], 0) + dl["delta"]
        summary["actions"] = i + 1
        summary["status"] = game.status(state)
        if keep_steps:
            step = {"index": i, "game": gid, "action": action.to_json(gid),
                    "score_deltas": deltas, "events": referee.events_json(game, tr.state, tr.events),
                    "to_act": game.to_act(state), "status": summary["status"]}
            if recorded.comment is not None:
                step["comment"] = recorded.comment
            steps.append(step)
    if summary["status"] == FINISHED:
        # as a client holds it: JSON (a game's summary may hold tuples the deal reads as lists)
        summary["next_match"] = orjson.loads(orjson.dumps(referee.match_summary(game, state)))
        if summary["next_match"] is None:
            summary["match_over"] = True
    result = entry.result
    if result is not None:
        differs = (result.status is not None and result.status != summary["status"]) or \
                  (result.totals is not None and _nonzero(result.totals) != _nonzero(deal_totals))
        if differs:
            return _discrepancy("result_differs", lang, k, None,
                                recorded=msgspec.to_builtins(result),
                                engine={"status": summary["status"], "totals": deal_totals}
                                ), summary, state, True
    return None, summary, state, True


# ---------------------------------------------------------------- verifying a deal

def verify_deal(game_id: str, players: Sequence[str], options: Mapping[str, Any] | None,
                seed: str, seed_salt: str | None, seed_commitment: str,
                match: Mapping[str, Any] | None = None, dealer: str | None = None) -> dict[str, Any]:
    """Whether a revealed seed (and salt) make the commitment published before play, and the
    deal that seed makes: each seat's hand and what the deal shows face up (the state's public
    part as a spectator sees it). Salt None or "": a deal made before commitments were salted
    (the bare SHA-256 of the seed)."""
    if seed_salt and not rng.valid_salt(seed_salt):
        raise InvalidDeal("a seed salt is 32 lowercase hex digits (128 bits)", "seed_salt")
    made = rng.commitment(seed, seed_salt or None)
    dealt = adjudicate.deal(game_id, players, options, seed=seed, dealer=dealer, match=match,
                            seed_salt=seed_salt or None)
    game = adjudicate.game_by_id(game_id)
    state = game.decode(dealt["state"])
    # Each seat's dealt cards, from the referee's view of the deal (everything): a seat's own
    # view may hide its own hand for a while (Manillen A8: the dealer's partner sees nothing
    # until trumps are named, A11: the blind dealer), and the seed reveals them anyway.
    everything = referee.view(game, state)
    return {"matches": made == seed_commitment.strip().lower(), "seed_commitment": made,
            "hands": {p: _dealt_hand(everything, game, state, p)
                      for p in dealt["state"]["players"]},
            "face_up": adjudicate.seen(game, state, None), "to_act": dealt["to_act"]}


def _dealt_hand(everything: Mapping[str, Any], game: Game[Any], state: Any, seat: str) -> list[str]:
    """The seat's dealt cards: its entry of every seat's `hands` in the referee's view, or for a
    game that deals one hand at a time (Manteur's `hand`) what the seat's own view holds."""
    hands = everything.get("hands")
    if isinstance(hands, Mapping):
        return list(hands.get(seat) or [])
    own = _own_hand(game.view(state, seat), seat)
    whole = everything.get("hand")
    if own and isinstance(whole, list) and sorted(whole) == sorted(own):
        return list(whole)  # in deal order (a view sorts its hand for display)
    return own


def _own_hand(view: Mapping[str, Any], seat: str) -> list[str]:
    """The seat's own cards in its view: `hand` (a game that shows a viewer only their own) or
    the viewer's entry of `hands`; a seat dealt nothing (yet) holds []."""
    if "hand" in view:
        return list(view["hand"] or [])
    hands = view.get("hands")
    return list((hands or {}).get(seat) or []) if isinstance(hands, Mapping) else []


# ---------------------------------------------------------------- appending to a record
#
# A table pushes its record after every action; the record's end (`RecordEnd`) lets the next
# push send only what is new (`append`): its replay resumes from the end's checkpoint, its
# prefix key and digest are chained on from the end's, so an append costs what it adds, not
# the record's length. A record's canonical serialization (what its digest hashes) begins with
# its deals — `{"deals":[{"actions":[…],"deal":{…},"result":{…}},…],"format":…` — so the hash
# of everything up to the last deal's last action is a prefix of every longer record's.

_DEALS_OPEN = b'{"deals":['
_ENTRY_OPEN = b'{"actions":['
APPEND_PARTS = ("actions", "result", "deals", "totals", "digest")


@dataclass(frozen=True)
class RecordEnd:
    """Where a consistent record ends, all an append needs of it: `key`, the prefix key of the
    whole record (prefix_keys' chain through its last action, then its last deal's written
    result when it has one: what an append names as its base); the replay's checkpoint at its
    last action; its header, last dealing and last deal's result in canonical form; its size;
    and `hashed`, the SHA-256 of its canonical serialization up to its last action (copied,
    never updated in place)."""

    key: bytes
    checkpoint: Checkpoint
    header: dict[str, Any]
    dealing: Any
    result: Any
    deals: int
    actions: int
    hashed: Any

    def position(self) -> dict[str, Any]:
        """The end as an answer names it: its key (hex), deals, the last deal's actions and
        whether that deal's result is written."""
        return {"key": self.key.hex(), "deals": self.deals,
                "actions": self.checkpoint.actions, "result": self.result is not None}


def _sha(key: bytes, tag: bytes, written: bytes) -> bytes:
    return hashlib.sha256(key + tag + written).digest()  # _chain of a part already written


def _closed(dealing: Any, result: Any) -> bytes:
    """The canonical bytes that close a deal entry after its last action."""
    out = b'],"deal":' + orjson.dumps(dealing)
    if result is not None:
        out += b',"result":' + orjson.dumps(result)
    return out + b"}"


def record_end(data: Mapping[str, Any], checkpoint: Checkpoint | None) -> RecordEnd | None:
    """The end of a record that replayed consistently, its replay's `checkpoint` at its end
    (replay_from's); None when no append can follow it (no checkpoint, or a last deal written
    without its `actions` or with a `result` of null: forms an append's bytes cannot extend)."""
    if checkpoint is None:
        return None
    body = canonical_form(data)
    deals = body["deals"]
    last = deals[-1]
    if "actions" not in last or ("result" in last and last["result"] is None) or \
            (checkpoint.deal, checkpoint.actions) != (len(deals) - 1, len(last["actions"])):
        return None
    hashed = hashlib.sha256(_DEALS_OPEN)
    for entry in deals[:-1]:
        hashed.update(orjson.dumps(entry) + b",")
    hashed.update(_ENTRY_OPEN + b",".join(map(orjson.dumps, last["actions"])))
    result = last.get("result")
    key = checkpoint.key if result is None else _chain(checkpoint.key, b"R", result)
    return RecordEnd(key, checkpoint, {k: v for k, v in body.items()
                                       if k not in ("deals", "totals")},
                     last["deal"], result, len(deals),
                     sum(len(d.get("actions") or ()) for d in deals), hashed)


def append_size(end: RecordEnd, parts: Mapping[str, Any]) -> tuple[int, int]:
    """(deals, actions) of the record `parts` make of `end`'s, counted before anything is
    checked (the service's bounds), as record_size counts."""
    deals: list[Any] = parts["deals"] if isinstance(parts.get("deals"), list) else []
    actions: list[Any] = parts["actions"] if isinstance(parts.get("actions"), list) else []
    added = len(actions) + sum(len(d["actions"]) for d in deals
                               if isinstance(d, Mapping) and isinstance(d.get("actions"), list))
    return end.deals + len(deals), end.actions + added


_MINI_PATH = re.compile(r"^deals\[(\d+)\]")


def _append_path(path: str) -> str:
    """A path in the record `append` checks (its last deal's new part first) as the append
    names it: `deals[0].actions[2]` is `actions[2]`, `deals[3]` is `deals[2]`."""
    found = _MINI_PATH.match(path)
    if found is None:
        return path
    k = int(found.group(1))
    rest = path[found.end():]
    return rest.lstrip(".") if k == 0 else f"deals[{k - 1}]{rest}"


@dataclass(frozen=True)
class Appended:
    """An append checked: the report replay_record would answer for the whole new record
    (its `digest` the new record's), the state its replay ended in, the new end (None when the
    replay stopped at a discrepancy) and the part to store, in canonical form."""

    report: dict[str, Any]
    state: Any
    end: RecordEnd | None
    part: dict[str, Any]


def _check_append_shape(parts: Any) -> None:
    """An append's own shape (what a record's parse cannot see of it): its parts and lists,
    each new deal with its actions; InvalidRecord at the path in the append otherwise."""
    if not isinstance(parts, Mapping):
        raise InvalidRecord("an append is a JSON object", "")
    unknown = sorted(set(parts) - set(APPEND_PARTS) - {"base"})
    if unknown:
        raise InvalidRecord("an append names its base and carries actions, result, deals, "
                            "totals and digest only", unknown[0])
    for name in ("actions", "deals"):
        if parts.get(name) is not None and not isinstance(parts[name], list):
            raise InvalidRecord("a list", name)
    for k, entry in enumerate(parts.get("deals") or []):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("actions"), list):
            raise InvalidRecord("an appended deal lists its actions ([]: none yet)",
                                f"deals[{k}].actions")
        if "result" in entry and entry["result"] is None:
            raise InvalidRecord("a deal's result is an object, or left out", f"deals[{k}].result")


def _chained_on(key: bytes, hashed: Any, in_deal: int, written: list[dict[str, Any]]
                ) -> tuple[bytes, Any]:
    """The new record's prefix key and the hash of its canonical bytes up to its last action,
    chained on from a record's end (its key, its hash and its last deal's actions so far)
    over the appended deals as written (`written[0]`: the last deal's appended actions)."""
    for j, entry in enumerate(written):
        if j > 0:
            before = written[j - 1]
            hashed.update(_closed(before["deal"], before.get("result")) + b"," + _ENTRY_OPEN)
            key = _sha(_chain(key, b"R", before.get("result")), b"D",
                       orjson.dumps(entry["deal"]))
            in_deal = 0
        for action in entry["actions"]:
            written_action = orjson.dumps(action)
            hashed.update(b"," + written_action if in_deal else written_action)
            key = _sha(key, b"A", written_action)
            in_deal += 1
    return key, hashed


def append(end: RecordEnd, parts: Mapping[str, Any], lang: str = "en") -> Appended:
    """The record `end` ends, extended by `parts`: `actions`, more actions of its last deal;
    `result`, that deal's written result (replacing it); `deals`, new deals (each with its
    `actions`); `totals` and `digest`, the new record's (left out: it has none). Replayed
    from the end's checkpoint; what is not well formed raises InvalidRecord naming its path in
    `parts`. The report is replay_record's for the new record."""
    _check_append_shape(parts)
    result = parts.get("result")
    if result is None:
        result = end.result
    last: dict[str, Any] = {"actions": list(parts.get("actions") or []), "deal": end.dealing}
    if result is not None:
        last["result"] = result
    mini: dict[str, Any] = {**end.header, "deals": [last, *(parts.get("deals") or [])]}
    for name in ("totals", "digest"):
        if parts.get(name) is not None:
            mini[name] = parts[name]
    try:
        # only what the append adds is put in canonical form: the header is the end's,
        # canonical already (record_end), and the keys are sorted as _canonical sorts them
        added = _canonical({k: v for k, v in mini.items() if k in ("deals", "totals")})
        merged = {**end.header, **added}
        canonical = {k: merged[k] for k in sorted(merged)}  # the header's keys: ASCII names
        record = parse_record(mini)
    except InvalidRecord as err:
        err.path = _append_path(err.path)
        raise
    game = registry.get(record.game)
    assert game is not None, "a stored record's game (checked when it was stored whole)"
    cp = end.checkpoint
    entries = list(record.deals)
    entries[0] = msgspec.structs.replace(entries[0], actions=[None] * cp.actions
                                         + entries[0].actions)
    count = cp.deal + len(entries)
    deals: list[dict[str, Any]] = [dict(d, totals=dict(d["totals"])) for d in cp.deals]
    started = (cp.state, dict(cp.summary, totals=dict(cp.summary["totals"])), cp.actions,
               list(cp.players))
    totals, discrepancy, last_state, in_play, match_finished = _replay_deals(
        game, record, entries, cp.deal, count, deals, None, cp.state, started, False, lang)
    written = canonical["deals"]
    key, hashed = _chained_on(cp.key, end.hashed.copy(), cp.actions, written)
    at_actions = hashed.copy()
    tail = written[-1]
    finished = {k: v for k, v in canonical.items() if k != "deals"}
    hashed.update(_closed(tail["deal"], tail.get("result")) + b"],"
                  + orjson.dumps(finished)[1:])
    record_digest = DIGEST_PREFIX + hashed.hexdigest()
    carried = record.digest
    digest_matches = None if carried is None else carried.strip().lower() == record_digest
    if discrepancy is None and digest_matches is False:
        discrepancy = _discrepancy("digest_mismatch", lang, None, None, recorded=carried,
                                   engine=record_digest)
    new_end = None
    if in_play and discrepancy is None and len(deals) == count:
        so_far = {**deals[-1], "totals": dict(deals[-1]["totals"]), "next_match": None}
        earlier = tuple(dict(d, totals=dict(d["totals"])) for d in deals[:-1])
        checkpoint = Checkpoint(key, count - 1, deals[-1]["actions"], earlier, so_far,
                                last_state, tuple(last_state.players))
        tail_result = tail.get("result")
        new_end = RecordEnd(key if tail_result is None else _chain(key, b"R", tail_result),
                            checkpoint, end.header, tail["deal"], tail_result, count,
                            append_size(end, parts)[1], at_actions)
    part: dict[str, Any] = {"actions": written[0]["actions"], "deals": written[1:],
                            "totals": canonical.get("totals"), "digest": carried}
    if parts.get("result") is not None:
        part["result"] = written[0]["result"]
    report = {"consistent": discrepancy is None, "digest": record_digest,
              "digest_matches": digest_matches, "game": game.id,
              "format_version": record.format_version, "deals": deals, "totals": totals,
              "match_finished": match_finished, "discrepancy": discrepancy}
    return Appended(report, last_state, new_end, part)


def appended(record: dict[str, Any], part: Mapping[str, Any]) -> dict[str, Any]:
    """`record` (changed in place) with a stored append's `part` put in: what the record is
    after that append, as if it had been written whole."""
    deals = record["deals"]
    last = deals[-1]
    last["actions"] = [*last.get("actions", []), *part.get("actions", [])]
    if part.get("result") is not None:
        last["result"] = part["result"]
    deals.extend(part.get("deals") or [])
    for name in ("totals", "digest"):
        record.pop(name, None)
        if part.get(name) is not None:
            record[name] = part[name]
    return record
