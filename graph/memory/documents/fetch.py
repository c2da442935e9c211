"""Bounded, guarded URL fetch for document ingest.

Guard (server-side request forgery protection):
- only http(s); the host is resolved ONCE per hop and EVERY resolved address is checked — a
  private, loopback, link-local, multicast, reserved or unspecified address refuses the URL
  unless ``allow_private`` is set; so do IPv6 forms that embed such an IPv4 address
  (IPv4-mapped ``::ffff:a.b.c.d``, IPv4-compatible ``::a.b.c.d``, 6to4 ``2002::/16``, NAT64
  ``64:ff9b::/96``); Teredo (``2001::/32``) tunnels are refused outright;
- the connection goes to the exact address that was checked: the URL is rewritten to that IP
  literal, the original name travels in the ``Host`` header and as TLS SNI (the certificate is
  still verified for the name), so a DNS answer that changes after the check (rebinding) is
  never used;
- redirects are followed by hand (at most 5), each hop checked and pinned again;
- one deadline (``timeout_s``) covers the whole fetch — resolution, redirects and every read —
  not each read separately;
- the body is streamed and cut off at ``max_bytes``; only allow-listed content types pass;
- refusal messages name the host, never the address it resolved to.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit, urlunsplit

import httpx

from graph.errors import BadInput

__all__ = [
    "FetchedDocument",
    "UrlRefused",
    "check_url",
    "decode_body",
    "fetch_url",
    "is_public_address",
    "pinned_target",
    "system_resolver",
]

Resolver = Callable[[str, int], Awaitable[list[str]]]
_MAX_REDIRECTS = 5


class UrlRefused(BadInput):
    """The URL may not be fetched (scheme, private address, size, content type, charset)."""

    job_error_code = "FETCH_REFUSED"  # a failed job's ``last_error_code``


@dataclass(frozen=True)
class FetchedDocument:
    url: str
    content_type: str
    text: str
    bytes: int


_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")
_IPV4_COMPATIBLE = ipaddress.ip_network("::/96")


def _public(addr: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    return not (
        addr.is_private
        or addr.is_loopback
        or addr.is_link_local
        or addr.is_multicast
        or addr.is_reserved
        or addr.is_unspecified
        or not addr.is_global
    )


def is_public_address(ip: str) -> bool:
    """True for globally routable unicast addresses. IPv6 forms that carry an IPv4 address
    (mapped, compatible, 6to4, NAT64) are judged by that address too; Teredo is never public."""
    addr = ipaddress.ip_address(ip.split("%", 1)[0])
    if isinstance(addr, ipaddress.IPv6Address):
        if addr.teredo is not None:
            return False
        embedded: ipaddress.IPv4Address | None = addr.ipv4_mapped or addr.sixtofour
        if addr in _NAT64 or addr in _IPV4_COMPATIBLE:
            embedded = ipaddress.IPv4Address(int(addr) & 0xFFFFFFFF)
        if addr in _NAT64_LOCAL:
            return False
        if embedded is not None:
            return _public(embedded)
    return _public(addr)


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
    if not allow_private and not all(is_public_address(a) for a in addresses):
        raise UrlRefused(
            f"{host!r} resolves to a private/loopback/link-local address; "
            "fetching it is disabled (allow_private_urls)"
        )
    return addresses


def _allowed(content_type: str, allowlist: tuple[str, ...]) -> bool:
    ct = content_type.split(";", 1)[0].strip().lower()
    return any(ct == a or (a.endswith("/") and ct.startswith(a)) for a in allowlist)


def pinned_target(url: str, address: str) -> tuple[str, str, str]:
    """``url`` aimed at ``address`` (IP literal) + the Host header and SNI name to send (the
    connection goes to the address that was checked; webhooks deliver the same way)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    literal = f"[{address}]" if ":" in address else address
    netloc = literal if parts.port is None else f"{literal}:{parts.port}"
    host_header = host if parts.port is None else f"{host}:{parts.port}"
    if ":" in host:  # an IPv6 literal in the URL itself
        host_header = f"[{host}]" if parts.port is None else f"[{host}]:{parts.port}"
    return urlunsplit(parts._replace(netloc=netloc)), host_header, host


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
        UrlRefused: refused before or during the transfer, the connection failed, or the
            whole fetch took longer than ``timeout_s``.
    """
    try:
        async with asyncio.timeout(timeout_s):
            return await _fetch(
                url, max_bytes, content_types, allow_private, timeout_s, resolver, transport
            )
    except TimeoutError as exc:
        raise UrlRefused(f"the fetch took longer than {timeout_s:g} s") from exc


async def _fetch(
    url: str,
    max_bytes: int,
    content_types: tuple[str, ...],
    allow_private: bool,
    timeout_s: float,
    resolver: Resolver,
    transport: httpx.AsyncBaseTransport | None,
) -> FetchedDocument:
    async with httpx.AsyncClient(
        follow_redirects=False,
        timeout=timeout_s,
        transport=transport,
        trust_env=False,
        headers={"User-Agent": "hippograph-document-ingest/0.1"},
    ) as client:
        current = url.strip()
        for _ in range(_MAX_REDIRECTS + 1):
            addresses = await check_url(current, allow_private=allow_private, resolver=resolver)
            target, host_header, sni = pinned_target(current, addresses[0])
            request = client.build_request(
                "GET", target, headers={"Host": host_header}, extensions={"sni_hostname": sni}
            )
            try:
                response = await client.send(request, stream=True)
            except httpx.TransportError as exc:
                host = urlsplit(current).hostname
                raise UrlRefused(f"could not fetch from {host!r}: connection failed") from exc
            try:
                if response.is_redirect and "location" in response.headers:
                    current = urljoin(current, response.headers["location"])
                    continue
                return await _read(response, current, max_bytes, content_types)
            finally:
                await response.aclose()
        raise UrlRefused(f"more than {_MAX_REDIRECTS} redirects")


async def _read(
    response: httpx.Response, url: str, max_bytes: int, content_types: tuple[str, ...]
) -> FetchedDocument:
    if response.status_code >= 400:
        raise UrlRefused(f"the server answered HTTP {response.status_code}")
    content_type = response.headers.get("content-type", "text/plain")
    if not _allowed(content_type, content_types):
        raise UrlRefused(f"content type {content_type!r} is not accepted")
    declared = response.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > max_bytes:
        raise UrlRefused(f"document is larger than {max_bytes} bytes")
    body = bytearray()
    try:
        async for piece in response.aiter_bytes():
            body.extend(piece)
            if len(body) > max_bytes:
                raise UrlRefused(f"document is larger than {max_bytes} bytes")
    except httpx.TransportError as exc:
        raise UrlRefused("the connection broke during the transfer") from exc
    return FetchedDocument(url, content_type, decode_body(bytes(body), response), len(body))


def decode_body(body: bytes, response: httpx.Response) -> str:
    """The body as text, in the charset the server declares (UTF-8 when none; undecodable
    bytes replaced).

    Raises:
        UrlRefused: the declared charset is unknown, or names a codec that is not a text
            encoding (``base64``, ``zlib``): a refusal of the page, not an internal error.
    """
    encoding = response.charset_encoding or "utf-8"
    try:
        return body.decode(encoding, errors="replace")
    except LookupError as exc:  # unknown, or not a text encoding
        shown = "".join(c for c in encoding[:40] if c.isprintable())
        raise UrlRefused(f"the page declares a charset this server cannot read: {shown!r}") from exc
