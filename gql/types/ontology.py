"""The ontology types: what an agent's memory is made of (``ontology`` query,
``defineOntology`` / ``defineTenantOntology`` mutations; graph/memory/ontology)."""

from __future__ import annotations

import asyncio

import strawberry

from gql.errors import UserError
from graph.executor import Executor
from graph.memory import ontology as domain
from graph.memory.ontology import parse_ontology_text
from graph.memory.ontology.check import Finding
from graph.memory.ontology.service import (
    CheckReport,
    check_ontology,
    define_ontology,
    scope_ontology,
)

__all__ = ["DefineOntologyPayload", "Ontology", "define", "define_payload_from", "ontology_from"]


@strawberry.type(description="A kind of entity the ontology declares.")
class EntityType:
    name: str = strawberry.field(description="Lowercase snake_case name, e.g. `customer`.")
    description: str = strawberry.field(description="What it is (the LLM prompt shows it).")
    parent: str | None = strawberry.field(
        description="The type it is a kind of; null: directly under the root `thing`."
    )
    aliases: list[str] = strawberry.field(
        description="Other names an extraction may give it; they are mapped to this type."
    )
    identifier: bool = strawberry.field(
        description="Its names are identifiers (ticket numbers): a mention is the same entity "
        "only by the same name or alias, never because it looks alike."
    )


@strawberry.type(
    description="A kind of relationship the ontology declares, `source -[name]-> target`."
)
class RelationType:
    name: str = strawberry.field(description="snake_case name, e.g. `subscribed_to`.")
    description: str = strawberry.field(description="What it means (the LLM prompt shows it).")
    source: list[str] = strawberry.field(
        description="Entity types the source may have (a subtype counts); empty: any."
    )
    target: list[str] = strawberry.field(
        description="Entity types the target may have (a subtype counts); empty: any."
    )
    single_valued: bool = strawberry.field(
        description="A source holds at most one active target of this type."
    )
    supersedes: bool = strawberry.field(
        description="Single-valued only: a new target closes the old one (else the first "
        "target stays and a different one is refused)."
    )
    inverse: str | None = strawberry.field(
        description="The name of the same relation read from the target; an extraction that "
        "uses it is stored turned around, as one relationship."
    )
    aliases: list[str] = strawberry.field(
        description="Other names an extraction may give it (the offline extractor's verbs "
        "included); they are mapped to this type."
    )


@strawberry.type(description="The entity and relation types an agent's memory is made of.")
class Ontology:
    name: str = strawberry.field(description="The ontology's name (`built-in` without one).")
    description: str = strawberry.field(description="What the ontology covers.")
    version: int = strawberry.field(
        description="Version in its scope (0: the built-in one). Facts keep the version they "
        "were extracted under."
    )
    scope: str = strawberry.field(
        description="`agent` (the agent's own), `tenant` (its tenant's) or `builtin`."
    )
    strict: bool = strawberry.field(
        description="True: undeclared types are mapped to declared ones or dropped, with a "
        "warning. False (the built-in one): they are kept as extracted."
    )
    entity_types: list[EntityType] = strawberry.field(description="Declared entity types.")
    relation_types: list[RelationType] = strawberry.field(description="Declared relation types.")


@strawberry.type(
    description="Stored items of one kind that an ontology does not fit (kept as they are)."
)
class OntologyFinding:
    kind: str = strawberry.field(
        description="`entity_type`, `relation_type`, `relation_ends` or `single_valued`."
    )
    type: str = strawberry.field(description="The entity or relation type concerned.")
    count: int = strawberry.field(description="How many stored items (or sources) it concerns.")
    detail: str = strawberry.field(description="What does not fit, in words.")
    examples: list[str] = strawberry.field(
        description="A few entity keys, or ids of the facts that evidence the relationships."
    )


@strawberry.type(description="Result of `defineOntology` / `defineTenantOntology`.")
class DefineOntologyPayload:
    ontology: Ontology | None = strawberry.field(
        default=None, description="The ontology in force after the call (before it on a dry run)."
    )
    version: int = strawberry.field(
        default=0, description="The version the document is (or would be, on a dry run)."
    )
    changed: bool = strawberry.field(
        default=False,
        description="A new version was stored (false: dry run, or the same document again).",
    )
    changes: list[str] = strawberry.field(
        default_factory=list,
        description="Declarations added (`+`), removed (`-`) or changed (`~`), one per line.",
    )
    findings: list[OntologyFinding] = strawberry.field(
        default_factory=list,
        description="Stored items the new ontology does not fit; they stay stored and readable.",
    )
    agents_counted: int = strawberry.field(
        default=0, description="How many agents the findings were counted over."
    )
    errors: list[UserError] = strawberry.field(
        default_factory=list, description="Why nothing was defined (e.g. an invalid document)."
    )


def ontology_from(o: domain.Ontology) -> Ontology:
    return Ontology(
        name=o.name,
        description=o.description,
        version=o.version,
        scope=o.scope,
        strict=o.strict,
        entity_types=[
            EntityType(
                name=t.name,
                description=t.description,
                parent=t.parent,
                aliases=list(t.aliases),
                identifier=t.identifier,
            )
            for t in o.entity_types
        ],
        relation_types=[
            RelationType(
                name=r.name,
                description=r.description,
                source=list(r.source),
                target=list(r.target),
                single_valued=r.single_valued,
                supersedes=r.supersedes,
                inverse=r.inverse,
                aliases=list(r.aliases),
            )
            for r in o.relation_types
        ],
    )


def _finding(f: Finding) -> OntologyFinding:
    return OntologyFinding(
        kind=f.kind, type=f.type, count=f.count, detail=f.detail, examples=list(f.examples)
    )


def define_payload_from(
    ontology: domain.Ontology, version: int, changed: bool, report: CheckReport
) -> DefineOntologyPayload:
    return DefineOntologyPayload(
        ontology=ontology_from(ontology),
        version=version,
        changed=changed,
        changes=report.changes,
        findings=[_finding(f) for f in report.findings],
        agents_counted=report.agents,
        errors=[],
    )


async def define(
    executor: Executor, scope: str, scope_id: str, document: str | None, dry_run: bool
) -> DefineOntologyPayload:
    """What both define mutations do: parse, check, then (unless ``dry_run``) apply. The
    document is read in a worker thread: a large one costs up to a few hundred milliseconds
    of parsing, which other requests on the event loop should not wait for."""
    new = await asyncio.to_thread(parse_ontology_text, document) if document is not None else None
    if dry_run:
        report = await check_ontology(executor, scope, scope_id, new)
        version = report.current.version + (1 if report.changes else 0)
        return define_payload_from(report.current, version, False, report)
    applied, report = await define_ontology(executor, scope, scope_id, new, by="graphql")
    in_force = await scope_ontology(executor, scope, scope_id)
    return define_payload_from(in_force, applied.version, applied.changed, report)
