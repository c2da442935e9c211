"""Which agent-scoped vector search the connected Neo4j allows, detected once per connection.

Every agent's facts share one vector index. Neo4j 2026.01+ (Cypher 25) can store ``agent_id``
inside the index (``CREATE VECTOR INDEX … WITH [n.agent_id]``) and filter while it walks the
graph of vectors (``SEARCH … WHERE node.agent_id = $agent_id``), so an agent's top-k costs the
same whatever the number of other agents. Neo4j 5.26 has neither: there the retrieve path keeps
the exact scan of the agent's own facts and the over-fetch of the global index
(``graph/memory/read/search.py``). ``ensure_schema`` builds the filtered form of the fact, entity
and event indexes where the server allows it; the retrieve path (facts) and entity resolution
(entities) ask :func:`detect` which form each index actually has (:func:`form_of` caches the
answer per executor once every index exists).
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass, field

from graph.executor import Executor

__all__ = ["FILTERABLE", "VectorSearchForm", "detect", "form_of", "server_has_filtered_search"]

# The vector indexes that take the filtered form on a server that has it (label → index name).
FILTERABLE = {"fact": "fact_embedding", "entity": "entity_embedding", "event": "event_embedding"}
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
    """What the server supports and what the filterable vector indexes hold."""

    server_filtered: bool  # the server can build and query a filtered vector index
    index_properties: tuple[str, ...]  # the fact index's properties (empty: no index)
    # The other filterable indexes' properties by label ("entity", "event"); absent: no index.
    others: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def properties(self, label: str) -> tuple[str, ...]:
        """The properties the ``label`` index stores (empty: it does not exist)."""
        return self.index_properties if label == "fact" else self.others.get(label, ())

    def filtered_for(self, label: str) -> bool:
        """The ``label`` index may be queried with ``SEARCH … WHERE node.agent_id = …``."""
        return self.server_filtered and "agent_id" in self.properties(label)

    @property
    def filtered(self) -> bool:
        """The retrieve path may use ``read/semantic_facts_search``."""
        return self.filtered_for("fact")

    def rebuild(self) -> list[str]:
        """The labels whose index the server could filter but was built without ``agent_id``
        (by an older server): ``ensure_schema`` drops and rebuilds them once."""
        return [
            label
            for label in FILTERABLE
            if self.server_filtered and self.properties(label) and not self.filtered_for(label)
        ]

    @property
    def needs_rebuild(self) -> bool:
        """The server allows the filtered form but the fact index was built without it."""
        return "fact" in self.rebuild()

    @property
    def complete(self) -> bool:
        """Every filterable index exists (the form cannot change until the next start)."""
        return all(self.properties(label) for label in FILTERABLE)


async def detect(ex: Executor) -> VectorSearchForm:
    """Two cheap reads: the server's versions and the filterable indexes' properties."""
    comps = await ex.run("schema/vector_search_form", read=True)
    rows = await ex.run("schema/vector_index_properties", read=True)
    by_name = {str(r["name"]): tuple(str(p) for p in r["properties"]) for r in rows}
    props = {label: by_name.get(name, ()) for label, name in FILTERABLE.items()}
    version, cypher = (comps[0]["version"], list(comps[0]["cypher"])) if comps else (None, [])
    return VectorSearchForm(
        server_filtered=server_has_filtered_search(version, cypher),
        index_properties=props["fact"],
        others={label: p for label, p in props.items() if label != "fact" and p},
    )


_FORMS: weakref.WeakKeyDictionary[Executor, VectorSearchForm] = weakref.WeakKeyDictionary()


async def form_of(ex: Executor) -> VectorSearchForm:
    """:func:`detect`, read once per executor once every filterable index exists (before
    ``ensure_schema`` has built them all the answer is not cached). An executor over one open
    transaction (``SharedTransaction``: the offline write) asks the executor it wraps, outside
    that transaction."""
    ex = getattr(ex, "base", ex)
    form = _FORMS.get(ex)
    if form is None:
        form = await detect(ex)
        if form.complete:
            _FORMS[ex] = form
    return form
