"""marshmallow schemas for every request and response; the OpenAPI spec is generated from them.

Per the performance budget (docs/performance.md), a request's state is checked here only at its top level
(game, version, players …; everything else passes through untouched) and then decoded by the
engine's own fast decoder, which checks the invariants that matter. Action and lookup schemas
are built from what the registered games declare, so adding a game never touches this file.
"""
from __future__ import annotations

import copy
import re
from typing import Any, Iterable, cast

import marshmallow as ma
from marshmallow import fields as mf, validate

from engine.adjudicate import ENGINE_REFUSAL_DETAILS
from engine.cards import SUITS
from engine.events.format import (
    MAX_ENTRANTS,
    MAX_ROUNDS,
    MAX_SAME_DEALS,
    MAX_TABLE,
    SEATING_METHODS,
)
from engine.fields import Field, details_schema
from engine.game import FINISHED, IN_PROGRESS, Game
from engine.records import DISCREPANCY_CODES
from engine.referee import REFEREE
from engine.schema import CARD_INPUT_PATTERN
from engine.state import openapi_schema
from engine.summary import STANDINGS_COMPONENT, SUMMARY_COMPONENT, Standings, TableSummary

from .event_store import EVENT_ID
from .sealing import LEGACY_PREFIX, PREFIX


class List(mf.List):
    """marshmallow's List with its work bounded by the list, not by its faults: a `Length(max=)`
    is checked before the items (500,000 wrong seats answer one error, not one each) and the
    items stop at the first MAX_ITEM_ERRORS faults (each costs ~15 µs and a line of the answer:
    a megabyte of wrong items took seconds and answered megabytes). docs/security.md "Bounded
    work"."""

    MAX_ITEM_ERRORS = 10

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, (list, tuple)):
            return super()._deserialize(value, attr, data, **kwargs)  # marshmallow's error
        for check in self.validators:
            if isinstance(check, validate.Length) and check.max is not None \
                    and len(value) > check.max:
                check(value)  # raises its own error
        result = []
        errors = {}
        for idx, each in enumerate(value):
            try:
                result.append(self.inner.deserialize(each, **kwargs))
            except ma.ValidationError as error:
                if error.valid_data is not None:
                    result.append(error.valid_data)
                errors[idx] = error.messages
                if len(errors) >= self.MAX_ITEM_ERRORS:
                    break
        if errors:
            raise ma.ValidationError(errors, valid_data=result)
        return result


def _int(**kw) -> mf.Integer:
    return mf.Integer(strict=True, **kw)


def _bool(**kw) -> mf.Boolean:
    # Only JSON true/false: marshmallow would otherwise accept "true", "1", "yes" …
    return mf.Boolean(truthy={True}, falsy={False}, **kw)


class Strict(ma.Schema):
    class Meta:
        unknown = ma.RAISE


# A card token as the engine accepts it (engine/cards.py): T for 10, any case, spaces around.
CARD_PATTERN = CARD_INPUT_PATTERN  # engine/schema.py: the one card notation a client may type


def _card(**kw) -> mf.String:
    return mf.String(validate=validate.Regexp(CARD_PATTERN), **kw)


# The `cards` filter of a legal-actions request (engine/filters.py).
CARDS_FILTER = ("only the actions that name exactly these cards, as a multiset (the cards a "
                "player picked, in any order and any accepted notation): the plays of exactly "
                "them, or the actions naming that one card; never an action naming no card")


def to_marshmallow(field: Field) -> mf.Field:
    """An engine Field as a marshmallow field, for validation and for the spec."""
    common: dict[str, Any] = {"required": field.required, "allow_none": field.nullable,
              "metadata": {"description": field.description} if field.description else {}}
    kind = field.kind
    if kind == "cards":
        return List(_card(), **common)
    if kind == "card":
        return _card(**common)
    if kind in ("str", "player"):
        if field.choices:
            return mf.String(validate=validate.OneOf(field.choices), **common)
        return mf.String(**common)
    if kind == "suit":
        # One canonical enum (generated clients need distinct names); the engine also reads
        # lower case, as it does card tokens.
        return mf.String(validate=validate.OneOf(SUITS), **common)
    if kind == "enum":
        if all(isinstance(c, str) for c in field.choices if c is not None):
            return mf.String(validate=validate.OneOf([c for c in field.choices if c is not None]),
                             **{**common, "allow_none": field.nullable or None in field.choices})
        common["metadata"] = {**common["metadata"], "enum": list(field.choices)}
        return mf.Raw(validate=validate.OneOf(field.choices), **common)
    if kind == "int":
        rng = validate.Range(min=field.minimum, max=field.maximum) \
            if field.minimum is not None or field.maximum is not None else None
        return _int(validate=rng, **common) if rng else _int(**common)
    if kind == "bool":
        return _bool(**common)
    if kind == "str_list":
        if field.choices:
            return List(mf.String(validate=validate.OneOf(field.choices)), **common)
        return List(mf.String(), **common)
    if kind == "object_list":
        # a declared object schema (Field.schema) is what the spec publishes for each item
        return List(mf.Dict(metadata=copy.deepcopy(dict(field.schema or {}))), **common)
    if kind == "int_list":
        return List(_int(), **common)
    if kind == "int_map":
        return mf.Dict(keys=mf.String(), values=_int(), **common)
    if kind == "str_list_map":
        return mf.Dict(keys=mf.String(), values=List(mf.String()), **common)
    if field.schema is not None:
        common["metadata"] = {**copy.deepcopy(dict(field.schema)), **common["metadata"]}
    return mf.Dict(**common)


def schema_from_fields(name: str, spec: dict[str, Field], extra: dict | None = None) -> type[ma.Schema]:
    declared = {k: to_marshmallow(f) for k, f in spec.items()}
    declared.update(extra or {})
    return Strict.from_dict(declared, name=name)


# ------------------------------------------------------------------ shared pieces

class StateField(mf.Field):
    """A game state: loaded as the raw object (the engine's decoder checks it exactly, and
    fast), or a sealed state's opaque string (CARDREF_SEAL_KEYS); documented as the `State`
    component (one schema per game, by its `game` field) or `SealedState`."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, (dict, str)):
            raise ma.ValidationError("Not a valid object (or a sealed state's string).")
        return value


class MatchField(mf.Field):
    """The previous deal's `next_match` (signed object, or sealed string), or match values of
    the caller's own (a referee act when states are signed or sealed)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, (dict, str)):
            raise ma.ValidationError("Not a valid object (or a sealed match summary).")
        return value


def state_field_ref(self, field, **kwargs) -> dict:
    """apispec attribute function: a StateField is a State or a SealedState; a nullable nested
    object is that object or null, not apispec's `anyOf` of it and an untyped object (which a
    generated client types as `{} | null | X`, so every use needs narrowing)."""
    ret = kwargs.get("ret")
    if isinstance(field, mf.Nested) and field.allow_none and ret and "anyOf" in ret:
        refs = [branch for branch in ret["anyOf"] if "$ref" in branch]
        if len(refs) == 1:
            del ret["anyOf"]
            return {"oneOf": refs, "nullable": True}
    if isinstance(field, StateField):
        return {"oneOf": [{"$ref": "#/components/schemas/State"},
                          {"$ref": "#/components/schemas/SealedState"}]}
    if isinstance(field, ActionField):
        return {"$ref": "#/components/schemas/Action"}
    if isinstance(field, MatchField):
        # In answers (next_match); a deal request's `match` is each game's own (deal_components).
        return {"oneOf": [{"$ref": "#/components/schemas/MatchSummary"},
                          {"$ref": "#/components/schemas/SealedMatch"}],
                "nullable": True,
                "description": "the previous deal's next_match, passed on as it came (signed "
                               "object or sealed string); other values are a referee act"}
    if isinstance(field, EventField):
        return {"$ref": "#/components/schemas/Event"}
    if isinstance(field, RefusalField):
        return {"$ref": "#/components/schemas/Refusal"}
    if isinstance(field, ReplayDealField):
        return {"$ref": "#/components/schemas/ReplayDeal"}
    if isinstance(field, RefField):
        return {"$ref": f"#/components/schemas/{field.component}"}
    if isinstance(field, EventDocumentField):
        return {"$ref": f"#/components/schemas/{EVENT_DOCUMENT}"}
    return {}


class RefField(mf.Field):
    """A value documented as one shared component (`Status`, `GameId`, `View`): one enum or
    one union everywhere, so a generated client has one type for it. Answers only (built by
    the routes, never loaded)."""

    def __init__(self, component: str, **kwargs):
        super().__init__(**kwargs)
        self.component = component


STATUS = {"type": "string", "enum": [IN_PROGRESS, FINISHED],
          "description": "whether the deal goes on (`in_progress`) or is over (`finished`)"}


def game_id_component(games: Iterable[Game]) -> dict:
    """`GameId`: every registered game's id (paths, answers' `game`), from the registry."""
    return {"type": "string", "enum": [g.id for g in games],
            "description": "a game's id (GET /v1/games lists each game)"}


VIEW_DESCRIPTION = ("What one seat (or a spectator) may see of a state: `<Game>View`, chosen "
                    "by `game`; other hands as counts, never the seed")


def view_components(games: Iterable[Game]) -> dict[str, dict]:
    """`<Game>View` for every game that declares its view (Game.view_type), and `View`, one of
    them chosen by `game`. A list marked `x-game-actions` is typed as the game's actions."""
    components: dict[str, dict] = {}
    mapping: dict[str, str] = {}
    for game in games:
        if not game.view_schema:
            continue
        name = pascal(game.id) + "View"
        components[name] = _shared_parts(_with_actions(game.view_schema,
                                                       pascal(game.id) + "Action"))
        mapping[game.id] = f"#/components/schemas/{name}"
    components["View"] = ({"oneOf": [{"$ref": r} for r in mapping.values()],
                           "discriminator": {"propertyName": "game", "mapping": mapping},
                           "description": VIEW_DESCRIPTION}
                          if mapping else {"type": "object", "description": VIEW_DESCRIPTION})
    components.update(referee_view_components(games))
    components.update(shared_view_components())
    components["SeenView"] = {"anyOf": [_ref("View"), _ref("RefereeView")],
                              "description": "a seat's or a spectator's view (`View`), or with "
                                             "the referee key as `referee`, the referee's "
                                             "(`RefereeView`, `viewer: referee`)"}
    return components


REFEREE_VIEW_DESCRIPTION = (
    "The table's referee's view (player `referee` with the referee key): the whole state — "
    "every hand, the stock, the ledger — but the seed and its salt until the deal is finished")


def referee_view_components(games: Iterable[Game]) -> dict[str, dict]:
    """`<Game>RefereeView` (engine.referee.view): the game's state schema, the seed and salt
    optional (shown once the deal is finished), `viewer: referee`; `RefereeView` one of them."""
    components: dict[str, dict] = {}
    mapping: dict[str, str] = {}
    for game in games:
        if not game.state_schema:
            continue
        name = pascal(game.id) + "RefereeView"
        schema = dict(game.state_schema)
        shared = shared_view_properties()
        schema["properties"] = {**schema["properties"], **shared, "viewer": {
            "type": "string", "enum": [REFEREE], "description": "the table's referee"}}
        schema["required"] = [k for k in schema.get("required", ())
                              if k not in ("seed", "seed_salt")] + \
            [*shared, "viewer"]
        schema["description"] = REFEREE_VIEW_DESCRIPTION
        components[name] = schema
        mapping[game.id] = f"#/components/schemas/{name}"
    components["RefereeView"] = ({"oneOf": [{"$ref": r} for r in mapping.values()],
                                  "discriminator": {"propertyName": "game", "mapping": mapping},
                                  "description": REFEREE_VIEW_DESCRIPTION}
                                 if mapping else {"type": "object",
                                                  "description": REFEREE_VIEW_DESCRIPTION})
    return components


# What every view carries besides its game's own fields (engine/summary.py), published once.
def shared_view_properties() -> dict[str, dict]:
    return {"to_act": {"type": "array", "items": {"type": "string"},
                       "description": "who may act now, as every seat can see it (public: "
                                      "never read from a hidden hand)"},
            "summary": _ref(SUMMARY_COMPONENT),
            "standings": _ref(STANDINGS_COMPONENT)}


def shared_view_components() -> dict[str, dict]:
    """`TableSummary` and `Standings` (engine/summary.py), the same in every game's view."""
    return {SUMMARY_COMPONENT: openapi_schema(TableSummary, TableSummary.__doc__ or ""),
            STANDINGS_COMPONENT: openapi_schema(Standings, Standings.__doc__ or "")}


def _shared_parts(schema: dict) -> dict:
    """A game's view schema with the summary and standings as references to the shared
    components rather than inlined copies (`to_act` keeps the game's own description)."""
    out = dict(schema)
    out["properties"] = {**schema["properties"],
                         "summary": _ref(SUMMARY_COMPONENT),
                         "standings": _ref(STANDINGS_COMPONENT)}
    return out


def _with_actions(node, action: str):
    if isinstance(node, list):
        return [_with_actions(x, action) for x in node]
    if not isinstance(node, dict):
        return node
    if node.get("x-game-actions"):
        return {"type": "array", "items": _ref(action),
                **({"description": node["description"]} if "description" in node else {})}
    return {k: _with_actions(v, action) for k, v in node.items()}


class ReplayDealField(mf.Field):
    """A replay's deal: loaded by the ReplayDeal marshmallow schema (as mf.Nested would);
    documented as the `ReplayDeal` component, one schema per game chosen by `game`."""

    def __init__(self, schema: ma.Schema, **kwargs):
        super().__init__(**kwargs)
        self.schema = schema

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, dict):
            raise ma.ValidationError("Not a valid object.")
        try:
            return self.schema.load(value)
        except ma.ValidationError as err:
            raise ma.ValidationError(err.messages, valid_data=err.valid_data) from None


# What a sealed string starts with: the prefix the service seals with and every one it still
# opens (service/sealing.py), so the spec admits both what it answers and what it accepts.
SEALED_PATTERN = "^(" + "|".join(re.escape(p) for p in (PREFIX, LEGACY_PREFIX)) + ")"
SEALED_STATE = {"type": "string", "pattern": SEALED_PATTERN,
                "description": "A state sealed with AES-GCM (CARDREF_SEAL_KEYS): opaque; post "
                               "it back as it came"}
SEALED_MATCH = {"type": "string", "pattern": SEALED_PATTERN,
                "description": "A sealed match summary (next_match): opaque; pass it as the "
                               "next deal's `match`"}
META: dict[str, Any] = {"type": "object", "description": "The state's binding, under its signature: a game "
        "id made at the deal, the move number, whether the deal was shaped by a referee, and "
        "its match's lineage (match id, deal number, the match's provenance: `referee` only "
        "while every deal of the match was dealt with the referee key)",
        "properties": {"game_id": {"type": "string"}, "move": {"type": "integer", "minimum": 0},
                       "provenance": {"type": "string", "enum": ["server", "referee"]},
                       "match_id": {"type": "string"},
                       "deal": {"type": "integer", "minimum": 1},
                       "match_provenance": {"type": "string", "enum": ["server", "referee"]}},
        "required": ["game_id", "move", "provenance", "match_id", "deal", "match_provenance"],
        "additionalProperties": False}
MATCH_LINEAGE = {
    "type": "object", "additionalProperties": False,
    "required": ["match_id", "deal", "game", "players", "provenance"],
    "description": "the match this summary continues, under its signature or seal: the next "
                   "deal must be of the same game and seats, and is deal `deal` + 1",
    "properties": {"match_id": {"type": "string"}, "deal": {"type": "integer", "minimum": 1},
                   "game": {"type": "string"},
                   "players": {"type": "array", "items": {"type": "string"}},
                   "provenance": {"type": "string", "enum": ["server", "referee"]}}}


_ABSENT = object()


def binding_fault(meta: object, signature: object) -> tuple[str, str] | None:
    """(path, message) where a state posted to a deployment that neither signs nor seals
    carries a `meta` or `signature` unlike the spec's (META, SIGNATURE), else None. Such a
    deployment ignores both (nothing vouches for them), but a value the spec refuses is
    refused (422), as anywhere else in a state."""
    if signature is not _ABSENT and not isinstance(signature, str):
        return "state.signature", "must be a string"
    if meta is _ABSENT:
        return None
    if not isinstance(meta, dict):
        return "state.meta", "must be an object"
    props = META["properties"]
    for key in meta:
        if key not in props:
            return f"state.meta.{key}", "unknown field"
    for key in META["required"]:
        if key not in meta:
            return f"state.meta.{key}", "missing required field"
    for key, value in meta.items():
        rule = props[key]
        if rule["type"] == "string":
            ok = isinstance(value, str) and ("enum" not in rule or value in rule["enum"])
        else:
            ok = (isinstance(value, int) and not isinstance(value, bool)
                  and value >= rule.get("minimum", value))
        if not ok:
            return f"state.meta.{key}", "does not fit the state's binding (meta)"
    return None


SIGNATURE = {"type": "string", "description": "HMAC-SHA256 over the state's canonical JSON "
             "(`v1:` and hex), present when the service signs states"}
LOOSE_STATE = {
    "type": "object", "additionalProperties": True,
    "required": ["game", "version", "players"],
    "properties": {"game": {"type": "string"}, "version": {"type": "integer"},
                   "players": {"type": "array", "items": {"type": "string"}},
                   "signature": SIGNATURE},
    "description": "A state of a game that publishes no schema of its own",
}


def state_components(games: Iterable[Game]) -> dict[str, dict]:
    """Components for the spec that the marshmallow schemas refer to: `<Game>State` for every
    game that publishes its state schema, `State`, one of them chosen by `game`, and the
    actions (`action_components`)."""
    games = list(games)
    components: dict[str, dict] = {}
    mapping: dict[str, str] = {}
    for game in games:
        if game.state_schema:
            name = "".join(p.capitalize() for p in game.id.split("_")) + "State"
            schema = dict(game.state_schema)
            schema["properties"] = {**schema["properties"], "signature": SIGNATURE,
                                    "meta": META}
            components[name] = schema
            mapping[game.id] = f"#/components/schemas/{name}"
        else:
            components.setdefault("LooseState", LOOSE_STATE)
            mapping[game.id] = "#/components/schemas/LooseState"
    refs = sorted(set(mapping.values()))
    components["State"] = ({"oneOf": [{"$ref": r} for r in refs],
                            "discriminator": {"propertyName": "game", "mapping": mapping}}
                           if refs else dict(LOOSE_STATE))
    components["SealedState"] = SEALED_STATE
    components["SealedMatch"] = SEALED_MATCH
    components["Status"] = STATUS
    components["GameId"] = game_id_component(games)
    components.update(action_components(games))
    components.update(view_components(games))
    return components


class TextSchema(ma.Schema):
    """Words for people in both languages, the one shape of every such text."""

    class Meta:
        register = False

    en = mf.String(required=True)
    ja = mf.String(required=True)


class ScoreDeltaSchema(ma.Schema):
    """A change of score; a game may add the fields declared here (ScoreDelta.extra), no
    others (documented only: answers are built by the engine, never loaded)."""

    target = mf.String(required=True, metadata={"description": "a player or a team"})
    kind = mf.String(required=True, validate=validate.OneOf(["points", "level", "penalty", "rank"]))
    delta = _int(required=True)
    reason = mf.String(required=True, metadata={"description": "why, in English (for logs "
                                                              "and records)"})
    text = mf.Nested(TextSchema, required=True, metadata={
        "description": "why, in words for people: {en, ja}, as on events (every game, every "
                       "delta, the referee's penalties too)"})
    game = RefField("GameId", required=True, metadata={"description": "the answer's game"})
    from_ = mf.String(data_key="from", metadata={"description": "a level change: the level "
                                                  "before (Guandan)"})
    to = mf.String(metadata={"description": "a level change: the level after (Guandan)"})
    title = mf.String(metadata={"description": "a rank score: the title won (Daifugo)"})
    place = _int(metadata={"description": "a rank score: the place finished, 1st … (Daifugo)"})
    total = _int(metadata={"description": "a penalty point: the seat's penalty points after it "
                                          "(Manteur)"})


class EventField(mf.Field):
    """An event of a validate or replay answer (answers are built by the routes, never loaded);
    documented as the `Event` component, from the games' EventType declarations."""


EVENT_DESCRIPTION = (
    "Something that happened, for a table to show: `type` and that type's fields, as the "
    "answer's game declares them (`<Game><Type>Event`). The same thing is the same type in "
    "every game (`played` with `player` and a `cards` list, `passed`, `deal_finished`, "
    "`match_finished` …: docs/integrating.md), each game adding its own fields; `game` names "
    "the game. "
    "Variants sharing a type are listed with the most fields first.")


def event_components(games: Iterable[Game]) -> dict[str, dict]:
    """`<Game><Type>Event` for every event a game declares, and `Event`, anyOf them all
    (flat: generated clients try the variants in order, so of two variants sharing a `type`
    the one requiring more fields comes first and is not mistaken for the other)."""
    components: dict[str, dict] = {}
    ranked: list[tuple[str, int, int, str]] = []
    for order, game in enumerate(games):
        for event in game.events:
            name = pascal(game.id, event.name) + "Event"
            schema = event.json_schema(game.id)
            schema["description"] = f"{game.names.get('en', game.id)}: {event.description}"
            components[name] = schema
            ranked.append((event.name, -len(schema["required"]), order, name))
    components["Event"] = (
        {"anyOf": [_ref(name) for *_key, name in sorted(ranked)], "description": EVENT_DESCRIPTION}
        if ranked else {"type": "object", "required": ["type"], "additionalProperties": True,
                        "properties": {"type": {"type": "string"}},
                        "description": EVENT_DESCRIPTION})
    return components


class RefusalField(mf.Field):
    """A refused action's `error` (answers are built by the routes, never loaded); documented
    as the `Refusal` component, from the games' refusal_details declarations."""


REFUSAL_DESCRIPTION = (
    "Why an action was refused: a stable `code`, the `message` in the negotiated language, the "
    "`rule` broken and that code's `details`, as the answer's game declares them "
    "(`<Game><Code>Refusal`; `GameFinishedRefusal` and `NumberOutOfRangeRefusal` for every "
    "game). Several games share codes (`not_your_turn`) with different details; the answer's "
    "state names its game. Variants sharing a code are listed with the most details first.")


def refusal_components(games: Iterable[Game]) -> dict[str, dict]:
    """`<Game><Code>Refusal` for every refusal code a game declares, with its details as
    `<Game><Code>RefusalDetails` (codes with details), the engine-wide refusals, and
    `Refusal`, anyOf them all (flat, like `Event`: generated clients try the variants in
    order, so of two variants sharing a code the one requiring more details comes first)."""
    components: dict[str, dict] = {}
    ranked: list[tuple[str, int, int, str]] = []
    games = list(games)
    declared = [(order, game.id, [game.id], game.names.get("en", game.id), game.refusals,
                 game.refusal_details) for order, game in enumerate(games)]
    paged = {game.id for game in games if game.rules_doc}  # rule_url: a rules page to land on
    engine_wide = {code: "" for code in ENGINE_REFUSAL_DETAILS}
    declared.append((len(declared), "", [g.id for g in games], "Every game", engine_wide,
                     ENGINE_REFUSAL_DETAILS))
    for order, game_id, game_ids, name, rules, details in declared:
        for code, fields in details.items():
            prefix = pascal(game_id, code) if game_id else pascal(code)
            props: dict = {
                "code": {"type": "string", "enum": [code]},
                "game": {"type": "string", "enum": game_ids, "description": "the answer's "
                         "game: with `code`, it picks the refusal's model"},
                "message": {"type": "string", "description": "English, or Japanese with "
                            "Accept-Language: ja"},
                "rule": {"type": "string", "description": "the rule broken, as numbered in "
                         "docs/rules/<game>.md" + (f" ({rules[code]})" if rules.get(code)
                                                    else "")},
                "rule_url": {"type": "string", "description": "a link to the rule broken on "
                             "the game's rules page, in the answer's language (its number is "
                             "the heading's id): `/v1/games/<game>/rules.<lang>.html#<rule>`"}}
            required = ["code", "game", "message"]
            if fields:
                components[prefix + "RefusalDetails"] = {
                    **details_schema(fields), "description": f"{name}: {code}'s details"}
                props["details"] = _ref(prefix + "RefusalDetails")
                if any(f.required for f in fields.values()):
                    required.append("details")
            if rules.get(code):
                required += ["rule", "rule_url"] if game_id in paged else ["rule"]
            components[prefix + "Refusal"] = {
                "type": "object", "properties": props, "required": required,
                "additionalProperties": False,
                "description": f"{name}: refusal {code}"
                               + (f" ({rules[code]})" if rules.get(code) else "")}
            needed = sum(1 for f in fields.values() if f.required)
            ranked.append((code, -needed, order, prefix + "Refusal"))
    components["Refusal"] = {"anyOf": [_ref(n) for *_key, n in sorted(ranked)],
                             "description": REFUSAL_DESCRIPTION}
    return components


class ProblemSchema(ma.Schema):
    type = mf.String()
    title = mf.String()
    status = _int()
    code = mf.String(required=True)
    detail = mf.String()
    errors = mf.Dict(keys=mf.String(), values=List(mf.String()),
                     metadata={"description": "field path -> messages"})


def pascal(*parts: str) -> str:
    """`man`, `anti_tribute` -> `ManAntiTribute`: component names, per game."""
    return "".join(w.capitalize() for p in parts for w in p.replace("-", "_").split("_"))


ACTION_DESCRIPTION = (
    "An action of the state's game. Each game's actions are a `oneOf` chosen by `type` "
    "(`<Game>Action`, with a discriminator); several games share type names (`play`, `pass`) "
    "with different fields, so `Action` is an `anyOf` of the games' unions, told apart by "
    "the optional `game` (always present in legal actions and replay steps; the posted "
    "state's game otherwise). Each game lists its types in GET /v1/games.")


ACTION_TEXT = ("what a button offering this action says, {en, ja} (card names as "
               "engine/cards.py card_label writes them): every listed legal action carries "
               "it; posted back, it is ignored (the action is judged by its fields alone)")

REFEREE_ONLY_NOTE = (
    " Referee only: with signing or sealing on, it needs `Authorization: Bearer <referee "
    "key>` (403 `referee_key_required`), whatever seat token comes with it.")


def action_components(games: Iterable[Game]) -> dict[str, dict]:
    """Components for the spec: `<Game><Type>Action` for every action a game declares (its
    fields exactly, as the engine parses them), `<Game>Action` (oneOf, discriminator `type`),
    and `Action`, anyOf the games' unions."""
    components: dict[str, dict] = {}
    per_game: list[str] = []
    for game in games:
        if not game.actions:
            continue
        mapping: dict[str, str] = {}
        for action in game.actions:
            name = pascal(game.id, action.name) + "Action"
            props = {"type": {"type": "string", "enum": [action.name]},
                     "player": {"type": "string", "description": "the acting seat's id"},
                     "game": {"type": "string", "enum": [game.id], "description":
                              "the game (optional on input; legal actions and replay steps "
                              "carry it, so clients tell apart games' same-named actions)"}}
            props.update({k: f.json_schema(accepts=True) for k, f in action.fields.items()})
            props["text"] = {**Field("text").json_schema(), "readOnly": True,
                             "description": ACTION_TEXT}
            required = ["type", "player"] + [k for k, f in action.fields.items() if f.required]
            components[name] = {
                "type": "object", "properties": props, "required": required,
                "additionalProperties": False,
                "description": f"{game.names.get('en', game.id)}: {action.description}"
                               + (f" (rule {action.rule})" if action.rule else "")
                               + (REFEREE_ONLY_NOTE if action.referee_only else "")}
            if action.referee_only:
                components[name]["x-referee-only"] = True
            mapping[action.name] = f"#/components/schemas/{name}"
        union = pascal(game.id) + "Action"
        components[union] = {
            "oneOf": [{"$ref": ref} for ref in mapping.values()],
            "discriminator": {"propertyName": "type", "mapping": mapping},
            "description": f"An action of {game.names.get('en', game.id)}, chosen by `type`"}
        per_game.append(union)
    components["Action"] = ({"anyOf": [{"$ref": f"#/components/schemas/{n}"} for n in per_game],
                             "description": ACTION_DESCRIPTION}
                            if per_game else {"type": "object", "description": ACTION_DESCRIPTION})
    return components


REQUEST_GAME = ("the state's game: it types the request (a sealed state is opaque); 422 "
                "`game_mismatch` when it is not the state's game. Required by this contract; "
                "the service still answers a request without it (as 1.x clients send them), "
                "reading the game from the state")


def request_components(games: Iterable[Game]) -> dict[str, dict]:
    """The requests that carry a state, typed by game, so a generated client refuses one
    game's action (or action type) with another game's state: per game
    `<Game>ValidateRequest` (its state, its `Action`), `<Game>LegalActionsRequest` (`types`
    its action types) and `<Game>ViewRequest`, each naming its `game`; and `ValidateRequest`,
    `LegalActionsRequest`, `ViewRequest`, a oneOf of them by `game` (the discriminator a
    generator narrows on; a sealed state is opaque, so only `game` can tell)."""
    components: dict[str, dict] = {}
    names: dict[str, list[tuple[str, str]]] = {"ValidateRequest": [], "LegalActionsRequest": [],
                                   "ViewRequest": []}
    for game in games:
        prefix, words = pascal(game.id), game.names.get("en", game.id)
        state = {"oneOf": [_ref(prefix + "State" if game.state_schema else "LooseState"),
                           _ref("SealedState")]}
        common = {"game": {"type": "string", "enum": [game.id], "description": REQUEST_GAME},
                  "state": state}
        player = {"type": "string", "nullable": True,
                  "description": "a seat's id; null: a spectator (`referee` with the referee "
                                 "key: the table's referee)"}
        shapes: dict[str, tuple[dict[str, Any], list[str], str]] = {
            "ValidateRequest": ({"action": _ref(prefix + "Action") if game.actions
                                 else _ref("Action")}, ["game", "state", "action"],
                                f"An action of {words} on a state of {words}"),
            "LegalActionsRequest": (
                {"player": player, **legal_action_filters(game)},
                ["game", "state", "player"], f"The legal actions of a seat of {words}"),
            "ViewRequest": ({"player": player}, ["game", "state", "player"],
                            f"A seat's (or a spectator's) view of a state of {words}"),
        }
        for kind, (props, required, description) in shapes.items():
            # copies: a shared dict would be written as a YAML alias
            components[prefix + kind] = {"type": "object",
                                         "properties": copy.deepcopy({**common, **props}),
                                         "required": required, "additionalProperties": False,
                                         "description": description}
            names[kind].append((game.id, prefix + kind))
    for kind, members in names.items():
        components[kind] = {
            "oneOf": [_ref(n) for _g, n in members],
            "discriminator": {"propertyName": "game", "mapping": {
                g: f"#/components/schemas/{n}" for g, n in members}},
            "description": f"`<Game>{kind}`, chosen by `game`: the game types the rest"}
    return components


def legal_action_filters(game: Game) -> dict[str, dict]:
    """The filters a legal-actions request of `game` may give (engine/filters.py): action
    types, the picked cards, and the kinds of combination where the game names them."""
    out: dict[str, dict] = {
        "types": {"type": "array", "description": "only these action types",
                  "items": {"type": "string", "enum": [a.name for a in game.actions]}
                  if game.actions else {"type": "string"}},
        "cards": {"type": "array", "minItems": 1, "description": CARDS_FILTER,
                  "items": {"type": "string", "pattern": CARD_PATTERN}}}
    if game.combinations:
        where = ".".join(game.combination_path)
        out["combinations"] = {
            "type": "array", "minItems": 1,
            "items": {"type": "string", "enum": list(game.combinations)},
            "description": f"only the plays read as one of these kinds of combination (a "
                           f"listed action's `{where}`)"}
    return out


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


MATCH_SIGNATURE = {"type": "string", "description": "present on a next_match the service "
                   "signed (CARDREF_STATE_SECRET): pass it on as it came"}


def options_component(game: Game) -> dict:
    """`<Game>Options`: the options a deal request may give, from the game's Option
    declarations (types, enums, bounds, defaults), plus `preset`; nothing else."""
    props: dict[str, dict] = {}
    if game.presets:
        props["preset"] = {"type": "string", "enum": sorted(game.presets),
                           "description": "a named set of options (GET /v1/games lists each "
                                          "preset's values); explicit options override it"}
    props.update({o.name: o.json_schema() for o in game.options})
    return {"type": "object", "properties": props, "additionalProperties": False,
            "description": f"{game.names.get('en', game.id)}: options of a deal; each one "
                           "omitted takes its preset's value, else its default"}


def match_components(game: Game) -> dict[str, dict]:
    """`<Game>Match`, the match values a deal request may carry (the game's `match.fields`,
    each optional: a referee act unless the service signed or sealed them), and
    `<Game>MatchSummary`, what a finished deal's `next_match` answers: the same fields, all
    present (tests/service check every real next_match against it)."""
    fields = game.match.fields if game.match else {}
    if not fields:
        return {}
    name = game.names.get("en", game.id)
    props = {k: f.json_schema() for k, f in fields.items()}
    props["signature"] = MATCH_SIGNATURE
    props["lineage"] = MATCH_LINEAGE
    values = {"type": "object", "properties": props, "additionalProperties": False,
              "description": f"{name}: match values a deal starts from (omitted ones start "
                             "afresh); values the service did not sign or seal are a referee act"}
    summary = {"type": "object", "properties": props, "additionalProperties": False,
               "required": list(fields),
               "description": f"{name}: a finished deal's match summary (`next_match`), "
                              "passed as the next deal's `match`"}
    out = {pascal(game.id) + "Match": values}
    if answers_next_match(game):
        out[pascal(game.id) + "MatchSummary"] = summary
    return out


def answers_next_match(game: Game) -> bool:
    """Whether a finished deal of `game` answers a next_match: its match computes one
    (Match.next_match), or its declared state has a `next_match` (Game.next_match reads it);
    else always null."""
    if game.match is not None and game.match.next_match is not None or \
            type(game).next_match is not Game.next_match:
        return True
    kind = game.state_type
    return kind is not None and "next_match" in kind.__struct_fields__


DEAL_REQUEST_DESCRIPTION = (
    "A deal request of the game named in the path: `<Game>DealRequest`, whose `options` and "
    "`match` are that game's (anyOf: the path, not the body, tells which game)")
REPLAY_DEAL_DESCRIPTION = "The deal a replay starts from, of the game named by `game`"
MATCH_SUMMARY_DESCRIPTION = ("A finished deal's match summary, of the answer's game "
                             "(`<Game>MatchSummary`; each game's has its own required fields)")


def deal_components(games: Iterable[Game], base: dict) -> dict[str, dict]:
    """Components for the spec: per game its options, match values and match summary, its
    deal request (`base`, the DealRequest marshmallow schema as JSON schema, with the game's
    `options` and `match`) and replay deal (the same, with `game`); `DealRequest` (anyOf),
    `ReplayDeal` (oneOf by `game`) and `MatchSummary` (anyOf) over the games."""
    components: dict[str, dict] = {}
    requests, replays, summaries = [], {}, []
    for game in games:
        prefix = pascal(game.id)
        name = game.names.get("en", game.id)
        components[prefix + "Options"] = options_component(game)
        matches = match_components(game)
        components.update(matches)
        request = {**base, "properties": dict(base["properties"]),
                   "additionalProperties": False,
                   "description": f"A deal of {name}"}
        props = request["properties"]
        props["options"] = {**_ref(prefix + "Options")}
        match_refs = [_ref(n) for n in reversed(matches)] + [_ref("SealedMatch")]  # summary first
        props["match"] = {"anyOf": match_refs, "nullable": True,
                          "description": props["match"].get("description", "")}
        if game.physical is None:
            del props["hands"]  # the engine refuses them (deal_invalid): it deals from a deck
        table_fields = game.physical.table_fields if game.physical else {}
        if table_fields:
            components[prefix + "Table"] = {
                "type": "object", "additionalProperties": False,
                "properties": {k: f.json_schema(accepts=True)
                               for k, f in table_fields.items()},
                **({"required": required} if (required := [
                    k for k, f in table_fields.items() if f.required]) else {}),
                "description": f"{name}: what lies face up on a physical table beside the "
                               "hands, and what the rules decided there at random (with a "
                               "deck: only that)"}
            props["table"] = {**_ref(prefix + "Table"), "nullable": True}
        else:
            del props["table"]  # the engine refuses one (deal_invalid): hands say it all
        components[prefix + "DealRequest"] = request
        requests.append(prefix + "DealRequest")
        replay = {**request, "properties": {
            "game": {"type": "string", "enum": [game.id], "description": "the game"},
            **{k: v for k, v in props.items() if k != "event_deal"}},  # ReplayDeal's exclude
            "required": ["game", *request.get("required", [])],
            "description": f"The deal of a replay of {name}"}
        components[prefix + "ReplayDeal"] = replay
        replays[game.id] = f"#/components/schemas/{prefix}ReplayDeal"
        summaries += [n for n in matches if n.endswith("Summary")]
    components["DealRequest"] = {"anyOf": [_ref(n) for n in requests],
                                 "description": DEAL_REQUEST_DESCRIPTION}
    components["ReplayDeal"] = {"oneOf": [{"$ref": r} for r in replays.values()],
                                "discriminator": {"propertyName": "game", "mapping": replays},
                                "description": REPLAY_DEAL_DESCRIPTION}
    components["MatchSummary"] = {"anyOf": [_ref(n) for n in summaries],
                                  "description": MATCH_SUMMARY_DESCRIPTION}
    return components


def _without_empty_required(node):
    """OpenAPI 3.0 wants `required` non-empty: an object whose fields are all optional says
    nothing instead."""
    if isinstance(node, list):
        return [_without_empty_required(x) for x in node]
    if not isinstance(node, dict):
        return node
    return {k: _without_empty_required(v) for k, v in node.items()
            if not (k == "required" and v == [])}


RECORD_DESCRIPTION = (
    "A whole match, written so anyone can re-check it move by move (docs/records.md): "
    "`<Game>MatchRecord`, chosen by `game`. A record carries no state, so it is the same in "
    "every trust mode: nothing in it is signed or sealed.")


def record_components(games: Iterable[Game]) -> dict[str, dict]:
    """`<Game>MatchRecord` per game (engine/records.py MatchRecord, with that game's options,
    match values, actions and table) and `MatchRecord`, oneOf them by `game`."""
    from engine.records import TAGS_SCHEMA, MatchRecord
    from engine.state import openapi_schema

    base = _without_empty_required(openapi_schema(MatchRecord))
    components: dict[str, dict] = {}
    mapping: dict[str, str] = {}
    for game in games:
        prefix = pascal(game.id)
        record = copy.deepcopy(base)
        props = record["properties"]
        props["game"] = {"type": "string", "enum": [game.id], "description": "the game"}
        props["options"] = {**_ref(prefix + "Options")}
        props["tags"] = copy.deepcopy(TAGS_SCHEMA)
        props["match"] = {"type": "object", "nullable": True, "additionalProperties": False,
                          "properties": {k: f.json_schema() for k, f in
                                         (game.match.fields if game.match else {}).items()},
                          "description": props["match"].get("description", "")}
        entry = props["deals"]["items"]["properties"]
        if game.actions:
            entry["actions"]["items"]["properties"]["action"] = _ref(prefix + "Action")
        dealt = entry["deal"]["properties"]
        if game.physical is not None and game.physical.table_fields:
            dealt["table"] = {**_ref(prefix + "Table"), "nullable": True}
        record["description"] = f"A match record of {game.names.get('en', game.id)}"
        components[prefix + "MatchRecord"] = record
        mapping[game.id] = f"#/components/schemas/{prefix}MatchRecord"
    components["MatchRecord"] = {"oneOf": [{"$ref": r} for r in mapping.values()],
                                 "discriminator": {"propertyName": "game", "mapping": mapping},
                                 "description": RECORD_DESCRIPTION}
    return components


EVENT_DOCUMENT = "EventDocument"
EVENT_DOCUMENT_DESCRIPTION = (
    "A tournament of any game as one document (docs/events.md), `card-referee/event` format 1: "
    "its entrants, its system, every round so far (seating, seed commitment, each table's "
    "result: a match record or a reported result) and the director's penalties. Like a match "
    "record it carries no state: it is the same in every trust mode.")
# The round end's kinds (engine/events/format.py DealsEnd, MatchEnd, TimeEnd) by their tag.
_ROUND_ENDS = {"deals": "EventDealsEnd", "match": "EventMatchEnd", "time": "EventTimeEnd"}


REPORTED_DEAL_DESCRIPTION = (
    "One deal as a table reports it without its moves, in its game's shape "
    "(`<Game>ReportedDeal`; docs/events.md \"Reported results\"), scored by the game's own code.")


def event_document_components(games: Iterable[Game]) -> dict[str, dict]:
    """`EventDocument`, the event document as engine/events/format.py declares it (the msgspec
    Structs), the one schema every event endpoint's request and answer names: its round end a
    oneOf of `EventDealsEnd`, `EventMatchEnd` and `EventTimeEnd` by `kind`, its `game` a
    `GameId`, a table's `record` a `MatchRecord`, a reported result's deals `ReportedDeal`s
    (anyOf each game's `<Game>ReportedDeal`, `Game.reported.deal`); and what the publishing
    endpoints answer, `EventStandings` and `EventCheck`."""
    from engine.events.format import DealsEnd, Event, MatchEnd, TimeEnd
    from engine.events.publish import EventCheck, EventStandings

    document = _without_empty_required(openapi_schema(Event, EVENT_DOCUMENT_DESCRIPTION))
    system = document["properties"]["system"]["properties"]
    system["round_end"] = {"oneOf": [_ref(n) for n in _ROUND_ENDS.values()],
                           "discriminator": {"propertyName": "kind", "mapping": {
                               kind: _ref(name)["$ref"] for kind, name in _ROUND_ENDS.items()}},
                           "description": "how a round ends"}
    system["game"] = _ref("GameId")
    result = (document["properties"]["rounds"]["items"]["properties"]["tables"]["items"]
              ["properties"]["result"])
    record = result["properties"]["record"]
    result["properties"]["record"] = {"allOf": [_ref("MatchRecord")], "nullable": True,
                                      "description": record.get("description", "")}
    deals = result["properties"]["reported"]["properties"]["deals"]
    deals["items"] = _ref("ReportedDeal")
    components = {EVENT_DOCUMENT: document}
    reported = []
    for game in games:
        if game.reported is not None:
            kind = game.reported.deal
            name = pascal(game.id) + "ReportedDeal"
            components[name] = _without_empty_required(openapi_schema(kind, kind.__doc__ or ""))
            reported.append(name)
    components["ReportedDeal"] = {"anyOf": [_ref(n) for n in reported],
                                  "description": REPORTED_DEAL_DESCRIPTION}
    # What the publishing endpoints answer (engine/events/publish.py, check.py), each whole.
    for answer in (EventStandings, EventCheck):
        components[answer.__name__] = _without_empty_required(
            openapi_schema(answer, answer.__doc__ or ""))
    for kind in (DealsEnd, MatchEnd, TimeEnd):
        name = _ROUND_ENDS[kind.__struct_config__.tag]  # type: ignore[index]
        components[name] = _without_empty_required(openapi_schema(kind, kind.__doc__ or ""))
    return components


class EventDocumentField(mf.Field):
    """An event document in a request: loaded as the raw object (the engine reads it against
    its declaration and names the path of a fault); documented as `EventDocument`."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, dict):
            raise ma.ValidationError("Not a valid object.")
        return value


class ActionField(mf.Field):
    """An action: loaded as the raw object (the engine parses it against the game's declared
    fields, exactly and fast); documented as the `Action` component."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, dict):
            raise ma.ValidationError("Not a valid object.")
        return value


def _only_games(field: mf.Field, game_ids) -> None:
    """`field` takes only these games' ids (the spec: their enum), when there are any."""
    if game_ids:
        field.validate = validate.OneOf(list(game_ids))
        field.validators = [field.validate]


# ------------------------------------------------------------------ the envelopes
# Every request and answer of the routes (service/api/), at module level; Schemas makes the
# instances the routes use, once per app.

def _value(**kw) -> mf.Raw:  # an option's value or an allowed one: JSON scalars, lists
    return mf.Raw(metadata={"anyOf": [{"type": "string"}, {"type": "integer"},
                                      {"type": "boolean"},
                                      {"type": "array", "items": {"type": "string"}}],
                            "nullable": True}, **kw)


class FieldInfo(ma.Schema):
    """A declared value, as GET /v1/games describes it (engine/fields.py Field)."""
    type = mf.String(required=True, metadata={"description": "its kind: cards, card, "
                     "suit, enum, int, bool, str, player, … (engine/fields.py)"})
    description = mf.String()
    allowed = List(_value())
    minimum = _int()
    maximum = _int()
    nullable = _bool()
    required = _bool(metadata={"description": "false: optional (absent: required)"})


class OptionInfo(FieldInfo):
    name = mf.String(required=True)
    default = _value(required=True)
    rule = mf.String()


class ReportedFieldInfo(FieldInfo):
    name = mf.String(required=True)


class ReportedDealInfo(ma.Schema):
    """A game's reported deal (engine/parts.py ReportedDeals), as a form asks for it."""
    fields = List(mf.Nested(ReportedFieldInfo), required=True, metadata={  # type: ignore[assignment]
        "description": "the fields of one deal's report, in order, as options are described "
                       "(`player` a seat id, `player_list` seat ids in order, `enum` and "
                       "`str_list_list` one of `allowed`, `bool`, `int_map` a number per side); "
                       "the spec's `<Game>ReportedDeal` is their exact shape"})
    sides = mf.Dict(keys=mf.String(), values=List(mf.String()), required=True, metadata={
        "description": "number of players -> the ids an `int_map` field is keyed by; a number "
                       "not listed: each seat's own id"})


class ActionInfo(ma.Schema):
    type = mf.String(required=True)
    description = mf.String(required=True)
    # the spec's `fields` property: marshmallow takes it as a declared field, though its stubs
    # see the name as Schema.fields (the instance's dict of fields)
    fields = mf.Dict(keys=mf.String(), values=mf.Nested(FieldInfo), required=True)  # type: ignore[assignment]
    rule = mf.String()
    referee_only = _bool(required=True)


class LookupInfo(ma.Schema):
    name = mf.String(required=True)
    summary = mf.String(required=True)


class DeckCard(ma.Schema):
    card = _card(required=True)
    copies = _int(required=True, metadata={"description": "how many of it the deck holds"})
    names = mf.Dict(keys=mf.String(), values=mf.String(), required=True, metadata={
        "description": "the card's name for people in each language (`en`, `ja`): the suit's "
                       "symbol and the rank (\"♠10\"), a joker in words"})


class DeckSetting(ma.Schema):
    options = mf.Dict(keys=mf.String(), values=_value(), required=True, metadata={
        "description": "the value of each of the deck's `options` this deck is dealt under"})
    size = _int(required=True, metadata={"description": "the number of cards, copies counted"})
    cards = List(mf.Nested(DeckCard), required=True, metadata={
        "description": "each distinct card once, in the order a table lays the deck out: by "
                       "suit (♠ ♥ ♦ ♣), each suit from its lowest rank to its highest in the "
                       "game's own order, jokers last"})


class DeckInfo(ma.Schema):
    options = List(mf.String(), required=True, metadata={
        "description": "the options whose value changes the deck (empty: the game has one deck)"})
    decks = List(mf.Nested(DeckSetting), required=True, metadata={
        "description": "the deck under every setting of those options (one entry when none)"})


class GameInfo(ma.Schema):
    id = mf.String(required=True)
    names = mf.Dict(keys=mf.String(), values=mf.String(), required=True)
    players = mf.Dict(keys=mf.String(), values=_int(), required=True)
    state_version = _int(required=True)
    zero_sum = _bool(required=True)
    presets = mf.Dict(keys=mf.String(), values=mf.Dict(keys=mf.String(), values=_value()),
                      required=True)
    options = List(mf.Nested(OptionInfo), required=True)
    actions = List(mf.Nested(ActionInfo), required=True)
    lookups = List(mf.Nested(LookupInfo), required=True)
    rules = mf.String(metadata={"description": "the game's rules page, whose numbers refusals cite"})
    refusals = mf.Dict(keys=mf.String(), values=mf.String(), metadata={
        "description": "every refusal code of the game -> the rule it cites"})
    deck = mf.Nested(DeckInfo, required=True, metadata={
        "description": "the cards a deal is dealt from, with their names for people: a "
                       "physical deal's cards are entered from it"})
    reported_deal = mf.Nested(ReportedDealInfo, required=True, allow_none=True, metadata={
        "description": "what a table without a referee reports of each deal at an event "
                       "(docs/events.md \"Reported results\"), its words in the negotiated "
                       "language; null: the game's tables report their places only"})

    def __init__(self, game_ids=(), **kwargs):
        super().__init__(**kwargs)
        _only_games(self.fields["id"], game_ids)


class GamesResponse(ma.Schema):
    games = List(mf.Nested(GameInfo), required=True)

    def __init__(self, game_ids=(), **kwargs):
        super().__init__(**kwargs)
        # its games' `id` one of these (the spec's enum): a GameInfo bound to them
        games = cast(mf.List, self.fields["games"])
        cast(mf.Nested, games.inner).nested = GameInfo(game_ids)


EVENT_ID_PATTERN = f"^{EVENT_ID.pattern}$"  # a hosted event's id, as the store makes it


class EventDeal(Strict):
    """One of a hosted event's committed same deals, named instead of a seed: the service deals
    it with the seed and salt it committed to (docs/hosted-events.md, "Same deals")."""
    event = mf.String(required=True, validate=validate.Regexp(EVENT_ID_PATTERN), metadata={
        "description": "the event's id"})
    round = _int(required=True, validate=validate.Range(min=1, max=MAX_ROUNDS), metadata={
        "description": "the round (from 1)"})
    deal = _int(required=True, validate=validate.Range(min=1, max=MAX_SAME_DEALS), metadata={
        "description": "the same deal's number (from 1, at most the event's `same_deals`)"})


class DealRequest(Strict):
    players = List(mf.String(), required=True, validate=validate.Length(min=1, max=16),
                      metadata={"description": "player ids in seat order"})
    options = mf.Dict(keys=mf.String(), metadata={"description": "`preset` and named options"})
    seed = mf.String(validate=validate.Length(min=1, max=256),
                     metadata={"description": "omit to let the server draw one"})
    seed_salt = mf.String(validate=validate.Regexp("^[0-9a-f]{32}$"), metadata={
        "description": "the salt of the seed commitment, 32 lowercase hex digits: omit "
                       "to let the server draw one (always, but to replay a recorded "
                       "deal's commitment exactly; a referee act, like `seed`)"})
    dealer = mf.String(allow_none=True, metadata={
        "description": "who deals, for games with a dealer: a named dealer wins; "
                       "omitted, the match's dealer, else the game's first dealer "
                       "(its rules page: the first seat, or Manillen's cut from the "
                       "seed, A5)"})
    match = MatchField(allow_none=True)
    deck = List(_card(), allow_none=True,
                   metadata={"description": "an explicit deck, top card first (physical "
                             "deals); replaces the shuffle. What the rules decide at "
                             "random comes from `table`; without a seed, later "
                             "shuffles follow from the deck's order"})
    hands = mf.Dict(keys=mf.String(), values=List(_card()), allow_none=True,
                    metadata={"description": "each seat's cards, exactly (games that "
                              "accept hands: a physical table or a recorded game)"})
    table = mf.Dict(keys=mf.String(), allow_none=True,
                    metadata={"description": "with hands or a deck: what else lies "
                              "face up and what the rules decided at random (the "
                              "game's `<Game>Table`)"})
    event_deal = mf.Nested(EventDeal, allow_none=True, metadata={
        "description": "a hosted event's committed same deal, dealt with the seed and salt "
                       "the round committed to, as if the service had drawn them (not a "
                       "referee act): needs the event's table token of that round or its "
                       "director token in X-Event-Token; not with `seed`, `seed_salt`, "
                       "`deck`, `hands` or `table` (422 event_deal_conflict)"})


class ReplayDeal(DealRequest):
    game = mf.String(required=True)

    class Meta(Strict.Meta):
        # a replay deals from a record, whose deals carry their seeds: no event to look up
        exclude = ("event_deal",)


class Lineage(ma.Schema):
    """The match whose totals an answer shows (signing or sealing on)."""
    match_id = mf.String(required=True, metadata={"description": "made at the match's "
                         "first deal; every deal of the match carries it"})
    deal = _int(required=True, metadata={"description": "this deal's number in the "
                "match (1: its first)"})
    provenance = mf.String(required=True, validate=validate.OneOf(["server", "referee"]),
                           metadata={"description": "`referee` only while every deal "
                                     "of the match was dealt with the referee key; "
                                     "`server`: anyone could have played every seat "
                                     "of some deal of it, so its totals prove nothing"})


def _lineage_field() -> mf.Nested:
    return mf.Nested(Lineage, metadata={
        "description": "signing or sealing on: the match this deal belongs to"})


class DealResponse(ma.Schema):
    lineage = _lineage_field()
    state = StateField(required=True)
    to_act = List(mf.String(), required=True)
    seed_commitment = mf.String(required=True, metadata={
        "description": "SHA-256 over the seed and a random salt (engine/rng.py "
                       "`commitment`): both are revealed when the deal ends; "
                       "`card-referee verify-seed SEED COMMITMENT --salt SALT` checks them"})
    status = RefField("Status", required=True)
    game_id = mf.String(metadata={"description": "the game id the state is bound to "
                                  "(signing or sealing on)"})
    seat_tokens = mf.Dict(keys=mf.String(), values=mf.String(), metadata={
        "description": "sealing on: each seat's token, for the X-Seat-Token header; "
                       "the deal's caller hands each player their own"})
    host_token = mf.String(metadata={
        "description": "sealing on: the match's host token, for the X-Host-Token "
                       "header: dealing the match's next deal from its next_match "
                       "needs it (or the referee key); the host keeps it"})


class GameTyped(Strict):
    """A request that may name its state's game: `game`, one of the games the envelopes are
    built for (Schemas: bound at construction, `game_ids`)."""

    game = mf.String(metadata={"description": "the state's game (optional; 422 game_mismatch "
                                              "when another): it types the request "
                                              "(`<Game>ValidateRequest`)"})

    def __init__(self, game_ids=(), **kwargs):
        super().__init__(**kwargs)
        self.game_ids = list(game_ids)
        _only_games(self.fields["game"], self.game_ids)


class ValidateRequest(GameTyped):
    state = StateField(required=True)
    action = ActionField(required=True)

    def quick_load(self, data):
        """What `load` returns for a body already in shape (exactly these two keys,
        the state an object or a sealed string, the action an object; or these and
        a known `game`), without marshmallow's per-field machinery (~10 µs of
        /v1/validate); None otherwise, and `load` words what is wrong."""
        if type(data) is dict and 2 <= len(data) <= 3:
            state, action = data.get("state"), data.get("action")
            if type(action) is dict and type(state) in (dict, str):
                if len(data) == 2:
                    return {"state": state, "action": action}
                if data.get("game") in self.game_ids:
                    return {"game": data["game"], "state": state, "action": action}
        return None


# The two answers of /v1/validate, a `oneOf` told apart by `valid` (true: every field
# of an accepted action present; false: the refusal): generated clients narrow on it.
class ValidateAccepted(ma.Schema):
    lineage = _lineage_field()
    valid = _bool(required=True, validate=validate.OneOf([True]))
    state = StateField(required=True)
    score_deltas = List(mf.Nested(ScoreDeltaSchema), required=True)
    events = List(EventField(), required=True)
    to_act = List(mf.String(), required=True)
    status = RefField("Status", required=True)
    seed = mf.String(metadata={"description": "once finished: the deal's seed, revealed "
                               "(check it against the deal's seed_commitment)"})
    seed_salt = mf.String(allow_none=True, metadata={
        "description": "once finished: the salt of the deal's seed_commitment, revealed "
                       "with the seed; null for a deal made before commitments were "
                       "salted (its commitment is the seed's bare SHA-256)"})
    next_match = MatchField(metadata={"description": "once finished: the next deal's "
                                      "`match`, signed or sealed"})
    view = RefField("View", metadata={"description": "sealing on: the acting seat's "
                                      "view of the next state"})


class ValidateRefused(ma.Schema):
    valid = _bool(required=True, validate=validate.OneOf([False]))
    error = RefusalField(required=True)
    state = StateField(required=True, metadata={"description": "the state as posted, "
                                                "unchanged"})


class ViewRequest(GameTyped):
    state = StateField(required=True)
    player = mf.String(required=True, allow_none=True)


class LegalActionsRequest(ViewRequest):
    types = List(mf.String(), metadata={"description": "only these action types"})
    cards = List(_card(), validate=validate.Length(min=1),
                 metadata={"description": CARDS_FILTER})
    combinations = List(mf.String(), validate=validate.Length(min=1), metadata={
        "description": "only the plays read as one of these kinds of combination (games "
                       "that name their combinations: `<Game>LegalActionsRequest`)"})


class LegalActionsResponse(ma.Schema):
    actions = List(ActionField(), required=True)
    count = _int(required=True)


class ViewResponse(ma.Schema):
    lineage = _lineage_field()
    view = RefField("SeenView", required=True, metadata={
        "description": "the state as that player may see it (`referee`, with the "
                       "referee key: everything, RefereeView)"})


class ReplayRequest(Strict):
    deal = ReplayDealField(ReplayDeal(), required=True)
    actions = List(ActionField(), required=True)
    views_for = mf.String(allow_none=True, metadata={
        "description": "scrubbing through a game: whose view of each state to answer (the "
                       "dealt state's in `initial_view`, each step's in its `view`), exactly "
                       "what /v1/view answers for it: a seat's id, null for a spectator, "
                       "`referee` with the referee key for the RefereeView; omitted, no "
                       "views. Under sealing the replay hands its caller every seat's token, "
                       "so any seat's view is the caller's to ask for"})


class ReplayStep(ma.Schema):
    index = _int(required=True)
    game = RefField("GameId", required=True, metadata={"description": "the replay's game"})
    action = ActionField(required=True)
    score_deltas = List(mf.Nested(ScoreDeltaSchema), required=True)
    events = List(EventField(), required=True)
    to_act = List(mf.String(), required=True)
    status = RefField("Status", required=True)
    view = RefField("SeenView", metadata={
        "description": "with `views_for`: the state after this step as that viewer sees it"})


class ReplayStop(ma.Schema):
    index = _int(required=True)
    action = ActionField(required=True, metadata={"description": "the refused "
                         "action, as posted"})
    error = RefusalField(required=True)


class ReplayResponse(ma.Schema):
    lineage = _lineage_field()
    seed_commitment = mf.String(required=True)
    initial_state = StateField(required=True)
    initial_view = RefField("SeenView", metadata={
        "description": "with `views_for`: the dealt state as that viewer sees it"})
    steps = List(mf.Nested(ReplayStep), required=True)
    state = StateField(required=True)
    totals = mf.Dict(keys=mf.String(), values=_int(), required=True)
    status = RefField("Status", required=True)
    to_act = List(mf.String(), required=True)
    stopped = mf.Nested(ReplayStop, required=True, allow_none=True, metadata={
        "description": "the first refused action (null: every action was taken)"})
    next_match = MatchField(required=True, allow_none=True)
    seat_tokens = mf.Dict(keys=mf.String(), values=mf.String())
    host_token = mf.String(metadata={
        "description": "sealing on: the match's host token (X-Host-Token), as a "
                       "deal answers it"})


class RecordDeal(ma.Schema):
    index = _int(required=True, metadata={"description": "the deal's index in the record (0: first)"})
    seed_commitment = mf.String(required=True, allow_none=True, metadata={
        "description": "the commitment the deal's seed and salt make (null: dealt "
                       "from the cards without a seed)"})
    commitment_checked = _bool(required=True, metadata={
        "description": "the record gave a seed_commitment and it matches"})
    status = RefField("Status", required=True)
    actions = _int(required=True, metadata={"description": "actions taken (up to a "
                   "discrepancy in this deal: those before it)"})
    totals = mf.Dict(keys=mf.String(), values=_int(), required=True, metadata={
        "description": "the deal's score deltas summed per target"})
    next_match = MatchField(required=True, allow_none=True, metadata={
        "description": "once finished: the match summary the next deal is dealt with "
                       "(values, never signed or sealed)"})
    match_over = _bool(required=True, metadata={
        "description": "the match ended with this deal"})


class Discrepancy(ma.Schema):
    deal = _int(required=True, allow_none=True, metadata={
        "description": "the deal's index (null: the record as a whole)"})
    step = _int(required=True, allow_none=True, metadata={
        "description": "the action's index in its deal (null: the deal itself)"})
    code = mf.String(required=True, validate=validate.OneOf(DISCREPANCY_CODES))
    message = mf.String(required=True, metadata={"description": "in the negotiated language"})
    rule = mf.String(metadata={"description": "the rule broken, as a refusal cites it"})
    refusal = RefusalField(metadata={"description": "action_refused: the engine's refusal"})
    recorded = mf.Raw(required=True, allow_none=True, metadata={
        "description": "what the record says"})
    engine = mf.Raw(required=True, allow_none=True, metadata={
        "description": "what the engine makes of it"})


class RecordCheckResponse(ma.Schema):
    consistent = _bool(required=True, metadata={"description": "no discrepancy"})
    digest = mf.String(required=True, metadata={
        "description": "\"sha256:\" + hex SHA-256 of the record's canonical form "
                       "without `digest` (docs/records.md)"})
    digest_matches = _bool(required=True, allow_none=True, metadata={
        "description": "whether the digest the record carries is its digest (null: it "
                       "carries none)"})
    game = RefField("GameId", required=True)
    format_version = _int(required=True)
    deals = List(mf.Nested(RecordDeal), required=True, metadata={
        "description": "every deal checked, up to the discrepancy's"})
    totals = mf.Dict(keys=mf.String(), values=_int(), required=True, metadata={
        "description": "the deals' totals summed"})
    match_finished = _bool(required=True)
    discrepancy = mf.Nested(Discrepancy, required=True, allow_none=True, metadata={
        "description": "the first one found (null: the record is consistent)"})


class VerifyDealRequest(Strict):
    game = mf.String(required=True, metadata={"description": "a game's id"})
    players = List(mf.String(), required=True, validate=validate.Length(min=1, max=16),
                      metadata={"description": "player ids in seat order"})
    options = mf.Dict(keys=mf.String(), metadata={"description": "`preset` and named options"})
    seed = mf.String(required=True, validate=validate.Length(min=1, max=256),
                     metadata={"description": "the seed revealed when the deal ended"})
    seed_salt = mf.String(allow_none=True, validate=validate.Regexp("^[0-9a-fA-F]{32}$"),
                          metadata={"description": "the salt revealed with it; omit "
                                    "(or null) for a deal made before commitments were "
                                    "salted"})
    seed_commitment = mf.String(required=True, validate=validate.Length(max=128),
                                metadata={"description": "the commitment published "
                                          "before play (hex)"})
    match = mf.Dict(allow_none=True, metadata={
        "description": "the deal's match values (a later deal of a match: who deals "
                       "decides who gets which cards)"})
    dealer = mf.String(allow_none=True)


_ROUND_SEED = {"description": "the round's seed: keep it secret until the round is over"}
_ROUND_SALT = {"description": "its commitment's salt, 32 lowercase hex digits, kept secret with "
                              "the seed; omit (or null) only for a seed nobody could guess: the "
                              "commitment is then the bare SHA-256 of the seed"}


class EventPlan(Strict):
    """A fixed round's seating as the director plans it."""
    tables = List(List(mf.String(), validate=validate.Length(max=MAX_TABLE)), required=True,
                  validate=validate.Length(max=MAX_ENTRANTS), metadata={
                      "description": "each table's entrants in seat order (fixed teams: side "
                                     "order)"})
    byes = List(mf.String(), validate=validate.Length(max=MAX_TABLE),
                metadata={"description": "entrants given a bye"})


class EventNextRoundRequest(Strict):
    event = EventDocumentField(required=True)
    seed = mf.String(required=True, validate=validate.Length(min=1, max=256),
                     metadata=_ROUND_SEED)
    seed_salt = mf.String(allow_none=True, validate=validate.Regexp("^[0-9a-f]{32}$"),
                          metadata=_ROUND_SALT)
    method = mf.String(validate=validate.OneOf(SEATING_METHODS), metadata={
        "description": "how to seat the round: the system's `seating` unless given (`fixed` "
                       "when a plan is)"})
    plan = mf.Nested(EventPlan, metadata={"description": "a fixed round's seating"})


class EventRevealRoundRequest(Strict):
    event = EventDocumentField(required=True)
    round = _int(required=True, validate=validate.Range(min=1, max=MAX_ROUNDS), metadata={
        "description": "the round (from 1) whose seed is revealed"})
    seed = mf.String(required=True, validate=validate.Length(min=1, max=256),
                     metadata={"description": "the seed the round was seated with"})
    seed_salt = mf.String(allow_none=True, validate=validate.Regexp("^[0-9a-f]{32}$"),
                          metadata={"description": "the salt it was committed with (omit: "
                                                   "it was committed without one)"})


class VerifyDealResponse(ma.Schema):
    matches = _bool(required=True, metadata={
        "description": "the seed and salt make the commitment"})
    seed_commitment = mf.String(required=True, metadata={
        "description": "the commitment they make"})
    hands = mf.Dict(keys=mf.String(), values=List(mf.String()), required=True,
                    metadata={"description": "each seat's cards as that seed deals them"})
    face_up = RefField("View", required=True, metadata={
        "description": "the deal as a spectator sees it: whatever lies face up"})
    to_act = List(mf.String(), required=True)


class Health(ma.Schema):
    status = mf.String(required=True)


class ClusterState(ma.Schema):
    state = mf.String(required=True, metadata={
        "description": "`ok`, or `fail` while a slot has no reachable master (Redis's "
                       "own `cluster_state`)"})
    masters = _int(required=True, metadata={"description": "masters serving slots"})
    replicas = _int(required=True, metadata={"description": "replicas following them"})


class CacheState(ma.Schema):
    backend = mf.String(required=True, validate=validate.OneOf(["redis", "memory"]))
    redis = mf.String(required=True,
                      validate=validate.OneOf(["ok", "down", "not_configured"]))
    ready = _bool(required=True, metadata={
        "description": "the cache answers (Redis up, or no Redis configured)"})
    cluster = mf.Nested(ClusterState, metadata={
        "description": "on a Redis Cluster, as one of its nodes sees it "
                       "(docs/operations.md)"})


class RedisInUse(ma.Schema):
    kind = mf.String(required=True, validate=validate.OneOf(["embedded", "configured", "none"]),
                     metadata={"description": "`embedded`: the Redis `card-referee serve` "
                               "started itself (no CARDREF_REDIS_URL); `configured`: the one "
                               "CARDREF_REDIS_URL names; `none`: no Redis"})
    data_dir = mf.String(metadata={
        "description": "embedded: the folder its append-only file is kept in (a backup is a "
                       "copy of it; docs/operations.md)"})


class Ready(ma.Schema):
    status = mf.String(required=True, validate=validate.OneOf(["ready", "degraded"]))
    engine_version = mf.String(required=True)
    cache = mf.Nested(CacheState, required=True)
    redis = mf.Nested(RedisInUse, required=True)
    signing = mf.String(required=True, validate=validate.OneOf(["enabled", "disabled"]))
    sealing = mf.String(required=True, validate=validate.OneOf(["enabled", "disabled"]))
    sequence = mf.String(required=True, validate=validate.OneOf(["stateless", "strict"]))
    sequence_durability = mf.String(
        validate=validate.OneOf(["aof", "rdb_only", "none", "unknown"]),
        metadata={"description": "strict sequencing: what its Redis keeps across a "
                  "restart — `aof` (append-only file), `rdb_only` (snapshots: a restart "
                  "rolls games back to the last one), `none`, or `unknown` (CONFIG "
                  "disabled, or Redis not answering); with CARDREF_SEQUENCE_REQUIRE_AOF "
                  "anything but `aof` is not ready (503)"})
    games = List(mf.String(), required=True)


class Schemas:
    """Every schema instance the routes use, built once per app from the registered games
    (instances, not classes: webargs would rebuild a class on every request)."""

    def __init__(self, games: list[Game]):
        game_ids = [g.id for g in games]
        self.games_response = GamesResponse(game_ids)
        self.deal_request = DealRequest()
        self.deal_response = DealResponse()
        self.validate_request = ValidateRequest(game_ids)
        self.validate_accepted = ValidateAccepted()
        self.validate_refused = ValidateRefused()
        self.legal_actions_request = LegalActionsRequest(game_ids)
        self.legal_actions_response = LegalActionsResponse()
        self.view_request = ViewRequest(game_ids)
        self.view_response = ViewResponse()
        self.replay_request = ReplayRequest()
        self.replay_response = ReplayResponse()
        self.record_check_response = RecordCheckResponse()
        self.verify_deal_request = VerifyDealRequest()
        self.verify_deal_response = VerifyDealResponse()
        self.event_next_round_request = EventNextRoundRequest()
        self.event_reveal_round_request = EventRevealRoundRequest()
        self.health = Health()
        self.ready = Ready()
        self.problem = ProblemSchema()
