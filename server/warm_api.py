"""The API's own first requests, made while it starts: every kind of GraphQL query it serves,
executed in-process through the app's schema, so the first user's ``entities``,
``entity { history }``, ``neighborhood``, ``facts`` or ``factHistory`` finds its statements
planned and its resolvers' code run, as the first ``retrieve`` and ``write`` do after
``graph.memory.warm_start``.

Each query is asked of the warm-up agents (which hold nothing: one per size of agent id) and of
the largest agent of each id size in the store (``graph.memory.read.warmup.by_id_size``): only
an agent with entities and facts reaches an entity's facts, relationships and history, and
Neo4j plans a statement again for an id of another size. The answers are discarded; nothing is
written. A failing query is reported, never raised.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import strawberry

from gql.context import Context
from gql.permissions import LOCAL_ADMIN
from graph.memory.facade import Memory
from graph.memory.read.warmup import WARMUP_AGENTS, WARMUP_QUERY, by_id_size
from graph.page_cache import agent_sizes
from graph.plan_shapes import size_bucket

__all__ = ["DOCUMENTS", "warm_queries"]

# (name, document): one root field each, so none is refused by the document limits.
DOCUMENTS: tuple[tuple[str, str], ...] = (
    (
        "retrieve",
        """query($a: ID!, $q: String!) { retrieve(agentId: $a, query: $q) {
        context facts { id text score sources scores { semantic keyword graph } }
        plan { strategy entities } } }""",
    ),
    (
        "entities",
        """query($a: ID!) { entities(agentId: $a, first: 5) { totalCount
        pageInfo { hasNextPage endCursor } edges { node { key name type aliases } } } }""",
    ),
    (
        "entities of a type",
        """query($a: ID!) { entities(agentId: $a, type: "person", first: 5) {
        totalCount edges { node { key name aliases } } } }""",
    ),
    (
        "entity",
        """query($a: ID!, $k: String!) { entity(agentId: $a, key: $k) { name aliases
        profile { text } facts { text validFrom active }
        relationships(includeInvalidated: true) {
          type direction otherName sourceName targetName active validTo }
        history(limit: 10) { at change text } } }""",
    ),
    (
        "neighborhood",
        """query($a: ID!, $k: String!) { neighborhood(agentId: $a, key: $k, hops: 2) {
        nodes { id label type depth } edges { source target label } } }""",
    ),
    (
        "facts",
        """query($a: ID!) { facts(agentId: $a, first: 20) {
        edges { node { id text validFrom validTo invalidatedAt active } } } }""",
    ),
    (
        "facts of an entity",
        """query($a: ID!, $k: String!) { facts(agentId: $a, entityKey: $k,
        includeInvalidated: true, first: 20) {
        edges { node { id text validFrom validTo invalidatedAt active } } } }""",
    ),
    (
        "factHistory",
        """query($a: ID!, $f: ID!) { factHistory(agentId: $a, id: $f) { id text validFrom } }""",
    ),
    (
        "events",
        """query($a: ID!) { events(agentId: $a, first: 3) {
        edges { node { occurredAt speaker text } } } }""",
    ),
    (
        "review",
        """query($a: ID!) { mergeCandidates(agentId: $a) { id keepName dropName confidence }
        auditLog(agentId: $a, limit: 5) { createdAt action mode reason } }""",
    ),
)

# Keys and ids that name nothing, of the sizes real ones have (a fact id is a UUID).
PLACEHOLDER_KEYS = ("~" * 6, "~" * 24)
PLACEHOLDER_ID = "~" * 36

# Where an agent's first entity key and fact id are read from, before the documents run.
_FIRST = """query($a: ID!) { facts(agentId: $a, first: 1) { edges { node { id subjectKey } } } }"""


async def warm_queries(
    memory: Memory, schema: strawberry.Schema, log: Callable[[str], object] | None = None
) -> int:
    """Run every document of :data:`DOCUMENTS` for the warm-up agents and the largest agent
    of each id size; returns how many ran without errors."""
    sizes = await agent_sizes(memory.executor)
    ok = 0
    for agent in dict.fromkeys([*WARMUP_AGENTS, *by_id_size(sizes)]):
        handles = _handles(await _execute(schema, memory, _FIRST, {"a": agent}, log))
        # Neo4j plans a statement taking a key again for a key of another size: the agent's
        # own key, and one of the other usual size (2-10, 11-100 characters) that names nothing.
        real = handles.get("k")
        keys = [real] if real else []
        keys += [k for k in PLACEHOLDER_KEYS if size_bucket(len(k)) != size_bucket(len(real or ""))]
        for n, key in enumerate(keys):
            variables = {"a": agent, "q": WARMUP_QUERY, "f": PLACEHOLDER_ID, **handles, "k": key}
            for _, document in DOCUMENTS:
                if n > 0 and "$k" not in document:
                    continue
                # An entity that does not exist is refused: expected, not reported.
                said = log if key == real else None
                ok += await _execute(schema, memory, document, variables, said) is not None
    return ok


def _handles(data: dict[str, Any] | None) -> dict[str, str]:
    """The newest fact's id and subject key of an agent's answer to ``_FIRST`` (pure)."""
    edges = ((data or {}).get("facts") or {}).get("edges") or []
    if not edges:
        return {}
    node = edges[0]["node"]
    # The subject of the newest fact: an entity with facts, likely with relationships too.
    return {
        "f": str(node["id"]),
        **({"k": str(node["subjectKey"])} if node.get("subjectKey") else {}),
    }


async def _execute(
    schema: strawberry.Schema,
    memory: Memory,
    document: str,
    variables: dict[str, Any],
    log: Callable[[str], object] | None,
) -> dict[str, Any] | None:
    """One document as the local operator (auth off); its data, None on errors."""
    used = {k: v for k, v in variables.items() if f"${k}" in document}
    result = await schema.execute(
        document, used, context_value=Context(memory=memory, principal=LOCAL_ADMIN)
    )
    if result.errors:
        if log is not None:
            log(f"warm-up query failed: {result.errors[0].message}")
        return None
    return result.data
