"""Score sheets (engine/sheets.py, docs/records.md "Score sheets"): a checked match record as text,
CSV and a printable HTML page, in English and Japanese. Every example and random matches of every
game: the totals row is the check's totals, no deal, step or ruling is lost, the CSV parses, the
HTML is well formed (parsed as XML) and self-contained, the text columns line up by display
width; a record the check stopped in is shown up to the discrepancy and says where."""
from __future__ import annotations

import copy
import csv
import io
import json
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from wcwidth import wcswidth

from engine import records, registry, sheets
from engine.referee import LEDGER_ACTION_TYPES
from tests.conformance import helpers
from tests.records import random_record
from tests.sizing import examples

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GAMES = helpers.GAME_IDS
# the games with an example match (examples/<id>.json, tools/make_examples.py)
EXAMPLE_GAMES = sorted(p.stem for p in EXAMPLES.glob("*.json"))
XHTML = "{http://www.w3.org/1999/xhtml}"
PROPERTY = settings(max_examples=examples(5), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def example(game_id: str) -> dict:
    return json.loads((EXAMPLES / f"{game_id}.json").read_text(encoding="utf-8"))


def checked(record: dict) -> dict:
    return records.check_record(copy.deepcopy(record), keep_steps=True)


def parse_html(text: str) -> ET.Element:
    """The page as XML: well formed, or ParseError."""
    assert text.startswith("<!DOCTYPE html>\n")
    return ET.fromstring(text[len("<!DOCTYPE html>\n"):])


def table_part(text: str, lang: str) -> list[str]:
    """The lines of the text sheet's table: its heading, rules, rows and the totals row."""
    lines = text.split("\n")
    head = sheets._ui("deal", lang)
    start = next(i for i, line in enumerate(lines) if line.startswith(head + " "))
    end = next(i for i in range(start, len(lines)) if lines[i] == "")
    return lines[start:end]


def sheet_holds(record: dict, report: dict, lang: str) -> sheets.Sheet:
    """Every property a sheet of this record and report must have, in every format."""
    sheet = sheets.build(record, report)
    columns = [c.id for c in sheet.columns]
    # the totals row is the check's totals: every target a column, nothing else counted
    assert set(report["totals"]) <= set(columns)
    assert sheet.totals == {c: report["totals"].get(c, 0) for c in columns}
    # no deal, step or ruling lost: each deal's steps are split among its rows, in order
    assert sorted({r.deal for r in sheet.rows}) == [d["index"] for d in report["deals"]]
    for deal in report["deals"]:
        rows = [r for r in sheet.rows if r.deal == deal["index"]]
        covered = [s["index"] for s in deal["steps"]
                   if any(r.first_step <= s["index"] and r.last_step is not None and
                          s["index"] <= r.last_step for r in rows)]
        assert covered == [s["index"] for s in deal["steps"]]
        # every ruling marked on its row: each ledger action, each sanctioned irregularity
        assert [m.step for r in rows for m in r.marks] == \
            sorted([s["index"] for s in deal["steps"]
                    if s["action"]["type"] in LEDGER_ACTION_TYPES] +
                   [s["index"] for s in deal["steps"] for e in s["events"]
                    if e["type"] == "irregularity_sanctioned"])
        summed: dict[str, int] = {}
        for r in rows:
            for target, value in r.deltas.items():
                summed[target] = summed.get(target, 0) + value
        assert {t: v for t, v in summed.items() if v} == \
            {t: v for t, v in deal["totals"].items() if v}
    summed = {c: sum(r.deltas.get(c, 0) for r in sheet.rows) for c in columns}
    assert summed == sheet.totals

    text = sheets.render_text(sheet, lang)
    table = table_part(text, lang)
    assert len(table) == len(sheet.rows) + 4  # heading, rule, rows, rule, totals
    total_cells = [c.strip() for c in table[-1].split(" | ")]
    assert total_cells[1:] == [sheets.signed(sheet.totals[c]) for c in columns]
    # the columns line up on a terminal: every " | " at the same display offset
    offsets = None
    for line in table:
        if "-+-" in line:
            continue
        found, pos = [], 0
        for part in line.split(" | ")[:-1]:
            pos += wcswidth(part)
            found.append(pos)
            pos += 3
        assert offsets is None or found == offsets, (line, found, offsets)
        offsets = found
    assert report["digest"] in text

    rows = list(csv.reader(io.StringIO(sheets.render_csv(sheet, lang), newline="")))
    blank = rows.index([])
    heading = dict(rows[:blank])
    assert heading[sheets._ui("digest", lang)] == report["digest"]
    end = rows.index([], blank + 1) if [] in rows[blank + 1:] else len(rows)
    table_rows = rows[blank + 1:end]  # then, after an empty row, the rulings (if any)
    assert len(table_rows) == 1 + len(sheet.rows) + 1
    width = 1 + 2 * len(columns) + 1
    assert all(len(r) == width for r in table_rows)
    for n, row in enumerate(table_rows[1:-1]):
        assert [int(row[1 + 2 * i]) for i in range(len(columns))] == \
            [sheet.rows[n].deltas.get(c, 0) for c in columns]
    assert [int(table_rows[-1][1 + 2 * i]) for i in range(len(columns))] == \
        [sheet.totals[c] for c in columns]

    html = sheets.render_html(sheet, lang)
    page = parse_html(html)
    assert page.get("lang") == lang
    assert page.find(f".//{XHTML}script") is None
    assert not re.search(r"""(src|href)\s*=|@import|url\(""", html)  # nothing from outside
    assert "@page" in html and "A4" in html
    body_rows = page.findall(f".//{XHTML}tbody/{XHTML}tr")
    assert len(body_rows) == len(sheet.rows)
    foot = page.findall(f".//{XHTML}tfoot/{XHTML}tr/{XHTML}td")
    assert ["".join(td.itertext()) for td in foot[:len(columns)]] == \
        [sheets.signed(sheet.totals[c]) for c in columns]
    assert report["digest"] in "".join(page.itertext())
    return sheet


# ---------------------------------------------------------------- the examples

@pytest.mark.parametrize("lang", sheets.LANGS)
@pytest.mark.parametrize("game_id", EXAMPLE_GAMES)
def test_every_example_renders_in_every_format_with_the_checks_totals(game_id, lang):
    record = example(game_id)
    report = checked(record)
    assert report["consistent"], report["discrepancy"]
    sheet = sheet_holds(record, report, lang)
    assert sheet.consistent and sheet.digest == record["digest"]
    assert sheet.totals == {c.id: record["totals"].get(c.id, 0) for c in sheet.columns}


# What each game's own scoring shows on its sheet (SheetLayout.lines), in each language.
@pytest.mark.parametrize("lang", sheets.LANGS)
@pytest.mark.parametrize("game_id", EXAMPLE_GAMES)
def test_each_games_sheet_shows_its_own_scoring_and_the_referees_rulings(game_id, lang):
    record = example(game_id)
    text = sheets.render(record, checked(record), "text", lang)
    # the game's own scoring words (its conformance facts' `sheet_words`, per language)
    for said in helpers.facts(game_id).get("sheet_words", {}).get(lang, []):
        assert said in text, said
    assert sheets._ui("referee_log", lang) in text
    for action in (a for d in record["deals"] for a in d["actions"]):
        if action["action"]["type"] in LEDGER_ACTION_TYPES and action.get("comment"):
            assert action["comment"] in text
    for name in record["tags"]["names"].values():
        assert name in text
    for tag in ("event", "date", "referee"):
        assert str(record["tags"][tag]) in text


def test_manteurs_rows_are_its_rounds_each_ended_by_a_challenge():
    record = example("manteur")
    report = checked(record)
    sheet = sheets.build(record, report)
    challenges = [s for s in report["deals"][0]["steps"] if s["action"]["type"] == "challenge"]
    assert len(sheet.rows) == len(challenges) > 1
    assert [r.last_step for r in sheet.rows] == [s["index"] for s in challenges]


def test_a_team_games_columns_are_its_teams_and_a_penalized_seat_gets_its_own():
    record = example("guandan")
    sheet = sheets.build(record, checked(record))
    assert [c.id for c in sheet.columns][:2] == ["team1", "team2"]
    penalized = {a["action"]["player"] for d in record["deals"] for a in d["actions"]
                 if a["action"]["type"] == "penalty"}
    assert penalized and penalized <= {c.id for c in sheet.columns}


# ---------------------------------------------------------------- a record with a discrepancy

@pytest.mark.parametrize("lang", sheets.LANGS)
@pytest.mark.parametrize("game_id", EXAMPLE_GAMES)
def test_a_changed_score_is_shown_up_to_the_discrepancy_which_the_sheet_names(game_id, lang):
    record = example(game_id)
    k = len(record["deals"]) - 1
    i = next(i for i, a in enumerate(record["deals"][k]["actions"]) if a.get("score_deltas"))
    record["deals"][k]["actions"][i]["score_deltas"][0]["delta"] += 1
    report = checked(record)
    assert (report["discrepancy"]["deal"], report["discrepancy"]["step"]) == (k, i)
    sheet = sheet_holds(record, report, lang)
    assert not sheet.consistent
    assert max(r.deal for r in sheet.rows) == k
    assert max(r.last_step for r in sheet.rows if r.deal == k) == i - 1
    where = sheets._ui("where_step", lang, deal=k + 1, step=i + 1)
    for fmt in sheets.FORMATS:
        out = sheets.render(record, report, fmt, lang)
        assert where in out and "score_differs" in out
        assert sheets._ui("total_partial", lang) in out
    assert 'class="verdict stopped"' in sheets.render(record, report, "html", lang)


def test_a_record_stopped_before_its_last_deal_says_how_many_deals_were_not_checked():
    record = example("daifugo")
    record["deals"][1]["result"]["totals"] = {"ken": 99}
    report = checked(record)
    assert report["discrepancy"]["code"] == "result_differs"
    text = sheets.render(record, report, "text", "en")
    assert "check stopped at deal 2:" in text
    assert f"{len(record['deals']) - 2} recorded deal(s) after it not checked" in text


def test_a_sheet_needs_the_checks_steps():
    record = example("man")
    with pytest.raises(ValueError, match="keep_steps"):
        sheets.build(record, records.check_record(copy.deepcopy(record)))


def test_an_unknown_format_or_language_is_refused():
    record = example("man")
    report = checked(record)
    with pytest.raises(ValueError):
        sheets.render(record, report, "pdf", "en")
    with pytest.raises(ValueError):
        sheets.render(record, report, "text", "fr")


def test_text_from_the_record_is_escaped_in_html():
    record = example("man")
    record["tags"]["event"] = "<script>alert(1)</script> & Co"
    record["tags"]["names"]["aoki"] = "<b>青木</b>"
    record.pop("digest")
    html = sheets.render(record, checked(record), "html", "ja")
    page = parse_html(html)
    assert page.find(f".//{XHTML}script") is None and page.find(f".//{XHTML}b") is None
    assert "<script>alert(1)</script> & Co" in "".join(page.itertext())


# ---------------------------------------------------------------- random matches of every game

@pytest.mark.parametrize("game_id", GAMES)
@PROPERTY
@given(seed=st.integers(min_value=0, max_value=2 ** 32), lang=st.sampled_from(sheets.LANGS))
def test_a_random_match_renders_with_the_checks_totals_and_every_step(game_id, seed, lang):
    record = random_record(game_id, random.Random(seed), deals=2, ledger=0.05)
    report = checked(record)
    assert report["consistent"]
    sheet_holds(record, report, lang)


@pytest.mark.parametrize("game_id", GAMES)
@PROPERTY
@given(seed=st.integers(min_value=0, max_value=2 ** 32))
def test_a_random_match_changed_anywhere_renders_up_to_where_the_check_stopped(game_id, seed):
    rnd = random.Random(seed)
    record = random_record(game_id, rnd, deals=2, ledger=0.05)
    places = [(k, i) for k, d in enumerate(record["deals"])
              for i, a in enumerate(d["actions"]) if a.get("score_deltas")]
    if not places:
        return
    k, i = rnd.choice(places)
    record["deals"][k]["actions"][i]["score_deltas"][0]["delta"] ^= 1
    report = checked(record)
    assert report["discrepancy"]["deal"] == k
    sheet = sheet_holds(record, report, rnd.choice(sheets.LANGS))
    assert not sheet.consistent and max(r.deal for r in sheet.rows) == k


def test_a_record_changed_after_its_digest_was_made_is_shown_whole_and_says_so():
    record = example("manteur")
    record["tags"]["site"] = "Paris"  # the carried digest is now another record's
    report = checked(record)
    assert report["discrepancy"]["code"] == "digest_mismatch"
    sheet = sheet_holds(record, report, "en")
    assert len(sheet.rows) == len(sheets.build(example("manteur"),
                                               checked(example("manteur"))).rows)
    assert "NOT consistent: digest_mismatch" in sheets.render_text(sheet, "en")


# ---------------------------------------------------------------- sheets that neither lie nor attack

def _renamed(record: dict, old: str, new: str) -> dict:
    """The record with a seat id replaced everywhere (keys and values); its digest dropped."""
    text = json.dumps(record, ensure_ascii=False).replace(json.dumps(old), json.dumps(new))
    out = json.loads(text)
    out.pop("digest", None)
    return out


def test_csv_text_cells_that_a_spreadsheet_reads_as_formulas_are_neutralised_numbers_stay():
    # OWASP CSV injection: a cell starting with = + - @ (or tab, CR) runs as a formula in the
    # spreadsheet the CSV is for. Names and seat ids are the record author's: prefixed with '.
    record = _renamed(example("man"), "aoki", "-aoki")
    record["tags"]["names"] = {"-aoki": "=HYPERLINK(\"http://x\",\"y\")", "baba": "@SUM(A1)",
                               "chiba": "+1", "doi": "\tdoi"}
    record["tags"]["event"] = "=1+1"
    report = checked(record)
    assert report["consistent"], report["discrepancy"]
    rows = list(csv.reader(io.StringIO(sheets.render(record, report, "csv"), newline="")))
    cells = [c for row in rows for c in row]
    starts = ("=", "+", "-", "@", "\t", "\r")
    numeric = re.compile(r"^-?\d+$")
    assert not [c for c in cells if c.startswith(starts) and not numeric.match(c)], cells
    assert "'=1+1" in cells and any(c.startswith("'=HYPERLINK") for c in cells)
    # the score columns stay numbers, negative ones included
    assert any(numeric.match(c) and c.startswith("-") for c in cells), cells


@pytest.mark.parametrize("lang", sheets.LANGS)
def test_tags_named_like_the_headings_own_lines_never_pass_for_them(lang):
    # An unknown tag `Check` (or `Digest`, `検証`) printed "Check: consistent" and a digest of
    # the author's choice above the real lines of an inconsistent record.
    record = copy.deepcopy(example("man"))
    record["deals"][0]["result"] = {"totals": {"aoki": 12345}}  # inconsistent
    fake = {"Check": "consistent (forged)", "Digest": "sha256:" + "0" * 64,
            "検証": "整合(偽)", "ダイジェスト": "sha256:" + "1" * 64}
    record["tags"].update(fake)
    report = checked(record)
    assert not report["consistent"]
    sheet = sheets.build(record, report)
    text = sheets.render_text(sheet, lang)
    heading = text.split("\n\n")[1].splitlines()
    for label in (sheets._ui("check", lang), sheets._ui("digest", lang)):
        mine = [line for line in heading if line.split("  ")[0].strip() == label]
        assert len(mine) == 1, (label, heading)
    assert not any(v in line for v in fake.values() for line in heading), heading
    assert all(line.startswith("  ") for line in text.splitlines() if "0" * 64 in line)
    assert sheets._ui("other_tags", lang) in text
    rows = list(csv.reader(io.StringIO(sheets.render_csv(sheet, lang), newline="")))
    heading_rows = rows[:rows.index([])]
    labels = [row[0] for row in heading_rows]
    assert labels.count(sheets._ui("check", lang)) == 1
    assert labels.count(sheets._ui("digest", lang)) == 1
    for label, value in heading_rows:
        if value in fake.values():  # only ever under its tag's own label, after the verdict
            assert label.startswith(sheets._ui("tag", lang, name="")[:3]), (label, value)
            assert labels.index(label) > labels.index(sheets._ui("check", lang))
    root = ET.fromstring(sheets.render_html(sheet, lang))
    heading_dds = [dd.text for dd in root.find(f".//{XHTML}dl") if dd.tag == f"{XHTML}dd"]
    assert not set(fake.values()) & set(heading_dds), heading_dds


@pytest.mark.parametrize("lang", sheets.LANGS)
def test_control_characters_and_bidi_overrides_are_shown_never_written_raw(lang):
    # ESC sequences rewrite a terminal (clear it, retitle it, forge lines); bidi overrides
    # reorder what a reader sees; a control character makes the HTML page ill-formed XML.
    record = copy.deepcopy(example("man"))
    record["tags"]["names"]["aoki"] = "\x1b[2J\x1b]0;pwned\x07Ao\u202eki\x9b"
    record["tags"]["event"] = "Open\nCheck: consistent\x7f"
    record["tags"]["club"] = "\x01\u2066x"
    report = checked(record)
    sheet = sheets.build(record, report)
    raw = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
    text = sheets.render_text(sheet, lang)
    assert not raw.search(text), repr(raw.search(text))
    assert "\\x1b[2J" in text and "\\u202e" in text
    assert "\nCheck: consistent" not in text
    html = sheets.render_html(sheet, lang)
    ET.fromstring(html)  # well-formed XML although the name held \x1b and \x07
    assert not raw.search(html)


def test_a_character_xml_does_not_allow_is_replaced_in_the_html_sheet():
    record = copy.deepcopy(example("man"))
    record["tags"]["names"]["aoki"] = "Ao\uffffki\ufffe"
    report = checked(record)
    ET.fromstring(sheets.render_html(sheets.build(record, report), "en"))


# ---------------------------------------------------------------- every ruling, every level

SANCTIONED = [g.id for g in registry.all_games() if g.referee.sanctions]
REFEREE_MODE = {"violations": "referee"}


def listed_rulings(record: dict, report: dict, fmt: str, lang: str) -> list[str]:
    """The lines of the sheet's rulings section in `fmt`, one per ruling (CSV: its cells joined
    by " | "), so every format is read the same way."""
    out = sheets.render(record, report, fmt, lang)
    title = sheets._ui("referee_log", lang)
    if fmt == "text":
        lines = out.split("\n")
        if title not in lines:
            return []
        start = lines.index(title) + 1
        end = lines.index("", start)
        return [line.strip() for line in lines[start:end] if not line.strip().startswith("(")]
    if fmt == "csv":
        rows = list(csv.reader(io.StringIO(out, newline="")))
        if [title] not in rows:
            return []
        start = rows.index([title]) + 2  # the title, then the columns' heading
        return [" | ".join(row) for row in rows[start:]]
    page = parse_html(out)
    section = page.find(f".//{XHTML}section[@class='rulings']")
    return [] if section is None else ["".join(li.itertext())
                                       for li in section.iter(f"{XHTML}li")]


def irregularities(report: dict) -> list[tuple[int, int, dict]]:
    """(deal, step, event) of every sanctioned irregularity the check replayed."""
    return [(d["index"], s["index"], e) for d in report["deals"] for s in d["steps"]
            for e in s["events"] if e["type"] == "irregularity_sanctioned"]


def record_with_irregularities(game_id: str) -> dict:
    """A referee-mode random match of `game_id` holding a sanctioned irregularity."""
    for seed in range(50):
        record = random_record(game_id, random.Random(f"irregular-{seed}"), deals=1,
                               ledger=0.03, options=REFEREE_MODE, irregular=0.1)
        if irregularities(checked(record)):
            return record
    raise AssertionError(f"no {game_id} record with a sanctioned irregularity")


@pytest.mark.parametrize("lang", sheets.LANGS)
@pytest.mark.parametrize("game_id", SANCTIONED)
def test_a_sanctioned_irregularity_is_listed_among_the_rulings_in_every_format(game_id, lang):
    record = record_with_irregularities(game_id)
    report = checked(record)
    assert report["consistent"], report["discrepancy"]
    names = record["tags"]["names"]
    found = irregularities(report)
    ledger_acts = [s for d in report["deals"] for s in d["steps"]
                   if s["action"]["type"] in LEDGER_ACTION_TYPES]
    for fmt in sheets.FORMATS:
        listed = listed_rulings(record, report, fmt, lang)
        assert len(listed) == len(found) + len(ledger_acts), (fmt, listed)
        for deal, step, event in found:
            at = sheets._ui("at", lang, deal=deal + 1, step=step + 1)
            if fmt == "csv":  # its own cells: the deal and the action counted from 1
                at = f"{deal + 1} | {step + 1} | "
            mine = [line for line in listed if line.startswith(at) and
                    names[event["player"]] in line and event["rule"] in line and
                    event["sanction_rule"] in line]
            assert mine, (fmt, at, event, listed)


def guandan_record_with_a_level_penalty(seed: int, against: str) -> tuple[dict, dict]:
    """A one-deal Guandan record whose referee penalizes, at its first step, a seat of the
    team that wins the deal (`against`: "winner") or loses it ("loser") by one level; the
    record's own deltas and totals dropped (the check computes them). And its report."""
    record = random_record("guandan", random.Random(f"level-{seed}"), deals=1, ledger=0,
                           physical=0)
    deal = record["deals"][0]
    report = checked(record)
    (done,) = [e for s in report["deals"][0]["steps"] for e in s["events"]
               if e["type"] == "deal_finished"]
    order = done["order"]
    seat = order[0] if against == "winner" else \
        next(p for p in record["players"] if p not in (order[0], order[1])
             and record["players"].index(p) % 2 != record["players"].index(order[0]) % 2)
    for entry in deal["actions"]:
        entry.pop("score_deltas", None)
    deal["actions"].insert(0, {"action": {"type": "penalty", "player": seat, "points": 1,
                                          "reason": "card exposed"}})
    for key in ("result",):
        deal.pop(key, None)
    for key in ("totals", "digest"):
        record.pop(key, None)
    return record, checked(record)


@pytest.mark.parametrize("against", ["winner", "loser"])
@pytest.mark.parametrize("seed", range(3))
def test_guandans_level_line_shows_a_penalty_counted_at_the_deals_end_and_the_next_level(
        seed, against):
    from engine.games.guandan.state import LEVELS
    record, report = guandan_record_with_a_level_penalty(seed, against)
    assert report["consistent"], report["discrepancy"]
    deal = report["deals"][0]
    sheet = sheets.build(record, report)
    (row,) = sheet.rows
    (done,) = [e for s in deal["steps"] for e in s["events"] if e["type"] == "deal_finished"]
    team = done["team"] if against == "winner" else \
        next(t for t in ("team1", "team2") if t != done["team"])
    moves = [d for s in deal["steps"] for d in s["score_deltas"]
             if d["target"] == team and "from" in d]
    path = "→".join([moves[0]["from"]] + [d["to"] for d in moves]) if moves else "2"
    after = LEVELS[max(0, LEVELS.index(moves[-1]["to"] if moves else "2") - 1)]
    next_level = (deal["next_match"] or {}).get("levels", {}).get(team)
    assert next_level in (None, after)  # None: the deal ended the match
    assert row.cells[team]["en"] == f"{path}, penalty −1 → {after}"
    assert row.cells[team]["ja"] == f"{path}、罰則 −1 → {after}"
    for lang in sheets.LANGS:
        assert row.cells[team][lang] in sheets.render_text(sheet, lang)


def replayed(record: dict) -> tuple[dict[str, int], list[dict], list[dict | None], dict]:
    """The record played again through /v1/validate's engine, not through the check: the
    score deltas summed by target, every answer's events, each deal's next_match, and the
    last state (its ledger is the match's: it travels from deal to deal)."""
    from engine import adjudicate
    totals: dict[str, int] = {}
    events: list[dict] = []
    summaries: list[dict | None] = []
    match, state = None, None
    for deal in record["deals"]:
        fields = dict(deal["deal"])
        seed = fields.pop("seed", records.PHYSICAL_SEED)
        fields.pop("seed_commitment", None)
        dealt = adjudicate.deal(record["game"], record["players"], record["options"], seed,
                                match=match, **fields)
        state, answer = dealt["state"], None
        for entry in deal["actions"]:
            answer = adjudicate.validate(state, entry["action"])
            assert answer.valid, answer.refusal
            state = answer.state
            events += answer.events
            for d in answer.score_deltas:
                totals[d["target"]] = totals.get(d["target"], 0) + d["delta"]
        # as a client holds it: JSON (a summary may hold tuples the next deal reads as lists)
        match = None if answer is None else json.loads(json.dumps(answer.next_match))
        summaries.append(match)
    return totals, events, summaries, state or {}


def referee_options(game_id: str) -> dict:
    """The game's referee mode: `violations: referee` (Man's is its own chombo, man 8.4); a game
    without a `violations` option has only the referee's ledger."""
    option = registry.get(game_id).option_map().get("violations")
    if option is None:
        return {}
    return {"violations": "referee" if "referee" in option.field.choices else "chombo"}


@pytest.mark.parametrize("game_id", GAMES)
@PROPERTY
@given(seed=st.integers(min_value=0, max_value=2 ** 32), lang=st.sampled_from(sheets.LANGS))
def test_a_random_referee_mode_match_sheet_holds_its_standings_and_every_ruling(
        game_id, seed, lang):
    record = random_record(game_id, random.Random(seed), deals=2, ledger=0.05,
                           options=referee_options(game_id), irregular=0.08, withdrawals=0.3)
    report = checked(record)
    assert report["consistent"], report["discrepancy"]
    sheet = sheet_holds(record, report, lang)
    totals, events, summaries, last = replayed(record)
    ledger = last["referee_ledger"]
    # the totals per seat or team are the replayed match's standings
    assert {t: v for t, v in sheet.totals.items() if v} == {t: v for t, v in totals.items() if v}
    # every ruling listed once: each ledger action and each sanctioned irregularity
    acts = [a["action"]["type"] for d in record["deals"] for a in d["actions"]
            if a["action"]["type"] in LEDGER_ACTION_TYPES]
    sanctioned = [e for e in events if e["type"] == "irregularity_sanctioned"]
    with_entry = [e for e in sanctioned if "entry" in e]
    assert len(ledger) == acts.count("warning") + acts.count("penalty") + len(with_entry)
    assert sum(e["withdrawn"] for e in ledger) == acts.count("withdraw")
    assert len(sheets.rulings(sheet, lang)) == len(ledger) + acts.count("withdraw") + \
        len(sanctioned) - len(with_entry)
    for fmt in sheets.FORMATS:
        assert len(listed_rulings(record, report, fmt, lang)) == len(acts) + len(sanctioned)
    if game_id == "manteur":  # one deal, the whole game: each seat's last count is its own
        counts = {}
        for row in sheet.rows:
            for seat, cell in row.cells.items():
                if "(" in cell["en"]:
                    counts[seat] = int(cell["en"].split("(")[1].rstrip(")"))
        assert counts == {p: n for p, n in last["match"]["penalties"].items() if n or p in counts}
    # each deal's level or score line ends where the next deal is dealt from
    for row, summary in zip(sheet.rows, summaries):
        if summary is None:
            continue
        if game_id == "guandan":
            for team, level in summary["levels"].items():
                assert row.cells[team]["en"].split("→")[-1].strip() == level, row.cells
        if game_id == "manillen" and not any("BOOM" in c["en"] for c in row.cells.values()):
            for holder, cell in row.cells.items():
                assert int(cell["en"].split("→")[1].split()[0]) == summary["scores"][holder]


def test_guandans_level_line_says_a_penalty_of_a_deal_not_finished_counts_at_its_end():
    record, _ = guandan_record_with_a_level_penalty(0, "winner")
    record["deals"][0]["actions"] = record["deals"][0]["actions"][:5]
    report = checked(record)
    assert report["consistent"] and report["deals"][0]["status"] == "in_progress"
    seat = record["deals"][0]["actions"][0]["action"]["player"]
    team = "team1" if record["players"].index(seat) % 2 == 0 else "team2"
    (row,) = sheets.build(record, report).rows
    assert row.cells[team] == {"en": "2, penalty −1 at the deal's end",
                               "ja": "2、罰則 −1(局の終わりに)"}
