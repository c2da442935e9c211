"""Which address a request comes from (for the failed-authentication budget): the socket peer,
or behind a trusted proxy the client it forwarded for."""

from __future__ import annotations

import pytest

from server.limits import client_address, parse_networks


def test_no_trusted_proxy_means_the_socket_peer() -> None:
    assert client_address("10.0.0.1", "203.0.113.5", ()) == "10.0.0.1"


def test_a_trusted_proxy_forwards_the_right_most_untrusted_entry() -> None:
    trusted = parse_networks("10.0.0.0/8, 192.168.1.7")
    # A client can prepend anything: only what the trusted proxies appended counts.
    assert client_address("10.0.0.1", "1.2.3.4, 203.0.113.5, 10.9.9.9", trusted) == "203.0.113.5"
    assert client_address("192.168.1.7", "203.0.113.5", trusted) == "203.0.113.5"
    assert client_address("10.0.0.1", None, trusted) == "10.0.0.1"
    assert client_address("10.0.0.1", "10.2.2.2, 10.3.3.3", trusted) == "10.2.2.2"
    assert client_address("10.0.0.1", "garbage, 203.0.113.5", trusted) == "203.0.113.5"
    assert client_address("10.0.0.1", "203.0.113.5, garbage", trusted) == "10.0.0.1"


def test_an_untrusted_peer_cannot_pick_its_address() -> None:
    trusted = parse_networks("10.0.0.0/8")
    assert client_address("198.51.100.9", "10.0.0.1, 203.0.113.5", trusted) == "198.51.100.9"


def test_bad_proxy_lists_are_refused() -> None:
    with pytest.raises(ValueError, match="not-an-ip"):
        parse_networks("10.0.0.0/8,not-an-ip")
    assert parse_networks("") == ()
