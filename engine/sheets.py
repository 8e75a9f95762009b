"""Score sheets: a checked match record as a tournament prints it (docs/records.md "Score sheets").

Deals as rows (Manteur: its rounds), seats or teams as columns, each cell the deal's score
delta there with the game's own words (Man's stakes, Manillen's points and booms, Guandan's
levels, Daifugo's titles, Manteur's penalty points: `SheetLayout.lines`), every ruling the
record holds marked and listed (the referee's warnings, penalties and withdrawals, and each
irregularity sanctioned in referee mode, with its rule, its sanction and its entry), the totals,
the record's tags and digest. A record the check stopped in
is shown up to the discrepancy and says where it stopped.

Pure: `build` turns a record and its check report (engine/records.py check_record with
keep_steps) into a `Sheet`; `render_text`, `render_csv` and `render_html` write it in English or
Japanese. No I/O, nothing of HTTP.
"""
from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING, Any, Iterator, Mapping, Sequence

from wcwidth import wcswidth

from . import registry
from .referee import IRREGULARITY_EVENT, LEDGER_ACTION_TYPES

if TYPE_CHECKING:
    from .game import Game

LANGS = ("en", "ja")
FORMATS = ("text", "csv", "html")
Text = Mapping[str, str]  # the same words in English and Japanese: {"en": …, "ja": …}


# Characters a sheet never writes raw where a person reads it (a terminal, a page): C0 and C1
# controls, DEL (an ESC sequence rewrites a terminal's screen), and the bidi overrides and
# isolates U+202A–U+202E, U+2066–U+2069 (they reorder what a reader sees). Shown visibly instead,
# as `\x1b`, `\u202e` (docs/score-sheets.md).
_HIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def visible(text: str) -> str:
    """`text` with every control character and bidi override written visibly (`\x1b`)."""
    return _HIDDEN.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                       else f"\\u{ord(m.group()):04x}", text)


# What XML 1.0 does not allow in a document (besides the controls `visible` already shows):
# surrogates, U+FFFE, U+FFFF. Replaced with U+FFFD so the HTML sheet stays well-formed XML.
_NOT_XML = re.compile("[\ud800-\udfff\ufffe\uffff]")


def escape_html(text: str) -> str:
    return escape(_NOT_XML.sub("\ufffd", visible(text)))


# A CSV cell a spreadsheet would read as a formula (OWASP "CSV injection": =, +, -, @, tab, CR;
# also their full-width forms): written with a leading apostrophe. Text cells only: a score
# delta or total stays a number, negative ones included.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def csv_text(text: str) -> str:
    """A text cell of the CSV sheet, neutralised against formula injection."""
    return f"'{text}" if text.startswith(_FORMULA_START) else text


def words(en: str, ja: str | None = None) -> dict[str, str]:
    return {"en": en, "ja": en if ja is None else ja}


def no_words() -> dict[str, str]:
    return words("")


# ---------------------------------------------------------------- what a game says (its hook)

@dataclass(frozen=True)
class SheetColumn:
    """A column: a score delta target (a seat, or a team in a team game) and its heading."""

    id: str
    label: Text


@dataclass(frozen=True)
class SheetLine:
    """What a game shows on one row of a deal (SheetLayout.lines). `cells`: by column id, the
    game's own scoring there (e.g. Guandan "2→4", Daifugo "大富豪"); `note`: the deal's outcome
    in words; `label`: the row's name within its deal when a deal has several rows (Manteur's
    rounds); `end`: the row covers the deal's steps before this index (None: to the deal's end,
    the last row always does)."""

    cells: Mapping[str, Text] = field(default_factory=dict)
    note: Text = field(default_factory=no_words)
    label: Text | None = None
    end: int | None = None


@dataclass(frozen=True)
class CheckedDeal:
    """One deal as the check replayed it: what a game's sheet hook reads."""

    index: int
    players: tuple[str, ...]
    names: Mapping[str, str]          # seat -> the name the sheet shows
    steps: Sequence[Mapping[str, Any]]  # as the check report keeps them (/v1/replay's steps)
    match: Mapping[str, Any] | None   # the match the deal was dealt with (None: a first deal)
    next_match: Mapping[str, Any] | None
    status: str

    def name(self, seat: str) -> str:
        return self.names.get(seat, seat)

    def events(self, *types: str) -> Iterator[tuple[int, Mapping[str, Any]]]:
        """(step index, event) of every event of these types, in order."""
        for step in self.steps:
            for event in step.get("events", ()):
                if event.get("type") in types:
                    yield step["index"], event

    def last(self, kind: str) -> Mapping[str, Any] | None:
        found = None
        for _, event in self.events(kind):
            found = event
        return found

    def deltas(self) -> Iterator[Mapping[str, Any]]:
        """The game's own score deltas (the referee's ledger aside: the sheet marks those)."""
        for step in self.steps:
            if step["action"]["type"] not in LEDGER_ACTION_TYPES:
                yield from step["score_deltas"]


def seat_columns(players: Sequence[str], names: Mapping[str, str]) -> list[SheetColumn]:
    """One column per seat, headed by the seat's name (and its id when they differ)."""
    return [SheetColumn(p, words(seat_label(p, names))) for p in players]


def seat_label(seat: str, names: Mapping[str, str]) -> str:
    name = names.get(seat)
    return seat if not name or name == seat else f"{name} ({seat})"


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else ("±0" if n == 0 else f"−{-n}")


# ---------------------------------------------------------------- the sheet

IRREGULARITY = "irregularity"  # a Mark's kind beside the ledger's (warning, penalty, withdraw)


@dataclass(frozen=True)
class Mark:
    """A ruling on a row: a referee's ledger entry (a warning, a penalty, a withdrawal), or an
    irregularity sanctioned in referee mode (engine/referee.py sanction_refused), with the
    rule the act broke, the sanction and the ledger entry it recorded (if any)."""

    kind: str                      # warning | penalty | withdraw | irregularity
    seat: str
    column: str
    step: int
    entry: int                     # 0: none (an irregularity whose sanction records no entry)
    points: int
    reason: str
    comment: str
    code: str = ""                 # an irregularity: the refusal code the act would have had
    rule: str = ""                 # … the rule it broke ("guandan P-2")
    sanction: str = ""             # … the sanction's effect (taken_back, or the game's own)
    sanction_rule: str = ""        # … the rule that gives the sanction ("guandan R-2")
    ledger: str = ""               # … the kind of entry it recorded (warning, penalty) or ""
    text: Text = field(default_factory=no_words)  # … what happened and the sanction


@dataclass(frozen=True)
class Row:
    deal: int                      # 0-based deal index
    label: Text | None
    deltas: Mapping[str, int]      # column id -> the row's score deltas summed (ledger included)
    cells: Mapping[str, Text]
    note: Text
    marks: tuple[Mark, ...]
    first_step: int
    last_step: int | None          # None: a row without steps


@dataclass(frozen=True)
class Sheet:
    game: str
    game_names: Text
    players: tuple[str, ...]
    names: Mapping[str, str]       # seat -> the name shown (the record's tags.names)
    tags: Mapping[str, Any]
    columns: tuple[SheetColumn, ...]
    rows: tuple[Row, ...]
    totals: Mapping[str, int]      # by column id: the check's totals
    digest: str
    digest_matches: bool | None
    consistent: bool
    discrepancy: Mapping[str, Any] | None
    deals_recorded: int
    match_finished: bool


def build(record: Mapping[str, Any], report: Mapping[str, Any]) -> Sheet:
    """The sheet of a record and its check report (check_record(record, keep_steps=True)):
    every deal the check reached, each split into the rows its game shows; the totals are the
    check's."""
    game = registry.get(report["game"])
    if game is None:
        raise ValueError(f"no game {report['game']!r}")
    players = tuple(record["players"])
    tags = record.get("tags") or {}
    names = {p: n for p, n in (tags.get("names") or {}).items() if isinstance(n, str)}
    own = game.sheet.columns if game.sheet else None
    columns = (list(own(players, names)) if own else []) or seat_columns(players, names)
    known = {c.id for c in columns}
    # A seat the referee ruled on in a team game (a warning, a penalty in the game's unit, a
    # sanctioned irregularity) gets a column of its own: its marks are the seat's, and the
    # totals are by target, where a penalty's target may be the seat, not its team.
    extra = [t for t in report["totals"] if t not in known]
    for deal in report["deals"]:
        for step in deal.get("steps", ()):
            for seat in _ruled_seats(step):
                if seat not in known and seat not in extra:
                    extra.append(seat)
    order = {p: i for i, p in enumerate(players)}
    for target in sorted(extra, key=lambda t: (order.get(t, len(order)), t)):
        columns.append(SheetColumn(target, words(
            f"{seat_label(target, names)}, referee" if target in order else target,
            f"{seat_label(target, names)}・審判" if target in order else target)))
        known.add(target)
    rows: list[Row] = []
    match = record.get("match")
    for deal in report["deals"]:
        if "steps" not in deal:
            raise ValueError("a score sheet needs the check's steps (keep_steps=True)")
        checked = CheckedDeal(deal["index"], players, names, deal["steps"], match,
                              deal.get("next_match"), deal["status"])
        rows += _rows(game, checked, record, known)
        match = deal.get("next_match")
    totals = {c.id: report["totals"].get(c.id, 0) for c in columns}
    return Sheet(game.id, dict(game.names), players, names, tags, tuple(columns), tuple(rows),
                 totals, report["digest"], report.get("digest_matches"), bool(report["consistent"]),
                 report.get("discrepancy"), len(record.get("deals") or ()),
                 bool(report.get("match_finished")))


def _ruled_seats(step: Mapping[str, Any]) -> list[str]:
    """The seats a step rules on: a ledger action's, a sanctioned irregularity's offender."""
    action = step["action"]
    if action["type"] in LEDGER_ACTION_TYPES:
        return [action["player"]]
    return [e["player"] for e in step.get("events", ()) if e.get("type") == IRREGULARITY_EVENT.name]


def _rows(game: Game[Any], checked: CheckedDeal, record: Mapping[str, Any], columns: set[str]
          ) -> list[Row]:
    own = game.sheet.lines if game.sheet else None
    lines = (list(own(checked)) if own else []) or [SheetLine()]
    steps = list(checked.steps)
    comments = _comments(record, checked.index)
    out: list[Row] = []
    start = 0
    for n, line in enumerate(lines):
        last_line = n == len(lines) - 1
        end = len(steps) if last_line or line.end is None else min(line.end, len(steps))
        covered = [s for s in steps if start <= s["index"] < end]
        deltas: dict[str, int] = {}
        marks: list[Mark] = []
        for step in covered:
            for d in step["score_deltas"]:
                deltas[d["target"]] = deltas.get(d["target"], 0) + d["delta"]
            action = step["action"]
            comment = comments.get(step["index"], "")
            if action["type"] in LEDGER_ACTION_TYPES:
                marks.append(_mark(step, comment))
            marks += [_irregularity(step, e, comment) for e in step.get("events", ())
                      if e.get("type") == IRREGULARITY_EVENT.name]
        out.append(Row(checked.index, line.label, deltas,
                       {k: v for k, v in line.cells.items() if k in columns}, line.note,
                       tuple(marks), start, covered[-1]["index"] if covered else None))
        start = end
    return out


def _comments(record: Mapping[str, Any], k: int) -> dict[int, str]:
    deals = record.get("deals") or []
    if k >= len(deals):
        return {}
    return {i: a["comment"] for i, a in enumerate(deals[k].get("actions") or ())
            if isinstance(a, Mapping) and isinstance(a.get("comment"), str)}


def _mark(step: Mapping[str, Any], comment: str) -> Mark:
    action = step["action"]
    event: Mapping[str, Any] = next((e for e in step["events"]
                  if e.get("type") in ("warned", "penalty_given", "withdrawn")), {})
    return Mark(action["type"], action["player"], action["player"], step["index"],
                int(event.get("entry", action.get("entry", 0)) or 0),
                int(event.get("points", action.get("points", 0)) or 0),
                str(event.get("reason", action.get("reason", "")) or ""), comment)


def _irregularity(step: Mapping[str, Any], event: Mapping[str, Any], comment: str) -> Mark:
    """An irregularity sanctioned at this step, with the ledger entry its sanction recorded
    (the step's `warned` or `penalty_given` event of that entry), if any."""
    entry = int(event.get("entry") or 0)
    recorded: Mapping[str, Any] = next(
        (e for e in step.get("events", ()) if entry and e.get("entry") == entry and
         e.get("type") in ("warned", "penalty_given")), {})
    kind = {"warned": "warning", "penalty_given": "penalty"}.get(str(recorded.get("type")), "")
    text = event.get("text")
    return Mark(IRREGULARITY, str(event["player"]), str(event["player"]), step["index"], entry,
                int(recorded.get("points", 0) or 0), str(recorded.get("reason", "") or ""),
                comment, code=str(event.get("code", "")), rule=str(event.get("rule", "")),
                sanction=str(event.get("sanction", "")),
                sanction_rule=str(event.get("sanction_rule", "")), ledger=kind,
                text=dict(text) if isinstance(text, Mapping) else no_words())


# ---------------------------------------------------------------- words of the sheet itself

_UI = {
    "title": ("Score sheet", "スコアシート"),
    "deal": ("Deal", "局"),
    "note": ("Result", "結果"),
    "total": ("Total", "合計"),
    "total_partial": ("Total (to the discrepancy)", "合計(不整合の手前まで)"),
    "event": ("Event", "大会"), "site": ("Site", "会場"), "date": ("Date", "日付"),
    "round": ("Round", "回戦"), "table": ("Table", "卓"), "referee": ("Referee", "審判"),
    "game": ("Game", "ゲーム"), "engine": ("Engine", "エンジン"),
    "digest": ("Digest", "ダイジェスト"),
    "check": ("Check", "検証"),
    "other_tags": ("Other tags, as the record writes them (not checked)",
                   "その他のタグ(記録に書かれたまま・未検証)"),
    "tag": ("tag “{name}”", "タグ「{name}」"),
    "consistent": ("consistent: every action, score and total re-checked by the engine",
                   "整合: すべてのアクション・得点・合計をエンジンで再検証済み"),
    "digest_mismatch": ("the digest the record carries differs: it was changed after it was made",
                        "記録に付いたダイジェストが異なります(作成後に変更されています)"),
    "stopped": ("NOT consistent: the check stopped at {where}: {code} — {message}",
                "不整合: 検証は {where} で停止しました: {code} — {message}"),
    "not_consistent": ("NOT consistent: {code} — {message}", "不整合: {code} — {message}"),
    "where_step": ("deal {deal}, action {step}", "第{deal}局 {step}手目"),
    "where_deal": ("deal {deal}", "第{deal}局"),
    "where_record": ("the record's totals", "記録の合計"),
    "unchecked": ("{n} recorded deal(s) after it not checked", "それ以降の {n} 局は未検証"),
    "rule": ("rule", "ルール"),
    "referee_log": ("Referee's rulings", "審判の裁定"),
    "warning": ("warning", "警告"), "penalty": ("penalty", "罰則"),
    "withdraw": ("withdrawn", "取消"),
    "irregularity": ("irregularity", "違反"),
    "mark_warning": ("W", "警"), "mark_penalty": ("P{points}", "罰{points}"),
    "mark_withdraw": ("×{entry}", "取消{entry}"),
    "mark_irregularity": ("!", "違"),
    "entry": ("entry {entry}", "記録 {entry}"),
    "broke": ("broke {rule} ({code})", "{rule} 違反({code})"),
    "sanction": ("sanction {rule}: {effect}", "罰則 {rule}: {effect}"),
    "no_entry": ("no ledger entry", "記録なし"),
    "at": ("deal {deal}, action {step}", "第{deal}局 {step}手目"),
    "match_finished": ("The match is finished.", "試合は終了しています。"),
    "legend": ("W warning · P penalty (points in the game's unit) · × withdrawn entry · "
               "! irregularity sanctioned (with the entry it recorded: !W, !P1)",
               "警 警告・罰 罰則(ゲームの単位の点数)・取消 取り消された記録・"
               "違 審判モードで罰則を適用した違反(記録した警告・罰則とともに: 違警、違罰1)"),
    "col_deal": ("Deal", "局"), "col_action": ("Action", "手目"), "col_seat": ("Seat", "席"),
    "col_ruling": ("Ruling", "裁定"), "col_entry": ("Entry", "記録"),
    "col_points": ("Points", "点数"), "col_rule": ("Rule broken", "違反したルール"),
    "col_sanction": ("Sanction", "罰則"), "col_said": ("What happened", "内容"),
    "col_comment": ("Comment", "コメント"),
}


def _ui(key: str, lang: str, **fill: Any) -> str:
    en, ja = _UI[key]
    return (ja if lang == "ja" else en).format(**fill)


def _say(text: Text | None, lang: str) -> str:
    if not text:
        return ""
    return text.get(lang) or text.get("en", "")


def _mark_text(mark: Mark, lang: str) -> str:
    if mark.kind == IRREGULARITY:  # "!", with the entry it recorded: "!W", "!P1"
        kind = Mark(mark.ledger, mark.seat, mark.column, mark.step, mark.entry, mark.points,
                    mark.reason, mark.comment)
        return _ui("mark_irregularity", lang) + (_mark_text(kind, lang) if mark.ledger else "")
    if mark.kind == "warning":
        return _ui("mark_warning", lang)
    if mark.kind == "penalty":
        return _ui("mark_penalty", lang, points=mark.points)
    return _ui("mark_withdraw", lang, entry=mark.entry)


def row_label(row: Row, lang: str) -> str:
    label = str(row.deal + 1)
    sub = _say(row.label, lang)
    return f"{label} {sub}" if sub else label


def cell_text(sheet: Sheet, row: Row, column: str, lang: str) -> str:
    """A cell as printed: the score delta, the game's words, the referee's marks."""
    parts = []
    if column in row.deltas:
        parts.append(signed(row.deltas[column]))
    said = _say(row.cells.get(column), lang)
    if said:
        parts.append(said)
    parts += [_mark_text(m, lang) for m in row.marks if m.column == column]
    return " ".join(parts)


def header_lines(sheet: Sheet, lang: str) -> list[tuple[str, str]]:
    """(label, value) of the sheet's heading: the tags, the game, the digest, the verdict."""
    tags = sheet.tags
    out = [(_ui("game", lang), _say(sheet.game_names, lang))]
    for key in ("event", "site", "date", "round", "table", "referee"):
        if tags.get(key) not in (None, ""):
            out.append((_ui(key, lang), str(tags[key])))
    if tags.get("engine"):
        out.append((_ui("engine", lang), str(tags["engine"])))
    out.append((_ui("digest", lang), sheet.digest))
    out.append((_ui("check", lang), verdict(sheet, lang)))
    return out


_SHEET_TAGS = ("event", "site", "date", "round", "table", "referee", "names", "engine")


def tag_lines(sheet: Sheet, lang: str) -> list[tuple[str, str]]:
    """(label, value) of the record's other tags (text or integers), kept as written: shown in a
    section of their own after the heading, each labelled as a tag, so a tag named like one of
    the heading's lines (`Check`, `Digest`, `検証`) can never pass for it."""
    return [(_ui("tag", lang, name=key), str(value)) for key, value in sheet.tags.items()
            if key not in _SHEET_TAGS and isinstance(value, (str, int))
            and not isinstance(value, bool)]


def verdict(sheet: Sheet, lang: str) -> str:
    if sheet.consistent:
        text = _ui("consistent", lang)
        if sheet.match_finished:
            text += ("。" if lang == "ja" else ". ") + _ui("match_finished", lang)
        return text
    d = sheet.discrepancy or {}
    if d.get("code") == "digest_mismatch":  # every deal checked; the record was changed
        return _ui("not_consistent", lang, code=d.get("code"),
                   message=_ui("digest_mismatch", lang))
    if d.get("deal") is None:
        where = _ui("where_record", lang)
    elif d.get("step") is None:
        where = _ui("where_deal", lang, deal=d["deal"] + 1)
    else:
        where = _ui("where_step", lang, deal=d["deal"] + 1, step=d["step"] + 1)
    text = _ui("stopped", lang, where=where, code=d.get("code", ""),
               message=str(d.get("message", "")).rstrip("。."))
    if d.get("rule"):
        text += f" ({_ui('rule', lang)} {d['rule']})"
    if d.get("deal") is not None:
        later = sheet.deals_recorded - d["deal"] - 1
        if later > 0:
            text += f"; {_ui('unchecked', lang, n=later)}"
    return text


@dataclass(frozen=True)
class Ruling:
    """One ruling as the sheet lists it (every format): where, who, what, and its words."""

    deal: int                      # counted from 1, as printed
    step: int                      # counted from 1
    seat: str                      # the seat's label (name and id)
    what: str                      # "warning", "penalty 2", "withdrawn", "irregularity"
    entry: int | None              # the ledger entry (None: none recorded)
    points: int
    rule: str                      # an irregularity: the rule broken and its code
    sanction: str                  # … the sanction's rule and effect
    said: str                      # the entry's reason, or the irregularity's words
    comment: str


def ruling_list(sheet: Sheet, lang: str) -> list[Ruling]:
    """Every ruling of the sheet in order: each referee's ledger action and each sanctioned
    irregularity (with the ledger entry its sanction recorded, if any)."""
    out = []
    for row in sheet.rows:
        for m in row.marks:
            what = _ui(m.kind, lang)
            if m.kind == "penalty":
                what += f" {m.points}"
            rule = sanction = ""
            said = m.reason
            if m.kind == IRREGULARITY:
                rule = _ui("broke", lang, rule=m.rule, code=m.code)
                sanction = _ui("sanction", lang, rule=m.sanction_rule, effect=m.sanction)
                if m.ledger:
                    sanction += ("、" if lang == "ja" else ", ") + _ui(m.ledger, lang) + \
                        (f" {m.points}" if m.ledger == "penalty" else "")
                said = _say(m.text, lang)
            out.append(Ruling(row.deal + 1, m.step + 1, seat_label(m.seat, sheet.names), what,
                              m.entry or None, m.points, rule, sanction, said, m.comment))
    return out


def rulings(sheet: Sheet, lang: str) -> list[str]:
    """Every ruling, one line each: where, what, who, the entry, the rule broken and the
    sanction (an irregularity), the reason or what happened, the record's comment."""
    out = []
    for r in ruling_list(sheet, lang):
        parts = [f"{_ui('at', lang, deal=r.deal, step=r.step)}: {r.what} — {r.seat}"]
        parts += [x for x in (r.rule, r.sanction) if x]
        parts.append(_ui("entry", lang, entry=r.entry) if r.entry else _ui("no_entry", lang))
        if r.said:
            parts.append(r.said)
        if r.comment:
            parts.append(f"“{r.comment}”")
        out.append(" · ".join(parts))
    return out


def _total_label(sheet: Sheet, lang: str) -> str:
    return _ui("total" if sheet.consistent else "total_partial", lang)


def _title(sheet: Sheet, lang: str) -> str:
    event = sheet.tags.get("event")
    head = f"{_ui('title', lang)} — {_say(sheet.game_names, lang)}"
    return f"{head} — {event}" if isinstance(event, str) and event else head


# ---------------------------------------------------------------- text (a terminal)

def pad(text: str, width: int, right: bool = False) -> str:
    gap = width - display_width(text)
    return (" " * gap + text) if right else (text + " " * gap)


def display_width(text: str) -> int:
    w = wcswidth(text)
    return len(text) if w < 0 else w  # a control character: counted as one column each


def render_text(sheet: Sheet, lang: str = "en") -> str:
    """A plain-text sheet for a terminal: columns aligned by display width (Japanese names and
    words take two columns a character)."""
    v = visible  # what the record wrote reaches a terminal with its controls shown, never raw
    lines = [v(_title(sheet, lang)), ""]
    heading = [(v(k), v(x)) for k, x in header_lines(sheet, lang)]
    wide = max(display_width(k) for k, _ in heading)
    lines += [f"{pad(k, wide)}  {x}" for k, x in heading]
    lines.append("")
    others = [(v(k), v(x)) for k, x in tag_lines(sheet, lang)]
    if others:
        lines.append(_ui("other_tags", lang))
        wide = max(display_width(k) for k, _ in others)
        lines += [f"  {pad(k, wide)}  {x}" for k, x in others]
        lines.append("")
    header = [_ui("deal", lang)] + [v(_say(c.label, lang)) for c in sheet.columns]
    body = [[v(row_label(r, lang))] + [v(cell_text(sheet, r, c.id, lang)) for c in sheet.columns]
            for r in sheet.rows]
    total = [_total_label(sheet, lang)] + [signed(sheet.totals[c.id]) for c in sheet.columns]
    widths = [max(display_width(line[i]) for line in [header, total, *body])
              for i in range(len(header))]

    def fmt(cells: list[str]) -> str:  # the last cell unpadded: no trailing blanks to wrap
        return " | ".join([pad(c, widths[i]) for i, c in enumerate(cells[:-1])] + cells[-1:])

    rule = "-+-".join("-" * w for w in widths)
    lines += [fmt(header), rule, *[fmt(b) for b in body], rule, fmt(total), ""]
    notes = [(v(row_label(r, lang)), v(_say(r.note, lang))) for r in sheet.rows
             if _say(r.note, lang)]
    if notes:
        lines.append(_ui("note", lang))
        wide = max(display_width(k) for k, _ in notes)
        lines += [f"  {pad(k, wide)}  {v}" for k, v in notes]
        lines.append("")
    ledger = rulings(sheet, lang)
    if ledger:
        lines.append(_ui("referee_log", lang))
        lines += [f"  {v(line)}" for line in ledger]
        lines.append(f"  ({_ui('legend', lang)})")
        lines.append("")
    return "\n".join(v(line) for line in lines)  # every line: nothing raw gets through


# ---------------------------------------------------------------- CSV (a spreadsheet)

def render_csv(sheet: Sheet, lang: str = "en") -> str:
    """The heading as label,value rows (the record's other tags last, under their own title),
    an empty row, then the table: one row per sheet row,
    for each column its score delta (a number) and what the sheet shows there, the result in
    words; the totals row. Then, if the record holds rulings, an empty row, their title, their
    columns' heading and a row per ruling (deal, action and entry as numbers). RFC 4180 (CRLF
    line ends)."""
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\r\n")
    t = csv_text  # every text cell; the numbers (deltas, totals) are written as numbers
    for label, value in header_lines(sheet, lang):
        out.writerow([t(label), t(value)])
    others = tag_lines(sheet, lang)
    if others:  # after the verdict, under their own title, each labelled as a tag
        out.writerow([t(_ui("other_tags", lang)), ""])
        for label, value in others:
            out.writerow([t(label), t(value)])
    out.writerow([])
    head = [t(_ui("deal", lang))]
    for c in sheet.columns:
        label = _say(c.label, lang)
        head += [t(label), t(f"{label} ({_ui('note', lang)})")]
    out.writerow(head + [t(_ui("note", lang))])
    for row in sheet.rows:
        cells = [t(row_label(row, lang))]
        for c in sheet.columns:
            cells += [str(row.deltas.get(c.id, 0)),
                      t(" ".join(filter(None, [_say(row.cells.get(c.id), lang)] +
                                        [_mark_text(m, lang) for m in row.marks
                                         if m.column == c.id])))]
        out.writerow(cells + [t(_say(row.note, lang))])
    total = [t(_total_label(sheet, lang))]
    for c in sheet.columns:
        total += [str(sheet.totals[c.id]), ""]
    out.writerow(total + [""])
    listed = ruling_list(sheet, lang)
    if listed:  # after the table, an empty row, its title, its columns, a ruling a row
        out.writerow([])
        out.writerow([t(_ui("referee_log", lang))])
        out.writerow([t(_ui(f"col_{k}", lang)) for k in _RULING_COLUMNS])
        for r in listed:
            out.writerow([str(r.deal), str(r.step), t(r.seat), t(r.what),
                          "" if r.entry is None else str(r.entry), str(r.points), t(r.rule),
                          t(r.sanction), t(r.said), t(r.comment)])
    return buf.getvalue()


_RULING_COLUMNS = ("deal", "action", "seat", "ruling", "entry", "points", "rule", "sanction",
                   "said", "comment")


# ---------------------------------------------------------------- HTML (a printed page)

_CSS = """
@page { size: A4 %(orientation)s; margin: 12mm; }
* { box-sizing: border-box; }
body { font-family: "Hiragino Sans", "Hiragino Kaku Gothic ProN", "Noto Sans CJK JP",
  "Yu Gothic", "Meiryo", system-ui, sans-serif; font-size: 10pt; color: #000; margin: 0;
  padding: 8mm; }
h1 { font-size: 15pt; margin: 0 0 4mm; }
dl.tags { display: grid; grid-template-columns: max-content 1fr; gap: 1mm 4mm; margin: 0 0 5mm; }
dl.tags dt { font-weight: bold; }
dl.tags dd { margin: 0; overflow-wrap: anywhere; }
dd.digest { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace;
  font-size: 8.5pt; }
p.verdict { margin: 0 0 5mm; padding: 2mm 3mm; border: 0.4mm solid #000; }
p.verdict.stopped { border-width: 0.8mm; font-weight: bold; }
table.sheet { border-collapse: collapse; width: 100%%; page-break-inside: auto; }
table.sheet th, table.sheet td { border: 0.3mm solid #444; padding: 1.2mm 1.6mm;
  vertical-align: top; }
table.sheet thead th { background: #eee; }
table.sheet tr { page-break-inside: avoid; }
table.sheet td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
table.sheet td .said { display: block; font-size: 8.5pt; color: #333; text-align: left;
  white-space: normal; }
table.sheet td .mark { display: inline-block; margin-left: 1mm; padding: 0 1mm;
  border: 0.3mm solid #000; border-radius: 1mm; font-size: 8pt; font-weight: bold; }
table.sheet td.note { font-size: 8.5pt; }
table.sheet tfoot td, table.sheet tfoot th { font-weight: bold; border-top: 0.8mm double #000; }
table.sheet tr.stopped td { border-bottom: 0.8mm solid #000; }
section.rulings { margin-top: 5mm; font-size: 9pt; }
section.other-tags { margin: 0 0 5mm; font-size: 9pt; }
section.other-tags h2 { font-size: 10pt; margin: 0 0 2mm; }
section.rulings h2 { font-size: 11pt; margin: 0 0 2mm; }
section.rulings ol { margin: 0; padding-left: 6mm; }
p.legend { font-size: 8pt; color: #333; }
@media screen { body { max-width: 297mm; margin: 0 auto; } }
"""


def render_html(sheet: Sheet, lang: str = "en") -> str:
    """A printable page (A4), self-contained: inline CSS, no script, no outside font or image.
    Well-formed XML as well as HTML (every element closed), so any parser reads it."""
    e = escape_html  # controls shown, what XML 1.0 forbids replaced: well-formed whatever
    title = _title(sheet, lang)
    orientation = "portrait" if len(sheet.columns) <= 4 else "landscape"
    out = ['<!DOCTYPE html>',
           f'<html lang="{lang}" xmlns="http://www.w3.org/1999/xhtml">',
           '<head>', '<meta charset="utf-8"/>',
           '<meta name="viewport" content="width=device-width, initial-scale=1"/>',
           f'<title>{e(title)}</title>',
           f'<style>{_CSS % {"orientation": orientation}}</style>',
           '</head>', '<body>', f'<h1>{e(title)}</h1>', '<dl class="tags">']
    for label, value in header_lines(sheet, lang)[:-1]:
        css = ' class="digest"' if value == sheet.digest else ""
        out.append(f'<dt>{e(label)}</dt><dd{css}>{e(value)}</dd>')
    out.append('</dl>')
    stopped = "" if sheet.consistent else " stopped"
    out.append(f'<p class="verdict{stopped}">{e(verdict(sheet, lang))}</p>')
    others = tag_lines(sheet, lang)
    if others:
        out.append(f'<section class="other-tags"><h2>{e(_ui("other_tags", lang))}</h2>'
                   '<dl class="tags">')
        out += [f'<dt>{e(label)}</dt><dd>{e(value)}</dd>' for label, value in others]
        out.append('</dl></section>')
    out.append('<table class="sheet">')
    out.append('<thead><tr>' + f'<th scope="col">{e(_ui("deal", lang))}</th>' +
               "".join(f'<th scope="col">{e(_say(c.label, lang))}</th>' for c in sheet.columns) +
               f'<th scope="col">{e(_ui("note", lang))}</th></tr></thead>')
    out.append('<tbody>')
    stop_deal = None if sheet.consistent else (sheet.discrepancy or {}).get("deal")
    for n, row in enumerate(sheet.rows):
        last_of_stop = stop_deal is not None and row.deal == stop_deal and \
            (n == len(sheet.rows) - 1 or sheet.rows[n + 1].deal != row.deal)
        css = ' class="stopped"' if last_of_stop else ""
        cells = [f'<th scope="row">{e(row_label(row, lang))}</th>']
        for c in sheet.columns:
            parts = []
            if c.id in row.deltas:
                parts.append(e(signed(row.deltas[c.id])))
            parts += [f'<span class="mark">{e(_mark_text(m, lang))}</span>'
                      for m in row.marks if m.column == c.id]
            said = _say(row.cells.get(c.id), lang)
            if said:
                parts.append(f'<span class="said">{e(said)}</span>')
            cells.append(f'<td class="num">{"".join(parts)}</td>')
        cells.append(f'<td class="note">{e(_say(row.note, lang))}</td>')
        out.append(f'<tr{css}>' + "".join(cells) + '</tr>')
    out.append('</tbody>')
    out.append('<tfoot><tr>' + f'<th scope="row">{e(_total_label(sheet, lang))}</th>' +
               "".join(f'<td class="num">{e(signed(sheet.totals[c.id]))}</td>'
                       for c in sheet.columns) + '<td></td></tr></tfoot>')
    out.append('</table>')
    ledger = rulings(sheet, lang)
    if ledger:
        out.append(f'<section class="rulings"><h2>{e(_ui("referee_log", lang))}</h2><ol>')
        out += [f'<li>{e(line)}</li>' for line in ledger]
        out.append(f'</ol><p class="legend">{e(_ui("legend", lang))}</p></section>')
    out += ['</body>', '</html>', '']
    return "\n".join(out)


RENDERERS = {"text": render_text, "csv": render_csv, "html": render_html}
MEDIA_TYPES = {"text": "text/plain", "csv": "text/csv", "html": "text/html"}


def render(record: Mapping[str, Any], report: Mapping[str, Any], fmt: str = "text",
           lang: str = "en") -> str:
    """The score sheet of a checked record in `fmt` (text, csv, html) and `lang` (en, ja)."""
    if fmt not in RENDERERS:
        raise ValueError(f"format {fmt!r}: one of {FORMATS}")
    if lang not in LANGS:
        raise ValueError(f"language {lang!r}: one of {LANGS}")
    return RENDERERS[fmt](build(record, report), lang)
