"""Spreading activation's pure parts: query stems, seeds relative to the best fact, the lift
that keeps an activated fact below its seed, and the option bounds."""

from __future__ import annotations

import pytest

from graph.errors import ConfigError
from graph.memory.read.activation import lift_activated, seed_facts
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.models import ScoredFact
from graph.memory.read.words import stems


def _fact(fid: str, final: float, activation: float = 0.0) -> ScoredFact:
    f = ScoredFact(id=fid, text=fid)
    f.scores.final = f.scores.formula = final
    f.scores.activation = activation
    return f


def test_stems_are_folded_prefixes_of_the_significant_words() -> None:
    got = stems("Who was the first president of the association which published Émile's journal?")
    assert "publi" in got and "presi" in got and "assoc" in got and "emile" in got
    assert "the" not in got and "who" not in got
    # a relation type word matches by prefix: "published_by", "publisher"
    assert any("published".startswith(s) for s in got)


def test_seeds_carry_their_score_relative_to_the_best() -> None:
    ordered = [_fact("a", 0.8), _fact("b", 0.4), _fact("c", 0.2)]
    assert seed_facts(ordered, 2) == [{"id": "a", "score": 1.0}, {"id": "b", "score": 0.5}]
    assert seed_facts(ordered, 0) == []
    assert seed_facts([_fact("z", 0.0)], 1) == [{"id": "z", "score": 0.0}]


def test_an_activated_fact_rises_to_its_share_of_the_best_score_never_above_it() -> None:
    facts = [
        _fact("seed", 0.8),
        _fact("far", 0.3, activation=1.0),
        _fact("near", 0.7, activation=0.5),
        _fact("plain", 0.1),
    ]
    assert lift_activated(facts, best=0.8, weight=0.9) == 1
    by_id = {f.id: f.scores.final for f in facts}
    assert by_id["far"] == pytest.approx(0.72) and by_id["far"] < by_id["seed"]
    assert by_id["near"] == 0.7  # already above 0.9 × 0.5 × 0.8: unchanged
    assert by_id["plain"] == 0.1
    assert lift_activated(facts, best=0.8, weight=0.0) == 0


def test_activation_options_are_bounded() -> None:
    assert RetrieveConfig.of(activation_seeds=5).activation.activation_seeds == 5
    for bad in (
        {"activation_seeds": 21},
        {"activation_entities": 0},
        {"activation_per_entity": 0},
        {"activation_hops": 1},  # not an option
    ):
        with pytest.raises(ConfigError):
            RetrieveConfig().with_options(bad)
