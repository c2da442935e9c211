"""Host/Origin decisions of the DNS-rebinding guard (server/origin.py), without a server."""

from __future__ import annotations

from server.origin import host_allowed, host_guard_enabled, origin_allowed, split_host

LISTED = frozenset({"memory.example.org"})


def test_split_host_drops_ports_and_brackets() -> None:
    assert split_host("127.0.0.1:8000") == "127.0.0.1"
    assert split_host("[::1]:8000") == "::1"
    assert split_host("LocalHost") == "localhost"
    assert split_host("::1") == "::1"


def test_only_loopback_and_listed_hosts_pass() -> None:
    for ok in ("127.0.0.1:8000", "localhost", "[::1]:8000", "127.5.6.7", "memory.example.org"):
        assert host_allowed(ok, LISTED), ok
    for bad in (
        "evil.example",
        "evil.example:8000",
        "127.0.0.1.evil.example",
        "",
        None,
        "localhost.evil.example",
        "0.0.0.0:8000",
        "memory.example.org.evil.example",
    ):
        assert not host_allowed(bad, LISTED), bad


def test_origins_must_be_loopback_or_listed() -> None:
    assert origin_allowed(None, LISTED)  # not a browser's cross-site request
    for ok in ("http://127.0.0.1:8000", "http://localhost:3000", "https://memory.example.org"):
        assert origin_allowed(ok, LISTED), ok
    for bad in (
        "http://evil.example",
        "null",
        "file://",
        "chrome-extension://abc",
        "http://127.0.0.1.evil.example",
    ):
        assert not origin_allowed(bad, LISTED), bad


def test_when_the_guard_applies() -> None:
    assert host_guard_enabled(True, "127.0.0.1", frozenset())
    assert host_guard_enabled(False, "127.0.0.1", frozenset())
    assert host_guard_enabled(False, "0.0.0.0", LISTED)
    assert not host_guard_enabled(False, "0.0.0.0", frozenset())  # keys guard a public bind
