"""The grouped ``RetrieveConfig``: every default pinned by its flat option name, the ranking
and formatted context those defaults give a fixed set of candidates, and the two override
forms (flat names, or a group's fields) agreeing."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graph.errors import ConfigError
from graph.memory.read import ranking
from graph.memory.read.config import FLAT, RetrieveConfig
from graph.memory.read.formatter import format_context
from graph.memory.read.models import ScoredFact

NOW = datetime(2026, 3, 1, tzinfo=UTC)

FLAT_DEFAULTS: dict[str, Any] = {
    "min_similarity": 0.2,
    "min_confidence": 0.55,
    "semantic_limit": 60,
    "keyword_limit": 40,
    "graph_limit": 60,
    "graph_pool_factor": 4,
    "graph_max_entities": 40,
    "graph_read_budget": 2,
    "hub_scan_factor": 4,
    "max_hops": 2,
    "hop_decay": 0.5,
    "query_bonus": 1.5,
    "enable_keyword": True,
    "enable_gloss": True,
    "enable_graph": True,
    "enable_expansion": True,
    "enable_aggregation": True,
    "keyword_names": False,
    "recency_half_life_days": 14.0,
    "confidence_half_life_days": 365.0,
    "confidence_weight": 0.2,
    "weights": {
        "semantic": 0.7,
        "recency": 0.2,
        "importance": 0.1,
        "keyword": 0.15,
        "graph": 0.15,
        "activation": 0.9,
        "relation": 0.3,
        "temporal": 0.15,
        "provenance": 1.0,
    },
    "pattern_boost_max": 0.1,
    "min_score": 0.15,
    "semantic_floor": 0.0,
    "language_gap": 0.0,
    "past_turn_factor": 0.8,
    "ranker": "learned",
    "topk_facts": 20,
    "topk_events": 8,
    "activation_seeds": 3,
    "activation_entities": 20,
    "activation_per_entity": 3,
    "activation_read_budget": 240,
    "activation_early": True,
    "enable_reranker": True,
    "rerank_pool": 40,
    "reranker_weight": 0.7,
    "min_reranker_score": 0.1,
    "reranker_timeout_s": 5.0,
    "enable_rescore": True,
    "rescore_weight": 0.5,
    "context_max_tokens": 2000,
    "max_observations": 3,
    "event_snippet_chars": 300,
    "min_event_similarity": 0.2,
    "exact_scan_max_facts": 1000,
    "search_min_facts": 100,
    "overfetch_cap": 20000,
    "fulltext_cap": 50000,
    "counts_ttl_s": 30.0,
}

RANKED = [
    ("f08", 0.806445),
    ("f05", 0.694846),
    ("f13", 0.631821),
    ("f02", 0.598394),
    ("f04", 0.550918),
    ("f10", 0.53128),
    ("f07", 0.456683),
    ("f15", 0.407831),
    ("f01", 0.40068),
    ("f12", 0.317988),
    ("f09", 0.278844),
    ("f14", 0.271932),
    ("f11", 0.255881),
    ("f03", 0.203751),
    ("f00", 0.18),
]


def _facts() -> list[ScoredFact]:
    out = []
    for i in range(16):
        f = ScoredFact(
            id=f"f{i:02d}",
            text=f"fact {i} about topic {i % 4}",
            confidence=0.5 + (i % 5) * 0.1,
            importance=(i % 3) / 2,
            created_at=NOW - timedelta(days=3 * i + (i % 4) * 40),
            reinforcement_count=i % 6,
        )
        f.scores.semantic = ((i * 37) % 100) / 100
        f.scores.keyword = ((i * 53) % 7) / 7 if i % 2 else 0.0
        f.scores.graph = 1.0 / (1 + i % 3) if i % 3 else 0.0
        out.append(f)
    return out


def test_defaults_by_flat_name() -> None:
    assert RetrieveConfig().flat() == FLAT_DEFAULTS
    assert set(FLAT) == set(FLAT_DEFAULTS)


def test_fixed_candidates_rank_and_format_the_same() -> None:
    cfg = RetrieveConfig()
    facts = _facts()
    ranking.score_facts(facts, cfg, NOW)
    ranked = ranking.rank(facts, cfg)
    assert [(f.id, round(f.scores.final, 6)) for f in ranked] == RANKED
    small = cfg.with_options({"context_max_tokens": 60})
    out = format_context(ranked, [], [], small, counter=lambda s: len(s.split()))
    assert (out.tokens, out.facts_used) == (50, 8)
    assert [f.tier for f in ranked] == ["hot"] * 5 + ["warm"] * 3 + [None] * 7
    assert hashlib.sha256(out.text.encode()).hexdigest()[:16] == "5e974819a83d7643"


def test_flat_and_grouped_overrides_agree() -> None:
    base = RetrieveConfig()
    flat = base.with_options({"max_hops": 1, "topk_facts": 5, "weights": {"recency": 0.0}})
    grouped = base.with_options(
        {
            "graph": {"max_hops": 1},
            "context": {"topk_facts": 5},
            "scoring": {"weights": {"recency": 0.0}},
        }
    )
    assert (
        flat
        == grouped
        == RetrieveConfig.of(
            max_hops=1, topk_facts=5, weights={**base.scoring.weights, "recency": 0.0}
        )
    )
    assert (flat.graph.max_hops, flat.context.topk_facts, flat.weight("recency")) == (1, 5, 0.0)
    assert base.graph.max_hops == 2


@pytest.mark.parametrize(
    "options",
    [
        {"graph": {"topk_facts": 5}},
        {"graph": 1},
        {"budgets": {"nope": 1}},
    ],
)
def test_a_group_takes_only_its_own_fields(options: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        RetrieveConfig().with_options(options)


def test_unknown_flat_name_is_refused_when_building() -> None:
    with pytest.raises(ConfigError, match="unknown retrieve option"):
        RetrieveConfig.of(semantic_weight=0.5)
