"""What the service guarantees about a state a client holds (README, "Security model").

- Signing (CARDREF_STATE_SECRET): every state carries an HMAC; a changed state is refused.
- Sealing (CARDREF_SEAL_KEYS): every state leaves encrypted and authenticated (AES-GCM) as one
  opaque string: nobody reads another seat's cards or the seed from it. Seats prove who they
  are with seat tokens (X-Seat-Token), which the deal's caller hands out.
- Binding: with either on, a state carries `meta` — a random game id made at the deal, the
  move number, the deal's provenance (`server` or `referee`) and its match's lineage (match
  id, deal number, the match's provenance) — under the same signature or seal. Strict
  sequencing (CARDREF_SEQUENCE=strict) then refuses any state that is not its game's latest
  (service/sequence.py).
- Match lineage: a finished deal's `next_match` carries its match's lineage (match id, deal
  number, game, players in seat order, provenance) under the same signature or seal; the next
  deal continues that lineage only (same game, same seats), once under strict sequencing.
- The host token (sealing): a deal's answer carries every seat's token, so it goes only to
  whoever may hand them out. A match's first deal answers its caller (the host) the match's
  `host_token` beside the seat tokens; a next deal from the match's `next_match` (which anyone
  may hold: it reaches the seat that ended the deal) needs that token (X-Host-Token) or the
  referee key, so whoever merely holds the public parts of the host's request (players,
  next_match, options) gets no deal, let alone its seat tokens.
- The referee key (CARDREF_REFEREE_KEYS, `Authorization: Bearer <key>`): with signing or
  sealing on, a deal the caller shapes (a deck, hands, a chosen seed, or match values that are
  not the previous deal's signed `next_match`) needs it — not a hosted event's committed same
  deal the request names (`event_deal`): its seed is the service's (guard_deal's `drawn`) —
  and so does every action a game
  declares referee-only (ActionType.referee_only: a chombo recorded, a reported peek), in
  /v1/validate and /v1/replay, whatever seat tokens come with it. Under sealing so does an
  action that names cards drawn from a stock of unknown order (PhysicalDeals.names_unseen_draw:
  a physical deal's draws, whose refusals would tell the seat which unseen cards are out of the
  stock), checked before anything is adjudicated (engine/adjudicate.py is_referee_act).
- Inside hosted events: a table's push whose match record adds a referee act (engine/records.py
  referee_acts: the referee-only actions, a deal from the cards, match values) needs the referee
  key too, in X-Referee-Key beside the table's token (service/api/hosted_events.py
  require_referee_for_acts); the director's token needs none.
Without any of these (the default), states are plain JSON and nothing is checked beyond the
rules: fine for a trusted front end, not for strangers.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any, Mapping, NamedTuple

import orjson

from engine import adjudicate
from engine.errors import InputError, InvalidState
from engine.game import InvalidDeal

from .sealing import Sealer, SealError
from .sequence import Sequencer
from .signing import SIGNATURE_KEY, SignatureError, Signer

META_KEY = "meta"
STATE_PURPOSE = b"card-referee state v1"
MATCH_PURPOSE = b"card-referee match v1"
PROVENANCES = ("server", "referee")
# The headers a seat's and a match host's tokens come in (sealing on).
SEAT_TOKEN_HEADER = "X-Seat-Token"
HOST_TOKEN_HEADER = "X-Host-Token"
# The header the referee key comes in beside another credential in Authorization: a hosted
# event's table token, whose push may hold referee acts (service/api/hosted_events.py).
REFEREE_KEY_HEADER = "X-Referee-Key"
# The longest seat or host token a request may carry (the spec's maxLength of both headers).
TOKEN_MAX_LENGTH = 512
DEAL_ACT = ("a deal with a deck, hands (and a table), a chosen seed or salt, match values, or a "
            "dealer beside a next_match")


class RefereeKeyRequired(Exception):
    """A deal the caller shapes, without the referee key (403 referee_key_required)."""


class RefereeActsNeedKey(InputError):
    """A hosted event's table pushing a record that holds a referee act its stored record did
    not, without the referee key (403 referee_key_required, the path of the first such act)."""

    code = "referee_key_required"
    http_status = 403


class SeatTokenInvalid(Exception):
    """A seat's action or view without that seat's token (403 seat_token_invalid)."""


class HostTokenInvalid(Exception):
    """Under sealing, a match's next deal without its host token or the referee key (403
    host_token_invalid): its answer carries every seat's token."""


class Meta(NamedTuple):
    """A state's binding. (Named tuples: built three times per /v1/validate request, where a
    frozen dataclass costs a few µs more.) The match lineage: the match id made at the
    match's first deal, this deal's number in it (1 for the first), and the match's
    provenance — `referee` only while every deal of the match was dealt with the referee
    key, else `server` (anyone could have played every seat of some deal of it)."""
    game_id: str
    move: int
    provenance: str
    match_id: str
    deal: int
    match_provenance: str

    def to_json(self) -> dict:
        return {"game_id": self.game_id, "move": self.move, "provenance": self.provenance,
                "match_id": self.match_id, "deal": self.deal,
                "match_provenance": self.match_provenance}

    def next(self) -> "Meta":
        return self._replace(move=self.move + 1)

    def lineage(self) -> dict:
        """The match's lineage as answers show it beside its totals."""
        return {"match_id": self.match_id, "deal": self.deal,
                "provenance": self.match_provenance}

    @staticmethod
    def from_json(data: Any) -> "Meta":
        """Only ever called on what our own signature or seal vouches for. A state bound
        before matches had lineage is the first deal of a match of its own provenance."""
        get = data.get
        return Meta(data["game_id"], data["move"], data["provenance"],
                    get("match_id") or data["game_id"], get("deal") or 1,
                    get("match_provenance") or data["provenance"])


LINEAGE_KEY = "lineage"


class Lineage(NamedTuple):
    """What a signed or sealed next_match says of the match it continues."""
    match_id: str
    deal: int          # the deal that finished (the next deal is deal + 1)
    game: str
    players: list
    provenance: str


def _token(key: bytes, message: bytes) -> str:
    # hmac.digest: the one-shot HMAC in C (hmac.new's Python wrapper costs more than the
    # hash of a message this short); the same value.
    return hmac.digest(key, message, "sha256").hex()[:32]


class Posted(NamedTuple):
    """A state as a client posted it: the game's JSON (service keys removed), its binding
    (None when neither signing nor sealing is on) and whether the engine may trust it."""
    state: dict
    meta: Meta | None
    trusted: bool


SEAT_TOKEN_INFO = b"card-referee seat tokens v1"


def seat_token_key(seal_key: bytes) -> bytes:
    """The seat-token key derived from a seal key (HKDF-SHA256), used when
    CARDREF_SEAT_TOKEN_KEYS is not set: never the AES key itself."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None,
                info=SEAT_TOKEN_INFO).derive(seal_key)


class Guard:
    def __init__(self, state_secrets, seal_keys, referee_keys, sequencer: Sequencer | None,
                 seat_token_keys=()):
        self.signer = Signer(state_secrets)
        # A signed match summary must never pass for a signed state, nor the other way round.
        self.match_signer = Signer([f"{s}\x00match" for s in state_secrets])
        self.sealer = Sealer(seal_keys)
        self._referee_keys = [k.encode() for k in referee_keys]
        self.sequencer = sequencer
        # Seat tokens: HMACs under their own keys (CARDREF_SEAT_TOKEN_KEYS: the first issues,
        # any verifies), so rotating the seal keys does not end them. Unset, keys derived from
        # the seal keys issue them. Verified also: tokens under the derived keys (issued before
        # CARDREF_SEAT_TOKEN_KEYS was set) and under the seal keys themselves (issued by
        # releases before seat-token keys), each while its seal key is configured.
        derived = [seat_token_key(k) for k in seal_keys]
        own = [k.encode("utf-8") for k in seat_token_keys]
        self._token_keys = (own or derived)[:1]
        self._token_verifiers = list(dict.fromkeys([*own, *derived, *seal_keys]))

    @property
    def enabled(self) -> bool:
        return self.signer.enabled or self.sealer.enabled

    @property
    def sealed(self) -> bool:
        return self.sealer.enabled

    # -- states ---------------------------------------------------------------------------
    def incoming(self, posted: Any) -> Posted:
        if self.sealer.enabled:
            try:
                data = self.sealer.open(posted, STATE_PURPOSE)
            except SealError as err:
                raise SignatureError(f"sealing is on: {err}") from None
            meta = data.pop(META_KEY)
            return Posted(data, Meta.from_json(meta), True)
        if not isinstance(posted, dict):
            raise InvalidState("a state is an object (sealing is not on here)", "state")
        if self.signer.enabled:
            data = self.signer.verify(posted)  # a new dict: the binding is taken out of it
            meta = data.pop(META_KEY, None)
            if not isinstance(meta, dict):
                raise SignatureError("the signed state carries no binding (meta)")
            return Posted(data, Meta.from_json(meta), True)
        if META_KEY in posted or SIGNATURE_KEY in posted:
            from .schemas import _ABSENT, binding_fault  # rare: a bound state posted here

            fault = binding_fault(posted.get(META_KEY, _ABSENT), posted.get(SIGNATURE_KEY, _ABSENT))
            if fault is not None:
                raise InvalidState(fault[1], fault[0])
            posted = {k: v for k, v in posted.items() if k not in (META_KEY, SIGNATURE_KEY)}
        return Posted(posted, None, False)

    def outgoing(self, state: dict, meta: Meta | None) -> Any:
        """The state as it leaves: sealed, signed (serialized once, an orjson Fragment) or
        plain."""
        if meta is None:
            return state
        bound = {**state, META_KEY: meta.to_json()}
        if self.sealer.enabled:
            return self.sealer.seal(bound, STATE_PURPOSE)
        return self.signer.signed_json(bound)

    def new_meta(self, provenance: str, match_id: str | None = None, deal: int = 1,
                 match_provenance: str | None = None, game_id: str | None = None
                 ) -> Meta | None:
        """A new deal's binding: a fresh game id (or the one derived for a match's next deal,
        derive_id) and a fresh match (or the lineage it continues)."""
        if not self.enabled:
            return None
        game_id = game_id or secrets.token_urlsafe(12)
        return Meta(game_id, 0, provenance, match_id or secrets.token_urlsafe(12), deal,
                    match_provenance or provenance)

    def derive(self, purpose: str, *parts: str) -> str:
        """A value only this service can make, the same every time for the same parts: the
        game id and seed of a match's next deal, so the same deal request (a retry whose
        answer was lost) gets the same deal. Keyed by the first signing secret or seal key."""
        key = self.signer._keys[0] if self.signer.enabled else self.sealer._keys[0][2]
        message = "\x00".join((purpose, *parts)).encode("utf-8", "surrogatepass")
        return hmac.new(key + b"\x00lineage", message, hashlib.sha256).hexdigest()

    # -- match summaries (the previous deal's next_match) -----------------------------------
    def outgoing_match(self, match: dict | None, meta: Meta | None = None,
                       state: Mapping[str, Any] | None = None) -> Any:
        """A finished deal's match summary, bound to its match's lineage (match id, this
        deal's number, the game and its players in seat order, the match's provenance)."""
        if match is None or not self.enabled:
            return match
        if meta is not None and state is not None:
            match = {**match, LINEAGE_KEY: {
                "match_id": meta.match_id, "deal": meta.deal, "game": state.get("game"),
                "players": list(state.get("players") or ()),
                "provenance": meta.match_provenance}}
        if self.sealer.enabled:
            return self.sealer.seal(match, MATCH_PURPOSE)
        return orjson.loads(orjson.dumps(self.match_signer.signed_json(match)))

    def incoming_match(self, posted: Any) -> tuple[Any, Lineage | None]:
        """(match values, lineage): a match summary this service sealed or signed is anyone's
        to pass on, within its lineage; other values (lineage None) are the caller's own (a
        referee act)."""
        if posted is None or not self.enabled:
            return posted, None
        if isinstance(posted, str):
            try:
                values = self.sealer.open(posted, MATCH_PURPOSE)
            except SealError as err:
                raise InputError(f"match: {err}", "match", "deal_invalid") from None
        elif isinstance(posted, Mapping) and SIGNATURE_KEY in posted and self.signer.enabled:
            try:
                values = self.match_signer.verify(posted)
            except SignatureError as err:
                raise InputError(f"match: {err}", "match", "deal_invalid") from None
        else:
            if isinstance(posted, Mapping) and LINEAGE_KEY in posted:
                raise InputError("match: a lineage comes only inside a next_match this "
                                 "service signed or sealed", f"match.{LINEAGE_KEY}",
                                 "deal_invalid")
            return posted, None
        lineage = values.pop(LINEAGE_KEY, None) if isinstance(values, dict) else None
        if not isinstance(lineage, dict):
            raise InputError("match: this next_match carries no lineage (issued before "
                             "matches were bound to theirs): a referee may start the match "
                             "again from its values", "match", "deal_invalid")
        return values, Lineage(lineage["match_id"], lineage["deal"], lineage["game"],
                               lineage["players"], lineage["provenance"])

    # -- who may do what ----------------------------------------------------------------------
    def is_referee(self, authorization: str | None) -> bool:
        scheme, _, key = (authorization or "").partition(" ")
        given = key.strip().encode("utf-8", "surrogatepass")
        return scheme.lower() == "bearer" and any(
            hmac.compare_digest(given, k) for k in self._referee_keys)

    @property
    def has_referee_keys(self) -> bool:
        return bool(self._referee_keys)

    def is_referee_key(self, key: str | None) -> bool:
        """Whether `key` (as given, no scheme: the X-Referee-Key header) is a referee key."""
        return key is not None and self.is_referee(f"Bearer {key}")

    def require_referee(self, authorization: str | None, act: str = DEAL_ACT) -> None:
        """With signing or sealing on, a referee act needs a key of CARDREF_REFEREE_KEYS; with
        none configured nobody is the referee, so every referee act is refused. Without
        signing or sealing a client may edit its state anyway: nothing to guard."""
        if not self.enabled:
            return
        if not self.is_referee(authorization):
            raise RefereeKeyRequired(
                f"{act} is a referee act: send Authorization: Bearer <a key of "
                "CARDREF_REFEREE_KEYS>" + ("" if self._referee_keys else
                                          " (none is configured here, so nobody may)"))

    def seat_tokens(self, meta: Meta | None, players) -> dict | None:
        if meta is None or not self.sealer.enabled:
            return None
        key = self._token_keys[0]
        return {p: _token(key, self._seat_message(meta, p)) for p in players}

    def host_token(self, meta: Meta | None) -> str | None:
        """The match's host token (sealing only): handed to whoever deals one of its deals, and
        asked of whoever deals its next deal from a next_match without the referee key."""
        if meta is None or not self.sealer.enabled:
            return None
        return _token(self._token_keys[0], self._host_message(meta.match_id))

    def require_host(self, match_id: str, token: str | None) -> None:
        """Under sealing, dealing a match's next deal from its next_match needs the match's
        host token: the deal's answer carries every seat's token (docs/security.md)."""
        if not self.sealer.enabled:
            return
        message = self._host_message(match_id)
        given = token.encode() if isinstance(token, str) and token.isascii() else None
        if given is None or not any(hmac.compare_digest(_token(k, message).encode(), given)
                                    for k in self._token_verifiers):
            raise HostTokenInvalid(
                "dealing a match's next deal from its next_match needs the match's host token "
                "(X-Host-Token, answered to the host with each of its deals) or the referee "
                "key: the deal's answer carries every seat's token")

    @staticmethod
    def _host_message(match_id: str) -> bytes:
        # "host" vs "seat": a seat token is never a host token, whatever the ids
        return b"host\x00" + match_id.encode("utf-8", "surrogatepass")

    def require_seat(self, meta: Meta | None, player: str | None, token: str | None) -> None:
        """With sealing on, acting as or viewing as a seat needs that seat's token; a
        spectator (player None) needs none."""
        if player is None or meta is None or not self.sealer.enabled:
            return
        message = self._seat_message(meta, player)
        given = token.encode() if isinstance(token, str) and token.isascii() else None
        if given is None or not any(hmac.compare_digest(_token(k, message).encode(), given)
                                    for k in self._token_verifiers):
            raise SeatTokenInvalid(f"acting or looking as {player!r} needs that seat's token "
                                   "(X-Seat-Token), handed out with the deal")

    @staticmethod
    def _seat_message(meta: Meta, player: str) -> bytes:
        return b"seat\x00" + meta.game_id.encode() + b"\x00" + player.encode("utf-8", "surrogatepass")


# ------------------------------------------------------------------ the deal's trust policy
# Who may shape a deal (POST /v1/games/{game}/deal, and the deal a replay starts from), the
# binding its states get, and what its answer hands out (service/api/play.py).

def guard_deal(guard: Guard, body: dict, game: str, players, identity: object, headers,
               drawn: tuple[str, str] | None = None
               ) -> tuple[Meta | None, dict | None, str | None, str | None, tuple | None]:
    """Who may shape this deal, its binding, its seed and seed salt (None: the engine draws
    them) and the next_match it uses (claimed by claim_match once the engine dealt it). A deck,
    hands, a chosen seed, match values this service did not sign or seal, or a dealer other
    than the one a signed next_match names make it a referee act (the referee key, when states
    are signed or sealed); the previous deal's signed next_match is anyone's to pass on, within
    its lineage: the same game and seats, the next deal (once, under strict sequencing).
    `identity`: the whole request, which a match's next deal is derived from (the same
    request again gets the same deal: game id, seed and salt). `headers`: the request's.
    `drawn`: a seed and salt the service chose itself, not the caller (a hosted event's
    committed deal, service/api/hosted_events.py committed_deal): dealt as if drawn here."""
    host_token = headers.get(HOST_TOKEN_HEADER)
    if host_token is not None and len(host_token) > TOKEN_MAX_LENGTH:
        # the spec's bound on the header (service/api/spec.py), held in every mode, not only
        # where the token is read (sealing): a request outside the contract is refused
        raise InputError(f"{HOST_TOKEN_HEADER} has at most {TOKEN_MAX_LENGTH} characters",
                         HOST_TOKEN_HEADER, "request_invalid")
    match, lineage = guard.incoming_match(body.get("match"))
    shaped = any(body.get(k) is not None
                 for k in ("deck", "hands", "table", "seed", "seed_salt")) or \
        (match is not None and lineage is None) or \
        (lineage is not None and body.get("dealer") is not None)
    authorization = headers.get("Authorization")
    if shaped:
        guard.require_referee(authorization)
    provenance = "referee" if shaped else "server"
    chosen, chosen_salt = drawn or (body.get("seed"), body.get("seed_salt"))
    if not guard.enabled:
        return None, match, chosen, chosen_salt, None
    referee = shaped or guard.is_referee(authorization)
    if lineage is None:  # a match begins
        return guard.new_meta(provenance, match_provenance="referee" if referee else "server"), \
            match, chosen, chosen_salt, None
    if guard.sealed and not referee:
        # The answer carries every seat's token: only the match's host (or the referee) may
        # deal it. The next_match itself is no secret (it reaches the seat that ended the deal).
        guard.require_host(lineage.match_id, headers.get(HOST_TOKEN_HEADER))
    if lineage.game != game or list(lineage.players) != list(players):
        raise InvalidDeal(f"this next_match continues a match of {lineage.game} between "
                          f"{lineage.players} (in seat order); deal that game and those seats, "
                          "or have a referee start a match with its values", "match")
    deal_number = lineage.deal + 1
    request_digest = hashlib.sha256(orjson.dumps(identity, option=orjson.OPT_SORT_KEYS)
                                    ).hexdigest()
    parts = (lineage.match_id, str(deal_number), request_digest)
    seed = chosen or guard.derive("seed", *parts)[:32]
    salt = chosen_salt or guard.derive("salt", *parts)[:32]  # 128 bits of hex
    meta = guard.new_meta(provenance, lineage.match_id, deal_number,
                          "referee" if referee and lineage.provenance == "referee" else "server",
                          game_id=guard.derive("game", *parts)[:16])
    return meta, match, seed, salt, (lineage.match_id, deal_number, request_digest)


def claim_match(guard: Guard, claim: tuple | None) -> None:
    """Under strict sequencing a next_match starts one deal: recorded once the engine has
    dealt it (a request the engine refuses, e.g. a typo in its options, uses nothing)."""
    if claim is not None and guard.sequencer is not None:
        guard.sequencer.use_match(*claim)


def dealt(guard: Guard, out: dict, meta: Meta | None, players) -> dict:
    """A deal's answer (`out`, changed in place) as it leaves: its state signed or sealed, its
    game id and lineage, and under sealing every seat's token and the match's host token."""
    if guard.sequencer is not None and meta is not None:
        guard.sequencer.start(meta.game_id)
    out["state"] = guard.outgoing(out["state"], meta)
    if meta is not None:
        out["game_id"] = meta.game_id
        out["lineage"] = meta.lineage()
    return _with_tokens(guard, out, meta, players)


def require_replay_acts(guard: Guard, game_id: str, actions: list, headers) -> None:
    """A replay's referee-only actions need the referee key, as in /v1/validate. The actions'
    types only: a replay of a physical deal (hands) needs the referee key as a deal the caller
    shapes, so its named draws are the referee's already."""
    if guard.enabled:
        shown = {"game": game_id}
        for action in actions:
            if adjudicate.is_referee_act(shown, action):
                guard.require_referee(headers.get("Authorization"),
                                      f"a replay with the action {action.get('type')!r}")


def replayed(guard: Guard, out: dict, meta: Meta | None, game_id: str, players) -> dict:
    """A replay's answer (`out`, changed in place) as it leaves: its first and last states and
    its next_match signed or sealed (the last bound at the move the replay reached), its
    lineage, and under sealing the tokens a deal answers."""
    out["initial_state"] = guard.outgoing(out["initial_state"], meta)
    final = None if meta is None else meta._replace(move=len(out["steps"]))
    if guard.sequencer is not None and final is not None:  # final: meta at the move reached
        guard.sequencer.start(final.game_id, final.move)
    out["state"] = guard.outgoing(out["state"], final)
    out["next_match"] = guard.outgoing_match(
        out["next_match"], final, {"game": game_id, "players": players})
    if meta is not None:
        out["lineage"] = meta.lineage()
    return _with_tokens(guard, out, meta, players)


def _with_tokens(guard: Guard, out: dict, meta: Meta | None, players) -> dict:
    tokens = guard.seat_tokens(meta, players)
    if tokens is not None:
        out["seat_tokens"] = tokens
        out["host_token"] = guard.host_token(meta)
    return out
