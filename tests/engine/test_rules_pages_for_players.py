"""Every registered game's rules pages (English and Japanese) speak to players and referees:
the part above the last section, "Notes for implementers" (「実装者向けの注記」), names no
source path nor the engine, and no page calls the original rule texts "the seed": in the API a
seed is what a deal is shuffled from, so a rule text is "the original rules" (「元のルール文」)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import registry

ROOT = Path(__file__).resolve().parents[2]
NOTES = {"en": "## Notes for implementers", "ja": "## 実装者向けの注記"}
# A path or module of the code (a package directory, a Python or C file: the UECda server's
# source is cited too), or the engine itself: the rules say what happens at the table, not
# which part of the code does it.
SOURCE_PATH = re.compile(r"\b(?:engine|service|tools|tests|bench|src)/|\bengine\.[a-z_]+"
                         r"|\.(?:py|c)\b|\bthe engine\b|エンジン", re.I)
CODE_SPAN = re.compile(r"`[^`]*`")
# "the seed" naming a text, the old markers of rules taken from it (**Seed:**, **[seed]**), a
# quotation or a mark introduced by "(seed", and 「シード文書」. A shuffle seed is "a seed", "the deal's
# seed", "the shuffle seed"; a preset or option value spelt `seed` is a code span, which is left
# out before looking.
SEED_AS_TEXT = re.compile(
    r"(?i:\bthe seed\b|\bseed's\b|\(seed\b|\[seed\]|\bseed text)|\bSeed\b|シード文書")


def pages() -> list[tuple[str, str, str]]:
    out = []
    for game in registry.all_games():
        if not game.rules_doc.endswith(".md"):
            continue
        for lang, path in (("en", game.rules_doc), ("ja", game.rules_doc[:-3] + ".ja.md")):
            if (ROOT / path).exists():
                out.append((game.id, lang, path))
    return out


def player_part(text: str, lang: str) -> str:
    """The page above its notes for implementers (the whole page when it has none)."""
    return text.split("\n" + NOTES[lang] + "\n", 1)[0]


PAGES = pages()


def test_every_game_has_pages_to_check():
    games = {g.id for g in registry.all_games() if g.rules_doc}
    assert games and games == {game for game, _, _ in PAGES}


@pytest.mark.parametrize("game,lang,path", PAGES, ids=[f"{g}-{lang}" for g, lang, _ in PAGES])
def test_rules_for_players_name_no_source_path(game, lang, path):
    text = (ROOT / path).read_text(encoding="utf-8")
    found = [(n, line.strip()) for n, line in enumerate(player_part(text, lang).splitlines(), 1)
             if SOURCE_PATH.search(line)]
    assert not found, f"{path}: source paths above {NOTES[lang]!r}: {found}"
    # the notes are the page's last section: no rules for players below them
    notes = text[len(player_part(text, lang)):]
    assert not re.findall(r"^## .*", notes, re.M)[1:], f"{path}: a section after the notes"


@pytest.mark.parametrize("game,lang,path", PAGES, ids=[f"{g}-{lang}" for g, lang, _ in PAGES])
def test_no_page_calls_a_rule_text_the_seed(game, lang, path):
    text = CODE_SPAN.sub("``", (ROOT / path).read_text(encoding="utf-8"))
    # a line break inside a phrase ("the\nseed") is still the phrase
    found = [m.group(0) for m in SEED_AS_TEXT.finditer(" ".join(text.split()))]
    assert not found, f"{path} calls a rule text the seed: {found}"


def test_no_option_description_calls_a_rule_text_the_seed():
    """The options' words (GET /v1/games, the spec) speak of the rule texts as the pages do."""
    found = [(game.id, option.name, text) for game in registry.all_games()
             for option in game.options
             for text in (option.field.description, option.field.description_ja)
             if SEED_AS_TEXT.search(CODE_SPAN.sub("``", text))]
    assert not found, found


@pytest.mark.parametrize("lang", sorted(NOTES))
def test_the_checks_catch_what_they_look_for(lang):
    page = f"# G\n1.1 As `engine/games/g/` says, the seed's rule.\n{NOTES[lang]}\n`x.py`\n"
    assert SOURCE_PATH.search(player_part(page, lang))
    for named in ("`engine/rng.py`", "`server/src/daihu.c`", "the engine deals", "エンジンが配る"):
        assert SOURCE_PATH.search(named), named
    assert not SOURCE_PATH.search("the dealer deals; 1.2 (e.g. a pair)")
    assert "x.py" not in player_part(page, lang)
    assert SEED_AS_TEXT.search(page) and SEED_AS_TEXT.search("**Seed:** 3–8 players")
    assert SEED_AS_TEXT.search("clears at once (seed ⑧)")
    assert not SEED_AS_TEXT.search("from the deal's seed: one seed, the shuffle seed, ``")
