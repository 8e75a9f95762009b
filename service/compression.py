"""Compressed answers: br, zstd or gzip, as the client's Accept-Encoding prefers, for every
answer of at least CARDREF_COMPRESS_MIN_BYTES (1 KB) whose type is text (JSON, problem+json,
HTML, markdown, YAML, scripts, metrics). A 27-card Guandan leader's legal actions, each with
its words, are ~450 KB of JSON and ~12 KB in br (~18 KB gzipped); a small answer is sent as
it is (compressing it saves less than the header and the time cost). flask-compress does the
negotiation (quality values, `identity`, `*`) and the compressing; the service's one
after-request hook calls it (service/app.py), so the answers it leaves alone pay only a header
look-up. (flask-compress 1.25 reads an encoding's `;q=0` as its lowest preference, not as a
refusal: `gzip;q=0` alone still gets gzip. `identity` and `*;q=0` are read right.)

An answer that is a cache entry as it is (an enumeration or a lookup: service/api/common.py
`cached_json`) has its compressed bodies cached beside it, one per encoding, under the same
key plus the encoding (flask-compress's own cache hooks): a repeated question costs a lookup,
not a compression, and since it is compressed once, at a higher level than a fresh answer
(CACHED_LEVELS). Only those answers: what a request can add to the cache is at most one
compressed body per encoding beside each answer it could already have cached, each smaller
than that answer, all within the cache's bounds (service/cache.py).

Every answer says `Vary: Accept-Encoding` (its bytes depend on it), problem answers too, and a
large problem answer is compressed like any other (flask-compress compresses 2xx only: see
`compress`). What is signed or sealed is inside the JSON, so compression leaves it as it
was: a client's HTTP library decompresses before it reads. Strong ETags get the encoding's
suffix (`"…:gzip"`), so a conditional request is answered by the same encoding's tag.
"""
from __future__ import annotations

from flask import Flask, Response, request
from flask_compress import Compress

from .cache import Cache
from .errors import PROBLEM_MIME

# The client's preference first (its q-values), then this order. br first: it is the smallest
# at every level (the Guandan leader's list: 11.7 KB cached, 13 KB fresh; zstd 13.2 and
# 15.2 KB; gzip 18 and 25.6 KB), and every browser sends it. deflate is left out: "deflate"
# answers are framed two ways in the wild, and every client that sends it sends gzip too.
ALGORITHMS = ["br", "zstd", "gzip"]
MIMETYPES = ["application/json", "application/problem+json", "application/yaml",
             "text/html", "text/markdown", "text/plain", "text/css", "text/javascript",
             "application/javascript", "image/svg+xml"]
# Fast levels: an answer not cached is compressed anew every time. JSON this repetitive gets
# most of its ratio at gzip's level 1: the 27-card leader's 450 KB of legal actions is 25.6 KB
# in ~0.8 ms (17.3 KB in ~15 ms at level 9); zstd 3 15.2 KB in ~0.3 ms, br 4 13.0 KB in ~1.3 ms.
FRESH_LEVELS = {"COMPRESS_LEVEL": 1, "COMPRESS_BR_LEVEL": 4, "COMPRESS_ZSTD_LEVEL": 3}
# A cached answer's bodies are compressed once, but once for each new question (a client's
# state changes with every move, so most questions are asked about once): each level is the
# last before the curve flattens, at a few ms at most for the 450 KB list, about what its
# enumeration costs, so that a stream of new questions costs little more than before.
# br 5: 11.7 KB in ~2.5 ms (br 9: 10.8 KB in ~9 ms; br 11: 9.8 KB in ~1.1 s); zstd 6:
# 13.2 KB in ~1.3 ms (zstd 15: 13.1 KB, ~8 ms); gzip 7: 18.0 KB in ~4 ms (gzip 8 and 9:
# 17.3 KB, ~15 ms). No gzip reaches 15 KB: zopfli (not a dependency) gives 15.5 KB in ~1 s.
CACHED_LEVELS = {"COMPRESS_LEVEL": 7, "COMPRESS_BR_LEVEL": 5, "COMPRESS_ZSTD_LEVEL": 6}
# The request's cached answer: (its cache key, its bytes), said by `answer_is_cached`.
CACHED_ANSWER = "cardref.cached_answer"


class Compressor:
    """flask-compress twice over, its hook not registered (the service's after-request hook
    calls `compress`): `fresh` for answers made for this request, `cached` for the answers that
    are a cache entry, which caches their compressed bodies beside them. flask-compress reads
    its settings from the app it is given: `cached`'s is an app of its own that holds nothing
    but them (the same as the service's, its levels CACHED_LEVELS, and the cache)."""

    def __init__(self, app: Flask, min_bytes: int, cache: Cache):
        settings = {
            "COMPRESS_REGISTER": False,
            "COMPRESS_MIMETYPES": MIMETYPES,
            "COMPRESS_ALGORITHM": ALGORITHMS,
            "COMPRESS_ALGORITHM_STREAMING": ALGORITHMS,  # files sent as read (/docs assets)
            "COMPRESS_MIN_SIZE": min_bytes,
            # The service's hook answers conditional requests itself, after compressing
            # (service/app.py), for every status flask-compress may be handed.
            "COMPRESS_EVALUATE_CONDITIONAL_REQUEST": False,
        }
        app.config.update(settings, **FRESH_LEVELS)
        self.fresh = Compress()
        self.fresh.init_app(app)
        settings_of_cached = Flask(__name__)
        settings_of_cached.config.update(
            settings, **CACHED_LEVELS,
            COMPRESS_CACHE_BACKEND=lambda: CompressedBodies(cache),
            COMPRESS_CACHE_KEY=_cached_answer_key)
        self.cached = Compress(settings_of_cached)


class CompressedBodies:
    """flask-compress's cache backend: the compressed bodies of cached answers, in the
    service's cache (both tiers, the same bounds and time to live) under the answer's own key
    plus the encoding (`cardref:v2:legal:<sha256>:br`)."""

    def __init__(self, cache: Cache):
        self._cache = cache

    @staticmethod
    def _key(key: str) -> str:
        algorithm, _, answer = key.partition(";")  # flask-compress's "<encoding>;<cache key>"
        return f"{answer}:{algorithm}"

    def get(self, key: str) -> bytes | None:
        return self._cache.get(self._key(key))

    def set(self, key: str, value: bytes) -> None:
        # flask-compress hands back every body it sends, found or made: a found one is the
        # very object the in-process tier holds (found in Redis, it was put there), and is not
        # written again.
        key = self._key(key)
        if self._cache.local.get(key) is not value:
            self._cache.set(key, value)


def _cached_answer_key(req) -> str:
    key: str = req.environ[CACHED_ANSWER][0]
    return key


def answer_is_cached(key: str, body: bytes) -> None:
    """Say that this request's answer is the cache entry `key`, `body`, sent as it is: if it
    is, its compressed bodies are cached beside it (`compress` checks it is the same bytes)."""
    request.environ[CACHED_ANSWER] = (key, body)


def install(app: Flask, min_bytes: int) -> Compressor:
    """Compression configured for the service, with the service's cache (created before: the
    app's extension, service/app.py)."""
    return Compressor(app, min_bytes, app.extensions["card_referee"].cache)


def compress(compressor: Compressor, response: Response) -> Response:
    """`response` compressed when the client accepts an encoding and it is worth it: from the
    cache when it is a cached answer's bytes as they are. flask-compress compresses 2xx
    answers only; a problem answer (4xx, 5xx) is JSON like any other, so it is handed over as a
    200 and its status put back. (A 304 or any other answer without a body stays as it is.)"""
    cached = request.environ.get(CACHED_ANSWER)
    if cached is not None and response.status_code == 200 and _is_body(response, cached[1]):
        return compressor.cached.after_request(response)
    if response.status_code < 400 or response.mimetype != PROBLEM_MIME:
        return compressor.fresh.after_request(response)
    status = response.status
    response.status_code = 200
    try:
        return compressor.fresh.after_request(response)
    finally:
        response.status = status


def _is_body(response: Response, body: bytes) -> bool:
    """Whether `response` sends `body` as it is (one object, not a copy: no bytes compared)."""
    sent = response.response
    return isinstance(sent, list) and len(sent) == 1 and sent[0] is body
