"""Every prompt built from stored facts carries at most ``prompts.FACT_CHARS`` of each fact:
an imported fact may hold 12,000 characters, and a rerank pool, a consolidation cluster or a
profile puts dozens of them in one request. Requests go through the real ``openai`` client to
a scripted endpoint (no database)."""

from __future__ import annotations

import json

from graph.memory import prompts
from graph.memory.maintenance.clusters import FactPoint
from graph.memory.maintenance.consolidate import ConsolidationResult, _word_cluster
from graph.memory.maintenance.profiles import _llm_profile
from graph.memory.read.models import ScoredFact
from graph.memory.read.rerank import rerank
from tests.fakes import ScriptedLLM

LONG = "Ana keeps a very detailed diary. " * 375  # 12,000 characters


def _user(llm: ScriptedLLM) -> str:
    [request] = llm.requests
    return next(m["content"] for m in request["messages"] if m["role"] == "user")


async def test_rerank_sends_each_fact_clipped() -> None:
    llm = ScriptedLLM(replies=[{"scores": [{"i": i, "score": 0.5} for i in range(40)]}])
    pool = [ScoredFact(id=str(i), text=f"{i} {LONG}") for i in range(40)]
    await rerank(llm.chat(), "What does Ana keep?", pool, timeout_s=5.0)
    facts = json.loads(_user(llm))["facts"]
    assert len(facts) == 40
    assert all(len(f["text"]) <= prompts.FACT_CHARS for f in facts)


async def test_consolidation_and_profile_prompts_clip_each_fact() -> None:
    llm = ScriptedLLM(replies=[{"observations": [{"text": "Ana writes a lot", "kind": "pattern"}]}])
    cluster = [FactPoint(str(i), LONG, "person:ana", "Ana", [0.0]) for i in range(8)]
    await _word_cluster(llm.chat(), cluster, ConsolidationResult())
    assert all(len(f["text"]) <= prompts.FACT_CHARS for f in json.loads(_user(llm))["facts"])
    llm = ScriptedLLM(replies=[{"profile": "Ana keeps a diary."}])
    await _llm_profile(llm.chat(), "Ana", "person", [LONG] * 12, 1_200)
    assert all(len(f) <= prompts.FACT_CHARS for f in json.loads(_user(llm))["facts"])
