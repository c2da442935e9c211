"""What operators do with ontologies (the CLI and the GraphQL API call these): see the one in
force, check a new one against what is stored, apply it, go back to the inherited one."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from graph.executor import Executor
from graph.memory.ontology.builtin import BUILTIN
from graph.memory.ontology.check import Finding, diff, findings, stored_counts
from graph.memory.ontology.labels import relabel_agent
from graph.memory.ontology.model import Ontology, parse_ontology
from graph.memory.ontology.store import Applied, apply_ontology, ontology_in_force

__all__ = ["CheckReport", "check_ontology", "define_ontology", "relabel_scope", "scope_ontology"]


@dataclass(frozen=True)
class CheckReport:
    """A new ontology against the one in force: declarations changed, stored items that would
    not fit (they stay stored and readable), and how many agents were counted."""

    current: Ontology
    changes: list[str]
    findings: list[Finding]
    agents: int


async def scope_ontology(executor: Executor, scope: str, scope_id: str) -> Ontology:
    """The ontology in force for a scope: an agent's (its own, else its tenant's, else the
    built-in one) or a tenant's newest (else the built-in one)."""
    if scope == "agent":
        return await ontology_in_force(executor, scope_id)
    rows = await executor.run("ontology/newest", {"scope": scope, "scope_id": scope_id}, read=True)
    if not rows or rows[0]["document"] is None:
        return BUILTIN
    stored = parse_ontology(json.loads(rows[0]["document"]), stored=True)
    return replace(stored, version=rows[0]["version"], scope=scope, scope_id=scope_id)


async def _inherited(executor: Executor, scope: str, scope_id: str) -> Ontology:
    if scope == "agent":
        return await ontology_in_force(executor, scope_id, scopes=("tenant",))
    return BUILTIN


async def _agents(executor: Executor, scope: str, scope_id: str) -> list[str]:
    if scope == "agent":
        return [scope_id]
    rows = await executor.run("ontology/tenant_agents", {"tenant": scope_id}, read=True)
    return [row["agent_id"] for row in rows]


async def check_ontology(
    executor: Executor, scope: str, scope_id: str, new: Ontology | None
) -> CheckReport:
    """What applying ``new`` (None: going back to the inherited one) would change and meet."""
    current = await scope_ontology(executor, scope, scope_id)
    target = new or await _inherited(executor, scope, scope_id)
    agents = await _agents(executor, scope, scope_id)
    counts = await stored_counts(executor, agents, target.single_valued())
    return CheckReport(current, diff(current, target), findings(target, counts), len(agents))


async def define_ontology(
    executor: Executor, scope: str, scope_id: str, new: Ontology | None, *, by: str | None = None
) -> tuple[Applied, CheckReport]:
    """Check, then apply: stored facts and relationships are never changed (the report says
    what does not fit); the scope's entities are relabelled (``relabel_scope``)."""
    report = await check_ontology(executor, scope, scope_id, new)
    applied = await apply_ontology(executor, scope, scope_id, new, by=by)
    await relabel_scope(executor, scope, scope_id)
    return applied, report


async def relabel_scope(executor: Executor, scope: str, scope_id: str) -> int:
    """Give the entities of every agent of the scope the type labels of the ontology now in
    force for it (an agent of a tenant with an ontology of its own keeps its own), in batches;
    run even when the document was unchanged, so applying again repairs the labels. Returns
    how many entities were visited."""
    visited = 0
    for agent_id in await _agents(executor, scope, scope_id):
        ontology = await ontology_in_force(executor, agent_id)
        visited += await relabel_agent(executor, agent_id, ontology)
    return visited
