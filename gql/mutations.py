"""Root mutation type. Each mutation returns a payload with ``errors: [UserError!]!``:
bad input, missing nodes and an unreachable Neo4j come back there (never as a traceback).
Permission failures (``FORBIDDEN``) are top-level GraphQL errors, like on queries."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

import strawberry
from strawberry.scalars import JSON

import graph.memory.write as write_api
from gql.context import Info
from gql.errors import ApiError, ErrorCode, user_error_from
from gql.permissions import agent_mutation
from gql.types.memory import (
    EntityInput,
    FactInput,
    ForgetPayload,
    MergeEntitiesPayload,
    RecentMessageInput,
    RelationInput,
    RememberPayload,
    RememberSummary,
    ResolveMergeCandidatePayload,
    WritePayload,
    write_outcome_from,
)
from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation

__all__ = ["Mutation"]

AgentId = Annotated[
    strawberry.ID, strawberry.argument(description="The agent (memory owner) to change.")
]


def _pipeline_function(name: str) -> Any:
    """A write-side function that may not exist in this build (UNAVAILABLE if missing)."""
    fn = getattr(write_api, name, None)
    if fn is None:
        raise ApiError(ErrorCode.UNAVAILABLE, f"{name} is not available in this build.")
    return fn


@strawberry.type(description="Write operations of the Hippograph memory service.")
class Mutation:
    @agent_mutation(description="Store one message: extract, reconcile and version its facts.")
    async def write(
        self,
        info: Info,
        agent_id: AgentId,
        message: Annotated[str, strawberry.argument(description="The message text.")],
        speaker_name: Annotated[
            str, strawberry.argument(description="Who said it (e.g. the user's name).")
        ],
        recent_messages: Annotated[
            list[RecentMessageInput] | None,
            strawberry.argument(description="Earlier messages of the conversation, oldest first."),
        ] = None,
        occurred_at: Annotated[
            datetime | None, strawberry.argument(description="When it was said (default: now).")
        ] = None,
        thread_id: Annotated[str | None, strawberry.argument(description="Thread id.")] = None,
        dry_run: Annotated[
            bool, strawberry.argument(description="Decide everything, persist nothing.")
        ] = False,
        idempotency_key: Annotated[
            str | None,
            strawberry.argument(
                description="Same key again returns the first result without writing."
            ),
        ] = None,
        config_overrides: Annotated[
            JSON | None,
            strawberry.argument(
                description="Per-call write settings (validated; unknown keys fail)."
            ),
        ] = None,
    ) -> WritePayload:
        try:
            writer = info.context.services.writer
            if writer is None:
                raise ApiError(ErrorCode.UNAVAILABLE, "Writing is not available in this build.")
            recent = [{"speaker": m.speaker, "text": m.text} for m in recent_messages or []]
            result = await writer.write(
                str(agent_id),
                message,
                speaker_name,
                recent_messages=recent or None,
                occurred_at=occurred_at,
                thread_id=thread_id,
                dry_run=dry_run,
                config_overrides=config_overrides,
                idempotency_key=idempotency_key,
            )
        except Exception as exc:
            return WritePayload(outcome=None, errors=[user_error_from(exc)])
        return WritePayload(outcome=write_outcome_from(result), errors=[])

    @agent_mutation(description="Import entities, facts and relationships as given (no LLM).")
    async def remember(
        self,
        info: Info,
        agent_id: AgentId,
        entities: Annotated[
            list[EntityInput] | None,
            strawberry.argument(description="Entities to create or update."),
        ] = None,
        facts: Annotated[
            list[FactInput] | None,
            strawberry.argument(
                description="Facts to store (already-known facts are not duplicated)."
            ),
        ] = None,
        relations: Annotated[
            list[RelationInput] | None,
            strawberry.argument(description="Relationships to create or confirm."),
        ] = None,
    ) -> RememberPayload:
        try:
            services = info.context.services
            result = await write_api.remember(
                services.executor,
                services.embedder,
                str(agent_id),
                entities=[
                    StructuredEntity(
                        name=e.name,
                        type=e.type,
                        aliases=list(e.aliases),
                        key=e.key,
                        importance=e.importance,
                    )
                    for e in entities or []
                ],
                facts=[
                    StructuredFact(
                        text=f.text,
                        subject=f.subject,
                        entities=list(f.entities),
                        kind=f.kind,
                        confidence=f.confidence,
                        importance=f.importance,
                        valid_from=f.valid_from,
                        valid_to=f.valid_to,
                        categories=list(f.categories),
                    )
                    for f in facts or []
                ],
                relations=[
                    StructuredRelation(
                        source=r.source,
                        target=r.target,
                        type=r.type,
                        strength=r.strength,
                        valid_from=r.valid_from,
                    )
                    for r in relations or []
                ],
            )
        except Exception as exc:
            return RememberPayload(summary=None, errors=[user_error_from(exc)])
        summary = RememberSummary(
            entities_created=result.entities_created,
            facts_added=result.facts_added,
            facts_unchanged=result.facts_unchanged,
            relations=result.relations,
            fact_ids=[strawberry.ID(i) for i in result.fact_ids],
            warnings=list(result.warnings),
        )
        return RememberPayload(summary=summary, errors=[])

    @agent_mutation(description="Invalidate facts (soft delete); relationships they evidence too.")
    async def forget(
        self,
        info: Info,
        agent_id: AgentId,
        fact_ids: Annotated[
            list[strawberry.ID], strawberry.argument(description="Facts to forget.")
        ],
        reason: Annotated[str | None, strawberry.argument(description="Why (audited).")] = None,
    ) -> ForgetPayload:
        try:
            forget = _pipeline_function("forget")
            result = await forget(
                info.context.executor, str(agent_id), [str(i) for i in fact_ids], reason=reason
            )
        except Exception as exc:
            return ForgetPayload(
                forgotten=[], relationships_invalidated=0, errors=[user_error_from(exc)]
            )
        return ForgetPayload(
            forgotten=[strawberry.ID(i) for i in getattr(result, "forgotten", [])],
            relationships_invalidated=int(getattr(result, "relationships_invalidated", 0)),
            errors=[],
        )

    @agent_mutation(description="Merge one entity into another (facts, aliases, relationships).")
    async def merge_entities(
        self,
        info: Info,
        agent_id: AgentId,
        keep_key: Annotated[str, strawberry.argument(description="Entity that survives.")],
        drop_key: Annotated[str, strawberry.argument(description="Entity merged into it.")],
        reason: Annotated[str | None, strawberry.argument(description="Why (audited).")] = None,
    ) -> MergeEntitiesPayload:
        try:
            merge = _pipeline_function("merge_entities")
            result = await merge(
                info.context.executor, str(agent_id), keep_key, drop_key, reason=reason
            )
        except Exception as exc:
            return MergeEntitiesPayload(kept_key=None, details=None, errors=[user_error_from(exc)])
        details: Any = result if isinstance(result, dict) else getattr(result, "__dict__", None)
        return MergeEntitiesPayload(kept_key=keep_key, details=details, errors=[])

    @agent_mutation(description="Accept (merge) or reject a proposed duplicate entity pair.")
    async def resolve_merge_candidate(
        self,
        info: Info,
        agent_id: AgentId,
        id: Annotated[strawberry.ID, strawberry.argument(description="Merge candidate id.")],
        accept: Annotated[
            bool, strawberry.argument(description="True merges the pair, false rejects it.")
        ],
    ) -> ResolveMergeCandidatePayload:
        try:
            resolve = _pipeline_function("resolve_merge_candidate")
            result = await resolve(info.context.executor, str(agent_id), str(id), accept=accept)
        except Exception as exc:
            return ResolveMergeCandidatePayload(
                status=None, kept_key=None, errors=[user_error_from(exc)]
            )
        return ResolveMergeCandidatePayload(
            status=getattr(result, "status", "merged" if accept else "rejected"),
            kept_key=getattr(result, "kept_key", None),
            errors=[],
        )
