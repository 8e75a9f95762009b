"""The pages the service serves to people: the index at `/`, and the rules pages
(`docs/rules/<game>.md` and its translations) as markdown or as HTML to read and link to.

The HTML gives every numbered rule an id equal to its number (`#D9`, `#5.3`, `#C-8`), so a
refusal's `rule` ("daifugo D9") maps to `/v1/games/daifugo/rules.html#D9`; wide tables scroll
inside their own box on a phone; Japanese sentences that the source wraps over two lines are
joined without the space a browser would put at the line break.
"""
from __future__ import annotations

import functools
import hashlib
import html as html_mod
import importlib.metadata
import json
import os
import re
from typing import Any

from flask import Response
from markdown_it import MarkdownIt
from markdown_it.token import Token

import engine
from engine import ENGINE_VERSION, registry
from engine.errors import InputError

LANGUAGES = ("en", "ja")

# The pages' one inline stylesheet: the Content-Security-Policy allows it by its hash
# (service/headers.py), so it is written here once and put into every page as it is.
PAGE_STYLE = """body{max-width:50em;margin:2em auto;padding:0 1em;font-family:sans-serif;line-height:1.5}
.table-scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em}
:target{background:#fff3b0}nav.lang{float:right}"""

_PAGE = """<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>{style}</style>
</head><body>
<nav class="lang">{switch}</nav>
{body}
</body></html>
"""

# A rule number where a rule is stated: at the start of a heading, list item, paragraph or
# table cell — "5.3", "D9", "A11", "C-8", "B-a", "M-h", "B.6", "4" — then a dot, a space, a bracket or
# the end, after any emphasis or code marks.
_RULE_AT_START = re.compile(
    r"^[*_`]*([A-Z]{0,2}-?[0-9]+(?:\.[0-9]+)*[a-z]?|[A-Z]-[a-z0-9]+|[A-Z]\.[0-9]+)\.?[*_`]*"
    r"(?=[\s(（、,:：]|$)")
# Within a paragraph only a numbered rule ("5.3", "D9", "C-8"), not a line that starts with a
# count ("4 players: …").
_RULE_IN_LINE = re.compile(
    r"^([A-Z]{0,2}[0-9]+\.[0-9]+(?:\.[0-9]+)*|[A-Z]{1,2}-?[0-9]+[a-z]?|[A-Z]-[a-z0-9]+)\.?(?=\s)")
_CJK = "\u3000-\u30ff\u3400-\u9fff\uf900-\uffef"
_CJK_CHAR = re.compile(f"[{_CJK}]")
# CommonMark with tables, the pages' only extension; no raw HTML from the pages.
_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")


def _join_japanese_wraps(inline) -> None:
    """A line break between two Japanese characters is no space (a browser would show one)."""
    children = inline.children or []
    for i in range(1, len(children) - 1):
        before, this, after = children[i - 1], children[i], children[i + 1]
        if this.type == "softbreak" and before.type == "text" and after.type == "text" \
                and _CJK_CHAR.fullmatch(before.content[-1:] or "x") \
                and _CJK_CHAR.fullmatch(after.content[:1] or "x"):
            this.type, this.content = "text", ""


def _anchor_rules(tokens) -> None:
    """Give each rule number's statement its number as id: the heading that starts with it if
    there is one, else the first list item, paragraph, table cell or line of a paragraph that
    does (rules written one a line, "5.1 …" then "5.2 …", are one paragraph in markdown; each
    such line then starts on a line of its own, with its anchor)."""
    stated: dict[str, tuple[str, Any]] = {}

    def found(number: str, kind: str, where) -> None:
        known = stated.get(number)
        if known is None or (kind == "heading" and known[0] != "heading"):
            stated[number] = (kind, where)

    for i, token in enumerate(tokens):
        if token.type != "inline":
            continue
        _join_japanese_wraps(token)
        children = token.children or []
        for j in range(1, len(children) - 1):
            if children[j].type == "softbreak" and children[j + 1].type == "text":
                match = _RULE_IN_LINE.match(children[j + 1].content)
                if match:
                    found(match.group(1), "line", (children, j))
        opener = tokens[i - 1] if i else None
        if opener is None or opener.type not in ("heading_open", "paragraph_open", "td_open"):
            continue
        match = _RULE_AT_START.match(token.content)
        if not match:
            continue
        holder = opener
        if opener.type == "paragraph_open" and i > 1 and tokens[i - 2].type == "list_item_open":
            holder = tokens[i - 2]  # a list item's first paragraph: anchor the item
        found(match.group(1), "heading" if opener.type == "heading_open" else "block", holder)
    lines = []
    for number, (kind, where) in stated.items():
        if kind == "line":
            lines.append((where[1], number, where[0]))
        else:
            where.attrSet("id", number)
    # Last line first, so each insertion leaves the positions still to visit where they were.
    for j, number, children in sorted(lines, key=lambda line: -line[0]):
        children[j].type = "hardbreak"
        anchor = Token("html_inline", "", 0)
        anchor.content = f'<span id="{html_mod.escape(number)}"></span>'
        children.insert(j + 1, anchor)


def rules_dir(setting: str | None) -> str:
    """docs/rules of this checkout, or CARDREF_RULES_DIR (the Docker image sets it)."""
    return setting or os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "rules")


# The directory holding the `engine` package, wherever it is installed: a game's `rules_doc`
# under `engine/` is a page inside the game's own package (docs/adding-a-game.md), read there.
ENGINE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(engine.__file__)))


def page_path(directory: str, rules_doc: str, lang: str) -> str:
    """The page in `lang`: `<game>.md` is English, `<game>.<lang>.md` beside it a translation.
    A page in the rules directory (`docs/rules/<game>.md`) is read from `directory`; one inside
    a game's package (`engine/games/<game>/rules.md`) from beside the installed engine."""
    name = os.path.basename(rules_doc)
    if lang != "en":
        stem, dot, suffix = name.rpartition(".")
        name = f"{stem}.{lang}.{suffix}" if dot else f"{name}.{lang}"
    if rules_doc.startswith("engine/"):
        return os.path.join(ENGINE_PARENT, os.path.dirname(rules_doc), name)
    return os.path.join(directory, name)


def read_page(directory: str, rules_doc: str, lang: str) -> tuple[str, str]:
    """The page's markdown and its language: the translation into `lang` if there is one,
    else the English page (OSError when not even that is installed)."""
    if lang != "en":
        try:
            with open(page_path(directory, rules_doc, lang), encoding="utf-8") as fh:
                return fh.read(), lang
        except FileNotFoundError:
            pass  # not translated (yet): the English page, labelled English
    with open(page_path(directory, rules_doc, "en"), encoding="utf-8") as fh:
        return fh.read(), "en"


def render_html(text: str, lang: str, game_id: str, base: str) -> str:
    """A whole HTML page: rule ids, scrolling tables, a link to the page in the other language."""
    title = next((line.lstrip("# ").strip() for line in text.splitlines()
                  if line.startswith("#")), game_id)
    tokens = _MARKDOWN.parse(text)
    _anchor_rules(tokens)
    body = _MARKDOWN.renderer.render(tokens, _MARKDOWN.options, {})
    # Wide tables scroll inside their own box instead of widening the page on a phone.
    body = body.replace("<table>", '<div class="table-scroll"><table>').replace(
        "</table>", "</table></div>")
    other = "ja" if lang == "en" else "en"
    label = {"en": "English", "ja": "日本語"}[other]
    switch = f'<a href="{html_mod.escape(base)}/v1/games/{game_id}/rules.{other}.html" ' \
             f'hreflang="{other}" lang="{other}">{label}</a>'
    return _PAGE.format(lang=lang, title=html_mod.escape(title), body=body, switch=switch,
                        style=PAGE_STYLE)


def chosen_language(asked: str | None, negotiated: str) -> str:
    """`?lang=` (or the `.ja.html` path) wins over Accept-Language, so a URL can be shared."""
    if asked is None:
        return negotiated
    if asked not in LANGUAGES:
        raise InputError(f"lang must be one of {', '.join(LANGUAGES)}", "lang",
                         code="request_invalid", errors={"lang": [
                             f"Must be one of: {', '.join(LANGUAGES)}."]})
    return asked


def rule_anchor(rule: str) -> tuple[str, str] | None:
    """("daifugo", "D9") from a refusal's `rule` "daifugo D9"; None when it names no game."""
    game_id, _, number = rule.partition(" ")
    if not number or registry.get(game_id) is None:
        return None
    return game_id, number


# (rules dir, page, language served, html) -> text. Pages are read once per process.
_cache: dict[tuple[str, str, str, bool, str], tuple[str, str]] = {}


def page(directory: str, game_id: str, lang: str, html: bool, base: str) -> tuple[str, str]:
    """The page's text (markdown or HTML) and the language served; LookupError when the game has
    no rules page, OSError when it is not installed."""
    game = registry.get(game_id)
    if game is None or not game.rules_doc:
        raise LookupError(game_id)
    key = (directory, game.rules_doc, lang, html, base)
    if key not in _cache:
        text, served = read_page(directory, game.rules_doc, lang)
        if html:
            text = render_html(text, served, game_id, base)
        _cache[key] = (text, served)
    return _cache[key]


# The table page's files, installed with the package (pyproject.toml package data).
TABLE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "table")


def table_page() -> Response:
    """`GET /table`: the referee's table page; its language is chosen in the browser (it follows
    the browser's languages, with a switch), so one file serves both."""
    with open(os.path.join(TABLE_DIR, "index.html"), encoding="utf-8") as fh:
        return Response(fh.read(), mimetype="text/html", headers={"Cache-Control": "no-cache"})


SERVICE_WORKER = "sw.js"


@functools.cache
def table_files_version() -> tuple[str, tuple[str, ...]]:
    """(the version of the table page's offline cache, the page's files it keeps). The version
    is a digest of the package's and the engine's versions and of every file of the page: a
    deployed update (a new release, a new engine, a changed page) is a new service worker, and
    the browser replaces the old cache with the new one."""
    files = tuple(sorted(name for name in os.listdir(TABLE_DIR)
                         if name != SERVICE_WORKER and os.path.isfile(os.path.join(TABLE_DIR, name))))
    digest = hashlib.sha256(f"{_package_version()}\n{ENGINE_VERSION}\n".encode())
    for name in (*files, SERVICE_WORKER):
        with open(os.path.join(TABLE_DIR, name), "rb") as fh:
            digest.update(name.encode() + b"\0" + fh.read() + b"\0")
    return digest.hexdigest()[:16], files


def _package_version() -> str:
    try:
        return importlib.metadata.version("card-referee")
    except importlib.metadata.PackageNotFoundError:  # run from a checkout not installed
        return "unknown"


def table_service_worker(script_root: str) -> Response:
    """`GET /table/sw.js`: the page's service worker, with its cache version and the page's
    files filled in. Its scope is the page itself (`<root>/table`), one level above the script:
    the Service-Worker-Allowed header permits it."""
    version, files = table_files_version()
    with open(os.path.join(TABLE_DIR, SERVICE_WORKER), encoding="utf-8") as fh:
        script = fh.read().replace("__CACHE_VERSION__", version).replace(
            "__PAGE_FILES__", json.dumps(list(files)))
    return Response(script, mimetype="text/javascript",
                    headers={"Cache-Control": "no-cache",
                             "Service-Worker-Allowed": f"{script_root}/table"})


_INDEX_TEXT = {
    "en": {"title": "Card Referee", "lead": "A REST API that adjudicates card games.",
           "api": "API documentation", "spec": "OpenAPI spec", "games": "Rules of each game",
           "other": "日本語", "rules": "rules",
           "table": "Table page: run a physical table from a phone or tablet",
           "director": "Director's page: run a live event from one laptop"},
    "ja": {"title": "Card Referee（カード審判）", "lead": "カードゲームの裁定を行う REST API です。",
           "api": "API ドキュメント", "spec": "OpenAPI 仕様", "games": "各ゲームのルール",
           "other": "English", "rules": "ルール",
           "table": "卓ページ: スマートフォンやタブレットで実卓を裁定する",
           "director": "大会責任者のページ: 1 台のノートPCでライブ大会を運営する"},
}


def index_page(lang: str, base: str) -> Response:
    """`GET /`: where to go from here — the API docs, the spec, every game's rules pages."""
    words = _INDEX_TEXT[lang]
    other = "ja" if lang == "en" else "en"
    esc = html_mod.escape
    games = "".join(
        f'<li><a href="{esc(base)}/v1/games/{g.id}/rules.{lang}.html">'
        f'{esc(g.names.get(lang) or g.names["en"])}</a> — {words["rules"]}</li>'
        for g in registry.all_games() if g.rules_doc)
    body = (f'<h1>{esc(words["title"])}</h1><p>{esc(words["lead"])}</p><ul>'
            f'<li><a href="{esc(base)}/docs">{esc(words["api"])}</a></li>'
            f'<li><a href="{esc(base)}/openapi.yaml">{esc(words["spec"])}</a></li>'
            f'<li><a href="{esc(base)}/table">{esc(words["table"])}</a></li>'
            f'<li><a href="{esc(base)}/director">{esc(words["director"])}</a></li></ul>'
            f'<h2>{esc(words["games"])}</h2><ul>{games}</ul>')
    switch = f'<a href="{esc(base)}/?lang={other}" hreflang="{other}" lang="{other}">' \
             f'{esc(words["other"])}</a>'
    text = _PAGE.format(lang=lang, title=esc(words["title"]), body=body, switch=switch,
                        style=PAGE_STYLE)
    return Response(text, mimetype="text/html", headers={"Content-Language": lang})


# Swagger UI at /docs: flask-smorest's own page starts it with an inline script, which the
# page's Content-Security-Policy refuses (service/headers.py); this one starts it from a file,
# its settings a JSON data block (not executed).
DOCS_INIT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "swagger_init.js")

_DOCS_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<link href="{assets}swagger-ui.css" rel="stylesheet" type="text/css">
</head><body>
<div id="swagger-ui-container"></div>
<script type="application/json" id="swagger-ui-config">{config}</script>
<script src="{assets}swagger-ui-standalone-preset.js"></script>
<script src="{assets}swagger-ui-bundle.js"></script>
<script src="{init}"></script>
</body></html>
"""


def docs_page(title: str, spec_url: str, assets: str, init_url: str, config: dict) -> Response:
    """`GET /docs`: Swagger UI on the spec at `spec_url`, its files under `assets`."""
    settings = json.dumps({"url": spec_url, **config})
    # in a data block only `</script` could end it early: written as <\/ (the same JSON)
    settings = settings.replace("</", "<\\/")
    esc = html_mod.escape
    return Response(_DOCS_PAGE.format(title=esc(title), assets=esc(assets), config=settings,
                                      init=esc(init_url)), mimetype="text/html")


def docs_script() -> Response:
    with open(DOCS_INIT, encoding="utf-8") as fh:
        return Response(fh.read(), mimetype="text/javascript",
                        headers={"Cache-Control": "no-cache"})
