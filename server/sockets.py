"""WebSocket connections at ``/graphql``: how many a key or a client address may hold, and what
one socket's authentication is.

:class:`SocketSlots` counts the open sockets of each client address (from the upgrade on) and
of each key (once the socket authenticated, by the upgrade's headers or its
``connection_init``) in this process, and refuses one past ``max_sockets_per_address`` or
``max_sockets_per_key`` (``RATE_LIMITED``, close code 4429). :class:`SocketSession` is one
socket's side of :class:`server.auth.AuthMiddleware`: it admits the upgrade (the address's
failed-authentication lock-out and cap), authenticates the socket once (that takes one request
of the key's rate budget, like an HTTP request), then, for every operation the socket sends,
resolves the presented key again (the key store's short cache is the staleness allowed) and
takes the operation's requests of the budget. The presented key is kept in memory for the
socket's life only, never stored or logged.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from starlette.types import Scope

from gql.permissions import Principal
from server.limits import Refusal, rate_limited

if TYPE_CHECKING:
    from server.auth import AuthMiddleware

__all__ = ["SocketSession", "SocketSlots"]


@dataclass
class SocketSlots:
    """Open sockets per key and per client address in this process, with their caps."""

    per_key: int = 20
    per_address: int = 50
    keys: Counter[str] = field(default_factory=Counter)
    addresses: Counter[str] = field(default_factory=Counter)

    def enter_address(self, address: str) -> Refusal | None:
        """Count a new socket of ``address``, or refuse it (nothing counted then)."""
        if self.addresses[address] >= self.per_address:
            return _full(f"This address holds {self.per_address} sockets on this server already")
        self.addresses[address] += 1
        return None

    def enter_key(self, key: str) -> Refusal | None:
        """Count an authenticated socket of ``key``, or refuse it (nothing counted then)."""
        if self.keys[key] >= self.per_key:
            return _full(f"This API key holds {self.per_key} sockets on this server already")
        self.keys[key] += 1
        return None

    def leave(self, address: str | None, key: str | None) -> None:
        """A socket counted for ``address`` (and ``key``) closed."""
        for counts, name in ((self.addresses, address), (self.keys, key)):
            if name is not None:
                counts[name] -= 1
                if counts[name] <= 0:
                    del counts[name]


def _full(message: str) -> Refusal:
    return Refusal(429, "RATE_LIMITED", f"{message}; close one first.")


class SocketSession:
    """One WebSocket's authentication, re-checks and rate budget (made by the auth middleware
    at the upgrade, found by the GraphQL view in ``scope["state"]["socket"]``)."""

    def __init__(self, auth: AuthMiddleware, scope: Scope, slots: SocketSlots) -> None:
        self.auth = auth
        self.scope = scope
        self.slots = slots
        self.address = auth.address(scope)
        self.key: str | None = None  # as presented, for the operations' re-checks
        self.principal: Principal | None = None
        self._address_slot: str | None = None
        self._key_slot: str | None = None

    def admit(self) -> Refusal | None:
        """The upgrade: refused while the address is locked out for failed authentications,
        or when it holds its cap of sockets."""
        locked = self.auth.address_failures.wait(self.address)
        if locked > 0:
            return rate_limited(locked, "Too many failed authentications")
        refusal = self.slots.enter_address(self.address)
        if refusal is None:
            self._address_slot = self.address
        return refusal

    async def identify(self, presented: str | None) -> tuple[Principal | None, Refusal | None]:
        """Who ``presented`` (the upgrade's key or the ``connection_init`` one) is, or why it
        is refused (:meth:`server.auth.AuthMiddleware.identify`: failures are counted)."""
        return await self.auth.identify(self.scope, presented)

    def enter(self, principal: Principal, presented: str | None) -> Refusal | None:
        """Count the authenticated socket against its key's cap and take one request of the
        key's budget; then the socket is ``principal``'s."""
        bucket = self.auth.bucket(principal, self.scope)
        refusal = self.slots.enter_key(bucket)
        if refusal is not None:
            return refusal
        self._key_slot = bucket
        wait = self.auth.limiter.take(bucket)
        if wait > 0:
            return rate_limited(wait)
        self.key, self.principal = presented, principal
        return None

    async def refresh(self) -> tuple[Principal | None, Refusal | None]:
        """The socket's key resolved again (revoked: a ``FORBIDDEN`` refusal)."""
        return await self.auth.authenticate(self.scope, self.key)

    def take(self, principal: Principal, cost: int = 1) -> float:
        """Take ``cost`` requests of ``principal``'s budget: 0 when granted, else the seconds
        to wait (nothing taken)."""
        return self.auth.limiter.take(self.auth.bucket(principal, self.scope), cost)

    def init_timed_out(self) -> None:
        """The socket never sent ``connection_init``: a failed authentication of its address."""
        self.auth.address_failures.failed(self.address)

    def close(self) -> None:
        """The socket closed: its places under the caps are free again."""
        self.slots.leave(self._address_slot, self._key_slot)
        self._address_slot = self._key_slot = None
