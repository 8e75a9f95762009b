"""Security headers (service/headers.py; docs/security.md, "Headers"): every answer says
`nosniff`, `X-Frame-Options: DENY` and `Referrer-Policy: no-referrer`, and every HTML page —
found by walking the app's routes, not from a hand list — has a strict Content-Security-Policy
that allows exactly what the page holds: its inline `<style>` and `<script>` elements by hash
(none allowed otherwise), its files from the service itself, no inline style or event-handler
attributes, no framing. That the pages still work under their policies in Chromium is
tests/table/test_pages_under_csp.py."""
from __future__ import annotations

import json
import os
from html.parser import HTMLParser
from pathlib import Path

import pytest

from engine import registry
from service import event_pages, pages
from service.headers import source_hash

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
EVERY_ANSWER = {"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY",
                "Referrer-Policy": "no-referrer"}
# Where the score sheet's HTML comes from (POST): every example match, in both the sheet's
# orientations (portrait up to four columns, landscape beyond: Daifugo's five seats).
SHEET_RECORDS = sorted(p.stem for p in EXAMPLES.glob("*.json"))


def urls_of(rule) -> list[str]:
    """Concrete URLs for a route: every game, both languages, each file of a file route."""
    urls = [rule.rule]
    fills = {"game": [g.id for g in registry.all_games()], "lang": list(pages.LANGUAGES),
             # a hosted event's parts: none kept here, so each answers a problem
             "eid": ["A" * 22], "entrant": ["p1"], "number": ["1"], "table": ["1"],
             "seat": ["1"], "token_id": ["AAAAAAAAAAA"]}
    if rule.rule.startswith("/table/"):
        fills["filename"] = sorted(os.listdir(pages.TABLE_DIR))
    elif rule.rule.startswith("/director/"):
        fills["filename"] = sorted(os.listdir(event_pages.DIRECTOR_DIR))
    elif rule.rule.startswith("/events/page/"):
        fills["filename"] = sorted(os.listdir(event_pages.EVENT_PAGE_DIR))
    elif rule.rule.startswith("/docs/assets/"):
        fills["filename"] = ["swagger-ui.css", "swagger-ui-bundle.js"]
    else:
        fills["filename"] = ["nothing-here"]
    for arg in rule.arguments:
        urls = [u.replace(part, value) for u in urls
                for part in [p for p in [f"<string:{arg}>", f"<path:{arg}>", f"<int:{arg}>",
                                         f"<{arg}>"]
                             if p in u][:1] for value in fills[arg]]
    return urls


def every_answer(client) -> list[tuple[str, object]]:
    """(what was asked, the answer) for every route of the app: each GET in HTML and in JSON,
    each POST with an empty object (a problem), and the score sheets in HTML."""
    app = client.application
    out = []
    for rule in app.url_map.iter_rules():
        for url in urls_of(rule):
            if "GET" in rule.methods:
                for accept in ("text/html", "application/json"):
                    out.append((f"GET {url} ({accept})", client.get(url, headers={
                        "Accept": accept})))
            if "POST" in rule.methods:
                out.append((f"POST {url}", client.post(url, json={})))
    for game_id in SHEET_RECORDS:
        record = json.loads((EXAMPLES / f"{game_id}.json").read_text(encoding="utf-8"))
        for lang in pages.LANGUAGES:
            out.append((f"sheet {game_id} {lang}", client.post(
                f"/v1/records/sheet?format=html&lang={lang}", json=record)))
    return out


class Page(HTMLParser):
    """What a page holds that a policy must allow: inline elements' text, files it loads,
    inline style and event-handler attributes."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.inline = {"style": [], "script": []}
        self.files = {"style": [], "script": []}
        self.attributes: list[str] = []
        self._open: tuple[str, list[str]] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.attributes += [f"{tag} {k}" for k in attrs if k == "style" or k.startswith("on")]
        if tag == "script" and attrs.get("src"):
            self.files["script"].append(attrs["src"])
        elif tag == "link" and attrs.get("rel") == "stylesheet":
            self.files["style"].append(attrs["href"])
        elif tag == "style" or (tag == "script" and attrs.get("type", "text/javascript") in (
                "text/javascript", "module", "")):
            self._open = (tag, [])

    def handle_data(self, data):
        if self._open:
            self._open[1].append(data)

    def handle_endtag(self, tag):
        if self._open and self._open[0] == tag:
            self.inline[tag].append("".join(self._open[1]))
            self._open = None


def policy(resp) -> dict[str, list[str]]:
    text = resp.headers.get("Content-Security-Policy")
    assert text, "no Content-Security-Policy"
    out: dict[str, list[str]] = {}
    for part in text.split(";"):
        name, *sources = part.split()
        assert name not in out, f"{name} given twice"
        out[name] = sources
    return out


@pytest.fixture
def answers(client):
    return every_answer(client)


def test_every_answer_says_nosniff_deny_and_no_referrer(answers):
    assert len(answers) > 60
    for asked, resp in answers:
        for name, value in EVERY_ANSWER.items():
            assert resp.headers.get(name) == value, (asked, resp.status_code, name)


def test_every_html_page_has_a_strict_policy_that_allows_exactly_what_it_holds(answers):
    html = [(asked, resp) for asked, resp in answers
            if resp.mimetype == "text/html" and resp.status_code == 200]
    found = {asked.split()[1] for asked, _ in html if asked.startswith("GET")}
    # the walk reached every kind of page: the index, the docs, the table, every game's rules
    assert {"/", "/docs", "/docs/", "/table", "/director", f"/events/{'A' * 22}"} <= found
    for g in registry.all_games():
        if not g.rules_doc:
            continue  # the tests' toy game
        assert {f"/v1/games/{g.id}/rules", f"/v1/games/{g.id}/rules.html",
                f"/v1/games/{g.id}/rules.ja.html"} <= found
    assert sum(asked.startswith("sheet") for asked, _ in html) == 2 * len(SHEET_RECORDS)
    for asked, resp in html:
        csp = policy(resp)
        assert csp["default-src"] == ["'self'"] and csp["object-src"] == ["'none'"], asked
        assert csp["frame-ancestors"] == ["'none'"] and csp["base-uri"] == ["'none'"], asked
        assert csp["form-action"] == ["'self'"], asked
        assert "script-src" in csp and "style-src" in csp, asked
        assert not any(s.startswith("'unsafe-") for sources in csp.values() for s in sources)
        page = Page()
        page.feed(resp.get_data(as_text=True))
        assert not page.attributes, (asked, page.attributes)  # none is allowed to run
        for kind in ("style", "script"):
            allowed = csp[f"{kind}-src"]
            for text in page.inline[kind]:
                assert source_hash(text) in allowed, (asked, kind, text[:80])
            for url in page.files[kind]:
                assert "//" not in url and ":" not in url, (asked, url)  # the service's own
                assert "'self'" in allowed, (asked, kind, url)


def test_the_table_page_allows_the_score_sheet_it_shows(answers):
    # The table page shows the service's sheet in an iframe (srcdoc), which inherits the page's
    # policy: the sheet's inline stylesheet, in both orientations, is allowed by it.
    table = next(resp for asked, resp in answers if asked == "GET /table (text/html)")
    allowed = policy(table)["style-src"]
    styles = set()
    for asked, resp in answers:
        if asked.startswith("sheet"):
            page = Page()
            page.feed(resp.get_data(as_text=True))
            styles |= set(page.inline["style"])
    assert len(styles) == 2  # portrait and landscape
    assert {source_hash(s) for s in styles} <= set(allowed)


def test_swagger_ui_starts_from_a_file_with_its_settings_as_data(client):
    page = client.get("/docs").get_data(as_text=True)
    parsed = Page()
    parsed.feed(page)
    assert parsed.inline["script"] == []
    assert "/docs/init.js" in parsed.files["script"]
    script = client.get("/docs/init.js")
    assert script.status_code == 200 and script.mimetype == "text/javascript"
    assert "swagger-ui-config" in script.get_data(as_text=True)


def test_the_swagger_start_up_script_is_package_data():
    # an installed service (a wheel, the Docker image) serves /docs/init.js too
    import fnmatch
    import tomllib

    root = Path(__file__).resolve().parents[2]
    patterns = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"]["service"]
    name = Path(pages.DOCS_INIT).relative_to(root / "service").as_posix()
    assert any(fnmatch.fnmatch(name, pattern) for pattern in patterns), name
