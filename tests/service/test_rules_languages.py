"""GET /v1/games/{game}/rules in Japanese: the `.ja.md` page beside the English one
when the caller prefers Japanese, English (labelled so) when a game has no translation, the
language in Content-Language, the HTML's lang attribute and the ETag, and a cache per language.
Served from a rules directory of our own (CARDREF_RULES_DIR), so the pages' wording is free to
change; tests/engine/test_rules_translations.py checks the real pages."""
from __future__ import annotations

from pathlib import Path

import pytest

from service import pages

ROOT = Path(__file__).resolve().parents[2]
JA = {"Accept-Language": "ja"}
ENGLISH = "# Man\n\n## 1. Cards\n1.1 One deck.\n"
JAPANESE = "# まん\n\n## 1. カード\n1.1 デッキは1組。\n"


@pytest.fixture
def rules_client(make_client, tmp_path):
    """A service whose rules directory has man in both languages and manillen in English only."""
    (tmp_path / "man.md").write_text(ENGLISH, encoding="utf-8")
    (tmp_path / "man.ja.md").write_text(JAPANESE, encoding="utf-8")
    (tmp_path / "manillen.md").write_text("# Manillen\n\nA1 Cards.\n", encoding="utf-8")
    pages._cache.clear()  # keyed by directory too, but tmp_path names may be reused
    yield make_client(rules_dir=str(tmp_path))
    pages._cache.clear()


def test_japanese_page_for_a_japanese_caller(rules_client):
    en = rules_client.get("/v1/games/man/rules")
    ja = rules_client.get("/v1/games/man/rules", headers=JA)
    assert en.status_code == ja.status_code == 200
    assert en.get_data(as_text=True) == ENGLISH and en.headers["Content-Language"] == "en"
    assert ja.get_data(as_text=True) == JAPANESE and ja.headers["Content-Language"] == "ja"
    assert ja.mimetype == "text/markdown"
    for resp in (en, ja):
        assert {"Accept-Language", "Accept"} <= set(resp.vary)
    assert ja.headers["ETag"] != en.headers["ETag"]


def test_language_by_preference_and_primary_subtag(rules_client):
    def served(header):
        return rules_client.get("/v1/games/man/rules",
                                headers={"Accept-Language": header}).headers["Content-Language"]

    assert served("ja-JP, en;q=0.5") == "ja"
    assert served("en-US, ja;q=0.5") == "en"
    assert served("fr, ja;q=0.3") == "ja"
    assert served("fr") == "en"


def test_html_page_says_its_language(rules_client):
    for url, headers in (("/v1/games/man/rules.html", {}),
                         ("/v1/games/man/rules", {"Accept": "text/html"})):
        en = rules_client.get(url, headers=headers)
        ja = rules_client.get(url, headers={**headers, **JA})
        assert en.mimetype == ja.mimetype == "text/html"
        assert '<html lang="en">' in en.get_data(as_text=True)
        page = ja.get_data(as_text=True)
        assert '<html lang="ja">' in page and "<title>まん</title>" in page and "カード" in page
        assert ja.headers["Content-Language"] == "ja" and "Accept-Language" in ja.vary
        assert ja.headers["ETag"] != en.headers["ETag"]


def test_english_page_labelled_english_when_there_is_no_translation(rules_client):
    en = rules_client.get("/v1/games/manillen/rules")
    ja = rules_client.get("/v1/games/manillen/rules", headers=JA)
    assert ja.status_code == 200 and ja.get_data() == en.get_data()
    assert ja.headers["Content-Language"] == "en" and "Accept-Language" in ja.vary
    assert ja.headers["ETag"] == en.headers["ETag"]  # the same representation
    html = rules_client.get("/v1/games/manillen/rules.html", headers=JA)
    assert '<html lang="en">' in html.get_data(as_text=True)
    assert html.headers["Content-Language"] == "en"


def test_a_validator_of_one_language_never_stands_for_the_other(rules_client):
    en = rules_client.get("/v1/games/man/rules")
    ja = rules_client.get("/v1/games/man/rules", headers={**JA, "If-None-Match": en.headers["ETag"]})
    assert ja.status_code == 200 and ja.get_data(as_text=True) == JAPANESE
    again = rules_client.get("/v1/games/man/rules",
                             headers={**JA, "If-None-Match": ja.headers["ETag"]})
    assert again.status_code == 304


def test_cache_keeps_the_languages_apart(rules_client):
    # Japanese first, then English, then Japanese again: each answer from its own cache entry.
    for _ in range(2):
        assert rules_client.get("/v1/games/man/rules", headers=JA).get_data(
            as_text=True) == JAPANESE
        assert rules_client.get("/v1/games/man/rules").get_data(as_text=True) == ENGLISH


def test_a_game_whose_english_page_is_missing_is_404_in_either_language(make_client, tmp_path):
    (tmp_path / "man.ja.md").write_text(JAPANESE, encoding="utf-8")  # a stray translation
    client = make_client(rules_dir=str(tmp_path))
    for headers in ({}, JA):
        # No page at all: a clear 404 (not a 500) whatever the language.
        resp = client.get("/v1/games/manillen/rules", headers=headers)
        assert resp.status_code == 404 and resp.get_json()["code"] == "game_unknown"
    assert client.get("/v1/games/man/rules", headers=JA).status_code == 200
    assert client.get("/v1/games/man/rules").status_code == 404
    pages._cache.clear()


def test_the_checkout_serves_every_japanese_page_it_has(make_client):
    """The real pages, from the default rules directory: each `<game>.ja.md` is what a Japanese
    caller gets, and the Docker image copies docs/rules whole (test_ops checks the COPY)."""
    client = make_client()
    translated = sorted(p.name.split(".")[0] for p in (ROOT / "docs/rules").glob("*.ja.md"))
    assert translated, "no Japanese rules page in docs/rules"
    for game in translated:
        resp = client.get(f"/v1/games/{game}/rules", headers=JA)
        assert resp.headers["Content-Language"] == "ja", game
        assert resp.get_data(as_text=True) == (ROOT / f"docs/rules/{game}.ja.md").read_text(
            encoding="utf-8")
    dockerignore = (ROOT / ".dockerignore").read_text()
    assert "docs" not in dockerignore.split()
