"""What `card-referee serve` gives a venue at start: a director key of its own, kept in the data
folder (made once, the same after a restart, 0600) when none is set; the director's page and
that key said at start (an operator's keys never); the phones' address as a QR code on a
terminal; and no HTTP answer, not even one to the laptop itself, that carries the key (the
end-to-end run is in tests/service/test_embedded_redis.py)."""
from __future__ import annotations

import importlib.util
import io
import logging
import os
import socket
import stat
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest
from hypothesis import given, settings, strategies as st

from service.app import create_app
from service.config import (
    DIRECTOR_KEY_FILE,
    KEPT_DIRECTOR_KEY_ENV,
    Settings,
    SettingsError,
    kept_director_key,
)
from tests.sizing import examples

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def gunicorn_conf(tmp_path_factory) -> ModuleType:
    """service/gunicorn_conf.py loaded as gunicorn loads it, with a metrics folder of the test's
    own (else loading it would make one and put this process in multiprocess metrics mode)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path_factory.mktemp("metrics")))
        spec = importlib.util.spec_from_file_location("gunicorn_conf_under_test",
                                                      ROOT / "service" / "gunicorn_conf.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return module


class Terminal(io.StringIO):
    """A stream that says it is a terminal, in the encoding given."""

    def __init__(self, encoding: str = "utf-8"):
        super().__init__()
        self._encoding = encoding

    @property
    def encoding(self) -> str:
        return self._encoding

    def isatty(self) -> bool:
        return True


# ------------------------------------------------------------------ the key kept in the folder

def test_a_director_key_is_made_once_in_the_data_folder_and_read_again(tmp_path):
    folder = tmp_path / "card-referee-data"
    path, key = kept_director_key(str(folder))
    assert path == str(folder / DIRECTOR_KEY_FILE)
    assert len(key) >= 43 and key.replace("-", "").replace("_", "").isalnum()  # 256 bits
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert kept_director_key(str(folder)) == (path, key)  # a restart: the same key
    assert [p.name for p in folder.iterdir()] == [DIRECTOR_KEY_FILE]  # no temporary left
    other_path, other_key = kept_director_key(str(tmp_path / "another venue"))
    assert other_key != key


def test_a_kept_key_copied_back_with_looser_rights_is_made_private_again(tmp_path):
    path, key = kept_director_key(str(tmp_path))
    os.chmod(path, 0o644)
    assert kept_director_key(str(tmp_path)) == (path, key)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_an_empty_key_file_is_a_key_never_written_and_gets_one(tmp_path):
    (tmp_path / DIRECTOR_KEY_FILE).write_text("\n")
    _path, key = kept_director_key(str(tmp_path))
    assert key and (tmp_path / DIRECTOR_KEY_FILE).read_text() == key + "\n"


_KEY_CHARACTERS = st.characters(blacklist_categories=("Cs", "Zs", "Zl", "Zp", "Cc"),
                                blacklist_characters=",")


@given(st.text(_KEY_CHARACTERS, min_size=1, max_size=40))
@settings(max_examples=examples(30))
def test_a_key_the_director_wrote_into_the_file_is_the_key(tmp_path_factory, key):
    folder = tmp_path_factory.mktemp("venue")
    (folder / DIRECTOR_KEY_FILE).write_text(f"{key}\n", encoding="utf-8")
    assert kept_director_key(str(folder))[1] == key


@given(st.text(_KEY_CHARACTERS, min_size=1, max_size=10), st.sampled_from([",", " ", "\t", ", "]),
       st.text(_KEY_CHARACTERS, min_size=1, max_size=10))
@settings(max_examples=examples(30))
def test_a_file_holding_more_than_one_key_is_refused_with_what_to_do(tmp_path_factory, before,
                                                                      sep, after):
    folder = tmp_path_factory.mktemp("venue")
    (folder / DIRECTOR_KEY_FILE).write_text(f"{before}{sep}{after}\n", encoding="utf-8")
    with pytest.raises(SettingsError, match="delete it"):
        kept_director_key(str(folder))


def test_a_folder_that_cannot_be_written_says_what_to_do(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(SettingsError, match="CARDREF_DATA_DIR.*CARDREF_DIRECTOR_KEYS"):
        kept_director_key(str(blocker / "data"))


# ------------------------------------------------------------------ what serve says at start

def test_the_director_line_gives_the_kept_key_and_a_link_that_fills_it_in(gunicorn_conf):
    env = {"CARDREF_DIRECTOR_KEYS": "k3y-_X", KEPT_DIRECTOR_KEY_ENV: "/venue/director-key"}
    line = gunicorn_conf.director_line("http://127.0.0.1:8000/director", env)
    assert line == ("Director's page: http://127.0.0.1:8000/director#key=k3y-_X — director key: "
                    "k3y-_X (kept in /venue/director-key)")


@given(st.text(_KEY_CHARACTERS, min_size=1, max_size=30))
@settings(max_examples=examples(30))
def test_an_operators_director_key_is_never_printed(gunicorn_conf, key):
    line = gunicorn_conf.director_line("http://10.0.0.5:8000/director",
                                       {"CARDREF_DIRECTOR_KEYS": key})
    assert line == ("Director's page: http://10.0.0.5:8000/director — director key: one of "
                    "CARDREF_DIRECTOR_KEYS")


def test_without_a_director_key_the_line_says_no_event_can_be_created(gunicorn_conf):
    line = gunicorn_conf.director_line(None, {})
    assert "no director key is set (CARDREF_DIRECTOR_KEYS)" in line
    assert line.startswith("Director's page: /director")


@pytest.mark.parametrize("host, link", [("0.0.0.0", "http://127.0.0.1:8000/"),
                                        ("127.0.0.1", "http://127.0.0.1:8000/"),
                                        ("192.168.1.20", "http://192.168.1.20:8000/"),
                                        ("::", "http://[::1]:8000/"),
                                        ("fe80::1", "http://[fe80::1]:8000/")])
def test_unreached_by_others_the_director_opens_it_at_loopback_or_its_one_address(
        gunicorn_conf, host, link):
    assert gunicorn_conf.own_link(host, 8000) == link


def test_the_phones_address_is_drawn_as_a_qr_code_on_a_terminal_only(gunicorn_conf):
    link = "http://192.168.1.20:8000/"
    terminal = Terminal()
    assert gunicorn_conf.terminal_qr(link, terminal)
    lines = terminal.getvalue().splitlines()
    # a square of half-blocks: version 2 (25 modules) and the 4-module quiet zone on each side,
    # two module rows to a line
    assert len(lines) == (25 + 8 + 1) // 2 and {len(line) for line in lines} == {25 + 8}
    assert set("".join(lines)) <= {" ", "\u2580", "\u2584", "\u2588"}
    log_file = io.StringIO()  # a log file, a pipe, a container's log: no QR code
    assert not gunicorn_conf.terminal_qr(link, log_file) and log_file.getvalue() == ""


def test_a_terminal_without_block_characters_gets_the_qr_code_in_colours(gunicorn_conf):
    terminal = Terminal(encoding="ascii")
    assert gunicorn_conf.terminal_qr("http://192.168.1.20:8000/", terminal)
    text = terminal.getvalue()
    assert "\x1b[7m" in text and text.isascii()


def test_at_start_the_master_says_the_phones_address_with_its_qr_and_the_directors_page(
        gunicorn_conf, monkeypatch):
    import service.addresses

    monkeypatch.setattr(service.addresses, "lan_addresses", lambda: ["192.168.1.20"])
    monkeypatch.setenv("CARDREF_REDIS_URL", "redis://127.0.0.1:1/0")
    monkeypatch.setenv("CARDREF_EMBEDDED_REDIS_DIR", "/venue/data/redis")
    monkeypatch.setenv("CARDREF_DIRECTOR_KEYS", "the-kept-key")
    monkeypatch.setenv(KEPT_DIRECTOR_KEY_ENV, "/venue/data/director-key")
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    said: list[str] = []
    log = logging.getLogger("venue-start-test")
    monkeypatch.setattr(log, "info", lambda msg, *args: said.append(msg % args))
    with socket.socket() as sock:
        sock.bind(("0.0.0.0", 0))
        port = sock.getsockname()[1]
        gunicorn_conf.when_ready(SimpleNamespace(LISTENERS=[SimpleNamespace(sock=sock)], log=log))
    assert f"Phones and other computers on this network open: http://192.168.1.20:{port}/" in said
    # opened where the phones reach it too: the links and QR codes the page makes start there
    assert said[-1] == (f"Director's page: http://192.168.1.20:{port}/director#key=the-kept-key"
                        " — director key: the-kept-key (kept in /venue/data/director-key)")
    assert "\u2588" in terminal.getvalue()  # the QR code, on the terminal


# ------------------------------------------------------------------ nobody gets it over HTTP

def test_no_page_nor_answer_carries_the_director_key_even_to_the_laptop_itself():
    """A stranger on the venue's network, or one whose request a proxy or tunnel on the laptop
    forwards from loopback, must not get the key: so no answer gives it to anyone, the laptop's
    own browser included (the printed link's fragment is how the page gets it)."""
    key = "venue-director-key-never-served"
    app = create_app(Settings(metrics=False, director_keys=(key,)))
    client = app.test_client()
    # every page and answer a GET without parameters reaches (/openapi.yaml is /openapi.json's
    # spec again, and takes seconds to write out)
    paths = [rule.rule for rule in app.url_map.iter_rules()
             if "GET" in rule.methods and not rule.arguments and rule.rule != "/openapi.yaml"]
    paths += ["/director/director.js", "/director/api.js", "/director/i18n.js",
              "/director/index.html"]
    assert "/director" in paths and "/director/addresses" in paths
    for remote, host in (("127.0.0.1", "127.0.0.1:8000"), ("::1", "localhost:8000"),
                         ("192.168.1.77", "192.168.1.20:8000")):
        for path in paths:
            resp = client.get(path, headers={"Host": host},
                              environ_base={"REMOTE_ADDR": remote})
            assert resp.status_code < 500, (path, resp.status_code)
            assert key not in resp.get_data(as_text=True), path
            assert key not in str(resp.headers), path
