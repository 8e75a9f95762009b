"""The Japanese rules pages (docs/rules/<game>.ja.md, issue #14) keep in step with the English
ones: the same rule numbers, every rule a refusal cites and every refusal code on both, the same
code spans (option names, values, codes, JSON, card tokens: what the API speaks) and the same
tables. And every game that must have a Japanese page has one."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import registry

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs/rules"

# The games whose Japanese page must exist. When merging the other translations (branch
# rulesja2: guandan, manteur, daifugo), add them here; the goal is all five.
MUST_HAVE_JAPANESE = ("man", "manillen", "guandan", "manteur", "daifugo")

# How each page numbers its rules: the patterns that find the numbers it *defines* (section
# headings, numbered rules, option rows). Manillen's pages cite the reference's A1…A37 and
# M-a…M-m inline, so there every mention counts. A Japanese character is a word character to
# `re`, so boundaries are spelt out in ASCII rather than with \b.
NUMBERS = {
    "man": [r"^## (\d+)\.", r"^(\d+\.\d+)(?![\d.])"],
    "manillen": [r"(?<![A-Za-z0-9-])(A\d+|M-[a-m])(?![A-Za-z0-9])"],
    "guandan": [r"^## (\d+)\. ", r"^- (?:\*\*)?([GLCBWPTSR]-\d+)\.", r"^\| (D\d+) \|"],
    "daifugo": [r"^- (D\d+|U\d+)\.", r"^#+ (C\.\d+) ", r"^\| (D-[a-s]) \|"],
    "manteur": [r"^## (B\.\d+) ", r"^- \*\*(B\d+)\.\*\*", r"^\| (B-[a-i]) \|"],
}
GAMES = {g.id: g for g in registry.all_games() if g.id in NUMBERS}
TRANSLATED = sorted(g for g in GAMES if (RULES / f"{g}.ja.md").exists())
CODE_SPAN = re.compile(r"`([^`]+)`")  # a span may wrap onto the next line
TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$", re.M)


def page(game: str, lang: str = "en") -> str:
    return (RULES / (f"{game}.md" if lang == "en" else f"{game}.{lang}.md")).read_text(
        encoding="utf-8")


def rule_numbers(game: str, text: str) -> set[str]:
    return {n for pattern in NUMBERS[game] for n in re.findall(pattern, text, re.M)}


def cited(game: str) -> set[str]:
    return {rule.partition(" ")[2] for rule in GAMES[game].refusals.values()}


def test_every_game_has_its_rule_numbering_declared_here():
    assert set(GAMES) == {g.id for g in registry.all_games()} - {"toy", "crash"}


@pytest.mark.parametrize("game", sorted(NUMBERS))
def test_english_page_defines_every_rule_its_refusals_cite(game):
    """The patterns above find what they should: checked on the English pages, where the
    catalogue test (test_refusal_catalogue) already holds the citations to the page."""
    numbers = rule_numbers(game, page(game))
    assert len(numbers) >= 10, numbers
    assert cited(game) <= numbers, cited(game) - numbers


@pytest.mark.parametrize("game", MUST_HAVE_JAPANESE)
def test_japanese_page_exists(game):
    assert (RULES / f"{game}.ja.md").exists(), f"docs/rules/{game}.ja.md is missing"


@pytest.mark.parametrize("game", TRANSLATED)
def test_same_rule_numbers_in_both_languages(game):
    english, japanese = rule_numbers(game, page(game)), rule_numbers(game, page(game, "ja"))
    assert english == japanese, (f"only in English: {sorted(english - japanese)}; "
                                 f"only in Japanese: {sorted(japanese - english)}")


@pytest.mark.parametrize("game", TRANSLATED)
def test_every_cited_rule_and_every_refusal_code_is_on_the_japanese_page(game):
    japanese = page(game, "ja")
    assert cited(game) <= rule_numbers(game, japanese)
    missing = [code for code in GAMES[game].refusals if f"`{code}`" not in japanese]
    assert not missing, f"refusal codes not listed in {game}.ja.md: {missing}"


@pytest.mark.parametrize("game", TRANSLATED)
def test_what_the_api_speaks_is_unchanged(game):
    """Option names and values, codes, fields, JSON and card tokens are written as code spans on
    the English page; the translation keeps every one of them, verbatim."""
    def spans(text: str) -> set[str]:
        return {" ".join(span.split()) for span in CODE_SPAN.findall(text)}

    def is_placeholder(span: str) -> bool:
        # `<suit><rank>` or Manteur's `[top card]`: a stand-in the reader fills, written in the
        # reader's language; everything else in backticks is a string the API speaks.
        return bool(re.search(r"<[a-z ]+>", span) or re.fullmatch(r"\[[a-z ,]+\]", span))

    missing = sorted(s for s in spans(page(game)) - spans(page(game, "ja"))
                     if not is_placeholder(s))
    assert not missing, f"code spans of {game}.md missing from {game}.ja.md: {missing}"


@pytest.mark.parametrize("game", TRANSLATED)
def test_same_tables_and_headings(game):
    english, japanese = page(game), page(game, "ja")
    assert len(TABLE_ROW.findall(japanese)) == len(TABLE_ROW.findall(english))
    heading_levels = lambda text: [len(m) for m in re.findall(r"^(#+) ", text, re.M)]  # noqa: E731
    assert heading_levels(japanese) == heading_levels(english)


@pytest.mark.parametrize("game", TRANSLATED)
def test_japanese_page_says_what_it_is_and_links_stay_japanese(game):
    japanese = page(game, "ja")
    assert re.search(r"[\u3040-\u30ff]", japanese)
    # The note on top: a rule-for-rule translation of the English page; a difference is a bug.
    head = japanese[:1500]
    assert f"{game}.md" in head and "翻訳" in head
    for target in re.findall(r"\]\(([^)#]+\.md)", japanese):
        name = Path(target).name
        translated = name.replace(".md", ".ja.md")
        if not name.endswith(".ja.md") and name != f"{game}.md" and (RULES / translated).exists():
            pytest.fail(f"{game}.ja.md links {target}, which has a Japanese page ({translated})")
