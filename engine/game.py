"""The one small interface every game implements, and the types that cross it.

A game is a state machine of explicit operations (after PokerKit): `deal` makes the first state,
`apply` takes a state and one parsed action and either returns a Transition or raises a Refusal
that names the rule broken. States are the game's own immutable-by-convention objects inside the
engine; `encode`/`decode` turn them into the JSON the API carries (decode checks the invariants
that matter, so a hand-edited state cannot crash a rule check). What a game may have beside
its rules (a match, physical deals, a referee's sanctions, a score sheet's layout) it declares
as one small value per part (engine/parts.py).
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence  # not typing's: isinstance through it costs ~1 µs
from typing import Any, Callable, ClassVar, Generic, cast

import msgspec

from .decks import published_deck
from .errors import (  # noqa: F401 (the error classes are re-exported)
    InputError,
    InvalidAction,
    InvalidDeal,
    InvalidOptions,
    InvalidState,
    shown,
)
from .fields import ActionType, EventType, Field, FieldError, Option, in_language, parse_fields
from .parts import Match, PhysicalDeals, RefereeRules, ReportedDeals, SheetLayout
from .state import GameState, check_ledger, decode_state, decode_trusted_state, encode_state, openapi_schema
from .summary import SeatSummary, Standings, TableSummary, Words
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

# The keys every action carries besides its declared fields (`game` is optional on input;
# `text`, the words a listed action carries (Game.action_text), is accepted and ignored, so a
# listed action posts back exactly as listed and nothing trusts its words).
ACTION_ENVELOPE = frozenset({"type", "player", "game", "text"})


# Names of what a game declares in one of its optional parts (engine/parts.py), by part: never
# class members of a game (Game.__init_subclass__).
_IN_A_PART = {
    "match_fields": "match", "accepts_hands": "physical", "table_fields": "physical",
    "names_unseen_draw": "physical", "penalty_kind": "referee", "sanctions": "referee",
    "count_penalty": "referee", "sanction_effect": "referee", "referee_legal_actions": "referee",
    "sheet_columns": "sheet", "sheet_lines": "sheet"}


class Game(ABC, Generic[S]):
    """One card game's rules, as the engine adjudicates them.

    Subclass it once per game, in the game's package `engine/games/<id>/`
    (engine/games/__init__.py), and expose one instance as the package's `GAME`: the registry
    finds it (engine/registry.py). templates/game/ is a complete small game to start from
    (docs/adding-a-game.md). A game declares only its own rules; what every game has (the
    referee's ledger) the engine adds when it registers the game (engine/features.py).

    A game is a handful of things, each below with what it is for and what it must guarantee:

    1. **Who it is** (required): `id`, `names`, `min_players`/`max_players`, `rules_doc`.
    2. **Its published contract**: `options`/`presets`, `actions`, `events`, `lookups`,
       `refusals`/`refusal_details`/`input_errors`, `state_type`/`state_version`,
       `view_type`, `zero_sum`, `team_ids`, `partnerships`, `combinations` and
       `combination_path` (the kinds its plays are read as, for the legal-actions filter).
       GET /v1/games and openapi.yaml publish every one, and the tests check every answer
       against them: declare all a game can answer.
    3. **Its optional parts**, each one small declaration (engine/parts.py), None when the
       game has none of it: `match` (a match carried from deal to deal), `physical` (deals
       of a real table's cards, entered by a referee), `referee` (its referee's unit and
       sanctions; a default fits a game without them) and `sheet` (its score sheet's layout).
    4. **Its five operations** (required): `deal`, `apply`, `legal_actions`, `to_act`,
       `view`, and `action_text`, the words of a listed action; `invariants` when its state
       can be inconsistent in ways its declared types cannot say; `public_to_act` when
       `to_act` reads a hidden hand.

    Everything else (encode/decode, option and action parsing, `describe`) is derived from
    these; a game overrides it only for what the member's docstring describes.

    What every game must guarantee (the tests check it over random play-outs):
    - Every method and hook is pure and deterministic: no I/O, no clock, no global state that
      changes an answer (memo caches are fine); the same state and action always give the
      same answer (randomness only through `setup.seed`, engine/rng.py). States are never
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
    # The game's id: its package's name under engine/games/, in URLs, in every state's `game`
    # and in the rules its refusals cite ("<id> 2.1").
    id: ClassVar[str]
    names: ClassVar[Mapping[str, str]]  # its name for people: {"en": ..., "ja": ...}
    min_players: ClassVar[int]  # the seats a deal may have (adjudicate.check_players)
    max_players: ClassVar[int]
    # The rules page's path from the repository's root ("docs/rules/man.md"): every refusal's
    # rule is a number on it, in both languages (served at /v1/games/<id>/rules).
    rules_doc: ClassVar[str] = ""

    # -- 2. its published contract ----------------------------------------------------------
    # Its options (engine/fields.py Option: a Field, a default, the rule it settles) and named
    # sets of their values (name -> option values). The engine resolves and checks them
    # (resolve_options) before `deal` sees them.
    options: ClassVar[Sequence[Option]] = ()
    presets: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    # Every action type `apply` accepts, with its fields: shape only (parse_action checks it,
    # a 422 when it does not fit); whether an action is legal now is apply's business.
    # (actions and events: per instance too, as the engine's features add to them.)
    actions: Sequence[ActionType] = ()
    # Every event type `apply` reports (engine/fields.py EventType), with its fields.
    events: Sequence[EventType] = ()
    # Questions the game answers besides adjudication (engine/values.py Lookup).
    lookups: ClassVar[Sequence[Lookup]] = ()
    # Every refusal code `apply` raises, with the rule it cites ("man 3.1"): clients and
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
    # The game's state, declared once (engine/state.py GameState): decode, decode_trusted,
    # encode and state_schema all derive from it. A game that declares none implements those
    # itself. `state_version` is bumped whenever the state's JSON changes.
    state_type: ClassVar[type[GameState] | None] = None
    state_version: ClassVar[int] = 1
    # The exact JSON shape of `encode`'s output (OpenAPI 3.0), published so generated clients
    # know every field: derived from state_type.
    state_schema: ClassVar[Mapping[str, Any]] = {}
    # What `view` answers, declared once as a Struct tagged with the game (engine/state.py
    # view_of, view_struct): a seat's view and the spectator's (viewer null) alike. The spec
    # publishes it as `<Game>View` (view_schema, derived); the tests check every view of
    # random deals against it.
    view_type: ClassVar[type[msgspec.Struct] | None] = None
    view_schema: ClassVar[Mapping[str, Any]] = {}
    # The game's own score deltas of one action sum to 0. The referee's penalties never do
    # (engine/referee.py: paid to nobody), whatever the game.
    zero_sum: ClassVar[bool] = True
    # The ids a game names its teams by (score targets, match values, sheet columns): no seat
    # may be named so, nor look like one (engine/adjudicate.py check_players).
    team_ids: ClassVar[tuple[str, ...]] = ()
    # Fixed partnerships by table size: seats -> the seat indices of each side, partners
    # together ({4: ((0, 2), (1, 3))}). An event seats a pair on one side's seats, or rotates
    # individuals' partners over them (engine/events). A table size not listed has no fixed
    # partners (every seat for itself, or partners the deal decides: Manillen's three players).
    partnerships: ClassVar[Mapping[int, tuple[tuple[int, ...], ...]]] = {}
    # Which way `standings` totals rank a match's holders: False, the highest total places
    # first (points, levels, booms); True, the fewest (penalty points). An event's standings
    # (engine/events/standings.py) place a table's entrants by it.
    standings_fewest_first: ClassVar[bool] = False
    # The kinds of combination the game's plays are read as, and where a listed action says
    # which: the keys into its fields (Guandan: ("reading", "type")). A legal-actions request
    # may ask for some kinds only (`combinations`, engine/filters.py); the spec publishes the
    # kinds. Empty: the game names none, and that filter is refused.
    combinations: ClassVar[tuple[str, ...]] = ()
    combination_path: ClassVar[tuple[str, ...]] = ()

    # -- 3. its optional parts (engine/parts.py: each docstring says what it asks) -----------
    # A match carried from deal to deal: what a deal request's `match` may carry, and the
    # finished deal's summary. None: every deal stands alone. (Per instance: the engine adds
    # the referee's ledger to its fields.)
    match: Match | None = None
    # Deals of a real table's cards entered by a referee: each seat's hand, what lies face up
    # beside them (`table_fields`) and which posted acts name unseen draws. None: decks only.
    physical: ClassVar[PhysicalDeals | None] = None
    # The referee's rules: the unit a penalty counts in, the sanctions of referee mode, and
    # the hooks that carry them out in the game's own standing. The default: points, one delta
    # against the seat, nothing sanctioned.
    referee: ClassVar[RefereeRules] = RefereeRules()
    # The score sheet's columns and each deal's rows in the game's own words. None: one column
    # per seat, one row per deal with the deltas alone.
    sheet: ClassVar[SheetLayout | None] = None
    # Deals an event's table reports without their moves, scored by the game's own code.
    # None: such a table reports its places only.
    reported: ClassVar[ReportedDeals | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # A declaration the engine reads in an optional part, written on the class instead,
        # would be silently ignored (a game's sanctions never applied): refused at once.
        for name in cls.__dict__.keys() & _IN_A_PART.keys():
            raise TypeError(f"{cls.__name__}.{name}: the engine reads it from the game's "
                            f"`{_IN_A_PART[name]}` (engine/parts.py), not from the class")
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

    # -- 4. the five operations every game implements --------------------------------------
    # True when enumerating legal actions costs more than a shared-cache round trip (Guandan's
    # thousands of plays); the service then caches `legal_actions`. Cheap games recompute.
    legal_actions_cacheable: ClassVar[bool] = False

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
        offer these, and the tests play random games from them. Empty when `player` may not
        act (and once the deal is finished)."""

    @abstractmethod
    def action_text(self, state: S, action: Action) -> dict[str, str]:
        """What a button offering `action` says, {"en": …, "ja": …}, both non-empty: the
        engine adds it as `text` to every action legal_actions lists (after any filtering),
        so a front end shows choices without knowing the game. `action` is one that
        `legal_actions(state, p)` listed for a seat, or a referee-only act the referee may
        post now (`referee_legal_actions`, or listed for a seat); the engine words the
        referee's ledger (warning, penalty, withdraw) itself. Name cards with
        `engine.cards.card_label` / `cards_label` ("Play ♠7 ♠8 ♠9 · straight" /
        「♠7 ♠8 ♠9 を出す・階段」, "Pass" / 「パス」). Called for every listed action (a
        Guandan lead lists over a thousand): build the words from precomputed tables and
        cache what repeats. The words are for people only: a posted action's `text` is
        ignored (ACTION_ENVELOPE), never trusted."""

    @abstractmethod
    def event_text(self, state: S, event: Event) -> dict[str, str]:
        """An event of the game's own in words a referee reads out, {"en": …, "ja": …}, both
        non-empty, from its fields (`state`, the state after the action, for what they name
        only by id: a team by its seats) ("p1 plays ♠7 ♠8 ♠9 · straight" /
        「p1が♠7 ♠8 ♠9 を出す・ストレート」, "p2 passes" / 「p2はパス」): the engine adds it as
        `text` to every event of an answer that carries none of its own (referee.events_json),
        so a front end shows the log in either language without knowing the game. Built only
        for the events an answer sends, never on the rules' own path; the engine words its
        ledger's events itself."""

    @abstractmethod
    def to_act(self, state: S) -> list[str]:
        """Players who may act now (several during races and out-of-turn windows); empty
        once the deal is finished."""

    @abstractmethod
    def view(self, state: S, player: str | None) -> dict[str, Any]:
        """The state as `player` may see it (None: a spectator, who sees only public cards):
        an instance of `view_type` as JSON when the game declares one. Never another seat's
        hidden cards, the order of an unseen stock or the seed."""

    # -- and two the game overrides when it needs them --------------------------------------
    def invariants(self, state: S) -> None:
        """What the declared types cannot say (every card exactly once, ids in range, phase
        consistency): raise InvalidState with the offending path. Runs on every state a
        client posts that this engine did not sign, so a hand-edited state is a 422, never a
        crash in a rule check. The default checks nothing beyond the types."""

    def public_to_act(self, state: S) -> list[str]:
        """Who may act now as far as the table can see: computed only from what every seat may
        see (the public part of the state), never from a hidden hand. Sealed answers carry it
        (README "Security model"), so an answer never tells one seat another's cards. The
        default is `to_act`, for games whose `to_act` is public already; a game whose `to_act`
        reads a hidden hand overrides this (Man: who could man the top card)."""
        return self.to_act(state)

    # -- derived from the declarations: a game without a state_type overrides decode, -------
    # -- decode_trusted, encode and status -------------------------------------------------
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

    def summary(self, state: S, viewer: str | None) -> TableSummary:
        """The table in words for `viewer` (None: a spectator), which every view carries
        (engine/summary.py): the facts a person needs to follow the deal without knowing the
        rules (what lies on the table to beat and who played it, trumps, levels, locks,
        pending draws, multipliers …, each with a stable `key` and its cards), then one line
        per seat in seat order. Built from what every seat may see: a viewer's own hand may
        be read, never another's (tests/engine/test_hidden_information.py checks it). The
        default: no facts, each seat without a count or a title."""
        players = getattr(state, "players", ())
        return TableSummary((), tuple(SeatSummary(p, None, None, None) for p in players))

    def standings(self, state: S) -> Standings:
        """The match standings in the one form every view carries (engine/summary.py): each
        score holder (a seat or a team) with its running total in the game's unit, as of this
        state (after the deal once it is finished), and whether the match is over; the same
        numbers the game's own match data holds. The default, for a game whose deals stand
        alone: no entries, finished with the deal."""
        return Standings(Words("points", "点"), (), self.status(state) == FINISHED)

    def next_match(self, state: S) -> dict[str, Any] | None:
        """A finished deal's match summary (engine/parts.py Match): what the next deal's
        request passes as `match`. The match's own `next_match` when it declares one, else the
        state's `next_match` field when it has one, else None."""
        own = self.match.next_match if self.match is not None else None
        if own is not None:
            return own(state)
        summary = getattr(state, "next_match", None)
        return None if summary is None else msgspec.to_builtins(summary)

    def deck(self, options: Mapping[str, Any]) -> list[str]:
        """The cards a deal under `options` (every option given a value: the defaults overlaid
        by a preset and a request's own) is dealt from: each card as often as the deck holds
        it (a two-deck game lists it twice), in the order a table lays the deck out, which is
        the order a client shows it in: by suit, each suit from its lowest rank to its highest
        in the game's own order, jokers last (engine/cards.py `in_table_order`).
        GET /v1/games publishes it, for every setting of the options that change it
        (engine/decks.py), and a physical deal's cards are offered from it (the table page's
        card picker). Build it from the same deck function `deal` shuffles, so the two cannot
        disagree (the conformance tests check a seeded deal's cards against it). The default,
        an empty list: the game publishes no deck."""
        return []

    def legal_actions_of_cards(self, state: S, player: str,
                               cards: tuple[str, ...]) -> list[Action] | None:
        """The legal actions of `player` that name exactly `cards` (a multiset: canonical,
        sorted), each listed exactly as `legal_actions` lists it and in its order: a
        legal-actions request's `cards` filter (engine/filters.py), a front end's "tap cards,
        see the plays they make". None, the default: the engine lists every legal action and
        keeps those. A game whose enumeration is costly (`legal_actions_cacheable`) answers it
        from the picked cards alone, which is what keeps that request small and fast."""
        return None
        return []

    # -- provided: the engine's, from the declarations; a game need not touch them ---------
    def option_map(self) -> dict[str, Option]:
        """The declared options by name."""
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
            "deck": self.published_deck(),
            "reported_deal": self.reported.describe(lang) if self.reported else None,
        }

    def published_deck(self) -> dict[str, Any]:
        """The game's decks as GET /v1/games publishes them (engine/decks.py), built once."""
        found = self.__dict__.get("_published_deck")
        if found is None:
            found = self.__dict__["_published_deck"] = published_deck(self)
        return found
