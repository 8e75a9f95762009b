"""The one small interface every game implements, and the types that cross it.

A game is a state machine of explicit operations (after PokerKit): `deal` makes the first state,
`apply` takes a state and one parsed action and either returns a Transition or raises a Refusal
that names the rule broken. States are the game's own immutable-by-convention objects inside the
engine; `encode`/`decode` turn them into the JSON the API carries (decode checks the invariants
that matter, so a hand-edited state cannot crash a rule check).
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence  # not typing's: isinstance through it costs ~1 µs
from typing import Any, Callable, ClassVar, Generic, cast

import msgspec

from .errors import (  # noqa: F401 (the error classes are re-exported)
    InputError,
    InvalidAction,
    InvalidDeal,
    InvalidOptions,
    InvalidState,
    shown,
)
from .fields import ActionType, EventType, Field, FieldError, Option, in_language, parse_fields
from .state import GameState, check_ledger, decode_state, decode_trusted_state, encode_state, openapi_schema
from .values import (  # noqa: F401
    FINISHED,
    IN_PROGRESS,
    Action,
    DealSetup,
    Event,
    Lookup,
    Refusal,
    S,
    ScoreDelta,
    Transition,
    number_out_of_range,
)

# (the values that cross the interface live in engine/values.py; re-exported here for the
# service, which imports them from this module)

# ---------------------------------------------------------------- the interface

# The keys every action carries besides its declared fields (`game` is optional on input).
ACTION_ENVELOPE = frozenset({"type", "player", "game"})


class Game(ABC, Generic[S]):
    """One card game's rules, as the engine adjudicates them. Subclass it once per game, in the
    game's package `engine/games/<id>/` (engine/games/__init__.py), and expose one instance as
    the package's `GAME`: the registry finds it (engine/registry.py). The engine adds what every
    game has (the referee's ledger: engine/features.py); a game declares only its own rules.

    What a game declares, as class attributes, in six groups (only the first has no default):

    1. **Who it is**: `id` (its package's name), `names`, `min_players`/`max_players`,
       `rules_doc`.
    2. **Its published contract** (GET /v1/games and openapi.yaml publish every one of these,
       and the tests check every answer against them): `options` and `presets`; `actions`
       (what `apply` accepts, shape only); `events` (every event type `apply` reports);
       `lookups` (questions besides adjudication); `refusals`, `refusal_details` and
       `input_errors` (every code it answers, with the rule it cites); its state (`state_type`,
       `state_version`; `state_schema` derives from it) and its view (`view_type`;
       `view_schema` derives from it); `zero_sum`; `team_ids`; `combinations` and
       `combination_path` (what kinds of combination its plays are, for the legal-actions
       filter).
    3. **Its match** (optional): `match_fields`, what a deal request's `match` may carry (the
       previous deal's `next_match` given back). Empty: every deal stands alone.
    4. **Physical deals** (optional): `accepts_hands` and `table_fields`, for a referee entering
       the cards of a real table.
    5. **Its referee's rules** (optional): `penalty_kind`, the unit a penalty counts in, and
       `sanctions`, the refused acts referee mode sanctions instead (engine/referee.py).
    6. **Costs** (optional): `legal_actions_cacheable` (and then `legal_actions_of_cards`).

    What it implements: the five operations `deal`, `apply`, `legal_actions`, `to_act` and
    `view` (abstract below), and `invariants` when its state can be inconsistent in ways its
    declared types cannot say. Every other method has a default that fits most games; override
    one only for what its docstring describes.

    What it must guarantee (the tests check it over random play-outs):
    - Every method is pure and deterministic: no I/O, no clock, no global state that changes
      an answer (memo caches are fine); the same state and action always give the same
      answer (randomness only through `setup.seed`, engine/rng.py). States are never
      mutated: `apply` returns a new one.
    - Every action `legal_actions(state, p)` lists, `apply` accepts; `to_act(state)` names
      the players who may act now.
    - `apply` either returns a Transition or raises a Refusal whose code is in `refusals`,
      whose details fit `refusal_details[code]`; it never raises anything else on an action
      `parse_action` accepted. Events are declared in `events`; with `zero_sum`, the deltas of
      one action sum to 0.
    - `encode(decode(x)) == x` for every state it answered, and `decode` refuses (with
      InvalidState and a path) JSON that is no consistent state, rather than let a rule check
      crash on it later.
    - `view(state, p)` shows `p` nothing it may not see (another seat's hand, the stock's
      order, the seed); `public_to_act` reads only what every seat may see.
    """

    # -- 1. who it is (required) -------------------------------------------------------------
    id: ClassVar[str]  # the game's id: its package's name under engine/games/
    names: ClassVar[Mapping[str, str]]  # {"en": ..., "ja": ...}
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    rules_doc: ClassVar[str] = ""  # path of the product's rules page, e.g. "docs/rules/man.md"

    # -- 2. its published contract ----------------------------------------------------------
    options: ClassVar[Sequence[Option]] = ()
    presets: ClassVar[Mapping[str, Mapping[str, Any]]] = {}  # name -> option values
    # Every action type `apply` accepts: its fields (shape only; legality is apply's).
    # (actions, events and match_fields: per instance too, as the engine's features add to them)
    actions: Sequence[ActionType] = ()
    # Every event type the game reports (engine/fields.py EventType): the spec publishes them.
    events: Sequence[EventType] = ()
    lookups: ClassVar[Sequence[Lookup]] = ()
    # Every refusal code the game answers, with the rule it cites ("man 3.1"): clients and
    # referees map codes to rules from GET /v1/games without parsing messages.
    refusals: ClassVar[Mapping[str, str]] = {}
    # Each of those codes' `details`, declared (engine/fields.py refusal_details: by default
    # the fill values of its messages): the spec publishes one refusal model per code, and the
    # tests check every refusal the engine answers against it. Same keys as `refusals`.
    refusal_details: ClassVar[Mapping[str, Mapping[str, Field]]] = {}
    # Every code of an InputError (HTTP 422) the game raises beyond the engine's own
    # (state_invalid, action_invalid, options_invalid, deal_invalid, ...), with the rule it
    # cites: the service publishes them as problem codes (spec and docs), and counts them.
    input_errors: ClassVar[Mapping[str, str]] = {}
    # The game's state, declared once (engine/state.py): decode, decode_trusted, encode and
    # state_schema all derive from it. A game that declares none implements those itself.
    state_type: ClassVar[type[GameState] | None] = None
    state_version: ClassVar[int] = 1  # bumped whenever the state's JSON changes
    # The exact JSON shape of `encode`'s output (OpenAPI 3.0); the spec publishes it so
    # generated clients know every field. Derived from state_type when the game declares one.
    state_schema: ClassVar[Mapping[str, Any]] = {}
    # What `view` answers, declared once as a Struct tagged with the game (engine/state.py
    # view_of, view_struct): a seat's view and the spectator's (viewer null) alike. The spec
    # publishes it as `<Game>View`; the tests check every view of random deals against it.
    view_type: ClassVar[type[msgspec.Struct] | None] = None
    view_schema: ClassVar[Mapping[str, Any]] = {}  # derived from view_type
    # The game's own score deltas of one action sum to 0. The referee's penalties never do
    # (engine/referee.py: paid to nobody), whatever the game.
    zero_sum: ClassVar[bool] = True
    # The ids a game names its teams by (score targets, match values, sheet columns): no seat
    # may be named so, nor look like one (engine/adjudicate.py check_players).
    team_ids: ClassVar[tuple[str, ...]] = ()
    # The kinds of combination the game's plays are read as, and where a listed action says
    # which: the keys into its fields (Guandan: ("reading", "type")). A legal-actions request
    # may ask for some kinds only (`combinations`, engine/filters.py); the spec publishes the
    # kinds. Empty: the game names none, and that filter is refused.
    combinations: ClassVar[tuple[str, ...]] = ()
    combination_path: ClassVar[tuple[str, ...]] = ()

    # -- 3. its match (optional) --------------------------------------------------------------
    match_fields: Mapping[str, Field] = {}  # what `match` of a deal request may carry

    # -- 4. physical deals (optional) -------------------------------------------------------
    accepts_hands: ClassVar[bool] = False  # deal requests may give each seat's cards (DealSetup.hands)
    # With hands, what else a physical deal puts face up that the game must be told, and what
    # its rules decide at random (a deal request's `table`; the spec publishes `<Game>Table`);
    # with a deck, only the latter. Empty: the cards alone say it all.
    table_fields: ClassVar[Mapping[str, Field]] = {}

    # -- 5. its referee's rules (optional) ----------------------------------------------------
    # The unit a referee's penalty is counted in (engine/referee.py): the `kind` of its score
    # delta — points, level, penalty (counts against by growing) or rank.
    penalty_kind: ClassVar[str] = "points"
    # Referee mode (option `violations`: `referee`, engine/referee.py): the refusal codes whose
    # act is recorded and sanctioned instead of refused, each with its sanction (listed on the
    # rules page with its source). Empty: every refusal stays a refusal.
    sanctions: ClassVar[Mapping[str, Any]] = {}  # code -> engine/referee.py Sanction

    # -- 6. costs (optional) ------------------------------------------------------------------
    # True when enumerating legal actions costs more than a shared-cache round trip (Guandan's
    # thousands of plays); the service then caches enumerations. Cheap games recompute.
    legal_actions_cacheable: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # The published schemas of a declared state and view, derived once. (What every game
        # gets from the engine's features, the referee's ledger among them, is composed at
        # registration: engine/features.py.)
        kind = cls.__dict__.get("state_type")
        if kind is not None and "state_schema" not in cls.__dict__:
            cls.state_schema = openapi_schema(
                kind, f"A state of {cls.__dict__.get('names', {}).get('en', cls.id)} "
                      f"({cls.rules_doc or 'docs/rules/'})")
        seen = cls.__dict__.get("view_type")
        if seen is not None and "view_schema" not in cls.__dict__:
            cls.view_schema = openapi_schema(
                seen, f"What a seat of {cls.__dict__.get('names', {}).get('en', cls.id)} may "
                      "see (`viewer`; null: a spectator, who sees only public cards)")

    # -- the five operations every game implements -----------------------------------------
    @abstractmethod
    def deal(self, setup: DealSetup) -> S:
        """The first state of a deal. `setup` is already checked by the engine (seats,
        options resolved, the match given back, a physical deal's deck or hands and table):
        shuffle only through `setup.seed` (engine/rng.py), so the same setup always deals the
        same cards; with `setup.physical`, take what the rules decide at random from
        `setup.table` or the cards, never the seed. Raise InvalidDeal (with a path) for what
        only the game can check (a match that cannot be, hands of the wrong size)."""

    @abstractmethod
    def apply(self, state: S, action: Action) -> Transition[S]:
        """What a legal action does: the next state (a new one; `state` is never changed),
        the score deltas and the events (each of a type declared in `events`). `action` has
        the shape its ActionType declares (parse_action checked it) and a seated `player`;
        whether it is legal now is this method's business: if not, raise Refusal with a code
        of `refusals` (the messages in both languages, the rule it breaks). Referee mode,
        the ledger's actions and the check on number bounds are the engine's (adjudicate),
        not the game's."""

    @abstractmethod
    def legal_actions(self, state: S, player: str) -> list[Action]:
        """Every action `player` may legally take now, each one `apply` accepts: clients
        offer these, and the tests play random games from them."""

    @abstractmethod
    def to_act(self, state: S) -> list[str]:
        """Players who may act now (several during races and out-of-turn windows)."""

    @abstractmethod
    def view(self, state: S, player: str | None) -> dict[str, Any]:
        """The state as `player` may see it (None: a spectator, who sees only public cards):
        an instance of `view_type` as JSON when the game declares one. Never another seat's
        hidden cards, the order of an unseen stock or the seed."""

    # -- its state (derived from state_type; `invariants` is the game's) ---------------------
    def invariants(self, state: S) -> None:
        """What the declared types cannot say (every card exactly once, ids in range, phase
        consistency): raise InvalidState with the offending path."""

    def decode(self, data: Mapping[str, Any]) -> S:
        """A state from its JSON; raise InvalidState (with a path) on anything inconsistent."""
        # S is the game's state_type (a class variable, which a type cannot be tied to)
        invariants = cast(Callable[[GameState], None], self.invariants)
        state = decode_state(cast(type[GameState], self.state_type), data, invariants)
        if isinstance(state, GameState):
            check_ledger(state.referee_ledger, state.players)
        return cast(S, state)

    def decode_trusted(self, data: Mapping[str, Any]) -> S:
        """A state this engine itself encoded, proven by a verified signature: the declared
        types are still enforced (at C speed), the invariants are not re-checked. A game that
        declares no state_type decodes fully."""
        if self.state_type is None:
            return self.decode(data)
        return cast(S, decode_trusted_state(self.state_type, data))

    def encode(self, state: S) -> dict[str, Any]:
        """The JSON of a state: only JSON-native types, so it survives a round trip unchanged.
        Includes game, version, options, players, phase and status."""
        return encode_state(cast(GameState, state))

    def status(self, state: S) -> str:
        """IN_PROGRESS or FINISHED: every GameState carries it (engine/state.py)."""
        return cast(GameState, state).status

    # -- optional: override only what the docstring describes ------------------------------
    def public_to_act(self, state: S) -> list[str]:
        """Who may act now as far as the table can see: computed only from what every seat may
        see (the public part of the state), never from a hidden hand. Sealed answers carry it
        (README "Security model"), so an answer never tells one seat another's cards. The
        default is `to_act`, for games whose `to_act` is public already; a game whose `to_act`
        reads a hidden hand overrides this (Man: who could man the top card)."""
        return self.to_act(state)

    def next_match(self, state: S) -> dict[str, Any] | None:
        """A finished deal's match summary: what the next deal's request passes as `match` (the
        service signs or seals it, so any client may pass it on). The default is the state's
        own `next_match` field, when it declares one."""
        summary = getattr(state, "next_match", None)
        return None if summary is None else msgspec.to_builtins(summary)

    def count_penalty(self, state: S, player: str, delta: int, reason: str) -> Transition[S]:
        """A referee's penalty against `player` (or its withdrawal: the opposite `delta`),
        `delta` already signed in the game's unit (engine/referee.py penalty_sign), counted in
        the game's own match standing: what `next_match` carries and what decides the match's
        end. Returns the state so changed, the score deltas that say it (in penalty_kind, to
        whoever holds the standing: a seat, or its team) and any events (a player reaching a
        limit …). The default: a game with no standing of its own answers one delta against
        the seat and leaves the state as it is."""
        return Transition(state, (ScoreDelta(player, self.penalty_kind, delta, reason),))

    def sanction_effect(self, state: S, action: Action, refusal: Refusal,
                        sanction: Any) -> Transition[S]:
        """The game's own consequence of a sanctioned act (a `sanctions` entry, engine/referee.py
        Sanction, whose effect is
        not taken_back): the engine then records the irregularity and the ledger entry."""
        raise NotImplementedError(f"{self.id} declares the sanction effect {sanction.effect!r} "
                                  "but does not carry it out")

    def legal_actions_of_cards(self, state: S, player: str,
                               cards: tuple[str, ...]) -> list[Action] | None:
        """The legal actions of `player` that name exactly `cards` (a multiset: canonical,
        sorted), each listed exactly as `legal_actions` lists it and in its order: a
        legal-actions request's `cards` filter (engine/filters.py), a front end's "tap cards,
        see the plays they make". None, the default: the engine lists every legal action and
        keeps those. A game whose enumeration is costly (`legal_actions_cacheable`) answers it
        from the picked cards alone, which is what keeps that request small and fast."""
        return None

    def referee_legal_actions(self, state: S) -> list[Action] | None:
        """The game's own referee-only acts the referee may post now (Guandan's void hand and
        forfeit), each naming its seat; None: those the seats' legal_actions list (the
        default, engine/referee.py legal_actions)."""
        return None

    def names_unseen_draw(self, state_json: Mapping[str, Any],
                          action_json: Mapping[str, Any]) -> bool:
        """Whether the posted action names cards taken from a stock whose order nobody knows
        (a physical deal: Man's drawn and turned cards, 3.10; Manteur's cards received and
        dealt, B.6). The engine refuses a named card that lies elsewhere (it knows every hand
        as the referee entered it), so under sealing such an act is the referee's
        (adjudicate.is_referee_act): a seat naming its own draws could otherwise learn which
        unseen cards are out of the stock (docs/security.md, "Physical deals").
        Runs on every sealed /v1/validate before anything is decoded: read only the few
        fields needed from the JSON as posted, and answer False for anything malformed
        (validate words what is wrong). The default: the game never names drawn cards."""
        return False

    def sheet_columns(self, players: Sequence[str],
                      names: Mapping[str, str]) -> list[Any]:
        """A score sheet's columns (engine/sheets.py SheetColumn): the targets of the game's
        score deltas, headed for people (`names`: seat -> the name a record's tags give). The
        default, an empty list: the sheet's one column per seat; a game whose teams or score
        holders take the deltas lists those."""
        return []

    def sheet_lines(self, deal: Any) -> list[Any]:
        """What a score sheet shows of one checked deal (engine/sheets.py CheckedDeal) in the
        game's own scoring: the rows (engine/sheets.py SheetLine)
        (one, or several for a game whose deal is played in rounds), each with the game's words
        per column and the outcome. The sheet adds the score deltas, the referee's marks and
        the totals itself. The default: one row, the deltas alone."""
        return []

    # -- provided ---------------------------------------------------------------------------
    def option_map(self) -> dict[str, Option]:
        return {o.name: o for o in self.options}

    def resolve_options(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults, overlaid by the named preset, overlaid by explicit options; all checked."""
        given = dict(given or {})
        preset_name = given.pop("preset", None)
        resolved = {o.name: o.default for o in self.options}
        if preset_name is not None:
            # a client may send anything: an object or a list is no preset (and unhashable)
            if not isinstance(preset_name, str) or preset_name not in self.presets:
                raise InvalidOptions(
                    f"unknown preset {shown(preset_name)}; presets: {sorted(self.presets)}",
                    "options.preset")
            resolved.update(self.presets[preset_name])
        by_name = self.option_map()
        wrong: dict[str, list[str]] = {}  # every wrong option is reported, not the first only
        for key, value in given.items():
            opt = by_name.get(key)
            if opt is None:
                wrong[f"options.{key}"] = [f"unknown option {shown(key)}"]
                continue
            try:
                resolved[key] = opt.field.parse(value, f"options.{key}")
            except FieldError as err:
                wrong.setdefault(err.path, []).append(err.message)
        if wrong:
            path, messages = next(iter(wrong.items()))
            detail = messages[0] if len(wrong) == 1 else \
                f"{len(wrong)} options are wrong: " + "; ".join(
                    f"{p}: {m[0]}" for p, m in wrong.items())
            raise InvalidOptions(detail, path, errors=wrong)
        return resolved

    def action_map(self) -> dict[str, ActionType]:
        """The declared action types by name, built once per `actions` tuple (parse_action
        reads it on every action)."""
        cached = self.__dict__.get("_action_map")
        if cached is None or cached[0] is not self.actions:
            cached = self.__dict__["_action_map"] = (self.actions,
                                                     {a.name: a for a in self.actions})
        return cached[1]

    @property
    def referee_actions(self) -> frozenset[str]:
        """The action types only a referee posts (ActionType.referee_only), computed once."""
        found = self.__dict__.get("_referee_actions")
        if found is None:
            found = self.__dict__["_referee_actions"] = frozenset(
                a.name for a in self.actions if a.referee_only)
        return found

    def parse_action(self, data: Any, players: Sequence[str]) -> Action:
        """Check an action's shape against its declared fields (HTTP 422 when it does not fit);
        whether it is *legal* is apply's business."""
        if not isinstance(data, Mapping):
            raise InvalidAction("an action must be an object", "action")
        kind = data.get("type")
        spec = self.action_map().get(kind) if isinstance(kind, str) else None
        if spec is None:
            raise InvalidAction(
                f"unknown action type {shown(kind)} for {self.id}; types: {[a.name for a in self.actions]}",
                "action.type")
        player = data.get("player")
        if not isinstance(player, str) or player not in players:
            raise InvalidAction(f"player {shown(player)} is not seated in this game", "action.player")
        if "game" in data and data["game"] != self.id:
            # optional: legal actions name their game, and may be posted back as they came
            raise InvalidAction(f"action of game {shown(data['game'])} posted with a state of {self.id}",
                                "action.game")
        try:
            parsed = parse_fields(spec.fields, data, "action", ACTION_ENVELOPE)
        except FieldError as err:
            raise InvalidAction(err.message, err.path) from None
        return Action(cast(str, kind), player, parsed)  # a str: it named an action type

    def describe(self, lang: str = "en") -> dict[str, Any]:
        """The game's entry in GET /v1/games, its descriptions in `lang` ("en" or "ja"; the
        service passes the language it negotiated). Ids, names (both languages always),
        presets (option values) and refusal codes (rule numbers) carry no prose."""
        return {
            "id": self.id,
            "names": dict(self.names),
            "players": {"min": self.min_players, "max": self.max_players},
            "state_version": self.state_version,
            "zero_sum": self.zero_sum,
            "presets": {k: dict(v) for k, v in self.presets.items()},
            "options": [o.describe(lang) for o in self.options],
            "actions": [a.describe(lang) for a in self.actions],
            "lookups": [{"name": lk.name,
                         "summary": in_language(lk.summary, lk.summary_ja, lang)}
                        for lk in self.lookups],
            "rules": self.rules_doc,
            "refusals": dict(self.refusals),
        }
