"""The Man state: a frozen dataclass (seats are indexes inside; ids in the JSON) and its
encode/decode. decode runs on every request, so it checks by hand, cheaply, everything a rule
check relies on: keys and types, all 52 cards exactly once, ids and indexes in range."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping

from engine.cards import SUITS, deck_52
from engine.game import FINISHED, IN_PROGRESS, InvalidState

from .actions import CALLS
from .options import OPTIONS

VERSION = 1
PHASES = ("opening", "play", "chain", "finished")
KINDS = ("tanki", "mekuri", "kaeshi")  # 5.5 multipliers, each ×2
RESULTS = ("man", "chombo", "draw")
_DECK = Counter(deck_52())
_CARDS = frozenset(_DECK)


@dataclass(frozen=True)
class Call:
    """One man call of a chain (5.4): who, which ×2 kinds applied (5.5), its multiplier."""
    player: int
    kinds: tuple[str, ...]

    @property
    def multiplier(self) -> int:
        return 2 ** len(self.kinds)


@dataclass(frozen=True)
class Chain:
    """An open (or, after the end, the resolved) man chain on one card."""
    card: str
    against: int  # the card's player: loser of a single man (5.4)
    calls: tuple[Call, ...]
    declined: tuple[int, ...]  # who declined since the last call


@dataclass(frozen=True)
class Result:
    kind: str  # man | chombo | draw
    winner: int | None = None
    loser: int | None = None
    stake: int = 0
    offender: int | None = None
    rule: str | None = None
    code: str | None = None
    reason: str | None = None


@dataclass(frozen=True)
class ManState:
    options: Mapping[str, Any]
    players: tuple[str, ...]
    seed: str
    dealer: int
    phase: str
    stock: tuple[str, ...]        # top card first
    discard: tuple[str, ...]      # bottom first; the last card is the top card
    hands: tuple[tuple[str, ...], ...]
    start_cards: tuple[str, ...]  # 2.3: every card the dealer turned, effect cards included
    top_by: int | None            # who played the top card; None: a start card (5.2)
    top_manable: bool             # False for start cards and first-turn plays (5.2)
    direction: int                # 1 clockwise (seat order), -1 after an odd number of Js
    turn: int | None              # None during the opening race (2.4)
    pending_draw: int             # 3.8
    named_suit: str | None        # 3.1: the suit named with the 8 on top
    first_turn: tuple[bool, ...]  # True until the seat's first turn ends (3.4, 5.2)
    drew: bool                    # the current player drew this turn (3.3)
    drawn_cards: tuple[str, ...]  # what they drew this turn (5.5 mekuri)
    reach: tuple[bool, ...]       # reach status as of each seat's last call (6.1)
    last_call: tuple[str | None, ...]
    public: tuple[bool, ...]      # 3.6: ended a turn with 8+ cards
    shown: tuple[bool, ...]       # 5.4: showed the hand with a man call
    window: tuple[int, ...]       # 5.3: seats that may still man the top card
    chain: Chain | None
    reshuffles: int               # 3.9: label counter of reshuffle streams
    totals: tuple[int, ...]       # match totals (before this game; after it once finished)
    games_played: int
    result: Result | None
    next_dealer: int | None       # 7.1

    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def top(self) -> str:
        return self.discard[-1]


def status_of(s: ManState) -> str:
    return FINISHED if s.phase == "finished" else IN_PROGRESS


# ------------------------------------------------------------------------------ encode

def encode(s: ManState) -> dict:
    p = s.players

    def pid(i: int | None) -> str | None:
        return None if i is None else p[i]

    def per(values) -> dict:
        return {p[i]: v for i, v in enumerate(values)}

    chain = None
    if s.chain is not None:
        chain = {"card": s.chain.card, "against": p[s.chain.against],
                 "calls": [{"player": p[c.player], "kinds": list(c.kinds),
                            "multiplier": c.multiplier} for c in s.chain.calls],
                 "declined": [p[i] for i in s.chain.declined]}
    result = None
    if s.result is not None:
        r = s.result
        result = {"kind": r.kind, "winner": pid(r.winner), "loser": pid(r.loser),
                  "stake": r.stake, "offender": pid(r.offender), "rule": r.rule,
                  "code": r.code, "reason": r.reason}
    return {
        "game": "man", "version": VERSION, "options": dict(s.options), "players": list(p),
        "seed": s.seed, "dealer": p[s.dealer], "phase": s.phase,
        "status": FINISHED if s.phase == "finished" else IN_PROGRESS,
        "stock": list(s.stock), "discard": list(s.discard),
        "hands": {p[i]: list(h) for i, h in enumerate(s.hands)},
        "start_cards": list(s.start_cards), "top_by": pid(s.top_by),
        "top_manable": s.top_manable, "direction": s.direction, "turn": pid(s.turn),
        "pending_draw": s.pending_draw, "named_suit": s.named_suit,
        "first_turn": per(s.first_turn), "drew": s.drew, "drawn_cards": list(s.drawn_cards),
        "reach": per(s.reach), "last_call": per(s.last_call), "public": per(s.public),
        "shown": per(s.shown), "window": [p[i] for i in s.window], "chain": chain,
        "reshuffles": s.reshuffles,
        "match": {"totals": per(s.totals), "games_played": s.games_played},
        "result": result, "next_dealer": pid(s.next_dealer),
    }


# ------------------------------------------------------------------------------ decode

_KEYS = ("game", "version", "options", "players", "seed", "dealer", "phase", "status", "stock",
         "discard", "hands", "start_cards", "top_by", "top_manable", "direction", "turn",
         "pending_draw", "named_suit", "first_turn", "drew", "drawn_cards", "reach",
         "last_call", "public", "shown", "window", "chain", "reshuffles", "match", "result",
         "next_dealer")
_IGNORED = frozenset({"signature"})  # the service's HMAC may travel with the state


def _bad(message: str, path: str) -> InvalidState:
    return InvalidState(message, f"state.{path}")


def _typed(value: Any, kind: type, path: str, nullable: bool = False) -> Any:
    if value is None and nullable:
        return None
    if kind is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, kind)
    if not ok:
        raise _bad(f"must be {'null or ' if nullable else ''}{kind.__name__}", path)
    return value


def _cards(value: Any, path: str) -> tuple[str, ...]:
    _typed(value, list, path)
    for i, c in enumerate(value):
        if c not in _CARDS:
            raise _bad(f"{c!r} is not a canonical card of the 52-card deck", f"{path}[{i}]")
    return tuple(value)


def decode(d: Mapping[str, Any]) -> ManState:
    if not isinstance(d, Mapping):
        raise InvalidState("a state must be an object", "state")
    for key in _KEYS:
        if key not in d:
            raise _bad("missing", key)
    for key in d:
        if key not in _KEYS and key not in _IGNORED:
            raise _bad("unknown key", key)
    if d["game"] != "man":
        raise _bad("must be 'man'", "game")
    if d["version"] != VERSION:
        raise _bad(f"must be {VERSION}", "version")

    players = _typed(d["players"], list, "players")
    if not 2 <= len(players) <= 8 or not all(isinstance(x, str) and x for x in players) \
            or len(set(players)) != len(players):
        raise _bad("2-8 distinct non-empty ids", "players")
    players = tuple(players)
    seat = {x: i for i, x in enumerate(players)}

    def one(value: Any, path: str, nullable: bool = False) -> int | None:
        if value is None and nullable:
            return None
        if not isinstance(value, str) or value not in seat:
            raise _bad(f"{value!r} is not a seated player", path)
        return seat[value]

    def per(value: Any, kind: type, path: str, nullable: bool = False) -> tuple:
        _typed(value, dict, path)
        if value.keys() != seat.keys():
            raise _bad("must have exactly one entry per player", path)
        out = tuple(value[x] for x in players)
        for x, v in zip(players, out):
            # exact types (JSON makes no subclasses; bool is not an int here); _typed words
            # the refusal when one is wrong
            if type(v) is not kind and not (v is None and nullable):
                _typed(v, kind, f"{path}.{x}", nullable)
        return out

    options = _typed(d["options"], dict, "options")
    if set(options) != {o.name for o in OPTIONS}:
        raise _bad(f"must hold exactly the options {[o.name for o in OPTIONS]}", "options")
    for o in OPTIONS:
        value = options[o.name]
        ok = isinstance(value, bool) if o.field.kind == "bool" else value in o.field.choices
        if not ok:
            raise _bad("not an allowed value", f"options.{o.name}")

    seed = _typed(d["seed"], str, "seed")
    dealer = one(d["dealer"], "dealer")
    phase = d["phase"]
    if phase not in PHASES:
        raise _bad(f"must be one of {list(PHASES)}", "phase")
    if d["status"] != (FINISHED if phase == "finished" else IN_PROGRESS):
        raise _bad("does not agree with phase", "status")

    stock = _cards(d["stock"], "stock")
    discard = _cards(d["discard"], "discard")
    if not discard:
        raise _bad("the discard pile always holds the top card", "discard")
    hands_json = _typed(d["hands"], dict, "hands")
    if set(hands_json) != set(players):
        raise _bad("must have exactly one hand per player", "hands")
    hands = tuple(_cards(hands_json[x], f"hands.{x}") for x in players)
    everything = list(stock)
    everything += discard
    for h in hands:
        everything += h
    # Every entry is a deck card already: 52 distinct entries is each card exactly once.
    # (Counter arithmetic here cost a third of decode; it only runs to explain a failure.)
    if len(everything) != 52 or len(set(everything)) != 52:
        seen = Counter(everything)
        missing = sorted(_DECK - seen)
        extra = sorted(seen - _DECK)
        raise _bad(f"the 52 cards must each be in exactly one place (missing {missing}, "
                   f"duplicated {extra})", "hands")
    start_cards = _cards(d["start_cards"], "start_cards")
    if not start_cards:
        raise _bad("at least one start card", "start_cards")

    top_by = one(d["top_by"], "top_by", nullable=True)
    top_manable = _typed(d["top_manable"], bool, "top_manable")
    if top_by is None and top_manable:
        raise _bad("a start card is never manable (5.2)", "top_manable")
    direction = d["direction"]
    if direction not in (1, -1) or isinstance(direction, bool):
        raise _bad("must be 1 or -1", "direction")
    turn = one(d["turn"], "turn", nullable=True)
    if phase in ("play", "chain") and turn is None:
        raise _bad("a player must be on turn", "turn")
    if phase == "opening" and turn is not None:
        raise _bad("nobody is on turn during the opening race", "turn")
    pending = _typed(d["pending_draw"], int, "pending_draw")
    if pending < 0:
        raise _bad("must be at least 0", "pending_draw")
    named = d["named_suit"]
    if named is not None and named not in SUITS:
        raise _bad("must be null or one of S H D C", "named_suit")
    first_turn = per(d["first_turn"], bool, "first_turn")
    drew = _typed(d["drew"], bool, "drew")
    drawn = _cards(d["drawn_cards"], "drawn_cards")
    if drawn:
        if turn is None:
            raise _bad("only the player on turn has drawn", "drawn_cards")
        have = Counter(hands[turn])
        if any(have[c] < k for c, k in Counter(drawn).items()):
            raise _bad("drawn cards must be in the hand of the player on turn", "drawn_cards")
    reach = per(d["reach"], bool, "reach")
    last_call = per(d["last_call"], str, "last_call", nullable=True)
    for x, c in zip(players, last_call):
        if c is not None and c not in CALLS:
            raise _bad(f"must be null or one of {list(CALLS)}", f"last_call.{x}")
    public = per(d["public"], bool, "public")
    shown = per(d["shown"], bool, "shown")
    window_json = _typed(d["window"], list, "window")
    window = tuple(one(x, f"window[{i}]") for i, x in enumerate(window_json))
    if len(set(window)) != len(window):
        raise _bad("no seat twice", "window")

    chain = None
    cj = d["chain"]
    if cj is not None:
        _typed(cj, dict, "chain")
        if set(cj) != {"card", "against", "calls", "declined"}:
            raise _bad("keys must be card, against, calls, declined", "chain")
        card = cj["card"]
        if card != discard[-1]:
            raise _bad("a man chain is on the top card", "chain.card")
        against = one(cj["against"], "chain.against")
        calls = []
        for i, cl in enumerate(_typed(cj["calls"], list, "chain.calls")):
            path = f"chain.calls[{i}]"
            _typed(cl, dict, path)
            if set(cl) != {"player", "kinds", "multiplier"}:
                raise _bad("keys must be player, kinds, multiplier", path)
            kinds = _typed(cl["kinds"], list, f"{path}.kinds")
            if any(k not in KINDS for k in kinds) or len(set(kinds)) != len(kinds):
                raise _bad(f"distinct values of {list(KINDS)}", f"{path}.kinds")
            call = Call(one(cl["player"], f"{path}.player"), tuple(kinds))
            if cl["multiplier"] != call.multiplier or isinstance(cl["multiplier"], bool):
                raise _bad("must be 2 to the number of kinds", f"{path}.multiplier")
            calls.append(call)
        if not calls:
            raise _bad("a chain has at least one call", "chain.calls")
        callers = [c.player for c in calls]
        if against in callers or len(set(callers)) != len(callers):
            raise _bad("each player calls at most once and never on their own card",
                       "chain.calls")
        declined_json = _typed(cj["declined"], list, "chain.declined")
        declined = tuple(one(x, f"chain.declined[{i}]") for i, x in enumerate(declined_json))
        chain = Chain(card, against, tuple(calls), declined)
    if phase == "chain" and chain is None:
        raise _bad("the chain phase needs a chain", "chain")

    reshuffles = _typed(d["reshuffles"], int, "reshuffles")
    if reshuffles < 0:
        raise _bad("must be at least 0", "reshuffles")
    match = _typed(d["match"], dict, "match")
    if set(match) != {"totals", "games_played"}:
        raise _bad("keys must be totals, games_played", "match")
    totals = per(match["totals"], int, "match.totals")
    games_played = _typed(match["games_played"], int, "match.games_played")
    if games_played < 0:
        raise _bad("must be at least 0", "match.games_played")

    result = None
    rj = d["result"]
    if rj is not None:
        _typed(rj, dict, "result")
        if set(rj) != {"kind", "winner", "loser", "stake", "offender", "rule", "code", "reason"}:
            raise _bad("keys must be kind, winner, loser, stake, offender, rule, code, reason",
                       "result")
        if rj["kind"] not in RESULTS:
            raise _bad(f"must be one of {list(RESULTS)}", "result.kind")
        result = Result(rj["kind"], one(rj["winner"], "result.winner", True),
                        one(rj["loser"], "result.loser", True),
                        _typed(rj["stake"], int, "result.stake"),
                        one(rj["offender"], "result.offender", True),
                        _typed(rj["rule"], str, "result.rule", True),
                        _typed(rj["code"], str, "result.code", True),
                        _typed(rj["reason"], str, "result.reason", True))
    if (phase == "finished") != (result is not None):
        raise _bad("a result exactly when the game is finished", "result")
    next_dealer = one(d["next_dealer"], "next_dealer", nullable=True)
    if (phase == "finished") != (next_dealer is not None):
        raise _bad("a next dealer exactly when the game is finished", "next_dealer")

    return ManState(
        options=dict(options), players=players, seed=seed, dealer=dealer, phase=phase,
        stock=stock, discard=discard, hands=hands, start_cards=start_cards, top_by=top_by,
        top_manable=top_manable, direction=direction, turn=turn, pending_draw=pending,
        named_suit=named, first_turn=first_turn, drew=drew, drawn_cards=drawn, reach=reach,
        last_call=last_call, public=public, shown=shown, window=window, chain=chain,
        reshuffles=reshuffles, totals=totals, games_played=games_played, result=result,
        next_dealer=next_dealer)


def decode_trusted(d: Mapping[str, Any]) -> ManState:
    """A state whose signature verified (this engine encoded it): rebuilt without the checks of
    `decode`, which are most of a signed /v1/validate request's engine time.
    tests/man/test_properties.py checks that both decoders agree on every reachable state."""
    players = tuple(d["players"])
    seat = {x: i for i, x in enumerate(players)}

    def one(value: str | None) -> int | None:
        return None if value is None else seat[value]

    def per(value: Mapping[str, Any]) -> tuple:
        return tuple(value[x] for x in players)

    cj = d["chain"]
    chain = None if cj is None else Chain(
        cj["card"], seat[cj["against"]],
        tuple(Call(seat[c["player"]], tuple(c["kinds"])) for c in cj["calls"]),
        tuple(seat[x] for x in cj["declined"]))
    rj = d["result"]
    result = None if rj is None else Result(
        rj["kind"], one(rj["winner"]), one(rj["loser"]), rj["stake"], one(rj["offender"]),
        rj["rule"], rj["code"], rj["reason"])
    hands = d["hands"]
    return ManState(
        options=dict(d["options"]), players=players, seed=d["seed"], dealer=seat[d["dealer"]],
        phase=d["phase"], stock=tuple(d["stock"]), discard=tuple(d["discard"]),
        hands=tuple(tuple(hands[x]) for x in players), start_cards=tuple(d["start_cards"]),
        top_by=one(d["top_by"]), top_manable=d["top_manable"], direction=d["direction"],
        turn=one(d["turn"]), pending_draw=d["pending_draw"], named_suit=d["named_suit"],
        first_turn=per(d["first_turn"]), drew=d["drew"], drawn_cards=tuple(d["drawn_cards"]),
        reach=per(d["reach"]), last_call=per(d["last_call"]), public=per(d["public"]),
        shown=per(d["shown"]), window=tuple(seat[x] for x in d["window"]), chain=chain,
        reshuffles=d["reshuffles"], totals=per(d["match"]["totals"]),
        games_played=d["match"]["games_played"], result=result,
        next_dealer=one(d["next_dealer"]))


# ------------------------------------------------------------------------------ schema

def _state_schema() -> dict:
    from engine.schema import BOOL, CARD, CARDS, INT, STR, array, by_key, common, enum, nullable, obj

    seat_id = {**STR, "description": "a player id"}
    return obj({
        **common("man", VERSION, OPTIONS, PHASES),
        "dealer": seat_id,
        "stock": {**CARDS, "description": "top card first (hidden in views)"},
        "discard": {**CARDS, "description": "bottom first; the last card is the top card"},
        "hands": by_key(CARDS),
        "start_cards": {**CARDS, "description": "every card the dealer turned at the start (2.3)"},
        "top_by": nullable(seat_id),
        "top_manable": BOOL,
        "direction": enum(1, -1),
        "turn": nullable(seat_id),
        "pending_draw": {**INT, "minimum": 0},
        "named_suit": nullable(enum("S", "H", "D", "C")),
        "first_turn": by_key(BOOL),
        "drew": BOOL,
        "drawn_cards": CARDS,
        "reach": by_key(BOOL),
        "last_call": by_key(nullable(enum(*CALLS))),
        "public": by_key(BOOL),
        "shown": by_key(BOOL),
        "window": array(seat_id),
        "chain": nullable(obj({
            "card": CARD, "against": seat_id,
            "calls": array(obj({"player": seat_id, "kinds": array(enum(*KINDS)),
                                "multiplier": {**INT, "minimum": 1}})),
            "declined": array(seat_id)})),
        "reshuffles": {**INT, "minimum": 0},
        "match": obj({"totals": by_key(INT), "games_played": {**INT, "minimum": 0}}),
        "result": nullable(obj({
            "kind": enum(*RESULTS), "winner": nullable(seat_id), "loser": nullable(seat_id),
            "stake": INT, "offender": nullable(seat_id), "rule": nullable(STR),
            "code": nullable(STR), "reason": nullable(STR)})),
        "next_dealer": nullable(seat_id),
    }, description="A game of Man (docs/rules/man.md)")


STATE_SCHEMA = _state_schema()
