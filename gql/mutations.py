"""Root mutation type. Each mutation returns a payload with ``errors: [UserError!]!``:
bad input, missing nodes and an unreachable Neo4j come back there (never as a traceback).
Permission failures (``FORBIDDEN``) are top-level GraphQL errors, like on queries."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import strawberry
from strawberry.permission import PermissionExtension
from strawberry.scalars import JSON

from gql.context import Info
from gql.errors import ApiError, ErrorCode, errors_in_payload
from gql.permissions import AdminAccess, admin_mutation, agent_mutation
from gql.structured import structured_entities, structured_facts, structured_relations
from gql.types.enums import (
    DocumentFormat,
    MaintenanceJob,
    MergeCandidateStatus,
    RememberSection,
    to_pipeline,
)
from gql.types.erase import ErasePayload, erase_summary_from
from gql.types.learning import FeedbackPayload
from gql.types.maintenance import (
    ForgetPayload,
    IngestDocumentPayload,
    MergeEntitiesPayload,
    ResolveMergeCandidatePayload,
    RetryFailedPayload,
    RunJobPayload,
    merge_summary_from,
)
from gql.types.ontology import DefineOntologyPayload, define
from gql.types.webhooks import (
    RegisterWebhookPayload,
    RemoveWebhookPayload,
    WebhookEvent,
    webhook_from,
)
from gql.types.write import (
    EntityInput,
    FactInput,
    QueuedWrite,
    RelationInput,
    RememberPayload,
    RememberRefusal,
    RememberSummary,
    WritePayload,
    write_outcome_from,
)
from graph.memory.erase import erase_target
from graph.memory.jobs.orphans import retry_failed
from graph.memory.maintenance.kinds import maintenance_spec
from graph.memory.remember import API_MAX_ITEMS
from graph.memory.write.failed import MAX_LISTED

__all__ = ["Mutation"]

AgentId = Annotated[strawberry.ID, strawberry.argument(description="The agent (memory owner).")]


def _arg(description: str) -> strawberry.argument:  # type: ignore[valid-type]
    return strawberry.argument(description=description)


@strawberry.type(description="Write operations of the Hippograph memory service.")
class Mutation:
    @agent_mutation(description="Store one message: extract, reconcile and version its facts.")
    @errors_in_payload(WritePayload)
    async def write(
        self,
        info: Info,
        agent_id: AgentId,
        message: Annotated[str, _arg("The message text.")],
        speaker_name: Annotated[str, _arg("Who said it (e.g. the user's name).")],
        recent_messages: Annotated[
            list[str] | None, _arg("Earlier messages ('Speaker: text'), oldest first.")
        ] = None,
        occurred_at: Annotated[datetime | None, _arg("When it was said (default: now).")] = None,
        thread_id: Annotated[str | None, _arg("Conversation thread id.")] = None,
        dry_run: Annotated[bool, _arg("Decide everything, persist nothing.")] = False,
        idempotency_key: Annotated[
            str | None, _arg("Same key again returns the first result without writing.")
        ] = None,
        config_overrides: Annotated[
            JSON | None, _arg("Per-call write settings (validated; unknown keys fail).")
        ] = None,
        async_: Annotated[
            bool,
            strawberry.argument(
                name="async",
                description="Store the event now and extract in a background job; the "
                "payload's `queued` names the event and the job (no dry run).",
            ),
        ] = False,
    ) -> WritePayload:
        memory = info.context.memory
        if config_overrides is not None and not isinstance(config_overrides, dict):
            raise ApiError(ErrorCode.BAD_INPUT, "configOverrides must be an object")
        if async_:
            if dry_run:
                raise ApiError(ErrorCode.BAD_INPUT, "dryRun cannot be combined with async")
            accepted = await memory.write_async(
                str(agent_id),
                message,
                speaker_name,
                occurred_at=occurred_at,
                thread_id=thread_id,
                recent_messages=recent_messages,
                config_overrides=config_overrides,
                idempotency_key=idempotency_key,
            )
            queued = QueuedWrite(
                event_id=strawberry.ID(accepted.event_id) if accepted.event_id else None,
                job_id=strawberry.ID(accepted.job_id) if accepted.job_id else None,
                created=accepted.created,
                warnings=list(accepted.warnings),
            )
            return WritePayload(outcome=None, queued=queued, errors=[])
        result = await memory.writer.write(
            str(agent_id),
            message,
            speaker_name,
            recent_messages=recent_messages,
            occurred_at=occurred_at,
            thread_id=thread_id,
            dry_run=dry_run,
            config_overrides=config_overrides,
            idempotency_key=idempotency_key,
        )
        return WritePayload(outcome=write_outcome_from(result), errors=[])

    @agent_mutation(description="Import entities, facts and relationships as given (no LLM).")
    @errors_in_payload(RememberPayload)
    async def remember(
        self,
        info: Info,
        agent_id: AgentId,
        entities: Annotated[list[EntityInput] | None, _arg("Entities to create or update.")] = None,
        facts: Annotated[
            list[FactInput] | None, _arg("Facts to store (known facts are not duplicated).")
        ] = None,
        relations: Annotated[
            list[RelationInput] | None, _arg("Relationships to create or confirm.")
        ] = None,
    ) -> RememberPayload:
        result = await info.context.memory.admin.remember(
            str(agent_id),
            max_items=API_MAX_ITEMS,
            entities=structured_entities(entities or []),
            facts=structured_facts(facts or []),
            relations=structured_relations(relations or []),
        )
        summary = RememberSummary(
            entities_created=result.entities_created,
            facts_added=result.facts_added,
            facts_unchanged=result.facts_unchanged,
            relations=result.relations,
            fact_ids=[strawberry.ID(i) for i in result.fact_ids],
            warnings=list(result.warnings),
            complete=result.complete,
            error=result.error,
            refused=[
                RememberRefusal(
                    section=RememberSection(r.section), index=r.index, key=r.ref, reason=r.reason
                )
                for r in result.refused
            ],
        )
        return RememberPayload(summary=summary, errors=[])

    @agent_mutation(
        description="Invalidate a fact (soft delete) and the relationships it evidences."
    )
    @errors_in_payload(ForgetPayload)
    async def forget(
        self,
        info: Info,
        agent_id: AgentId,
        fact_id: Annotated[strawberry.ID, _arg("The fact to forget.")],
        reason: Annotated[str | None, _arg("Why (kept in the audit log).")] = None,
    ) -> ForgetPayload:
        result = await info.context.memory.admin.forget(str(agent_id), str(fact_id), reason)
        return ForgetPayload(
            fact_id=strawberry.ID(result.fact_id),
            invalidated_relationships=[strawberry.ID(r) for r in result.invalidated_relationships],
            errors=[],
        )

    @agent_mutation(
        description="Say whether a fact a `retrieve` returned helped: the verdict is kept with "
        "the fact's ranking features of that retrieve, and `hippograph rank train` fits the "
        "tenant's ranking model from its verdicts (on top of the shipped one)."
    )
    @errors_in_payload(FeedbackPayload)
    async def feedback(
        self,
        info: Info,
        agent_id: AgentId,
        retrieve_id: Annotated[str, _arg("The `retrieveId` of the retrieve that returned it.")],
        fact_id: Annotated[strawberry.ID, _arg("The fact.")],
        helpful: Annotated[bool, _arg("True: it helped; false: it did not belong there.")],
        query: Annotated[
            str | None,
            _arg(
                "The retrieve's question. Needed only when this server no longer holds that "
                "retrieve (after an hour, a restart, or on another API process): it is run "
                "again as memory stood then."
            ),
        ] = None,
    ) -> FeedbackPayload:
        receipt = await info.context.memory.learning.feedback(
            info.context.principal.tenant,
            str(agent_id),
            retrieve_id,
            str(fact_id),
            helpful,
            query,
        )
        return FeedbackPayload(
            recorded=True, labels=receipt.labels, rebuilt=receipt.rebuilt, errors=[]
        )

    @agent_mutation(description="Merge one entity into another (facts, aliases, relationships).")
    @errors_in_payload(MergeEntitiesPayload)
    async def merge_entities(
        self,
        info: Info,
        agent_id: AgentId,
        keep_key: Annotated[str, _arg("Entity that survives.")],
        drop_key: Annotated[str, _arg("Entity merged into it.")],
        reason: Annotated[str | None, _arg("Why (kept in the audit log).")] = None,
    ) -> MergeEntitiesPayload:
        result = await info.context.memory.admin.merge_entities(
            str(agent_id), keep_key, drop_key, reason
        )
        return MergeEntitiesPayload(merge=merge_summary_from(result), errors=[])

    @agent_mutation(description="Accept (merge) or reject a proposed duplicate entity pair.")
    @errors_in_payload(ResolveMergeCandidatePayload)
    async def resolve_merge_candidate(
        self,
        info: Info,
        agent_id: AgentId,
        id: Annotated[strawberry.ID, _arg("Merge candidate id.")],
        accept: Annotated[bool, _arg("True merges the pair, false rejects it.")],
    ) -> ResolveMergeCandidatePayload:
        decision = await info.context.memory.admin.resolve_merge_candidate(
            str(agent_id), str(id), accept=accept
        )
        merge = merge_summary_from(decision.merge) if decision.merge else None
        return ResolveMergeCandidatePayload(
            status=MergeCandidateStatus(decision.status), merge=merge, errors=[]
        )

    @agent_mutation(description="Register a document (text or URL) and start ingesting it.")
    @errors_in_payload(IngestDocumentPayload)
    async def ingest_document(
        self,
        info: Info,
        agent_id: AgentId,
        text: Annotated[str | None, _arg("The document text (or give `url`).")] = None,
        url: Annotated[str | None, _arg("A public http(s) URL to fetch (or give `text`).")] = None,
        title: Annotated[str | None, _arg("Title (default: first line).")] = None,
        format: Annotated[
            DocumentFormat | None, _arg("Document format (default: detected).")
        ] = None,
    ) -> IngestDocumentPayload:
        accepted = await info.context.memory.documents.ingest(
            str(agent_id),
            text=text,
            url=url,
            title=title,
            fmt=to_pipeline(format),
            key_id=info.context.principal.key_id,
        )
        return IngestDocumentPayload(
            document_id=strawberry.ID(accepted.document_id),
            job_id=strawberry.ID(accepted.job_id),
            created=accepted.created,
            errors=[],
        )

    @agent_mutation(
        description="Re-run the extraction of messages that failed (all of the "
        "agent's, or those listed) as background extract jobs."
    )
    @errors_in_payload(RetryFailedPayload)
    async def retry_failed_messages(
        self,
        info: Info,
        agent_id: AgentId,
        event_ids: Annotated[
            list[strawberry.ID] | None,
            _arg("Only these stored messages (see `failedMessages`); null for all of them."),
        ] = None,
    ) -> RetryFailedPayload:
        if event_ids is not None and len(event_ids) > MAX_LISTED:
            raise ApiError(ErrorCode.BAD_INPUT, f"at most {MAX_LISTED} eventIds")
        jobs = await retry_failed(
            info.context.memory.queue,
            str(agent_id),
            [str(e) for e in event_ids] if event_ids is not None else None,
        )
        return RetryFailedPayload(job_ids=[strawberry.ID(j) for j in jobs], errors=[])

    @agent_mutation(description="Start a maintenance job now (the worker runs it).")
    @errors_in_payload(RunJobPayload)
    async def run_job(
        self,
        info: Info,
        agent_id: AgentId,
        kind: Annotated[MaintenanceJob, _arg("Which job.")],
        subject: Annotated[str | None, _arg("What it works on (e.g. an entity key).")] = None,
    ) -> RunJobPayload:
        queued = await info.context.memory.queue.enqueue(
            maintenance_spec(
                str(kind.value), str(agent_id), subject, info.context.memory.write_config.pii_mode
            )
        )
        return RunJobPayload(job_id=strawberry.ID(queued.job_id), created=queued.created, errors=[])

    @admin_mutation(
        description="Erase a fact for good (admin key): the fact and its older "
        "versions, the messages and documents it came from, its text in "
        "audit records, receipts and jobs, what was derived from it. "
        "Time travel no longer shows it. Unlike `forget`, it cannot be "
        "undone."
    )
    @errors_in_payload(ErasePayload)
    async def erase_fact(
        self,
        info: Info,
        agent_id: AgentId,
        fact_id: Annotated[strawberry.ID, _arg("The fact to erase.")],
    ) -> ErasePayload:
        target = erase_target(str(agent_id), fact_id=str(fact_id))
        report = await info.context.memory.erase(target)
        return ErasePayload(summary=erase_summary_from(report), errors=[])

    @admin_mutation(
        description="Erase a subject for good (admin key): the entity with its "
        "aliases and relationships, every fact about it and every "
        "message, document, job and audit text naming it."
    )
    @errors_in_payload(ErasePayload)
    async def erase_entity(
        self,
        info: Info,
        agent_id: AgentId,
        key: Annotated[str, _arg("The entity key, e.g. `person:clara_rezende`.")],
    ) -> ErasePayload:
        target = erase_target(str(agent_id), entity_key=key)
        report = await info.context.memory.erase(target)
        return ErasePayload(summary=erase_summary_from(report), errors=[])

    @admin_mutation(
        description="Erase a whole agent for good (admin key): every node of it; "
        "its id is released and API keys stop naming it."
    )
    @errors_in_payload(ErasePayload)
    async def erase_agent(
        self,
        info: Info,
        agent_id: AgentId,
        confirm_agent_id: Annotated[
            str, _arg("The same agent id again (a guard against erasing the wrong agent).")
        ],
    ) -> ErasePayload:
        if confirm_agent_id != str(agent_id):
            raise ApiError(ErrorCode.BAD_INPUT, "confirmAgentId does not repeat agentId")
        report = await info.context.memory.erase(erase_target(str(agent_id), everything=True))
        if info.context.changes is not None:  # its subscribers here hear of it at once
            info.context.changes.erased(str(agent_id))
        return ErasePayload(summary=erase_summary_from(report), errors=[])

    @admin_mutation(
        description="Define the agent's own ontology (admin key) from a YAML or JSON document "
        "(`hippograph ontology apply` reads the same): a new version unless it equals the "
        "newest. Stored data is never changed; the payload lists what does not fit it."
    )
    @errors_in_payload(DefineOntologyPayload)
    async def define_ontology(
        self,
        info: Info,
        agent_id: AgentId,
        document: Annotated[
            str | None, _arg("The ontology document; null goes back to the inherited one.")
        ],
        dry_run: Annotated[bool, _arg("Check only: say what would change, store nothing.")] = False,
    ) -> DefineOntologyPayload:
        payload = await define(info.context.executor, "agent", str(agent_id), document, dry_run)
        info.context.memory.ontologies.forget()
        return payload

    @strawberry.mutation(
        description="Define a tenant's ontology (admin key): every agent of the tenant without "
        "an ontology of its own uses it. Same document and payload as `defineOntology`.",
        extensions=[PermissionExtension(permissions=[AdminAccess()], use_directives=False)],
    )
    @errors_in_payload(DefineOntologyPayload)
    async def define_tenant_ontology(
        self,
        info: Info,
        tenant: Annotated[str, _arg("The tenant the ontology is for.")],
        document: Annotated[
            str | None, _arg("The ontology document; null goes back to the built-in one.")
        ],
        dry_run: Annotated[bool, _arg("Check only: say what would change, store nothing.")] = False,
    ) -> DefineOntologyPayload:
        payload = await define(info.context.executor, "tenant", tenant, document, dry_run)
        info.context.memory.ontologies.forget()
        return payload

    @strawberry.mutation(
        description="Register a webhook (admin key): the memory events of one tenant's agents "
        "(`tenant`) or of one agent (`agent`) are POSTed to `url`, signed with the secret "
        "this answer shows once. The URL may not resolve to a loopback, private or link-local "
        "address unless the operator allows it (checked again at every delivery).",
        extensions=[PermissionExtension(permissions=[AdminAccess()], use_directives=False)],
    )
    @errors_in_payload(RegisterWebhookPayload)
    async def register_webhook(
        self,
        info: Info,
        url: Annotated[str, _arg("Where to POST the deliveries (https:// in production).")],
        tenant: Annotated[str | None, _arg("Every agent of this tenant (or `agent`).")] = None,
        agent: Annotated[strawberry.ID | None, _arg("This one agent (or `tenant`).")] = None,
        events: Annotated[
            list[WebhookEvent] | None, _arg("The events to send (default: every one).")
        ] = None,
        description: Annotated[str | None, _arg("A note for operators (≤ 500 chars).")] = None,
    ) -> RegisterWebhookPayload:
        done = await info.context.memory.webhooks.register(
            url,
            tenant=tenant,
            agent_id=str(agent) if agent else None,
            events=[str(e.value) for e in events] if events else None,
            description=description,
        )
        return RegisterWebhookPayload(webhook=webhook_from(done.webhook), secret=done.secret)

    @strawberry.mutation(
        description="Remove a webhook (admin key) with its deliveries: queued ones are not sent.",
        extensions=[PermissionExtension(permissions=[AdminAccess()], use_directives=False)],
    )
    @errors_in_payload(RemoveWebhookPayload)
    async def remove_webhook(
        self, info: Info, id: Annotated[strawberry.ID, _arg("The webhook (`wh_…`).")]
    ) -> RemoveWebhookPayload:
        gone = await info.context.memory.webhooks.remove(str(id))
        return RemoveWebhookPayload(removed=id, deliveries=gone)
