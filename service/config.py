"""Settings, all from environment variables prefixed CARDREF_ (see README's table)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from urllib.parse import urlsplit


def _int(env: dict, name: str, default: int) -> int:
    raw = env.get(name)
    return default if raw in (None, "") else int(raw)


class SettingsError(ValueError):
    """A setting that cannot be right: the service refuses to start rather than run insecurely."""


def _secrets(env: dict, name: str) -> tuple[str, ...]:
    """Comma-separated secrets. Set but blank (or with a blank entry, e.g. " , ") is an error:
    silently running unsigned would be the worst reading of it."""
    raw = env.get(name)
    if raw is None or raw == "":
        return ()
    parts = tuple(s.strip() for s in raw.split(","))
    if not all(parts):
        raise SettingsError(f"{name} is set but holds a blank secret; unset it to turn "
                            "signing off, or give non-blank secrets")
    return parts


def _seal_keys(env: dict) -> tuple[bytes, ...]:
    from .sealing import parse_key

    try:
        return tuple(parse_key(k) for k in _secrets(env, "CARDREF_SEAL_KEYS"))
    except ValueError as err:
        raise SettingsError(f"CARDREF_SEAL_KEYS: {err}") from None


def _flag(env: dict, name: str, default: bool) -> bool:
    raw = (env.get(name) or "").strip().lower()
    if not raw:
        return default
    return raw not in ("0", "off", "false", "no")


def _origins(env: dict) -> tuple[str, ...]:
    """CARDREF_CORS_ORIGINS: comma-separated origins (https://app.example), or * for any."""
    raw = env.get("CARDREF_CORS_ORIGINS") or ""
    origins = tuple(o.strip().rstrip("/") for o in raw.split(",") if o.strip())
    for origin in origins:
        if origin != "*" and not origin.startswith(("http://", "https://")):
            raise SettingsError(f"CARDREF_CORS_ORIGINS: {origin!r} is not an origin "
                                "(scheme://host[:port]) nor *")
    return origins


# `card-referee serve` sets this for its workers when it started a Redis of its own
# (service/embedded_redis.py): that Redis's folder, which /readyz reports.
EMBEDDED_REDIS_DIR_ENV = "CARDREF_EMBEDDED_REDIS_DIR"


def embedded_redis_wanted(env: dict) -> bool:
    """Whether `card-referee serve` starts a Redis of its own: when CARDREF_REDIS_URL names none
    and CARDREF_EMBEDDED_REDIS is not turned off."""
    return not env.get("CARDREF_REDIS_URL") and _flag(env, "CARDREF_EMBEDDED_REDIS", True)


def data_dir(env: dict) -> str:
    """CARDREF_DATA_DIR, absolute: where `card-referee serve` keeps what it stores itself (the
    embedded Redis's append-only file under redis/, the director key it made in director-key).
    Default ./card-referee-data."""
    return os.path.abspath(env.get("CARDREF_DATA_DIR") or "card-referee-data")


# `card-referee serve` sets this for the gunicorn master when the director key in
# CARDREF_DIRECTOR_KEYS is the one it keeps in its data folder (kept_director_key): that file,
# and the master prints that key (service/gunicorn_conf.py), never a key an operator set.
KEPT_DIRECTOR_KEY_ENV = "CARDREF_KEPT_DIRECTOR_KEY_FILE"
DIRECTOR_KEY_FILE = "director-key"


def kept_director_key(folder: str) -> tuple[str, str]:
    """(the file, the key): the director key `card-referee serve` keeps in <folder>/director-key
    for a venue that set no CARDREF_DIRECTOR_KEYS, made once (256 random bits) and read again at
    every start, so the key the director copied stays good across restarts. The file is the
    key's only copy on disk: 0600, written whole or not at all. SettingsError when it cannot be
    read or made, or holds what cannot be a key."""
    import secrets
    import tempfile

    path = os.path.join(folder, DIRECTOR_KEY_FILE)
    try:
        with open(path, encoding="utf-8") as fh:
            key = fh.read().strip()
        if key:
            if "," in key or any(ch.isspace() for ch in key):
                raise SettingsError(f"{path} holds no director key (one word, no comma): delete "
                                    "it and serve makes a new one")
            os.chmod(path, 0o600)  # a copy restored with looser rights: the key's only copy
            return path, key
    except (FileNotFoundError, NotADirectoryError):  # none yet (the writing says what is wrong)
        pass
    except (OSError, UnicodeDecodeError) as err:
        raise SettingsError(f"cannot read {path} ({getattr(err, 'strerror', None) or err})"
                            ) from None
    key = secrets.token_urlsafe(32)
    try:
        os.makedirs(folder, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=".director-key-")  # mode 0600
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(key + "\n")
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError as err:
        raise SettingsError(f"cannot write {path} ({err.strerror or err}): give "
                            "CARDREF_DATA_DIR a folder this user may write, or set "
                            "CARDREF_DIRECTOR_KEYS") from None
    return path, key


def cpu_limit(root: str = "/sys/fs/cgroup") -> int:
    """The CPUs this process may use: the container's CPU quota (cgroup v2 cpu.max or v1
    cpu.cfs_quota_us), else the CPUs it is pinned to, else the machine's."""
    import math

    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    quota = None
    try:
        with open(os.path.join(root, "cpu.max"), encoding="ascii") as fh:
            q, period = fh.read().split()[:2]
            if q != "max":
                quota = int(q) / int(period)
    except (OSError, ValueError):
        try:
            with open(os.path.join(root, "cpu", "cpu.cfs_quota_us"), encoding="ascii") as fh:
                quota_us = int(fh.read())
            with open(os.path.join(root, "cpu", "cpu.cfs_period_us"), encoding="ascii") as fh:
                period_us = int(fh.read())
            if quota_us > 0 and period_us > 0:
                quota = quota_us / period_us
        except (OSError, ValueError):
            pass
    if quota is not None:
        cpus = min(cpus, max(1, math.ceil(quota)))
    return max(1, cpus)


@dataclass(frozen=True)
class Settings:
    state_secrets: tuple[str, ...] = ()  # first signs; all verify (rotation)
    redis_url: str | None = None
    # The folder of the Redis `card-referee serve` started itself at redis_url; None when that
    # Redis is the operator's (CARDREF_REDIS_URL) or there is none.
    redis_embedded_dir: str | None = None
    max_body_bytes: int = 1024 * 1024
    cache_size: int = 4096  # entries of the in-process LRU
    cache_ttl_seconds: int = 24 * 3600
    redis_timeout_seconds: float = 0.2
    redis_retry_seconds: float = 1.0
    metrics: bool = True
    log_level: str = "INFO"
    # Bounds on the work one request may ask for (413 limit_exceeded / 422 beyond them).
    max_replay_actions: int = 2000
    max_record_deals: int = 100       # deals in one /v1/records/check
    max_record_actions: int = 10000   # actions of all its deals together (≈ 75 µs each)
    max_event_actions: int = 100000   # actions of all an event's records together
    max_lookup_items: int = 108       # cards (or other list items) in one lookup request
    max_player_id_length: int = 64
    seal_keys: tuple[bytes, ...] = ()      # AES-256 keys: first seals, all open (rotation)
    referee_keys: tuple[str, ...] = ()     # Bearer keys for referee acts (rotation: any)
    # Bearer keys that create hosted events (docs/hosted-events.md; rotation: any)
    director_keys: tuple[str, ...] = ()
    seat_token_keys: tuple[str, ...] = ()  # seat-token HMAC keys: first issues, all verify
    sequence: str = "stateless"            # or "strict": stale or forked states answer 409
    sequence_ttl_seconds: int = 7 * 24 * 3600
    # How long an accepted action's compare-and-set is sent again while Redis does not answer
    # before the answer is 503 (outcome unknown; the same action may be posted again).
    sequence_retry_seconds: float = 2.0
    # Strict sequencing's Redis must keep an append-only file: /readyz is 503 until it does.
    sequence_require_aof: bool = False
    cors_origins: tuple[str, ...] = ()     # browser origins allowed to call (CORS); none: off
    access_log: bool = False               # one JSON line per request ("on" under `serve`)
    log_format: str = "json"               # or "text"
    rules_dir: str | None = None           # where docs/rules/*.md are (default: the checkout's)
    # Answers of at least compress_min_bytes are compressed (zstd, br or gzip, as the client
    # accepts) unless compression is off (a proxy in front compresses): service/app.py.
    compression: bool = True
    compress_min_bytes: int = 1024

    def __post_init__(self) -> None:
        if self.sequence not in ("stateless", "strict"):
            raise SettingsError("CARDREF_SEQUENCE is 'stateless' or 'strict'")
        if self.sequence == "strict" and not (self.state_secrets or self.seal_keys):
            raise SettingsError("CARDREF_SEQUENCE=strict needs signed or sealed states "
                                "(CARDREF_STATE_SECRET or CARDREF_SEAL_KEYS): an unsigned move "
                                "number proves nothing")
        if self.seat_token_keys and not self.seal_keys:
            raise SettingsError("CARDREF_SEAT_TOKEN_KEYS is set but sealing is off: seat "
                                "tokens exist only with CARDREF_SEAL_KEYS")
        if self.log_format not in ("json", "text"):
            raise SettingsError("CARDREF_LOG_FORMAT is 'json' or 'text'")
        # The scheme first: redis_store imports redis-py, which the gunicorn master (checking
        # settings in `card-referee serve`) should not import for one server's URL (it imports
        # ssl, which gevent then patches late in every worker, and warns).
        if self.redis_url and urlsplit(self.redis_url).scheme.lower().endswith("+cluster"):
            from .redis_store import cluster_startup, is_cluster

            if is_cluster(self.redis_url):
                try:
                    cluster_startup(self.redis_url)
                except ValueError as err:
                    raise SettingsError(f"CARDREF_REDIS_URL: {err}") from None
        if self.sequence == "strict" and not self.redis_url:
            raise SettingsError("CARDREF_SEQUENCE=strict keeps move numbers in Redis: set "
                                "CARDREF_REDIS_URL")

    @classmethod
    def from_env(cls, environ: dict | None = None) -> "Settings":
        env = dict(os.environ if environ is None else environ)
        secrets = _secrets(env, "CARDREF_STATE_SECRET")
        return cls(
            state_secrets=secrets,
            redis_url=env.get("CARDREF_REDIS_URL") or None,
            redis_embedded_dir=(env.get(EMBEDDED_REDIS_DIR_ENV) or None)
            if env.get("CARDREF_REDIS_URL") else None,
            max_body_bytes=_int(env, "CARDREF_MAX_BODY_BYTES", 1024 * 1024),
            cache_size=_int(env, "CARDREF_CACHE_SIZE", 4096),
            cache_ttl_seconds=_int(env, "CARDREF_CACHE_TTL_SECONDS", 24 * 3600),
            redis_timeout_seconds=float(env.get("CARDREF_REDIS_TIMEOUT_SECONDS") or 0.2),
            redis_retry_seconds=float(env.get("CARDREF_REDIS_RETRY_SECONDS") or 1.0),
            metrics=(env.get("CARDREF_METRICS", "on").lower() not in ("0", "off", "false", "no")),
            log_level=env.get("CARDREF_LOG_LEVEL", "INFO").upper(),
            max_replay_actions=_int(env, "CARDREF_MAX_REPLAY_ACTIONS", 2000),
            max_record_deals=_int(env, "CARDREF_MAX_RECORD_DEALS", 100),
            max_record_actions=_int(env, "CARDREF_MAX_RECORD_ACTIONS", 10000),
            max_event_actions=_int(env, "CARDREF_MAX_EVENT_ACTIONS", 100000),
            max_lookup_items=_int(env, "CARDREF_MAX_LOOKUP_ITEMS", 108),
            max_player_id_length=_int(env, "CARDREF_MAX_PLAYER_ID_LENGTH", 64),
            seal_keys=_seal_keys(env),
            referee_keys=_secrets(env, "CARDREF_REFEREE_KEYS"),
            director_keys=_secrets(env, "CARDREF_DIRECTOR_KEYS"),
            seat_token_keys=_secrets(env, "CARDREF_SEAT_TOKEN_KEYS"),
            sequence=(env.get("CARDREF_SEQUENCE") or "stateless").strip().lower(),
            sequence_ttl_seconds=_int(env, "CARDREF_SEQUENCE_TTL_SECONDS", 7 * 24 * 3600),
            sequence_retry_seconds=float(env.get("CARDREF_SEQUENCE_RETRY_SECONDS") or 2.0),
            sequence_require_aof=_flag(env, "CARDREF_SEQUENCE_REQUIRE_AOF", False),
            cors_origins=_origins(env),
            access_log=_flag(env, "CARDREF_ACCESS_LOG", False),
            log_format=(env.get("CARDREF_LOG_FORMAT") or "json").strip().lower(),
            rules_dir=env.get("CARDREF_RULES_DIR") or None,
            compression=_flag(env, "CARDREF_COMPRESSION", True),
            compress_min_bytes=_int(env, "CARDREF_COMPRESS_MIN_BYTES", 1024),
        )
