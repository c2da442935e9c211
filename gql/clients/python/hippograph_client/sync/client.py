from datetime import datetime
from typing import Any, Optional, Union

from .agent_page import AgentPage, AgentPageAgentPage
from .agents import Agents, AgentsAgents
from .audit_log import AuditLog, AuditLogAuditLog
from .base_model import UNSET, UnsetType
from .define_ontology import DefineOntology, DefineOntologyDefineOntology
from .define_tenant_ontology import (
    DefineTenantOntology,
    DefineTenantOntologyDefineTenantOntology,
)
from .entities import Entities, EntitiesEntities
from .entity import Entity, EntityEntity
from .enums import (
    DocumentFormat,
    FactKind,
    JobStatus,
    MaintenanceJob,
    MergeCandidateStatus,
    WebhookDeliveryStatus,
    WebhookEvent,
    WriteAction,
)
from .erase_agent import EraseAgent, EraseAgentEraseAgent
from .erase_entity import EraseEntity, EraseEntityEraseEntity
from .erase_fact import EraseFact, EraseFactEraseFact
from .events import Events, EventsEvents
from .fact_history import FactHistory, FactHistoryFactHistory
from .facts import Facts, FactsFacts
from .failed_messages import FailedMessages, FailedMessagesFailedMessages
from .feedback import Feedback, FeedbackFeedback
from .forget import Forget, ForgetForget
from .health import Health, HealthHealth
from .ingest_document import IngestDocument, IngestDocumentIngestDocument
from .input_types import (
    EntityInput,
    FactInput,
    RelationInput,
    RetrieveBoost,
    RetrieveOptions,
)
from .job import Job, JobJob
from .jobs import Jobs, JobsJobs
from .merge_candidates import MergeCandidates, MergeCandidatesMergeCandidates
from .merge_entities import MergeEntities, MergeEntitiesMergeEntities
from .neighborhood import Neighborhood, NeighborhoodNeighborhood
from .observations import Observations, ObservationsObservations
from .ontology import Ontology, OntologyOntology
from .register_webhook import RegisterWebhook, RegisterWebhookRegisterWebhook
from .remember import Remember, RememberRemember
from .remove_webhook import RemoveWebhook, RemoveWebhookRemoveWebhook
from .resolve_merge_candidate import (
    ResolveMergeCandidate,
    ResolveMergeCandidateResolveMergeCandidate,
)
from .retrieve import Retrieve, RetrieveRetrieve
from .retry_failed_messages import (
    RetryFailedMessages,
    RetryFailedMessagesRetryFailedMessages,
)
from .run_job import RunJob, RunJobRunJob
from .sync_base import SyncBase
from .viewer import Viewer, ViewerViewer
from .webhook_deliveries import WebhookDeliveries, WebhookDeliveriesWebhookDeliveries
from .webhooks import Webhooks, WebhooksWebhooks
from .write import Write, WriteWrite


def gql(q: str) -> str:
    return q


class HippographClient(SyncBase):
    def define_ontology(
        self,
        agent_id: str,
        document: Union[Optional[str], UnsetType] = UNSET,
        dry_run: Union[Optional[bool], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> DefineOntologyDefineOntology:
        query = gql("""
            mutation DefineOntology($agentId: ID!, $document: String, $dryRun: Boolean) {
              defineOntology(agentId: $agentId, document: $document, dryRun: $dryRun) {
                ontology {
                  name
                  description
                  version
                  scope
                  strict
                  entityTypes {
                    name
                    description
                    parent
                    aliases
                    identifier
                  }
                  relationTypes {
                    name
                    description
                    source
                    target
                    singleValued
                    supersedes
                    inverse
                    aliases
                  }
                }
                version
                changed
                changes
                findings {
                  kind
                  type
                  count
                  detail
                  examples
                }
                agentsCounted
                errors {
                  code
                  message
                  field
                }
              }
            }
            """)
        variables: dict[str, object] = {
            "agentId": agent_id,
            "document": document,
            "dryRun": dry_run,
        }
        response = self.execute(
            query=query, operation_name="DefineOntology", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return DefineOntology.model_validate(data).define_ontology

    def define_tenant_ontology(
        self,
        tenant: str,
        document: Union[Optional[str], UnsetType] = UNSET,
        dry_run: Union[Optional[bool], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> DefineTenantOntologyDefineTenantOntology:
        query = gql("""
            mutation DefineTenantOntology($tenant: String!, $document: String, $dryRun: Boolean) {
              defineTenantOntology(tenant: $tenant, document: $document, dryRun: $dryRun) {
                ontology {
                  name
                  description
                  version
                  scope
                  strict
                  entityTypes {
                    name
                    description
                    parent
                    aliases
                    identifier
                  }
                  relationTypes {
                    name
                    description
                    source
                    target
                    singleValued
                    supersedes
                    inverse
                    aliases
                  }
                }
                version
                changed
                changes
                findings {
                  kind
                  type
                  count
                  detail
                  examples
                }
                agentsCounted
                errors {
                  code
                  message
                  field
                }
              }
            }
            """)
        variables: dict[str, object] = {
            "tenant": tenant,
            "document": document,
            "dryRun": dry_run,
        }
        response = self.execute(
            query=query,
            operation_name="DefineTenantOntology",
            variables=variables,
            **kwargs,
        )
        data = self.get_data(response)
        return DefineTenantOntology.model_validate(data).define_tenant_ontology

    def erase_agent(
        self, agent_id: str, confirm_agent_id: str, **kwargs: Any
    ) -> EraseAgentEraseAgent:
        query = gql("""
            mutation EraseAgent($agentId: ID!, $confirmAgentId: String!) {
              eraseAgent(agentId: $agentId, confirmAgentId: $confirmAgentId) {
                summary {
                  scope
                  facts
                  events
                  documents
                  entities
                  relationsDeleted
                  relationsUpdated
                  observations
                  auditsScrubbed
                  receipts
                  jobs
                  jobContexts
                  profilesCleared
                  nodes
                  keysRevoked
                  auditId
                }
                errors {
                  code
                  message
                  field
                }
              }
            }
            """)
        variables: dict[str, object] = {
            "agentId": agent_id,
            "confirmAgentId": confirm_agent_id,
        }
        response = self.execute(
            query=query, operation_name="EraseAgent", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return EraseAgent.model_validate(data).erase_agent

    def erase_entity(
        self, agent_id: str, key: str, **kwargs: Any
    ) -> EraseEntityEraseEntity:
        query = gql("""
            mutation EraseEntity($agentId: ID!, $key: String!) {
              eraseEntity(agentId: $agentId, key: $key) {
                summary {
                  scope
                  facts
                  events
                  documents
                  entities
                  relationsDeleted
                  relationsUpdated
                  observations
                  auditsScrubbed
                  receipts
                  jobs
                  jobContexts
                  profilesCleared
                  nodes
                  keysRevoked
                  auditId
                }
                errors {
                  code
                  message
                  field
                }
              }
            }
            """)
        variables: dict[str, object] = {"agentId": agent_id, "key": key}
        response = self.execute(
            query=query, operation_name="EraseEntity", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return EraseEntity.model_validate(data).erase_entity

    def erase_fact(
        self, agent_id: str, fact_id: str, **kwargs: Any
    ) -> EraseFactEraseFact:
        query = gql("""
            mutation EraseFact($agentId: ID!, $factId: ID!) {
              eraseFact(agentId: $agentId, factId: $factId) {
                summary {
                  scope
                  facts
                  events
                  documents
                  entities
                  relationsDeleted
                  relationsUpdated
                  observations
                  auditsScrubbed
                  receipts
                  jobs
                  jobContexts
                  profilesCleared
                  nodes
                  keysRevoked
                  auditId
                }
                errors {
                  code
                  message
                  field
                }
              }
            }
            """)
        variables: dict[str, object] = {"agentId": agent_id, "factId": fact_id}
        response = self.execute(
            query=query, operation_name="EraseFact", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return EraseFact.model_validate(data).erase_fact

    def feedback(
        self,
        agent_id: str,
        retrieve_id: str,
        fact_id: str,
        helpful: bool,
        query: Union[Optional[str], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> FeedbackFeedback:
        _query = gql("""
            mutation Feedback($agentId: ID!, $retrieveId: String!, $factId: ID!, $helpful: Boolean!, $query: String) {
              feedback(
                agentId: $agentId
                retrieveId: $retrieveId
                factId: $factId
                helpful: $helpful
                query: $query
              ) {
                recorded
                labels
                rebuilt
                errors {
                  code
                  message
                  field
                }
              }
            }
            """)
        variables: dict[str, object] = {
            "agentId": agent_id,
            "retrieveId": retrieve_id,
            "factId": fact_id,
            "helpful": helpful,
            "query": query,
        }
        response = self.execute(
            query=_query, operation_name="Feedback", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Feedback.model_validate(data).feedback

    def forget(
        self,
        agent_id: str,
        fact_id: str,
        reason: Union[Optional[str], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> ForgetForget:
        query = gql("""
            mutation Forget($agentId: ID!, $factId: ID!, $reason: String) {
              forget(agentId: $agentId, factId: $factId, reason: $reason) {
                factId
                invalidatedRelationships
                errors {
                  code
                  message
                  field
                }
              }
            }
            """)
        variables: dict[str, object] = {
            "agentId": agent_id,
            "factId": fact_id,
            "reason": reason,
        }
        response = self.execute(
            query=query, operation_name="Forget", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Forget.model_validate(data).forget

    def ingest_document(
        self,
        agent_id: str,
        text: Union[Optional[str], UnsetType] = UNSET,
        url: Union[Optional[str], UnsetType] = UNSET,
        title: Union[Optional[str], UnsetType] = UNSET,
        format: Union[Optional[DocumentFormat], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> IngestDocumentIngestDocument:
        query = gql("""
            mutation IngestDocument($agentId: ID!, $text: String, $url: String, $title: String, $format: DocumentFormat) {
              ingestDocument(
                agentId: $agentId
                text: $text
                url: $url
                title: $title
                format: $format
              ) {
                documentId
                jobId
                created
                errors {
                  code
                  message
                  field
                }
              }
            }
            """)
        variables: dict[str, object] = {
            "agentId": agent_id,
            "text": text,
            "url": url,
            "title": title,
            "format": format,
        }
        response = self.execute(
            query=query, operation_name="IngestDocument", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return IngestDocument.model_validate(data).ingest_document

    def merge_entities(
        self,
        agent_id: str,
        keep_key: str,
        drop_key: str,
        reason: Union[Optional[str], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> MergeEntitiesMergeEntities:
        query = gql("""
            mutation MergeEntities($agentId: ID!, $keepKey: String!, $dropKey: String!, $reason: String) {
              mergeEntities(
                agentId: $agentId
                keepKey: $keepKey
                dropKey: $dropKey
                reason: $reason
              ) {
                merge {
                  keepKey
                  dropKey
                  aliasesMoved
                  linksMoved
                  factsResubjected
                  relationshipsMoved
                  relationshipsClosed
                }
                errors {
                  code
                  message
                  field
                }
              }
            }
            """)
        variables: dict[str, object] = {
            "agentId": agent_id,
            "keepKey": keep_key,
            "dropKey": drop_key,
            "reason": reason,
        }
        response = self.execute(
            query=query, operation_name="MergeEntities", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return MergeEntities.model_validate(data).merge_entities

    def register_webhook(
        self,
        url: str,
        tenant: Union[Optional[str], UnsetType] = UNSET,
        agent: Union[Optional[str], UnsetType] = UNSET,
        events: Union[Optional[list[WebhookEvent]], UnsetType] = UNSET,
        description: Union[Optional[str], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> RegisterWebhookRegisterWebhook:
        query = gql("""
            mutation RegisterWebhook($url: String!, $tenant: String, $agent: ID, $events: [WebhookEvent!], $description: String) {
              registerWebhook(
                url: $url
                tenant: $tenant
                agent: $agent
                events: $events
                description: $description
              ) {
                webhook {
                  id
                  scope
                  tenant
                  agentId
                  url
                  events
                  description
                  createdAt
                  secretHint
                  pending
                  delivered
                  dead
                }
                secret
                errors {
                  code
                  message
                  field
                }
              }
            }
            """)
        variables: dict[str, object] = {
            "url": url,
            "tenant": tenant,
            "agent": agent,
            "events": events,
            "description": description,
        }
        response = self.execute(
            query=query, operation_name="RegisterWebhook", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return RegisterWebhook.model_validate(data).register_webhook

    def remember(
        self,
        agent_id: str,
        entities: Union[Optional[list[EntityInput]], UnsetType] = UNSET,
        facts: Union[Optional[list[FactInput]], UnsetType] = UNSET,
        relations: Union[Optional[list[RelationInput]], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> RememberRemember:
        query = gql("""
            mutation Remember($agentId: ID!, $entities: [EntityInput!], $facts: [FactInput!], $relations: [RelationInput!]) {
              remember(
                agentId: $agentId
                entities: $entities
                facts: $facts
                relations: $relations
              ) {
                summary {
                  entitiesCreated
                  factsAdded
                  factsUnchanged
                  relations
                  factIds
                  warnings
                  complete
                  error
                  refused {
                    section
                    index
                    key
                    reason
                  }
                }
                errors {
                  code
                  message
                  field
                }
              }
            }
            """)
        variables: dict[str, object] = {
            "agentId": agent_id,
            "entities": entities,
            "facts": facts,
            "relations": relations,
        }
        response = self.execute(
            query=query, operation_name="Remember", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Remember.model_validate(data).remember

    def remove_webhook(self, id: str, **kwargs: Any) -> RemoveWebhookRemoveWebhook:
        query = gql("""
            mutation RemoveWebhook($id: ID!) {
              removeWebhook(id: $id) {
                removed
                deliveries
                errors {
                  code
                  message
                  field
                }
              }
            }
            """)
        variables: dict[str, object] = {"id": id}
        response = self.execute(
            query=query, operation_name="RemoveWebhook", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return RemoveWebhook.model_validate(data).remove_webhook

    def resolve_merge_candidate(
        self, agent_id: str, id: str, accept: bool, **kwargs: Any
    ) -> ResolveMergeCandidateResolveMergeCandidate:
        query = gql("""
            mutation ResolveMergeCandidate($agentId: ID!, $id: ID!, $accept: Boolean!) {
              resolveMergeCandidate(agentId: $agentId, id: $id, accept: $accept) {
                status
                merge {
                  keepKey
                  dropKey
                  aliasesMoved
                  linksMoved
                  factsResubjected
                  relationshipsMoved
                  relationshipsClosed
                }
                errors {
                  code
                  message
                  field
                }
              }
            }
            """)
        variables: dict[str, object] = {"agentId": agent_id, "id": id, "accept": accept}
        response = self.execute(
            query=query,
            operation_name="ResolveMergeCandidate",
            variables=variables,
            **kwargs,
        )
        data = self.get_data(response)
        return ResolveMergeCandidate.model_validate(data).resolve_merge_candidate

    def retry_failed_messages(
        self,
        agent_id: str,
        event_ids: Union[Optional[list[str]], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> RetryFailedMessagesRetryFailedMessages:
        query = gql("""
            mutation RetryFailedMessages($agentId: ID!, $eventIds: [ID!]) {
              retryFailedMessages(agentId: $agentId, eventIds: $eventIds) {
                jobIds
                errors {
                  code
                  message
                  field
                }
              }
            }
            """)
        variables: dict[str, object] = {"agentId": agent_id, "eventIds": event_ids}
        response = self.execute(
            query=query,
            operation_name="RetryFailedMessages",
            variables=variables,
            **kwargs,
        )
        data = self.get_data(response)
        return RetryFailedMessages.model_validate(data).retry_failed_messages

    def run_job(
        self,
        agent_id: str,
        kind: MaintenanceJob,
        subject: Union[Optional[str], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> RunJobRunJob:
        query = gql("""
            mutation RunJob($agentId: ID!, $kind: MaintenanceJob!, $subject: String) {
              runJob(agentId: $agentId, kind: $kind, subject: $subject) {
                jobId
                created
                errors {
                  code
                  message
                  field
                }
              }
            }
            """)
        variables: dict[str, object] = {
            "agentId": agent_id,
            "kind": kind,
            "subject": subject,
        }
        response = self.execute(
            query=query, operation_name="RunJob", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return RunJob.model_validate(data).run_job

    def write(
        self,
        agent_id: str,
        message: str,
        speaker_name: str,
        recent_messages: Union[Optional[list[str]], UnsetType] = UNSET,
        occurred_at: Union[Optional[datetime], UnsetType] = UNSET,
        thread_id: Union[Optional[str], UnsetType] = UNSET,
        dry_run: Union[Optional[bool], UnsetType] = UNSET,
        idempotency_key: Union[Optional[str], UnsetType] = UNSET,
        config_overrides: Union[Optional[Any], UnsetType] = UNSET,
        async_: Union[Optional[bool], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> WriteWrite:
        query = gql("""
            mutation Write($agentId: ID!, $message: String!, $speakerName: String!, $recentMessages: [String!], $occurredAt: DateTime, $threadId: String, $dryRun: Boolean, $idempotencyKey: String, $configOverrides: JSON, $async: Boolean) {
              write(
                agentId: $agentId
                message: $message
                speakerName: $speakerName
                recentMessages: $recentMessages
                occurredAt: $occurredAt
                threadId: $threadId
                dryRun: $dryRun
                idempotencyKey: $idempotencyKey
                configOverrides: $configOverrides
                async: $async
              ) {
                outcome {
                  success
                  error
                  eventId
                  factsAdded {
                    id
                    text
                    subjectKey
                    action
                    targetId
                    reason
                    reviewNeeded
                  }
                  factsUpdated {
                    id
                    text
                    subjectKey
                    action
                    targetId
                    reason
                    reviewNeeded
                  }
                  factsUnchanged {
                    id
                    text
                    subjectKey
                    action
                    targetId
                    reason
                    reviewNeeded
                  }
                  factsDeleted {
                    id
                    text
                    subjectKey
                    action
                    targetId
                    reason
                    reviewNeeded
                  }
                  entities
                  warnings
                  llmCalls
                  tokensUsed
                  mode
                  dryRun
                  durationMs
                }
                queued {
                  eventId
                  jobId
                  created
                  warnings
                }
                errors {
                  code
                  message
                  field
                }
              }
            }
            """)
        variables: dict[str, object] = {
            "agentId": agent_id,
            "message": message,
            "speakerName": speaker_name,
            "recentMessages": recent_messages,
            "occurredAt": occurred_at,
            "threadId": thread_id,
            "dryRun": dry_run,
            "idempotencyKey": idempotency_key,
            "configOverrides": config_overrides,
            "async": async_,
        }
        response = self.execute(
            query=query, operation_name="Write", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Write.model_validate(data).write

    def agent_page(
        self,
        search: Union[Optional[str], UnsetType] = UNSET,
        first: Union[Optional[int], UnsetType] = UNSET,
        after: Union[Optional[str], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> AgentPageAgentPage:
        query = gql("""
            query AgentPage($search: String, $first: Int, $after: String) {
              agentPage(search: $search, first: $first, after: $after) {
                items {
                  agentId
                  facts
                  entities
                  relations
                  events
                }
                totalCount
                hasNextPage
                endCursor
              }
            }
            """)
        variables: dict[str, object] = {
            "search": search,
            "first": first,
            "after": after,
        }
        response = self.execute(
            query=query, operation_name="AgentPage", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return AgentPage.model_validate(data).agent_page

    def agents(self, **kwargs: Any) -> list[AgentsAgents]:
        query = gql("""
            query Agents {
              agents {
                agentId
                facts
                entities
                relations
                events
              }
            }
            """)
        variables: dict[str, object] = {}
        response = self.execute(
            query=query, operation_name="Agents", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Agents.model_validate(data).agents

    def audit_log(
        self,
        agent_id: str,
        action: Union[Optional[WriteAction], UnsetType] = UNSET,
        since: Union[Optional[datetime], UnsetType] = UNSET,
        limit: Union[Optional[int], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> list[AuditLogAuditLog]:
        query = gql("""
            query AuditLog($agentId: ID!, $action: WriteAction, $since: DateTime, $limit: Int) {
              auditLog(agentId: $agentId, action: $action, since: $since, limit: $limit) {
                id
                createdAt
                action
                applied
                blockedReason
                eventId
                factId
                targetId
                reason
                mode
              }
            }
            """)
        variables: dict[str, object] = {
            "agentId": agent_id,
            "action": action,
            "since": since,
            "limit": limit,
        }
        response = self.execute(
            query=query, operation_name="AuditLog", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return AuditLog.model_validate(data).audit_log

    def entities(
        self,
        agent_id: str,
        type_: Union[Optional[str], UnsetType] = UNSET,
        text: Union[Optional[str], UnsetType] = UNSET,
        first: Union[Optional[int], UnsetType] = UNSET,
        after: Union[Optional[str], UnsetType] = UNSET,
        include_merged: Union[Optional[bool], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> EntitiesEntities:
        query = gql("""
            query Entities($agentId: ID!, $type: String, $text: String, $first: Int, $after: String, $includeMerged: Boolean) {
              entities(
                agentId: $agentId
                type: $type
                text: $text
                first: $first
                after: $after
                includeMerged: $includeMerged
              ) {
                edges {
                  node {
                    key
                    name
                    type
                    mentions
                    importance
                    source
                    createdAt
                    updatedAt
                    mergedInto
                    profile {
                      text
                      summary
                      refreshedAt
                    }
                    aliases
                  }
                  cursor
                }
                pageInfo {
                  hasNextPage
                  endCursor
                }
                totalCount
              }
            }
            """)
        variables: dict[str, object] = {
            "agentId": agent_id,
            "type": type_,
            "text": text,
            "first": first,
            "after": after,
            "includeMerged": include_merged,
        }
        response = self.execute(
            query=query, operation_name="Entities", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Entities.model_validate(data).entities

    def entity(self, agent_id: str, key: str, **kwargs: Any) -> Optional[EntityEntity]:
        query = gql("""
            query Entity($agentId: ID!, $key: String!) {
              entity(agentId: $agentId, key: $key) {
                key
                name
                type
                mentions
                importance
                source
                createdAt
                updatedAt
                mergedInto
                profile {
                  text
                  summary
                  refreshedAt
                }
                facts {
                  id
                  text
                  subjectKey
                  kind
                  confidence
                  importance
                  importanceCategory
                  temporalClass
                  categories
                  language
                  speaker
                  validFrom
                  validTo
                  validUntil
                  invalidatedAt
                  createdAt
                  lastConfirmedAt
                  reinforcementCount
                  reviewNeeded
                  primary
                  supersedes
                  active
                  evidence {
                    id
                    text
                    speaker
                    occurredAt
                    ingestedAt
                    threadId
                    source
                    emotion
                    intensity
                  }
                  cascades {
                    id
                    type
                    sourceKey
                    sourceName
                    targetKey
                    targetName
                    direction
                    otherKey
                    otherName
                    strength
                    mentions
                    confidence
                    validFrom
                    validTo
                    invalidatedAt
                    evidenceFactId
                    createdAt
                    active
                  }
                }
                relationships {
                  id
                  type
                  sourceKey
                  sourceName
                  targetKey
                  targetName
                  direction
                  otherKey
                  otherName
                  strength
                  mentions
                  confidence
                  validFrom
                  validTo
                  invalidatedAt
                  evidenceFactId
                  createdAt
                  active
                }
                aliases
                history {
                  at
                  change
                  text
                  factId
                  relationshipId
                }
              }
            }
            """)
        variables: dict[str, object] = {"agentId": agent_id, "key": key}
        response = self.execute(
            query=query, operation_name="Entity", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Entity.model_validate(data).entity

    def events(
        self,
        agent_id: str,
        thread_id: Union[Optional[str], UnsetType] = UNSET,
        since: Union[Optional[datetime], UnsetType] = UNSET,
        until: Union[Optional[datetime], UnsetType] = UNSET,
        first: Union[Optional[int], UnsetType] = UNSET,
        after: Union[Optional[str], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> EventsEvents:
        query = gql("""
            query Events($agentId: ID!, $threadId: String, $since: DateTime, $until: DateTime, $first: Int, $after: String) {
              events(
                agentId: $agentId
                threadId: $threadId
                since: $since
                until: $until
                first: $first
                after: $after
              ) {
                edges {
                  node {
                    id
                    text
                    speaker
                    occurredAt
                    ingestedAt
                    threadId
                    source
                    emotion
                    intensity
                  }
                  cursor
                }
                pageInfo {
                  hasNextPage
                  endCursor
                }
              }
            }
            """)
        variables: dict[str, object] = {
            "agentId": agent_id,
            "threadId": thread_id,
            "since": since,
            "until": until,
            "first": first,
            "after": after,
        }
        response = self.execute(
            query=query, operation_name="Events", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Events.model_validate(data).events

    def fact_history(
        self, agent_id: str, id: str, **kwargs: Any
    ) -> list[FactHistoryFactHistory]:
        query = gql("""
            query FactHistory($agentId: ID!, $id: ID!) {
              factHistory(agentId: $agentId, id: $id) {
                id
                text
                subjectKey
                kind
                confidence
                importance
                importanceCategory
                temporalClass
                categories
                language
                speaker
                validFrom
                validTo
                validUntil
                invalidatedAt
                createdAt
                lastConfirmedAt
                reinforcementCount
                reviewNeeded
                primary
                supersedes
                active
                evidence {
                  id
                  text
                  speaker
                  occurredAt
                  ingestedAt
                  threadId
                  source
                  emotion
                  intensity
                }
                cascades {
                  id
                  type
                  sourceKey
                  sourceName
                  targetKey
                  targetName
                  direction
                  otherKey
                  otherName
                  strength
                  mentions
                  confidence
                  validFrom
                  validTo
                  invalidatedAt
                  evidenceFactId
                  createdAt
                  active
                }
              }
            }
            """)
        variables: dict[str, object] = {"agentId": agent_id, "id": id}
        response = self.execute(
            query=query, operation_name="FactHistory", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return FactHistory.model_validate(data).fact_history

    def facts(
        self,
        agent_id: str,
        as_of: Union[Optional[datetime], UnsetType] = UNSET,
        include_invalidated: Union[Optional[bool], UnsetType] = UNSET,
        entity_key: Union[Optional[str], UnsetType] = UNSET,
        kind: Union[Optional[FactKind], UnsetType] = UNSET,
        first: Union[Optional[int], UnsetType] = UNSET,
        after: Union[Optional[str], UnsetType] = UNSET,
        entity_type: Union[Optional[str], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> FactsFacts:
        query = gql("""
            query Facts($agentId: ID!, $asOf: DateTime, $includeInvalidated: Boolean, $entityKey: String, $kind: FactKind, $first: Int, $after: String, $entityType: String) {
              facts(
                agentId: $agentId
                asOf: $asOf
                includeInvalidated: $includeInvalidated
                entityKey: $entityKey
                kind: $kind
                first: $first
                after: $after
                entityType: $entityType
              ) {
                edges {
                  node {
                    id
                    text
                    subjectKey
                    kind
                    confidence
                    importance
                    importanceCategory
                    temporalClass
                    categories
                    language
                    speaker
                    validFrom
                    validTo
                    validUntil
                    invalidatedAt
                    createdAt
                    lastConfirmedAt
                    reinforcementCount
                    reviewNeeded
                    primary
                    supersedes
                    active
                    evidence {
                      id
                      text
                      speaker
                      occurredAt
                      ingestedAt
                      threadId
                      source
                      emotion
                      intensity
                    }
                    cascades {
                      id
                      type
                      sourceKey
                      sourceName
                      targetKey
                      targetName
                      direction
                      otherKey
                      otherName
                      strength
                      mentions
                      confidence
                      validFrom
                      validTo
                      invalidatedAt
                      evidenceFactId
                      createdAt
                      active
                    }
                  }
                  cursor
                }
                pageInfo {
                  hasNextPage
                  endCursor
                }
              }
            }
            """)
        variables: dict[str, object] = {
            "agentId": agent_id,
            "asOf": as_of,
            "includeInvalidated": include_invalidated,
            "entityKey": entity_key,
            "kind": kind,
            "first": first,
            "after": after,
            "entityType": entity_type,
        }
        response = self.execute(
            query=query, operation_name="Facts", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Facts.model_validate(data).facts

    def failed_messages(
        self,
        agent_id: str,
        limit: Union[Optional[int], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> list[FailedMessagesFailedMessages]:
        query = gql("""
            query FailedMessages($agentId: ID!, $limit: Int) {
              failedMessages(agentId: $agentId, limit: $limit) {
                eventId
                speaker
                text
                occurredAt
                error
                failedAt
              }
            }
            """)
        variables: dict[str, object] = {"agentId": agent_id, "limit": limit}
        response = self.execute(
            query=query, operation_name="FailedMessages", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return FailedMessages.model_validate(data).failed_messages

    def health(self, **kwargs: Any) -> HealthHealth:
        query = gql("""
            query Health {
              health {
                ready
                neo4jVersion
                llmMode
                embedder
              }
            }
            """)
        variables: dict[str, object] = {}
        response = self.execute(
            query=query, operation_name="Health", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Health.model_validate(data).health

    def job(self, agent_id: str, id: str, **kwargs: Any) -> Optional[JobJob]:
        query = gql("""
            query Job($agentId: ID!, $id: ID!) {
              job(agentId: $agentId, id: $id) {
                id
                kind
                subject
                status
                attempts
                maxAttempts
                progress
                lastError
                lastErrorCode
                runAfter
                createdAt
                finishedAt
              }
            }
            """)
        variables: dict[str, object] = {"agentId": agent_id, "id": id}
        response = self.execute(
            query=query, operation_name="Job", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Job.model_validate(data).job

    def jobs(
        self,
        agent_id: str,
        status: Union[Optional[JobStatus], UnsetType] = UNSET,
        limit: Union[Optional[int], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> list[JobsJobs]:
        query = gql("""
            query Jobs($agentId: ID!, $status: JobStatus, $limit: Int) {
              jobs(agentId: $agentId, status: $status, limit: $limit) {
                id
                kind
                subject
                status
                attempts
                maxAttempts
                progress
                lastError
                lastErrorCode
                runAfter
                createdAt
                finishedAt
              }
            }
            """)
        variables: dict[str, object] = {
            "agentId": agent_id,
            "status": status,
            "limit": limit,
        }
        response = self.execute(
            query=query, operation_name="Jobs", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Jobs.model_validate(data).jobs

    def merge_candidates(
        self,
        agent_id: str,
        status: Union[Optional[MergeCandidateStatus], UnsetType] = UNSET,
        limit: Union[Optional[int], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> list[MergeCandidatesMergeCandidates]:
        query = gql("""
            query MergeCandidates($agentId: ID!, $status: MergeCandidateStatus, $limit: Int) {
              mergeCandidates(agentId: $agentId, status: $status, limit: $limit) {
                id
                keepKey
                keepName
                dropKey
                dropName
                confidence
                reason
                status
                createdAt
              }
            }
            """)
        variables: dict[str, object] = {
            "agentId": agent_id,
            "status": status,
            "limit": limit,
        }
        response = self.execute(
            query=query, operation_name="MergeCandidates", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return MergeCandidates.model_validate(data).merge_candidates

    def neighborhood(
        self,
        agent_id: str,
        key: str,
        hops: Union[Optional[int], UnsetType] = UNSET,
        as_of: Union[Optional[datetime], UnsetType] = UNSET,
        max_nodes: Union[Optional[int], UnsetType] = UNSET,
        relation_types: Union[Optional[list[str]], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> NeighborhoodNeighborhood:
        query = gql("""
            query Neighborhood($agentId: ID!, $key: String!, $hops: Int, $asOf: DateTime, $maxNodes: Int, $relationTypes: [String!]) {
              neighborhood(
                agentId: $agentId
                key: $key
                hops: $hops
                asOf: $asOf
                maxNodes: $maxNodes
                relationTypes: $relationTypes
              ) {
                center
                nodes {
                  id
                  label
                  type
                  depth
                  importance
                  mentions
                }
                edges {
                  id
                  source
                  target
                  label
                  strength
                  validFrom
                  validTo
                }
              }
            }
            """)
        variables: dict[str, object] = {
            "agentId": agent_id,
            "key": key,
            "hops": hops,
            "asOf": as_of,
            "maxNodes": max_nodes,
            "relationTypes": relation_types,
        }
        response = self.execute(
            query=query, operation_name="Neighborhood", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Neighborhood.model_validate(data).neighborhood

    def observations(
        self,
        agent_id: str,
        limit: Union[Optional[int], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> list[ObservationsObservations]:
        query = gql("""
            query Observations($agentId: ID!, $limit: Int) {
              observations(agentId: $agentId, limit: $limit) {
                id
                text
                kind
                createdAt
                updatedAt
                factIds
              }
            }
            """)
        variables: dict[str, object] = {"agentId": agent_id, "limit": limit}
        response = self.execute(
            query=query, operation_name="Observations", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Observations.model_validate(data).observations

    def ontology(self, agent_id: str, **kwargs: Any) -> OntologyOntology:
        query = gql("""
            query Ontology($agentId: ID!) {
              ontology(agentId: $agentId) {
                name
                description
                version
                scope
                strict
                entityTypes {
                  name
                  description
                  parent
                  aliases
                  identifier
                }
                relationTypes {
                  name
                  description
                  source
                  target
                  singleValued
                  supersedes
                  inverse
                  aliases
                }
              }
            }
            """)
        variables: dict[str, object] = {"agentId": agent_id}
        response = self.execute(
            query=query, operation_name="Ontology", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Ontology.model_validate(data).ontology

    def retrieve(
        self,
        agent_id: str,
        query: str,
        as_of: Union[Optional[datetime], UnsetType] = UNSET,
        options: Union[Optional[RetrieveOptions], UnsetType] = UNSET,
        entity_types: Union[Optional[list[str]], UnsetType] = UNSET,
        relation_types: Union[Optional[list[str]], UnsetType] = UNSET,
        boost: Union[Optional[RetrieveBoost], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> RetrieveRetrieve:
        _query = gql("""
            query Retrieve($agentId: ID!, $query: String!, $asOf: DateTime, $options: RetrieveOptions, $entityTypes: [String!], $relationTypes: [String!], $boost: RetrieveBoost) {
              retrieve(
                agentId: $agentId
                query: $query
                asOf: $asOf
                options: $options
                entityTypes: $entityTypes
                relationTypes: $relationTypes
                boost: $boost
              ) {
                context
                contextTokens
                facts {
                  id
                  text
                  subjectKey
                  kind
                  confidence
                  createdAt
                  validFrom
                  sources
                  hops
                  tier
                  score
                  scores {
                    semantic
                    keyword
                    graph
                    recency
                    importance
                    reranker
                    formula
                    final
                    ranker
                    explanation {
                      model
                      version
                      raw
                      bias
                    }
                  }
                  hopPath {
                    key
                    name
                    via
                    forward
                  }
                }
                events {
                  id
                  text
                  speaker
                  occurredAt
                  score
                  superseded
                }
                observations {
                  id
                  text
                  kind
                }
                plan {
                  strategy
                  reason
                  entities
                  keywords
                }
                totalCandidates
                durationMs
                retrieveId
              }
            }
            """)
        variables: dict[str, object] = {
            "agentId": agent_id,
            "query": query,
            "asOf": as_of,
            "options": options,
            "entityTypes": entity_types,
            "relationTypes": relation_types,
            "boost": boost,
        }
        response = self.execute(
            query=_query, operation_name="Retrieve", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Retrieve.model_validate(data).retrieve

    def viewer(self, **kwargs: Any) -> ViewerViewer:
        query = gql("""
            query Viewer {
              viewer {
                admin
                allAgents
                agents
              }
            }
            """)
        variables: dict[str, object] = {}
        response = self.execute(
            query=query, operation_name="Viewer", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Viewer.model_validate(data).viewer

    def webhook_deliveries(
        self,
        status: Union[Optional[WebhookDeliveryStatus], UnsetType] = UNSET,
        webhook_id: Union[Optional[str], UnsetType] = UNSET,
        agent: Union[Optional[str], UnsetType] = UNSET,
        limit: Union[Optional[int], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> list[WebhookDeliveriesWebhookDeliveries]:
        query = gql("""
            query WebhookDeliveries($status: WebhookDeliveryStatus, $webhookId: ID, $agent: ID, $limit: Int) {
              webhookDeliveries(
                status: $status
                webhookId: $webhookId
                agent: $agent
                limit: $limit
              ) {
                id
                webhookId
                agentId
                event
                status
                attempts
                maxAttempts
                nextAttemptAt
                lastStatusCode
                lastError
                eventAt
                createdAt
                deliveredAt
              }
            }
            """)
        variables: dict[str, object] = {
            "status": status,
            "webhookId": webhook_id,
            "agent": agent,
            "limit": limit,
        }
        response = self.execute(
            query=query,
            operation_name="WebhookDeliveries",
            variables=variables,
            **kwargs,
        )
        data = self.get_data(response)
        return WebhookDeliveries.model_validate(data).webhook_deliveries

    def webhooks(
        self,
        tenant: Union[Optional[str], UnsetType] = UNSET,
        agent: Union[Optional[str], UnsetType] = UNSET,
        **kwargs: Any,
    ) -> list[WebhooksWebhooks]:
        query = gql("""
            query Webhooks($tenant: String, $agent: ID) {
              webhooks(tenant: $tenant, agent: $agent) {
                id
                scope
                tenant
                agentId
                url
                events
                description
                createdAt
                secretHint
                pending
                delivered
                dead
              }
            }
            """)
        variables: dict[str, object] = {"tenant": tenant, "agent": agent}
        response = self.execute(
            query=query, operation_name="Webhooks", variables=variables, **kwargs
        )
        data = self.get_data(response)
        return Webhooks.model_validate(data).webhooks
