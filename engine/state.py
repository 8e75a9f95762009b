"""Game states declared once, as msgspec Structs.

A game declares its JSON state as a `GameState` subclass. From that one declaration come:
- the strict decoder (`decode_state`): msgspec checks every type, range and enum at C speed and
  names the first bad field's path; the game's `invariants` function then checks what a type
  cannot say (every card exactly once, ids in range, phase consistency);
- the trusted decoder (`decode_trusted_state`): the same conversion without the invariants, for
  states whose signature proves this engine wrote them;
- the encoder (`encode_state`): JSON-native dicts and lists, so a state survives a round trip;
- the JSON schema the spec publishes (`openapi_schema`), converted to OpenAPI 3.0.

Every game's state has the same common parts in the same places: `game` (the tag), `version`,
`players` (ids in seat order), `options`, `seed`, `phase`, `status`, `match`, and last
`seed_salt`. Players are named
by their ids everywhere else too: a seat is written as its player's id, a per-player value as
an object keyed by id. Inside the engine the Struct is the state (frozen; update it with
`msgspec.structs.replace`).
"""
from __future__ import annotations

import re
from types import GenericAlias
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    Callable,
    Literal,
    Mapping,
    Optional,
    Sequence,
    TypeVar,
    Union,
    cast,
    get_args,
    get_origin,
    get_type_hints,
)

import msgspec

from .cards import deck_54
from .errors import InvalidState
from .fields import MAX_SAFE_INT, Option
from .summary import VIEW_FIELDS

__all__ = [
    "GameState", "Card", "Cards", "Int", "Count", "PlayerId", "Status", "options_struct",
    "decode_state", "decode_trusted_state", "encode_state", "openapi_schema", "replace",
    "view_of", "view_struct", "Hidden", "MAX_SAFE_INT", "LedgerEntry",
]

S = TypeVar("S", bound="GameState")

# No integer in a state leaves JSON's safe range (a value that would is refused or capped by a
# rule, never a 500).

if TYPE_CHECKING:  # a Literal built at run time: to a type checker, a card is its string
    Card = str
else:
    Card = Literal[tuple(deck_54())]  # canonical notation only: states are written by the engine
Cards = tuple[Card, ...]
Int = Annotated[int, msgspec.Meta(ge=-MAX_SAFE_INT, le=MAX_SAFE_INT)]
Count = Annotated[int, msgspec.Meta(ge=0, le=MAX_SAFE_INT)]
PlayerId = Annotated[str, msgspec.Meta(min_length=1, description="a player id")]
Status = Literal["in_progress", "finished"]

replace = msgspec.structs.replace


# The salt of the deal's seed commitment (engine/rng.py): 32 hex digits, or "" in a state
# dealt before commitments were salted (its commitment is the seed's bare SHA-256).
SeedSalt = Annotated[str, msgspec.Meta(
    pattern="^([0-9a-f]{32})?$",
    description="the salt of the deal's seed commitment, hidden like the seed and revealed "
                "with it; empty in a state dealt before commitments were salted")]


class LedgerEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One entry of the referee's ledger (engine/referee.py): a warning (0 points) or a penalty
    in the game's own unit, against a seat; withdrawn entries stay, marked, so ids never move."""

    id: Annotated[int, msgspec.Meta(ge=1, le=MAX_SAFE_INT, description="1, 2, 3 … in the match")]
    kind: Literal["warning", "penalty"]
    player: PlayerId
    points: Annotated[int, msgspec.Meta(ge=0, le=MAX_SAFE_INT)]
    reason: str = ""
    withdrawn: bool = False


def check_ledger(ledger: Any, players: Any) -> None:
    """What the declared types cannot say of a ledger: every entry about a seated player, ids
    1, 2, 3 … in order (an id is never reused, so a withdrawal names one entry for good), a
    warning of no points. Part of decoding every state (Game.decode), so here beside the entry."""
    seated = set(players)
    for i, e in enumerate(ledger):
        if e.id != i + 1:
            raise InvalidState(f"entry ids count 1, 2, 3 …: expected {i + 1}",
                               f"state.referee_ledger[{i}].id")
        if e.player not in seated:
            raise InvalidState(f"{e.player!r} is not seated in this game",
                               f"state.referee_ledger[{i}].player")
        if (e.kind == "warning") != (e.points == 0):
            raise InvalidState("a warning has 0 points, a penalty at least 1",
                               f"state.referee_ledger[{i}].points")


class _Salted(msgspec.Struct, frozen=True, kw_only=True):
    # keyword-only with a default, so it follows every game's own fields and states written
    # before it existed still decode
    seed_salt: SeedSalt = ""
    # The referee's warnings and penalties so far in the match (engine/referee.py), carried
    # from deal to deal by the match summary; the engine writes it, never a game.
    referee_ledger: tuple[LedgerEntry, ...] = ()


class GameState(_Salted, frozen=True, forbid_unknown_fields=True, tag_field="game"):
    """The common head of every game's state. A game subclasses it with `tag="<game id>"` and
    narrows `version`, `options`, `phase` and `match` to its own types. `seed_salt` is the
    engine's (adjudicate.deal sets it), after the game's fields."""

    version: int
    players: tuple[PlayerId, ...]
    options: Any
    seed: str
    phase: str
    status: Status
    match: Any


# ------------------------------------------------------------------------------ views

# A field a view always sends as null (the stock, face-down cards): declared null, so the
# view checks catch a leak; published as a nullable list of cards, since a null-only property
# is dropped from answers by some generated clients (openapi-fetch reads `null` as "absent").
Hidden = Annotated[None, msgspec.Meta(description="never shown in a view: always null",
                                      extra_json_schema={"x-hidden": True})]


def view_struct(game_id: str, name: str, fields: Sequence[tuple[str, Any]],
                doc: str = "") -> type[msgspec.Struct]:
    """A game's view, declared as a Struct tagged with the game (a view names its game, so a
    client tells the games' views apart by `game`). Views are answers, never posted back: the
    declaration is the published schema and what the tests check every view against. Every
    view also carries what the engine adds to it (engine/summary.py complete_view): `to_act`,
    `summary` and `standings`, declared here once for all games."""
    declared = {f for f, _ in fields}
    fields = list(fields) + [f for f in VIEW_FIELDS if f[0] not in declared]
    return msgspec.defstruct(name, fields, frozen=True, forbid_unknown_fields=True,
                             tag_field="game", tag=game_id,
                             namespace={"__doc__": doc} if doc else None)


def view_of(state: type[GameState], name: str, *, drop: Sequence[str] = (),
            fields: Sequence[tuple[str, Any]] = (), doc: str = "") -> type[msgspec.Struct]:
    """A view declared as its game's state seen by one seat: the state's fields but `drop`,
    each of `fields` retyping a state field in place or, if new, added at the end."""
    hints = get_type_hints(state, include_extras=True)
    retyped = dict(fields)
    out = [(f, retyped.pop(f, hints[f])) for f in state.__struct_fields__ if f not in drop]
    game_id = cast(str, state.__struct_config__.tag)  # a game's state is tagged with its id
    return view_struct(game_id, name, out + list(retyped.items()), doc)


def options_struct(name: str, options: Sequence[Option]) -> type[msgspec.Struct]:
    """The resolved options every state carries, built from the game's Option declarations
    (the one place options are declared)."""
    fields = []
    for o in options:
        f = o.field
        if f.kind == "bool":
            kind: Any = bool
        elif f.kind == "enum":
            kind = Literal[tuple(f.choices)]
        elif f.kind == "int":
            kind = Annotated[int, msgspec.Meta(
                ge=-MAX_SAFE_INT if f.minimum is None else f.minimum,
                le=MAX_SAFE_INT if f.maximum is None else f.maximum)]
        elif f.kind == "str":
            kind = str
        elif f.kind == "str_list" and f.choices:
            choice: Any = Literal[tuple(f.choices)]
            kind = GenericAlias(tuple, (choice, ...))  # tuple[choice, ...], built at run time
        else:
            raise TypeError(f"option {o.name}: no state type for field kind {f.kind!r}")
        if f.nullable:
            kind = Optional[kind]
        fields.append((o.name, Annotated[kind, msgspec.Meta(description=f.description)]
                       if f.description else kind))
    return msgspec.defstruct(name, fields, frozen=True, forbid_unknown_fields=True)


# ------------------------------------------------------------------------------ decoding

_AT = re.compile(r" - at `\$(?P<path>[^`]*)`$")
_FIELD = re.compile(r"(?:missing required|contains unknown) field `(?P<name>[^`]+)`")


_SEGMENT = re.compile(r"\.(?P<name>\w+)|\[(?P<index>\d+|\.\.\.)\]")


def _invalid(kind: type, data: Any, err: msgspec.ValidationError) -> InvalidState:
    """msgspec's message, with its `$.a.b[0]` path turned into ours (`state.a.b[0]`); a
    missing or unknown field's path names that field, and a map key msgspec writes as `[...]`
    is found again (hands.ann, not hands[...])."""
    text = str(err)
    at = _AT.search(text)
    path = at.group("path") if at else ""
    message = text[:at.start()] if at else text
    if "[...]" in path:
        path = _name_keys(kind, data, path)
    named = _FIELD.search(message)
    if named:
        path += "." + named.group("name")
    return InvalidState(message, "state" + path)


def _inner(hint: Any) -> Any:
    """The type inside Optional/Annotated."""
    while True:
        origin = get_origin(hint)
        if origin is Annotated:
            hint = get_args(hint)[0]
        elif origin is Union:
            hint = next(a for a in get_args(hint) if a is not type(None))
        else:
            return hint


def _name_keys(kind: Any, data: Any, path: str) -> str:
    """Walk `data` and its declared type along `path`; at each `[...]` (a map value) take the
    first key whose value does not convert. Runs only to word an error."""
    out, hint = "", kind
    for m in _SEGMENT.finditer(path):
        hint = _inner(hint)
        name, index = m.group("name"), m.group("index")
        try:
            if name is not None:
                hint, data = get_type_hints(hint, include_extras=True)[name], data[name]
                out += "." + name
            elif index != "...":
                hint, data = get_args(hint)[0], data[int(index)]
                out += f"[{index}]"
            else:
                hint = get_args(hint)[1]
                key = next(k for k, v in data.items() if not _converts(v, hint))
                data = data[key]
                out += f".{key}" if re.fullmatch(r"\w+", key) else f"[{key!r}]"
        except (KeyError, IndexError, TypeError, StopIteration, AttributeError):
            return out + path[m.start():]
    return out


def _converts(value: Any, hint: Any) -> bool:
    try:
        msgspec.convert(value, hint)
        return True
    except msgspec.ValidationError:
        return False


# The service may attach its signature to a state (service/signing.py); it is not game data.
SIGNATURE_KEY = "signature"


def decode_state(kind: type[S], data: Any, invariants: Callable[[S], None] | None = None) -> S:
    """A state from its JSON, fully checked: types by the declaration, the rest by the game's
    invariants (which raise InvalidState with a path)."""
    if isinstance(data, dict):
        if SIGNATURE_KEY in data:
            data = {k: v for k, v in data.items() if k != SIGNATURE_KEY}
        tag = kind.__struct_config__.tag
        if data.get("game") != tag:  # msgspec checks a tag it is given, not a missing one
            raise InvalidState(f"must be {tag!r}", "state.game")
    try:
        state = msgspec.convert(data, kind)
    except msgspec.ValidationError as err:
        raise _invalid(kind, data, err) from None
    if invariants is not None:
        invariants(state)
    return state


def decode_trusted_state(kind: type[S], data: Any) -> S:
    """A state this engine encoded (its signature verified): converted without invariants."""
    if SIGNATURE_KEY in data:
        data = {k: v for k, v in data.items() if k != SIGNATURE_KEY}
    return msgspec.convert(data, kind)


_ENCODER = msgspec.json.Encoder()
_DECODER = msgspec.json.Decoder()


def encode_state(state: msgspec.Struct) -> dict[str, Any]:
    """The state's JSON as plain dicts and lists (equal to what a client posts back), by a
    function generated once per declaration: half the cost of a JSON round trip."""
    fn = _ENCODERS.get(type(state))
    if fn is None:
        fn = _ENCODERS[type(state)] = _encoder_of(type(state), {"_roundtrip": _roundtrip}, {})
    return fn(state)


_ENCODERS: dict[type, Callable[[Any], Any]] = {}
_PLAIN = (str, int, bool, float, type(None))


def _roundtrip(value: Any) -> Any:
    return _DECODER.decode(_ENCODER.encode(value))


def _bare(hint: Any) -> Any:
    while get_origin(hint) is Annotated:
        hint = get_args(hint)[0]
    return hint


def _plain(hint: Any) -> bool:
    """A value JSON holds as it is: nothing to copy, no struct to open."""
    hint = _bare(hint)
    if get_origin(hint) is Literal:
        return all(isinstance(v, _PLAIN) for v in get_args(hint))
    if get_origin(hint) is Union:
        return all(_plain(a) for a in get_args(hint))
    return hint in _PLAIN


def _string_key(hint: Any) -> bool:
    """A map key JSON holds as it is: a string, or a Literal of strings (Guandan's teams)."""
    hint = _bare(hint)
    return hint is str or (get_origin(hint) is Literal
                           and all(isinstance(v, str) for v in get_args(hint)))


def _json_of(hint: Any, v: str, ns: dict[str, Any], names: dict[type, str], depth: int) -> str:
    """Source of an expression turning `v`, declared as `hint`, into its JSON."""
    hint = _bare(hint)
    if _plain(hint):
        return v
    origin, args, x = get_origin(hint), get_args(hint), f"x{depth}"
    if origin is Union and len(args) == 2 and type(None) in args:
        inner = args[0] if args[1] is type(None) else args[1]
        return f"(None if {v} is None else {_json_of(inner, v, ns, names, depth)})"
    if origin in (tuple, list) and (origin is list or args[1:] == (...,)):
        if _plain(args[0]):
            return f"list({v})"
        return f"[{_json_of(args[0], x, ns, names, depth + 1)} for {x} in {v}]"
    if origin is dict and _string_key(args[0]):
        if _plain(args[1]):
            return f"dict({v})"
        k = f"k{depth}"
        return f"{{{k}: {_json_of(args[1], x, ns, names, depth + 1)} for {k}, {x} in {v}.items()}}"
    if isinstance(hint, type) and issubclass(hint, msgspec.Struct):
        if hint not in names:
            names[hint] = f"_encode_{len(names)}"
            _encoder_of(hint, ns, names)
        return f"{names[hint]}({v})"
    return f"_roundtrip({v})"   # anything else: msgspec's own JSON, the slow way


def _encoder_of(kind: type[msgspec.Struct], ns: dict[str, Any], names: dict[type, str]
                ) -> Callable[[Any], dict[str, Any]]:
    """One generated function per struct, all in one namespace (a struct may contain itself)."""
    config = kind.__struct_config__
    if config.omit_defaults or config.array_like:
        ns[names.get(kind, "_top")] = _roundtrip
        return _roundtrip
    hints = get_type_hints(kind, include_extras=True)
    items = [] if config.tag_field is None else [f"{config.tag_field!r}: {config.tag!r}"]
    items += [f"{name!r}: {_json_of(hints[f], 's.' + f, ns, names, 0)}"
              for f, name in zip(kind.__struct_fields__, kind.__struct_encode_fields__)]
    fn = names.get(kind, "_top")
    exec(f"def {fn}(s):\n    return {{{', '.join(items)}}}\n", ns)
    encoder: Callable[[Any], dict[str, Any]] = ns[fn]
    return encoder


# ------------------------------------------------------------------------------ schema

def openapi_schema(kind: type[msgspec.Struct], description: str = "") -> dict[str, Any]:
    """The declaration's JSON schema in the OpenAPI 3.0 dialect, nested structs inlined (the
    spec's State is one self-contained schema per game)."""
    (root,), components = msgspec.json.schema_components(
        [kind], ref_template="#/components/schemas/{name}")
    out: dict[str, Any] = _to_oas30(root, components)
    if description:
        out["description"] = description
    return out


# A card is written as this pattern rather than an enum of all 54 names; both say the same.
_CARD_SET = frozenset(deck_54())
_CARD_SCHEMA = {"type": "string", "pattern": "^([SHDC]([2-9]|10|[AJQK])|BJ|RJ)$",
                "description": "a card, canonical: suit S H D C then rank; jokers BJ, RJ"}


def _to_oas30(node: Any, components: Mapping[str, Any]) -> Any:
    if isinstance(node, list):
        return [_to_oas30(x, components) for x in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        return _to_oas30(components[node["$ref"].rsplit("/", 1)[1]], components)
    if node.get("x-hidden"):  # engine/state.py Hidden
        return {"type": "array", "items": dict(_CARD_SCHEMA), "nullable": True,
                "description": node.get("description", "")}
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "title":
            continue
        if key == "const":
            out["enum"] = [value]
        elif key == "default" and isinstance(value, tuple):
            out[key] = list(value)  # an empty ledger's default: YAML and JSON know lists only
        else:
            out[key] = _to_oas30(value, components)
    any_of = out.get("anyOf")
    if any_of is not None and {"type": "null"} in any_of:
        rest = [x for x in any_of if x != {"type": "null"}]
        del out["anyOf"]
        if len(rest) == 1:
            out.update(rest[0])
        else:
            out["anyOf"] = rest
        out["nullable"] = True
        if "enum" in out and None not in out["enum"]:
            out["enum"].append(None)  # OpenAPI 3.0.3: nullable does not widen an enum
    if "enum" in out and set(out["enum"]) == _CARD_SET:
        del out["enum"]
        out.update(_CARD_SCHEMA)
    if "enum" in out and "type" not in out:
        values = [v for v in out["enum"] if v is not None]
        if all(isinstance(v, str) for v in values):
            out["type"] = "string"
        elif all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            out["type"] = "integer"
        if None in out["enum"]:
            out["nullable"] = True
    return out
