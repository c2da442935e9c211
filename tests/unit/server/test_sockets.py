"""Open WebSockets are counted per key and per client address, and refused past their caps
until one closes."""

from __future__ import annotations

from server.sockets import SocketSlots


def test_sockets_past_a_cap_are_refused_until_one_closes() -> None:
    slots = SocketSlots(per_key=2, per_address=3)
    for _ in range(3):
        assert slots.enter_address("10.0.0.1") is None
    refused = slots.enter_address("10.0.0.1")
    assert refused is not None and (refused.status, refused.code) == (429, "RATE_LIMITED")
    assert refused.close_reason.startswith("RATE_LIMITED: This address holds 3 sockets")
    assert slots.enter_address("10.0.0.2") is None  # another address has its own
    assert slots.enter_key("k") is None and slots.enter_key("k") is None
    assert slots.enter_key("k") is not None
    slots.leave("10.0.0.1", "k")
    assert slots.enter_address("10.0.0.1") is None and slots.enter_key("k") is None
    for _ in range(3):
        slots.leave("10.0.0.1", "k")
    slots.leave("10.0.0.2", None)
    assert not slots.addresses and not slots.keys  # nothing kept for closed sockets
