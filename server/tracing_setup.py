"""Traces out of the process: with ``otel_endpoint`` set, the OpenTelemetry SDK records the
pipelines' spans (``graph.tracing``) and a batch processor sends them over OTLP/HTTP to
``<endpoint>/v1/traces``; unset, nothing is installed and tracing costs nothing. The SDK and
exporter come with the ``otel`` extra (``pip install 'hippograph[otel]'``; the test command
installs them). Spans name agents by a pseudonym unless ``trace_plain_agent_ids`` is on
(``graph.tracing.agent_ref``)."""

from __future__ import annotations

import logging
from typing import Any

from graph import tracing
from graph.errors import ConfigError
from server.settings import Settings

__all__ = ["configure_tracing", "stop_tracing"]

log = logging.getLogger("hippograph.tracing")


def configure_tracing(settings: Settings) -> Any:
    """Install the exporting provider when an endpoint is configured; returns it (None when
    tracing stays off), for :func:`stop_tracing`.

    Raises:
        ConfigError: an endpoint is set but the SDK or the OTLP exporter is not installed.
    """
    endpoint = (settings.otel_endpoint or "").rstrip("/")
    if not endpoint:
        return None
    try:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor
    except ImportError as exc:
        raise ConfigError(
            "HIPPOGRAPH_OTEL_ENDPOINT is set but the OpenTelemetry SDK is not installed: "
            "pip install 'hippograph[otel]'"
        ) from exc
    provider = TracerProvider(resource=Resource.create({"service.name": settings.otel_service}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(f"{endpoint}/v1/traces")))
    tracing.install(provider, plain_agent_ids=settings.trace_plain_agent_ids)
    log.info(
        "tracing: spans go to %s/v1/traces as %s (agent ids %s)",
        endpoint,
        settings.otel_service,
        "plain" if settings.trace_plain_agent_ids else "as pseudonyms",
    )
    return provider


def stop_tracing(provider: Any) -> None:
    """Send what is still buffered and stop recording (None: nothing to do)."""
    if provider is None:
        return
    tracing.install(None)
    provider.shutdown()
