"""Context formatting, tiers and the offline token counter."""

from __future__ import annotations

from datetime import UTC, datetime

from graph.memory.read.config import RetrieveConfig
from graph.memory.read.formatter import count_tokens, format_context, snippet
from graph.memory.read.models import EventHit, ObservationHit, ScoredFact


def test_token_counter_examples() -> None:
    assert count_tokens("") == 0
    assert count_tokens("Marcos lives in Porto Alegre.") == 6
    assert count_tokens("internationalization") == 1 + 3  # 20 letters: 1 + ceil(13 / 5)
    assert count_tokens("2024-03-28") == 2 + 1 + 1 + 1 + 1
    long = "Caroline attended an LGBTQ support group recently and found it inspiring."
    assert 12 <= count_tokens(long) <= 16


def test_context_sections_and_no_metadata_in_facts() -> None:
    facts = [
        ScoredFact(id="f-123", text="Lives in Sao Paulo", confidence=0.9),
        ScoredFact(id="f-456", text="Works at Acme Corp\n as a backend engineer"),
    ]
    facts[0].scores.final = 0.87
    obs = [ObservationHit(id="o1", text="Regularly discusses work-life balance", kind=None)]
    events = [
        EventHit(
            id="e1",
            text="Hey, I got promoted to tech lead! " * 20,
            speaker="Ana",
            occurred_at=datetime(2026, 3, 28, 10, 0, tzinfo=UTC),
        )
    ]
    out = format_context(facts, obs, events, RetrieveConfig())
    known, patterns, convos = out.text.split("\n\n")
    assert known == "Known facts:\n- Lives in Sao Paulo\n- Works at Acme Corp as a backend engineer"
    assert "f-123" not in known and "0.87" not in known and "2026" not in known
    assert patterns == "Observed patterns:\n- Regularly discusses work-life balance"
    assert convos.startswith("Relevant conversations:\n- (2026-03-28) Ana: Hey, I got promoted")
    line = convos.splitlines()[1]
    assert len(line) <= len("- (2026-03-28) Ana: ") + 300 and line.endswith("…")
    assert [f.tier for f in facts] == ["hot", "hot"]
    assert out.facts_used == 2 and out.observations_used == 1 and out.events_used == 1


def test_budget_tiers_hot_then_warm_then_dropped() -> None:
    cfg = RetrieveConfig.of(context_max_tokens=100)  # hot 50, warm 30
    facts = [ScoredFact(id=str(i), text=f"fact number {i} " + "word " * 8) for i in range(10)]
    out = format_context(facts, [], [], cfg)
    tiers = [f.tier for f in facts]
    assert tiers[0] == "hot" and "warm" in tiers and tiers[-1] is None
    assert tiers.index("warm") > max(i for i, t in enumerate(tiers) if t == "hot")
    assert out.facts_used == sum(1 for t in tiers if t)


def test_top_fact_always_kept_and_duplicates_dropped() -> None:
    cfg = RetrieveConfig.of(context_max_tokens=50)
    big = ScoredFact(id="a", text="word " * 200)
    dup = ScoredFact(id="b", text="WORD " * 200)
    out = format_context([big, dup], [], [], cfg)
    assert out.facts_used == 1 and big.tier == "hot" and dup.tier is None


def test_observations_capped_at_three() -> None:
    obs = [ObservationHit(id=str(i), text=f"pattern {i}", kind=None) for i in range(6)]
    out = format_context([], obs, [], RetrieveConfig())
    assert out.observations_used == 3 and out.text.startswith("Observed patterns:")


def test_snippet_cuts_on_word_boundary() -> None:
    assert snippet("short  text\n", 300) == "short text"
    cut = snippet("alpha beta gamma delta epsilon", 15)
    assert cut == "alpha beta…" and len(cut) <= 15
