"""The Japanese rules pages (each game's `rules_doc` and the `.ja.md` beside it) keep in step
with the English ones: the same rule numbers, every rule a refusal cites and every refusal code
on both, the same code spans (option names, values, codes, JSON, card tokens: what the API
speaks) and the same tables. Every registered game has its Japanese page.

How a page numbers its rules is the game's own: the patterns that find the numbers it
*defines* (section headings, numbered rules, option rows) are its conformance facts'
`rule_numbers` (engine/games/<id>/conformance.json; Manillen's pages cite the reference's
A1…A37 and M-a…M-m inline, so there every mention counts). A game that gives none is read as
the service reads it: its numbers are the anchors of its rendered HTML page (service/pages.py),
a number at the start of a heading, list item, table cell or line."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import registry
from service.pages import render_html
from tests.conformance import helpers

ROOT = Path(__file__).resolve().parents[2]
GAMES = {g: registry.get(g) for g in helpers.GAME_IDS}
TRANSLATED = sorted(GAMES)  # every game: test_japanese_page_exists
CODE_SPAN = re.compile(r"`([^`]+)`")  # a span may wrap onto the next line
TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$", re.M)
ANCHOR = re.compile(r'\bid="([^"]+)"')


def english_path(game: str) -> Path:
    return ROOT / GAMES[game].rules_doc


def japanese_path(game: str) -> Path:
    english = english_path(game)
    return english.with_name(english.name[:-3] + ".ja.md")


def page(game: str, lang: str = "en") -> str:
    return helpers.rules_pages(game)[lang]


def rule_numbers(game: str, text: str, lang: str = "en") -> set[str]:
    patterns = helpers.facts(game).get("rule_numbers")
    if patterns is None:
        return set(ANCHOR.findall(render_html(text, lang, game, "")))
    return {n for pattern in patterns for n in re.findall(pattern, text, re.M)}


def cited(game: str) -> set[str]:
    return {rule.partition(" ")[2] for rule in GAMES[game].refusals.values()}


def test_the_registry_finds_games_whose_pages_to_check():
    assert len(GAMES) >= 2, GAMES


@pytest.mark.parametrize("game", sorted(GAMES))
def test_english_page_defines_every_rule_its_refusals_cite(game):
    """The patterns find what they should: checked on the English pages, where the
    catalogue test (test_refusal_catalogue) already holds the citations to the page."""
    numbers = rule_numbers(game, page(game))
    assert len(numbers) >= 10, numbers
    assert cited(game) <= numbers, cited(game) - numbers


@pytest.mark.parametrize("game", sorted(GAMES))
def test_japanese_page_exists(game):
    assert japanese_path(game).exists(), f"{japanese_path(game)} is missing"


@pytest.mark.parametrize("game", TRANSLATED)
def test_same_rule_numbers_in_both_languages(game):
    english = rule_numbers(game, page(game))
    japanese = rule_numbers(game, page(game, "ja"), "ja")
    assert english == japanese, (f"only in English: {sorted(english - japanese)}; "
                                 f"only in Japanese: {sorted(japanese - english)}")


@pytest.mark.parametrize("game", TRANSLATED)
def test_every_cited_rule_and_every_refusal_code_is_on_the_japanese_page(game):
    japanese = page(game, "ja")
    assert cited(game) <= rule_numbers(game, japanese, "ja")
    missing = [code for code in GAMES[game].refusals if f"`{code}`" not in japanese]
    assert not missing, f"refusal codes not listed in {japanese_path(game).name}: {missing}"


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
    assert not missing, f"code spans of {english_path(game).name} missing from " \
        f"{japanese_path(game).name}: {missing}"


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
    english = english_path(game)
    assert english.name in head and "翻訳" in head
    for target in re.findall(r"\]\(([^)#]+\.md)", japanese):
        name = Path(target).name
        translated = name.replace(".md", ".ja.md")
        if not name.endswith(".ja.md") and name != english.name \
                and (english.parent / translated).exists():
            pytest.fail(f"{japanese_path(game).name} links {target}, which has a Japanese page "
                        f"({translated})")
