"""OpenTelemetry traces of the pipelines: a span per ``write``, ``retrieve`` and job run, with a
child span per stage carrying the figures people debug by (items, decisions, LLM calls and
tokens, the stage's own trace fields).

Only the OpenTelemetry *API* is used here: with no SDK configured (the default), every call is
the API's no-op and nothing is recorded or sent; :func:`enabled` lets the callers skip even
building attributes. :func:`install` puts a tracer provider in place (``server.tracing_setup``:
the SDK with an OTLP exporter when the operator configures an endpoint; the tests: an in-memory
exporter) and takes it away again.

Write stages are spans with exact bounds (``WriteRun.step`` marks each boundary). Retrieve
stages come from the result's trace (each stage's measured ``ms``): they are laid end to end in
pipeline order from the retrieve's start, so their lengths are measured and their placement is
the pipeline's order (spreading activation, when it starts early, overlaps the signals in reality).

Spans leave the process for a collector the operator runs, often another team's or a vendor's,
so they carry no personal data: figures, and text only in ``TEXT_FIELDS`` (the product's own
words: a status, a strategy, a statement or model name, an id it made). A stage's other text
(the time window read from the question, a model's raw answer, an error message) and whatever a
mapping is keyed by that is not a field name (an entity key such as ``person:ana``) become
counts or are left out; they stay in the verbose trace a caller asks for. The agent id is a
pseudonym (:func:`agent_ref`) unless the operator installs with ``plain_agent_ids``.
"""

from __future__ import annotations

import functools
import hashlib
import re
import time
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, ParamSpec, TypeVar

from opentelemetry import trace
from opentelemetry.trace import Span, Status, StatusCode

__all__ = [
    "TEXT_FIELDS",
    "agent_ref",
    "attributes",
    "enabled",
    "install",
    "record_retrieve_stages",
    "stage_span",
    "traced",
    "traced_job",
    "tracer",
]

P = ParamSpec("P")
R = TypeVar("R")

PREFIX = "hippograph."
_installed: list[trace.Tracer] = []
_plain_agent_ids: list[bool] = [False]


def install(provider: trace.TracerProvider | None, *, plain_agent_ids: bool = False) -> None:
    """Record spans through ``provider`` from now on; None: record nothing again.
    ``plain_agent_ids``: spans carry agent ids as they are instead of :func:`agent_ref`'s
    pseudonym (the operator's choice; back to pseudonyms with the next install)."""
    _installed[:] = [provider.get_tracer("hippograph")] if provider is not None else []
    _plain_agent_ids[0] = plain_agent_ids and provider is not None


def agent_ref(agent_id: str) -> str:
    """The agent id as spans carry it: ``sha256:`` and 16 hex digits of its hash, so one
    agent's spans stay together while its id (often a user's name or e-mail) stays out of the
    collector; the id itself when installed with ``plain_agent_ids``. A pseudonym, not
    anonymity: whoever can guess an id can hash it and compare."""
    if _plain_agent_ids[0]:
        return agent_id
    return "sha256:" + hashlib.sha256(agent_id.encode("utf-8")).hexdigest()[:16]


def enabled() -> bool:
    """Whether spans are recorded (a provider is installed)."""
    return bool(_installed)


def tracer() -> trace.Tracer:
    """The installed provider's tracer (the API's no-op one when none is)."""
    return _installed[0] if _installed else trace.get_tracer("hippograph")


MAX_ATTRIBUTES = 16
# Fields whose text a span may carry: the product's own words, never a user's.
TEXT_FIELDS = frozenset(
    {
        "status",
        "reason",
        "strategy",
        "statement",
        "path",
        "model",
        "mode",
        "event_id",
        "job.id",
        "job.kind",
        "job.agent_id",  # already a pseudonym (agent_ref)
    }
)
_FIELD = re.compile(r"^[a-z][a-z0-9_.]{0,63}$")


def _span_value(key: str, value: Any) -> bool | int | float | str | None:
    """What a span may keep of a scalar field: numbers and flags, text only in TEXT_FIELDS."""
    if isinstance(value, bool | int | float):
        return value
    if isinstance(value, str) and key in TEXT_FIELDS:
        return value
    return None


def attributes(data: Mapping[str, Any], prefix: str = PREFIX) -> dict[str, Any]:
    """Span attributes from a stage's trace fields, kept small (each costs CPU on every call)
    and free of personal data (see the module): figures and flags as they are, text of
    ``TEXT_FIELDS`` only, a mapping's fields one level down (``signals.semantic.rows``) when
    every key is a field name (else its length: an entity key never becomes an attribute
    name), the length of any other collection; at most ``MAX_ATTRIBUTES``."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        if not isinstance(key, str) or not _FIELD.match(key):
            continue
        name = f"{prefix}{key}"
        kept = _span_value(key, value)
        if kept is not None:
            out[name] = kept
        elif isinstance(value, Mapping) and prefix == PREFIX and _fields_only(value):
            for k, v in value.items():
                if (inner := _span_value(k, v)) is not None:
                    out[f"{name}.{k}"] = inner
        elif isinstance(value, Mapping | list | tuple | set | frozenset):
            out[f"{name}.count"] = len(value)
        if len(out) >= MAX_ATTRIBUTES:
            break
    return dict(list(out.items())[:MAX_ATTRIBUTES])


def _fields_only(value: Mapping[Any, Any]) -> bool:
    return all(isinstance(k, str) and _FIELD.match(k) for k in value)


def stage_span(stage: str, start_ns: int, end_ns: int, data: Mapping[str, Any]) -> None:
    """One finished stage as a child of the current span, with its exact bounds."""
    if not enabled():
        return
    span = tracer().start_span(stage, start_time=start_ns, attributes=attributes(data))
    span.end(end_time=end_ns)


def record_retrieve_stages(trace_data: Mapping[str, Any], start_ns: int) -> None:
    """The stages of a retrieve's trace as child spans, laid end to end from ``start_ns``."""
    if not enabled():
        return
    at = start_ns
    for stage, data in trace_data.items():
        if not isinstance(data, Mapping):
            continue
        ms = data.get("ms")
        length = int(float(ms) * 1_000_000) if isinstance(ms, int | float) else 0
        fields = {k: v for k, v in data.items() if k != "ms"}
        span = tracer().start_span(
            f"retrieve.{stage}", start_time=at, attributes=attributes({**fields, "ms": ms or 0})
        )
        span.end(end_time=at + length)
        at += length


def _on_result(span: Span, result: Any, stages_in_trace: bool) -> None:
    """Figures every pipeline result offers: LLM calls and tokens, items returned; the
    stages of its trace when they are not spans already."""
    for name in ("llm_calls", "total_candidates", "success", "mode", "dry_run"):
        value = getattr(result, name, None)
        if isinstance(value, bool | int | float | str):
            span.set_attribute(PREFIX + name, value)
    tokens = getattr(result, "tokens_used", None)
    for part in ("input", "output", "total"):
        if isinstance(getattr(tokens, part, None), int):
            span.set_attribute(f"{PREFIX}tokens.{part}", getattr(tokens, part))
    for name in ("facts", "events", "observations", "facts_added", "facts_updated"):
        value = getattr(result, name, None)
        if isinstance(value, list):
            span.set_attribute(f"{PREFIX}{name}.count", len(value))
    trace_data = getattr(result, "trace", None)
    if stages_in_trace and isinstance(trace_data, Mapping):
        record_retrieve_stages(trace_data, _start_ns(span))


def _start_ns(span: Span) -> int:
    start = getattr(span, "start_time", None)
    return start if isinstance(start, int) else time.time_ns()


def traced(
    name: str, stages_in_trace: bool = False
) -> Callable[[Callable[P, Coroutine[Any, Any, R]]], Callable[P, Coroutine[Any, Any, R]]]:
    """Runs an async pipeline method inside a span named ``name``; its ``agent_id`` argument
    (keyword or first after ``self``; :func:`agent_ref`) and the result's figures become
    attributes, an exception
    marks the span failed (its type only: messages may hold user text). With
    ``stages_in_trace`` the result's trace becomes child spans (:func:`record_retrieve_stages`)."""

    def decorate(fn: Callable[P, Coroutine[Any, Any, R]]) -> Callable[P, Coroutine[Any, Any, R]]:
        @functools.wraps(fn)
        async def wrapped(*args: P.args, **kwargs: P.kwargs) -> R:
            if not enabled():
                return await fn(*args, **kwargs)
            agent = kwargs.get("agent_id", args[1] if len(args) > 1 else None)
            with tracer().start_as_current_span(
                name, record_exception=False, set_status_on_exception=False
            ) as span:
                if isinstance(agent, str):
                    span.set_attribute(PREFIX + "agent_id", agent_ref(agent))
                try:
                    result = await fn(*args, **kwargs)
                except BaseException as exc:
                    span.set_status(Status(StatusCode.ERROR, type(exc).__name__))
                    span.set_attribute(PREFIX + "error", type(exc).__name__)
                    raise
                _on_result(span, result, stages_in_trace)
                return result

        return wrapped

    return decorate


def traced_job(fn: Callable[P, Coroutine[Any, Any, R]]) -> Callable[P, Coroutine[Any, Any, R]]:
    """Runs a worker's job execution (``self, job``) inside a span ``job.<kind>`` with the
    job's id, agent (:func:`agent_ref`) and attempt."""

    @functools.wraps(fn)
    async def wrapped(*args: P.args, **kwargs: P.kwargs) -> R:
        job = args[1] if len(args) > 1 else kwargs.get("job")
        if not enabled() or job is None:
            return await fn(*args, **kwargs)
        fields = {k: getattr(job, k, None) for k in ("id", "kind", "agent_id", "attempts")}
        if isinstance(fields["agent_id"], str):
            fields["agent_id"] = agent_ref(fields["agent_id"])
        with tracer().start_as_current_span(
            f"job.{fields['kind']}",
            attributes=attributes({f"job.{k}": v for k, v in fields.items()}),
            record_exception=False,
            set_status_on_exception=False,
        ) as span:
            try:
                return await fn(*args, **kwargs)
            except BaseException as exc:
                span.set_status(Status(StatusCode.ERROR, type(exc).__name__))
                raise

    return wrapped
