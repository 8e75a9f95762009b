"""The whole event checked (docs/events.md "Checking an event"): everything in the document
anyone can re-derive, re-derived, and the first discrepancy named where it is.

Round by round, in the document's order: the round's revealed seed against its commitment,
each same-deals seed against its commitment (and against the round's seed it derives from),
the seating (everyone who may play seated once or given a bye; the tables and byes its method
gives: engine/events/seating.py), then each table in order, each of TABLE_CHECKS in turn (a
record's deals dealt from the round's same-deals seeds, the record replayed as
`/v1/records/check` replays it, a reported result's places agreeing with its scores and its
sides, or with the deals it reports as the game scores them). Then the director's penalties,
then the digest the document carries.

A document that is not well formed is no discrepancy: parse_event raises its 422 as ever
(`event_invalid` with its path), and so does a table's record the replay cannot read or a
reported deal the rules cannot produce.

Replaying is the costly part: each record is replayed once per process (engine/events/
standings.py `replayed`), so the standings and the check of one event replay it once between
them.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Mapping, Sequence

import msgspec

from .. import records, rng
from ..errors import InputError
from .format import (
    Event,
    InvalidEvent,
    Round,
    Table,
    active_units,
    digest,
    game_of,
    parse_event,
    side_seats,
    unconfirmed,
)
from .seating import deal_seeds, reseat
from .standings import reading, replayed, reported_totals

# Every discrepancy's code, in the order the check meets them within a round (docs/events.md).
CODES = ("commitment_mismatch", "deal_seed_mismatch", "seating_incomplete", "seating_mismatch",
         "same_deal_differs", "record_inconsistent", "reported_inconsistent",
         "reported_unconfirmed", "penalty_inconsistent", "digest_mismatch")


# ---------------------------------------------------------------- the answer (spec schemas)

class EventText(msgspec.Struct):
    """The same words in English and Japanese."""

    en: str
    ja: str


class EventCheckCounts(msgspec.Struct):
    """What the check went through (up to the discrepancy, when there is one)."""

    records: int = 0
    reported: int = 0
    seatings: int = 0
    commitments: int = 0
    same_deals: int = 0
    penalties: int = 0


class EventDiscrepancy(msgspec.Struct):
    """The first thing in the event that is not what anyone re-deriving it finds: its `code`
    (one of the check's stable codes), what is wrong in words, where (the round and the table's
    number counted from 1 as people say them; a deal and a step counted from 0 as a record's
    check names them, the message saying them from 1) and the `path` in the document."""

    code: str
    message: EventText
    round: int | None
    table: int | None
    deal: int | None
    step: int | None
    path: str
    record_code: str | None = None  # record_inconsistent: the record check's own code
    rule: str | None = None         # … and the rule an action refused by the rules broke


class EventCheck(msgspec.Struct):
    """An event checked: whether everything in it is what re-deriving it gives, what was
    checked, and the first discrepancy (null when consistent)."""

    consistent: bool
    checked: EventCheckCounts
    discrepancy: EventDiscrepancy | None


# ---------------------------------------------------------------- where, in words

@dataclass(frozen=True)
class Where:
    """A place in the document: a round (its index), a table of it (its index), a deal."""

    round_index: int | None = None
    table_index: int | None = None
    table_number: int | None = None

    @property
    def path(self) -> str:
        if self.round_index is None:
            return ""
        out = f"rounds[{self.round_index}]"
        return out if self.table_index is None else f"{out}.tables[{self.table_index}]"

    def under(self, suffix: str) -> str:
        return f"{self.path}.{suffix}" if self.path and suffix else (self.path or suffix)

    def words(self, deal: int | None = None, step: int | None = None) -> EventText:
        en, ja = [], []
        if self.round_index is not None:
            en.append(f"round {self.round_index + 1}")
            ja.append(f"第{self.round_index + 1}ラウンド")
        if self.table_number is not None:
            en.append(f"table {self.table_number}")
            ja.append(f"第{self.table_number}卓")
        if deal is not None:
            en.append(f"deal {deal + 1}")
            ja.append(f"第{deal + 1}局")
        if step is not None:
            en.append(f"action {step + 1}")
            ja.append(f"{step + 1}手目")
        return EventText(", ".join(en).capitalize(), " ".join(ja))


_MESSAGES = {
    "commitment_mismatch": (
        "the revealed seed and salt do not make the commitment published before play",
        "公開されたシードとソルトが、事前に公開されたコミットメントと一致しません"),
    "deal_seed_mismatch": (
        "this deal's seed commitment is not the one the round's revealed seed derives",
        "この局のシードのコミットメントが、公開されたラウンドのシードから導かれるものではありません"),
    "seating_incomplete": (
        "{entrant} may play in this round but is neither seated nor given a bye",
        "{entrant} はこのラウンドに出られるのに、着席もバイもありません"),
    "seating_mismatch": (
        "the seating is not what the round's method ({method}) gives from its revealed seed "
        "and the rounds before it: {detail}",
        "席順が、公開されたシードとそれ以前のラウンドからラウンドの方式({method})で決まるものと"
        "違います: {detail}"),
    "same_deal_differs": (
        "the table's record was not dealt from the round's seed for this deal (the same deals "
        "at every table)",
        "卓の対局記録が、この局のラウンドのシード(全卓同一配札)で配られていません"),
    "record_inconsistent": (
        "the table's record does not replay as written: {code} — {message}",
        "卓の対局記録が記録どおりに再生できません: {code} — {message}"),
    "reported_inconsistent": ("the reported result {detail}", "申告された結果が{detail}"),
    "reported_unconfirmed": (
        "the reported result is not confirmed by every seat, as the event asks: {seats} "
        "did not confirm it",
        "申告された結果が、大会の求めるとおり全席に確認されていません: {seats} の確認がありません"),
    "penalty_inconsistent": (
        "the penalty goes to {entrant}, who is not in the event in its round",
        "罰則の対象 {entrant} は、そのラウンドで大会に参加していません"),
    "digest_mismatch": (
        "the digest the event carries is not its digest: it was changed after it was made",
        "大会文書が持つダイジェストが文書のダイジェストと一致しません(作成後に変更されています)"),
}


def _message(code: str, where: EventText, en: dict[str, Any] | None = None,
             ja: dict[str, Any] | None = None) -> EventText:
    text_en, text_ja = _MESSAGES[code]
    said_en = text_en.format(**(en or {}))
    said_ja = text_ja.format(**(ja if ja is not None else en or {}))
    if not where.en:
        return EventText(said_en[:1].upper() + said_en[1:] + ".", said_ja + "。")
    return EventText(f"{where.en}: {said_en}.", f"{where.ja}: {said_ja}。")


def found(code: str, where: Where, path: str, *, deal: int | None = None,
          step: int | None = None, en: dict[str, Any] | None = None,
          ja: dict[str, Any] | None = None, **extra: Any) -> EventDiscrepancy:
    """A discrepancy at `where` (its `path` in the document), its words filled from `en` (and
    `ja` where the Japanese takes other words)."""
    round_number = None if where.round_index is None else where.round_index + 1
    return EventDiscrepancy(code, _message(code, where.words(deal, step), en, ja), round_number,
                            where.table_number, deal, step, path, **extra)


# ---------------------------------------------------------------- the check

@dataclass
class Context:
    """What every check reads: the parsed event and the counts of what was checked."""

    event: Event
    checked: Counter[str]


TableCheck = Callable[[Context, Round, Table, Where], "EventDiscrepancy | None"]


def check_event(data: Any) -> dict[str, Any]:
    """The whole event checked: {"consistent", "checked": counts, "discrepancy": the first, or
    null} (docs/events.md "Checking an event"). A document that is not well formed raises
    InvalidEvent (422) as parse_event does."""
    out: dict[str, Any] = msgspec.to_builtins(event_check(data))
    return out


def event_check(data: Any) -> EventCheck:
    """check_event's answer as its Struct."""
    with reading():
        return check_parsed(parse_event(data), data)


def check_parsed(event: Event, data: Mapping[str, Any],
                 document_digest: str | None = None) -> EventCheck:
    """The check of an event already read (`data` parsed as `event`, its digest when already
    made: the standings' report reads the document once for both)."""
    ctx = Context(event, Counter())
    first = next(_discrepancies(ctx, data, document_digest), None)
    counts = EventCheckCounts(**{k: ctx.checked[k] for k in EventCheckCounts.__struct_fields__})
    return EventCheck(first is None, counts, first)


def _discrepancies(ctx: Context, data: Mapping[str, Any],
                   document_digest: str | None) -> Iterator[EventDiscrepancy]:
    """Every check in the document's order, each yielding what it finds (the first is kept)."""
    for k, rnd in enumerate(ctx.event.rounds):
        where = Where(k)
        yield from _filter(_commitments(ctx, rnd, where))
        yield from _filter(_seating(ctx, rnd, where))
        for t, table in enumerate(rnd.tables):
            at = Where(k, t, table.number)
            for check in TABLE_CHECKS:
                yield from _filter([check(ctx, rnd, table, at)])
    yield from _filter(_penalties(ctx))
    carried = data.get("digest")
    if isinstance(carried, str) and carried.strip().lower() != (document_digest or digest(data)):
        yield found("digest_mismatch", Where(), "digest")


def _filter(items: Any) -> Iterator[EventDiscrepancy]:
    return (d for d in items if d is not None)


# ---------------------------------------------------------------- commitments

def _commitments(ctx: Context, rnd: Round, where: Where) -> Iterator[EventDiscrepancy | None]:
    """The round's revealed seed against its commitment; each same-deals seed revealed against
    its own, and (the round's seed revealed) against the seed the round's derives."""
    if rnd.seed is not None:
        ctx.checked["commitments"] += 1
        if rng.commitment(rnd.seed, rnd.seed_salt) != rnd.seed_commitment.strip().lower():
            yield found("commitment_mismatch", where, where.under("seed_commitment"))
            return
    derived = deal_seeds(rnd.seed, rnd.seed_salt, len(rnd.deals)) if rnd.seed is not None else []
    for j, deal in enumerate(rnd.deals):
        if deal.seed is not None:
            ctx.checked["commitments"] += 1
            if rng.commitment(deal.seed, deal.seed_salt) != deal.seed_commitment.strip().lower():
                yield found("commitment_mismatch", where, where.under(f"deals[{j}].seed_commitment"),
                            deal=j)
                return
        if derived:
            made = derived[j]
            if deal.seed_commitment.strip().lower() != made["seed_commitment"] or \
                    deal.seed not in (None, made["seed"]):
                yield found("deal_seed_mismatch", where, where.under(f"deals[{j}]"), deal=j)
                return


# ---------------------------------------------------------------- seating

def _seating(ctx: Context, rnd: Round, where: Where) -> Iterator[EventDiscrepancy | None]:
    """Everyone who may play seated once or given a bye (parse_event saw each seated one may,
    once); then, the seed revealed (a fixed round: always), the seating its method gives."""
    k = where.round_index or 0
    seated = {s.entrant for t in rnd.tables for s in t.seats} | set(rnd.byes)
    for unit in active_units(ctx.event, k + 1):
        if unit not in seated:
            yield found("seating_incomplete", where, where.path,
                        en={"entrant": unit})
            return
    if rnd.seed is None and rnd.method != "fixed":
        return
    ctx.checked["seatings"] += 1
    try:
        again = reseat(ctx.event, k + 1)
    except InvalidEvent as err:  # the method cannot seat this round (a plan no one may play)
        yield _seating_differs(rnd, where, where.path, err.message, "")
        return
    if len(again.tables) != len(rnd.tables):
        yield _seating_differs(rnd, where, where.under("tables"),
                               f"{len(again.tables)} tables, not {len(rnd.tables)}",
                               f"卓の数は {len(again.tables)} で、{len(rnd.tables)} ではありません")
        return
    for t, (mine, theirs) in enumerate(zip(rnd.tables, again.tables)):
        if _seats(mine) != _seats(theirs) or mine.number != theirs.number:
            at = Where(k, t, mine.number)
            said = _listed([u if p == u else f"{u} ({p})" for u, p in _seats(theirs)])
            yield _seating_differs(rnd, at, at.under("seats"), f"this table seats {said}",
                                   f"この卓の席は {said}")
            return
    if rnd.byes != again.byes:
        yield _seating_differs(rnd, where, where.under("byes"),
                               f"the byes are {_listed(again.byes)}",
                               f"バイは {_listed(again.byes)}")


def _seats(table: Table) -> list[tuple[str, str]]:
    """A table's seats as the seating compares them: the entrant and its player, in order."""
    return [(s.entrant, s.player) for s in table.seats]


def _listed(items: Sequence[str]) -> str:
    return "[" + ", ".join(items) + "]"


def _seating_differs(rnd: Round, where: Where, path: str, en: str, ja: str) -> EventDiscrepancy:
    return found("seating_mismatch", where, path, en={"method": rnd.method, "detail": en},
                 ja={"method": rnd.method, "detail": ja or en})


# ---------------------------------------------------------------- a table's result

def same_deals(ctx: Context, rnd: Round, table: Table, where: Where) -> EventDiscrepancy | None:
    """A record's first deals dealt from the round's same-deals seeds (their commitments)."""
    record = table.result.record if table.result else None
    if record is None or not rnd.deals:
        return None
    deals = record.get("deals") or []
    for j, (mine, theirs) in enumerate(zip(deals, rnd.deals)):
        ctx.checked["same_deals"] += 1
        dealt = mine.get("deal") or {}
        seed = dealt.get("seed")
        made = dealt.get("seed_commitment") or \
            (rng.commitment(seed, dealt.get("seed_salt")) if isinstance(seed, str) else None)
        if not isinstance(made, str) or made.strip().lower() != \
                theirs.seed_commitment.strip().lower():
            return found("same_deal_differs", where,
                         where.under(f"result.record.deals[{j}].deal"), deal=j)
    return None


def record_replays(ctx: Context, rnd: Round, table: Table,
                   where: Where) -> EventDiscrepancy | None:
    """The table's record replayed (engine/records.py): its first discrepancy, if any, with
    its deal and step."""
    record = table.result.record if table.result else None
    if record is None:
        return None
    ctx.checked["records"] += 1
    path = where.under("result.record")
    try:
        replay = replayed(record)
    except InputError as err:  # a record parse_event let through but the replay refuses
        raise InvalidEvent(err.message, f"{path}.{err.path}" if err.path else path) from None
    if replay.discrepancy is None:
        return None
    code, deal, step = replay.discrepancy
    # The record's own words, in both languages: replayed again only for the one it stops at
    said = {lang: records.check_record(record, lang=lang)["discrepancy"] or {}
            for lang in ("en", "ja")}
    return found("record_inconsistent", where, _record_path(path, code, deal, step),
                 deal=deal, step=step,
                 en={"code": code, "message": str(said["en"].get("message", "")).rstrip(".")},
                 ja={"code": code, "message": str(said["ja"].get("message", "")).rstrip("。")},
                 record_code=code, rule=said["en"].get("rule"))


def _record_path(path: str, code: str, deal: int | None, step: int | None) -> str:
    if deal is None:
        return f"{path}.{'digest' if code == 'digest_mismatch' else 'totals'}"
    if step is None:
        return f"{path}.deals[{deal}]"
    return f"{path}.deals[{deal}].actions[{step}]"


def reported_places(ctx: Context, rnd: Round, table: Table,
                    where: Where) -> EventDiscrepancy | None:
    """A reported result's places: a ranking (1, then 1 + those placed ahead: ties share),
    partners (where they rotate) placed and scored alike, and the places its scores give
    (the most first, or the fewest where the game counts against) when it gives scores."""
    reported = table.result.reported if table.result else None
    if reported is None or reported.deals is not None or reported.places is None:
        return None  # a report of deals: reported_deals_agree
    ctx.checked["reported"] += 1
    path = where.under("result.reported")
    places, scores = reported.places, reported.scores
    for unit, place in places.items():
        ahead = sum(1 for p in places.values() if p < place)
        if place != ahead + 1:
            return _reported(where, f"{path}.places.{unit}",
                             f"places {unit} {place} with {ahead} placed ahead",
                             f" {unit} を {place} 位としていますが、上位は {ahead} 名です")
    event = ctx.event
    game = game_of(event.system)
    if event.system.partners == "rotating":
        for side in side_seats(event.system, game):
            units = [table.seats[i].entrant for i in side]
            for unit in units[1:]:
                if places[unit] != places[units[0]] or \
                        (scores is not None and scores[unit] != scores[units[0]]):
                    return _reported(where, f"{path}.places.{unit}",
                                     f"places or scores partners {units[0]} and {unit} apart",
                                     f"パートナーの {units[0]} と {unit} を別の順位・得点に"
                                     "しています")
    if scores is None:
        return None
    sign = -1 if game.standings_fewest_first else 1
    for unit, place in places.items():
        ahead = sum(1 for s in scores.values() if sign * s > sign * scores[unit])
        if place != ahead + 1:
            return _reported(where, f"{path}.places.{unit}",
                             f"places {unit} {place}, where its score {scores[unit]} places it "
                             f"{ahead + 1}",
                             f" {unit} を {place} 位としていますが、得点 {scores[unit]} では "
                             f"{ahead + 1} 位です")
    return None


def reported_deals_agree(ctx: Context, rnd: Round, table: Table,
                         where: Where) -> EventDiscrepancy | None:
    """A reported result that gives its deals: scored by the game's own code (as the
    standings score it: engine/events/standings.py reported_totals), the places and scores it
    states, when it states them, are what its deals give (the first that is not, in seat
    order). A deal the rules cannot produce is a document not well formed (422)."""
    reported = table.result.reported if table.result else None
    if reported is None or reported.deals is None:
        return None
    ctx.checked["reported"] += 1
    path = where.under("result.reported")
    totals = reported_totals(ctx.event, table, path)
    units = list(dict.fromkeys(s.entrant for s in table.seats))
    sign = -1 if game_of(ctx.event.system).standings_fewest_first else 1
    scored = {u: totals.get(u, 0) for u in units}
    placed = {u: 1 + sum(sign * scored[w] > sign * scored[u] for w in units) for u in units}
    for name, stated, derived, ja in (("places", reported.places, placed, "順位"),
                                      ("scores", reported.scores, scored, "得点")):
        for unit in units:
            if stated is not None and stated.get(unit) != derived[unit]:
                return _reported(where, f"{path}.{name}.{unit}",
                                 f"states {unit}'s {name[:-1]} {stated.get(unit)}, where its "
                                 f"deals give {derived[unit]}",
                                 f" {unit} の{ja}を {stated.get(unit)} としていますが、申告された"
                                 f"局からは {derived[unit]} です")
    return None


def _reported(where: Where, path: str, en: str, ja: str) -> EventDiscrepancy:
    return found("reported_inconsistent", where, path, en={"detail": en}, ja={"detail": ja})


def reported_confirmed(ctx: Context, rnd: Round, table: Table,
                       where: Where) -> EventDiscrepancy | None:
    """Where the event asks every seat to confirm a reported result (system.confirmations
    "seats"), each seat at the table confirmed it; the seats that did not, in seat order."""
    missing = unconfirmed(ctx.event, table)
    if not missing:
        return None
    said = ", ".join(missing)
    return found("reported_unconfirmed", where, where.under("result.reported.confirmed"),
                 en={"seats": said}, ja={"seats": "、".join(missing)})


# Each table's checks, in order: one more kind of table result is one more function here.
TABLE_CHECKS: tuple[TableCheck, ...] = (same_deals, record_replays, reported_places,
                                        reported_deals_agree, reported_confirmed)


# ---------------------------------------------------------------- penalties

def _penalties(ctx: Context) -> Iterator[EventDiscrepancy | None]:
    """Each director's penalty goes to an entrant in the event in its round: entered by then,
    not withdrawn before it, not disqualified in an earlier round (checked in or not)."""
    event = ctx.event
    by_id = {e.id: e for e in event.entrants}
    for i, p in enumerate(event.penalties):
        ctx.checked["penalties"] += 1
        entrant = by_id[p.entrant]
        dropped = any(q.kind == "disqualification" and q.round < p.round and q.entrant == p.entrant
                      for q in event.penalties)
        if entrant.entered_round > p.round or dropped or \
                (entrant.withdrawn_round is not None and entrant.withdrawn_round <= p.round):
            at = Where(p.round - 1) if p.round <= len(event.rounds) else Where()
            yield found("penalty_inconsistent", at, f"penalties[{i}]", en={"entrant": p.entrant})
            return


__all__ = ["CODES", "TABLE_CHECKS", "EventCheck", "EventCheckCounts", "EventDiscrepancy",
           "EventText", "check_event", "check_parsed", "event_check"]
