"""Compressed answers: br, zstd or gzip, as the client's Accept-Encoding prefers, for every
answer of at least CARDREF_COMPRESS_MIN_BYTES (1 KB) whose type is text (JSON, problem+json,
HTML, markdown, YAML, scripts, metrics). A 27-card Guandan leader's legal actions, each with
its words, are ~460 KB of JSON and ~13 KB in br (~26 KB gzipped); a small answer is sent as
it is (compressing it saves less than the header and the time cost). flask-compress does the
negotiation (quality values, `identity`, `*`) and the compressing; the service's one
after-request hook calls it (service/app.py), so the answers it leaves alone pay only a header
look-up.

Every answer says `Vary: Accept-Encoding` (its bytes depend on it), problem answers too, and a
large problem answer is compressed like any other (flask-compress compresses 2xx only: see
`compress`). What is signed or sealed is inside the JSON, so compression leaves it as it
was: a client's HTTP library decompresses before it reads. Strong ETags get the encoding's
suffix (`"…:gzip"`), so a conditional request is answered by the same encoding's tag.
"""
from __future__ import annotations

from flask import Flask, Response
from flask_compress import Compress

from .errors import PROBLEM_MIME

# The client's preference first (its q-values), then this order. br first: at its level 4 the
# Guandan leader's list is 13 KB (zstd at level 3: 15.5 KB; gzip at level 1: 26 KB) for ~1 ms
# of a 460 KB answer, and every browser sends it. deflate is left out: "deflate" answers are
# framed two ways in the wild, and every client that sends it sends gzip too.
ALGORITHMS = ["br", "zstd", "gzip"]
MIMETYPES = ["application/json", "application/problem+json", "application/yaml",
             "text/html", "text/markdown", "text/plain", "text/css", "text/javascript",
             "application/javascript", "image/svg+xml"]


def install(app: Flask, min_bytes: int) -> Compress:
    """flask-compress configured for the service, its hook not registered (the service's
    after-request hook calls `compress`)."""
    app.config.update(
        COMPRESS_REGISTER=False,
        COMPRESS_MIMETYPES=MIMETYPES,
        COMPRESS_ALGORITHM=ALGORITHMS,
        COMPRESS_ALGORITHM_STREAMING=ALGORITHMS,  # files sent as they are read (/docs assets)
        COMPRESS_MIN_SIZE=min_bytes,
        # Fast levels: every answer is compressed anew. JSON this repetitive gets most of
        # its ratio at gzip's level 1: a 27-card leader's 186 KB of legal actions is 8.8 KB
        # in ~0.2 ms, against 6.5 KB in ~1–2 ms at level 6; a 2 KB validate answer 959 bytes
        # against 913. zstd 3 (5.4 KB, ~0.07 ms) and br 4 (4.7 KB, ~0.3 ms) as well.
        COMPRESS_LEVEL=1, COMPRESS_BR_LEVEL=4, COMPRESS_ZSTD_LEVEL=3,
        # The service's hook answers conditional requests itself, after compressing
        # (service/app.py), for every status flask-compress may be handed.
        COMPRESS_EVALUATE_CONDITIONAL_REQUEST=False,
    )
    compress = Compress()
    compress.init_app(app)
    return compress


def compress(compressor: Compress, response: Response) -> Response:
    """`response` compressed when the client accepts an encoding and it is worth it.
    flask-compress compresses 2xx answers only; a problem answer (4xx, 5xx) is JSON like any
    other, so it is handed over as a 200 and its status put back. (A 304 or any other answer
    without a body stays as it is.)"""
    if response.status_code < 400 or response.mimetype != PROBLEM_MIME:
        return compressor.after_request(response)
    status = response.status
    response.status_code = 200
    try:
        return compressor.after_request(response)
    finally:
        response.status = status
