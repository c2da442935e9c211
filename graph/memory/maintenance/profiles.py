"""Entity profile consolidation: an entity's active facts become a fresh ``profile_text``.

Only entities whose newest active fact is newer than ``profile_refreshed_at`` are refreshed.
With an LLM: one call per entity (prompt ``profile.v1``); offline (or when the call fails): a
deterministic summary of the top facts (importance, confidence, recency order).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from graph.executor import Executor
from graph.memory import prompts
from graph.memory.jobs.context import JobContext
from graph.memory.jobs.jobs_config import MaintenanceConfig
from graph.providers import ChatLLM, LLMError

__all__ = ["offline_profile", "profile_handler", "refresh_profiles"]


def offline_profile(name: str, type_: str | None, facts: Sequence[str], max_chars: int) -> str:
    """``"Clara Rezende (person). Clara lives in Porto. Clara works at Acme."`` — the top facts
    in their given order, de-duplicated, cut at a fact boundary within ``max_chars``."""
    head = f"{name} ({type_})." if type_ else f"{name}."
    parts: list[str] = [head]
    seen: set[str] = set()
    for text in facts:
        sentence = " ".join(text.split()).rstrip(".") + "."
        key = sentence.lower()
        if key in seen or len(sentence) < 2:
            continue
        if len(" ".join([*parts, sentence])) > max_chars:
            break
        seen.add(key)
        parts.append(sentence)
    return " ".join(parts)[:max_chars]


async def _llm_profile(
    llm: ChatLLM, name: str, type_: str | None, facts: Sequence[str], max_chars: int
) -> str | None:
    user = json.dumps(
        {"entity": {"name": name, "type": type_}, "facts": [prompts.clip(f) for f in facts]},
        ensure_ascii=False,
    )
    try:
        resp = await llm.complete_json("profile", prompts.load("profile"), user)
    except LLMError:
        return None
    text = resp.data.get("profile") if isinstance(resp.data, dict) else None
    if not isinstance(text, str) or not text.strip():
        return None
    return " ".join(text.split())[:max_chars]


async def refresh_profiles(
    executor: Executor,
    llm: ChatLLM | None,
    agent_id: str,
    config: MaintenanceConfig | None = None,
    *,
    keys: Sequence[str] | None = None,
    force: bool = False,
) -> dict[str, Any]:
    """Refresh the profiles of entities with new facts (or ``keys`` only; ``force`` all).

    Returns:
        ``{"refreshed": n, "llm": n_llm, "offline": n_offline}``.
    """
    cfg = config or MaintenanceConfig()
    rows = await executor.run(
        "consolidation/profile_targets",
        {
            "agent_id": agent_id,
            "keys": list(keys) if keys is not None else None,
            "limit": cfg.profile_batch,
            "top": cfg.profile_top_facts,
            "force": force,
        },
        read=True,
    )
    updates: list[dict[str, str]] = []
    for r in rows:
        facts = [t for t in r["facts"] if t]
        text = None
        if llm is not None:
            text = await _llm_profile(llm, r["name"], r["type"], facts, cfg.profile_max_chars)
        source = "llm" if text else "offline"
        text = text or offline_profile(r["name"], r["type"], facts, cfg.profile_max_chars)
        updates.append({"key": r["key"], "profile": text, "source": source})
    if updates:
        await executor.run("consolidation/set_profiles", {"agent_id": agent_id, "rows": updates})
    n_llm = sum(1 for u in updates if u["source"] == "llm")
    return {"refreshed": len(updates), "llm": n_llm, "offline": len(updates) - n_llm}


async def profile_handler(ctx: JobContext) -> dict[str, Any]:
    """Job kind ``profile`` (subject: an entity key, or none for every entity with news)."""
    subject = ctx.job.subject
    return await refresh_profiles(
        ctx.deps.executor,
        ctx.deps.llm,
        ctx.job.agent_id,
        ctx.deps.config.maintenance,
        keys=[subject] if subject else None,
        force=bool(ctx.payload.get("force")),
    )
