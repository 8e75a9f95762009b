"""Each Japanese rules page (docs/rules/<game>.ja.md) numbers its rules exactly as its English
page does: the same headings (numbered or not) in the same order, the same rule labels
(`G-1`, `B1`, `D5`, `U14` …), the same numbered list items, the same option rows (`D1`,
`B-a`, `D-a` …) and the same refusal codes citing the same rules. A refusal cites a rule
number, so a Japanese reader must find that number in the same place."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = sorted(p.name.removesuffix(".ja.md") for p in (ROOT / "docs/rules").glob("*.ja.md"))

HEADING = re.compile(r"^(#{1,6}) (?:([A-Z]?\.?\d+\.?|[A-Z]\.)(?= ))?")
RULE = re.compile(r"^\s*- (?:\*\*)?([A-Z]+-?\d+|[A-Z]-[a-z])\.")
LIST_ITEM = re.compile(r"^(\s*)(\d+)\. ")
OPTION_ROW = re.compile(r"^\| ([A-Z]+-?[a-z0-9]+) \|")
REFUSAL_ROW = re.compile(r"^\| `([a-z0-9_]+)` \| ([\w.-]+) \|")


def numbering(text: str) -> list[tuple]:
    """The page's numbering, in order. A heading without a number still counts (as its level),
    so a section cannot be dropped or split in translation."""
    out = []
    for line in text.splitlines():
        if m := HEADING.match(line):
            out.append(("heading", len(m.group(1)), m.group(2)))
        elif m := RULE.match(line):
            out.append(("rule", m.group(1)))
        elif m := LIST_ITEM.match(line):
            out.append(("item", len(m.group(1)), m.group(2)))
        elif m := REFUSAL_ROW.match(line):
            out.append(("refusal", m.group(1), m.group(2)))
        elif m := OPTION_ROW.match(line):
            out.append(("option", m.group(1)))
    return out


@pytest.mark.parametrize("game", [g for g in TRANSLATED
                                  if (ROOT / f"docs/rules/{g}.ja.md").exists()])
def test_japanese_page_numbers_its_rules_like_the_english_one(game):
    english = numbering((ROOT / f"docs/rules/{game}.md").read_text(encoding="utf-8"))
    japanese = numbering((ROOT / f"docs/rules/{game}.ja.md").read_text(encoding="utf-8"))
    assert len(english) > 20, english  # the parser still understands the English page
    assert japanese == english


def test_the_numbering_parser_reads_each_kind_of_number():
    page = ("# T\n## 3. L\n### B.1 C\n- **G-1.** x\n- D5. y\n  - sub\n1. **a**\n  2. b\n"
            "| D1 | p |\n| B-a | q |\n| `not_your_turn` | P-2 | w |\n## Refusals\n")
    assert numbering(page) == [
        ("heading", 1, None), ("heading", 2, "3."), ("heading", 3, "B.1"), ("rule", "G-1"),
        ("rule", "D5"), ("item", 0, "1"), ("item", 2, "2"), ("option", "D1"),
        ("option", "B-a"), ("refusal", "not_your_turn", "P-2"), ("heading", 2, None)]
