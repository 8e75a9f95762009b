"""What gunicorn and the app answer to broken HTTP, against the real service (raw sockets):
every answer is application/problem+json with a stable code, and no part of a body is ever
adjudicated. Body deadline shrunk so the cut-off cases run in a second."""
import json
import socket
import time

import pytest

from tests.service.serving import gunicorn_service

BODY_TIMEOUT = 1.0
pytestmark = pytest.mark.drill  # a real server: left out of `make test-fast`

DEAL = b'{"players": ["ann", "bob", "cho"]}'


@pytest.fixture(scope="module")
def port(tmp_path_factory):
    with gunicorn_service(tmp_path_factory.mktemp("edges"),
                          CARDREF_BODY_TIMEOUT_SECONDS=str(BODY_TIMEOUT),
                          CARDREF_WORKER_TIMEOUT="10") as base:
        yield int(base.rsplit(":", 1)[1])


def exchange(port: int, raw: bytes, pause_after: bytes | None = None, wait: float = 0.0,
             timeout: float = 10.0) -> tuple[int, dict, dict, float]:
    """Send `raw` (stopping after `pause_after` for `wait` s), read the answer until close."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        if pause_after is not None:
            head, _, _ = raw.partition(pause_after)
            sock.sendall(head + pause_after)
            time.sleep(wait)
        else:
            sock.sendall(raw)
        data = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            data += chunk
            if b"\r\n\r\n" in data:
                head, _, body = data.partition(b"\r\n\r\n")
                length = [int(line.split(b":")[1]) for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length:")]
                if length and len(body) >= length[0]:
                    break
    elapsed = time.monotonic() - started
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
    return status, headers, json.loads(body), elapsed


def post(path: str, body: bytes, **headers: str) -> bytes:
    lines = [f"POST {path} HTTP/1.1", "Host: x", "Content-Type: application/json",
             *(f"{k.replace('_', '-')}: {v}" for k, v in headers.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def assert_problem(got, status: int, code: str):
    got_status, headers, body, _ = got
    assert (got_status, body.get("code")) == (status, code), got
    assert headers["content-type"] == "application/problem+json", headers


def test_a_body_shorter_than_its_content_length_is_cut_off_never_adjudicated(port):
    # The JSON inside is complete: the service must not read the first bytes as the body.
    got = exchange(port, post("/v1/games/man/deal", DEAL, Content_Length=str(len(DEAL) + 20)))
    assert_problem(got, 400, "body_incomplete")
    assert BODY_TIMEOUT - 0.3 <= got[3] <= BODY_TIMEOUT + 3


def test_a_chunked_body_cut_off_by_the_deadline_is_a_400_problem(port):
    raw = post("/v1/games/man/deal", b"", Transfer_Encoding="chunked") + \
        b"%x\r\n%s\r\n" % (len(DEAL), DEAL)  # no last chunk: the client stalls
    got = exchange(port, raw)
    assert_problem(got, 400, "body_incomplete")


@pytest.mark.parametrize("chunks", [b"zz\r\n{}\r\n0\r\n\r\n", b"2\r\n{}XX0\r\n\r\n",
                                    b"-5\r\n{}\r\n0\r\n\r\n"])
def test_a_malformed_chunked_body_is_a_400_problem(port, chunks):
    got = exchange(port, post("/v1/validate", b"", Transfer_Encoding="chunked") + chunks)
    assert got[0] == 400 and got[2]["code"] in ("request_malformed", "body_incomplete"), got
    assert got[1]["content-type"] == "application/problem+json"


def test_fifty_chunked_bodies_cut_off_by_the_deadline_answer_400_not_500(port):
    socks = []
    raw = post("/v1/games/man/deal", b"", Transfer_Encoding="chunked") + b"5\r\n{\"pla"
    for _ in range(50):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(raw)
        socks.append(s)
    statuses = []
    for s in socks:
        data = b""
        try:
            while b"\r\n\r\n" not in data:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        finally:
            s.close()
        statuses.append(int(data.split()[1]) if data else None)
    assert statuses == [400] * 50, statuses


def test_the_servers_own_refusals_are_problems(port):
    assert_problem(exchange(port, b"NOT A REQUEST LINE\r\n\r\n"), 400, "request_malformed")
    assert_problem(exchange(port, b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"),
                   414, "uri_too_long")
    assert_problem(exchange(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 9000
                            + b"\r\n\r\n"), 431, "headers_too_large")
    many = b"".join(b"X-H%d: 1\r\n" % i for i in range(120))
    assert_problem(exchange(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + many + b"\r\n"),
                   431, "headers_too_large")


def test_made_up_methods_do_not_grow_the_real_services_metrics(port):
    def scrape() -> int:
        raw = b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(raw)
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
        return len(data)
    before = scrape()
    for i in range(300):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(b"M%dX /p%d HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" % (i, i))
            while sock.recv(65536):
                pass
    assert scrape() < before + 20_000
