"""A small type vocabulary for what games declare: options, action fields, lookup bodies.

Games declare fields with these; the engine parses client input with them (so every game
refuses malformed input the same way), `/v1/games` describes them, and the service turns them
into marshmallow schemas for the OpenAPI spec. Nothing here knows of HTTP.

Every text a person reads in `/v1/games` is declared in both languages where it is declared:
`Field(kind, english, japanese, …)`, `ActionType(name, english, japanese, …)` (like a refusal's
`en`, `ja`). `describe(lang)` picks one; the caller (the service) negotiated the language.
The OpenAPI spec stays English (`description`).
"""
from __future__ import annotations

import copy
import string
from dataclasses import dataclass, field as dc_field
from typing import Any, Mapping, Sequence

from .cards import SUITS, CardError, parse_card, parse_cards
from .errors import shown


class FieldError(ValueError):
    """Input that does not fit its declared field; `path` names where (e.g. "action.cards[2]")."""

    def __init__(self, path: str, message: str):
        self.path = path
        self.message = message
        super().__init__(f"{path}: {message}")


# JSON's safe integer range (what a JavaScript front end holds exactly): no integer the engine
# reads or writes leaves it.
MAX_SAFE_INT = 2 ** 53 - 1


def _safe_int(value: Any) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)
            and -MAX_SAFE_INT <= value <= MAX_SAFE_INT)


def in_language(en: str, ja: str, lang: str) -> str:
    """A text declared in both languages, in `lang`; English when the Japanese is missing (a
    game still describes itself; tests/engine/test_descriptions.py fails on every such gap)."""
    return ja if lang == "ja" and ja else en


@dataclass(frozen=True)
class Field:
    """One declared value.

    kind: "cards" (list of card tokens), "card", "suit", "enum", "int", "bool", "str",
          "player" (a seat's id), "player_list" (seat ids in order, a seat as often as it
          comes), "str_list", "int_list", "str_list_list" (a list of lists of strings; with
          `choices`, each one of them), "int_map" (id -> int), "str_list_map" (key -> list of strings), "object"
          (free JSON), "object_list", "text" (words for people: {"en": …, "ja": …}, the one
          shape of every text an event or score delta carries)
    """

    kind: str
    description: str = ""
    description_ja: str = ""  # the same in Japanese; GET /v1/games with Accept-Language: ja
    required: bool = True
    nullable: bool = False
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    # "object" / "object_list": the object's JSON schema (OpenAPI 3.0), so the spec types it
    # (a client reads an event's reading or a declaration without a cast); parsing stays the
    # game's. Not part of equality (a dict is not hashable).
    schema: Mapping[str, Any] | None = dc_field(default=None, compare=False)

    def parse(self, value: Any, path: str) -> Any:
        if value is None:
            if self.nullable:
                return None
            raise FieldError(path, "may not be null")
        kind = self.kind
        if kind == "cards":
            if not isinstance(value, list):
                raise FieldError(path, "must be a list of cards")
            try:
                return parse_cards(value)
            except CardError as err:
                raise FieldError(f"{path}[{err.index}]", str(err)) from None
        if kind == "card":
            try:
                return parse_card(value)
            except CardError as err:
                raise FieldError(path, str(err)) from None
        if kind == "suit":
            if isinstance(value, str) and value.strip().upper() in SUITS:
                return value.strip().upper()
            raise FieldError(path, f"{shown(value)} is not a suit (S, H, D or C)")
        if kind == "enum":
            if value in self.choices:
                return value
            raise FieldError(path, f"{shown(value)} is not one of {list(self.choices)}")
        if kind == "int":
            if not _safe_int(value):
                raise FieldError(path, "must be an integer within ±(2^53 − 1)")
            if self.minimum is not None and value < self.minimum:
                raise FieldError(path, f"must be at least {self.minimum}")
            if self.maximum is not None and value > self.maximum:
                raise FieldError(path, f"must be at most {self.maximum}")
            return value
        if kind == "bool":
            if isinstance(value, bool):
                return value
            raise FieldError(path, "must be true or false")
        if kind in ("str", "player"):
            if isinstance(value, str) and value:
                if self.choices and value not in self.choices:
                    raise FieldError(path, f"{shown(value)} is not one of {list(self.choices)}")
                return value
            raise FieldError(path, "must be a non-empty string")
        if kind == "player_list":
            if isinstance(value, list) and all(isinstance(v, str) and v for v in value):
                return list(value)
            raise FieldError(path, "must be a list of seat ids")
        if kind == "str_list":
            if isinstance(value, list) and all(isinstance(v, str) for v in value):
                for i, v in enumerate(value):
                    if self.choices and v not in self.choices:
                        raise FieldError(f"{path}[{i}]", f"{shown(v)} is not one of {list(self.choices)}")
                return list(value)
            raise FieldError(path, "must be a list of strings")
        if kind == "str_list_list":
            if isinstance(value, list) and all(
                isinstance(v, list) and all(isinstance(x, str) for x in v) for v in value
            ):
                for i, v in enumerate(value):
                    for j, x in enumerate(v):
                        if self.choices and x not in self.choices:
                            raise FieldError(f"{path}[{i}][{j}]",
                                             f"{shown(x)} is not one of {list(self.choices)}")
                return [list(v) for v in value]
            raise FieldError(path, "must be a list of lists of strings")
        if kind == "int_list":
            if isinstance(value, list) and all(_safe_int(v) for v in value):
                return list(value)
            raise FieldError(path, "must be a list of integers within ±(2^53 − 1)")
        if kind == "str_list_map":
            if isinstance(value, dict) and all(
                isinstance(k, str) and isinstance(v, list) and all(isinstance(x, str) for x in v)
                for k, v in value.items()
            ):
                return dict(value)
            raise FieldError(path, "must map keys to lists of strings")
        if kind == "int_map":
            if isinstance(value, dict) and all(
                isinstance(k, str) and _safe_int(v) for k, v in value.items()
            ):
                return dict(value)
            raise FieldError(path, "must map ids to integers within ±(2^53 − 1)")
        if kind == "object":
            if isinstance(value, dict):
                _within_depth(value, path)
                return value
            raise FieldError(path, "must be an object")
        if kind == "text":
            if isinstance(value, dict) and set(value) == {"en", "ja"} and all(
                    isinstance(v, str) and v for v in value.values()):
                return dict(value)
            raise FieldError(path, "must be an object {en, ja} of non-empty strings")
        if kind == "object_list":
            if isinstance(value, list) and all(isinstance(v, dict) for v in value):
                _within_depth(value, path)
                return list(value)
            raise FieldError(path, "must be a list of objects")
        raise AssertionError(f"unknown field kind {kind}")

    def json_schema(self, accepts: bool = False) -> dict[str, Any]:
        """The value as an OpenAPI 3.0 schema (for the state schemas games publish).
        `accepts`: the value is something a client sends (an action, a table), so a card is
        written in the card notation a client may type, not only the canonical form."""
        from .schema import CARD, CARD_INPUT, CARDS, CARDS_INPUT, nullable

        kind = self.kind
        if kind == "cards":
            out = dict(CARDS_INPUT if accepts else CARDS)
        elif kind == "card":
            out = dict(CARD_INPUT if accepts else CARD)
        elif kind == "suit":
            out = {"type": "string", "enum": ["S", "H", "D", "C"]}
        elif kind == "enum":
            values = [c for c in self.choices if c is not None]
            kinds = {type(c) for c in values}
            out = {"type": "integer" if kinds == {int} else "string", "enum": values}
            if None in self.choices:
                out = nullable(out)
        elif kind == "int":
            out = {"type": "integer"}
            if self.minimum is not None:
                out["minimum"] = self.minimum
            if self.maximum is not None:
                out["maximum"] = self.maximum
        elif kind == "bool":
            out = {"type": "boolean"}
        elif kind in ("str", "player"):
            out = {"type": "string", "minLength": 1}  # parse takes no empty string
            if self.choices:
                out["enum"] = list(self.choices)
        elif kind in ("str_list", "int_list"):
            out = {"type": "array", "items": {"type": "string" if kind == "str_list" else "integer"}}
            if self.choices:
                out["items"]["enum"] = list(self.choices)
        elif kind == "player_list":
            out = {"type": "array", "items": {"type": "string", "minLength": 1}}
        elif kind == "str_list_list":
            out = {"type": "array", "items": {"type": "array", "items": {"type": "string"}}}
            if self.choices:
                out["items"]["items"]["enum"] = list(self.choices)
        elif kind == "object_list":
            out = {"type": "array", "items": copy.deepcopy(dict(self.schema)) if self.schema
                   else {"type": "object"}}
        elif kind == "text":
            words = {"type": "string", "minLength": 1}
            out = {"type": "object", "properties": {"en": dict(words), "ja": dict(words)},
                   "required": ["en", "ja"], "additionalProperties": False}
        elif kind == "int_map":
            out = {"type": "object", "additionalProperties": {"type": "integer"}}
        elif kind == "str_list_map":
            out = {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}}
        elif self.schema is not None:
            out = copy.deepcopy(dict(self.schema))
        else:
            out = {"type": "object"}
        if self.description:
            out["description"] = self.description
        return nullable(out) if self.nullable else out

    def text(self, lang: str = "en") -> str:
        """The description in `lang` ("en" or "ja"); English when no Japanese is declared."""
        return in_language(self.description, self.description_ja, lang)

    def describe(self, lang: str = "en") -> dict[str, Any]:
        """JSON description for /v1/games, its words in `lang`."""
        out: dict[str, Any] = {"type": self.kind}
        if self.description:
            out["description"] = self.text(lang)
        if self.choices:
            out["allowed"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.nullable:
            out["nullable"] = True
        if not self.required:
            out["required"] = False
        return out


def parse_fields(spec: Mapping[str, Field], data: Mapping[str, Any], path: str,
                 ignore: frozenset[Any] = frozenset()) -> dict[str, Any]:
    """Parse `data` against `spec`: required present, no unknown keys, each value parsed."""
    out: dict[str, Any] = {}
    for key in data:
        if key not in spec and key not in ignore:
            raise FieldError(f"{path}.{key}", "unknown field")
    for key, fld in spec.items():
        if key in data:
            out[key] = fld.parse(data[key], f"{path}.{key}")
        elif fld.required:
            raise FieldError(f"{path}.{key}", "missing required field")
    return out


@dataclass(frozen=True)
class Option:
    """A game option: a rule where sources disagree or a house rule, with its default."""

    name: str
    field: Field
    default: Any
    rule: str = ""  # the rules page number it settles, e.g. "3.2"

    def describe(self, lang: str = "en") -> dict[str, Any]:
        out = self.field.describe(lang)
        out.pop("required", None)
        out["name"] = self.name
        out["default"] = self.default
        if self.rule:
            out["rule"] = self.rule
        return out

    def json_schema(self) -> dict[str, Any]:
        """The option as it may be given in a deal request (OpenAPI 3.0), with its default."""
        out = self.field.json_schema()
        out["default"] = list(self.default) if isinstance(self.default, tuple) else self.default
        if self.rule:
            out["description"] = f"{out.get('description', '')} (rule {self.rule})".lstrip()
        return out


@dataclass(frozen=True)
class EventType:
    """One kind of event a game reports in `events` (validate and replay answers): its `type`
    and the fields it carries besides, each required unless declared `required=False`. The
    spec publishes one schema per declared event; the tests check every emitted event
    against it, so the declaration is what the engine sends."""

    name: str
    description: str
    fields: Mapping[str, Field] = dc_field(default_factory=dict)

    def json_schema(self, game_id: str) -> dict[str, Any]:
        props: dict[str, Any] = {"type": {"type": "string", "enum": [self.name]},
                                 "game": {"type": "string", "enum": [game_id],
                                          "description": "the answer's game"}}
        fields = dict(self.fields)
        # every event carries its words (Game.event_text), declared here once for all games;
        # an event whose own `text` says something narrower (a call as spoken) declares it
        fields.setdefault("text", EVENT_TEXT)
        props.update({k: f.json_schema() for k, f in fields.items()})
        return {"type": "object", "properties": props,
                "required": ["type", "game"] + [k for k, f in fields.items() if f.required],
                "additionalProperties": False, "description": self.description}


EVENT_TEXT = Field("text", "the event in words a referee reads out: {en, ja}",
                   "審判が読み上げるイベントの文: {en, ja}")


def placeholders(*templates: str) -> tuple[str, ...]:
    """The `{names}` the message templates fill, in order of first use."""
    names: list[str] = []
    for template in templates:
        for _text, name, _spec, _conversion in string.Formatter().parse(template):
            # `{where_text[ja]}`: one language of a text detail ({en, ja}) named `where_text`
            name = name.split("[")[0].split(".")[0] if name else name
            if name and name not in names:
                names.append(name)
    return tuple(names)


def refusal_details(templates: Mapping[str, Sequence[str]], kinds: Mapping[str, Field], *,
                    explicit: Mapping[str, Mapping[str, Field]] | None = None,
                    sent: Any = None) -> dict[str, dict[str, Field]]:
    """Each refusal code's `details`, declared: by default the `{placeholders}` of the code's
    message templates (Refusal.from_templates sends its fill values as the details), each
    typed by the game's `kinds` vocabulary; `explicit` declares the codes whose details are
    not their fill values (given as `details=`). `sent(name)` says which placeholders travel
    (a game may keep e.g. its `_ja` fill values out of the details). A placeholder with no
    kind is an error at import: a new one is declared before it ships."""
    explicit = explicit or {}
    out: dict[str, dict[str, Field]] = {}
    for code, texts in templates.items():
        if code in explicit:
            out[code] = dict(explicit[code])
            continue
        names = [n for n in placeholders(*texts) if sent is None or sent(n)]
        missing = [n for n in names if n not in kinds]
        if missing:
            raise KeyError(f"refusal {code}: no declared kind for details {missing}")
        out[code] = {n: kinds[n] for n in names}
    unknown = sorted(set(explicit) - set(templates))
    if unknown:
        raise KeyError(f"details declared for codes without messages: {unknown}")
    return out


def details_schema(fields: Mapping[str, Field]) -> dict[str, Any]:
    """A refusal's `details` (OpenAPI 3.0): exactly the declared names, each required unless
    declared `required=False`."""
    out: dict[str, Any] = {"type": "object",
                           "properties": {k: f.json_schema() for k, f in fields.items()},
                           "additionalProperties": False}
    required = [k for k, f in fields.items() if f.required]
    if required:
        out["required"] = required
    return out


@dataclass(frozen=True)
class ActionType:
    """One kind of action a client may post, with its fields beyond `type` and `player`.

    `referee_only`: an act of the table's referee (a penalty recorded, a ruling, a report of
    what was seen), never a seat's own move. The game declares it; the service then asks for
    the referee's credentials, not a seat's (docs/security.md), without knowing the game."""

    name: str
    description: str
    description_ja: str
    fields: Mapping[str, Field] = dc_field(default_factory=dict)
    rule: str = ""
    referee_only: bool = False

    def describe(self, lang: str = "en") -> dict[str, Any]:
        return {
            "type": self.name,
            "description": in_language(self.description, self.description_ja, lang),
            "fields": {k: f.describe(lang) for k, f in self.fields.items()},
            **({"rule": self.rule} if self.rule else {}),
            "referee_only": self.referee_only,
        }


# Free JSON ("object" fields) nests at most this deep: no game's object needs more, and a cache
# key or an answer written from one deeper (orjson writes 254 levels) would fail, not refuse.
MAX_OBJECT_DEPTH = 32


def _within_depth(value: Any, path: str) -> None:
    """FieldError when `value` nests deeper than MAX_OBJECT_DEPTH (a walk of its values, each
    once: linear in its size)."""
    todo = [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if depth > MAX_OBJECT_DEPTH:
            raise FieldError(path, f"nests at most {MAX_OBJECT_DEPTH} levels deep")
        if isinstance(item, dict):
            todo += [(v, depth + 1) for v in item.values()]
        elif isinstance(item, list):
            todo += [(v, depth + 1) for v in item]
