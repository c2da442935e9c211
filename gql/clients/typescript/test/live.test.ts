// Against a running service: HIPPOGRAPH_URL (…/graphql), HIPPOGRAPH_KEY, HIPPOGRAPH_AGENT (the
// demo agent). tests/e2e/test_typescript_client.py starts one and runs these.
import assert from "node:assert/strict";
import { test } from "node:test";
import { EntityDocument, FactHistoryDocument, FactsDocument, Forbidden, HippographClient, iterEntities, iterFacts, NotFound, RetrieveDocument } from "../src/index.js";

const url = process.env.HIPPOGRAPH_URL;
const agentId = process.env.HIPPOGRAPH_AGENT ?? "demo";
const client = new HippographClient({ url: url ?? "", apiKey: process.env.HIPPOGRAPH_KEY });
const live = { skip: url ? false : "HIPPOGRAPH_URL is not set" };

test("typed documents answer typed data", live, async () => {
  const { entity } = await client.request(EntityDocument, { agentId, key: "person:guilherme_maturana" });
  assert.equal(entity?.name, "Guilherme Maturana");
  assert.ok(entity?.relationships.some((r) => r.type === "lives_in" && r.active));
  const { retrieve } = await client.request(RetrieveDocument, { agentId, query: "Where does Guilherme live?", options: { topkFacts: 3 } });
  assert.ok(retrieve.context.length > 0 && retrieve.facts.length > 0 && retrieve.facts.length <= 3);
});

test("pages cover every fact once", live, async () => {
  const whole = await client.request(FactsDocument, { agentId, first: 100 });
  const paged: string[] = [];
  for await (const fact of iterFacts(client, agentId, 3)) paged.push(fact.id);
  assert.deepEqual(paged, whole.facts.edges.map((e) => e.node.id));
  assert.ok(paged.length > 6);
  const people: string[] = [];
  for await (const e of iterEntities(client, agentId, 2, { type: "person" })) people.push(e.key);
  assert.ok(people.includes("person:guilherme_maturana"));
});

test("errors are typed", live, async () => {
  await assert.rejects(client.request(FactHistoryDocument, { agentId, id: "no-such-fact" }), NotFound);
  const stranger = new HippographClient({ url: url ?? "", apiKey: "hg_wrong_key" });
  const error = await stranger.request(FactsDocument, { agentId, first: 1 }).catch((e: unknown) => e);
  assert.ok(error instanceof Forbidden);
  assert.equal(error.status, 401);
});
