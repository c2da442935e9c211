// The client's retries over a scripted fetch (no server: the answers a server gives under load
// or outage) and its typed errors.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Document } from "../src/client.js";
import { HippographClient, InProgress, RateLimited, TransportError, Unavailable, ViewerDocument, WriteDocument } from "../src/index.js";
import { isIdempotent, operationKind } from "../src/transport.js";

type Scripted = [number, Record<string, string>, unknown];

function scripted(...answers: Scripted[]) {
  const calls: { variables: Record<string, unknown>; auth: string | null }[] = [];
  const fakeFetch = (async (_url: unknown, init?: RequestInit) => {
    const sent = JSON.parse(String(init?.body));
    calls.push({ variables: sent.variables, auth: new Headers(init?.headers).get("authorization") });
    const next = answers.shift();
    if (!next) throw new Error("no more scripted answers");
    const [status, headers, body] = next;
    return new Response(JSON.stringify(body), { status, headers });
  }) as typeof fetch;
  const waits: number[] = [];
  const client = new HippographClient({
    url: "http://memory.test/graphql",
    apiKey: "k",
    fetch: fakeFetch,
    retry: { attempts: 4 },
    sleep: async (s) => {
      waits.push(s);
    },
  });
  return { client, calls, waits };
}

const coded = (code: string, extra: Record<string, unknown> = {}) => ({ data: null, errors: [{ message: code, extensions: { code, ...extra } }] });
const payload = (code: string) => ({ data: { write: { outcome: null, queued: null, errors: [{ code, message: code, field: null }] } } });
const viewer = { data: { viewer: { admin: true, allAgents: true, agents: [] } } };

test("a rate-limited query waits what it was told and is answered", async () => {
  const { client, calls, waits } = scripted([429, { "Retry-After": "2" }, coded("RATE_LIMITED")], [200, {}, coded("RATE_LIMITED", { retryAfterSeconds: 1 })], [200, {}, viewer]);
  const data = await client.request(ViewerDocument);
  assert.equal(data.viewer.admin, true);
  assert.deepEqual(waits, [2, 1]);
  assert.equal(calls[0]!.auth, "Bearer k");
});

test("a keyed write waits for the first one; an unkeyed one is never sent twice", async () => {
  const done = { data: { write: { outcome: null, queued: null, errors: [] } } };
  const keyed = scripted([200, {}, payload("IN_PROGRESS")], [200, {}, done]);
  await keyed.client.request(WriteDocument, { agentId: "a", message: "hi", speakerName: "Ana", idempotencyKey: "k1" });
  assert.deepEqual(keyed.calls.map((c) => c.variables.idempotencyKey), ["k1", "k1"]);

  const unkeyed = scripted([200, {}, payload("UNAVAILABLE")]);
  await assert.rejects(unkeyed.client.request(WriteDocument, { agentId: "a", message: "hi", speakerName: "Ana" }), Unavailable);
  assert.equal(unkeyed.calls.length, 1);

  const stuck = scripted(...Array.from({ length: 4 }, (): Scripted => [200, {}, payload("IN_PROGRESS")]));
  await assert.rejects(stuck.client.request(WriteDocument, { agentId: "a", message: "hi", speakerName: "Ana", idempotencyKey: "k2" }), InProgress);
  assert.equal(stuck.calls.length, 4);
});

test("attempts end with the typed error; a non-GraphQL reply is a TransportError", async () => {
  const limited = scripted(...Array.from({ length: 4 }, (): Scripted => [429, { "Retry-After": "0" }, coded("RATE_LIMITED")]));
  const error = await limited.client.request(ViewerDocument).catch((e: unknown) => e);
  assert.ok(error instanceof RateLimited);
  assert.equal(error.status, 429);
  const proxy = scripted([502, {}, "Bad gateway"]);
  await assert.rejects(proxy.client.request(ViewerDocument), TransportError);
});

test("a mutation is known by its parsed operation, not by the document's first word", () => {
  const write = "mutation W { write { errors { code } } }";
  const cases: [string, string | undefined, boolean][] = [
    [`# a note first\n${write}`, undefined, false],
    [`fragment E on WritePayload { errors { code } }\nmutation W { write { ...E } }`, undefined, false],
    [`"""a description"""\n${write}`, undefined, false], // not an executable document
    ['  \n,# "mutation"\n{ viewer { admin } }', undefined, true],
    ['query Q($t: String = "mutation { x }") { fact(text: """ } mutation """) { id } }', undefined, true],
    ["query Q($o: JSON = {a: [1, {b: 2}]}) { viewer { admin } }", undefined, true],
    [`query Q { viewer { admin } } ${write}`, "W", false],
    [`query Q { viewer { admin } } ${write}`, "Q", true],
    [`query Q { viewer { admin } } ${write}`, undefined, false], // no name: the mutation may run
    ["query Q { viewer { admin } }", "Missing", false],
    ["mutation { unclosed", undefined, false],
    ['query Q { fact(text: "unterminated) { id } }', undefined, false],
  ];
  for (const [query, name, idempotent] of cases) {
    assert.equal(isIdempotent(query, undefined, name), idempotent, query);
    assert.equal(isIdempotent(query, { idempotencyKey: "k" }, name), true, query);
  }
  assert.equal(operationKind(`# c\n${write}`), "mutation");
  assert.equal(operationKind("subscription S { memoryChanged { kind } }"), "subscription");
});

test("a hand-written mutation after a comment or a fragment is never sent twice", async () => {
  const documents = [
    "# written by hand\nmutation W($a: ID!) { write(agentId: $a) { errors { code } } }",
    "fragment E on WritePayload { errors { code } }\nmutation W($a: ID!) { write(agentId: $a) { ...E } }",
  ];
  for (const text of documents) {
    const { client, calls } = scripted([200, {}, payload("UNAVAILABLE")], [200, {}, viewer]);
    const document: Document<unknown, { a: string }> = { toString: () => text };
    await assert.rejects(client.request(document, { a: "x" }), Unavailable);
    assert.equal(calls.length, 1, text);
  }
});
