"""The MCP tools: their table (name, input model, function, hints for clients). Each tool is
a thin call into the pipelines the GraphQL resolvers use (``gql/queries.py``,
``gql/mutations.py``); nothing is reimplemented. The functions live in ``write_tools`` (write,
remember, forget, erase, ingest) and ``read_tools`` (retrieve, look up, list, and the
resources).

Functions take the process's :class:`~graph.memory.facade.Memory` (``server.composition``),
the agent id the caller may use and the validated input (``inputs``); they return JSON-ready dicts
(``plain``) and raise the graph-layer errors (``BadInput``, ``NotFound``,
``GraphUnavailable``...), which the server maps to coded tool errors. No MCP import here: the
functions are plain and testable.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.mcp.inputs import (
    EraseEntity,
    EraseFact,
    ForgetFact,
    IngestDocument,
    Input,
    ListFacts,
    LookupEntity,
    RateFact,
    RememberFacts,
    RetrieveContext,
    WriteMessage,
)
from server.mcp.read_tools import list_facts, lookup_entity, retrieve_context
from server.mcp.write_tools import (
    erase_entity_tool,
    erase_fact_tool,
    forget_fact,
    ingest_document,
    rate_fact,
    remember_facts,
    write_message,
)

__all__ = ["TOOLS", "Tool"]


@dataclass(frozen=True)
class Tool:
    """One MCP tool: its input model, the function, and hints for clients."""

    name: str
    title: str
    input: type[Input]
    run: Any  # async (Memory, agent_id, input) -> dict
    read_only: bool = False
    destructive: bool = False
    charges_key: bool = False  # ``run`` takes ``key_id=`` (the calling key pays a quota)
    reranks: bool = False  # may rerank with the LLM: costs ``rerank_rate_cost`` requests
    admin_only: bool = False  # only an admin key or the operator's own scope may call it
    erases: bool = False  # offered only when the operator opts in (Settings.mcp_erase_tools)
    takes_tenant: bool = False  # ``run`` takes ``tenant=`` (the caller's tenant)


TOOLS: tuple[Tool, ...] = (
    Tool("write_message", "Write a message", WriteMessage, write_message),
    Tool("remember_facts", "Remember structured facts", RememberFacts, remember_facts),
    Tool(
        "retrieve_context",
        "Retrieve memory context",
        RetrieveContext,
        retrieve_context,
        read_only=True,
        reranks=True,
    ),
    Tool("lookup_entity", "Look up an entity", LookupEntity, lookup_entity, read_only=True),
    Tool("list_facts", "List facts as of a time", ListFacts, list_facts, read_only=True),
    Tool("forget_fact", "Forget a fact", ForgetFact, forget_fact, destructive=True),
    Tool("feedback", "Rate a retrieved fact", RateFact, rate_fact, takes_tenant=True),
    Tool(
        "erase_fact",
        "Erase a fact for good",
        EraseFact,
        erase_fact_tool,
        destructive=True,
        admin_only=True,
        erases=True,
    ),
    Tool(
        "erase_entity",
        "Erase a subject for good",
        EraseEntity,
        erase_entity_tool,
        destructive=True,
        admin_only=True,
        erases=True,
    ),
    Tool("ingest_document", "Ingest a document", IngestDocument, ingest_document, charges_key=True),
)
