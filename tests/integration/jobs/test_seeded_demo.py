"""Consolidation of the seeded demo story (loaded under a test agent): retrieve then shows an
observed pattern, and the planted near-duplicate "Guilherme Maturanna" is a merge candidate."""

from __future__ import annotations

import pytest

from graph.executor import Executor
from graph.memory.browse import merge_candidates
from graph.memory.jobs import JobDeps, JobSpec
from graph.memory.jobs.worker import Worker
from graph.memory.read import Retriever
from graph.providers import Embedder
from seed.loader import load_demo
from server.composition import build_memory, default_handlers
from server.settings import Settings

pytestmark = pytest.mark.neo4j


async def test_consolidated_demo_has_patterns_and_planted_duplicate(
    executor: Executor, embedder: Embedder, agent_id: str, fast_deps: JobDeps
) -> None:
    await load_demo(
        build_memory(Settings(), executor=executor, embedder=embedder), agent_id, progress=False
    )
    deps = JobDeps(
        executor=executor, queue=fast_deps.queue, embedder=embedder, config=fast_deps.config
    )
    kinds = ["consolidate", "dedup_entities"]
    await deps.queue.enqueue_many([JobSpec(kind=k, agent_id=agent_id) for k in kinds])
    worker = Worker(deps, default_handlers(with_extraction=False), agent_id=agent_id)
    assert await worker.run_until_idle() == len(kinds)

    result = await Retriever(executor, embedder, None).retrieve(
        agent_id, "Where does Guilherme live and work now?"
    )
    assert result.observations, "no observed pattern after consolidation"
    assert "Observed patterns:" in result.context

    candidates = await merge_candidates(executor, agent_id)
    pairs = [{c.keep_key, c.drop_key} for c in candidates]
    assert any(
        any("maturanna" in key for key in pair) and any(key.endswith("maturana") for key in pair)
        for pair in pairs
    ), pairs
