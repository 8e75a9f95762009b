"""The rules pages as a person reads and links them: every refusal's rule lands on its rule
(`rules.html#D9`), in both languages; `?lang=ja` and `rules.ja.html` are shareable Japanese
URLs; wide tables scroll in their own box; Japanese lines wrapped in the source read as one
sentence (no space at the wrap)."""
from __future__ import annotations

import re

import pytest

from engine import registry
from service import pages

GAMES = [g.id for g in registry.all_games()]


def _ids(page: str) -> set[str]:
    return set(re.findall(r'\sid="([^"]+)"', page))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_refusal_rule_lands_on_its_rule(client, game, lang):
    page = client.get(f"/v1/games/{game}/rules.{lang}.html")
    assert page.status_code == 200 and page.headers["Content-Language"] == lang
    text = page.get_data(as_text=True)
    ids = _ids(text)
    for code, rule in registry.get(game).refusals.items():
        anchor = pages.rule_anchor(rule)
        assert anchor is not None and anchor[0] == game, (code, rule)
        assert anchor[1] in ids, f"{game} {lang}: {code} cites {rule}, no element has id {anchor[1]!r}"


def test_rule_id_is_on_the_element_that_states_the_rule(client):
    text = client.get("/v1/games/daifugo/rules.html").get_data(as_text=True)
    stated = re.search(r'<li id="D9">(.*?)</li>', text, re.S)
    assert stated and re.sub(r"^\s*<p>", "", stated.group(1)).startswith("D9. The field clears")
    man = client.get("/v1/games/man/rules.html").get_data(as_text=True)
    assert re.search(r'<h2 id="4">4\. Man numbers</h2>', man)
    assert re.search(r"<br />\n?<span id=\"5.3\"></span>5\.3 The <em>window</em>", man)


def test_lang_query_and_language_path_give_the_same_japanese_page(client):
    by_query = client.get("/v1/games/guandan/rules.html?lang=ja")
    by_path = client.get("/v1/games/guandan/rules.ja.html")
    by_header = client.get("/v1/games/guandan/rules.html", headers={"Accept-Language": "ja"})
    assert by_query.headers["Content-Language"] == by_path.headers["Content-Language"] == "ja"
    assert by_query.get_data() == by_path.get_data() == by_header.get_data()
    # The query wins over the header, both ways: a shared URL shows what it says.
    english = client.get("/v1/games/guandan/rules.html?lang=en", headers={"Accept-Language": "ja"})
    assert english.headers["Content-Language"] == "en"
    markdown = client.get("/v1/games/guandan/rules?lang=ja")
    assert markdown.headers["Content-Language"] == "ja" and markdown.mimetype == "text/markdown"


@pytest.mark.parametrize("path", ["/v1/games/man/rules.html?lang=fr", "/v1/games/man/rules.fr.html"])
def test_unknown_language_is_a_clear_422(client, path):
    resp = client.get(path)
    assert resp.status_code == 422 and resp.mimetype == "application/problem+json"
    assert resp.get_json()["code"] == "request_invalid" and "lang" in resp.get_json()["errors"]


def test_each_page_links_the_other_language(client):
    en = client.get("/v1/games/man/rules.en.html").get_data(as_text=True)
    ja = client.get("/v1/games/man/rules.ja.html").get_data(as_text=True)
    assert 'href="/v1/games/man/rules.ja.html"' in en and 'href="/v1/games/man/rules.en.html"' in ja


@pytest.mark.parametrize("game", GAMES)
def test_wide_tables_scroll_inside_their_box(client, game):
    text = client.get(f"/v1/games/{game}/rules.html").get_data(as_text=True)
    tables = text.count("<table")
    assert tables == len(re.findall(r'<div class="table-scroll">\s*<table', text))
    assert ".table-scroll{overflow-x:auto" in text


def test_japanese_wrapped_lines_read_without_a_space():
    html = pages.render_html("# 題\n\nこれは長い文で、\nここで折り返す。\n\n- 項目は\n  続く。\n",
                                   "ja", "man", "")
    assert "長い文で、ここで折り返す。" in html and "項目は続く。" in html
    # English keeps its line breaks (a browser shows them as the space they are).
    assert "two\nlines" in pages.render_html("# T\n\ntwo\nlines\n", "en", "man", "")


@pytest.mark.parametrize("game", GAMES)
def test_no_japanese_sentence_broken_by_a_source_wrap(client, game):
    text = client.get(f"/v1/games/{game}/rules.ja.html").get_data(as_text=True)
    body = text.split("<body>", 1)[1]
    cjk = "\u3040-\u30ff\u3400-\u9fff\uff00-\uffef"
    assert not re.search(rf"[{cjk}][ \t]*\n[ \t]*[{cjk}]", body)


def test_root_leads_to_the_docs_the_spec_and_every_rules_page(client):
    page = client.get("/")
    assert page.status_code == 200 and page.mimetype == "text/html"
    text = page.get_data(as_text=True)
    assert 'href="/docs"' in text and 'href="/openapi.yaml"' in text
    for game in GAMES:
        link = f"/v1/games/{game}/rules.en.html"
        assert f'href="{link}"' in text and client.get(link).status_code == 200
    japanese = client.get("/", headers={"Accept-Language": "ja"})
    assert japanese.headers["Content-Language"] == "ja"
    assert 'href="/v1/games/daifugo/rules.ja.html"' in japanese.get_data(as_text=True)
    assert client.get("/?lang=ja").get_data() == japanese.get_data()


def test_section_numbers_with_a_letter_land_on_their_heading(client):
    text = client.get("/v1/games/manteur/rules.html").get_data(as_text=True)
    assert re.search(r'<h2 id="B.6">B\.6 Physical deals</h2>', text)
