"""The write pipeline's model calls: one session per write (call count, warnings, trace,
token use); each stage's calls and answer schemas live in its package (``extract/llm``,
``resolve/llm``, ``reconcile/llm``); prompts in ``graph/memory/prompts``."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from graph.memory import prompts
from graph.providers import ChatLLM, TokenUsage

__all__ = ["CallFailed", "LLMSession"]


# The calls whose answers carry entity or relation types (the ontology is shown to them).
_TYPED_STAGES = frozenset({"extract_informed", "extract_entities", "extract_relations"})


class CallFailed(Exception):
    """Internal marker: the endpoint failed (timeout/transport), as opposed to bad output."""


@dataclass
class LLMSession:
    """One write call's view of the LLM: accumulates usage, call count, warnings and trace."""

    llm: ChatLLM
    usage: TokenUsage = field(default_factory=TokenUsage)
    calls: int = 0
    warnings: list[str] = field(default_factory=list)
    trace: list[dict[str, Any]] = field(default_factory=list)
    # The agent's ontology as the extraction prompts show it (None: the open built-in one,
    # and the prompts are unchanged).
    ontology: dict[str, Any] | None = None

    async def ask(
        self, stage: str, payload: dict[str, Any], schema: dict[str, Any], timeout_s: float
    ) -> Any:
        """One JSON call. Returns the parsed object, or None for unusable output.

        Raises:
            CallFailed: timeout or transport error (after the provider's own retries).
        """
        self.calls += 1
        system = prompts.load(stage)
        if self.ontology is not None and stage in _TYPED_STAGES:
            payload = {**payload, "ontology": self.ontology}
            system = f"{system}\n\n{prompts.load('ontology_rules')}"
        user = json.dumps(payload, ensure_ascii=False, default=str)
        try:
            resp = await self.llm.complete_json(
                stage, system, user, schema=schema, timeout_s=timeout_s
            )
        except Exception as exc:  # LLMError, timeouts, or a provider bug: the stage degrades
            self.warnings.append(f"{stage}: LLM call failed ({type(exc).__name__}): {exc}"[:300])
            self.trace.append({"llm": stage, "ok": False, "error": "call_failed"})
            raise CallFailed(stage) from exc
        self.usage.add(resp.usage)
        ok = isinstance(resp.data, dict)
        self.trace.append({"llm": stage, "ok": ok, "prompt_version": prompts.version_of(stage)})
        if not ok:
            self.warnings.append(f"{stage}: the model's answer was not a JSON object")
            return None
        return resp.data
