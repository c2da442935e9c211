"""The WebSocket upgrade's Origin: the server's own (same host and port as ``Host``)."""

from __future__ import annotations

import pytest

from server.origin import same_origin


@pytest.mark.parametrize(
    ("origin", "host", "same"),
    [
        ("https://mem.example.com", "mem.example.com", True),
        ("https://mem.example.com", "mem.example.com:443", True),
        ("http://mem.example.com:8000", "mem.example.com:8000", True),
        ("http://mem.example.com:8000", "mem.example.com:8001", False),
        ("http://evil.example", "mem.example.com", False),
        ("https://mem.example.com.evil.example", "mem.example.com", False),
        ("null", "mem.example.com", False),
        ("http://mem.example.com:99999", "mem.example.com", False),
        ("http://mem.example.com", None, False),
    ],
)
def test_same_origin(origin: str, host: str | None, same: bool) -> None:
    assert same_origin(origin, host) is same
