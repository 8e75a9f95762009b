"""Contract fuzzing with schemathesis: requests generated from our own spec, every answer checked
against it (documented status codes, content types, response schemas) and never a 500."""
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

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
                         "/v1/games/{game}/deal"}


@schema.parametrize()
@settings(max_examples=examples(25), deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_honours_the_spec(case):
    excluded = ([positive_data_acceptance]
                if case.path in CARRIES_A_STATE | CARRIES_A_FREE_OBJECT else [])
    case.call_and_validate(excluded_checks=excluded)
