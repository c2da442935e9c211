// The GraphQL client: posts a typed document to this server's /graphql with the API key the
// person entered (kept for the tab only, in sessionStorage). Same origin: nothing leaves the machine.
import type { TypedDocumentString } from "./generated/graphql";

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

interface Reply<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

export async function request<T, V>(doc: TypedDocumentString<T, V>, variables: V): Promise<T> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  const key = apiKey();
  if (key) headers.Authorization = `Bearer ${key}`;
  const res = await fetch("/graphql", {
    method: "POST",
    headers,
    body: JSON.stringify({ query: doc.toString(), variables }),
  });
  let reply: Reply<T>;
  try {
    reply = (await res.json()) as Reply<T>;
  } catch {
    throw new ApiError(`The API answered ${res.status}`, `HTTP_${res.status}`);
  }
  const first = reply.errors?.[0];
  // 401: no key or an unknown one (the API names it FORBIDDEN); the page asks for a key.
  if (first) throw new ApiError(first.message, res.status === 401 ? "UNAUTHENTICATED" : first.extensions?.code ?? "ERROR");
  if (!res.ok || !reply.data) throw new ApiError(`The API answered ${res.status}`, `HTTP_${res.status}`);
  return reply.data;
}
