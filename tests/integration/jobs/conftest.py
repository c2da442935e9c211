"""Helpers for job-queue integration tests: a queue, deps and a per-test job kind."""

from __future__ import annotations

import uuid

import pytest

from graph.executor import Executor
from graph.memory.jobs import JobDeps, JobQueue, JobsConfig, WorkerConfig


@pytest.fixture
def kind() -> str:
    """A job kind no other test (or test run) uses, so workers only see this test's jobs."""
    return f"t_{uuid.uuid4().hex[:10]}"


@pytest.fixture
def queue(executor: Executor) -> JobQueue:
    return JobQueue(executor)


@pytest.fixture
def fast_deps(executor: Executor, queue: JobQueue) -> JobDeps:
    cfg = JobsConfig(
        worker=WorkerConfig(
            poll_interval_s=0.05, lease_timeout_s=300.0, reaper_interval_s=0.5, shutdown_grace_s=1.0
        )
    )
    return JobDeps(executor=executor, queue=queue, config=cfg)
