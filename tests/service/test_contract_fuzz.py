"""Contract fuzzing with schemathesis: requests generated from our own spec, every answer checked
against it (documented status codes, content types, response schemas) and never a 500."""
import schemathesis
from hypothesis import HealthCheck, settings

from service.app import create_app
from service.config import Settings

app = create_app(Settings(metrics=False))
schema = schemathesis.openapi.from_wsgi("/openapi.json", app)


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_honours_the_spec(case):
    case.call_and_validate()
