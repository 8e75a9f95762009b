"""An event published (docs/events.md "Publication"): the standings report (every tie-break,
each entrant's round-by-round results, the penalties, the check) and the sheet in text, CSV
and HTML, English and Japanese, for an event of every game — what a stranger wrote never
written raw."""
from __future__ import annotations

import copy
import csv
import io
import random
import re
import xml.etree.ElementTree as ET
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from engine import registry
from engine.events import next_round, parse_event
from engine.events.check import check_event
from engine.events.publish import (
    _UI,
    SHEET_STYLE,
    EventStandings,
    build,
    event_report,
    sheet,
    standings_report,
)
from engine.events.standings import EventRecordInconsistent, as_json, replayed, standings
from tests.events.helpers import event, layouts
from tests.events.playing import finished

GAMES = [g.id for g in registry.all_games()]
FORMATS = ["text", "csv", "html"]
LANGS = ["en", "ja"]
HOSTILE = "<script>alert(1)</script>"


def layout_of(game: str) -> tuple[str, int, str]:
    """The game's first layout with partners where it has them (their words are shown too)."""
    mine = [lay for lay in layouts() if lay[0] == game]
    return next((lay for lay in mine if lay[2] != "none"), mine[0])


_SHOWCASE: dict[str, dict[str, Any]] = {}


def showcase(game: str) -> dict[str, Any]:
    """An event of the game: two rounds played with the same two deals at every table, records
    and reported results, a substitute, penalties, and names and tags a stranger wrote."""
    if game not in _SHOWCASE:
        ev = finished(random.Random(7), layout_of(game), 7, 2, records_share=0.6, same_deals=2)
        ev["name"] = f"Autumn Open {HOSTILE}"
        ev["tags"] = {"site": "=HYPERLINK(\"http://x\")", "<b>bold</b>": HOSTILE, "rated": True}
        ev["entrants"][0]["name"] = HOSTILE
        ev["entrants"][1]["name"] = "+1 Player"
        ev["entrants"][2]["name"] = "@SUM(A1)\x1b[31m"
        reported = [t for t in ev["rounds"][1]["tables"] if "reported" in t["result"]]
        if reported:
            reported[0]["seats"][0]["substitute"] = {"id": "sub", "name": "-Sub Stitute"}
            reported[0]["result"]["reported"]["note"] = "=1+1 scores agreed"
        unit = ev["rounds"][1]["tables"][0]["seats"][0]["entrant"]
        ev.setdefault("penalties", []).append(
            {"round": 2, "entrant": unit, "kind": "warning", "reason": "-slow play <i>"})
        assert check_event(ev)["consistent"], check_event(ev)["discrepancy"]
        _SHOWCASE[game] = ev
    return copy.deepcopy(_SHOWCASE[game])


# ---------------------------------------------------------------- the report

_REPORT_SETTINGS = settings(max_examples=8, deadline=None,
                            phases=(Phase.explicit, Phase.reuse, Phase.generate),
                            suppress_health_check=[HealthCheck.too_slow,
                                                   HealthCheck.data_too_large])


@given(st.integers(0, 2**32), st.sampled_from(layouts()), st.integers(3, 9),
       st.sampled_from(LANGS))
@_REPORT_SETTINGS
def test_each_entrants_rounds_add_up_to_its_standing(seed, layout, entrants, lang):
    ev = finished(random.Random(seed), layout, entrants, 2)
    answer = standings_report(ev, lang)
    parsed = msgspec.convert(answer, EventStandings)  # the Struct the spec publishes
    expected = as_json(standings(parse_event(ev)))
    assert [line.entrant for line in parsed.standings] == [x["entrant"] for x in expected]
    assert [line.rank for line in parsed.standings] == list(range(1, len(ev["entrants"]) + 1))
    assert answer["check"] == check_event(ev)
    assert parsed.tie_breaks == ev["system"]["tie_breaks"]
    for line, want in zip(parsed.standings, expected):
        assert line.tie_breaks == want["tie_breaks"] and line.event_points == want["event_points"]
        assert [r.round for r in line.rounds] == [1, 2]
        assert sum(r.event_points for r in line.rounds) - line.penalty_points == \
            line.event_points
        assert sum(r.bye for r in line.rounds) == line.byes
        assert sum(r.place is not None for r in line.rounds) == line.played
        for r, rnd in zip(line.rounds, ev["rounds"]):
            assert r.bye == (line.entrant in rnd.get("byes", []))
            table = next((t for t in rnd["tables"]
                          if line.entrant in {s["entrant"] for s in t["seats"]}), None)
            assert r.table == (table["number"] if table else None)
            if table is not None:
                at_table = {s["entrant"] for s in table["seats"]}
                assert set(r.opponents) | set(r.partners) == at_table - {line.entrant}
                assert not set(r.opponents) & set(r.partners)
                assert [ev["rounds"][r.round - 1]["tables"][r.table - 1]["seats"][s.seat - 1]
                        ["entrant"] for s in r.seats] == [line.entrant] * len(r.seats)
                assert r.result == next(iter(table["result"]))
    given_penalties = sorted((p["round"], p["entrant"]) for p in ev.get("penalties", []))
    assert sorted((p.round, p.entrant) for p in parsed.penalties) == given_penalties


def test_a_record_that_does_not_replay_stops_the_standings_at_its_place():
    ev = finished(random.Random(3), ("daifugo", 3, "none"), 7, 2, records_share=1.0)
    record = ev["rounds"][0]["tables"][0]["result"]["record"]
    record["totals"] = {p: 99 for p in record["players"]}
    with pytest.raises(EventRecordInconsistent) as err:
        standings_report(ev, "en")
    assert err.value.path == "rounds[0].tables[0].result.record.totals"
    with pytest.raises(EventRecordInconsistent):
        sheet(ev, "html", "ja")


def test_an_unknown_format_or_language_is_refused():
    ev = showcase("daifugo")
    with pytest.raises(ValueError):
        sheet(ev, "pdf", "en")
    with pytest.raises(ValueError):
        standings_report(ev, "fr")


# ---------------------------------------------------------------- the sheet

@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("game", GAMES)
def test_the_sheet_of_an_event_of_every_game(game, fmt, lang):
    ev = showcase(game)
    out = sheet(ev, fmt, lang)
    words = {k: (en if lang == "en" else ja) for k, (en, ja) in _UI.items()}
    for key in ("standings", "crosstable", "penalties", "same_deals_title"):
        assert words[key] in out
    assert words["round_title"].format(n=2, method=words["method_swiss"]) in out
    assert _say(registry.get(game).names, lang) in out
    for entrant in ev["entrants"]:
        assert entrant["id"] in out
    if fmt == "html":
        _assert_self_contained_page(out)
    elif fmt == "csv":
        _assert_no_formula(out)
    else:
        assert "\x1b" not in out and "\\x1b" in out  # a terminal's escape shown, never sent
        assert HOSTILE in out  # plain text: written as it is, for a terminal


def _say(names: dict[str, str], lang: str) -> str:
    return names.get(lang) or names["en"]


def _assert_self_contained_page(page: str) -> None:
    root = ET.fromstring(page.split("\n", 1)[1])  # well-formed XML after the doctype
    ns = "{http://www.w3.org/1999/xhtml}"
    tags = {el.tag.removeprefix(ns) for el in root.iter()}
    assert not tags & {"script", "link", "img", "iframe", "object", "embed", "base", "form"}
    assert len(root.findall(f".//{ns}style")) == 1
    for el in root.iter():
        assert not set(el.attrib) & {"src", "href", "style", "action"}
        assert not any(a.startswith("on") for a in el.attrib)
    assert "url(" not in page and "@import" not in page
    texts = "".join(root.itertext())
    assert HOSTILE in texts  # shown as written, as text
    assert "&lt;script&gt;" in page and "<script" not in page


def _assert_no_formula(text: str) -> None:
    rows = list(csv.reader(io.StringIO(text)))
    assert text.endswith("\r\n")
    cells = [c for row in rows for c in row]
    for cell in cells:
        if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
            assert re.fullmatch(r"-\d+", cell), cell  # only a number may start so
    assert "'=HYPERLINK(\"http://x\")" in cells
    assert any(c.startswith("'+1 Player") for c in cells)
    assert any(c.startswith("'@SUM(A1)") for c in cells)
    assert "'-slow play <i>" in cells


def test_the_japanese_sheets_own_words_are_japanese():
    for key, (_en, ja) in _UI.items():
        own = re.sub(r"\{[a-z_]+\}", "", ja)
        assert not re.search(r"[A-Za-z]{2,}", own), (key, ja)
    ev = showcase("guandan")  # everything a person wrote, in Japanese too
    ev["name"], ev["tags"] = "秋の大会", {"会場": "京都"}
    for i, entrant in enumerate(ev["entrants"]):
        entrant["name"] = f"選手{i}"
        for member in entrant.get("members", []):
            member["name"] = "メンバー"
    for rnd in ev["rounds"]:
        for table in rnd["tables"]:
            for seat in table["seats"]:
                if "substitute" in seat:
                    seat["substitute"]["name"] = "代理選手"
            if "reported" in table["result"]:
                table["result"]["reported"]["note"] = "合意済み"
    for penalty in ev["penalties"]:
        penalty["reason"] = "遅刻"
    for fmt in FORMATS:
        out = sheet(ev, fmt, "ja")
        if fmt == "html":  # what a reader sees: the body's text, not the markup's classes
            body = ET.fromstring(out.split("\n", 1)[1])[1]
            out = "".join(body.itertext())
        for key, (en, ja) in _UI.items():
            if en != ja and "{" not in en and len(en) > 4:
                assert en not in out, (fmt, key, en)


@pytest.mark.parametrize("n, words", [
    (1, ["1 round,", "a round is 1 deal;", "the same 1 deal at every table"]),
    (2, ["2 rounds,", "a round is 2 deals;", "the same 2 deals at every table"]),
])
def test_the_system_in_english_words_counts_one_and_more(n, words):
    ev = event(5, rounds=n, round_end={"kind": "deals", "deals": n}, same_deals=n)
    system = standings_report(ev, "en")["system"]
    assert all(w in system for w in words), system
    minutes = standings_report({**ev, "system": {**ev["system"], "round_end": {
        "kind": "time", "minutes": n, "at_bell": "finish_deal"}}}, "en")["system"]
    assert f"a round is {n} minute{'s' if n > 1 else ''} (" in minutes


def test_reported_results_are_marked_and_records_are_not():
    ev = showcase("daifugo")
    for lang in LANGS:
        event, rep = event_report(ev, lang)
        pub = build(event, rep, lang)
        word = {"record": _UI["record"], "reported": _UI["reported"]}
        seen = set()
        rounds = [p for p in pub.parts if p.level == 2 and p.lines]  # a round's own lines
        assert len(rounds) == len(ev["rounds"])
        for part, rnd in zip(rounds, ev["rounds"]):
            rows = iter(part.grid.rows)
            for table in rnd["tables"]:
                kind = next(iter(table["result"]))
                for _ in table["seats"]:
                    cell = next(rows)[-1]
                    assert cell.text == word[kind][lang == "ja"]
                    assert (cell.mark == "reported") == (kind == "reported")
                    seen.add(kind)
        assert seen == {"record", "reported"}


def test_the_same_deals_stand_side_by_side_with_each_tables_result_on_them():
    ev = showcase("man")
    event, rep = event_report(ev, "en")
    pub = build(event, rep, "en")
    sides = [p for p in pub.parts if p.title == _UI["same_deals_title"][0]]
    assert len(sides) == len(ev["rounds"])
    for part, rnd in zip(sides, ev["rounds"]):
        assert [c.text for c in part.grid.header[4:]] == \
            [f"Table {t['number']}" for t in rnd["tables"]]
        for j, row in enumerate(part.grid.rows):
            assert row[1].text == rnd["deals"][j]["seed"]
            assert row[3].text == rnd["deals"][j]["seed_commitment"]
            for cell, table in zip(row[4:], rnd["tables"]):
                if "reported" in table["result"]:
                    assert cell.text == "reported"
                    continue
                totals = replayed(table["result"]["record"]).deal_totals
                if j >= len(totals):
                    assert cell.text == "—"
                    continue
                shown = re.findall(r"([+−±])(\d+)", cell.text)
                assert [int(n) * (-1 if s == "−" else 1) for s, n in shown] == \
                    list(totals[j].values()) or (not totals[j] and cell.text == "±0")


def test_a_substitute_and_the_penalties_reasons_are_shown():
    ev = showcase("daifugo")
    text = sheet(ev, "text", "en")
    assert "-Sub Stitute (sub), substitute for" in text
    assert "-slow play <i>" in text and "late to the table" in text
    assert "=1+1 scores agreed" in text
    ja = sheet(ev, "text", "ja")
    assert "の代理" in ja and "警告" in ja


def test_the_check_stands_at_the_top_of_the_sheet():
    ev = showcase("daifugo")
    for lang in LANGS:
        first = sheet(ev, "text", lang).splitlines()[3]
        assert first.startswith(_UI["check"][lang == "ja"])
        assert _UI["consistent"][lang == "ja"].split(" — ")[0] in first
    ev["rounds"][0]["seed"] = "not the seed"
    for fmt in FORMATS:
        out = sheet(ev, fmt, "en")
        head = out[:out.index(_UI["standings"][0])]
        assert "NOT consistent — commitment_mismatch: Round 1" in head
    assert 'class="verdict stopped"' in sheet(ev, "html", "ja")


def test_the_reports_types_make_spec_schemas_of_their_own_names():
    (schema,), components = msgspec.json.schema_components([EventStandings])
    assert schema == {"$ref": "#/$defs/EventStandings"}
    assert set(components) == {"EventStandings", "EventStandingLine", "EventRoundResult",
                               "EventSeatTaken", "EventPenaltyLine", "EventCheck",
                               "EventCheckCounts", "EventDiscrepancy", "EventText"}
    assert all(c.get("description") for c in components.values())


def test_the_pages_one_stylesheet_is_the_published_one():
    page = sheet(showcase("daifugo"), "html", "en")
    assert page.count("<style>") == 1
    assert page.split("<style>")[1].split("</style>")[0] == SHEET_STYLE


def test_a_table_that_reports_its_deals_is_published_with_the_scores_they_give():
    ev = next_round(event(2, game="guandan", table_size=4, partners="fixed",
                          event_points=[2, 0]), "s")
    table = ev["rounds"][0]["tables"][0]
    seats = [s["player"] for s in table["seats"]]
    first = table["seats"][0]["entrant"]
    table["result"] = {"reported": {"deals": [{"order": [seats[0], seats[2]]}]}}
    answer = standings_report(ev, "ja")
    top = answer["standings"][0]
    assert top["entrant"] == first and top["reported"] == 1
    assert {k: top["rounds"][0][k] for k in ("place", "score", "result")} == \
        {"place": 1, "score": 5, "result": "reported"}
    assert "申告" in sheet(ev, "text", "ja")
