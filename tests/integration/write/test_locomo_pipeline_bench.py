"""The LoCoMo pipeline-mode benchmark runs end to end on a tiny LoCoMo-shaped file (made here,
not the licensed dataset) and prints every table."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from tests.bench.locomo_pipeline import main

pytestmark = pytest.mark.neo4j


def _dataset(path: Path) -> None:
    turns = [
        ("Ana", "Hi Bruno! Good to see you."),
        ("Bruno", "Hey Ana! Thanks, good to see you too."),
        ("Ana", "I live in Curitiba and work at Acme as a designer."),
        ("Bruno", "That's cool! I adopted a puppy named Rex last week."),
        ("Ana", "Aww, I'm so happy for you."),
    ]
    sample = {
        "sample_id": "tiny-1",
        "conversation": {
            "speaker_a": "Ana",
            "speaker_b": "Bruno",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": s, "dia_id": f"D1:{i}", "text": t} for i, (s, t) in enumerate(turns, 1)
            ],
        },
        "observation": {
            "session_1_observation": {
                "Ana": [["Ana lives in Curitiba and works at Acme as a designer.", "D1:3"]],
                "Bruno": [["Bruno adopted a puppy named Rex last week.", "D1:4"]],
            }
        },
        "qa": [
            {
                "question": "Where does Ana work?",
                "answer": "Acme",
                "evidence": ["D1:3"],
                "category": 1,
            },
            {
                "question": "What is the name of Bruno's puppy?",
                "answer": "Rex",
                "evidence": ["D1:4"],
                "category": 1,
            },
        ],
    }
    path.write_text(json.dumps([sample]), encoding="utf-8")


async def test_pipeline_benchmark_prints_every_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "tiny.json"
    _dataset(data)
    examples, dump = tmp_path / "examples.txt", tmp_path / "facts.json"
    await main(
        argparse.Namespace(
            path=str(data),
            conversations=None,
            turns=None,
            threshold=0.6,
            examples=str(examples),
            dump=str(dump),
            extract_only=False,
            scripted_llm=False,
            graphiti=False,
            graphiti_ports="28687,28474",
        )
    )
    out = capsys.readouterr().out
    assert "Threshold sweep" in out and "<- used" in out
    assert "precision 1.000, recall 1.000" in out  # small talk gave no fact
    assert "turns with no fact 0.600" in out
    assert "pipeline R@10 / gold R@10 = " in out
    rows = [line.split() for line in out.splitlines() if line.startswith("tiny-1 ")]
    assert rows[0][:4] == ["tiny-1", "1.000", "1.000", "0.60"]  # precision, recall, facts/turn
    assert rows[1][:2] == ["tiny-1", "2"]  # 2 questions; R@10 pipeline, gold, ratio
    # offline: the event, then one transaction (reads, decisions, writes); no context read
    assert "Neo4j round trips 2.00" in out and "LLM calls 0.00" in out
    facts = json.loads(dump.read_text(encoding="utf-8"))
    assert sorted(f["text"] for f in facts) == [
        "Ana lives in Curitiba.",
        "Ana works at Acme as a designer.",
        "Bruno adopted a puppy named Rex last week.",
    ]
    assert "# 20 gold observations" in examples.read_text(encoding="utf-8")


async def test_scripted_llm_mode_prints_the_cost_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The LLM path against the scripted loopback endpoint: one call per message, the per-
    message cost table, and the same stored facts as the offline extractor serves them."""
    data = tmp_path / "tiny.json"
    _dataset(data)
    dump = tmp_path / "facts.json"
    await main(
        argparse.Namespace(
            path=str(data),
            conversations=None,
            turns=None,
            threshold=0.6,
            examples=str(tmp_path / "ex.txt"),
            dump=str(dump),
            extract_only=False,
            scripted_llm=True,
            graphiti=False,
            graphiti_ports="28687,28474",
        )
    )
    out = capsys.readouterr().out
    assert "LLM calls 1.00" in out and "Neo4j round trips 5.00" in out
    assert "LLM cost per message (scripted endpoint, 5 messages" in out
    row = next(line for line in out.splitlines() if line.startswith("hippograph "))
    assert row.split()[1] == "1.00"  # calls per message
    assert "hippograph calls per message by request: extract_informed 1.00" in out
    facts = json.loads(dump.read_text(encoding="utf-8"))
    assert sorted(f["text"] for f in facts) == [
        "Ana lives in Curitiba.",
        "Ana works at Acme as a designer.",
        "Bruno adopted a puppy named Rex last week.",
    ]
