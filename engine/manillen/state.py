"""The state of one deal: a frozen dataclass, its JSON, and a fast decoder that checks the
invariants that matter (every one of the 32 cards exactly once, hand sizes that fit the number
of tricks played, indexes in range, a stored result that is the one the cards give).

One state covers one deal. The finished state carries `next_match` (running scores, booms,
carry, deal number and the next dealer), which the next deal request passes back as `match`.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping

from engine.cards import deck_32
from engine.fields import FieldError
from engine.game import FINISHED, IN_PROGRESS, InvalidState

from . import sides as sd
from .options import OPTIONS
from .scoring import deal_result, multiplier
from .tricks import winner_offset

GAME_ID = "manillen"
VERSION = 1
PHASES = ("blind", "trump", "doubling", "play", "over")
TRUMPS = ("S", "H", "D", "C", "no_trump")
DECK = frozenset(deck_32())
_DECK_COUNTER = Counter(deck_32())


@dataclass(frozen=True)
class Match:
    """The running match as it stood when this deal began."""
    scores: dict[str, int]
    booms: dict[str, int]
    carry: int
    deal_number: int


@dataclass(frozen=True)
class LastTrick:
    leader: int
    cards: tuple[str, ...]
    winner: int


@dataclass(frozen=True)
class State:
    options: Mapping[str, Any]
    players: tuple[str, ...]
    seed: str
    dealer: int
    phase: str
    hands: tuple[tuple[str, ...], ...]
    # 2 players only (A36): per seat four piles, top card first; the top card is face up.
    table: tuple[tuple[tuple[str, ...], ...], ...] | None
    leftover: tuple[str, ...]             # 3 players only (A34): shown, count for the dealer
    trump: str | None                      # "S" "H" "D" "C" or "no_trump"; None before it is named
    blind: bool
    trump_passed: bool
    calls: tuple[int, ...]                 # seats that doubled / redoubled, in order
    doubling_turn: int | None
    leader: int | None                     # leader of the current trick
    trick: tuple[str, ...]                 # cards of the current trick, in play order
    last_trick: LastTrick | None
    won: tuple[tuple[str, ...], ...]       # cards captured per seat (never shown, A27 note)
    match: Match
    thrown_in: bool = False

    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def trump_suit(self) -> str | None:
        return None if self.trump in (None, "no_trump") else self.trump

    def playable(self, seat: int) -> list[str]:
        """Cards `seat` may choose from: the hand, plus (2 players) the face-up table cards."""
        cards = list(self.hands[seat])
        if self.table is not None:
            cards.extend(pile[0] for pile in self.table[seat] if pile)
        return cards

    def tricks_done(self) -> int:
        return sum(len(w) for w in self.won) // self.n

    def multiplier(self) -> int:
        return multiplier(self.options, self.trump, self.blind, len(self.calls),
                          self.match.carry)[0]


def status_of(state: State) -> str:
    return FINISHED if state.phase == "over" else IN_PROGRESS


# ---------------------------------------------------------------- encode

def encode_match(m: Match, dealer_id: str) -> dict:
    return {"scores": dict(m.scores), "booms": dict(m.booms), "carry": m.carry,
            "deal_number": m.deal_number, "dealer": dealer_id}


def derived(state: State) -> dict:
    """The fields computed from the rest (checked on decode, never trusted)."""
    out: dict[str, Any] = {"status": status_of(state), "multiplier": state.multiplier()}
    if state.phase == "over":
        res = deal_result(state)
        out["next_match"] = res.pop("next_match")
        out["next_dealer"] = res.pop("next_dealer")
        out["result"] = res
    else:
        out["result"] = None
        out["next_match"] = None
        out["next_dealer"] = None
    return out


def encode(state: State) -> dict:
    lt = state.last_trick
    d = derived(state)
    return {
        "game": GAME_ID,
        "version": VERSION,
        "options": dict(state.options),
        "players": list(state.players),
        "seed": state.seed,
        "phase": state.phase,
        "status": d["status"],
        "dealer": state.dealer,
        "hands": [list(h) for h in state.hands],
        "table": None if state.table is None else [[list(p) for p in t] for t in state.table],
        "leftover": list(state.leftover),
        "trump": state.trump,
        "blind": state.blind,
        "trump_passed": state.trump_passed,
        "doubling": {"calls": list(state.calls), "turn": state.doubling_turn},
        "multiplier": d["multiplier"],
        "trick": None if state.leader is None else {"leader": state.leader,
                                                    "cards": list(state.trick)},
        "last_trick": None if lt is None else {"leader": lt.leader, "cards": list(lt.cards),
                                               "winner": lt.winner},
        "won": [list(w) for w in state.won],
        "match": encode_match(state.match, state.players[state.dealer]),
        "thrown_in": state.thrown_in,
        "result": d["result"],
        "next_match": d["next_match"],
        "next_dealer": d["next_dealer"],
    }


# ---------------------------------------------------------------- decode

def _need(cond: bool, message: str, path: str) -> None:
    if not cond:
        raise InvalidState(message, f"state.{path}" if path else "state")


# The checks below build their messages only on failure: decode runs on every request, and
# eagerly formatted messages were a third of its time.

def _int(v: Any, lo: int, hi: int, path: str) -> int:
    if not (isinstance(v, int) and not isinstance(v, bool) and lo <= v < hi):
        raise InvalidState(f"must be an integer in [{lo}, {hi})", f"state.{path}")
    return v


def _cards(v: Any, path: str, size: int | None = None) -> tuple[str, ...]:
    _need(isinstance(v, list), "must be a list of cards", path)
    for i, c in enumerate(v):
        if not (isinstance(c, str) and c in DECK):
            raise InvalidState(f"{c!r} is not a card of the 32-card deck", f"state.{path}[{i}]")
    if size is not None and len(v) != size:
        raise InvalidState(f"must hold {size} cards", f"state.{path}")
    return tuple(v)


def _bool(v: Any, path: str) -> bool:
    _need(isinstance(v, bool), "must be true or false", path)
    return v


_CHECKED_OPTIONS: dict[tuple, dict] = {}


def _options(v: Any) -> dict:
    """Options checked once per distinct set (a table plays one set all match long)."""
    try:
        # the type is part of the key: True == 1 must not pass for a checked boolean
        key = tuple((k, type(x), x) for k, x in v.items()) if isinstance(v, dict) else None
        cached = _CHECKED_OPTIONS.get(key) if key is not None else None
    except TypeError:  # an unhashable value: check it the long way (and refuse it there)
        key, cached = None, None
    if cached is not None:
        return dict(cached)
    out = _check_options(v)
    if key is not None and len(_CHECKED_OPTIONS) < 256:
        _CHECKED_OPTIONS[key] = out
    return dict(out)


def _check_options(v: Any) -> dict:
    _need(isinstance(v, dict), "must be an object", "options")
    names = {o.name for o in OPTIONS}
    for key in v:
        _need(key in names, f"unknown option {key!r}", f"options.{key}")
    out = {}
    for o in OPTIONS:
        _need(o.name in v, "missing option", f"options.{o.name}")
        try:
            out[o.name] = o.field.parse(v[o.name], f"state.options.{o.name}")
        except FieldError as err:
            raise InvalidState(err.message, err.path) from None
    return out


def _score_map(v: Any, names: list[str], path: str) -> dict[str, int]:
    _need(isinstance(v, dict) and sorted(v) == sorted(names),
          f"must map exactly {names} to scores", path)
    for k in names:
        _need(isinstance(v[k], int) and not isinstance(v[k], bool) and v[k] >= 0,
              "must be a non-negative integer", f"{path}.{k}")
    return {k: v[k] for k in names}


def decode(data: Mapping[str, Any]) -> State:
    _need(isinstance(data, dict), "a state must be an object", "")
    _need(data.get("game") == GAME_ID, f"not a {GAME_ID} state", "game")
    _need(data.get("version") == VERSION, f"{GAME_ID} states are version {VERSION}", "version")
    options = _options(data.get("options"))
    players = data.get("players")
    _need(isinstance(players, list) and 2 <= len(players) <= 4
          and all(isinstance(p, str) and p for p in players)
          and len(set(players)) == len(players),
          "must be 2 to 4 distinct player ids", "players")
    players = tuple(players)
    n = len(players)
    seed = data.get("seed")
    _need(isinstance(seed, str), "must be a string", "seed")
    phase = data.get("phase")
    _need(phase in PHASES, f"must be one of {list(PHASES)}", "phase")
    dealer = _int(data.get("dealer"), 0, n, "dealer")

    hands_in = data.get("hands")
    _need(isinstance(hands_in, list) and len(hands_in) == n, f"must be {n} hands", "hands")
    hands = tuple(_cards(h, f"hands[{i}]") for i, h in enumerate(hands_in))
    table_in = data.get("table")
    table = None
    if n == 2:
        _need(isinstance(table_in, list) and len(table_in) == 2, "must be 2 rows of piles", "table")
        rows = []
        for i, row in enumerate(table_in):
            _need(isinstance(row, list) and len(row) == 4, "must be 4 piles", f"table[{i}]")
            rows.append(tuple(_cards(p, f"table[{i}][{j}]") for j, p in enumerate(row)))
            for j, p in enumerate(row):
                _need(len(p) <= 2, "a pile holds at most 2 cards", f"table[{i}][{j}]")
        table = tuple(rows)
    else:
        _need(table_in is None, "only 2-player deals have table cards", "table")
    leftover = _cards(data.get("leftover"), "leftover", 2 if n == 3 else 0)

    trump = data.get("trump")
    _need(trump is None or trump in TRUMPS, f"must be null or one of {list(TRUMPS)}", "trump")
    before_trump = phase in ("blind", "trump")
    thrown_in = _bool(data.get("thrown_in"), "thrown_in")
    _need((trump is None) == (before_trump or thrown_in),
          "trumps are named exactly when the trump choice is over", "trump")
    blind = _bool(data.get("blind"), "blind")
    _need(not blind or (trump == "no_trump" and options["blind_no_trump"]),
          "only a no-trump call can be blind, and only when blind_no_trump is on", "blind")
    trump_passed = _bool(data.get("trump_passed"), "trump_passed")
    _need(not trump_passed or (n == 4 and options["allow_pass_trump_to_partner"]
                               and phase != "blind" and not blind),
          "the trump choice can be passed only with 4 players and the option on",
          "trump_passed")
    _need(phase != "blind" or options["blind_no_trump"],
          "the blind phase exists only with blind_no_trump on", "phase")

    doubling = data.get("doubling")
    _need(isinstance(doubling, dict), "must be an object", "doubling")
    calls_in = doubling.get("calls")
    _need(isinstance(calls_in, list), "must be a list of seats", "doubling.calls")
    calls: list[int] = []
    for i, c in enumerate(calls_in):
        _int(c, 0, n, f"doubling.calls[{i}]")
        _need(c in sd.doubling_candidates(n, dealer, calls, options),
              "this seat could not make this call", f"doubling.calls[{i}]")
        calls.append(c)
    calls_t = tuple(calls)
    _need(not calls or not before_trump, "no doubling before trumps", "doubling.calls")
    max_d = options["max_doublings"]
    _need(max_d is None or len(calls) <= max_d, "more calls than max_doublings",
          "doubling.calls")
    turn = doubling.get("turn")
    if phase == "doubling":
        _int(turn, 0, n, "doubling.turn")
        _need(turn in sd.doubling_candidates(n, dealer, calls, options)
              and (max_d is None or len(calls) < max_d),
              "this seat may not call now", "doubling.turn")
    else:
        _need(turn is None, "only set in the doubling phase", "doubling.turn")

    match_in = data.get("match")
    _need(isinstance(match_in, dict), "must be an object", "match")
    names = sd.holders(players)
    match = Match(
        scores=_score_map(match_in.get("scores"), names, "match.scores"),
        booms=_score_map(match_in.get("booms"), names, "match.booms"),
        carry=_int(match_in.get("carry"), 1, 1 << 62, "match.carry"),
        deal_number=_int(match_in.get("deal_number"), 0, 1 << 62, "match.deal_number"),
    )
    _need(match_in.get("dealer") == players[dealer], "must be the dealer's id", "match.dealer")
    _need(len(match_in) == 5, "unknown key", "match")

    won_in = data.get("won")
    _need(isinstance(won_in, list) and len(won_in) == n, f"must be {n} lists", "won")
    won = tuple(_cards(w, f"won[{i}]") for i, w in enumerate(won_in))
    for i, w in enumerate(won):
        _need(len(w) % n == 0, "captured cards come in whole tricks", f"won[{i}]")
    total_tricks = sd.TRICKS[n]
    done = sum(len(w) for w in won) // n

    trick_in = data.get("trick")
    last_in = data.get("last_trick")
    leader = None
    trick: tuple[str, ...] = ()
    last = None
    if phase == "play":
        _need(isinstance(trick_in, dict), "must be an object in the play phase", "trick")
        leader = _int(trick_in.get("leader"), 0, n, "trick.leader")
        trick = _cards(trick_in.get("cards"), "trick.cards")
        _need(len(trick) < n, "a trick in progress has fewer cards than players", "trick.cards")
        _need(done < total_tricks, "every trick is played: the deal is over", "phase")
    else:
        _need(trick_in is None, "only in the play phase", "trick")
    if last_in is not None:
        _need(isinstance(last_in, dict), "must be an object or null", "last_trick")
        lt_leader = _int(last_in.get("leader"), 0, n, "last_trick.leader")
        lt_cards = _cards(last_in.get("cards"), "last_trick.cards", n)
        lt_winner = _int(last_in.get("winner"), 0, n, "last_trick.winner")
        trump_suit = None if trump in (None, "no_trump") else trump
        _need(lt_winner == (lt_leader + winner_offset(lt_cards, trump_suit)) % n,
              "the winner is not the one the cards give", "last_trick.winner")
        _need(set(lt_cards) <= set(won[lt_winner]), "the winner must hold the trick's cards",
              "last_trick.cards")
        last = LastTrick(lt_leader, lt_cards, lt_winner)
    _need((last is None) == (done == 0), "the last trick is shown once a trick is complete",
          "last_trick")
    if phase == "play":
        expected = last.winner if last is not None else (dealer + 1) % n
        _need(leader == expected, "the trick is led by the last trick's winner "
              "(the dealer's left at first)", "trick.leader")
    if phase == "over":
        _need(thrown_in or done == total_tricks, "a deal is over after the last trick", "phase")
        _need(not thrown_in or done == 0, "a thrown-in hand has no tricks", "thrown_in")
    else:
        _need(not thrown_in, "only a finished deal can be thrown in", "thrown_in")
    if phase != "play" and phase != "over":
        _need(done == 0, "no tricks before the play", "won")

    # Every card exactly once.
    everything: list[str] = []
    for h in hands:
        everything.extend(h)
    if table is not None:
        for row in table:
            for p in row:
                everything.extend(p)
    everything.extend(leftover)
    everything.extend(trick)
    for w in won:
        everything.extend(w)
    if len(everything) != 32 or set(everything) != DECK:
        c = Counter(everything)
        missing = sorted(_DECK_COUNTER - c)
        extra = sorted(c - _DECK_COUNTER)
        raise InvalidState(f"all 32 cards must appear exactly once (missing {missing}, "
                           f"duplicated {extra})", "state.hands")
    # Each seat holds what the tricks played leave it.
    per_seat = sd.PER_SEAT[n]
    played_now = {(leader + k) % n for k in range(len(trick))} if leader is not None else set()
    for s in range(n):
        held = len(hands[s]) + (sum(len(p) for p in table[s]) if table is not None else 0)
        want = per_seat - (0 if thrown_in else done) - (1 if s in played_now else 0)
        _need(held == want, f"seat {s} should hold {want} cards", f"hands[{s}]")

    state = State(options=options, players=players, seed=seed, dealer=dealer, phase=phase,
                  hands=hands, table=table, leftover=leftover, trump=trump, blind=blind,
                  trump_passed=trump_passed, calls=calls_t,
                  doubling_turn=turn if phase == "doubling" else None, leader=leader,
                  trick=trick, last_trick=last, won=won, match=match, thrown_in=thrown_in)
    d = derived(state)
    for key in ("status", "multiplier", "result", "next_match", "next_dealer"):
        _need(data.get(key) == d[key], f"does not match the rest of the state ({d[key]!r})", key)
    return state


def decode_trusted(data: Mapping[str, Any]) -> State:
    """A state whose signature verified, so this engine encoded it: rebuild it without the
    invariant checks of `decode` (they cost ~0.15 ms, most of a /v1/validate request).
    tests/manillen/test_state.py checks that both decoders agree on every reachable state."""
    table = data["table"]
    trick = data["trick"]
    last = data["last_trick"]
    m = data["match"]
    return State(
        options=dict(data["options"]), players=tuple(data["players"]), seed=data["seed"],
        dealer=data["dealer"], phase=data["phase"],
        hands=tuple(tuple(h) for h in data["hands"]),
        table=None if table is None else tuple(tuple(tuple(p) for p in row) for row in table),
        leftover=tuple(data["leftover"]), trump=data["trump"], blind=data["blind"],
        trump_passed=data["trump_passed"], calls=tuple(data["doubling"]["calls"]),
        doubling_turn=data["doubling"]["turn"],
        leader=None if trick is None else trick["leader"],
        trick=() if trick is None else tuple(trick["cards"]),
        last_trick=None if last is None else LastTrick(last["leader"], tuple(last["cards"]),
                                                       last["winner"]),
        won=tuple(tuple(w) for w in data["won"]),
        match=Match(scores=dict(m["scores"]), booms=dict(m["booms"]), carry=m["carry"],
                    deal_number=m["deal_number"]),
        thrown_in=data["thrown_in"],
    )


# ---------------------------------------------------------------- schema

def _state_schema() -> dict:
    from engine.schema import BOOL, CARDS, INT, STR, array, by_key, common, enum, nullable, obj

    seat = {**INT, "minimum": 0, "maximum": 3, "description": "a seat index"}
    match = obj({"scores": by_key(INT), "booms": by_key(INT), "carry": {**INT, "minimum": 1},
                 "deal_number": {**INT, "minimum": 0}, "dealer": STR})
    return obj({
        **common(GAME_ID, VERSION, OPTIONS, PHASES),
        "dealer": seat,
        "hands": array(CARDS, description="per seat"),
        "table": nullable(array(array(CARDS), description="2 players: per seat four piles, "
                                "face-up card first, the face-down card under it")),
        "leftover": {**CARDS, "description": "3 players: the two shown left-over cards"},
        "trump": nullable(enum(*TRUMPS)),
        "blind": BOOL,
        "trump_passed": BOOL,
        "doubling": obj({"calls": array(seat), "turn": nullable(seat)}),
        "multiplier": {**INT, "minimum": 1},
        "trick": nullable(obj({"leader": seat, "cards": CARDS})),
        "last_trick": nullable(obj({"leader": seat, "cards": CARDS, "winner": seat})),
        "won": array(CARDS, description="cards captured per seat"),
        "match": match,
        "thrown_in": BOOL,
        "result": nullable({"type": "object", "description": "the finished deal: card points, "
                            "score deltas, booms (docs/rules/manillen.md)"}),
        "next_match": nullable(match),
        "next_dealer": nullable(STR),
    }, description="A deal of Manillen (docs/rules/manillen.md)")


STATE_SCHEMA = _state_schema()
