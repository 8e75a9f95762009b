"""The table's referee, the same in every game: the referee's view of a state, and the referee's
ledger of warnings and penalties (docs/referee.md).

A referee may record, at any moment of a deal and whoever is on turn, a warning or a penalty of
a number of points in the game's own unit (`Game.referee`, engine/parts.py RefereeRules:
`penalty_kind`) against a seat, and withdraw it. The ledger lives in the common part of every
state (engine/state.py GameState.referee_ledger), travels to the next deal in the match summary
(`next_match.referee_ledger`) and counts in the game's own match standing
(RefereeRules.count_penalty: Man's totals, Guandan's levels, Manteur's penalty points …): a
penalty answers score deltas of its points, a withdrawal the opposite ones.
Nothing here knows a game's rules; what a penalty does to a standing is the game's.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Mapping, cast

import msgspec

from .errors import InvalidDeal, InvalidState
from .fields import ActionType, EventType, Field, Option
from .parts import PENALTY as PENALTY, TAKEN_BACK as TAKEN_BACK, WARNING as WARNING, Sanction as Sanction
from .schema import array, by_key, obj
from .state import GameState, LedgerEntry, check_ledger, openapi_schema, replace
from .summary import complete_view
from .values import FINISHED, Action, Event, Refusal, ScoreDelta, Transition

if TYPE_CHECKING:  # the interface, for annotations only (it never imports this module)
    from .game import Game

# The id a referee answers as in views and legal actions. No seat may take it (adjudicate.deal),
# so a state never has two meanings for it.
REFEREE = "referee"

WITHDRAW = "withdraw"  # beside WARNING and PENALTY, the kinds of entry (engine/parts.py)
LEDGER_ACTION_TYPES = frozenset({WARNING, PENALTY, WITHDRAW})
# Bounds a single penalty: a ledger stays within JSON's safe integers however long a match runs.
MAX_PENALTY_POINTS = 1_000_000
# Where the match summary carries the ledger (and where a deal request's `match` gives it back).
MATCH_KEY = "referee_ledger"

_REASON = Field("str", "what happened, e.g. the rule broken (shown with the entry)",
                "何が起きたか(破られたルールなど)", required=False)

LEDGER_ACTIONS: tuple[ActionType, ...] = (
    ActionType(WARNING, "Referee: record a warning to the seat `player` (no points); any moment "
               "of the deal, whoever is on turn.",
               "審判: 席 `player` に警告を記録する(点数なし)。対局中いつでも、手番に関係なく。",
               {"reason": _REASON}, referee_only=True),
    ActionType(PENALTY, "Referee: record a penalty of `points` in the game's own unit "
               "(score_deltas' kind) against the seat `player`; it counts in the totals.",
               "審判: 席 `player` にゲーム固有の単位(score_deltas の kind)で `points` の罰則を"
               "記録する。合計に数えられる。",
               {"points": Field("int", "the penalty, in the game's own unit",
                                "罰則の大きさ(ゲーム固有の単位)", minimum=1,
                                maximum=MAX_PENALTY_POINTS),
                "reason": _REASON}, referee_only=True),
    ActionType(WITHDRAW, "Referee: withdraw the ledger entry `entry` of the seat `player` (a "
               "withdrawn penalty gives its points back).",
               "審判: 席 `player` の記録 `entry` を取り消す(取り消した罰則の点数は戻る)。",
               {"entry": Field("int", "the entry's id (referee_ledger[].id)",
                               "記録の id(referee_ledger[].id)", minimum=1)},
               referee_only=True),
)

_ENTRY = Field("int", "the ledger entry's id", "記録の id")
LEDGER_EVENTS: tuple[EventType, ...] = (
    EventType("warned", "the referee recorded a warning",
              {"player": Field("player", "the seat warned"), "entry": _ENTRY,
               "reason": Field("str", "what happened (absent: not given)", required=False)}),
    EventType("penalty_given", "the referee recorded a penalty",
              {"player": Field("player", "the seat penalized"), "entry": _ENTRY,
               "points": Field("int", "the penalty, in the game's own unit"),
               "reason": Field("str", "what happened (absent: not given)", required=False)}),
    EventType("withdrawn", "the referee withdrew a ledger entry",
              {"player": Field("player", "the seat the entry was about"), "entry": _ENTRY,
               "kind": Field("enum", "the entry's kind", choices=(WARNING, PENALTY)),
               "points": Field("int", "the points given back (0 for a warning)")}),
)

# The match summary's `referee_ledger`, declared as a match value of every game with a match.
MATCH_FIELD = Field("object", "the referee's ledger so far in the match: `entries` (every "
                    "warning and penalty, withdrawn ones marked) and `totals` (each seat's "
                    "penalty points not withdrawn); give it back as it came",
                    "試合中の審判の記録: entries(警告と罰則、取り消し済みも含む)と totals"
                    "(席ごとの取り消されていない罰則の合計)", required=False,
                    schema=obj({"entries": array(openapi_schema(LedgerEntry)),
                                "totals": by_key({"type": "integer"})}))

# Refusals of ledger actions, answered for every game (adjudicate.ENGINE_REFUSAL_DETAILS).
REFUSAL_DETAILS: dict[str, dict[str, Field]] = {
    "ledger_entry_unknown": {"player": Field("player", "the seat named"),
                             "entry": Field("int", "the entry named")},
    "ledger_entry_withdrawn": {"player": Field("player", "the seat named"),
                               "entry": Field("int", "the entry named")},
}


# The unit of a penalty in words, by the game's penalty_kind: (one, several, Japanese).
UNIT_WORDS = {"points": ("point", "points", "点"), "level": ("level", "levels", "レベル"),
              "penalty": ("penalty point", "penalty points", "失点"),
              "rank": ("point", "points", "点")}


def _points(kind: str, points: int) -> tuple[str, str]:
    one, many, ja = UNIT_WORDS.get(kind, UNIT_WORDS["points"])
    return f"{points} {one if points == 1 else many}", f"{points}{ja}"


def ledger_action_text(game: "Game[Any]", state: Any, action: "Action") -> dict[str, str]:
    """The words of a listed ledger action (adjudicate adds them as `text`): the same in every
    game but for the penalty's unit (RefereeRules.penalty_kind)."""
    player = action.player
    if action.type == WARNING:
        return {"en": f"Warn {player}", "ja": f"{player}に警告"}
    if action.type == PENALTY:
        en, ja = _points(game.referee.penalty_kind, action.get("points", 0))
        return {"en": f"Penalty against {player}: {en}", "ja": f"{player}に罰則({ja})"}
    entry_id = action.get("entry")
    ledger = getattr(state, "referee_ledger", ())
    entry = ledger[entry_id - 1] if isinstance(entry_id, int) and 0 < entry_id <= len(ledger) \
        else None
    if entry is not None and entry.kind == PENALTY:
        en, ja = _points(game.referee.penalty_kind, entry.points)
        return {"en": f"Withdraw {player}'s penalty {entry_id} ({en})",
                "ja": f"{player}の罰則{entry_id}({ja})を取り消す"}
    return {"en": f"Withdraw {player}'s warning {entry_id}",
            "ja": f"{player}の警告{entry_id}を取り消す"}


def worded(deltas: Any, text: dict[str, str]) -> tuple[ScoreDelta, ...]:
    """The score deltas of a penalty (Game.count_penalty), each without words of its own
    given `text`."""
    return tuple(d if d.text is not None else ScoreDelta(d.target, d.kind, d.delta, d.reason,
                                                         d.extra, text) for d in deltas)


def penalty_text(reason: str) -> dict[str, str]:
    """The words of a referee's penalty's score deltas (its reason as the referee gave it)."""
    if not reason:
        return {"en": "Referee's penalty", "ja": "審判の罰則"}
    return {"en": f"Referee's penalty: {reason}", "ja": f"審判の罰則: {reason}"}


def penalty_sign(kind: str) -> int:
    """Penalty points (kind `penalty`: Manteur's) count against a seat by growing; points,
    levels and ranks count against it by shrinking."""
    return 1 if kind == "penalty" else -1


def totals(players: Any, ledger: Any) -> dict[str, int]:
    """Each seat's penalty points not withdrawn (every seat, 0 when none)."""
    out = {p: 0 for p in players}
    for e in ledger:
        if e.kind == PENALTY and not e.withdrawn:
            out[e.player] = out.get(e.player, 0) + e.points
    return out


def summary(players: Any, ledger: Any) -> dict[str, Any]:
    """The match summary's `referee_ledger`."""
    return {"entries": [msgspec.to_builtins(e) for e in ledger], "totals": totals(players, ledger)}


def match_summary(game: "Game[Any]", state: Any) -> dict[str, Any] | None:
    """What a finished deal answers as `next_match`: the game's own summary (Game.next_match)
    and, in it, the referee's ledger and its totals per seat, when the game has a match."""
    own = game.next_match(state)
    if own is None or not isinstance(state, GameState) or game.match is None or \
            MATCH_KEY not in game.match.fields:
        return own
    return {**own, MATCH_KEY: summary(state.players, state.referee_ledger)}


def from_match(value: Any, players: Any) -> tuple[LedgerEntry, ...]:
    """The ledger a deal request's `match.referee_ledger` gives back (a previous summary)."""
    path = f"match.{MATCH_KEY}"
    if not isinstance(value, Mapping) or not isinstance(value.get("entries"), list):
        raise InvalidDeal("the referee's ledger of a match summary: {entries, totals}", path)
    try:
        entries = msgspec.convert(value["entries"], tuple[LedgerEntry, ...])
    except msgspec.ValidationError as err:
        raise InvalidDeal(f"a ledger entry does not fit: {err}", f"{path}.entries") from None
    try:
        check(entries, players)
    except InvalidState as err:
        raise InvalidDeal(err.message, f"{path}.entries") from None
    return entries


# What the declared types cannot say of a ledger (ids in order, seated players, a warning of no
# points): beside the entry's type, since decoding every state checks it (Game.decode).
check = check_ledger


def count_penalty(game: "Game[Any]", state: Any, player: str, delta: int,
                  reason: str) -> "Transition[Any]":
    """A penalty's `delta` (signed) counted in the game's own standing
    (RefereeRules.count_penalty), or, for a game with no standing of its own, one delta of
    its unit against the seat, the state unchanged."""
    rules = game.referee
    if rules.count_penalty is not None:
        return rules.count_penalty(state, player, delta, reason)
    return Transition(state, (ScoreDelta(player, rules.penalty_kind, delta, reason),))


def apply(game: "Game[Any]", state: Any, action: "Action") -> "Transition[Any]":
    """Record or withdraw a ledger entry; the rest of the state (whose turn it is) unchanged."""
    ledger = tuple(state.referee_ledger)
    player = action.player
    if action.type == WITHDRAW:
        entry_id = action.get("entry")
        fill = {"player": player, "entry": entry_id}
        if not (1 <= entry_id <= len(ledger)) or ledger[entry_id - 1].player != player:
            raise Refusal("ledger_entry_unknown",
                          f"{player} has no ledger entry {entry_id}.",
                          f"{player} に記録 {entry_id} はありません。", details=fill)
        entry = ledger[entry_id - 1]
        if entry.withdrawn:
            raise Refusal("ledger_entry_withdrawn",
                          f"Ledger entry {entry_id} of {player} is already withdrawn.",
                          f"{player} の記録 {entry_id} は取り消し済みです。", details=fill)
        ledger = ledger[:entry_id - 1] + (replace(entry, withdrawn=True),) + ledger[entry_id:]
        withdrawn = Event("withdrawn", {"player": player, "entry": entry_id, "kind": entry.kind,
                                        "points": entry.points})
        next_state = replace(state, referee_ledger=ledger)
        if entry.kind != PENALTY:
            return Transition(next_state, (), (withdrawn,))
        # the points given back to the game's own standing (RefereeRules.count_penalty)
        counted = count_penalty(game, next_state, player,
                                -penalty_sign(game.referee.penalty_kind) * entry.points,
                                f"penalty {entry_id} withdrawn")
        back = {"en": f"Penalty {entry_id} withdrawn", "ja": f"罰則{entry_id}の取り消し"}
        return Transition(counted.state, worded(counted.score_deltas, back),
                          (withdrawn, *counted.events))
    reason = action.get("reason", "")
    points = action.get("points", 0) if action.type == PENALTY else 0
    kind = cast(Literal["warning", "penalty"], action.type)  # WARNING or PENALTY here
    entry = LedgerEntry(id=len(ledger) + 1, kind=kind, player=player, points=points,
                        reason=reason)
    next_state = replace(state, referee_ledger=ledger + (entry,))
    said = {"reason": reason} if reason else {}
    if action.type == WARNING:
        return Transition(next_state, (), (Event(
            "warned", {"player": player, "entry": entry.id, **said}),))
    # the points count in the game's own standing at once (RefereeRules.count_penalty: Man's
    # totals, Manteur's penalty points and its limit, Guandan's levels …)
    counted = count_penalty(game, next_state, player,
                            penalty_sign(game.referee.penalty_kind) * points,
                            f"penalty: {reason}" if reason else "penalty")
    return Transition(counted.state, worded(counted.score_deltas, penalty_text(reason)), (Event(
        "penalty_given", {"player": player, "entry": entry.id, "points": points, **said}),
        *counted.events))


def _ledger_event_text(event: Event, cited: str | None = None) -> dict[str, str]:
    """The ledger's events in words: "p1 is warned (entry 2): slow play" / 「p1に警告(記録2):
    slow play」, the reason as the referee gave it; `cited`: a sanction's rule in its stead
    (its reason is a code for tools, sanction_reason)."""
    d = event.data
    who, entry = d["player"], d["entry"]
    reason = cited or d.get("reason") or ""
    why_en, why_ja = (f": {reason}", f": {reason}") if reason else ("", "")
    if event.type == "warned":
        return {"en": f"{who} is warned (entry {entry}){why_en}",
                "ja": f"{who}に警告(記録{entry}){why_ja}"}
    if event.type == "penalty_given":
        return {"en": f"{who} is penalized {d['points']} (entry {entry}){why_en}",
                "ja": f"{who}に罰則{d['points']}(記録{entry}){why_ja}"}
    if d["kind"] == PENALTY:  # withdrawn
        return {"en": f"{who}'s penalty (entry {entry}) is withdrawn: {d['points']} given back",
                "ja": f"{who}の罰則(記録{entry})を取り消し: {d['points']}を戻す"}
    return {"en": f"{who}'s warning (entry {entry}) is withdrawn",
            "ja": f"{who}の警告(記録{entry})を取り消し"}


def _worded(event: Event, cited: str) -> Event:
    """A sanction's ledger event with its words, citing the sanction's rule."""
    return Event(event.type, {**event.data, "text": _ledger_event_text(event, cited)})


_LEDGER_EVENT_NAMES = frozenset(e.name for e in LEDGER_EVENTS)


def events_json(game: "Game[Any]", state: Any, events: Any) -> list[dict[str, Any]]:
    """An answer's events as JSON, each with its words, `text` {en, ja}: its own where it
    carries some (a call as spoken, a sanction), the ledger's from here, any other the game's
    (Game.event_text; `state`: the state after them). Only the events an answer sends are
    worded: nothing on the rules' path."""
    gid = game.id  # named on every event: games share event types
    out = []
    for e in events:
        j = e.to_json(gid)
        if "text" not in j:
            j["text"] = _ledger_event_text(e) if e.type in _LEDGER_EVENT_NAMES \
                else game.event_text(state, e)
        out.append(j)
    return out


def legal_actions(game: "Game[Any]", state: Any) -> list["Action"]:
    """What the referee may do now: a warning and a penalty (1 point: the referee sets the
    points and gives the reason) for every seat, a withdrawal of every entry still standing,
    and the game's own referee-only actions (Man's chombo …) whichever seat they name."""
    if game.status(state) == FINISHED:
        return []
    out: list[Action] = []
    for p in state.players:
        out.append(Action(WARNING, p, {}))
        out.append(Action(PENALTY, p, {"points": 1}))
    out += [Action(WITHDRAW, e.player, {"entry": e.id})
            for e in state.referee_ledger if not e.withdrawn]
    own = game.referee_actions - LEDGER_ACTION_TYPES
    acts = game.referee.legal_actions
    listed = acts(state) if own and acts is not None else None
    if listed is not None:
        out += listed
    elif own:
        seen = set()
        for p in state.players:
            for a in game.legal_actions(state, p):
                key = msgspec.json.encode(a.to_json())
                if a.type in own and key not in seen:
                    seen.add(key)
                    out.append(a)
    return out


def view(game: "Game[Any]", state: Any) -> dict[str, Any]:
    """Everything a table shows (every hand, the stock in order, the unseen cards, the ledger),
    to the referee: the seed and its salt only once the deal is finished, so not even the
    referee can foretell a later shuffle or draw from them."""
    out = game.encode(state)
    if game.status(state) != FINISHED:
        out.pop("seed", None)
        out.pop("seed_salt", None)
    # what every view carries (engine/summary.py), the summary as the table sees it
    complete_view(game, state, out, None)
    out["viewer"] = REFEREE
    return out


# ------------------------------------------------------------------ irregularities
# Referee mode (a game's option `violations`: `referee`; Man's own is `chombo`, man 8.4): an act
# the rules refuse is not refused but recorded and sanctioned as the game's sources say. Each
# game declares which refusal codes are sanctionable and how (RefereeRules.sanctions, listed on
# its rules page); the engine applies them (adjudicate.apply_parsed, `sanction_refused` below).
# A malformed action (HTTP 422) never gets here: only a well-formed act the rules refuse.
VIOLATIONS = "violations"
REJECT, REFEREE_MODE = "reject", "referee"
# (TAKEN_BACK, engine/parts.py: a sanction's effect that undoes the act, the turn staying)

# The bound on what a seat's own acts add to a state (docs/referee.md, "A bound on what a seat's
# acts record"). A sanction that enters the ledger adds an entry, and an act taken back leaves
# the seat free to post it again: without a bound one seat posting the same out-of-turn act
# over and over grows the state until nobody, the referee included, can post it (413), and
# under strict sequencing no older state is accepted — the game would be dead. So the ledger
# holds at most MAX_SANCTION_ENTRIES entries recorded by sanctions against one seat in a match
# (the ledger's scope: it travels from deal to deal, and a Manteur state is its whole match),
# withdrawn ones included (a withdrawal keeps its entry). A further act of that seat that the
# rules refuse is then refused as in reject mode (its own code and rule, the state unchanged)
# and the referee rules on it by hand. The referee's own acts are never capped. 50 is far more
# than a real table sees of one player; Manteur's B20 penalty points end the game or eliminate
# the seat first at the default limit (5). Each such entry encodes in at most
# SANCTION_ENTRY_BYTES (tests/engine/test_referee_bound.py checks it for every sanction with a
# 64-character player id, the service's default limit), so a seat's own acts add at most
# 50 × 256 bytes = 12.5 KiB to a state, 100 KiB for eight seats (133 KiB sealed, × 4/3): under
# a seventh of the default body limit (1 MiB).
MAX_SANCTION_ENTRIES = 50
SANCTION_ENTRY_BYTES = 256


def violations_option(rule: str) -> Option:
    """The `violations` option, the same in every game that has sanctions (Man has its own)."""
    return Option(VIOLATIONS, Field(
        "enum", "reject: refuse an act the rules forbid, state unchanged (front ends); "
        "referee: record it and apply the sanction the rules page gives (a referee entering a "
        f"real table, docs/referee.md); after {MAX_SANCTION_ENTRIES} sanction entries against "
        "one seat in a match, that seat's further such acts are refused as under reject",
        "reject: ルールが禁じる行為を拒否し、状態は変えない(フロントエンド向け)。referee: "
        "それを記録し、ルールページが定める罰則を適用する(実際の卓を入力する審判向け、"
        f"docs/referee.md)。一つの席に対する罰則の記録が一試合で{MAX_SANCTION_ENTRIES}件に"
        "達すると、その席のそれ以降の同様の行為は reject と同じく拒否される",
        choices=(REJECT, REFEREE_MODE)), REJECT, rule)


IRREGULARITY_EVENT = EventType(
    "irregularity_sanctioned", "in referee mode (violations: referee) an act the rules refuse was "
    "recorded and sanctioned instead of refused", {
        "player": Field("player", "who acted (the offender)"),
        "code": Field("str", "the refusal code the act would have had"),
        "rule": Field("str", "the rule the act broke"),
        "action": Field("object", "the act as posted"),
        "sanction": Field("str", "the sanction's effect: taken_back, or the game's own"),
        "sanction_rule": Field("str", "the rule that gives the sanction"),
        "text": Field("text", "what happened and the sanction: {en, ja}"),
        "entry": Field("int", "the ledger entry recorded (absent: none)", required=False)})


def in_referee_mode(state: Any) -> bool:
    return getattr(getattr(state, "options", None), VIOLATIONS, None) == REFEREE_MODE


def sanction_reason(cited: str, refusal: "Refusal") -> str:
    """A sanction's ledger entry's reason: "<game> <sanction rule>: <code> (<rule broken>)"."""
    return f"{cited}: {refusal.code} ({refusal.rule})"


def sanction_entries(game: "Game[Any]", ledger: Any, player: str) -> int:
    """How many entries of the ledger sanctions recorded against `player` (withdrawn ones
    too): those whose reason a sanction of the game wrote (`sanction_reason`)."""
    prefixes = tuple({f"{game.id} {s.rule}: " for s in game.referee.sanctions.values()})
    return sum(1 for e in ledger if e.player == player and e.reason.startswith(prefixes))


def _beyond_the_bound(refusal: "Refusal", player: str) -> "Refusal":
    """The act's own refusal (code, rule, details), saying why it is not sanctioned."""
    out = Refusal(refusal.code,
                  f"{refusal.en} Referee mode records at most {MAX_SANCTION_ENTRIES} "
                  f"irregularities of {player} in a match, and has: this act is refused, not "
                  "sanctioned; the referee may record a warning or a penalty.",
                  f"{refusal.ja} 審判モードが記録する {player} の違反は1試合に"
                  f"{MAX_SANCTION_ENTRIES}件までで、すでに達しています。この行為は罰則の対象とせず"
                  "拒否します。審判は警告または罰則を記録できます。",
                  rule=refusal.rule, details=refusal.details)
    out.game = refusal.game
    return out


def sanction_refused(game: "Game[Any]", state: Any, action: "Action",
                     refusal: "Refusal") -> "Transition[Any]":
    """The transition of a refused act in referee mode: the game's consequence (the state
    unchanged when the act is taken back), the ledger entry and the events. Re-raises the
    refusal when the state is not in referee mode or the code is not sanctionable."""
    rules = game.referee
    sanction = rules.sanctions.get(refusal.code) if in_referee_mode(state) else None
    if sanction is None:
        raise refusal
    if sanction.ledger is not None and \
            sanction_entries(game, state.referee_ledger, action.player) >= MAX_SANCTION_ENTRIES:
        raise _beyond_the_bound(refusal, action.player)
    if sanction.effect == TAKEN_BACK:
        then = Transition(state, (), ())
    else:  # RefereeRules requires the hook of a game with such a sanction
        then = cast(Any, rules.sanction_effect)(state, action, refusal, sanction)
    cited = f"{game.id} {sanction.rule}"
    fill: dict[str, Any] = {
        "player": action.player, "code": refusal.code, "rule": refusal.rule,
        "action": action.to_json(), "sanction": sanction.effect, "sanction_rule": cited,
        "text": {"en": f"{refusal.en} Sanction ({cited}): {sanction.en}",
                 "ja": f"{refusal.ja}罰則({cited}): {sanction.ja}"}}
    next_state, deltas = then.state, tuple(then.score_deltas)
    events: tuple[Event, ...] = ()
    if sanction.ledger is not None:
        ledger = tuple(next_state.referee_ledger)
        reason = sanction_reason(cited, refusal)
        entry = LedgerEntry(id=len(ledger) + 1, kind=sanction.ledger, player=action.player,
                            points=sanction.points, reason=reason)
        next_state = replace(next_state, referee_ledger=ledger + (entry,))
        fill["entry"] = entry.id
        if sanction.ledger == WARNING:
            warned = Event("warned", {"player": action.player, "entry": entry.id,
                                      "reason": reason})
            events = (_worded(warned, cited),)
        else:
            # the points count in the game's own standing like any penalty
            # (RefereeRules.count_penalty: Manteur's penalty points and their limit …)
            counted = count_penalty(game, next_state, action.player,
                                    penalty_sign(rules.penalty_kind) * sanction.points,
                                    f"penalty: {reason}")
            said = {"en": f"Sanction ({cited}): {sanction.en}",
                    "ja": f"罰則({cited}): {sanction.ja}"}
            next_state = counted.state
            deltas = deltas + worded(counted.score_deltas, said)
            given = Event("penalty_given", {"player": action.player, "entry": entry.id,
                                            "points": sanction.points, "reason": reason})
            events = (_worded(given, cited), *counted.events)
    return Transition(next_state, deltas,
                      (Event("irregularity_sanctioned", fill),) + events + tuple(then.events))
