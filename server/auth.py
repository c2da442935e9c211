"""API keys and request authentication.

A key is ``hg_`` + 32 random bytes (URL-safe base64), shown once at creation; Neo4j stores only
its sha256 (``(:ApiKey {key_hash})``). A request presents it as ``Authorization: Bearer <key>``
or ``X-API-Key: <key>``; :class:`AuthMiddleware` resolves it to a
:class:`~gql.permissions.Principal` (cached briefly) and enforces the per-key rate limit before
GraphQL sees the request. With ``auth_disabled`` every request is the local admin, which is only
allowed on a loopback socket.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from gql.errors import RETRY_AFTER_S
from gql.permissions import LOCAL_ADMIN, Principal
from graph.errors import BadInput, GraphUnavailable, NotFound
from graph.executor import Executor
from graph.tenancy import claim_agents
from server.limits import (
    AuthFailureLimiter,
    Network,
    RateLimiter,
    Refusal,
    client_address,
    rate_limited,
)
from server.sockets import SocketSession, SocketSlots

__all__ = [
    "ApiKeyInfo",
    "ApiKeyStore",
    "AuthMiddleware",
    "Refusal",
    "generate_key",
    "hash_key",
    "is_loopback",
    "key_from_headers",
]

KEY_PREFIX = "hg_"
CACHE_TTL_S = 30.0
SOCKET_PROTOCOL = "graphql-transport-ws"


def generate_key() -> str:
    """A new random API key (shown to the operator once, never stored)."""
    return KEY_PREFIX + secrets.token_urlsafe(32)


def hash_key(key: str) -> str:
    """What is stored and looked up: sha256 hex of the key."""
    return hashlib.sha256(key.encode()).hexdigest()


def is_loopback(host: str | None) -> bool:
    """True for 127.0.0.0/8, ::1 and 'localhost'."""
    if not host:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def key_from_headers(headers: dict[str, str]) -> str | None:
    """The presented key from ``Authorization: Bearer`` or ``X-API-Key`` (lowercase names)."""
    auth = headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return headers.get("x-api-key", "").strip() or None


@dataclass(frozen=True)
class ApiKeyInfo:
    """An API key as listed (never includes the key)."""

    id: str
    tenant: str
    agents: list[str]
    all_agents: bool
    admin: bool
    created_at: datetime | None = None
    revoked_at: datetime | None = None


class ApiKeyStore:
    """Create, list, revoke and resolve API keys (``cypher/auth/``)."""

    def __init__(self, executor: Executor) -> None:
        self.executor = executor
        self._cache: dict[str, tuple[float, Principal | None]] = {}

    async def create(
        self, tenant: str, agents: list[str], *, all_agents: bool = False, admin: bool = False
    ) -> tuple[str, str]:
        """Store a new key; returns ``(key_id, key)``. The key cannot be recovered later.

        Raises:
            BadInput: no tenant, neither agents nor all_agents/admin given, or an agent that
                belongs to another tenant.
        """
        tenant = tenant.strip()
        agents = sorted({a.strip() for a in agents if a.strip()})
        if not tenant:
            raise BadInput("a tenant name is required")
        if not agents and not all_agents and not admin:
            raise BadInput("give --agents a,b or --all-agents (or --admin)")
        if not admin:
            await claim_agents(self.executor, tenant, agents)  # refuses another tenant's agent
        key, key_id = generate_key(), str(uuid.uuid4())
        await self.executor.run(
            "auth/create_key",
            {
                "id": key_id,
                "tenant": tenant,
                "key_hash": hash_key(key),
                "agents": agents,
                "all_agents": all_agents,
                "admin": admin,
            },
        )
        return key_id, key

    async def list(self, tenant: str | None = None) -> list[ApiKeyInfo]:
        rows = await self.executor.run("auth/list_keys", {"tenant": tenant}, read=True)
        return [ApiKeyInfo(**r) for r in rows]

    async def revoke(self, key_id: str) -> None:
        """Revoke a key (cached lookups expire within ``CACHE_TTL_S``). Raises NotFound."""
        rows = await self.executor.run("auth/revoke_key", {"id": key_id})
        if not rows:
            raise NotFound(f"no API key {key_id!r}")
        self._cache.clear()

    async def resolve(self, key: str) -> Principal | None:
        """The principal of a presented key, or None (unknown or revoked).

        Raises:
            GraphUnavailable: Neo4j is down and the key is not in the short-lived cache.
        """
        digest = hash_key(key)
        now = time.monotonic()
        cached = self._cache.get(digest)
        if cached and now - cached[0] < CACHE_TTL_S:
            return cached[1]
        rows = await self.executor.run("auth/find_key", {"key_hash": digest}, read=True)
        principal = None
        if rows:
            r = rows[0]
            principal = Principal(
                tenant=r["tenant"],
                agents=frozenset(r["agents"] or []),
                all_agents=bool(r["all_agents"]),
                admin=bool(r["admin"]),
                key_id=r["id"],
            )
        if len(self._cache) > 10_000:
            self._cache.clear()
        self._cache[digest] = (now, principal)
        return principal


class AuthMiddleware:
    """Authenticates ``/graphql`` (and ``/mcp``) requests and applies the per-key rate limit.

    The GraphiQL page (a GET without ``query``) is served without a key; the operations it
    sends carry the key in the headers editor. ``store`` defaults to ``app.state.key_store``
    (set by the lifespan, which owns the Neo4j driver).
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        store: Any | None = None,
        auth_disabled: bool,
        admin_key: str | None,
        limiter: RateLimiter,
        failures: AuthFailureLimiter | None = None,
        address_failures: AuthFailureLimiter | None = None,
        trusted_proxies: Sequence[Network] = (),
        sockets: SocketSlots | None = None,
        paths: tuple[str, ...] = ("/graphql",),
        websocket_paths: tuple[str, ...] = ("/graphql",),
        deferred_limit_paths: tuple[str, ...] = (),
        optional_paths: tuple[str, ...] = (),
    ) -> None:
        self.app = app
        self.store = store
        self.auth_disabled = auth_disabled
        self.admin_key = admin_key
        self.limiter = limiter
        # Failed authentications: per (client address, presented key) — a client retrying a
        # wrong key is locked out alone, not every client behind its proxy — and, with a
        # larger budget, per address (a spray of different keys).
        self.failures = failures or AuthFailureLimiter(10)
        self.address_failures = address_failures or AuthFailureLimiter(100)
        self.trusted_proxies = tuple(trusted_proxies)
        self.sockets = sockets or SocketSlots()
        self.paths = paths
        # WebSocket upgrades authenticated here (a key in the headers) or by the route (a key
        # in the first message), each with its ``scope["state"]["socket"]`` session.
        self.websocket_paths = websocket_paths
        # Over-budget requests on these paths pass with ``state["rate_wait_s"]`` set, for the
        # route to refuse in its own protocol (MCP tool calls answer a RATE_LIMITED tool error).
        self.deferred_limit_paths = deferred_limit_paths
        # A request without a key passes these unauthenticated (no principal: the route
        # answers less); a request with a key is authenticated as on ``paths``.
        self.optional_paths = optional_paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope["path"] in self.websocket_paths:
            await self._websocket(scope, receive, send)
            return
        if scope["type"] != "http" or scope["path"] not in self.paths + self.optional_paths:
            await self.app(scope, receive, send)
            return
        if (
            scope["path"] == "/graphql"
            and scope["method"] == "GET"
            and b"query=" not in scope.get("query_string", b"")
        ):
            await self.app(scope, receive, send)  # the GraphiQL page itself
            return
        headers = _headers(scope)
        if (
            scope["path"] in self.optional_paths
            and not self.auth_disabled
            and key_from_headers(headers) is None
        ):
            await self.app(scope, receive, send)
            return
        principal, refusal = await self.identify(scope, key_from_headers(headers))
        if refusal is not None:
            await refusal.response()(scope, receive, send)
            return
        assert principal is not None
        bucket = self.bucket(principal, scope)
        wait = self.limiter.take(bucket)
        state = scope.setdefault("state", {})
        # Requests that are worth more than one (aliased mutations) take the rest later.
        state["rate_take"] = lambda cost, _limiter=self.limiter: _limiter.take(bucket, cost)
        if scope["path"] in self.deferred_limit_paths:
            state["rate_wait_s"] = wait
        elif wait > 0:
            await rate_limited(wait).response()(scope, receive, send)
            return
        state["principal"] = principal
        await self.app(scope, receive, send)

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A WebSocket upgrade, with its :class:`~server.sockets.SocketSession` in
        ``state["socket"]`` for the GraphQL view. The address's lock-out and socket cap are
        checked first (a refusal closes the socket with 4429). A key in the headers (or auth
        off) is checked now: a refusal of the key answers the upgrade (401/403/429/503), the
        key's socket cap or rate budget closes the socket (4429); without one, the view
        authenticates the ``connection_init`` payload through the session."""
        session = SocketSession(self, scope, self.sockets)
        try:
            refusal = session.admit()
            if refusal is not None:
                await _close_socket(scope, receive, send, refusal)
                return
            state = scope.setdefault("state", {})
            state["socket"] = session
            presented = key_from_headers(_headers(scope))
            if presented is not None or self.auth_disabled:
                principal, refusal = await session.identify(presented)
                if refusal is not None:
                    await refusal.response()(scope, receive, send)
                    return
                assert principal is not None
                refusal = session.enter(principal, presented)
                if refusal is not None:
                    await _close_socket(scope, receive, send, refusal)
                    return
                state["principal"] = principal
            await self.app(scope, receive, send)
        finally:
            session.close()

    async def identify(
        self, scope: Scope, presented: str | None
    ) -> tuple[Principal | None, Refusal | None]:
        """The principal of a presented key (HTTP header, WebSocket header or
        ``connection_init`` payload), or why it is refused: missing or unknown key, too many
        failed attempts, Neo4j down. The caller takes the rate budget (a request, or a
        socket's :meth:`~server.sockets.SocketSession.enter`)."""
        address = self.address(scope)
        # The presented key's identity: a hash prefix (the key itself is never kept).
        identity = f"{address}|{hash_key(presented)[:16]}" if presented is not None else None
        locked = max(
            self.address_failures.wait(address),
            self.failures.wait(identity) if identity is not None else 0.0,
        )
        if locked > 0:
            retry = max(1, int(locked + 0.999))
            return None, Refusal(
                429,
                "RATE_LIMITED",
                f"Too many failed authentications; retry in {retry} s.",
                {"retry-after": str(retry)},
                {"retryAfterSeconds": retry},
            )
        principal, refusal = await self.authenticate(scope, presented)
        if refusal is not None:
            if refusal.status == 401 and identity is not None:
                self.failures.failed(identity)  # a wrong key, not a missing one
                self.address_failures.failed(address)
            return None, refusal
        return principal, None

    def bucket(self, principal: Principal, scope: Scope) -> str:
        """The rate budget (and socket count) ``principal`` takes from: its key, or its
        client address without one (auth off)."""
        return principal.key_id or f"ip:{self.address(scope)}"

    def address(self, scope: Scope) -> str:
        """The client address of ``scope`` (``X-Forwarded-For`` only from trusted proxies)."""
        forwarded = ",".join(
            v.decode("latin-1") for k, v in scope["headers"] if k.lower() == b"x-forwarded-for"
        )
        return client_address(
            str((scope.get("client") or ("?",))[0]), forwarded, self.trusted_proxies
        )

    async def authenticate(
        self, scope: Scope, key: str | None
    ) -> tuple[Principal | None, Refusal | None]:
        """The principal of ``key`` (the operator with auth off), or why it is refused; no
        failure is counted here (see :meth:`identify`)."""
        if self.auth_disabled:
            server = scope.get("server") or (None, None)
            if server[0] is not None and not is_loopback(server[0]):
                return None, Refusal(
                    403,
                    "FORBIDDEN",
                    "Authentication is disabled but the server is not on loopback; refusing.",
                )
            return LOCAL_ADMIN, None
        if key is None:
            return None, Refusal(
                401,
                "FORBIDDEN",
                "Missing API key (Authorization: Bearer <key> or X-API-Key).",
                {"www-authenticate": "Bearer"},
            )
        if self.admin_key and hmac.compare_digest(key.encode(), self.admin_key.encode()):
            return Principal(tenant="admin", all_agents=True, admin=True, key_id="admin"), None
        store = self.store or scope["app"].state.key_store
        try:
            principal = await store.resolve(key)
        except GraphUnavailable:
            return None, Refusal(
                503,
                "UNAVAILABLE",
                f"The memory store is unavailable; retry in {RETRY_AFTER_S} s.",
                {"retry-after": str(RETRY_AFTER_S)},
                {"retryAfterSeconds": RETRY_AFTER_S},
            )
        if principal is None:
            return None, Refusal(
                401, "FORBIDDEN", "Unknown or revoked API key.", {"www-authenticate": "Bearer"}
            )
        return principal, None


async def _close_socket(scope: Scope, receive: Receive, send: Send, refusal: Refusal) -> None:
    """Accept the upgrade and close at once with 4000 + the refusal's status and its code and
    message as the reason (a browser's WebSocket sees a close code, never an HTTP status)."""
    socket = WebSocket(scope, receive, send)
    offered = scope.get("subprotocols") or []
    await socket.accept(subprotocol=SOCKET_PROTOCOL if SOCKET_PROTOCOL in offered else None)
    await socket.close(code=4000 + refusal.status, reason=refusal.close_reason)


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
