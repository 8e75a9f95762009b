"""HMAC-SHA256 signatures over canonical JSON, so a client cannot deal itself better cards.

Canonical JSON: keys sorted, no whitespace, UTF-8 (orjson with OPT_SORT_KEYS), of the state
without its `signature` key. Several secrets may be configured: the first signs, any verifies,
so secrets rotate without refusing states already in flight.
"""
from __future__ import annotations

import hmac
from typing import Any, Mapping, Sequence

import orjson

from engine.errors import InvalidState

SIGNATURE_KEY = "signature"
_PREFIX = "v1:"


class SignatureError(Exception):
    pass


def canonical_json(state: Mapping[str, Any]) -> bytes:
    if SIGNATURE_KEY in state:
        state = {k: v for k, v in state.items() if k != SIGNATURE_KEY}
    return orjson.dumps(state, option=orjson.OPT_SORT_KEYS)


class Signer:
    def __init__(self, secrets: Sequence[str]):
        self._keys = [s.encode() for s in secrets]

    @property
    def enabled(self) -> bool:
        return bool(self._keys)

    def _mac(self, key: bytes, body: bytes) -> str:
        # hmac.digest: OpenSSL's one-shot HMAC in C (hmac.new builds two hash objects in
        # Python first); twice per /v1/validate, the same value.
        return _PREFIX + hmac.digest(key, body, "sha256").hex()

    def sign(self, state: dict) -> dict:
        """The state as returned to a client: signed when signing is on."""
        if not self._keys:
            return state
        body = canonical_json(state)
        out = dict(state)
        out[SIGNATURE_KEY] = self._mac(self._keys[0], body)
        return out

    def signed_json(self, state: dict) -> dict | orjson.Fragment:
        """The state ready to embed in a response: with signing on, its canonical JSON with
        the signature added, serialized once (as an orjson Fragment) instead of once to sign
        and again to answer."""
        if not self._keys:
            return state
        body = canonical_json(state)
        mac = self._mac(self._keys[0], body).encode()
        # canonical JSON of a non-empty object ends in "}": add the signature as its last key
        return orjson.Fragment(body[:-1] + b',"' + SIGNATURE_KEY.encode() + b'":"' + mac + b'"}'
                               if len(body) > 2 else b'{"' + SIGNATURE_KEY.encode() + b'":"' + mac + b'"}')

    def verify(self, state: Mapping[str, Any]) -> dict:
        """The state without its signature (a new dict, the caller's to change); raises
        SignatureError when signing is on and the signature is missing or matches no
        configured secret."""
        unsigned = dict(state)
        given = unsigned.pop(SIGNATURE_KEY, None)
        if not self._keys:
            return unsigned
        if not isinstance(given, str):
            raise SignatureError("the state carries no signature")
        try:
            body = orjson.dumps(unsigned, option=orjson.OPT_SORT_KEYS)  # canonical_json
        except orjson.JSONEncodeError:  # nested past orjson's depth limit: no state of ours
            raise InvalidState("the state is nested too deeply to be a state", "state") from None
        given_bytes = given.encode("utf-8", "surrogatepass")
        if not any(hmac.compare_digest(given_bytes, self._mac(key, body).encode())
                   for key in self._keys):
            raise SignatureError("the state's signature does not match: it was changed or "
                                 "signed by another server")
        return unsigned
