"""``Memory`` exposes every service as a typed attribute, bound to its own executor and config."""

from __future__ import annotations

import dataclasses
from typing import Any, cast

import pytest

from graph.executor import Executor
from graph.memory.services import Admin, Browse, Documents, History
from graph.providers import HashEmbedder
from server.composition import build_memory
from server.settings import Settings


def test_namespaces_are_bound_to_the_memory_they_belong_to() -> None:
    executor = cast(Executor, object())  # never used: nothing here runs a query
    memory = build_memory(
        Settings(document_chunk_chars=999), executor=executor, embedder=HashEmbedder(16)
    )
    assert isinstance(memory.browse, Browse) and memory.browse.executor is executor
    assert isinstance(memory.history, History) and memory.history.executor is executor
    assert isinstance(memory.admin, Admin) and memory.admin.embedder is memory.embedder
    assert isinstance(memory.documents, Documents)
    assert memory.documents.queue is memory.queue
    assert memory.documents.jobs is memory.jobs
    assert memory.documents.jobs.documents.chunk_chars == 999
    with pytest.raises(dataclasses.FrozenInstanceError):
        cast(Any, memory).browse = Browse(executor)
    # a copy with another executor rebinds every namespace (nothing stale is carried over)
    other = cast(Executor, object())
    moved = dataclasses.replace(memory, executor=other)
    assert moved.browse.executor is other and moved.admin.executor is other
