"""Whose ontologies the Neo4j Browser style (``/browser-guide/hippograph.grass``) shows, and a
short-lived cache of their labels.

The style is public: Neo4j Browser fetches it cross-origin and without a key right after
connecting (``browser.post_connect_cmd``). Without a key it carries the built-in types only,
and nothing is read from the store. With an API key (``Authorization: Bearer`` or
``X-API-Key``) it adds the ontologies of the key's tenant: the tenant's own and those of the
agents the key covers (an ``--all-agents`` key: every agent of the tenant). An admin key, and
every request while authentication is off (loopback only), sees every stored ontology. A wrong
key is refused (401) and counts against the client address's failure budget, so the style is
no place to try keys at leisure.

Labels are kept per scope for ``ttl_s`` seconds, at most ``max_scopes`` scopes (the least
recently used goes first): a call does not read and parse every ontology again.
"""

from __future__ import annotations

import hmac
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import Response

from graph.errors import GraphUnavailable
from graph.executor import Executor
from graph.memory.ontology.builtin import BUILTIN
from graph.memory.ontology.labels import declared_labels, type_labels
from server.auth import is_loopback, key_from_headers
from server.limits import AuthFailureLimiter, client_address, json_error, parse_networks
from server.settings import Settings

__all__ = ["EVERY", "PUBLIC", "StyleAccess", "StyleLabels", "StyleScope"]

STYLE_CACHE_TTL_S = 30.0
STYLE_CACHE_SCOPES = 256


@dataclass(frozen=True)
class StyleScope:
    """Whose stored ontologies a style shows: every one (``every``), a tenant's (``tenant``;
    ``agents``: the agents its key covers, None: all of the tenant's), or none (the public
    style: the built-in types)."""

    tenant: str | None = None
    agents: frozenset[str] | None = None
    every: bool = False

    @property
    def reads(self) -> bool:
        return self.every or self.tenant is not None


PUBLIC = StyleScope()
EVERY = StyleScope(every=True)


class StyleAccess:
    """The scope of a style request, from its key, resolved as the API resolves keys (the
    admin key, else ``app.state.key_store``)."""

    def __init__(self, settings: Settings) -> None:
        self.auth_disabled = settings.auth_disabled
        secret = settings.admin_api_key
        self.admin_key = secret.get_secret_value() if secret is not None else None
        self.trusted = parse_networks(settings.trusted_proxies)
        self.failures = AuthFailureLimiter(
            settings.auth_failures_per_address_per_minute, settings.api_processes
        )

    async def scope(self, request: Request, cors: Mapping[str, str]) -> StyleScope | Response:
        """The request's scope, or the refusal to send: 401 (a wrong key), 429 (too many wrong
        keys from its address), 503 (the store is down and the key not cached)."""
        if self.auth_disabled:
            server = request.scope.get("server") or (None, None)
            return EVERY if server[0] is None or is_loopback(server[0]) else PUBLIC
        key = key_from_headers({k.lower(): v for k, v in request.headers.items()})
        if key is None:
            return PUBLIC
        address = client_address(
            request.client.host if request.client else "?",
            request.headers.get("x-forwarded-for"),
            self.trusted,
        )
        locked = self.failures.wait(address)
        if locked > 0:
            retry = str(max(1, int(locked + 0.999)))
            return json_error(
                429,
                "RATE_LIMITED",
                f"Too many failed authentications; retry in {retry} s.",
                {**cors, "retry-after": retry},
            )
        if self.admin_key and hmac.compare_digest(key.encode(), self.admin_key.encode()):
            return EVERY
        store = getattr(request.app.state, "key_store", None)
        try:
            principal = await store.resolve(key) if store is not None else None
        except GraphUnavailable:
            return json_error(503, "UNAVAILABLE", "The memory store is unavailable.", {**cors})
        if principal is None:
            self.failures.failed(address)
            return json_error(
                401,
                "FORBIDDEN",
                "Unknown or revoked API key.",
                {**cors, "www-authenticate": "Bearer"},
            )
        if principal.admin:
            return EVERY
        return StyleScope(principal.tenant, None if principal.all_agents else principal.agents)


class StyleLabels:
    """Type → label of the ontologies a scope shows, kept ``ttl_s`` seconds per scope, at most
    ``max_scopes`` scopes. The public scope never reads the store."""

    def __init__(
        self,
        ttl_s: float = STYLE_CACHE_TTL_S,
        max_scopes: int = STYLE_CACHE_SCOPES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.ttl_s = ttl_s
        self.max_scopes = max_scopes
        self.clock = clock
        self._kept: OrderedDict[StyleScope, tuple[float, dict[str, str]]] = OrderedDict()

    async def get(self, executor: Executor, scope: StyleScope) -> dict[str, str]:
        """The scope's labels (raises GraphError when they must be read and cannot be)."""
        if not scope.reads:
            return type_labels(BUILTIN)
        now = self.clock()
        kept = self._kept.get(scope)
        if kept is not None and now - kept[0] < self.ttl_s:
            self._kept.move_to_end(scope)
            return kept[1]
        if scope.every:
            labels = await declared_labels(executor)
        else:
            labels = await declared_labels(executor, tenant=scope.tenant, agents=scope.agents)
        self._kept[scope] = (now, labels)
        self._kept.move_to_end(scope)
        while len(self._kept) > self.max_scopes:
            self._kept.popitem(last=False)
        return labels
