"""Contract fuzzing with schemathesis: requests generated from our own spec (schema-valid ones
and schema-violating ones), every answer held to schemathesis' whole set of checks -- never a
5xx, response schemas, documented status codes and content types and headers, a
schema-violating request refused, a schema-valid one accepted (save where a JSON schema cannot
say what is valid, below) -- in each trust configuration: plain; signed with a referee key;
sealed with strict sequencing and seat tokens, on the real Redis."""
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import positive_data_acceptance

from engine import registry
from service.app import create_app
from service.config import Settings
from tests.sizing import examples

# Schemathesis' coverage phase builds its boundary cases when the tests are collected, in every
# test worker: for the event document's schema (whole events, every game's reported deal)
# that is over a minute of each worker's time. The events' endpoints are fuzzed from generated
# bodies only; their documents' boundaries have tests of their own (tests/events/,
# tests/service/test_event_endpoints.py, test_hosted_events.py).
CONFIG = SchemathesisConfig.from_dict({"operations": [
    {"include-path-regex": "^/v1/events", "phases": {"coverage": {"enabled": False}}}]})
app = create_app(Settings(metrics=False))
schema = schemathesis.openapi.from_wsgi("/openapi.json", app, config=CONFIG)

# A state the schema allows may still break the invariants no JSON schema can say (every card
# exactly once, a turn that fits the phase); the engine refuses those with 422 state_invalid,
# so "schema-valid is accepted" cannot hold for operations that carry a state. Every other
# check runs on them.
CARRIES_A_STATE = {"/v1/validate", "/validate", "/v1/legal-actions", "/v1/view"}
# Likewise a Manteur declaration ({type, ranks, kickers}) and a Guandan table reading are objects
# with rules no JSON schema says (ranks highest first, a type's rank in range, ...): the engine
# answers 422 naming the field.
CARRIES_A_FREE_OBJECT = {"/v1/games/manteur/check", "/v1/games/manteur/compare",
                         "/v1/games/guandan/classify",
                         # a replay's actions are any game's `Action` in the spec; the engine
                         # refuses another game's action, or one that is not legal in order
                         "/v1/replay",
                         # `{game}` is any registered game (GameId) and the body any game's
                         # deal request: a seat count one game takes another refuses (422)
                         "/v1/games/{game}/deal",
                         # the same at each game's own path: its seat counts and presets
                         *(f"/v1/games/{g.id}/deal" for g in registry.all_games()),
                         # a record's seats, dates, tag values and deals have rules no JSON
                         # schema says (seats a game takes, a real date, no fractions); a
                         # verify-deal request's seat count is its game's
                         "/v1/records/check", "/v1/records/sheet", "/v1/verify-deal",
                         # an event document's cross-references (entrants seated once, ids
                         # alike, records of the table's seats) and a plan's entrants: the
                         # engine answers 422 naming the path
                         "/v1/events/next-round", "/v1/events/reveal-round",
                         "/v1/events/standings", "/v1/events/check", "/v1/events/sheet"}


# Schemathesis calls the app in-process (WSGI), where nothing decodes a compressed answer, while
# it advertises every encoding its libraries know (zstd among them): the answers' content is
# checked as sent uncompressed. Compression has its own tests (tests/service/test_compression.py).
UNCOMPRESSED = {"Accept-Encoding": "identity"}


def _excluded(case) -> list:
    return ([positive_data_acceptance]
            if case.path in CARRIES_A_STATE | CARRIES_A_FREE_OBJECT else [])


@schema.parametrize()
@settings(max_examples=examples(25), deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_honours_the_spec(case):
    case.call_and_validate(headers=UNCOMPRESSED, excluded_checks=_excluded(case))


def _redis_for_strict() -> str:
    """The real Redis strict sequencing needs (tests/conftest.py's redis_url, at import: the
    schemas are built when the module is collected): a local one when it answers, else one
    started for this process."""
    import atexit
    import os

    from tests.redis_server import RedisProcess, answers

    url = os.environ.get("CARDREF_TEST_REDIS_URL") or "redis://127.0.0.1:6379/0"
    if answers(url):
        return url
    server = RedisProcess().start()
    atexit.register(server.close)
    return server.url


REFEREE_KEY = "fuzz-referee-key"
REFEREE = {"Authorization": f"Bearer {REFEREE_KEY}"}
signed_schema = schemathesis.openapi.from_wsgi("/openapi.json", create_app(Settings(
    metrics=False, state_secrets=("fuzz-secret",), referee_keys=(REFEREE_KEY,))), config=CONFIG)
sealed_strict_schema = schemathesis.openapi.from_wsgi("/openapi.json", create_app(Settings(
    metrics=False, seal_keys=(b"k" * 32,), referee_keys=(REFEREE_KEY,), sequence="strict",
    redis_url=_redis_for_strict())), config=CONFIG)

# Signed, sealed and strict add 403s (no signature, a seal that is not ours, no seat token) and
# 409s (a state that is not its game's latest) that a generated state cannot avoid: each is a
# documented refusal, so every check holds there too; a generated state is never accepted,
# which is why "schema-valid is accepted" is left out where a state is carried.


# Events' documents carry no state, so signing and sealing change nothing of their endpoints:
# the plain run fuzzes them (and the hosted events need the Redis only the sealed run has).
# Their bodies are the costliest to generate (a whole event document), so they are not
# generated again where they would test nothing new.
EVENTS = r"^/v1/events"
STATELESS_EVENTS = r"^/v1/events/(next-round|reveal-round|standings|check|sheet)$"


@signed_schema.exclude(path_regex=EVENTS).parametrize()
@settings(max_examples=examples(10), deadline=None, suppress_health_check=list(HealthCheck))
def test_signed_with_a_referee_key_every_operation_honours_the_spec(case):
    case.call_and_validate(headers={**REFEREE, **UNCOMPRESSED}, excluded_checks=_excluded(case))


@sealed_strict_schema.exclude(path_regex=STATELESS_EVENTS).parametrize()
@settings(max_examples=examples(10), deadline=None, suppress_health_check=list(HealthCheck))
def test_sealed_strict_with_seat_tokens_every_operation_honours_the_spec(case):
    case.call_and_validate(headers={**REFEREE, **UNCOMPRESSED}, excluded_checks=_excluded(case))
