"""SSRF guard without gaps: the connection goes to the address that was
checked (no second DNS lookup), IPv6 forms of private IPv4 ranges are refused, one deadline
covers the whole fetch, refusals never echo resolved addresses.

Loopback only: a tiny HTTP server on 127.0.0.1, an injected resolver for the check, and a
patched ``socket.getaddrinfo`` playing the DNS server that answers differently afterwards.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from typing import Any

import pytest

from graph.memory.documents.fetch import UrlRefused, check_url, fetch_url, is_public_address

TYPES = ("text/",)


@pytest.mark.parametrize(
    "ip",
    [
        "2002:7f00:1::1",  # 6to4 of 127.0.0.1
        "2002:a9fe:a9fe::1",  # 6to4 of 169.254.169.254 (cloud metadata)
        "2002:c0a8:1::1",  # 6to4 of 192.168.0.1
        "2001:0:4136:e378:8000:63bf:3fff:fdd2",  # Teredo
        "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
        "64:ff9b::a00:1",  # NAT64 of 10.0.0.1
        "::ffff:169.254.169.254",  # IPv4-mapped
        "::127.0.0.1",  # IPv4-compatible
    ],
)
def test_ipv6_forms_of_private_ipv4_are_refused(ip: str) -> None:
    assert is_public_address(ip) is False


def test_ipv6_forms_of_public_ipv4_stay_public() -> None:
    assert is_public_address("2002:808:808::1") and is_public_address("64:ff9b::808:808")


@pytest.fixture
async def server() -> AsyncIterator[dict[str, Any]]:
    """HTTP server on 127.0.0.1 that records the Host header of each request; ``trickle``
    makes it send the body one byte every 0.3 s."""
    state: dict[str, Any] = {"hosts": [], "trickle": False}

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        request = (await reader.readuntil(b"\r\n\r\n")).decode()
        host = [
            ln.split(":", 1)[1].strip()
            for ln in request.split("\r\n")
            if ln.lower().startswith("host:")
        ]
        state["hosts"].append(host[0] if host else None)
        body = b"x" * 40
        writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
            b"Content-Length: 40\r\nConnection: close\r\n\r\n"
        )
        try:
            if state["trickle"]:
                for i in range(len(body)):
                    writer.write(body[i : i + 1])
                    await writer.drain()
                    await asyncio.sleep(0.3)
            else:
                writer.write(body)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        writer.close()

    srv = await asyncio.start_server(handle, "127.0.0.1", 0)
    state["port"] = srv.sockets[0].getsockname()[1]
    try:
        yield state
    finally:
        srv.close()
        await srv.wait_closed()


def checked_as(address: str):  # type: ignore[no-untyped-def]
    calls: list[str] = []

    async def resolve(host: str, port: int) -> list[str]:
        calls.append(host)
        return [address]

    resolve.calls = calls  # type: ignore[attr-defined]
    return resolve


@pytest.fixture
def dns_answers(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """What the system resolver answers for test names AFTER the check (rebinding DNS)."""
    table: dict[str, str] = {}
    real = socket.getaddrinfo

    def fake(host: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else host
        return real(table.get(name, name), *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", fake)
    return table


async def test_the_connection_goes_to_the_checked_address(
    server: dict[str, Any],
    dns_answers: dict[str, str],
) -> None:
    dns_answers["docs.test"] = "127.0.0.2"  # a second lookup would go nowhere
    resolver = checked_as("127.0.0.1")
    doc = await fetch_url(
        f"http://docs.test:{server['port']}/a",
        max_bytes=1_000,
        content_types=TYPES,
        allow_private=True,
        resolver=resolver,
    )
    assert doc.text == "x" * 40 and doc.url == f"http://docs.test:{server['port']}/a"
    assert server["hosts"] == [f"docs.test:{server['port']}"]  # the name is still sent
    assert resolver.calls == ["docs.test"]  # type: ignore[attr-defined]


async def test_a_dns_answer_changed_after_the_check_is_never_used(
    server: dict[str, Any],
    dns_answers: dict[str, str],
) -> None:
    dns_answers["rebind.test"] = "127.0.0.1"  # where the attacker points the name later
    with pytest.raises(UrlRefused, match="connection failed") as refused:
        await fetch_url(
            f"http://rebind.test:{server['port']}/secret",
            max_bytes=1_000,
            content_types=TYPES,
            allow_private=True,
            resolver=checked_as("127.0.0.2"),
        )
    assert server["hosts"] == []  # the server behind the rebound name saw nothing
    assert "127.0.0" not in str(refused.value)


async def test_one_deadline_covers_the_whole_fetch(server: dict[str, Any]) -> None:
    server["trickle"] = True  # each read is quick (0.3 s); the whole body takes 12 s
    with pytest.raises(UrlRefused, match="longer than 1 s"):
        await fetch_url(
            f"http://127.0.0.1:{server['port']}/slow",
            max_bytes=1_000,
            content_types=TYPES,
            allow_private=True,
            timeout_s=1.0,
        )


async def test_refusals_do_not_echo_resolved_addresses() -> None:
    for address in ("10.1.2.3", "169.254.169.254", "2002:a00:1::1"):
        with pytest.raises(UrlRefused) as refused:
            await check_url("http://intranet.example/", resolver=checked_as(address))
        assert "intranet.example" in str(refused.value)
        assert address not in str(refused.value)


@pytest.mark.parametrize("charset", ["x-bogus", "base64", "zlib", "rot13"])
async def test_a_page_declaring_an_unusable_charset_is_refused_typed(charset: str) -> None:
    """An unknown charset (or a codec that is not a text encoding) is a typed refusal (the job
    ends ``FETCH_REFUSED``), not a ``LookupError`` the job would report as ``INTERNAL``."""
    import httpx

    from graph.memory.jobs.context import job_error

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            200, headers={"content-type": f"text/plain; charset={charset}"}, content=b"hello"
        )

    with pytest.raises(UrlRefused, match="charset") as refused:
        await fetch_url(
            "http://docs.test/page",
            max_bytes=1_000,
            content_types=TYPES,
            allow_private=True,
            resolver=checked_as("127.0.0.1"),
            transport=httpx.MockTransport(answer),
        )
    assert job_error(refused.value).code == "FETCH_REFUSED"
