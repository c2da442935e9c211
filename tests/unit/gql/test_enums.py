"""Closed sets of values are GraphQL enums, and their members match the pipeline's strings."""

from __future__ import annotations

from enum import Enum
from typing import get_args

import pytest
from graphql import GraphQLEnumType, GraphQLList, GraphQLNonNull, GraphQLType

from gql.schema import schema
from gql.types.enums import (
    ContextTier,
    DocumentFormat,
    FactKind,
    JobKind,
    JobStatus,
    MaintenanceJob,
    RetrievalSignal,
    WriteAction,
    WriteMode,
    to_api,
    to_api_list,
    to_pipeline,
)
from graph.memory.documents.parse import FORMATS
from graph.memory.jobs.queue import STATUSES
from graph.memory.maintenance.kinds import MAINTENANCE_KINDS
from graph.memory.write.models import FACT_KINDS
from graph.memory.write.reconcile.decisions import ACTIONS
from server.composition import KINDS
from server.settings import Settings

# (type, field) or (type, field, argument) → the enum it must be.
ENUM_FIELDS = {
    ("FactChange", "action"): "WriteAction",
    ("AuditEntry", "action"): "WriteAction",
    ("Query", "auditLog", "action"): "WriteAction",
    ("WriteOutcome", "mode"): "WriteMode",
    ("AuditEntry", "mode"): "WriteMode",
    ("Fact", "kind"): "FactKind",
    ("ScoredFact", "kind"): "FactKind",
    ("FactInput", "kind"): "FactKind",
    ("Query", "facts", "kind"): "FactKind",
    ("Entity", "facts", "kind"): "FactKind",
    ("Job", "kind"): "JobKind",
    ("Mutation", "runJob", "kind"): "MaintenanceJob",
    ("Job", "status"): "JobStatus",
    ("Query", "jobs", "status"): "JobStatus",
    ("MergeCandidate", "status"): "MergeCandidateStatus",
    ("ResolveMergeCandidatePayload", "status"): "MergeCandidateStatus",
    ("Query", "mergeCandidates", "status"): "MergeCandidateStatus",
    ("RetrievalPlan", "strategy"): "RetrievalStrategy",
    ("ScoredFact", "sources"): "RetrievalSignal",
    ("ScoredFact", "tier"): "ContextTier",
    ("Mutation", "ingestDocument", "format"): "DocumentFormat",
}


def _named(t: GraphQLType) -> GraphQLType:
    while isinstance(t, GraphQLNonNull | GraphQLList):
        t = t.of_type
    return t


@pytest.mark.parametrize("where", sorted(ENUM_FIELDS), ids="/".join)
def test_closed_sets_are_enums_in_the_schema(where: tuple[str, ...]) -> None:
    type_ = schema._schema.type_map[where[0]]
    field = type_.fields[where[1]]  # type: ignore[attr-defined]
    target = field.args[where[2]].type if len(where) == 3 else field.type
    named = _named(target)
    assert isinstance(named, GraphQLEnumType) and named.name == ENUM_FIELDS[where]
    assert named.description and all(v.description for v in named.values.values())


@pytest.mark.parametrize(
    ("enum", "pipeline"),
    [
        (FactKind, FACT_KINDS),
        (JobKind, KINDS),
        (MaintenanceJob, MAINTENANCE_KINDS),
        (JobStatus, STATUSES),
        (WriteMode, get_args(Settings.model_fields["write_mode"].annotation)),
        (DocumentFormat, FORMATS),
    ],
)
def test_members_are_exactly_the_pipeline_values(
    enum: type[Enum], pipeline: tuple[str, ...]
) -> None:
    assert sorted(m.value for m in enum) == sorted(pipeline)


def test_write_actions_cover_reconcile_and_curation() -> None:
    assert {m.value for m in WriteAction} == {*ACTIONS, "MERGE", "FORGET", "ERASE"}


def test_mapping_both_ways() -> None:
    assert to_api(FactKind, "preference") is FactKind.PREFERENCE
    assert to_api(FactKind, "relationship") is None  # unknown (older data) → null, no error
    assert to_api(JobStatus, None) is None
    assert to_pipeline(JobStatus.DEAD) == "dead" and to_pipeline(None) is None
    assert to_api_list(RetrievalSignal, ["keyword", "semantic", "bogus", "keyword"]) == [
        RetrievalSignal.KEYWORD,
        RetrievalSignal.SEMANTIC,
    ]
    assert to_api(ContextTier, "hot") is ContextTier.HOT
