"""Per-call overrides only narrow the operator's bounds: never ``pii_mode`` or
``mutations_frozen``, ``mode`` only stricter, sizes / retries / timeouts only lower."""

from __future__ import annotations

import pytest

from gql.errors import ErrorCode, api_error_from
from graph.errors import ConfigError
from graph.memory.read.config import RetrieveConfig
from graph.memory.write.config import WriteConfig, apply_overrides


@pytest.mark.parametrize(
    "override",
    [
        {"pii_mode": "off"},
        {"pii_mode": "reject"},
        {"mutations_frozen": False},
        {"mutations_frozen": True},
    ],
)
def test_operator_only_write_options_are_refused(override: dict[str, object]) -> None:
    with pytest.raises(ConfigError, match="cannot be overridden") as err:
        apply_overrides(WriteConfig(), override)
    known = api_error_from(err.value)
    assert known is not None and known.code is ErrorCode.BAD_INPUT


@pytest.mark.parametrize(
    ("server", "requested", "allowed"),
    [
        ("full", "full", True),
        ("full", "controlled", True),
        ("full", "shadow", True),
        ("controlled", "shadow", True),
        ("controlled", "controlled", True),
        ("controlled", "full", False),
        ("shadow", "controlled", False),
        ("shadow", "full", False),
        ("shadow", "shadow", True),
    ],
)
def test_mode_may_only_get_stricter(server: str, requested: str, allowed: bool) -> None:
    base = WriteConfig(mode=server)
    if allowed:
        assert apply_overrides(base, {"mode": requested}).mode == requested
    else:
        with pytest.raises(ConfigError, match="stricter"):
            apply_overrides(base, {"mode": requested})


@pytest.mark.parametrize(
    "key",
    [
        "max_message_chars",
        "max_facts",
        "write_retries",
        "extraction_timeout_s",
        "reconcile_timeout_s",
    ],
)
def test_write_sizes_retries_timeouts_only_lower(key: str) -> None:
    base = WriteConfig()
    server = getattr(base, key)
    lower = server - 1 if isinstance(server, int) else server / 2
    assert getattr(apply_overrides(base, {key: lower}), key) == lower
    assert getattr(apply_overrides(base, {key: server}), key) == server
    with pytest.raises(ConfigError, match="exceed"):
        apply_overrides(base, {key: server + 1})


def test_harmless_write_tuning_still_works() -> None:
    cfg = apply_overrides(WriteConfig(), {"enable_llm_resolution": False, "fuzzy_threshold": 0.9})
    assert cfg.enable_llm_resolution is False and cfg.fuzzy_threshold == 0.9


def test_retrieve_timeouts_and_caps_only_lower() -> None:
    base = RetrieveConfig()
    assert base.with_options({"reranker_timeout_s": 1}).rerank.reranker_timeout_s == 1.0
    with pytest.raises(ConfigError, match="exceed"):
        base.with_options({"reranker_timeout_s": base.rerank.reranker_timeout_s + 1})
    with pytest.raises(ConfigError, match="exceed"):
        base.with_options({"overfetch_cap": base.budgets.overfetch_cap * 10})


def test_retrieve_topk_within_its_max_still_works() -> None:
    assert RetrieveConfig().with_options({"topk_facts": 100}).context.topk_facts == 100
