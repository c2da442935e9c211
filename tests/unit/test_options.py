"""Options declare their allowed values beside their defaults (``graph.options``), and both
pipelines' overrides go through the one mechanism: the same checks, the same messages."""

from __future__ import annotations

import dataclasses

import pytest

from graph.errors import ConfigError
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.config_groups import GROUPS as READ_GROUPS
from graph.memory.write.config import GROUPS as WRITE_GROUPS
from graph.memory.write.config import WriteConfig, apply_overrides
from graph.options import Range, range_of


def _fields(groups: dict[str, type]) -> list[dataclasses.Field[object]]:
    return [f for cls in groups.values() for f in dataclasses.fields(cls)]


@pytest.mark.parametrize("groups", [READ_GROUPS, WRITE_GROUPS], ids=["retrieve", "write"])
def test_every_default_lies_within_its_declared_range(groups: dict[str, type]) -> None:
    for cls in groups.values():
        config = cls()
        for field in dataclasses.fields(cls):
            bounds = range_of(field)
            if bounds is not None:
                assert bounds.holds(getattr(config, field.name)), field.name


def test_write_groups_are_the_write_config() -> None:
    """Every option of WriteConfig belongs to exactly one stage group."""
    names = [f.name for f in _fields(WRITE_GROUPS)]
    assert len(names) == len(set(names))
    assert sorted(names) == sorted(f.name for f in dataclasses.fields(WriteConfig))


@pytest.mark.parametrize(
    ("bounds", "integer", "text"),
    [
        (Range(1, 500), True, "1..500"),
        (Range(0.0, 1.0), False, "in [0, 1]"),
        (Range(0.0, 1.0, hi_open=True), False, "in [0, 1)"),
        (Range(0.0, lo_open=True), False, "> 0"),
        (Range(50), True, ">= 50"),
    ],
)
def test_a_range_states_itself(bounds: Range, integer: bool, text: str) -> None:
    assert bounds.text(integer) == text


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"topk_facts": 0}, "topk_facts must be 1..500"),
        ({"max_hops": 3}, r"max_hops must be 0..2 \(the traversal file bound\)"),
        ({"semantic_floor": 1.0}, r"semantic_floor must be in \[0, 1\)"),
        ({"weights": {"semantic": 9}}, r"weights must be in \[0, 5\]"),
        ({"weights": {"nope": 1}}, "weights has no entry 'nope'"),
        ({"topk_facts": "many"}, "retrieve option 'topk_facts' must be an integer"),
        ({"no_such_option": 1}, "unknown retrieve option 'no_such_option'"),
    ],
)
def test_retrieve_overrides_say_what_the_option_takes(override: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        RetrieveConfig().with_options(override)


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"max_facts": -1}, "max_facts must be >= 0"),
        ({"fuzzy_threshold": 2.0}, r"fuzzy_threshold must be in \[-1, 1\]"),
        ({"mode": "sometimes"}, "mode must be one of"),
        ({"max_facts": "many"}, "write option 'max_facts' must be an integer"),
        ({"no_such_option": 1}, "unknown write option 'no_such_option'"),
        ({"single_valued_relations": [1]}, "must be a list of strings"),
    ],
)
def test_write_overrides_say_what_the_option_takes(override: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        apply_overrides(WriteConfig(), override)


def test_a_write_config_out_of_range_is_refused_when_made() -> None:
    with pytest.raises(ConfigError, match="max_message_chars must be >= 1"):
        WriteConfig(max_message_chars=0)
    assert apply_overrides(WriteConfig(), {"single_valued_relations": ["lives_in"]}) == (
        dataclasses.replace(WriteConfig(), single_valued_relations=("lives_in",))
    )
