"""Tenancy: who is calling (:class:`Principal`) and the one permission class every field that
takes an ``agentId`` uses (:class:`AgentAccess`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import strawberry
from graphql import OperationType
from strawberry.permission import BasePermission, PermissionExtension
from strawberry.types import Info

from graph.executor import Executor
from graph.tenancy import may_access

__all__ = [
    "ANONYMOUS",
    "LOCAL_ADMIN",
    "AdminAccess",
    "AgentAccess",
    "Principal",
    "admin_mutation",
    "agent_field",
    "agent_mutation",
    "agent_subscription",
    "may_read",
]

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Principal:
    """The caller, as resolved from its API key (or the local operator when auth is off)."""

    tenant: str
    agents: frozenset[str] = field(default_factory=frozenset)
    all_agents: bool = False
    admin: bool = False
    key_id: str | None = None
    #: Scope set by the operator in the process environment (``HIPPOGRAPH_MCP_AGENT``), not by a
    #: client's key: limited to ``agents`` but exempt from tenant ownership, like the CLI.
    operator: bool = False

    def can_access(self, agent_id: str) -> bool:
        """True when this caller's key covers ``agent_id`` (the tenant check that the agent
        belongs to ``tenant`` is :func:`graph.tenancy.may_access`, done by AgentAccess)."""
        return self.admin or self.all_agents or agent_id in self.agents


ANONYMOUS = Principal(tenant="anonymous")
LOCAL_ADMIN = Principal(tenant="local", all_agents=True, admin=True)


async def may_read(executor: Executor, principal: Principal, agent_id: str) -> bool:
    """Whether ``principal`` may read ``agent_id`` (what :class:`AgentAccess` grants a query:
    the key covers the id and, unless it is an admin key, the agent belongs to its tenant;
    nothing is claimed)."""
    if not principal.can_access(agent_id):
        return False
    return principal.admin or await may_access(
        executor, principal.tenant, agent_id, named=agent_id in principal.agents, claim=False
    )


class AgentAccess(BasePermission):
    """Grants the field when the caller's key covers the ``agentId`` argument.

    Fields without an ``agentId`` argument are not guarded by this class (``health``). Queries
    never claim an agent id (see :mod:`graph.tenancy`); mutations may.
    """

    message = "This API key may not access that agent."
    error_extensions = {"code": "FORBIDDEN"}  # noqa: RUF012 - strawberry reads a class attribute

    async def has_permission(self, source: Any, info: Info, **kwargs: Any) -> bool:
        agent_id = kwargs.get("agent_id")
        if agent_id is None:  # a nested input carries it (mutations take `input`)
            agent_id = getattr(kwargs.get("input"), "agent_id", None)
        principal: Principal = getattr(info.context, "principal", ANONYMOUS)
        if not isinstance(agent_id, str) or not principal.can_access(agent_id):
            return False
        if principal.admin:
            return True
        # The key covers the id; the agent must also belong to the key's tenant. Only a
        # mutation may claim a new id: a query of an unowned id is refused like a foreign one.
        return await may_access(
            info.context.executor,
            principal.tenant,
            agent_id,
            named=agent_id in principal.agents,
            claim=info.operation.operation == OperationType.MUTATION,
        )


class AdminAccess(BasePermission):
    """Grants the field to admin keys only (the operator's key, an ``--admin`` key, or the local
    operator when authentication is off): erasing data is the operator's decision."""

    message = "This operation needs an admin API key."
    error_extensions = {"code": "FORBIDDEN"}  # noqa: RUF012 - strawberry reads a class attribute

    async def has_permission(self, source: Any, info: Info, **kwargs: Any) -> bool:
        principal: Principal = getattr(info.context, "principal", ANONYMOUS)
        return principal.admin


def _guard() -> list[Any]:
    # use_directives=False: keep permission directives out of the public SDL (codegen users).
    return [PermissionExtension(permissions=[AgentAccess()], use_directives=False)]


def agent_field(*, description: str, **kwargs: Any) -> Any:
    """``strawberry.field`` guarded by :class:`AgentAccess`."""
    return strawberry.field(description=description, extensions=_guard(), **kwargs)


def agent_mutation(*, description: str, **kwargs: Any) -> Any:
    """``strawberry.mutation`` guarded by :class:`AgentAccess`."""
    return strawberry.mutation(description=description, extensions=_guard(), **kwargs)


def agent_subscription(*, description: str, **kwargs: Any) -> Any:
    """``strawberry.subscription`` guarded by :class:`AgentAccess` (checked once, when the
    subscription starts; like a query, it never claims an agent id)."""
    return strawberry.subscription(description=description, extensions=_guard(), **kwargs)


def admin_mutation(*, description: str, **kwargs: Any) -> Any:
    """``strawberry.mutation`` guarded by :class:`AdminAccess` (and :class:`AgentAccess`, which
    an admin key always passes, so every ``agentId`` field carries the tenancy guard)."""
    return strawberry.mutation(
        description=description,
        extensions=[
            PermissionExtension(permissions=[AdminAccess(), AgentAccess()], use_directives=False)
        ],
        **kwargs,
    )
