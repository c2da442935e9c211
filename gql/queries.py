"""Root query type. Resolvers are thin: validate, call ``graph.memory``, map to API types.

Every field with an ``agentId`` argument is guarded by ``AgentAccess`` (``agent_field``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

import strawberry
from strawberry.permission import PermissionExtension

from gql.context import Info
from gql.loaders import EntityKey
from gql.permissions import AdminAccess, agent_field
from gql.types.agent import AgentPage, AgentSummary, Viewer
from gql.types.curation import AuditEntry, Job, MergeCandidate, Observation
from gql.types.entity import Entity, EntityConnection, entity_connection
from gql.types.enums import FactKind, JobStatus, MergeCandidateStatus, WriteAction, to_pipeline
from gql.types.event import EventConnection, event_connection
from gql.types.fact import Fact, FactConnection, fact_connection
from gql.types.graph import Subgraph, subgraph_from
from gql.types.health import Health
from gql.types.maintenance import FailedMessage
from gql.types.ontology import Ontology, ontology_from
from gql.types.retrieve import (
    RetrieveBoost,
    RetrieveOptions,
    RetrieveResult,
    retrieve_result_from,
)
from gql.types.webhooks import (
    WebhookDeliveryStatus,
    WebhookDeliveryType,
    WebhookType,
    delivery_from,
    webhook_from,
)
from graph.errors import BadInput, NotFound
from graph.memory import browse
from graph.memory.browse.agents import agent_page, agent_summaries
from graph.memory.ontology.service import scope_ontology
from graph.memory.read.focus import TypeFocus
from graph.memory.text import normalize_relation_type
from graph.memory.write.failed import MAX_LISTED, failed_messages

__all__ = ["Query"]

AgentId = Annotated[
    strawberry.ID, strawberry.argument(description="The agent (memory owner) to read.")
]


@strawberry.type(description="Read operations of the Hippograph memory service.")
class Query:
    @strawberry.field(description="Health of the service and its Neo4j connection.")
    async def health(self, info: Info) -> Health:
        ctx = info.context
        report: dict[str, Any] = await ctx.readiness() if ctx.readiness else {"ready": False}
        return Health(
            ready=bool(report.get("ready")),
            neo4j_version=(report.get("neo4j") or {}).get("version"),
            llm_mode=ctx.memory.llm_mode,
            embedder=ctx.memory.embedder.name,
        )

    @strawberry.field(
        description="The agents this API key may read, with how much each remembers (agents "
        "it names are listed even when empty)."
    )
    async def agents(self, info: Info) -> list[AgentSummary]:
        p = info.context.principal
        named = None if (p.admin or p.all_agents) else sorted(p.agents)
        rows = await agent_summaries(
            info.context.executor, named, None if p.admin or p.operator else p.tenant
        )
        return [AgentSummary.from_row(r) for r in rows]

    @strawberry.field(
        description="A page of the agents this API key may read (`agents`, paged): ordered by "
        "id, optionally those whose id contains `search`; only the page's agents are counted."
    )
    async def agent_page(
        self,
        info: Info,
        search: Annotated[
            str | None, strawberry.argument(description="A part of the id (any case).")
        ] = None,
        first: Annotated[int, strawberry.argument(description="Page size (1..200).")] = 25,
        after: Annotated[
            str | None, strawberry.argument(description="The previous page's `endCursor`.")
        ] = None,
    ) -> AgentPage:
        p = info.context.principal
        named = None if (p.admin or p.all_agents) else sorted(p.agents)
        page = await agent_page(
            info.context.executor,
            named,
            None if p.admin or p.operator else p.tenant,
            search=search,
            after=after,
            first=first,
        )
        return AgentPage.from_page(page)

    @strawberry.field(description="What the calling API key grants (admin or not, its agents).")
    def viewer(self, info: Info) -> Viewer:
        p = info.context.principal
        named = [] if p.admin or p.all_agents else sorted(p.agents)
        return Viewer(admin=p.admin, all_agents=p.all_agents, agents=named)

    @agent_field(description="Memory context for a query: ranked facts, snippets and patterns.")
    async def retrieve(
        self,
        info: Info,
        agent_id: AgentId,
        query: Annotated[
            str, strawberry.argument(description="What the agent is about to answer.")
        ],
        as_of: Annotated[
            datetime | None,
            strawberry.argument(
                description="Time travel: retrieve as memory stood at this instant."
            ),
        ] = None,
        options: Annotated[
            RetrieveOptions | None,
            strawberry.argument(description="Per-call overrides of retrieval settings."),
        ] = None,
        entity_types: Annotated[
            list[str] | None,
            strawberry.argument(
                description="Only facts about an entity of these types, or of their subtypes "
                'in the agent\'s ontology (e.g. `["ticket"]`); null: every fact. Unknown '
                "types match nothing (an empty result, not an error)."
            ),
        ] = None,
        relation_types: Annotated[
            list[str] | None,
            strawberry.argument(
                description="Only facts that state a relationship of these types: the facts "
                'relationships of these types name as their evidence (e.g. `["owns"]`); null: '
                "every fact. Unknown types match nothing."
            ),
        ] = None,
        boost: Annotated[
            RetrieveBoost | None,
            strawberry.argument(
                description="Lift the facts of these entity or relation types over the others "
                "(none dropped); null: no lift."
            ),
        ] = None,
    ) -> RetrieveResult:
        focus = await _focus(info, str(agent_id), entity_types, relation_types, boost)
        result = await info.context.memory.retriever.retrieve(
            str(agent_id),
            query,
            as_of=as_of,
            options=options.as_dict() if options else None,
            focus=focus,
        )
        return retrieve_result_from(result, str(agent_id), as_of)

    @agent_field(
        description="The ontology in force for the agent: its own, else its tenant's, else the "
        "open built-in one."
    )
    async def ontology(self, info: Info, agent_id: AgentId) -> Ontology:
        return ontology_from(await scope_ontology(info.context.executor, "agent", str(agent_id)))

    @agent_field(description="One entity by key, or null when the agent has no such entity.")
    async def entity(
        self,
        info: Info,
        agent_id: AgentId,
        key: Annotated[
            str, strawberry.argument(description="Entity key, e.g. `person:clara_rezende`.")
        ],
    ) -> Entity | None:
        row = await info.context.loaders.entity.load(EntityKey(str(agent_id), key))
        return Entity.from_row(str(agent_id), row) if row else None

    @agent_field(description="Entities ordered by key, filtered by type and text (Relay pages).")
    async def entities(
        self,
        info: Info,
        agent_id: AgentId,
        type: Annotated[
            str | None,
            strawberry.argument(
                description="Only this type, with its subtypes in the agent's ontology (a "
                "`product` filter lists `subscription`s too)."
            ),
        ] = None,
        text: Annotated[
            str | None,
            strawberry.argument(
                description="Case-insensitive substring of the name, key or an alias."
            ),
        ] = None,
        first: Annotated[
            int, strawberry.argument(description=f"At most this many (1..{browse.MAX_PAGE}).")
        ] = 20,
        after: Annotated[
            str | None,
            strawberry.argument(
                description="Cursor from `pageInfo.endCursor` of the previous page."
            ),
        ] = None,
        include_merged: Annotated[
            bool, strawberry.argument(description="Also list entities merged into others.")
        ] = False,
    ) -> EntityConnection:
        subtypes = await _subtypes(info, str(agent_id), *[type] if type else [])
        page = await info.context.memory.browse.entities(
            str(agent_id),
            type=type,
            text=text,
            first=first,
            after=after,
            include_merged=include_merged,
            subtypes=subtypes,
        )
        return entity_connection(str(agent_id), page)

    @agent_field(description="Facts, newest first, with time travel and filters (Relay pages).")
    async def facts(
        self,
        info: Info,
        agent_id: AgentId,
        as_of: Annotated[
            datetime | None,
            strawberry.argument(description="Time travel: facts valid and known at this instant."),
        ] = None,
        include_invalidated: Annotated[
            bool, strawberry.argument(description="Also return ended and invalidated facts.")
        ] = False,
        entity_key: Annotated[
            str | None, strawberry.argument(description="Only facts about this entity.")
        ] = None,
        kind: Annotated[FactKind | None, strawberry.argument(description="Only this kind.")] = None,
        first: Annotated[
            int, strawberry.argument(description=f"At most this many (1..{browse.MAX_PAGE}).")
        ] = 20,
        after: Annotated[str | None, strawberry.argument(description="Cursor.")] = None,
        entity_type: Annotated[
            str | None,
            strawberry.argument(
                description="Only facts about an entity of this type or one of its subtypes "
                "in the agent's ontology."
            ),
        ] = None,
    ) -> FactConnection:
        subtypes = await _subtypes(info, str(agent_id), *[entity_type] if entity_type else [])
        kinds = (entity_type.lower(), *subtypes) if entity_type else None
        page = await info.context.memory.browse.facts(
            str(agent_id),
            as_of=as_of,
            include_invalidated=include_invalidated,
            entity_key=entity_key,
            kind=to_pipeline(kind),
            first=first,
            after=after,
            entity_types=kinds,
        )
        return fact_connection(str(agent_id), page)

    @agent_field(description="Every version of a fact (SUPERSEDES chain both ways), oldest first.")
    async def fact_history(
        self,
        info: Info,
        agent_id: AgentId,
        id: Annotated[
            strawberry.ID, strawberry.argument(description="Id of any version in the chain.")
        ],
    ) -> list[Fact]:
        rows = await info.context.memory.history.fact(str(agent_id), str(id))
        return [Fact.from_row(r, str(agent_id)) for r in rows]

    @agent_field(description="Messages received (events), newest first (Relay pages).")
    async def events(
        self,
        info: Info,
        agent_id: AgentId,
        thread_id: Annotated[
            str | None, strawberry.argument(description="Only this thread.")
        ] = None,
        since: Annotated[
            datetime | None,
            strawberry.argument(description="Only events at or after this instant."),
        ] = None,
        until: Annotated[
            datetime | None, strawberry.argument(description="Only events before this instant.")
        ] = None,
        first: Annotated[
            int, strawberry.argument(description=f"At most this many (1..{browse.MAX_PAGE}).")
        ] = 20,
        after: Annotated[str | None, strawberry.argument(description="Cursor.")] = None,
    ) -> EventConnection:
        page = await info.context.memory.browse.events(
            str(agent_id),
            thread_id=thread_id,
            since=since,
            until=until,
            first=first,
            after=after,
        )
        return event_connection(page)

    @agent_field(description="Entities within `hops` relationships of one entity, for graph UIs.")
    async def neighborhood(
        self,
        info: Info,
        agent_id: AgentId,
        key: Annotated[str, strawberry.argument(description="Key of the centre entity.")],
        hops: Annotated[int, strawberry.argument(description="Radius in hops (1..3).")] = 1,
        as_of: Annotated[
            datetime | None,
            strawberry.argument(description="Time travel: relationships valid at this instant."),
        ] = None,
        max_nodes: Annotated[
            int, strawberry.argument(description="At most this many nodes (1..500).")
        ] = 100,
        relation_types: Annotated[
            list[str] | None,
            strawberry.argument(
                description="Only through and among relationships of these types (e.g. "
                "`owns`, `reported`); null: every type."
            ),
        ] = None,
    ) -> Subgraph:
        n = await info.context.memory.browse.neighborhood(
            str(agent_id),
            key,
            hops=hops,
            as_of=as_of,
            max_nodes=max_nodes,
            relation_types=relation_types,
        )
        return subgraph_from(key, n)

    @agent_field(description="Patterns consolidated from facts, newest first.")
    async def observations(
        self,
        info: Info,
        agent_id: AgentId,
        limit: Annotated[
            int, strawberry.argument(description=f"At most this many (1..{500}).")
        ] = 50,
    ) -> list[Observation]:
        rows = await info.context.memory.browse.observations(str(agent_id), limit)
        return [Observation.from_row(r) for r in rows]

    @agent_field(description="Entity pairs that may be duplicates, most confident first.")
    async def merge_candidates(
        self,
        info: Info,
        agent_id: AgentId,
        status: Annotated[
            MergeCandidateStatus | None,
            strawberry.argument(description="Only pairs in this state; null for all."),
        ] = MergeCandidateStatus.OPEN,
        limit: Annotated[
            int, strawberry.argument(description=f"At most this many (1..{500}).")
        ] = 50,
    ) -> list[MergeCandidate]:
        rows = await info.context.memory.browse.merge_candidates(
            str(agent_id), to_pipeline(status), limit
        )
        return [MergeCandidate.from_row(r) for r in rows]

    @agent_field(description="Write decisions (audit trail), newest first.")
    async def audit_log(
        self,
        info: Info,
        agent_id: AgentId,
        action: Annotated[
            WriteAction | None, strawberry.argument(description="Only this action.")
        ] = None,
        since: Annotated[
            datetime | None,
            strawberry.argument(description="Only decisions at or after this instant."),
        ] = None,
        limit: Annotated[
            int, strawberry.argument(description=f"At most this many (1..{500}).")
        ] = 50,
    ) -> list[AuditEntry]:
        rows = await info.context.memory.browse.audit_log(
            str(agent_id), action=to_pipeline(action), since=since, limit=limit
        )
        return [AuditEntry.from_row(r) for r in rows]

    @agent_field(description="Background jobs of the agent, newest first.")
    async def jobs(
        self,
        info: Info,
        agent_id: AgentId,
        status: Annotated[
            JobStatus | None,
            strawberry.argument(description="Only jobs in this state; null for all."),
        ] = None,
        limit: Annotated[
            int, strawberry.argument(description=f"At most this many (1..{500}).")
        ] = 50,
    ) -> list[Job]:
        rows = await info.context.memory.browse.jobs(str(agent_id), to_pipeline(status), limit)
        return [Job.from_row(r) for r in rows]

    @agent_field(
        description="Stored messages whose extraction failed (no facts yet), newest "
        "first; re-run them with `retryFailedMessages` once fixed."
    )
    async def failed_messages(
        self,
        info: Info,
        agent_id: AgentId,
        limit: Annotated[
            int, strawberry.argument(description=f"At most this many (1..{MAX_LISTED}).")
        ] = 50,
    ) -> list[FailedMessage]:
        if not 1 <= limit <= MAX_LISTED:
            raise BadInput(f"limit must be 1..{MAX_LISTED}")
        rows = await failed_messages(info.context.memory.executor, str(agent_id), limit)
        return [
            FailedMessage(
                event_id=strawberry.ID(m.event_id),
                speaker=m.speaker,
                text=m.text,
                occurred_at=m.occurred_at,
                error=m.error,
                failed_at=m.failed_at,
            )
            for m in rows
        ]

    @agent_field(description="One job by id (poll it for progress), or null.")
    async def job(
        self,
        info: Info,
        agent_id: AgentId,
        id: Annotated[strawberry.ID, strawberry.argument(description="Job id.")],
    ) -> Job | None:
        try:
            return Job.from_row(await info.context.memory.browse.job(str(agent_id), str(id)))
        except NotFound:
            return None

    @strawberry.field(
        description="Registered webhooks (admin key), newest first: all, or those of one "
        "tenant or one agent.",
        extensions=[PermissionExtension(permissions=[AdminAccess()], use_directives=False)],
    )
    async def webhooks(
        self,
        info: Info,
        tenant: Annotated[
            str | None, strawberry.argument(description="Only this tenant's.")
        ] = None,
        agent: Annotated[
            strawberry.ID | None, strawberry.argument(description="Only this agent's.")
        ] = None,
    ) -> list[WebhookType]:
        found = await info.context.memory.webhooks.list(
            tenant=tenant, agent_id=str(agent) if agent else None
        )
        return [webhook_from(w) for w in found]

    @strawberry.field(
        description="Webhook deliveries (admin key), newest first: queued, due, in flight, "
        "delivered or dead-lettered.",
        extensions=[PermissionExtension(permissions=[AdminAccess()], use_directives=False)],
    )
    async def webhook_deliveries(
        self,
        info: Info,
        status: Annotated[
            WebhookDeliveryStatus | None, strawberry.argument(description="Only in this state.")
        ] = None,
        webhook_id: Annotated[
            strawberry.ID | None, strawberry.argument(description="Only this webhook's.")
        ] = None,
        agent: Annotated[
            strawberry.ID | None, strawberry.argument(description="Only this agent's.")
        ] = None,
        limit: Annotated[int, strawberry.argument(description="At most this many (1..500).")] = 50,
    ) -> list[WebhookDeliveryType]:
        found = await info.context.memory.webhooks.deliveries(
            statuses=[str(status.value)] if status else None,
            webhook_id=str(webhook_id) if webhook_id else None,
            agent_id=str(agent) if agent else None,
            limit=limit,
        )
        return [delivery_from(d) for d in found]


async def _focus(
    info: Info,
    agent_id: str,
    entity_types: list[str] | None,
    relation_types: list[str] | None,
    boost: RetrieveBoost | None,
) -> TypeFocus | None:
    """retrieve's type arguments as a focus (None when none is given, or only empty lists: no
    read); entity types with their subtypes in the agent's ontology (one lookup, only when an
    entity type is given)."""
    lift_relations = boost.relation_types if boost else None
    lift = [t.lower() for t in (boost.entity_types if boost else None) or []]
    if not (entity_types or relation_types or lift or lift_relations):
        return None
    keep = [t.lower() for t in entity_types or []]
    ontology = await info.context.memory.ontologies.get(agent_id) if keep or lift else None

    def entity(names: list[str]) -> frozenset[str]:
        return ontology.with_subtypes(names) if ontology is not None and names else frozenset()

    def relation(names: list[str] | None) -> frozenset[str]:
        return frozenset(normalize_relation_type(n) or n.lower() for n in names or [])

    return TypeFocus(
        entity_types=entity(keep) if keep else None,
        relation_types=relation(relation_types) if relation_types else None,
        boost_entity_types=entity(lift),
        boost_relation_types=relation(lift_relations),
    )


async def _subtypes(info: Info, agent_id: str, *types: str) -> tuple[str, ...]:
    """Every subtype of ``types`` in the agent's ontology; no read when no type is asked for."""
    if not types:
        return ()
    ontology = await info.context.memory.ontologies.get(agent_id)
    return tuple(ontology.with_subtypes(types) - {t.lower() for t in types})
