"""HTTP-level limits: request body size (413), a per-key token-bucket rate limiter, and the
refusals answered before GraphQL runs (an HTTP answer, or a WebSocket close).

Several API processes (``hippograph serve --workers N``, or replicas behind a load balancer)
each enforce ``1/N`` of every budget (``settings.api_processes`` = N): the sum over the cluster
never exceeds the configured figure, without a Neo4j round trip per request. A client whose
requests all land on one process is refused at its share (see docs/scaling.md).

Both answer with a GraphQL-shaped JSON body (``{"errors": [{"message", "extensions": {"code"}}]}``)
so clients handle them like any other typed error.
"""

from __future__ import annotations

import ipaddress
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "AuthFailureLimiter",
    "BodySizeLimit",
    "RateLimiter",
    "Refusal",
    "TokenBucket",
    "client_address",
    "json_error",
    "parse_networks",
    "process_bucket",
    "rate_limited",
]

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def json_error(
    status: int, code: str, message: str, headers: dict[str, str] | None = None, **ext: Any
) -> JSONResponse:
    """A GraphQL-shaped error response for refusals that happen before GraphQL runs."""
    body = {"data": None, "errors": [{"message": message, "extensions": {"code": code, **ext}}]}
    return JSONResponse(body, status_code=status, headers=headers)


@dataclass(frozen=True)
class Refusal:
    """Why a request is refused before GraphQL runs: an HTTP answer, or a WebSocket close
    (code 4000 + ``status``, reason ``"<code>: <message>"``)."""

    status: int
    code: str
    message: str
    headers: dict[str, str] | None = None
    extensions: dict[str, Any] = field(default_factory=dict)

    def response(self) -> JSONResponse:
        return json_error(self.status, self.code, self.message, self.headers, **self.extensions)

    @property
    def close_reason(self) -> str:
        """The WebSocket close reason (at most 123 bytes, as the protocol allows)."""
        return f"{self.code}: {self.message}".encode()[:123].decode(errors="ignore")


def rate_limited(wait: float, message: str = "Rate limit exceeded") -> Refusal:
    """A 429 ``RATE_LIMITED`` refusal telling the client to retry in ``wait`` seconds."""
    retry = max(1, int(wait + 0.999))
    return Refusal(
        429,
        "RATE_LIMITED",
        f"{message}; retry in {retry} s.",
        {"retry-after": str(retry)},
        {"retryAfterSeconds": retry},
    )


@dataclass
class TokenBucket:
    """Classic token bucket: ``capacity`` tokens, refilled at ``rate`` tokens per second."""

    capacity: float
    rate: float
    tokens: float = -1.0
    stamp: float = 0.0

    def take(self, now: float, cost: float = 1.0) -> float:
        """Take ``cost`` tokens (at most a full bucket) at time ``now``; returns 0 when
        granted, else the seconds to wait (nothing is taken then)."""
        if self.tokens < 0:
            self.tokens, self.stamp = self.capacity, now
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        cost = min(cost, self.capacity)
        if self.tokens >= cost:
            self.tokens -= cost
            return 0.0
        return (cost - self.tokens) / self.rate if self.rate > 0 else float("inf")


def process_bucket(per_minute: int, processes: int) -> TokenBucket:
    """This process's share of a per-minute budget shared by ``processes`` processes: capacity
    and refill divided by N (capacity at least one request)."""
    share = per_minute / max(1, processes)
    return TokenBucket(max(1.0, share), share / 60.0)


@dataclass
class RateLimiter:
    """One bucket per API key in process memory, holding this process's share (``1/processes``)
    of the key's per-minute budget."""

    per_minute: int
    processes: int = 1
    clock: Callable[[], float] = time.monotonic
    buckets: dict[str, TokenBucket] = field(default_factory=dict)

    def take(self, key: str, cost: int = 1) -> float:
        """Take ``cost`` requests' worth of ``key``'s budget: 0 when granted, else the seconds
        until it would be (nothing taken)."""
        if self.per_minute <= 0:
            return 0.0  # disabled
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) > 100_000:  # bound memory under key churn
                self.buckets.clear()
            bucket = self.buckets[key] = process_bucket(self.per_minute, self.processes)
        return bucket.take(self.clock(), cost)


def parse_networks(text: str) -> tuple[Network, ...]:
    """``"10.0.0.0/8, 192.168.1.7"`` as networks (a bare address is a /32 or /128).

    Raises:
        ValueError: an entry is not an address or network (naming it).
    """
    networks = []
    for entry in (e.strip() for e in text.split(",")):
        if not entry:
            continue
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ValueError(f"trusted proxy {entry!r} is not an IP address or network") from None
    return tuple(networks)


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None


def client_address(peer: str, forwarded_for: str | None, trusted: Sequence[Network]) -> str:
    """The address a request comes from (pure): the socket ``peer``, unless it is a trusted
    proxy; then the right-most ``X-Forwarded-For`` entry not added by a trusted proxy (a
    client can prepend anything, only what the trusted chain appended counts). An entry that
    is not an address stops the walk at the last good one."""

    def is_trusted(ip: ipaddress.IPv4Address | ipaddress.IPv6Address | None) -> bool:
        return ip is not None and any(ip in net for net in trusted)

    if not trusted or not forwarded_for or not is_trusted(_ip(peer)):
        return peer
    address = peer
    for entry in reversed(forwarded_for.split(",")):
        ip = _ip(entry)
        if ip is None:
            break
        address = str(ip)
        if not is_trusted(ip):
            break
    return address


@dataclass
class AuthFailureLimiter:
    """Failed authentications per identity (the auth middleware keys one limiter by client
    address + presented key, another by address alone): ``per_minute`` failures (this process's
    share: ``1/processes`` of them), then the identity is refused (429) until its bucket
    refills. Memory is bounded: at most ``max_addresses`` buckets, the least recently failing
    identity is forgotten first."""

    per_minute: int
    processes: int = 1
    max_addresses: int = 10_000
    clock: Callable[[], float] = time.monotonic
    buckets: OrderedDict[str, TokenBucket] = field(default_factory=OrderedDict)

    def wait(self, address: str) -> float:
        """0 when ``address`` may try to authenticate, else the seconds until it may."""
        bucket = self.buckets.get(address)
        if self.per_minute <= 0 or bucket is None:
            return 0.0
        now = self.clock()
        tokens = min(bucket.capacity, bucket.tokens + (now - bucket.stamp) * bucket.rate)
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) / bucket.rate

    def failed(self, address: str) -> None:
        """Record one failed authentication of ``address``."""
        if self.per_minute <= 0:
            return
        bucket = self.buckets.pop(address, None)
        if bucket is None:
            bucket = process_bucket(self.per_minute, self.processes)
            while len(self.buckets) >= self.max_addresses:
                self.buckets.popitem(last=False)
        bucket.take(self.clock())
        self.buckets[address] = bucket  # most recent last


class BodySizeLimit:
    """Refuses request bodies over ``max_bytes`` with 413, by header or while streaming."""

    def __init__(
        self, app: ASGIApp, max_bytes: int, per_path: dict[str, int] | None = None
    ) -> None:
        self.app = app
        self.default_max = max_bytes
        self.per_path = per_path or {}  # routes with their own limit (the import upload)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        max_bytes = self.per_path.get(scope.get("path", ""), self.default_max)
        for name, value in scope["headers"]:
            if name == b"content-length" and value.isdigit() and int(value) > max_bytes:
                await self._refuse(scope, receive, send)
                return
        received = 0
        too_big = False
        response_started = False

        async def limited_receive() -> Message:
            nonlocal received, too_big
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > max_bytes:
                    too_big = True
                    raise _BodyTooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal response_started
            if message["type"] == "http.response.start":
                response_started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except _BodyTooLarge:
            if not response_started:
                await self._refuse(scope, receive, send)
        if too_big and not response_started:
            return

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        await json_error(
            413,
            "BAD_INPUT",
            f"Request body exceeds {self.per_path.get(scope.get('path', ''), self.default_max)} bytes.",
            reason="body_size",
        )(scope, receive, send)


class _BodyTooLarge(Exception):
    pass
