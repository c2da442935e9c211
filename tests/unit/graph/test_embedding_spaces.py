"""The pure parts of embedding-space records (graph/memory/spaces.py, graph/memory/reembed.py)
and the code clients see for a mismatch."""

from __future__ import annotations

import pytest

from gql.errors import ErrorCode, api_error_from
from graph.errors import EmbedderMismatch
from graph.memory.reembed import vector_text
from graph.memory.spaces import check_space
from graph.memory.text import event_embedding_text


def test_no_record_or_same_model_passes() -> None:
    check_space("a", None, "all-MiniLM-L6-v2-int8")
    check_space("a", "all-MiniLM-L6-v2-int8", "all-MiniLM-L6-v2-int8")


def test_another_model_is_a_typed_error_naming_both_and_the_fix() -> None:
    with pytest.raises(EmbedderMismatch) as info:
        check_space("agent-7", "all-MiniLM-L6-v2-int8", "multilingual-e5-small")
    msg = str(info.value)
    assert "all-MiniLM-L6-v2-int8" in msg and "multilingual-e5-small" in msg
    assert "hippograph reembed --agent agent-7" in msg


def test_mismatch_reaches_clients_with_its_own_code() -> None:
    err = api_error_from(EmbedderMismatch("a", "old-model", "new-model"))
    assert err is not None and err.code is ErrorCode.EMBEDDER_MISMATCH
    assert err.as_extensions()["agentEmbedder"] == "old-model"


def test_vector_text_matches_the_write_paths() -> None:
    assert vector_text("Event", "I moved.", "Ana") == event_embedding_text("I moved.", "Ana")
    assert vector_text("Fact", "Ana moved to Porto", None) == "Ana moved to Porto"
    assert vector_text("Entity", "Ana", None) == "Ana"
    assert vector_text("Chunk", None, None) == ""
