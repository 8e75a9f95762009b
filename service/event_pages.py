"""The live events' pages (docs/director.md): the director's page at `/director` and the
public event page at `/events/<id>`, static files served as the table page's are (plain HTML,
CSS and ES modules, no build step), clients of the public API like any other front end; and
the QR codes the director's page shows and prints (`POST /director/qr`), and the laptop's addresses the phones
open (`GET /director/addresses`).

What could a stranger do with a QR endpoint? Make the service draw any text as a QR code
(a free code generator lending the service's name to another site's link), or make it work
hard (a long text is a large code). So it draws only links to this service's own pages (an
http(s) URL of the host the request came to, its path one of the pages'), at most
`QR_MAX_CHARS` characters, and takes the link in a POST body, never in a URL: a table's link
carries its table token (in the fragment), which a URL would leave in access logs and
histories. The answer is `no-store` for the same reason.
"""
from __future__ import annotations

import io
import ipaddress
import os
import re
import socket
from typing import Callable
from urllib.parse import urlsplit

import orjson
import segno
from flask import Flask, Response, request, send_from_directory

from engine.errors import InputError

from .addresses import lan_addresses
from .jsonio import invalid_json, raw_json_body

_HERE = os.path.dirname(os.path.abspath(__file__))
# The director's page and the modules both pages share (its API client and words).
DIRECTOR_DIR = os.path.join(_HERE, "director")
# The public event page's own files.
EVENT_PAGE_DIR = os.path.join(_HERE, "event_page")

# A table's link is about 130 characters (a LAN address, the event's id, a 43-character
# token): 512 leaves room for a long host name and stays a small code (version ≤ 17).
QR_MAX_CHARS = 512
# The pages a QR code may open: the table page (a table's link), an event's public page, the
# director's page (opened on another laptop) and the service's index (the address phones open).
QR_PAGES = re.compile(r"/|/table|/director|/events/[A-Za-z0-9_-]{1,64}")


class QrTextInvalid(InputError):
    """A QR code asked for a text that is not a link to one of this service's pages (422)."""

    code = "request_invalid"
    http_status = 422


def qr_svg(text: str, host: str, script_root: str = "",
           other_hosts: Callable[[], list[str]] = list) -> bytes:
    """The QR code of `text` as SVG; QrTextInvalid unless `text` is an http(s) link to one of
    this service's pages on `host` (the request's own host) or one of `other_hosts()` (asked
    only when `host` is not the link's), of at most QR_MAX_CHARS."""
    if not isinstance(text, str) or not text:
        raise QrTextInvalid("the body is {\"text\": \"<a link to one of this service's pages>\"}",
                            "text")
    if len(text) > QR_MAX_CHARS:
        raise QrTextInvalid(f"a QR code's link has at most {QR_MAX_CHARS} characters", "text")
    try:
        link = urlsplit(text)
    except ValueError:
        raise QrTextInvalid("the text is not a link", "text") from None
    if link.scheme not in ("http", "https") or link.username is not None \
            or link.password is not None or (link.netloc.lower() != host.lower() and
                                             link.netloc.lower() not in other_hosts()):
        raise QrTextInvalid("a QR code is drawn only for a link to this service "
                            f"(http(s)://{host}/…)", "text")
    path = link.path or "/"
    if not path.startswith(script_root) or not QR_PAGES.fullmatch(path[len(script_root):] or "/"):
        raise QrTextInvalid("a QR code is drawn only for the service's pages (/table, "
                            "/events/…, /director, /)", "text")
    out = io.BytesIO()
    # error correction M (15 %): a printed code survives a crease; the quiet zone of 4 modules
    # the standard asks for
    segno.make(text, error="m", boost_error=False).save(
        out, kind="svg", xmldecl=False, scale=4, border=4, svgclass="qr", lineclass=None)
    return out.getvalue()


def _answers(address: str, port: int) -> bool:
    """Whether this service answers at address:port (it listens there: bound to every address,
    or to that one)."""
    try:
        with socket.create_connection((address, port), timeout=0.3):
            return True
    except OSError:
        return False


def phone_links(remote_addr: str | None, host: str, script_root: str) -> list[str]:
    """The links phones open to reach this service, for the director's page opened on the
    laptop itself (at 127.0.0.1, which no phone reaches): this machine's LAN addresses at the
    port the page came through, those the service answers at only. Only a request from this
    machine learns them, for a page it opened at a loopback address (behind a reverse proxy
    on the same machine every request comes from loopback, but names the public host): to
    anyone else the page's own address is the one to give."""
    name, _, port_text = host.rpartition(":") if not host.endswith("]") else (host, "", "")
    name = (name or host).strip("[]").lower()
    try:
        if remote_addr is None or not ipaddress.ip_address(remote_addr).is_loopback or \
                not (name == "localhost" or ipaddress.ip_address(name).is_loopback):
            return []
    except ValueError:
        return []
    port = int(port_text) if port_text.isdigit() else 80
    return [f"http://{address}:{port}{script_root}/" for address in lan_addresses()
            if _answers(address, port)]


def _page(directory: str) -> Response:
    """A page's HTML: one file serves both languages (chosen in the browser, with a switch)."""
    with open(os.path.join(directory, "index.html"), encoding="utf-8") as fh:
        return Response(fh.read(), mimetype="text/html", headers={"Cache-Control": "no-cache"})


def install(app: Flask) -> None:
    """The pages' routes (not in the spec: they are pages, like /table)."""

    @app.get("/director")
    def director_page():
        return _page(DIRECTOR_DIR)

    @app.get("/director/<path:filename>")
    def director_assets(filename: str):
        return send_from_directory(DIRECTOR_DIR, filename, max_age=0)

    @app.post("/director/qr")
    def director_qr():
        try:
            body = raw_json_body(request, required=True)
        except (orjson.JSONDecodeError, UnicodeDecodeError) as err:
            invalid_json(err)
        text = body.get("text") if isinstance(body, dict) else None
        # the phones' addresses of the laptop, for the director's page opened on it
        svg = qr_svg(text, request.host, request.script_root,  # type: ignore[arg-type]
                     lambda: [urlsplit(link).netloc for link in phone_links(
                         request.remote_addr, request.host, request.script_root)])
        return Response(svg, mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})

    @app.get("/director/addresses")
    def director_addresses():
        links = phone_links(request.remote_addr, request.host, request.script_root)
        return Response(orjson.dumps({"links": links}), mimetype="application/json",
                        headers={"Cache-Control": "no-store"})

    # The event's id is checked by the page's own call to the API (an unknown one: the page
    # says so); the page itself is the same file for every event.
    @app.get("/events/<eid>")
    def event_page(eid: str):
        return _page(EVENT_PAGE_DIR)

    @app.get("/events/page/<path:filename>")
    def event_page_assets(filename: str):
        return send_from_directory(EVENT_PAGE_DIR, filename, max_age=0)
