"""Contract fuzzing with schemathesis: requests generated from our own spec (schema-valid ones
and schema-violating ones), every answer held to schemathesis' whole set of checks -- never a
5xx, response schemas, documented status codes and content types and headers, a
schema-violating request refused, a schema-valid one accepted (save where a JSON schema cannot
say what is valid, below) -- in each trust configuration: plain; signed with a referee key;
sealed with strict sequencing and seat tokens, on the real Redis."""
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig
from schemathesis.pytest import _test_builder
from schemathesis.specs.openapi.checks import positive_data_acceptance

from engine import registry
from service.app import create_app
from service.config import Settings
from tests.sizing import examples


def _built_when_run(build):
    """Schemathesis builds each operation's test, its coverage phase's boundary cases among them
    (47,000 in the plain run alone, the better part of a minute of one core), when the tests
    are collected, and every xdist worker collects every test: each worker paid for all of them
    though it runs half. This builds an operation's test when it runs instead, in the worker
    that runs it: the same test from the same arguments (schemathesis is pinned in
    requirements-dev.lock; its collector calls this module's build_operation_test by name).
    Schemathesis' own hooks read its marks off the item's function when the test ends, so
    they are copied there once built."""
    def build_operation_test(**kwargs):
        built = None

        def run_operation_test():
            nonlocal built
            if built is None:
                built = build(**kwargs)
                vars(run_operation_test).update(
                    {k: v for k, v in vars(built).items() if k == "_schemathesis_metadata"})
            built()
        return run_operation_test
    return build_operation_test


# schemathesis' collector imports build_operation_test from here as it builds each item
_test_builder.build_operation_test = _built_when_run(_test_builder.build_operation_test)

# Schemathesis' coverage phase: for the event document's schema (whole events, every game's
# reported deal) it is over a minute of building. The events' endpoints are fuzzed from generated
# bodies only; their documents' boundaries have tests of their own (tests/events/,
# tests/service/test_event_endpoints.py, test_hosted_events.py).
EVENTS = r"^/v1/events"
# A state's schema (every game's, one `oneOf`: thousands of boundary cases) is the same in the
# bodies of /v1/validate, its unversioned alias, /v1/legal-actions and /v1/view, and a record's in
# /v1/records/check and /v1/records/sheet: each schema's boundary cases are sent once, to
# /v1/validate and /v1/records/check (the others' own fields are fuzzed from generated bodies).
SAME_SCHEMA_AGAIN = r"^/(validate|v1/legal-actions|v1/view|v1/records/sheet)$"
CONFIG = SchemathesisConfig.from_dict({"operations": [
    {"include-path-regex": f"{EVENTS}|{SAME_SCHEMA_AGAIN}",
     "phases": {"coverage": {"enabled": False}}}]})
# The boundary cases are built from the spec alone, which is the same in every trust
# configuration, so the signed and sealed runs would send the very cases the plain run sends.
# Where a request carries a state or a record (the largest schemas: about 40,000 boundary cases
# a run, built at collection in every worker, then sent) those runs change nothing the boundary
# cases reach: the schema's refusals are the plain run's, and every schema-valid generated state
# is refused as unsigned or unsealed (403) before the engine sees it, while a record carries no
# state at all ("the same in every trust mode", service/api/records.py). Those operations are
# fuzzed there from generated requests; every other operation keeps its boundary cases in every
# run (a deal's answer is signed or sealed there, a boundary seat count among them).
STATE_OR_RECORD = r"^/(v1/)?(validate|legal-actions|view|replay|records/(check|sheet))$"
TRUSTED_CONFIG = SchemathesisConfig.from_dict({"operations": [
    {"include-path-regex": f"{EVENTS}|{STATE_OR_RECORD}",
     "phases": {"coverage": {"enabled": False}}}]})
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
    metrics=False, state_secrets=("fuzz-secret",), referee_keys=(REFEREE_KEY,))),
    config=TRUSTED_CONFIG)
sealed_strict_schema = schemathesis.openapi.from_wsgi("/openapi.json", create_app(Settings(
    metrics=False, seal_keys=(b"k" * 32,), referee_keys=(REFEREE_KEY,), sequence="strict",
    redis_url=_redis_for_strict())), config=TRUSTED_CONFIG)

# Signed, sealed and strict add 403s (no signature, a seal that is not ours, no seat token) and
# 409s (a state that is not its game's latest) that a generated state cannot avoid: each is a
# documented refusal, so every check holds there too; a generated state is never accepted,
# which is why "schema-valid is accepted" is left out where a state is carried.


# Events' documents carry no state, so signing and sealing change nothing of their endpoints:
# the plain run fuzzes them (and the hosted events need the Redis only the sealed run has).
# Their bodies are the costliest to generate (a whole event document), so they are not
# generated again where they would test nothing new.
STATELESS_EVENTS = r"^/v1/events/(next-round|reveal-round|standings|check|sheet)$"


SIGNED_FUZZED = signed_schema.exclude(path_regex=EVENTS)
SEALED_FUZZED = sealed_strict_schema.exclude(path_regex=STATELESS_EVENTS)


@SIGNED_FUZZED.parametrize()
@settings(max_examples=examples(10), deadline=None, suppress_health_check=list(HealthCheck))
def test_signed_with_a_referee_key_every_operation_honours_the_spec(case):
    case.call_and_validate(headers={**REFEREE, **UNCOMPRESSED}, excluded_checks=_excluded(case))


@SEALED_FUZZED.parametrize()
@settings(max_examples=examples(10), deadline=None, suppress_health_check=list(HealthCheck))
def test_sealed_strict_with_seat_tokens_every_operation_honours_the_spec(case):
    case.call_and_validate(headers={**REFEREE, **UNCOMPRESSED}, excluded_checks=_excluded(case))


def _labels(fuzzed, phase: str | None = None) -> set[str]:
    """The operations a run fuzzes: all, or those with `phase` on."""
    return {op.label for op in (result.ok() for result in fuzzed.get_all_operations())
            if phase is None or getattr(fuzzed.config.phases_for(operation=op), phase).enabled}


def test_every_operation_of_the_spec_is_fuzzed_in_each_run_it_is_meant_for():
    """What each run fuzzes, with generated requests (the fuzzing phase) and with boundary ones
    (the coverage phase): the filters and configurations above are regular expressions, and an
    operation one of them drops by mistake would simply stop being fuzzed."""
    spec = {f"{method.upper()} {path}" for path, item in schema.raw_schema["paths"].items()
            for method in item if method in {"get", "put", "post", "delete", "patch"}}
    events = {label for label in spec if label.split(" ")[1].startswith("/v1/events")}
    stateless_events = {f"POST /v1/events/{name}"
                        for name in ("next-round", "reveal-round", "standings", "check", "sheet")}
    state_or_record = {"POST /v1/validate", "POST /validate", "POST /v1/legal-actions",
                       "POST /v1/view", "POST /v1/replay", "POST /v1/records/check",
                       "POST /v1/records/sheet"}
    assert stateless_events | state_or_record <= spec
    assert len(events - stateless_events) >= 10, "the hosted events' operations"

    same_schema_again = {"POST /validate", "POST /v1/legal-actions", "POST /v1/view",
                         "POST /v1/records/sheet"}
    assert _labels(schema) == _labels(schema, "fuzzing") == spec
    assert _labels(schema, "coverage") == spec - events - same_schema_again
    assert _labels(SIGNED_FUZZED) == _labels(SIGNED_FUZZED, "fuzzing") == spec - events
    assert _labels(SIGNED_FUZZED, "coverage") == spec - events - state_or_record
    assert _labels(SEALED_FUZZED) == _labels(SEALED_FUZZED, "fuzzing") == spec - stateless_events
    assert _labels(SEALED_FUZZED, "coverage") == spec - events - state_or_record
