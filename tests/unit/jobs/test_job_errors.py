"""What a failed job keeps for clients (``jobs { lastError lastErrorCode }``): a typed code and
a short message of our own; a provider's or driver's exception text (URLs, request ids, keys)
stays in the worker log."""

from __future__ import annotations

from neo4j.exceptions import ServiceUnavailable

from graph.errors import GraphUnavailable
from graph.memory.documents.fetch import UrlRefused
from graph.memory.documents.quota import DocumentQuotaExceeded
from graph.memory.jobs.context import JobFailed, PermanentJobError, job_error
from graph.memory.write.models import PIIRejected
from graph.providers.base import LLMError

SECRET = "https://10.0.0.5/v1 req_abc123 key=sk-live-123"


def test_foreign_exceptions_keep_only_a_code_and_a_fixed_message() -> None:
    for exc, code in [
        (RuntimeError(SECRET), "INTERNAL"),
        (LLMError(SECRET), "LLM_UNAVAILABLE"),
        (GraphUnavailable(SECRET), "STORE_UNAVAILABLE"),
        (ServiceUnavailable(SECRET), "STORE_UNAVAILABLE"),
        (TimeoutError(), "TIMEOUT"),
    ]:
        err = job_error(exc)
        assert err.code == code, exc
        assert "sk-live" not in err.message and "10.0.0.5" not in err.message
        assert len(err.message) <= 200


def test_our_own_descriptions_are_kept_with_their_code() -> None:
    assert job_error(PermanentJobError("payload has no event_id")).code == "BAD_PAYLOAD"
    failed = job_error(JobFailed("extraction failed: LLM unavailable", code="LLM_UNAVAILABLE"))
    assert (
        job_error(JobFailed("extraction failed: the model returned no usable JSON")).code
        == "EXTRACTION_FAILED"
    )
    assert failed.code == "LLM_UNAVAILABLE"
    assert failed.message == "JobFailed: extraction failed: LLM unavailable"
    assert job_error(JobFailed("x" * 2_000)).message.endswith("…")
    assert len(job_error(JobFailed("x" * 2_000)).message) <= 500


def test_refusals_wrapped_by_handlers_keep_a_precise_code() -> None:
    for cause, code in [
        (UrlRefused("refused: private address"), "FETCH_REFUSED"),
        (PIIRejected("holds a secret"), "PII_REJECTED"),
        (DocumentQuotaExceeded("over quota"), "QUOTA_EXCEEDED"),
    ]:
        try:
            raise PermanentJobError(str(cause)) from cause
        except PermanentJobError as exc:
            assert job_error(exc).code == code


def test_every_code_is_in_the_graphql_enum() -> None:
    from gql.types.enums import JobErrorCode
    from graph.memory.jobs.context import JOB_ERROR_CODES

    assert {m.value for m in JobErrorCode} == set(JOB_ERROR_CODES)
