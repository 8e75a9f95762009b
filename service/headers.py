"""The security headers of every answer (docs/security.md, "Headers").

Every answer: `X-Content-Type-Options: nosniff` (a browser never guesses a JSON or text answer
to be HTML or script), `X-Frame-Options: DENY` and `Referrer-Policy: no-referrer`. Every HTML
page also gets a strict `Content-Security-Policy` of its own: scripts and styles from the
service itself only, an inline `<style>` only by the SHA-256 of its exact text (no
'unsafe-inline' anywhere), no plugins, never framed (`frame-ancestors 'none'`: the table page
keeps the referee key and every seat token in the browser), no `<base>`, forms posted to the
service only. The pages:

- the table page (`/table`): its scripts and stylesheet are files; the score sheet it shows in
  an iframe (`srcdoc`, which inherits the page's policy) is allowed by its styles' hashes;
- the live events' pages (`/director`, `/events/<id>`): scripts and stylesheets are files, the
  QR codes inline SVG the page asks the service for (service/event_pages.py); no inline style;
- Swagger UI (`/docs`): its start-up script is a file (service/swagger_init.js), its settings a
  JSON data block; Swagger UI draws some icons as `data:` images;
- the index (`/`), the rules pages and the HTML score sheet (`POST /v1/records/sheet`): no
  script at all, their one inline `<style>` by its hash.
"""
from __future__ import annotations

import base64
import hashlib

from engine import sheets

from . import pages

FRAME_OPTIONS = ("X-Frame-Options", "DENY")
EVERY_ANSWER = (("X-Content-Type-Options", "nosniff"), FRAME_OPTIONS,
                ("Referrer-Policy", "no-referrer"))
CSP = "Content-Security-Policy"


def source_hash(text: str) -> str:
    """A CSP hash source for an inline element whose text is exactly `text`."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def _policy(**directives: str) -> str:
    base = {"default-src": "'self'", "object-src": "'none'", "frame-ancestors": "'none'",
            "base-uri": "'none'", "form-action": "'self'"}
    base.update({k.replace("_", "-"): v for k, v in directives.items()})
    return "; ".join(f"{k} {v}" for k, v in base.items())


# The score sheet's inline stylesheet (engine/sheets.py render_html), in each orientation it is
# printed in; tests/service/test_security_headers.py checks them against sheets as written.
SHEET_STYLES = " ".join(source_hash(sheets._CSS % {"orientation": orientation})
                        for orientation in ("portrait", "landscape"))
PAGE_STYLE = source_hash(pages.PAGE_STYLE)

TABLE_POLICY = _policy(script_src="'self'", style_src=f"'self' {SHEET_STYLES}",
                       img_src="'self' data:")
EVENT_PAGES_POLICY = _policy(script_src="'self'", style_src="'self'", img_src="'self'")
DOCS_POLICY = _policy(script_src="'self'", style_src="'self'", img_src="'self' data:")
SHEET_POLICY = _policy(script_src="'none'", style_src=SHEET_STYLES, img_src="'none'")
PAGE_POLICY = _policy(script_src="'none'", style_src=PAGE_STYLE, img_src="'self'")

SHEET_PATH = "/v1/records/sheet"
_BY_PATH = {"/table": TABLE_POLICY, "/docs": DOCS_POLICY, "/docs/": DOCS_POLICY,
            SHEET_PATH: SHEET_POLICY}


def may_be_html(path: str) -> bool:
    """Whether an answer to `path` can be an HTML page: the table page, the docs, the index,
    the rules pages, the score sheet (the hot JSON endpoints are not, and skip the check)."""
    return not path.startswith("/v1/") or path == SHEET_PATH or \
        path.endswith(("/rules", ".html"))


def policy_for(path: str) -> str:
    """The policy of the HTML page at `path` (the index's and the rules pages' by default)."""
    if path.startswith("/table/"):
        return TABLE_POLICY  # the page's file itself (/table/index.html)
    if path == "/director" or path.startswith(("/director/", "/events/")):
        return EVENT_PAGES_POLICY
    return _BY_PATH.get(path, PAGE_POLICY)
