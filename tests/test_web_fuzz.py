"""The analysis board's API fuzzed from its own OpenAPI description (schemathesis): no
answer is a 5xx, and every answer (status, content type, body) matches the description.

Searches are capped at 0.5 s here, so that the examples that reach one stay quick.
"""

from __future__ import annotations

import warnings

import pytest
from hypothesis import HealthCheck, settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import schemathesis
    from schemathesis.checks import not_a_server_error
    from schemathesis.specs.openapi.checks import (
        content_type_conformance,
        response_schema_conformance,
        status_code_conformance,
    )

    from boardproof.web.app import create_app

APP = create_app(max_seconds=0.5)
SCHEMA = schemathesis.openapi.from_asgi("/api/openapi.json", APP,
                                        headers={"Host": "127.0.0.1:8000"})  # fmt: skip
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]  # fmt: skip


@pytest.mark.filterwarnings("ignore")
@SCHEMA.parametrize()
@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))  # fmt: skip
def test_no_server_error_and_every_answer_matches_the_schema(case: schemathesis.Case) -> None:
    case.call_and_validate(headers={"Host": "127.0.0.1:8000"}, checks=CHECKS)
