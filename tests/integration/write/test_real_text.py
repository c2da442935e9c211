"""Real text never fails a write: a passage that used to crash the planner, and a fixed sample
of the multi-hop corpora and LoCoMo turns (every N-th item) through the offline pipeline."""

from __future__ import annotations

import pytest

from graph.executor import Executor
from graph.memory.write import WritePipeline
from graph.providers import Embedder
from tests.bench.corpus_texts import BENCH, recorded_extractions, sample
from tests.bench.sweep import replaying, sweep
from tests.fakes import ScriptedLLM

pytestmark = pytest.mark.neo4j

# A corpus passage ("TNT equivalent") whose facts have subjects the extractor does not resolve;
# they fall back to the speaker, who is not mentioned in the text.
TNT = (
    "6998150000000000000 ♠ 1.5 × 10 -- 6998200000000000000 ♠ 2 × 10 17.4 -- 23.2 GWh The "
    "Little Boy atomic bomb dropped on Hiroshima on August 6, 1945, exploded with an energy of "
    "about 15 kilotons of TNT (63 TJ), and the Fat Man atomic bomb dropped on Nagasaki on "
    "August 9, 1945, exploded with an energy of about 20 kilotons of TNT (84 TJ). The modern "
    "nuclear weapons in the United States arsenal range in yield from 0.3 kt (1.3 TJ) to "
    "1.2 Mt (5.0 PJ) equivalent, for the B83 strategic bomb."
)


async def test_a_passage_whose_subjects_fall_back_to_an_unmentioned_speaker(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    result = await WritePipeline(executor, embedder, None).write(agent_id, TNT, "narrator")
    assert result.success, result.error
    assert result.facts_added
    # The facts about the speaker are kept, not dropped: the speaker is an entity of the plan.
    assert not [w for w in result.warnings if "dropped" in w], result.warnings
    assert any(f.subject_key == "person:narrator" for f in result.facts_added)


async def test_a_subject_named_with_a_hint_is_not_taken_for_the_speaker(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    """A model lists "Carol" but names the subject "Carol (Rafael's girlfriend)": the fact and
    the relation are Carol's, not Rafael's (the fallback for a name resolved to nothing)."""
    answer = {
        "entities": [
            {"name": "Carol", "type": "person", "aliases": []},
            {"name": "Jazz", "type": "thing", "aliases": []},
        ],
        "facts": [
            {
                "subject": "Carol (Rafael's girlfriend)",
                "text": "Carol loves jazz.",
                "confidence": 0.9,
                "action": "ADD",
                "kind": "fact",
                "importance_category": "preference",
            }
        ],
        "relations": [{"source": "Carol (Rafael's girlfriend)", "type": "likes", "target": "Jazz"}],
    }
    llm = ScriptedLLM(by_stage={"Stage: extract_informed": [answer]}, replies=["not json"] * 20)
    result = await WritePipeline(executor, embedder, llm.chat()).write(
        agent_id, "My girlfriend Carol loves jazz.", "Rafael"
    )
    assert result.success, result.error
    assert [f.subject_key for f in result.facts_added] == ["person:carol"]
    assert [(r["source_key"], r["target_key"]) for r in result.relations] == [
        ("person:carol", "thing:jazz")
    ]


@pytest.mark.skipif(not BENCH.is_dir(), reason=f"no benchmark data beside the repository ({BENCH})")
async def test_a_fixed_sample_of_real_text_writes_without_failure(
    executor: Executor, embedder: Embedder
) -> None:
    # 38 MuSiQue and 20 HotpotQA passages, 56 LoCoMo turns; `python -m tests.bench.sweep`
    # writes every item (docs/benchmarks.md)
    items = sample(every=50)
    assert len(items) > 100
    result = await sweep(executor, WritePipeline(executor, embedder, None), items, progress=False)
    assert result.written == len(items) and result.facts >= len(items)
    assert not result.failures, {k: (n, result.first[k]) for k, n in result.failures.items()}


@pytest.mark.skipif(not BENCH.is_dir(), reason=f"no benchmark data beside the repository ({BENCH})")
async def test_a_real_models_recorded_extractions_write_without_failure(
    executor: Executor, embedder: Embedder
) -> None:
    """MuSiQue passages through the LLM path, the extraction call answered (through the real
    openai client) with a real model's recorded entities and triples; other calls get text
    that is not JSON."""
    items = sample(every=50, corpora=("musique",))
    recorded = recorded_extractions()
    assert sum(item.text in recorded for item in items) > 30
    result = await sweep(executor, replaying(executor, embedder, recorded), items, progress=False)
    assert result.written == len(items) and result.facts >= len(items)
    assert not result.failures, {k: (n, result.first[k]) for k, n in result.failures.items()}
