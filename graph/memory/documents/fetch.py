"""Bounded, guarded URL fetch for document ingest.

Guard: only http(s); the host is resolved first and EVERY resolved address is checked — a
private, loopback, link-local, multicast, reserved or unspecified address refuses the URL unless
``allow_private`` is set (server-side request forgery protection). Redirects are followed by
hand (at most 5), each hop guarded again. The body is streamed and cut off at ``max_bytes``;
only allow-listed content types are accepted.

Known limit: the name is resolved again by the HTTP client when it connects, so a DNS answer
that changes between the check and the connection (rebinding) is not covered; deployments that
fetch untrusted URLs should also egress-filter at the network layer.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

import httpx

from graph.errors import BadInput

__all__ = ["FetchedDocument", "UrlRefused", "check_url", "fetch_url", "is_public_address"]

Resolver = Callable[[str, int], Awaitable[list[str]]]
_MAX_REDIRECTS = 5


class UrlRefused(BadInput):
    """The URL may not be fetched (scheme, private address, size, content type)."""


@dataclass(frozen=True)
class FetchedDocument:
    url: str
    content_type: str
    text: str
    bytes: int


def is_public_address(ip: str) -> bool:
    """True for globally routable unicast addresses (IPv4-mapped IPv6 checked as IPv4)."""
    addr = ipaddress.ip_address(ip.split("%", 1)[0])
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        addr = addr.ipv4_mapped
    return not (
        addr.is_private or addr.is_loopback or addr.is_link_local or addr.is_multicast
        or addr.is_reserved or addr.is_unspecified or not addr.is_global
    )


async def system_resolver(host: str, port: int) -> list[str]:
    """Every address the system resolver gives for ``host`` (no network when it is a literal)."""
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return sorted({str(info[4][0]) for info in infos})


async def check_url(
    url: str, *, allow_private: bool = False, resolver: Resolver = system_resolver
) -> list[str]:
    """Validate a URL before any request is sent; returns the resolved addresses.

    Raises:
        UrlRefused: bad scheme, missing host, unresolvable host, or a non-public address
            (unless ``allow_private``).
    """
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https"):
        raise UrlRefused(f"only http and https URLs can be fetched, not {parts.scheme or '?'!r}")
    host = parts.hostname
    if not host:
        raise UrlRefused("the URL has no host")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        addresses = await resolver(host, port)
    except OSError as exc:
        raise UrlRefused(f"cannot resolve {host!r}: {exc}") from exc
    if not addresses:
        raise UrlRefused(f"cannot resolve {host!r}")
    if not allow_private:
        blocked = [a for a in addresses if not is_public_address(a)]
        if blocked:
            raise UrlRefused(
                f"{host!r} resolves to a private/loopback/link-local address ({blocked[0]}); "
                "fetching it is disabled (allow_private_urls)"
            )
    return addresses


def _allowed(content_type: str, allowlist: tuple[str, ...]) -> bool:
    ct = content_type.split(";", 1)[0].strip().lower()
    return any(ct == a or (a.endswith("/") and ct.startswith(a)) for a in allowlist)


async def fetch_url(
    url: str,
    *,
    max_bytes: int,
    content_types: tuple[str, ...],
    allow_private: bool = False,
    timeout_s: float = 20.0,
    resolver: Resolver = system_resolver,
    transport: httpx.AsyncBaseTransport | None = None,
) -> FetchedDocument:
    """Fetch a document under the guard (see module docstring).

    Raises:
        UrlRefused: refused before or during the transfer.
    """
    async with httpx.AsyncClient(
        follow_redirects=False, timeout=timeout_s, transport=transport,
        headers={"User-Agent": "hippograph-document-ingest/0.1"},
    ) as client:
        current = url
        for _ in range(_MAX_REDIRECTS + 1):
            await check_url(current, allow_private=allow_private, resolver=resolver)
            async with client.stream("GET", current) as response:
                if response.is_redirect and "location" in response.headers:
                    current = urljoin(current, response.headers["location"])
                    continue
                if response.status_code >= 400:
                    raise UrlRefused(f"the server answered HTTP {response.status_code}")
                content_type = response.headers.get("content-type", "text/plain")
                if not _allowed(content_type, content_types):
                    raise UrlRefused(f"content type {content_type!r} is not accepted")
                declared = response.headers.get("content-length")
                if declared and declared.isdigit() and int(declared) > max_bytes:
                    raise UrlRefused(f"document is larger than {max_bytes} bytes")
                body = bytearray()
                async for piece in response.aiter_bytes():
                    body.extend(piece)
                    if len(body) > max_bytes:
                        raise UrlRefused(f"document is larger than {max_bytes} bytes")
                encoding = response.charset_encoding or "utf-8"
                text = bytes(body).decode(encoding, errors="replace")
                return FetchedDocument(current, content_type, text, len(body))
        raise UrlRefused(f"more than {_MAX_REDIRECTS} redirects")
