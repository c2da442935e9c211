"""The relation bridge's pure parts: query stems, seeds relative to the best fact, the lift
that keeps a bridged fact below its seed, and the option bounds."""

from __future__ import annotations

import pytest

from graph.errors import ConfigError
from graph.memory.read.bridge import bridge_seeds, lift_bridged, stems
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.models import ScoredFact


def _fact(fid: str, final: float, bridge: float = 0.0) -> ScoredFact:
    f = ScoredFact(id=fid, text=fid)
    f.scores.final = f.scores.formula = final
    f.scores.bridge = bridge
    return f


def test_stems_are_folded_prefixes_of_the_significant_words() -> None:
    got = stems("Who was the first president of the association which published Émile's journal?")
    assert "publi" in got and "presi" in got and "assoc" in got and "emile" in got
    assert "the" not in got and "who" not in got
    # a relation type word matches by prefix: "published_by", "publisher"
    assert any("published".startswith(s) for s in got)


def test_seeds_carry_their_score_relative_to_the_best() -> None:
    ordered = [_fact("a", 0.8), _fact("b", 0.4), _fact("c", 0.2)]
    assert bridge_seeds(ordered, 2) == [{"id": "a", "score": 1.0}, {"id": "b", "score": 0.5}]
    assert bridge_seeds(ordered, 0) == []
    assert bridge_seeds([_fact("z", 0.0)], 1) == [{"id": "z", "score": 0.0}]


def test_a_bridged_fact_rises_to_its_share_of_the_best_score_never_above_it() -> None:
    facts = [
        _fact("seed", 0.8),
        _fact("far", 0.3, bridge=1.0),
        _fact("near", 0.7, bridge=0.5),
        _fact("plain", 0.1),
    ]
    assert lift_bridged(facts, best=0.8, weight=0.9) == 1
    by_id = {f.id: f.scores.final for f in facts}
    assert by_id["far"] == pytest.approx(0.72) and by_id["far"] < by_id["seed"]
    assert by_id["near"] == 0.7  # already above 0.9 × 0.5 × 0.8: unchanged
    assert by_id["plain"] == 0.1
    assert lift_bridged(facts, best=0.8, weight=0.0) == 0


def test_bridge_options_are_bounded() -> None:
    assert RetrieveConfig.of(bridge_seeds=5).activation.bridge_seeds == 5
    for bad in ({"bridge_seeds": 21}, {"bridge_entities": 0}, {"bridge_per_entity": 0}):
        with pytest.raises(ConfigError):
            RetrieveConfig().with_options(bad)
