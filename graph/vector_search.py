"""Which agent-scoped vector search the connected Neo4j allows, detected once per connection.

Every agent's facts share one vector index. Neo4j 2026.01+ (Cypher 25) can store ``agent_id``
inside the index (``CREATE VECTOR INDEX … WITH [n.agent_id]``) and filter while it walks the
graph of vectors (``SEARCH … WHERE node.agent_id = $agent_id``), so an agent's top-k costs the
same whatever the number of other agents. Neo4j 5.26 has neither: there the retrieve path keeps
the exact scan of the agent's own facts and the over-fetch of the global index
(``graph/memory/read/search.py``). ``ensure_schema`` builds the filtered index where the server
allows it; the retrieve path asks :func:`detect` which form the fact index actually has.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graph.executor import Executor

__all__ = ["VectorSearchForm", "detect", "server_has_filtered_search"]

_CALENDAR = re.compile(r"^(\d{4})\.(\d{1,2})")


def server_has_filtered_search(version: str | None, cypher_versions: list[str]) -> bool:
    """True for a server with in-index filtered vector search: Cypher 25 and a calendar
    version of 2026.01 or later (5.x and 2025.x lack the ``SEARCH`` clause for vectors)."""
    if "25" not in cypher_versions or not version:
        return False
    m = _CALENDAR.match(version)
    return m is not None and (int(m[1]), int(m[2])) >= (2026, 1)


@dataclass(frozen=True)
class VectorSearchForm:
    """What the server supports and what the fact index holds."""

    server_filtered: bool  # the server can build and query a filtered vector index
    index_properties: tuple[str, ...]  # the fact index's properties (empty: no index)

    @property
    def filtered(self) -> bool:
        """The retrieve path may use ``read/semantic_facts_search``."""
        return self.server_filtered and "agent_id" in self.index_properties

    @property
    def needs_rebuild(self) -> bool:
        """The server allows the filtered form but the fact index was built without it."""
        return self.server_filtered and bool(self.index_properties) and not self.filtered


async def detect(ex: Executor) -> VectorSearchForm:
    """Two cheap reads: the server's versions and the fact index's properties."""
    comps = await ex.run("schema/vector_search_form", read=True)
    rows = await ex.run("schema/fact_vector_index", read=True)
    props = tuple(str(p) for p in rows[0]["properties"]) if rows else ()
    version, cypher = (comps[0]["version"], list(comps[0]["cypher"])) if comps else (None, [])
    return VectorSearchForm(
        server_filtered=server_has_filtered_search(version, cypher),
        index_properties=props,
    )
