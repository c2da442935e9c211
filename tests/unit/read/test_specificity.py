"""Entity specificity and the scoring of the facts reached through entities (pure), and the
hub options of spreading activation."""

from __future__ import annotations

import pytest

from graph.errors import ConfigError
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.specificity import entity_scores, specificity


def _row(
    key: str, fid: str, hops: int, weight: float, degree: int, semantic: float = 0.8
) -> dict[str, object]:
    return {
        "key": key,
        "hops": hops,
        "weight": weight,
        "degree": degree,
        "semantic": semantic,
        "fact": {"id": fid, "text": fid},
    }


def test_specificity_favours_rare_entities() -> None:
    assert specificity(1, 200) == pytest.approx(1.0)
    assert specificity(100, 200) < 0.25 < specificity(17, 200) < specificity(2, 200) < 1.0
    assert specificity(0, 0) == pytest.approx(1.0)  # degenerate inputs stay in (0, 1]


def test_a_fact_reaching_two_entities_outscores_one_reaching_either() -> None:
    rows = [
        _row("thing:lgbtq", "both", 0, 1.0, 17),
        _row("person:caroline", "both", 0, 1.0, 100),
        _row("thing:lgbtq", "one", 0, 1.0, 17),
        _row("person:caroline", "hub", 0, 1.0, 100),
        _row("thing:pride", "far", 1, 0.5, 3),
    ]
    scores = {f.id: f for f in entity_scores(rows, 200)}
    assert scores["both"].scores.graph > scores["one"].scores.graph > scores["hub"].scores.graph
    assert scores["both"].scores.graph == pytest.approx(
        specificity(17, 200) + specificity(100, 200)
    )
    assert scores["far"].hops == 1 and scores["far"].scores.graph == pytest.approx(
        0.5 * specificity(3, 200)
    )
    assert all(f.sources == {"entity"} for f in scores.values())
    assert scores["one"].scores.semantic == pytest.approx(0.6)  # index scale → cosine


def test_the_same_entity_counts_once_and_the_score_is_capped() -> None:
    rows = [_row("a", "f", 1, 1.0, 1), _row("a", "f", 0, 1.0, 1), _row("b", "f", 0, 1.0, 1)]
    (fact,) = entity_scores(rows, 50)
    assert fact.hops == 0 and fact.scores.graph == 1.0


def test_hub_bounds_are_fixed() -> None:
    cfg = RetrieveConfig()
    assert (cfg.activation.entity_hub_share, cfg.activation.entity_hub_min) == (0.1, 20)
    with pytest.raises(ConfigError, match="unknown retrieve option"):
        cfg.with_options({"entity_hub_share": 0.5})
