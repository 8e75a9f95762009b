"""Contract fuzzing with schemathesis: requests generated from our own spec, every answer checked
against it (documented status codes, content types, response schemas) and never a 500; then
the same requests under every trust configuration (signed with a referee key; sealed with
strict sequencing and seat tokens, on the real Redis), never a 5xx."""
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance
from schemathesis.checks import not_a_server_error

from service.app import create_app
from service.config import Settings
from tests.sizing import examples

app = create_app(Settings(metrics=False))
schema = schemathesis.openapi.from_wsgi("/openapi.json", app)

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
                         # a record's seats, dates, tag values and deals have rules no JSON
                         # schema says (seats a game takes, a real date, no fractions); a
                         # verify-deal request's seat count is its game's
                         "/v1/records/check", "/v1/records/sheet", "/v1/verify-deal"}


@schema.parametrize()
@settings(max_examples=examples(25), deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_honours_the_spec(case):
    excluded = ([positive_data_acceptance]
                if case.path in CARRIES_A_STATE | CARRIES_A_FREE_OBJECT else [])
    case.call_and_validate(excluded_checks=excluded)



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
    metrics=False, state_secrets=("fuzz-secret",), referee_keys=(REFEREE_KEY,))))
sealed_strict_schema = schemathesis.openapi.from_wsgi("/openapi.json", create_app(Settings(
    metrics=False, seal_keys=(b"k" * 32,), referee_keys=(REFEREE_KEY,), sequence="strict",
    redis_url=_redis_for_strict())))

# Signed, sealed and strict add 403s and 409s that a generated state cannot avoid; what must
# hold in every configuration is that nothing is a server error (strict's 503 needs Redis down).


@signed_schema.parametrize()
@settings(max_examples=examples(3), deadline=None, suppress_health_check=list(HealthCheck))
def test_signed_with_a_referee_key_every_operation_answers_no_5xx(case):
    case.call_and_validate(checks=[not_a_server_error], headers=REFEREE)


@sealed_strict_schema.parametrize()
@settings(max_examples=examples(3), deadline=None, suppress_health_check=list(HealthCheck))
def test_sealed_strict_with_seat_tokens_every_operation_answers_no_5xx(case):
    case.call_and_validate(checks=[not_a_server_error], headers=REFEREE)
