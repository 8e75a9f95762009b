"""The pages' shared language machinery (service/table/language.js), run in node, no browser:
the first language is the one chosen on this browser before, else the browser's first one the
page has words for, else English; each page keeps its choice under its own key (the table page's
and the events' pages' choices are apart); a word missing in a language falls back to English,
then to its key; `{n}` takes the number given."""
from __future__ import annotations

import json
from pathlib import Path

from tests.table.node import run_module

LANGUAGE_JS = Path(__file__).resolve().parents[2] / "service" / "table" / "language.js"


def run(body: str, browser_languages: list[str], saved: dict[str, str] | None = None):
    """`body` run as a module with languageOf in scope, in a stand-in browser whose languages are
    `browser_languages` and whose storage holds `saved`; answers what it returns (JSON)."""
    script = f"""
import {{ languageOf }} from {json.dumps(LANGUAGE_JS.as_uri())};
const store = {json.dumps(saved or {})};
globalThis.localStorage = {{ getItem: (k) => (k in store ? store[k] : null), setItem: (k, v) => {{ store[k] = v; }} }};
const browser = {{ languages: {json.dumps(browser_languages)} }};
Object.defineProperty(globalThis, "navigator", {{ value: browser, configurable: true }});
globalThis.document = {{ documentElement: {{}} }};
const WORDS = {{ en: {{ hello: "Hello", round: "round {{n}}", only_en: "English only" }},
                ja: {{ hello: "こんにちは", round: "第 {{n}} 回戦" }} }};
const out = (() => {{ {body} }})();
console.log(JSON.stringify(out));
"""
    return run_module(script)


def test_the_first_language_is_the_saved_one_else_the_browsers_else_english():
    first = "return languageOf('page.lang', WORDS).initialLanguage();"
    assert run(first, ["fr-FR", "ja-JP", "en"]) == "ja"
    assert run(first, ["en-GB", "ja"]) == "en"
    assert run(first, ["fr", "de"]) == "en"
    assert run(first, ["ja"], saved={"page.lang": "en"}) == "en"
    # a saved value the page has no words for is passed over
    assert run(first, ["ja"], saved={"page.lang": "fr"}) == "ja"
    assert run(first, ["en"], saved={"other.page.lang": "ja"}) == "en"


def test_each_page_keeps_its_own_choice():
    out = run("""
const table = languageOf("table.lang", WORDS), events = languageOf("events.lang", WORDS);
table.setLanguage("ja");
const html = document.documentElement.lang;
events.setLanguage("en");
return [table.language(), events.language(), table.t("hello"), events.t("hello"), html,
        document.documentElement.lang, { ...store }];
""", ["en"])
    assert out == ["ja", "en", "こんにちは", "Hello", "ja", "en",
                   {"table.lang": "ja", "events.lang": "en"}]


def test_a_missing_word_falls_back_to_english_then_its_key_and_takes_its_number():
    out = run("""
const page = languageOf("page.lang", WORDS);
page.setLanguage("ja");
return [page.t("only_en"), page.t("no_such_word"), page.t("round", 3), page.t("hello", 3),
        page.missingJapanese(), page.words("ja")];
""", ["ja"])
    assert out == ["English only", "no_such_word", "第 3 回戦", "こんにちは", ["only_en"],
                   {"hello": "こんにちは", "round": "第 {n} 回戦"}]
