"""Neighbourhood subgraphs shaped for graph UIs (nodes + edges with ids and labels)."""

from __future__ import annotations

from datetime import datetime

import strawberry

from graph.memory.browse import GraphNodeRow, Neighborhood, RelationshipRow

__all__ = ["GraphEdge", "GraphNode", "Subgraph", "subgraph_from"]


@strawberry.type(description="A node of a subgraph (an entity).")
class GraphNode:
    id: strawberry.ID = strawberry.field(description="Node id = the entity key.")
    label: str = strawberry.field(description="Text to draw on the node (entity name).")
    type: str | None = strawberry.field(description="Entity type, for colouring.")
    depth: int = strawberry.field(description="Hops from the centre (0 = the centre).")
    importance: float | None = strawberry.field(description="Importance 0..1, for sizing.")
    mentions: int | None = strawberry.field(description="Mention count.")

    @classmethod
    def from_row(cls, n: GraphNodeRow) -> GraphNode:
        return cls(
            id=strawberry.ID(n.key),
            label=n.name or n.key,
            type=n.type,
            depth=n.depth,
            importance=n.importance,
            mentions=n.mentions,
        )


@strawberry.type(description="An edge of a subgraph (an entity relationship).")
class GraphEdge:
    id: strawberry.ID = strawberry.field(description="Relationship id.")
    source: strawberry.ID = strawberry.field(description="Id (key) of the source node.")
    target: strawberry.ID = strawberry.field(description="Id (key) of the target node.")
    label: str = strawberry.field(description="Relationship type, e.g. `works_at`.")
    strength: float | None = strawberry.field(description="Strength 0..1, for edge width.")
    valid_from: datetime | None = strawberry.field(description="When it became true.")
    valid_to: datetime | None = strawberry.field(description="When it ended (time travel).")

    @classmethod
    def from_row(cls, r: RelationshipRow) -> GraphEdge:
        ident = r.id or f"{r.source_key}-{r.type}-{r.target_key}"
        return cls(
            id=strawberry.ID(ident),
            source=strawberry.ID(r.source_key),
            target=strawberry.ID(r.target_key),
            label=r.type,
            strength=r.strength,
            valid_from=r.valid_from,
            valid_to=r.valid_to,
        )


@strawberry.type(description="Entities around a centre and the relationships among them.")
class Subgraph:
    center: strawberry.ID = strawberry.field(description="Id (key) of the centre node.")
    nodes: list[GraphNode] = strawberry.field(description="Nodes, the centre first.")
    edges: list[GraphEdge] = strawberry.field(description="Edges among the nodes.")


def subgraph_from(center: str, n: Neighborhood) -> Subgraph:
    return Subgraph(
        center=strawberry.ID(center),
        nodes=[GraphNode.from_row(x) for x in n.nodes],
        edges=[GraphEdge.from_row(x) for x in n.edges],
    )
