// A tiny typed client over the generated documents: `node dist/client.js <url> <key> <agent>`
// runs EntityCard and PeoplePage against a live API and prints a JSON summary.
import { print } from "graphql";
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import {
  EntityCardDocument,
  PeoplePageDocument,
  RelationshipDirection,
  type EntityCardQuery,
  type PeoplePageQuery,
} from "./generated/graphql.js";

export async function request<R, V>(
  url: string,
  key: string,
  document: TypedDocumentNode<R, V>,
  variables: V,
): Promise<R> {
  const resp = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ query: print(document), variables }),
  });
  const body = (await resp.json()) as { data?: R; errors?: { message: string }[] };
  if (body.errors?.length || !body.data) {
    throw new Error(JSON.stringify(body.errors));
  }
  return body.data;
}

async function main(): Promise<void> {
  const [url, key, agentId] = process.argv.slice(2);
  if (!url || !key || !agentId) throw new Error("usage: client.js <url> <key> <agentId>");
  const card: EntityCardQuery = await request(url, key, EntityCardDocument, {
    agentId,
    key: "person:guilherme_maturana",
  });
  const people: PeoplePageQuery = await request(url, key, PeoplePageDocument, { agentId });
  const activeFacts = card.entity?.facts.filter((f) => f.active).length ?? 0;
  const incoming = (card.entity?.relationships ?? [])
    .filter((r) => r.direction === RelationshipDirection.Incoming)
    .map((r) => `${r.otherName ?? r.otherKey} -[${r.type}]-> ${r.targetKey}`);
  console.log(
    JSON.stringify({
      name: card.entity?.name ?? null,
      activeFacts,
      incoming,
      people: people.entities.totalCount,
      firstPerson: people.entities.edges[0]?.node.key ?? null,
    }),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
