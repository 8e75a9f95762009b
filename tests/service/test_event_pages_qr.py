"""The director's QR codes (POST /director/qr, service/event_pages.py) and the live events'
pages as served: a QR code only for a link to this service's own pages, bounded, never cached;
the pages under their Content-Security-Policy."""
from __future__ import annotations

import socket
import time
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings, strategies as st

from service.addresses import lan_addresses
from service.app import create_app
from service.config import Settings
from service.event_pages import QR_MAX_CHARS, QrTextInvalid, phone_links, qr_svg
from tests.sizing import examples

HOST = "localhost"
BASE = f"http://{HOST}"


@pytest.fixture(scope="module")
def client():
    return create_app(Settings(metrics=False)).test_client()


def _qr(client, text, **kw):
    return client.post("/director/qr", json={"text": text}, **kw)


@pytest.mark.parametrize("path", [
    "/table#event=AAAAAAAAAAAAAAAAAAAAAA&round=1&table=3&token=abc.def",
    "/events/AAAAAAAAAAAAAAAAAAAAAA", "/events/AAAAAAAAAAAAAAAAAAAAAA#entrant=aoki",
    "/director", "/"])
def test_a_link_to_one_of_the_service_pages_is_drawn_as_svg_never_cached(client, path):
    answer = _qr(client, BASE + path)
    assert answer.status_code == 200
    assert answer.mimetype == "image/svg+xml"
    assert answer.headers["Cache-Control"] == "no-store"
    svg = ET.fromstring(answer.data)
    assert svg.tag == "{http://www.w3.org/2000/svg}svg"
    assert svg.find("{http://www.w3.org/2000/svg}path") is not None
    # no script, no style: the pages insert it under their strict policy
    assert b"<script" not in answer.data and b"style" not in answer.data


@pytest.mark.parametrize("text", [
    "http://elsewhere.example/table",            # another site
    "http://localhost.example.com/table",        # a host that starts like ours
    "http://user:pw@localhost/table",            # credentials in the link
    "javascript:alert(1)", "data:text/html,<b>x</b>", "ftp://localhost/table",
    "http://localhost/v1/games",                 # the API, not a page
    "http://localhost/tablet",                   # not the table page
    "not a link", "", "http://localhost/events/" + "x" * QR_MAX_CHARS,
])
def test_anything_but_a_bounded_link_to_this_service_pages_is_refused(client, text):
    answer = _qr(client, text)
    assert answer.status_code == 422
    assert answer.get_json()["code"] == "request_invalid"


def test_a_long_text_is_refused_before_any_drawing(client):
    # the largest body the service reads, one long link: refused at once, not drawn
    started = time.perf_counter()
    answer = _qr(client, BASE + "/events/" + "x" * (1024 * 1024 - 100))
    assert answer.status_code == 422 and time.perf_counter() - started < 2


def test_a_qr_request_that_is_not_json_text_is_refused_clearly(client):
    assert client.post("/director/qr", data="{", content_type="application/json") \
        .get_json()["code"] == "json_malformed"
    assert client.post("/director/qr", data="text", content_type="text/plain").status_code == 415
    assert client.post("/director/qr", json={"text": 7}).status_code == 422
    assert client.post("/director/qr", json=["x"]).status_code == 422
    # never in a URL: a table's link carries its token
    assert client.get("/director/qr?text=" + BASE + "/table").status_code in (404, 405)


@settings(max_examples=examples(60), deadline=None)
@given(st.text(max_size=80), st.sampled_from(["", "http://localhost", "https://localhost",
                                               "http://localhost/events/", "http://evil"]))
def test_any_text_is_drawn_or_refused_never_an_error(text, prefix):
    try:
        svg = qr_svg(prefix + text, HOST)
    except Exception as err:  # noqa: BLE001 - only the stable refusal may come out
        assert getattr(err, "code", None) == "request_invalid", err
    else:
        assert svg.startswith(b"<svg")
        assert (prefix + text).startswith(("http://localhost", "https://localhost"))


def test_the_pages_are_served_under_their_policy(client):
    for path in ("/director", "/events/AAAAAAAAAAAAAAAAAAAAAA"):
        answer = client.get(path)
        assert answer.status_code == 200, path
        policy = answer.headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy
        assert "frame-ancestors 'none'" in policy
    for path in ("/director/director.js", "/events/page/event.js", "/director/events.css",
                 "/director/i18n.js"):
        assert client.get(path).status_code == 200, path


@pytest.fixture
def listening():
    """A port this machine answers at on every address, as `CARDREF_BIND=0.0.0.0:…` does."""
    with socket.socket() as server:
        server.bind(("0.0.0.0", 0))
        server.listen()
        yield server.getsockname()[1]


def test_the_laptop_learns_the_addresses_phones_open_and_only_the_laptop(listening):
    port = listening
    links = phone_links("127.0.0.1", f"127.0.0.1:{port}", "")
    assert links == [f"http://{a}:{port}/" for a in lan_addresses()]
    assert phone_links("::1", f"localhost:{port}", "/cardref") == \
        [f"http://{a}:{port}/cardref/" for a in lan_addresses()]
    # a phone or a stranger asking learns nothing of the machine's addresses
    assert phone_links("192.0.2.77", f"127.0.0.1:{port}", "") == []
    assert phone_links(None, f"127.0.0.1:{port}", "") == []
    # a proxy on this machine passes everyone's requests from loopback, for its public name
    assert phone_links("127.0.0.1", f"events.example:{port}", "") == []
    assert phone_links("127.0.0.1", "events.example", "") == []


def test_a_service_on_the_laptop_only_gives_no_address_for_phones():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        assert phone_links("127.0.0.1", f"127.0.0.1:{port}", "") == []


def test_the_addresses_answer_is_never_cached_and_empty_for_a_stranger(client):
    answer = client.get("/director/addresses", environ_base={"REMOTE_ADDR": "192.0.2.77"})
    assert answer.get_json() == {"links": []}
    assert answer.headers["Cache-Control"] == "no-store"


def test_a_qr_code_is_drawn_for_the_phones_address_of_this_service(listening):
    port = listening
    for link in phone_links("127.0.0.1", f"127.0.0.1:{port}", ""):
        host = link.split("/")[2]
        assert qr_svg(link + "events/AAAA", f"127.0.0.1:{port}",
                      other_hosts=lambda h=host: [h]).startswith(b"<svg")
    with pytest.raises(QrTextInvalid):
        qr_svg("http://192.0.2.99:1/", f"127.0.0.1:{port}", other_hosts=lambda: ["192.0.2.2:1"])
