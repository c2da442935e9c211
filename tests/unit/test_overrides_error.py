"""Per-call overrides fail the same way on both pipelines: ``ConfigError`` (a ``BadInput``,
so GraphQL reports ``BAD_INPUT``)."""

from __future__ import annotations

import pytest

from gql.errors import ErrorCode, api_error_from
from graph.errors import BadInput, ConfigError
from graph.memory.read.config import RetrieveConfig
from graph.memory.write.config import WriteConfig, apply_overrides


@pytest.mark.parametrize("bad", [{"no_such_option": 1}, {"topk_facts": "many"}, {"topk_facts": 0}])
def test_retrieve_options_raise_config_error(bad: dict[str, object]) -> None:
    with pytest.raises(ConfigError) as err:
        RetrieveConfig().with_options(bad)
    known = api_error_from(err.value)
    assert known is not None and known.code is ErrorCode.BAD_INPUT


@pytest.mark.parametrize(
    "bad", [{"no_such_option": 1}, {"max_facts": "many"}, {"mode": "sometimes"}]
)
def test_write_overrides_raise_config_error(bad: dict[str, object]) -> None:
    with pytest.raises(ConfigError) as err:
        apply_overrides(WriteConfig(), bad)
    assert isinstance(err.value, BadInput)
    known = api_error_from(err.value)
    assert known is not None and known.code is ErrorCode.BAD_INPUT
