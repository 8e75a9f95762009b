"""`card-referee sheet FILE [--format text|csv|html] [--lang en|ja] [-o OUT]`: a match record's
score sheet offline. Exit 0 for a consistent record, 1 when the check stopped at a discrepancy
(the sheet still written, up to it), 2 for a record that is not one."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from engine import records, sheets
from service import cli

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def record_of(game_id: str) -> dict:
    return json.loads((EXAMPLES / f"{game_id}.json").read_text(encoding="utf-8"))


def test_the_default_is_a_text_sheet_in_english(capsys):
    assert cli.main(["sheet", str(EXAMPLES / "manillen.json")]) == 0
    record = record_of("manillen")
    expected = sheets.render(record, records.check_record(record_of("manillen"),
                                                         keep_steps=True), "text", "en")
    assert capsys.readouterr().out == expected


@pytest.mark.parametrize("fmt", sheets.FORMATS)
def test_a_japanese_sheet_written_to_a_file(tmp_path, fmt, capsys):
    out = tmp_path / f"sheet.{fmt}"
    assert cli.main(["sheet", str(EXAMPLES / "man.json"), "--format", fmt, "--lang", "ja",
                     "-o", str(out)]) == 0
    assert capsys.readouterr().out == ""
    record = record_of("man")
    expected = sheets.render(record, records.check_record(record_of("man"), keep_steps=True,
                                                          lang="ja"), fmt, "ja")
    assert out.read_bytes() == expected.encode("utf-8")  # CSV's CRLF kept as written


def test_a_record_on_stdin_with_a_discrepancy_exits_1_with_its_sheet(monkeypatch, capsys):
    record = record_of("daifugo")
    record["totals"]["ken"] += 1
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(record, ensure_ascii=False)))
    assert cli.main(["sheet", "-"]) == 1
    out = capsys.readouterr().out
    assert "NOT consistent" in out and "totals_differ" in out


@pytest.mark.parametrize("content, message", [
    (None, "no such file"), ("{", "not JSON"), ("[]", "is a JSON object"),
    ('{"format": "x"}', "record_invalid at format")])
def test_a_file_that_is_not_a_record_exits_2_with_one_line(tmp_path, capsys, content, message):
    path = tmp_path / "record.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert cli.main(["sheet", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize("command", [["sheet"], ["check"], ["check", "--json"]])
def test_a_records_control_characters_never_reach_the_terminal_raw(tmp_path, capsys, command):
    # An ESC sequence in a name or a comment cleared, retitled or rewrote the reader's terminal;
    # a bidi override reorders what they see. Shown visibly instead (\x1b, \u202e).
    record = record_of("man")
    record["tags"]["names"]["aoki"] = "\x1b[2J\x1b]0;pwned\x07Aoki\u202e\x9b"
    record["tags"]["event"] = "Open \x1b[31mred"
    record["deals"][0]["actions"][0]["comment"] = "\x1b[1A\x1b[2KCheck: consistent"
    if "--json" in command:  # the report carries what the record wrote where it stops
        record["deals"][0]["actions"][0]["action"]["player"] = "\u202e\x9b\x7f"
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    cli.main([*command[:1], str(path), *command[1:]])
    out = capsys.readouterr().out
    for raw in ("\x1b", "\x07", "\u202e", "\x9b"):
        assert raw not in out, (raw, out[:500])
