"""Load the demo story into Neo4j: structured ``remember``, offline ``write`` turns, a
retraction, and duplicate detection. Idempotent: a completed load leaves a marker and a second
run changes nothing; an interrupted load resumes (each step is idempotent on its own). A demo
loaded by another seed version, or embedded with another model than the process's, is deleted
and loaded anew."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import dataclass, field, replace

from graph.agent_deletion import delete_agent
from graph.errors import NotFound
from graph.memory.facade import Memory
from graph.memory.maintenance.duplicates import detect_duplicates
from graph.memory.spaces import embedder_name, recorded_space
from graph.progress import progress_bar
from seed import story

__all__ = ["SeedReport", "load_demo", "local_id"]

_NAMESPACE = uuid.UUID("6f0e2b8a-3c4d-4f5e-9a1b-2c3d4e5f6a7b")


def local_id(agent_id: str, name: str | None) -> str | None:
    """The UUID of a story-local id for one agent (stable, so re-runs find the same nodes)."""
    return str(uuid.uuid5(_NAMESPACE, f"{agent_id}|{name}")) if name else None


@dataclass
class SeedReport:
    agent_id: str
    already_loaded: bool = False
    steps: list[str] = field(default_factory=list)


async def load_demo(
    memory: Memory, agent_id: str = story.AGENT, *, progress: bool = True
) -> SeedReport:
    """Load the demo agent (offline: no LLM is used even when one is configured; the write
    settings — mode, freeze, PII — are the process's, like every other write path)."""
    executor = memory.executor
    report = SeedReport(agent_id)
    state = await executor.run("seed/state", {"agent_id": agent_id}, read=True)
    model = await recorded_space(executor, agent_id)
    current = embedder_name(memory.embedder)
    if state and state[0]["version"] == story.SEED_VERSION and model in (None, current):
        report.already_loaded = True
        return report
    if state or model not in (None, current):
        # Another seed version, or vectors of another model: the demo is the story alone,
        # so it is loaded anew rather than mixed with what an older load extracted.
        await delete_agent(executor, agent_id)
        report.steps.append("removed the earlier demo load")
    writer = memory.offline_writer()

    async def background() -> None:
        await memory.admin.remember(
            agent_id,
            entities=story.ENTITIES,
            facts=[
                replace(
                    f,
                    id=local_id(agent_id, f.id),
                    event_ids=[str(local_id(agent_id, e)) for e in f.event_ids],
                )
                for f in story.FACTS
            ],
            relations=[
                replace(r, evidence_fact_id=local_id(agent_id, r.evidence_fact_id))
                for r in story.RELATIONS
            ],
            events=[replace(e, id=local_id(agent_id, e.id)) for e in story.EVENTS],
        )

    def turn_step(turn: story.Turn) -> Callable[[], Awaitable[None]]:
        async def step() -> None:
            await writer.write(
                agent_id,
                turn.text,
                story.SPEAKER,
                occurred_at=turn.at,
                thread_id=turn.thread,
                idempotency_key=turn.key,
            )

        return step

    async def retraction() -> None:
        with suppress(NotFound):  # already retracted by an earlier, interrupted run
            await memory.admin.forget(
                agent_id,
                str(local_id(agent_id, story.RETRACTED_FACT_ID)),
                "Guilherme corrected it: Helena lives in Braga, not Porto",
            )

    async def duplicates() -> None:
        # Never auto-merge here: the planted misspelling must stay open for review.
        never_auto = replace(memory.jobs.maintenance, merge_auto_threshold=1.01)
        await detect_duplicates(executor, agent_id, never_auto)

    async def mark() -> None:
        await executor.run("seed/mark", {"agent_id": agent_id, "version": story.SEED_VERSION})

    steps: list[tuple[str, Callable[[], Awaitable[None]]]] = [("background", background)]
    steps += [(f"chat {t.key}", turn_step(t)) for t in story.SESSIONS]
    steps += [("retraction", retraction), ("duplicates", duplicates), ("marker", mark)]
    for name, step in progress_bar(
        steps, desc=f"seeding agent {agent_id!r}", unit="step", disable=not progress
    ):
        await step()
        report.steps.append(name)
    return report
