"""An event published (docs/events.md "Publication"): its standings report as a stable JSON
document, and its sheet in text, CSV or a printable self-contained HTML page, in English or
Japanese.

`standings_report(data, lang)`: the standings with every tie-break value per entrant, each
entrant's round-by-round results, the director's penalties and the event's check
(engine/events/check.py), as the Structs below (the spec publishes them). `sheet(data, fmt,
lang)`: the publication — the check's outcome at the top, the event's name, tags and system
in words, the standings, a crosstable, each round's seating and results (reported ones marked),
its deals with their seeds once revealed (the same deals side by side across the tables), and
the penalties with their reasons.

The sheet is built once as parts (`Publication`: titles, label–value lines, grids of cells)
and written by one renderer per format, each reusing the match score sheet's pieces
(engine/sheets.py): controls shown visibly, display-width alignment, CSV formula
neutralising, HTML escaping and its printable stylesheet. What a stranger wrote (names, tags,
reasons, notes) is never written raw. Pure: no I/O, nothing of HTTP.
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any, Literal, Mapping, Sequence

import msgspec
import orjson

from .. import rng
from ..sheets import (
    _CSS,
    FORMATS,
    LANGS,
    MEDIA_TYPES,
    csv_text,
    display_width,
    escape_html,
    pad,
    signed,
    visible,
)
from .check import (
    EventCheck,
    EventCheckCounts,
    EventDiscrepancy,
    EventText,
    check_parsed,
)
from .format import (
    DealsEnd,
    Event,
    Round,
    Table,
    TimeEnd,
    digest,
    game_of,
    parse_event,
    seat_ids,
    side_seats,
    unconfirmed,
)
from .standings import (
    EventRecordInconsistent,
    Replayed,
    TableOutcome,
    bye_points,
    opponents,
    outcomes,
    place_points,
    reading,
    record_totals,
    replayed,
    reported_totals,
    standings,
)

__all__ = ["EventCheck", "EventCheckCounts", "EventDiscrepancy", "EventPenaltyLine",
           "EventRoundResult", "EventSeatTaken", "EventStandingLine", "EventStandings",
           "EventText", "MEDIA_TYPES", "SHEET_STYLE", "sheet", "standings_report", "tie_break_name"]


# ---------------------------------------------------------------- the report (spec schemas)

class EventSeatTaken(msgspec.Struct):
    """A seat an entrant took in a round: its number at the table (from 1, in seat order), the
    seat id it counts under (the individual's, or a team member's) and the id of a substitute
    who took the seat for the round (null: none)."""

    seat: int
    player: str
    substitute: str | None = None


class EventPenaltyLine(msgspec.Struct):
    """A director's penalty as published: the round it was given in, to whom, what (a
    warning, event points off, a disqualification), the points taken off and the reason."""

    round: int
    entrant: str
    kind: Literal["warning", "points", "disqualification"]
    points: int
    reason: str


class EventRoundResult(msgspec.Struct):
    """What one entrant did in one round: the table's number (null: a bye, or not seated),
    the seats it took, its partners (where partners rotate) and opponents, its place and match
    score there (null while the table has no result), the round's event points (its place's
    or the bye's; the director's penalties apart), whether it was a bye, where the place comes
    from (`record`: a match record, replayed; `reported`: a result the table reported; null:
    none yet), the director's penalties given to it in the round, and whether the reported
    result lacks a seat's confirmation the event asks for (`unconfirmed`: it counts all the
    same, and the check names it)."""

    round: int
    table: int | None
    seats: list[EventSeatTaken]
    partners: list[str]
    opponents: list[str]
    place: int | None
    score: int | None
    event_points: int
    bye: bool
    result: Literal["record", "reported"] | None
    penalties: list[EventPenaltyLine]
    unconfirmed: bool = False


class EventStandingLine(msgspec.Struct):
    """One entrant's line of the standings (docs/events.md "Standings"): its rank (1…n, no two
    alike), name, event points, the value of every tie-break the system declares (in its
    order) and its lot, tables played, byes, first places, the director's points taken off,
    whether it was disqualified, how many of its tables' results were reported rather than
    recorded, and its results round by round (every round seated so far)."""

    rank: int
    entrant: str
    name: str
    event_points: int
    tie_breaks: dict[str, int]
    lot: int
    played: int
    byes: int
    first_places: int
    penalty_points: int
    disqualified: bool
    reported: int
    rounds: list[EventRoundResult]


class EventStandings(msgspec.Struct):
    """An event's standings report: the event's name, game and system in words (in `lang`),
    the rounds planned and seated, the tie-breaks in the order they apply, every entrant's
    line best first, the director's penalties, the event's check (its discrepancy names where
    the event is not what re-deriving it gives) and the event's digest."""

    name: str
    game: str
    game_name: str
    lang: str
    system: str
    rounds_planned: int
    rounds_seated: int
    tie_breaks: list[str]
    standings: list[EventStandingLine]
    penalties: list[EventPenaltyLine]
    check: EventCheck
    digest: str


def standings_report(data: Any, lang: str = "en") -> dict[str, Any]:
    """The event's standings report (EventStandings) as JSON values. A document that is not
    well formed raises InvalidEvent (422); so does a table's record that does not replay as
    written (`event_record_inconsistent`, the path of its first discrepancy): the standings
    cannot count it."""
    out: dict[str, Any] = msgspec.to_builtins(event_report(data, lang)[1])
    return out


def event_report(data: Any, lang: str) -> tuple[Event, EventStandings]:
    """The parsed event and its standings report."""
    _check_lang(lang)
    with reading():
        return _report(data, lang)


def _report(data: Any, lang: str) -> tuple[Event, EventStandings]:
    event = parse_event(data)
    document_digest = digest(data)
    checked = check_parsed(event, data, document_digest)
    found = checked.discrepancy
    if found is not None and found.code == "record_inconsistent":
        raise EventRecordInconsistent(found.message.en, found.path)
    played = outcomes(event, event.rounds)
    results = _round_results(event, played)
    names = {e.id: e.name or e.id for e in event.entrants}
    lines = [EventStandingLine(
        s.rank, s.entrant, names[s.entrant], s.event_points, dict(s.tie_breaks), s.lot,
        s.played, s.byes, s.first_places, s.penalty_points, s.disqualified, s.reported,
        results[s.entrant])
        for s in standings(event)]
    game = game_of(event.system)
    return event, EventStandings(
        event.name, game.id, _say(game.names, lang), lang, system_words(event, lang),
        event.system.rounds, len(event.rounds), list(event.system.tie_breaks), lines,
        [_penalty(p) for p in event.penalties], checked, document_digest)


def _check_lang(lang: str) -> None:
    if lang not in LANGS:
        raise ValueError(f"language {lang!r}: one of {LANGS}")


def _penalty(p: Any) -> EventPenaltyLine:
    return EventPenaltyLine(p.round, p.entrant, p.kind, p.points, p.reason)


def _round_results(event: Event, played: list[list[TableOutcome | None]]
                   ) -> dict[str, list[EventRoundResult]]:
    """Every entrant's results, a line per round seated so far (absent ones too)."""
    given: dict[tuple[int, str], list[EventPenaltyLine]] = {}
    for p in event.penalties:
        given.setdefault((p.round, p.entrant), []).append(_penalty(p))
    out: dict[str, list[EventRoundResult]] = {e.id: [] for e in event.entrants}
    for k, (rnd, tables) in enumerate(zip(event.rounds, played)):
        n = k + 1
        for t, (table, outcome) in enumerate(zip(rnd.tables, tables)):
            scores = table_scores(event, table, f"rounds[{k}].tables[{t}]")
            against = outcome.opponents if outcome else opponents(event, table)
            partners = _partners(event, table)
            for unit in dict.fromkeys(s.entrant for s in table.seats):
                place = outcome.places.get(unit) if outcome else None
                out[unit].append(EventRoundResult(
                    n, table.number,
                    [EventSeatTaken(i + 1, s.player, s.substitute.id if s.substitute else None)
                     for i, s in enumerate(table.seats) if s.entrant == unit],
                    partners.get(unit, []), list(against.get(unit, ())), place,
                    None if scores is None else scores.get(unit),
                    0 if place is None else place_points(event, place), False,
                    _source(table), given.get((n, unit), []), bool(unconfirmed(event, table))))
        for unit in rnd.byes:
            out[unit].append(EventRoundResult(n, None, [], [], [], None, None,
                                              bye_points(event), True, None,
                                              given.get((n, unit), [])))
        for unit, lines in out.items():
            if len(lines) < n:
                lines.append(EventRoundResult(n, None, [], [], [], None, None, 0, False, None,
                                              given.get((n, unit), [])))
    return out


def _source(table: Table) -> Literal["record", "reported"] | None:
    if table.result is None:
        return None
    return "record" if table.result.record is not None else "reported"


def table_scores(event: Event, table: Table, path: str) -> dict[str, int] | None:
    """Each entrant's match score at a table: its record's final totals, its reported deals'
    as the game scores them, or the scores its reported result states (None: no result, or a
    report of places without scores)."""
    if table.result is None:
        return None
    if table.result.record is not None:
        return record_totals(table, f"{path}.result.record")
    reported = table.result.reported
    if reported is not None and reported.deals is not None:
        return reported_totals(event, table, f"{path}.result.reported")
    return dict(reported.scores) if reported is not None and reported.scores is not None \
        else None


def _partners(event: Event, table: Table) -> dict[str, list[str]]:
    """Each entrant's partners at a table where partners rotate (the others on its side)."""
    if event.system.partners != "rotating":
        return {}
    out: dict[str, list[str]] = {}
    for side in side_seats(event.system, game_of(event.system)):
        units = [table.seats[i].entrant for i in side]
        for u in units:
            out[u] = [w for w in units if w != u]
    return out


# ---------------------------------------------------------------- words

_UI: dict[str, tuple[str, str]] = {
    "title": ("Event results", "大会成績"),
    "check": ("Check", "検証"),
    "consistent": ("consistent — every commitment, seating, record and reported result "
                   "re-derived ({records} record{rs}, {reported} reported result{ps}, {seatings} "
                   "seating{ss}, {commitments} commitment{cs})",
                   "整合 — すべてのコミットメント・席順・対局記録・申告結果を再導出して確認済み"
                   "(対局記録 {records}・申告結果 {reported}・席順 {seatings}・"
                   "コミットメント {commitments})"),
    "not_consistent": ("NOT consistent — {code}: {message}", "不整合 — {code}: {message}"),
    "game": ("Game", "ゲーム"), "system": ("System", "方式"),
    "rounds_played": ("Rounds", "ラウンド"),
    "rounds_of": ("{seated} of {planned} seated", "全 {planned} ラウンド中 {seated} ラウンド"),
    "tag": ("tag “{name}”", "タグ「{name}」"), "digest": ("Digest", "ダイジェスト"),
    # the system in words
    "tables_of": ("tables of {n}", "{n}人卓"),
    "fixed": ("fixed teams", "固定チーム"), "rotating": ("partners rotate", "パートナー交代制"),
    "rounds_seated_by": ("{n} round{s}, seated {method}", "全{n}ラウンド・{method}"),
    "method_random": ("at random", "ランダム"), "method_swiss": ("Swiss", "スイス式"),
    "method_fixed": ("by the director's plan", "ディレクターの計画"),
    "end_deals": ("a round is {n} deal{s}", "1ラウンド {n} 局"),
    "end_match": ("a round is one match to the game's own end",
                  "1ラウンドはゲーム本来の終了までの 1 試合"),
    "end_time": ("a round is {n} minute{s}", "1ラウンド {n} 分"),
    "bell_finish_deal": ("at the bell the deal in progress is played out",
                         "終了の合図で進行中の局は最後まで行う"),
    "bell_void_deal": ("at the bell the deal in progress does not count",
                       "終了の合図で進行中の局は無効"),
    "event_points": ("event points by place {points}", "順位ごとの大会ポイント {points}"),
    "bye_points": ("a bye {n}", "バイ {n}"),
    "tie_breaks": ("tie-breaks: {names}, then the lot", "タイブレーク: {names}、最後に抽選"),
    "lot_only": ("ties broken by the lot", "同点は抽選"),
    "same_deals": ("the same {n} deal{s} at every table", "全卓同一配札 {n} 局"),
    "confirmations": ("every seat confirms a reported result", "申告結果は全席が確認"),
    "opponents_points": ("opponents' event points", "対戦相手の大会ポイント"),
    "match_score": ("game score difference", "得点差"),
    "first_places": ("first places", "1位の回数"),
    "head_to_head": ("head to head", "直接対決"),
    # the standings
    "standings": ("Standings", "順位表"),
    "rank": ("Rank", "順位"), "entrant": ("Entrant", "参加者"),
    "points": ("Event points", "大会ポイント"), "played": ("Played", "対局"),
    "byes": ("Byes", "バイ"), "firsts": ("First places", "1位"),
    "penalty_points": ("Points off", "減点"), "lot": ("Lot", "抽選"),
    "disqualified": ("disqualified", "失格"),
    # the crosstable
    "crosstable": ("Crosstable", "対戦表"),
    "round_n": ("Round {n}", "第{n}ラウンド"),
    "cell_table": ("T{table}", "第{table}卓"),
    "cell_with": ("with {who}", "組 {who}"), "cell_vs": ("vs {who}", "対 {who}"),
    "cell_result": ("{place}, {points} pt", "{place}位 {points}点"),
    "cell_bye": ("bye, {points} pt", "バイ {points}点"),
    "cross_legend": ("#n: the entrant ranked n; T: table; pt: event points",
                     "#n: 順位 n の参加者、点: 大会ポイント"),
    "col_table": ("Table", "卓"), "col_opponents": ("Opponents", "対戦相手"),
    "col_place": ("Place", "順位"), "col_points": ("Event points", "大会ポイント"),
    # a round
    "round_title": ("Round {n} — {method}", "第{n}ラウンド — {method}"),
    "seed_commitment": ("Seed commitment", "シードのコミットメント"),
    "seed": ("Seed", "シード"), "salt": ("Salt", "ソルト"),
    "not_revealed": ("not revealed yet", "未公開"),
    "seat": ("Seat", "席"), "player": ("Player", "プレイヤー"),
    "score": ("Score", "得点"), "result": ("Result", "結果"),
    "record": ("record", "対局記録"), "reported": ("reported", "申告"),
    "unconfirmed": ("{source}, unconfirmed", "{source}(未確認)"),
    "director_confirmed": ("{source}, confirmed by the director",
                           "{source}(ディレクターが確認)"),
    "pending": ("no result yet", "結果待ち"),
    "substitute_for": ("{who}, substitute for {player}", "{who}({player} の代理)"),
    "none": ("none", "なし"),
    "deals": ("Deals", "配札"), "deal": ("Deal", "局"),
    "commitment": ("Commitment", "コミットメント"),
    "from_cards": ("dealt from the cards", "実物の札から配札"),
    "same_deals_title": ("The same deals at every table", "全卓同一配札"),
    "table_n": ("Table {n}", "第{n}卓"),
    "note": ("Note", "備考"),
    # penalties
    "penalties": ("Penalties", "罰則"), "round": ("Round", "ラウンド"),
    "kind": ("Penalty", "種類"), "reason": ("Reason", "理由"),
    "warning": ("warning", "警告"), "kind_points": ("points", "減点"),
    "disqualification": ("disqualification", "失格"),
}


def _ui(key: str, lang: str, **fill: Any) -> str:
    en, ja = _UI[key]
    return (ja if lang == "ja" else en).format(**fill)


def tie_break_name(tie_break: str, lang: str) -> str:
    """A tie-break's name for people (`match_score`: "game score difference", 得点差)."""
    return _ui(tie_break, lang)


def _say(text: Mapping[str, str] | EventText, lang: str) -> str:
    if isinstance(text, EventText):
        return text.ja if lang == "ja" else text.en
    return text.get(lang) or text.get("en", "")


def _plural(n: int) -> str:
    """The English plural's ending after `n` ("1 deal", "2 deals"); Japanese has none."""
    return "" if n == 1 else "s"


def _sep(lang: str) -> str:
    return "・" if lang == "ja" else "; "


def _comma(lang: str) -> str:
    return "、" if lang == "ja" else ", "


def ordinal(n: int, lang: str) -> str:
    if lang == "ja":
        return str(n)
    tail = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{tail}"


def system_words(event: Event, lang: str) -> str:
    """The event's system in words: the game, tables, partners, rounds and seating, how a round
    ends, event points, byes, tie-breaks and the same deals."""
    s = event.system
    game = game_of(s)
    parts = [_say(game.names, lang), _ui("tables_of", lang, n=s.table_size)]
    if s.partners != "none":
        parts.append(_ui(s.partners, lang))
    parts.append(_ui("rounds_seated_by", lang, n=s.rounds, s=_plural(s.rounds),
                     method=_ui(f"method_{s.seating}", lang)))
    end = s.round_end
    if isinstance(end, DealsEnd):
        parts.append(_ui("end_deals", lang, n=end.deals, s=_plural(end.deals)))
    elif isinstance(end, TimeEnd):
        parts.append(_ui("end_time", lang, n=end.minutes, s=_plural(end.minutes)) +
                     (" (" if lang == "en" else "(") + _ui(f"bell_{end.at_bell}", lang) +
                     (")" if lang == "en" else ")"))
        if end.note:
            parts.append(end.note)
    else:
        parts.append(_ui("end_match", lang))
    parts.append(_ui("event_points", lang, points=_comma(lang).join(map(str, s.event_points))))
    parts.append(_ui("bye_points", lang, n=bye_points(event)))
    parts.append(_ui("tie_breaks", lang, names=_comma(lang).join(tie_break_name(t, lang)
                                                                 for t in s.tie_breaks))
                 if s.tie_breaks else _ui("lot_only", lang))
    if s.same_deals:
        parts.append(_ui("same_deals", lang, n=s.same_deals, s=_plural(s.same_deals)))
    if s.confirmations == "seats":
        parts.append(_ui("confirmations", lang))
    return _sep(lang).join(parts)


def verdict(check: EventCheck, lang: str) -> str:
    """The check's outcome in words."""
    if check.discrepancy is None:
        c = check.checked
        return _ui("consistent", lang, records=c.records, reported=c.reported,
                   seatings=c.seatings, commitments=c.commitments, rs=_plural(c.records),
                   ps=_plural(c.reported), ss=_plural(c.seatings), cs=_plural(c.commitments))
    d = check.discrepancy
    return _ui("not_consistent", lang, code=d.code, message=_say(d.message, lang))


# ---------------------------------------------------------------- the publication's parts

@dataclass(frozen=True)
class Cell:
    """A cell of a grid: its text, whether it is a number (right-aligned; a number in CSV),
    and a mark the HTML page styles (`reported`)."""

    text: str
    number: bool = False
    mark: str = ""


@dataclass(frozen=True)
class Grid:
    header: tuple[Cell, ...]
    rows: tuple[tuple[Cell, ...], ...]


@dataclass(frozen=True)
class Part:
    """A section: its title, label–value lines, a grid (`wide`: the CSV's, when it spreads a
    cell over columns) and notes. Level 2: a section; 3: a round's own part."""

    title: str
    lines: tuple[tuple[str, str], ...] = ()
    grid: Grid | None = None
    wide: Grid | None = None
    notes: tuple[str, ...] = ()
    level: int = 2


@dataclass(frozen=True)
class Publication:
    title: str
    lang: str
    consistent: bool
    verdict: str
    heading: tuple[tuple[str, str], ...]
    parts: tuple[Part, ...]


def _cells(*texts: Any) -> tuple[Cell, ...]:
    return tuple(t if isinstance(t, Cell) else Cell(str(t)) for t in texts)


def _num(n: int | None) -> Cell:
    return Cell("" if n is None else str(n), number=True)


def build(event: Event, rep: EventStandings, lang: str) -> Publication:
    """The publication of an event and its standings report."""
    title = _ui("title", lang) + (f" — {event.name}" if event.name else "")
    heading = [(_ui("game", lang), rep.game_name), (_ui("system", lang), rep.system),
               (_ui("rounds_played", lang), _ui("rounds_of", lang, seated=rep.rounds_seated,
                                                planned=rep.rounds_planned))]
    heading += [(_ui("tag", lang, name=k), _tag_text(v)) for k, v in event.tags.items()]
    heading.append((_ui("digest", lang), rep.digest))
    names = {e.id: e.name or e.id for e in event.entrants}
    parts = [_standings_part(rep, lang), _crosstable_part(rep, lang)]
    for k, rnd in enumerate(event.rounds):
        parts += _round_parts(event, rep, k, rnd, names, lang)
    if event.penalties:
        parts.append(_penalties_part(rep, names, lang))
    return Publication(title, lang, rep.check.consistent, verdict(rep.check, lang),
                       tuple(heading), tuple(parts))


def _tag_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return orjson.dumps(value).decode()


def _label(entrant: str, name: str) -> str:
    return entrant if not name or name == entrant else f"{name} ({entrant})"


def _standings_part(rep: EventStandings, lang: str) -> Part:
    firsts_shown = "first_places" in rep.tie_breaks  # a tie-break's column already
    header = _cells(_ui("rank", lang), _ui("entrant", lang), _ui("points", lang),
                    *(tie_break_name(t, lang).capitalize() if lang == "en" else
                      tie_break_name(t, lang) for t in rep.tie_breaks),
                    _ui("played", lang), _ui("byes", lang),
                    *([] if firsts_shown else [_ui("firsts", lang)]),
                    _ui("penalty_points", lang), _ui("lot", lang))
    rows = []
    for line in rep.standings:
        who = _label(line.entrant, line.name)
        if line.disqualified:
            who += f" ({_ui('disqualified', lang)})" if lang == "en" else \
                f"({_ui('disqualified', lang)})"
        rows.append((_num(line.rank), Cell(who), _num(line.event_points),
                     *(_num(line.tie_breaks[t]) for t in rep.tie_breaks),
                     _num(line.played), _num(line.byes),
                     *([] if firsts_shown else [_num(line.first_places)]),
                     _num(line.penalty_points), _num(line.lot)))
    return Part(_ui("standings", lang), grid=Grid(header, tuple(rows)))


def _crosstable_part(rep: EventStandings, lang: str) -> Part:
    """Entrant × round: the table, partners and opponents (by rank), place and event points;
    the CSV spreads each round over four columns."""
    rank = {line.entrant: line.rank for line in rep.standings}
    numbers = range(1, rep.rounds_seated + 1)
    header = _cells("#", _ui("entrant", lang), *(_ui("round_n", lang, n=n) for n in numbers))
    wide_header = _cells("#", _ui("entrant", lang), *(
        f"{_ui('round_n', lang, n=n)} {_ui(col, lang)}" for n in numbers
        for col in ("col_table", "col_opponents", "col_place", "col_points")))
    rows, wide = [], []
    for line in rep.standings:
        cells, spread = [], []
        for r in line.rounds:
            cells.append(Cell(_cross_cell(r, rank, lang)))
            spread += [_num(r.table), Cell(" ".join(f"#{rank[o]}" for o in r.opponents)),
                       _num(r.place), _num(r.event_points if r.table or r.bye else None)]
        rows.append((_num(line.rank), Cell(_label(line.entrant, line.name)), *cells))
        wide.append((_num(line.rank), Cell(_label(line.entrant, line.name)), *spread))
    return Part(_ui("crosstable", lang), grid=Grid(header, tuple(rows)),
                wide=Grid(wide_header, tuple(wide)), notes=(_ui("cross_legend", lang),))


def _cross_cell(r: EventRoundResult, rank: Mapping[str, int], lang: str) -> str:
    if r.bye:
        return _ui("cell_bye", lang, points=r.event_points)
    if r.table is None:
        return "—"
    parts = [_ui("cell_table", lang, table=r.table)]
    if r.partners:
        parts.append(_ui("cell_with", lang, who=" ".join(f"#{rank[p]}" for p in r.partners)))
    parts.append(_ui("cell_vs", lang, who=" ".join(f"#{rank[o]}" for o in r.opponents)))
    text = " ".join(parts)
    if r.place is not None:
        text += (": " if lang == "en" else " ") + _ui(
            "cell_result", lang, place=ordinal(r.place, lang), points=r.event_points)
    return text


def _round_parts(event: Event, rep: EventStandings, k: int, rnd: Round,
                 names: Mapping[str, str], lang: str) -> list[Part]:
    """A round: its seed and commitment, each table's seats and result, its byes; its deals."""
    n = k + 1
    lines = [(_ui("seed_commitment", lang), rnd.seed_commitment),
             (_ui("seed", lang), rnd.seed if rnd.seed is not None else _ui("not_revealed", lang))]
    if rnd.seed is not None and rnd.seed_salt:
        lines.append((_ui("salt", lang), rnd.seed_salt))
    lines.append((_ui("byes", lang), _comma(lang).join(_label(u, names[u]) for u in rnd.byes)
                  or _ui("none", lang)))
    result_of = {(r.round, line.entrant): r for line in rep.standings for r in line.rounds}
    people = _people(event)
    header = _cells(_ui("col_table", lang), _ui("seat", lang), _ui("entrant", lang),
                    _ui("player", lang), _ui("col_place", lang), _ui("points", lang),
                    _ui("score", lang), _ui("result", lang))
    rows = []
    notes = []
    for table in rnd.tables:
        reported = table.result.reported if table.result else None
        # the seats whose confirmation the director attests (a signed score sheet): the sheet
        # says so on their row, a tap on the table's page being the ordinary way
        attested = {c.seat for c in reported.confirmed if c.via == "director"} \
            if reported is not None else set()
        for i, seat in enumerate(table.seats):
            r = result_of[(n, seat.entrant)]
            # an individual plays under its own id: the column names team members, substitutes
            player = "" if seat.player == seat.entrant else \
                _label(seat.player, people.get(seat.player, ""))
            if seat.substitute is not None:
                player = _ui("substitute_for", lang,
                             who=_label(seat.substitute.id, seat.substitute.name),
                             player=player or _label(seat.player, people.get(seat.player, "")))
            source = _ui(r.result, lang) if r.result else _ui("pending", lang)
            if r.unconfirmed:
                source = _ui("unconfirmed", lang, source=source)
            elif (seat.substitute.id if seat.substitute else seat.player) in attested:
                source = _ui("director_confirmed", lang, source=source)
            rows.append((_num(table.number), _num(i + 1),
                         Cell(_label(seat.entrant, names[seat.entrant])), Cell(player),
                         _num(r.place), _num(r.event_points if r.place is not None else None),
                         Cell("" if r.score is None else str(r.score), number=True),
                         Cell(source, mark="reported" if r.result == "reported" else "")))
        if reported is not None and reported.note:
            notes.append(f"{_ui('table_n', lang, n=table.number)}: {reported.note}")
    method = _ui(f"method_{rnd.method}", lang)
    out = [Part(_ui("round_title", lang, n=n, method=method), tuple(lines),
                Grid(header, tuple(rows)), notes=tuple(notes))]
    deals = _deals_part(event, k, rnd, lang)
    if deals is not None:
        out.append(deals)
    return out


def _people(event: Event) -> dict[str, str]:
    """Every seat id's name: an individual's, a team member's."""
    out = {e.id: e.name for e in event.entrants}
    out.update({m.id: m.name for e in event.entrants for m in e.members})
    return out


def _deals_part(event: Event, k: int, rnd: Round, lang: str) -> Part | None:
    """The round's deals with their seeds: with the same deals, a row per deal number (its
    seed once revealed) and each table's result on it side by side; else a row per deal of
    each table's record (a record's seeds are revealed when it is written)."""
    records = [(table, replayed(table.result.record)) for table in rnd.tables
               if table.result is not None and table.result.record is not None]
    labels = {table.number: _target_labels(event, table, r) for table, r in records}
    if rnd.deals:
        header = _cells(_ui("deal", lang), _ui("seed", lang), _ui("salt", lang),
                        _ui("commitment", lang),
                        *(_ui("table_n", lang, n=t.number) for t in rnd.tables))
        totals = {table.number: r.deal_totals for table, r in records}
        rows = []
        for j, d in enumerate(rnd.deals):
            side = []
            for table in rnd.tables:
                if table.number in totals:
                    dealt = totals[table.number]
                    side.append(Cell(_totals_text(dealt[j], labels[table.number])
                                     if j < len(dealt) else "—"))
                elif table.result is not None:
                    side.append(Cell(_ui("reported", lang), mark="reported"))
                else:
                    side.append(Cell("—"))
            rows.append((_num(j + 1), Cell(d.seed if d.seed is not None
                                           else _ui("not_revealed", lang)),
                         Cell(d.seed_salt or ""), Cell(d.seed_commitment), *side))
        return Part(_ui("same_deals_title", lang), grid=Grid(header, tuple(rows)), level=3)
    if not records:
        return None
    header = _cells(_ui("col_table", lang), _ui("deal", lang), _ui("seed", lang),
                    _ui("salt", lang), _ui("commitment", lang), _ui("result", lang))
    rows = []
    for table, r in records:
        record = table.result.record if table.result else None
        for j, entry in enumerate((record or {}).get("deals") or ()):
            given = entry.get("deal") or {}
            seed = given.get("seed")
            made = given.get("seed_commitment") or (
                rng.commitment(seed, given.get("seed_salt")) if isinstance(seed, str) else "")
            result = _totals_text(r.deal_totals[j], labels[table.number]) \
                if j < len(r.deal_totals) else "—"
            rows.append((_num(table.number), _num(j + 1),
                         Cell(seed if isinstance(seed, str) else _ui("from_cards", lang)),
                         Cell(str(given.get("seed_salt") or "")), Cell(str(made or "")),
                         Cell(result)))
    return Part(_ui("deals", lang), grid=Grid(header, tuple(rows)), level=3)


def _target_labels(event: Event, table: Table, replay: Replayed) -> dict[str, str]:
    """A table's score targets (what a deal's totals name: a seat, or a team of the game)
    named by the entrants seated there."""
    names = {e.id: e.name or e.id for e in event.entrants}
    entrant_of = dict(zip(seat_ids(table), (s.entrant for s in table.seats)))
    out = {seat: names[unit] for seat, unit in entrant_of.items()}
    for holder, seats in replay.holders.items():
        units = dict.fromkeys(entrant_of[s] for s in seats if s in entrant_of)
        if units:
            out[holder] = " + ".join(names[u] for u in units)
    return out


def _totals_text(totals: Mapping[str, int], labels: Mapping[str, str]) -> str:
    return ", ".join(f"{labels.get(target, target)} {signed(v)}"
                     for target, v in totals.items()) or "±0"


def _penalties_part(rep: EventStandings, names: Mapping[str, str], lang: str) -> Part:
    header = _cells(_ui("round", lang), _ui("entrant", lang), _ui("kind", lang),
                    _ui("penalty_points", lang), _ui("reason", lang))
    kinds = {"warning": "warning", "points": "kind_points",
             "disqualification": "disqualification"}
    rows = tuple((_num(p.round), Cell(_label(p.entrant, names[p.entrant])),
                  Cell(_ui(kinds[p.kind], lang)), _num(p.points or None), Cell(p.reason))
                 for p in rep.penalties)
    return Part(_ui("penalties", lang), grid=Grid(header, rows))


# ---------------------------------------------------------------- text

def render_text(pub: Publication) -> str:
    """Plain text for a terminal: grids aligned by display width, controls shown visibly."""
    v = visible
    lang = pub.lang
    out = [v(pub.title), "=" * min(display_width(v(pub.title)), 100), "",
           f"{_ui('check', lang)}: {v(pub.verdict)}"]
    out += _aligned_lines(pub.heading)
    for part in pub.parts:
        mark = "==" if part.level == 2 else "--"
        out += ["", f"{mark} {v(part.title)} {mark}"]
        out += _aligned_lines(part.lines)
        if part.grid is not None and part.grid.rows:
            if part.lines:
                out.append("")
            out += _text_grid(part.grid)
        out += [f"  {v(note)}" for note in part.notes]
    out.append("")
    return "\n".join(v(line) for line in out)


def _aligned_lines(lines: Sequence[tuple[str, str]]) -> list[str]:
    if not lines:
        return []
    shown = [(visible(k), visible(x)) for k, x in lines]
    wide = max(display_width(k) for k, _ in shown)
    return [f"{pad(k, wide)}  {x}" for k, x in shown]


def _text_grid(grid: Grid) -> list[str]:
    table = [grid.header, *grid.rows]
    texts = [[visible(c.text) for c in row] for row in table]
    widths = [max(display_width(row[i]) for row in texts) for i in range(len(grid.header))]

    def fmt(row: tuple[Cell, ...], cells: list[str]) -> str:
        padded = [pad(text, widths[i], right=cell.number and row is not grid.header)
                  for i, (cell, text) in enumerate(zip(row, cells))]
        return " | ".join(padded).rstrip()

    rule = "-+-".join("-" * w for w in widths)
    return [fmt(grid.header, texts[0]), rule, *[fmt(r, t) for r, t in zip(grid.rows, texts[1:])]]


# ---------------------------------------------------------------- CSV

def render_csv(pub: Publication) -> str:
    """RFC 4180 (CRLF): the title, the check, the heading as label,value rows; then each part
    after an empty row: its title, its lines, its grid (the crosstable a column per round's
    table, opponents, place and points), its notes. Numbers are written as numbers; every text
    cell is neutralised against formula injection (engine/sheets.py csv_text)."""
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\r\n")
    t = csv_text
    lang = pub.lang
    out.writerow([t(pub.title)])
    out.writerow([t(_ui("check", lang)), t(pub.verdict)])
    for label, value in pub.heading:
        out.writerow([t(label), t(value)])
    for part in pub.parts:
        out.writerow([])
        out.writerow([t(part.title)])
        for label, value in part.lines:
            out.writerow([t(label), t(value)])
        grid = part.wide or part.grid
        if grid is not None:
            for row in (grid.header, *grid.rows):
                out.writerow([c.text if c.number and row is not grid.header else t(c.text)
                              for c in row])
        for note in part.notes:
            out.writerow([t(note)])
    return buf.getvalue()


# ---------------------------------------------------------------- HTML

# The match score sheet's stylesheet (landscape: a crosstable is wide) and what an event's
# page adds: its sections, a reported result's mark. The page's one inline style: a
# Content-Security-Policy allows it by the hash of exactly this text.
SHEET_STYLE = _CSS % {"orientation": "landscape"} + """
section.part { margin: 6mm 0 0; }
section.part h2 { font-size: 12pt; margin: 0 0 2mm; }
section.part.level3 { margin-top: 3mm; }
section.part.level3 h3 { font-size: 10.5pt; margin: 0 0 2mm; }
section.part p.note { font-size: 8.5pt; color: #333; margin: 1.5mm 0 0; }
table.sheet td.reported { font-style: italic; }
"""


def render_html(pub: Publication) -> str:
    """A printable page (A4, landscape), self-contained: one inline stylesheet, no script, no
    outside resource; everything written escaped, controls shown visibly; well-formed XML."""
    e = escape_html
    lang = pub.lang
    out = ['<!DOCTYPE html>', f'<html lang="{lang}" xmlns="http://www.w3.org/1999/xhtml">',
           '<head>', '<meta charset="utf-8"/>',
           '<meta name="viewport" content="width=device-width, initial-scale=1"/>',
           f'<title>{e(pub.title)}</title>', f'<style>{SHEET_STYLE}</style>', '</head>',
           '<body>', f'<h1>{e(pub.title)}</h1>',
           f'<p class="verdict{"" if pub.consistent else " stopped"}">'
           f'{e(_ui("check", lang))}: {e(pub.verdict)}</p>', '<dl class="tags">']
    mono = {_ui("digest", lang): ' class="digest"'}  # no tag's label is it: “tag …”
    out += [f'<dt>{e(label)}</dt><dd{mono.get(label, "")}>{e(value)}</dd>'
            for label, value in pub.heading]
    out.append('</dl>')
    for part in pub.parts:
        h = f"h{part.level}"
        out.append(f'<section class="part level{part.level}"><{h}>{e(part.title)}</{h}>')
        if part.lines:
            out.append('<dl class="tags">')
            out += [f'<dt>{e(label)}</dt><dd>{e(value)}</dd>' for label, value in part.lines]
            out.append('</dl>')
        if part.grid is not None and part.grid.rows:
            out.append('<table class="sheet"><thead><tr>' + "".join(
                f'<th scope="col">{e(c.text)}</th>' for c in part.grid.header) +
                '</tr></thead><tbody>')
            for row in part.grid.rows:
                out.append('<tr>' + "".join(_html_cell(c) for c in row) + '</tr>')
            out.append('</tbody></table>')
        out += [f'<p class="note">{e(note)}</p>' for note in part.notes]
        out.append('</section>')
    out += ['</body>', '</html>', '']
    return "\n".join(out)


def _html_cell(cell: Cell) -> str:
    classes = " ".join(c for c in ("num" if cell.number else "", cell.mark) if c)
    css = f' class="{classes}"' if classes else ""
    return f'<td{css}>{escape_html(cell.text)}</td>'


RENDERERS = {"text": render_text, "csv": render_csv, "html": render_html}


def sheet(data: Any, fmt: str = "text", lang: str = "en") -> str:
    """The event's publication in `fmt` (text, csv, html) and `lang` (en, ja). Faults as
    standings_report's."""
    if fmt not in FORMATS:
        raise ValueError(f"format {fmt!r}: one of {FORMATS}")
    with reading():
        event, rep = event_report(data, lang)
        return RENDERERS[fmt](build(event, rep, lang))
