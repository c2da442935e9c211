from __future__ import annotations

import math

import httpx
import pytest

from graph.providers import HashEmbedder, LLMError
from graph.providers.embedders import length_batches
from graph.providers.openai_chat import parse_json_text
from tests.fakes import ScriptedLLM


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": 1}', {"a": 1}),
        ('```json\n{"a": 1}\n```', {"a": 1}),
        ('<think>hmm {"no": 0}</think>{"a": 1}', {"a": 1}),
        ('Sure! Here it is: {"a": [1, 2]} hope it helps', {"a": [1, 2]}),
        ("not json at all", None),
        ("", None),
    ],
)
def test_parse_json_text(text: str, expected: object) -> None:
    assert parse_json_text(text) == expected


async def test_hash_embedder_is_deterministic_and_normalised() -> None:
    emb = HashEmbedder(64)
    a, b, c = await emb.embed(
        ["I live in Curitiba", "I live in Curitiba", "quantum chromodynamics"]
    )
    assert a == b
    assert math.isclose(sum(x * x for x in a), 1.0, rel_tol=1e-9)
    sim = lambda u, v: sum(x * y for x, y in zip(u, v, strict=True))  # noqa: E731
    assert sim(a, b) > sim(a, c)


async def test_openai_chat_parses_json_and_counts_tokens() -> None:
    llm = ScriptedLLM(replies=[{"facts": ["x"]}])
    resp = await llm.chat().complete_json("extraction", "system", "user")
    assert resp.data == {"facts": ["x"]}
    assert resp.usage.input == 100 and resp.usage.output == 50 and resp.usage.calls == 1
    assert llm.requests[0]["model"] == "scripted-extraction"
    assert llm.requests[0]["response_format"] == {"type": "json_object"}


async def test_openai_chat_garbage_gives_none_data() -> None:
    llm = ScriptedLLM(replies=["I cannot comply"])
    resp = await llm.chat().complete_json("extraction", "s", "u")
    assert resp.data is None and resp.text == "I cannot comply"


async def test_openai_chat_retries_timeouts_then_raises() -> None:
    llm = ScriptedLLM(replies=[httpx.ReadTimeout("slow"), httpx.ReadTimeout("slow")])
    with pytest.raises(LLMError):
        await llm.chat(max_retries=1).complete_json("extraction", "s", "u")
    assert llm.calls == 2


async def test_openai_chat_recovers_after_one_timeout() -> None:
    llm = ScriptedLLM(replies=[httpx.ReadTimeout("slow"), {"ok": True}])
    resp = await llm.chat(max_retries=1).complete_json("extraction", "s", "u")
    assert resp.data == {"ok": True} and llm.calls == 2


def test_length_batches_keep_short_texts_apart_from_long_ones() -> None:
    # ten 5-token names and five 30-token facts: one batch computes 15 × 30 slots, two 200
    assert length_batches([5] * 10 + [30] * 5, 32) == [range(0, 10), range(10, 15)]
    # nearly equal lengths share a batch (a model call costs more than a little padding)
    assert length_batches([10, 11, 12, 12], 32) == [range(0, 4)]
    # at most max_rows rows per batch, every text in exactly one batch, in order
    batches = length_batches([7] * 70, 32)
    assert len(batches) == 3 and all(len(b) <= 32 for b in batches)
    assert [i for b in batches for i in b] == list(range(70))
    assert length_batches([], 32) == []
