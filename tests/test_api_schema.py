"""Property-based run of every API operation against its own OpenAPI schema: never a 5xx.

Schemathesis generates valid and invalid requests from ``/openapi.json`` (bodies, query and
path parameters, edge-case strings) and sends them to the app in-process, over the same small
embedded index and real retriever/verifier as ``test_api.py``. Examples are bounded so the run
stays within seconds; ``WIKICHECK_SCHEMA_EXAMPLES`` raises the count for a longer hunt.
"""

from __future__ import annotations

import os

import pytest

schemathesis = pytest.importorskip("schemathesis")

# property-based runs over every operation, with the models loaded: the full suite's (make test)
pytestmark = pytest.mark.slow

from hypothesis import HealthCheck, given, settings  # noqa: E402
from schemathesis import GenerationMode  # noqa: E402
from schemathesis.checks import (  # noqa: E402
    negative_data_rejection,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from tests.api_fixtures import shared_services  # noqa: E402
from wikicheck.api.app import Limits, create_app  # noqa: E402

EXAMPLES = int(os.environ.get("WIKICHECK_SCHEMA_EXAMPLES", "15"))


@pytest.fixture(scope="module")
def app():
    return create_app(*shared_services(), limits=Limits(max_batch=3))


OPERATIONS = [
    ("GET", "/health"),
    ("POST", "/retrieve"),
    ("POST", "/retrieve/batch"),
    ("POST", "/verify"),
    ("POST", "/verify/batch"),
    ("GET", "/search"),
    ("GET", "/elements/{element_id}"),
    ("GET", "/pages/{title}"),
    ("GET", "/"),  # the page for people: HTML, documented as such
    ("GET", "/view/{title}"),
    ("GET", "/static/{name}"),
]
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    response_schema_conformance,
    negative_data_rejection,
]


@pytest.fixture(scope="module")
def api_schema(app):
    return schemathesis.openapi.from_asgi("/openapi.json", app)


def test_every_operation_is_covered(api_schema):
    ops = {(op.method.upper(), op.path) for op in (r.ok() for r in api_schema.get_all_operations())}
    assert ops == set(OPERATIONS)


# (schemathesis' own pytest integration reads a private pytest attribute that pytest 9
# removed, so the cases are drawn from its strategies under plain hypothesis instead.)
# Every operation with valid then invalid data (/health and / take no input: nothing to
# invalidate).
CASES = [
    pytest.param(m, p, mode, id=f"{m} {p} {mode.value}")
    for m, p in OPERATIONS
    for mode in GenerationMode
    if not (p in ("/health", "/") and mode is GenerationMode.NEGATIVE)
]


@pytest.mark.parametrize(("method", "path", "mode"), CASES)
def test_no_server_error_and_responses_match_the_schema(api_schema, method, path, mode):
    operation = api_schema[path][method]

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
    )
    def run(case):
        case.call_and_validate(checks=CHECKS)

    run()
