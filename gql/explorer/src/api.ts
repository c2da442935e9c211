// The GraphQL client: the hippograph-client package (gql/clients/typescript) posting this
// page's typed documents to this server's /graphql with the API key the person entered (kept for
// the tab only, in sessionStorage). Same origin: nothing leaves the machine. Mutation payload
// errors come back in the data (the views show them beside the action).
import { HippographClient, HippographError, type Document } from "../../clients/typescript/src/client.js";

const KEY_STORE = "hippograph.apiKey";

export class ApiError extends Error {
  constructor(message: string, readonly code: string) {
    super(message);
  }
}

export function apiKey(): string {
  return sessionStorage.getItem(KEY_STORE) ?? "";
}

export function setApiKey(key: string): void {
  if (key) sessionStorage.setItem(KEY_STORE, key);
  else sessionStorage.removeItem(KEY_STORE);
}

const client = new HippographClient({ url: "/graphql", apiKey, retry: { attempts: 3, maxDelay: 5 }, payloadErrors: "return" });

export async function request<T, V>(doc: Document<T, V>, variables: V): Promise<T> {
  try {
    return await client.request(doc, variables);
  } catch (err) {
    if (!(err instanceof HippographError)) throw err;
    // 401: no key or an unknown one (the API names it FORBIDDEN); the page asks for a key.
    const code = err.status === 401 ? "UNAUTHENTICATED" : err.code === "TRANSPORT" ? `HTTP_${err.status ?? 0}` : err.code;
    throw new ApiError(err.message, code);
  }
}
