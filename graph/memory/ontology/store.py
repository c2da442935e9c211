"""Ontologies in Neo4j: every applied document is a version of its scope's ontology.

A scope is a tenant (every agent of the tenant) or one agent (it wins over its tenant's). The
ontology in force for an agent is the newest version of the agent's scope, else of its
tenant's, else the built-in one; a version without a document sends the scope back to what it
inherits. Versions are never changed or deleted, so a fact keeps the version it was extracted
under (``Fact.ontology_version``) readable. :class:`OntologyCache` keeps the one in force per
agent for a few seconds (several API processes see a change within that time; the process that
applied it at once).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from graph.errors import BadInput
from graph.executor import Executor, Transaction
from graph.memory.ontology.builtin import BUILTIN
from graph.memory.ontology.model import Ontology, parse_ontology

__all__ = [
    "SCOPES",
    "Applied",
    "OntologyCache",
    "apply_ontology",
    "from_rows",
    "ontology_in_force",
    "versions",
]

SCOPES = ("tenant", "agent")


@dataclass(frozen=True)
class Applied:
    """What ``apply_ontology`` did: ``changed`` False when the document equals the newest."""

    scope: str
    scope_id: str
    version: int
    changed: bool


def _check_scope(scope: str, scope_id: str) -> None:
    if scope not in SCOPES:
        raise BadInput(f"ontology scope must be one of {SCOPES}, got {scope!r}")
    if not scope_id or len(scope_id) > 256:
        raise BadInput(f"an ontology's {scope} id must be 1..256 characters")


async def apply_ontology(
    executor: Executor,
    scope: str,
    scope_id: str,
    ontology: Ontology | None,
    *,
    by: str | None = None,
) -> Applied:
    """Make ``ontology`` the newest version of the scope's (None: back to the inherited one).

    Applying the newest document again adds no version. Raises BadInput on a bad scope.
    """
    _check_scope(scope, scope_id)
    document = json.dumps(ontology.document(), ensure_ascii=False) if ontology else None
    digest = ontology.digest() if ontology else None

    async def work(tx: Transaction) -> Applied:
        rows = await tx.run("ontology/newest", scope=scope, scope_id=scope_id)
        newest = rows[0] if rows else None
        if newest is not None and newest["digest"] == digest:
            return Applied(scope, scope_id, newest["version"], changed=False)
        if newest is None and ontology is None:
            return Applied(scope, scope_id, 0, changed=False)
        version = (newest["version"] if newest else 0) + 1
        await tx.run(
            "ontology/add_version",
            scope=scope,
            scope_id=scope_id,
            version=version,
            title=ontology.name if ontology else None,
            document=document,
            digest=digest,
            now=datetime.now(UTC),
            by=by,
        )
        return Applied(scope, scope_id, version, changed=True)

    return await executor.write(work)


async def ontology_in_force(
    executor: Executor, agent_id: str, *, scopes: tuple[str, ...] = ("agent", "tenant")
) -> Ontology:
    """The ontology an agent's writes and reads use now (see the module); with
    ``scopes=("tenant",)`` the one it inherits from its tenant."""
    rows = await executor.run("ontology/in_force", {"agent_id": agent_id}, read=True)
    return from_rows(rows, scopes)


def from_rows(
    rows: Sequence[Mapping[str, Any]], scopes: tuple[str, ...] = ("agent", "tenant")
) -> Ontology:
    """The ontology in force from the rows of ``ontology/in_force``."""
    by_scope = {row["scope"]: row for row in rows}
    for scope in scopes:
        row = by_scope.get(scope)
        if row is not None and row["document"] is not None:
            stored = parse_ontology(json.loads(row["document"]), stored=True)
            return replace(stored, version=row["version"], scope=scope, scope_id=row["scope_id"])
    return BUILTIN


async def versions(executor: Executor, scope: str, scope_id: str) -> list[dict[str, Any]]:
    """Every version of a scope's ontology, newest first."""
    _check_scope(scope, scope_id)
    return await executor.run(
        "ontology/versions", {"scope": scope, "scope_id": scope_id}, read=True
    )


class OntologyCache:
    """The ontology in force per agent, kept ``ttl_s`` seconds (0: read every time)."""

    def __init__(self, executor: Executor, ttl_s: float = 5.0, max_agents: int = 10_000) -> None:
        self.executor = executor
        self.ttl_s = ttl_s
        self.max_agents = max_agents
        self._kept: dict[str, tuple[float, Ontology]] = {}

    async def get(self, agent_id: str) -> Ontology:
        kept = self._kept.get(agent_id)
        if kept is not None and time.monotonic() - kept[0] < self.ttl_s:
            return kept[1]
        rows = await self.executor.run("ontology/in_force", {"agent_id": agent_id}, read=True)
        return self.keep(agent_id, rows)

    def keep(self, agent_id: str, rows: Sequence[Mapping[str, Any]]) -> Ontology:
        """Keep the ontology read elsewhere (the write's event transaction reads its rows)."""
        ontology = from_rows(rows)
        if len(self._kept) >= self.max_agents:
            self._kept.clear()
        self._kept[agent_id] = (time.monotonic(), ontology)
        return ontology

    def forget(self) -> None:
        """Drop every kept ontology (after this process applied a new one)."""
        self._kept.clear()
