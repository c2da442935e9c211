// Page iterators over the connections (entities, facts, events): they follow
// pageInfo.endCursor until hasNextPage is false and yield each node.
//   for await (const fact of iterFacts(client, "demo")) console.log(fact.text);
import type { HippographClient } from "./client.js";
import {
  EntitiesDocument,
  type EntitiesQueryVariables,
  EventsDocument,
  type EventsQueryVariables,
  FactsDocument,
  type FactsQueryVariables,
} from "./generated/graphql.js";

interface Connection<N> {
  edges: { node: N }[];
  pageInfo: { hasNextPage: boolean; endCursor?: string | null };
}

async function* pages<N>(fetchPage: (after: string | null) => Promise<Connection<N>>): AsyncGenerator<N> {
  let after: string | null = null;
  for (;;) {
    const page: Connection<N> = await fetchPage(after);
    for (const edge of page.edges) yield edge.node;
    if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor) return;
    after = page.pageInfo.endCursor;
  }
}

type Filters<V> = Omit<V, "agentId" | "first" | "after">;

export function iterEntities(client: HippographClient, agentId: string, pageSize = 100, filters: Filters<EntitiesQueryVariables> = {}) {
  return pages(async (after) => (await client.request(EntitiesDocument, { ...filters, agentId, first: pageSize, after })).entities);
}

export function iterFacts(client: HippographClient, agentId: string, pageSize = 100, filters: Filters<FactsQueryVariables> = {}) {
  return pages(async (after) => (await client.request(FactsDocument, { ...filters, agentId, first: pageSize, after })).facts);
}

export function iterEvents(client: HippographClient, agentId: string, pageSize = 100, filters: Filters<EventsQueryVariables> = {}) {
  return pages(async (after) => (await client.request(EventsDocument, { ...filters, agentId, first: pageSize, after })).events);
}
