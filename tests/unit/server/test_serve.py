"""``hippograph serve``: the uvicorn it starts bounds WebSocket messages like request bodies."""

from __future__ import annotations

import os
from typing import Any

import pytest
import uvicorn

from server.cli import serve
from server.settings import Settings


@pytest.mark.parametrize("workers", [1, 2])
def test_websocket_frames_are_bounded_like_bodies(
    workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda *_args, **kwargs: seen.update(kwargs))
    monkeypatch.setattr(os, "environ", dict(os.environ))  # the workers' settings go there
    serve._serve(Settings(auth_disabled=True, max_body_bytes=123_456), workers)
    assert seen["ws_max_size"] == 123_456
