"""Statement parameters keep their values but format cheaply: the driver formats every RUN's
parameters for its debug log whether or not it is enabled, and 2,000 vectors of 384 floats
took ~1.2 s of ``float.__repr__`` per statement."""

from __future__ import annotations

import time
from typing import Any

import pytest

from graph.executor import Transaction, quiet_params


def test_vectors_inside_rows_keep_their_values_and_format_short() -> None:
    vec = [0.1 * i for i in range(384)]
    params = {
        "agent_id": "a",
        "rows": [{"id": f"f{i}", "props": {"text": "t", "embedding": vec}} for i in range(3)],
        "norms": ["x", "y"],
    }
    quiet = quiet_params(params)
    assert quiet == params  # same values: the driver packs them as lists
    assert quiet["rows"][0]["props"]["embedding"] == vec
    assert isinstance(quiet["rows"][0]["props"]["embedding"], list)
    assert len(repr(quiet)) < 500 < len(repr(params))
    assert quiet["norms"] is params["norms"]  # nothing to change: not copied
    assert params["rows"][0]["props"]["embedding"] is vec  # the caller's rows are untouched


def test_parameters_without_vectors_are_returned_as_they_are() -> None:
    params = {"rows": [{"id": "f1", "keys": ["a", "b"]}], "n": 3, "texts": []}
    assert quiet_params(params) is params


class _Tx:
    """A stand-in for the driver's transaction: records what ``run`` was given."""

    def __init__(self) -> None:
        self.params: dict[str, Any] = {}

    async def run(self, query: str, params: dict[str, Any]) -> Any:
        self.params = params

        class _Empty:
            def __aiter__(self) -> Any:
                return self

            async def __anext__(self) -> Any:
                raise StopAsyncIteration

        return _Empty()


async def test_a_transaction_sends_quiet_parameters() -> None:
    tx = _Tx()
    rows = [{"embedding": [0.5] * 384} for _ in range(2_000)]
    await Transaction(tx).run("write/create_events", agent_id="a", rows=rows)  # type: ignore[arg-type]
    started = time.perf_counter()
    text = repr(tx.params)
    assert time.perf_counter() - started < 0.5
    assert len(text) < 100_000 and tx.params["rows"][0]["embedding"] == [0.5] * 384


@pytest.mark.parametrize("value", [[1, 2.0], [], [None, 0.5]])
def test_lists_not_starting_with_a_float_are_left_alone(value: list[Any]) -> None:
    assert quiet_params({"v": value})["v"] is value
