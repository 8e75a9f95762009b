"""Issue #14, "Japanese throughout": every text a person reads in GET /v1/games is declared in
both languages. Walks each game's describe() in English and in Japanese: the same entry apart
from its texts, every option, action, action field and lookup described, each text non-empty
in both, the Japanese different from the English and written in Japanese."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

import pytest

from engine import registry

# Hiragana, katakana (with the long-vowel mark) or kanji: a text "written in Japanese" has some.
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
TEXT_KEYS = ("description", "summary")


def texts(described: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """(path, text) of every description and summary in a describe() answer, in order."""
    if isinstance(described, dict):
        for key, value in described.items():
            where = f"{path}.{key}" if path else key
            if key in TEXT_KEYS and isinstance(value, str):
                yield where, value
            else:
                yield from texts(value, where)
    elif isinstance(described, list):
        for i, value in enumerate(described):
            yield from texts(value, f"{path}[{i}]")


def without_texts(described: Any) -> Any:
    """The answer with every text blanked: what must not depend on the language."""
    if isinstance(described, dict):
        return {k: "" if k in TEXT_KEYS and isinstance(v, str) else without_texts(v)
                for k, v in described.items()}
    if isinstance(described, list):
        return [without_texts(v) for v in described]
    return described


def untranslated(en: dict, ja: dict) -> list[str]:
    """Every text of a game's entry that lacks a real Japanese version (for a readable failure)."""
    gaps = []
    for (path, english), (_, japanese) in zip(texts(en), texts(ja)):
        if not english.strip():
            gaps.append(f"{path}: empty English")
        if not japanese.strip():
            gaps.append(f"{path}: empty Japanese")
        elif japanese == english or not JAPANESE.search(japanese):
            gaps.append(f"{path}: no Japanese ({japanese!r})")
    return gaps


def undescribed(described: dict) -> list[str]:
    """Options, actions, action fields and lookups that carry no text at all."""
    missing = [f"options[{o['name']}]" for o in described["options"] if "description" not in o]
    for action in described["actions"]:
        if "description" not in action:
            missing.append(f"actions[{action['type']}]")
        missing += [f"actions[{action['type']}].fields.{name}"
                    for name, field in action["fields"].items() if "description" not in field]
    missing += [f"lookups[{lk['name']}]" for lk in described["lookups"] if "summary" not in lk]
    return missing


GAMES = registry.all_games()
GAMES_DIR = Path(__file__).resolve().parents[2] / "engine" / "games"


def test_every_game_package_is_walked():
    """Every package under engine/games/ is a registered game, so each is walked below."""
    packages = {p.parent.name for p in GAMES_DIR.glob("*/__init__.py")}
    assert len(packages) >= 2 and {g.id for g in GAMES} >= packages, packages


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_description_is_declared_in_english_and_japanese(game):
    en, ja = game.describe("en"), game.describe("ja")
    assert undescribed(en) == []
    assert without_texts(ja) == without_texts(en)  # only the words change with the language
    assert len(list(texts(en))) == len(list(texts(ja))) > 0
    assert untranslated(en, ja) == []


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_english_is_the_default_and_any_other_language_gets_english(game):
    assert game.describe() == game.describe("en") == game.describe("fr")


def test_the_walk_catches_a_missing_translation():
    """The check above can fail: a text declared in English only is reported."""
    from engine.fields import ActionType, Field

    action = ActionType("play", "Play a card.", "カードを出す。",
                        {"card": Field("card", "the card played")})
    en = {"options": [], "actions": [action.describe("en")], "lookups": []}
    ja = {"options": [], "actions": [action.describe("ja")], "lookups": []}
    assert untranslated(en, ja) == [
        "actions[0].fields.card.description: no Japanese ('the card played')"]
