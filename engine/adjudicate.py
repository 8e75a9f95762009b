"""The engine's front door: one function per thing a client can ask, over JSON in and out.

The service and the referee CLI both call these, so a ruling is the same whichever way it is
asked for. Nothing here knows of a particular game.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence  # not typing's: isinstance through it costs ~1 µs
from dataclasses import dataclass
from typing import Any, Callable

import orjson

from . import filters, referee, registry, rng
from .cards import CardError, parse_cards
from .errors import InputError, InvalidAction, InvalidDeal, InvalidState, shown
from .fields import MAX_SAFE_INT, FieldError, parse_fields
from .game import Game
from .seats import seat_key
from .state import GameState, replace as replace_struct
from .summary import complete_view
from .values import FINISHED, Action, DealSetup, Lookup, Refusal, Transition, number_out_of_range


class UnknownGame(InputError):
    code = "game_unknown"


@dataclass(frozen=True)
class Applied:
    state: dict[str, Any]
    score_deltas: list[dict[str, Any]]
    events: list[dict[str, Any]]
    to_act: list[str]
    status: str
    next_match: dict[str, Any] | None = None  # once finished: the next deal's `match` (Game.next_match)
    # The action as parsed (canonical: cards in canonical notation, no optional `game`): two
    # spellings of one action are the same action (strict sequencing's retries).
    action: dict[str, Any] | None = None
    valid: bool = True


@dataclass(frozen=True)
class Refused:
    refusal: Refusal
    state: Mapping[str, Any]
    valid: bool = False


def game_by_id(game_id: Any) -> Game[Any]:
    game = registry.get(game_id) if isinstance(game_id, str) else None
    if game is None:
        raise UnknownGame(f"unknown game {shown(game_id)}; games: {[g.id for g in registry.all_games()]}",
                          "game")
    return game


def load_state(data: Any, trusted: bool = False) -> tuple[Game[Any], Any]:
    """The game and its decoded state; any inconsistency is an InvalidState naming its path.
    `trusted`: the caller verified the state's signature, so the game may skip deep checks."""
    if not isinstance(data, Mapping):
        raise InvalidState("a state must be an object", "state")
    if not isinstance(data.get("game"), str):
        raise InvalidState("a state names its game", "state.game")
    game = game_by_id(data["game"])
    if not isinstance(data.get("players"), list):
        raise InvalidState("a state lists its players", "state.players")
    if data.get("version") != game.state_version:
        raise InvalidState(
            f"{game.id} states are version {game.state_version}, not {shown(data.get('version'))}",
            "state.version", code="state_version_unsupported")
    try:
        return game, (game.decode_trusted(data) if trusted else game.decode(data))
    except InputError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
        # A decoder that trips over a hand-edited state must still answer 422, never 500.
        raise InvalidState(f"state does not fit the {game.id} schema: {err!r}", "state") from None


def _seated(state_json: Mapping[str, Any], player: Any, path: str) -> str:
    if not isinstance(player, str) or player not in state_json.get("players", ()):
        raise InputError(f"player {shown(player)} is not seated in this game", path, "player_unknown")
    return player


def check_players(game: Game[Any], players: Sequence[str]) -> None:
    """The seats a deal of `game` may be dealt to, or an InvalidDeal naming what is wrong."""
    players = tuple(players)
    if not (game.min_players <= len(players) <= game.max_players):
        raise InvalidDeal(f"{game.id} takes {game.min_players}–{game.max_players} players, "
                          f"not {len(players)}", "players")
    if len(set(players)) != len(players) or not all(isinstance(p, str) and p for p in players):
        raise InvalidDeal("player ids must be distinct non-empty strings", "players")
    if referee.REFEREE in players:
        raise InvalidDeal(f"the player id {referee.REFEREE!r} is reserved for the table's "
                          "referee (views and legal actions)",
                          f"players[{players.index(referee.REFEREE)}]")
    # Seats a reader could take for one another, or for a team (a team game's score sheet
    # heads its columns by team id: a seat named so got the team's marks): docs/integrating.md.
    teams = {seat_key(t): t for t in game.team_ids}
    seen: dict[str, str] = {}
    for i, p in enumerate(players):
        key = seat_key(p)
        if key in teams:
            raise InvalidDeal(f"the player id {shown(p)} is (or looks like) the team id "
                              f"{teams[key]!r} of {game.id}: name the seats otherwise",
                              f"players[{i}]")
        if key in seen:
            raise InvalidDeal(f"the player ids {shown(seen[key])} and {shown(p)} look alike "
                              "(the same once case, width, invisible characters and look-alike "
                              "letters are set aside): name the seats apart", f"players[{i}]")
        seen[key] = p


def deal(game_id: str, players: Sequence[str], options: Mapping[str, Any] | None = None,
         seed: str | None = None, dealer: str | None = None,
         match: Mapping[str, Any] | None = None, deck: Sequence[str] | None = None,
         hands: Mapping[str, Sequence[str]] | None = None, public: bool = False,
         table: Mapping[str, Any] | None = None, seed_salt: str | None = None) -> dict[str, Any]:
    """{state, to_act, seed_commitment} of a new deal. `public`: `to_act` from public
    information only (Game.public_to_act), as sealed answers give it. The commitment is salted
    (rng.commitment) with `seed_salt`, drawn here unless given (a recorded deal replayed
    exactly); the state carries the salt as it carries the seed."""
    game = game_by_id(game_id)
    if seed_salt is None:
        seed_salt = rng.new_salt()
    elif not rng.valid_salt(seed_salt):
        raise InvalidDeal("a seed salt is 32 lowercase hex digits (128 bits)", "seed_salt")
    players = tuple(players)
    check_players(game, players)
    if dealer is not None and dealer not in players:
        raise InvalidDeal(f"dealer {shown(dealer)} is not one of the players", "dealer")
    resolved = game.resolve_options(options)
    parsed_match = None
    if match is not None:
        try:
            parsed_match = parse_fields(game.match.fields if game.match else {}, match, "match")
        except FieldError as err:
            raise InvalidDeal(err.message, err.path) from None
    ledger: tuple[Any, ...] = ()
    if parsed_match is not None and referee.MATCH_KEY in parsed_match:
        # the engine's, not the game's: the game deals from its own match values
        ledger = referee.from_match(parsed_match.pop(referee.MATCH_KEY), players)
    parsed_deck = None
    if deck is not None:
        try:
            parsed_deck = tuple(parse_cards(deck))
        except CardError as err:
            raise InvalidDeal(str(err), f"deck[{err.index}]") from None
    parsed_hands = None
    if hands is not None:
        if game.physical is None:
            raise InvalidDeal(f"{game.id} deals from a deck; it takes no hands", "hands")
        if deck is not None:
            raise InvalidDeal("give either a deck or hands, not both", "hands")
        if not isinstance(hands, Mapping) or set(hands) != set(players):
            raise InvalidDeal("hands must give exactly one hand per player", "hands")
        parsed_hands = {}
        for p in players:
            try:
                parsed_hands[p] = tuple(parse_cards(hands[p]))
            except CardError as err:
                raise InvalidDeal(str(err), f"hands.{p}[{err.index}]") from None
            except TypeError:
                raise InvalidDeal("a hand is a list of cards", f"hands.{p}") from None
    parsed_table = None
    if table is not None:
        if parsed_hands is None and parsed_deck is None:
            raise InvalidDeal("a table is what lies face up beside the cards dealt and what the "
                              "rules decided at random: give the hands or the deck too", "table")
        table_fields = game.physical.table_fields if game.physical else {}
        if not table_fields:
            raise InvalidDeal(f"{game.id} has nothing face up beside the cards dealt and "
                              "nothing decided at random; it takes no table", "table")
        try:
            parsed_table = parse_fields(table_fields, table, "table")
        except FieldError as err:
            raise InvalidDeal(err.message, err.path) from None
    if seed is None:
        # a deck deal replays the same without a seed: its later shuffles follow from the deck
        seed = rng.new_seed() if parsed_deck is None else rng.deck_seed(parsed_deck)
    state = game.deal(DealSetup(players, resolved, seed, dealer, parsed_match, parsed_deck,
                                parsed_hands, table=parsed_table, seed_salt=seed_salt))
    if isinstance(state, GameState):
        state = replace_struct(state, seed_salt=seed_salt, referee_ledger=ledger)
    to_act = game.public_to_act(state) if public else game.to_act(state)
    return {"state": game.encode(state), "to_act": to_act,
            "seed_commitment": rng.commitment(seed, seed_salt), "status": game.status(state)}


# The refusals the engine answers for every game (apply_parsed), with their details (none):
# the spec publishes them beside each game's own (Game.refusal_details).
ENGINE_REFUSAL_DETAILS: dict[str, dict[str, Any]] = {"game_finished": {}, "number_out_of_range": {},
                                           **referee.REFUSAL_DETAILS}


def apply_parsed(game: Game[Any], state: Any, action: Action) -> tuple[Transition[Any], dict[str, Any]]:
    """The transition and its next state's JSON, checked; a refusal names its game (clients
    pick each game's refusal model by `game` and `code`)."""
    try:
        if game.status(state) == FINISHED:
            raise Refusal("game_finished", "This deal is finished; no more actions are taken.",
                          "この対局は終了しています。これ以上のアクションはできません。")
        # The referee's ledger is the engine's, the same in every game (engine/referee.py).
        if action.type in referee.LEDGER_ACTION_TYPES:
            tr = referee.apply(game, state, action)
        else:
            try:
                tr = game.apply(state, action)
            except Refusal as refusal:
                # referee mode: a sanctionable act is recorded and sanctioned, not refused
                tr = referee.sanction_refused(game, state, action, refusal)
        encoded = game.encode(tr.state)
        _check_numbers(game, tr, encoded)
    except Refusal as refusal:
        refusal.game = game.id
        raise
    return tr, encoded


def _check_numbers(game: Game[Any], tr: Transition[Any], encoded: dict[str, Any]) -> None:
    """Every integer of an answer stays within JSON's safe range (what a JavaScript client holds
    exactly). A game caps what can grow by its own rules; this is the engine-wide backstop, so
    a number past it is a refusal with a stable code, never a broken answer or a 500.
    orjson's 53-bit mode checks every integer of the state at serialization speed (~6 µs a
    mid-game state, against ~20 µs for converting it back to its declared types; this runs on
    every action, and every step of a replay)."""
    if all(-MAX_SAFE_INT <= d.delta <= MAX_SAFE_INT for d in tr.score_deltas):
        try:
            orjson.dumps(encoded, option=orjson.OPT_STRICT_INTEGER)
            return
        except orjson.JSONEncodeError:
            pass
    raise number_out_of_range()


def validate(state_json: Mapping[str, Any], action_json: Any,
             trusted: bool = False, public: bool = False) -> Applied | Refused:
    """`public`: the answer's `to_act` from public information only (Game.public_to_act): what
    a sealed answer gives, since every part of it but the state goes to the acting seat in
    clear."""
    game, state = load_state(state_json, trusted)
    action = game.parse_action(action_json, state_json["players"])
    try:
        tr, encoded = apply_parsed(game, state, action)
    except Refusal as refusal:
        return Refused(refusal, state_json)
    status = game.status(tr.state)
    gid = game.id  # named on every delta and event: games share event types
    return Applied(encoded, [d.to_json(gid) for d in tr.score_deltas],
                   referee.events_json(game, tr.state, tr.events),
                   game.public_to_act(tr.state) if public else game.to_act(tr.state), status,
                   referee.match_summary(game, tr.state) if status == FINISHED else None, action.to_json())


def is_referee_act(state_json: Any, action_json: Any, sealed: bool = False) -> bool:
    """Whether the posted action is the referee's: of a type its game declares referee-only,
    or, when `sealed` (the caller hides the state from the seats), one that names cards
    taken from a stock whose order nobody knows (PhysicalDeals.names_unseen_draw: a physical
    deal's draws, whose refusals would tell the naming seat which unseen cards are out of the
    stock). Anything that is not a well-formed action of a known game answers False: validate
    words what is wrong."""
    if not isinstance(state_json, Mapping) or not isinstance(action_json, Mapping):
        return False
    game_id = state_json.get("game")
    game = registry.get(game_id) if isinstance(game_id, str) else None
    kind = action_json.get("type")
    if game is None or not isinstance(kind, str):
        return False
    if kind in game.referee_actions:
        return True
    unseen = game.physical.names_unseen_draw if sealed and game.physical else None
    return unseen is not None and unseen(state_json, action_json)


def legal_actions(state_json: Mapping[str, Any], player: Any,
                  types: Sequence[str] | None = None, trusted: bool = False,
                  referee_seen: bool = False, cards: Sequence[Any] | None = None,
                  combinations: Sequence[Any] | None = None) -> list[dict[str, Any]]:
    game, state = load_state(state_json, trusted)
    return legal_actions_of(game, state, state_json, player, types, referee_seen,
                            cards=cards, combinations=combinations)


def legal_actions_of(game: Game[Any], state: Any, state_json: Mapping[str, Any], player: Any,
                     types: Sequence[str] | None = None, referee_seen: bool = False,
                     cards: Sequence[Any] | None = None,
                     combinations: Sequence[Any] | None = None) -> list[dict[str, Any]]:
    """legal_actions of a state already loaded (load_state): a caller that checks the state
    before other work (the service, before it makes a cache key of it) decodes it once.
    `referee_seen`: the caller is the table's referee, so `player` may be "referee" (the
    referee's actions); otherwise that id is as unknown as any unseated one. `types`, `cards`
    and `combinations` keep only the actions asked for (engine/filters.py); a filter that
    cannot be read is an InputError (422 request_invalid)."""
    wanted = filters.parse_filter(game, types, cards, combinations)
    if referee_seen and player == referee.REFEREE:
        actions = referee.legal_actions(game, state)
    else:
        player = _seated(state_json, player, "player")
        narrowed = None if wanted.cards is None else \
            game.legal_actions_of_cards(state, player, wanted.cards)
        actions = game.legal_actions(state, player) if narrowed is None else narrowed
    # Filtered before anything is made of each action: only the kept ones are written
    actions = wanted.keep(game, actions)
    # Last, after every filter: the words of each action left (a button's label).
    return worded(game, state, actions)


def worded(game: Game[Any], state: Any, actions: Sequence[Action]) -> list[dict[str, Any]]:
    """Listed actions' JSON, each with its words, `text` {en, ja} (Game.action_text; the
    referee's ledger actions worded by the engine). A Guandan lead lists thousands: the loop
    keeps its lookups local."""
    words, ledger = game.action_text, referee.LEDGER_ACTION_TYPES
    out = []
    for action in actions:
        listed = action.to_json()
        listed["text"] = referee.ledger_action_text(game, state, action) \
            if action.type in ledger else words(state, action)
        out.append(listed)
    return out


def view(state_json: Mapping[str, Any], player: Any, trusted: bool = False,
         referee_seen: bool = False) -> dict[str, Any]:
    """`referee_seen`: the caller is the table's referee, so `player` may be "referee"
    (referee.view: everything but the seed until the deal ends); otherwise that id is as
    unknown as any unseated one, so answers never tell whether a referee exists."""
    game, state = load_state(state_json, trusted)
    if referee_seen and player == referee.REFEREE:
        return referee.view(game, state)
    if player is not None:
        player = _seated(state_json, player, "player")
    return seen(game, state, player)


def seen(game: Game[Any], state: Any, player: str | None) -> dict[str, Any]:
    """A seat's (or the spectator's) view of a state already loaded: the game's view with what
    the engine adds to every view (engine/summary.py: the public `to_act`, the summary, the
    standings)."""
    return complete_view(game, state, game.view(state, player), player)


# `views_for` of a replay that asks for no views (None asks for the spectator's).
NO_VIEWS: Any = object()


def _viewer(game: Game[Any], state_json: Mapping[str, Any], views_for: Any,
            referee_seen: bool) -> Callable[[Any], dict[str, Any]] | None:
    """How a replay shows each state to `views_for`, as /v1/view would (view()): None when no
    views are asked for; a seat not in the deal is 422 player_unknown before anything is
    replayed ("referee" is no seat unless the caller is the referee)."""
    if views_for is NO_VIEWS:
        return None
    if referee_seen and views_for == referee.REFEREE:
        return lambda state: referee.view(game, state)
    player = None if views_for is None else _seated(state_json, views_for, "views_for")
    return lambda state: seen(game, state, player)


def replay(deal_request: Mapping[str, Any], actions: Sequence[Any],
           public: bool = False, views_for: Any = NO_VIEWS,
           referee_seen: bool = False) -> dict[str, Any]:
    """Deal, then apply each action in turn; stop at the first refused one and say which (in
    referee mode a sanctionable act is not refused: its sanction applies and the replay goes on).
    `public`: every `to_act` from public information only (Game.public_to_act). `views_for`: a
    seat, None (a spectator) or, with `referee_seen`, "referee": the answer then has that
    viewer's view of the dealt state (`initial_view`) and of the state after each step (each
    step's `view`), each what /v1/view answers for it (a front end scrubs through a game)."""
    dealt = deal(**deal_request, public=public)
    who: Callable[[Game[Any], Any], list[str]] = \
        (lambda g, s: g.public_to_act(s)) if public else (lambda g, s: g.to_act(s))
    state_json = dealt["state"]
    game, state = load_state(state_json)
    seen = _viewer(game, state_json, views_for, referee_seen)
    initial_view = None if seen is None else seen(state)
    steps: list[dict[str, Any]] = []
    totals: dict[str, int] = {}
    stopped = None
    for index, action_json in enumerate(actions):
        try:
            action = game.parse_action(action_json, state_json["players"])
        except InvalidAction as err:
            raise InvalidAction(err.message, f"actions[{index}]{err.path[len('action'):]}") from None
        try:
            tr, _ = apply_parsed(game, state, action)
        except Refusal as refusal:
            stopped = {"index": index, "action": action_json, "error": refusal}
            break
        state = tr.state
        gid = game.id
        deltas = [d.to_json(gid) for d in tr.score_deltas]
        for d in deltas:
            totals[d["target"]] = totals.get(d["target"], 0) + d["delta"]
        steps.append({"index": index, "game": gid, "action": action.to_json(gid),
                      "score_deltas": deltas, "events": referee.events_json(game, tr.state, tr.events),
                      "to_act": who(game, state), "status": game.status(state),
                      **({} if seen is None else {"view": seen(state)})})
    final = game.encode(state)
    out = {"seed_commitment": dealt["seed_commitment"], "initial_state": state_json,
           "steps": steps, "state": final, "totals": totals, "status": game.status(state),
           "to_act": who(game, state), "stopped": stopped,
           "next_match": referee.match_summary(game, state) if game.status(state) == FINISHED else None}
    if seen is not None:
        out["initial_view"] = initial_view
    return out


def find_lookup(game_id: str, name: str) -> Lookup:
    game = game_by_id(game_id)
    for lk in game.lookups:
        if lk.name == name:
            return lk
    raise UnknownGame(f"{game.id} has no lookup {shown(name)}", "lookup", code="not_found")


def parse_lookup(game_id: str, name: str, body: Any) -> tuple[Lookup, dict[str, Any]]:
    """The lookup and its request parsed (cards canonical), so equal questions share a cache
    entry however they were spelled."""
    lk = find_lookup(game_id, name)
    if not isinstance(body, Mapping):
        raise InputError("a lookup request must be an object", "", "request_invalid")
    try:
        return lk, parse_fields(lk.request, body, "body")
    except FieldError as err:
        raise InputError(err.message, err.path, "request_invalid") from None


def lookup(game_id: str, name: str, body: Any, lang: str = "en") -> dict[str, Any]:
    """A lookup's answer, its explanations in `lang` ("en" or "ja")."""
    lk, parsed = parse_lookup(game_id, name, body)
    return lk.handler(parsed, lang)
