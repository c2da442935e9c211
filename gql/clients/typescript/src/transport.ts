// What the client decides about an answer, apart from any I/O: whether to retry and after how
// long (retryDelay), and what the answer means (readAnswer: the data, or the typed error).
// Retrying never writes twice: an answer refused before the operation ran (HTTP 429 / 503, or
// RATE_LIMITED) is retried for any operation; UNAVAILABLE and IN_PROGRESS met while a mutation
// ran only when it carries an idempotencyKey (the service then answers the first result).
// Whether a document is a mutation is read from its tokens (operationKind), never from its first
// word: a document may begin with a comment or a fragment.
import { errorFrom, type GraphQLErrorBody, TransportError } from "./errors.js";

export interface RetryPolicy {
  /** Calls at most (1 = no retry). */
  attempts: number;
  /** First backoff in seconds when the service named no delay (doubles each time, ±25 %). */
  backoff: number;
  /** Longest wait in seconds. */
  maxDelay: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, backoff: 0.5, maxDelay: 30 };
export const NO_RETRY: RetryPolicy = { attempts: 1, backoff: 0, maxDelay: 0 };

export interface Answer {
  status: number;
  retryAfterHeader: string | null;
  body: unknown; // parsed JSON, or null
}

interface Body {
  data?: Record<string, unknown> | null;
  errors?: GraphQLErrorBody[];
}

const REFUSED_BEFORE_RUNNING = new Set([429, 503]);
const RETRY_IF_IDEMPOTENT = new Set(["UNAVAILABLE", "IN_PROGRESS"]);

export type OperationKind = "query" | "mutation" | "subscription";

/** A query (or subscription), or a mutation sent with an idempotency key; a document whose
 * operation cannot be told counts as a mutation. */
export function isIdempotent(query: string, variables: Record<string, unknown> | undefined, operationName?: string | null): boolean {
  const kind = operationKind(query, operationName);
  return kind === "query" || kind === "subscription" || Boolean(variables?.idempotencyKey);
}

/** The kind of the operation a document runs: the one named `operationName`, else its only
 * operation; with several and no name, "mutation" when any of them is one (it may be the one
 * that runs). null when the document cannot be read, is not an executable document, or has no
 * such operation (the service refuses it; nothing here assumes it is safe to send again). */
export function operationKind(query: string, operationName?: string | null): OperationKind | null {
  const operations = operationsOf(query);
  if (operations === null) return null;
  const chosen = operationName == null ? operations : operations.filter((o) => o.name === operationName);
  if (chosen.length === 0) return null;
  return chosen.some((o) => o.kind === "mutation") ? "mutation" : chosen[0]!.kind;
}

const OPERATION_WORDS = new Set(["query", "mutation", "subscription"]);
const OPENING = new Set(["(", "[", "{"]);
const CLOSING = new Set([")", "]", "}"]);

/** The operations of a document, read from its top-level definitions: an operation (`{`, or
 * `query` / `mutation` / `subscription` and its name) or a fragment, each ending where its
 * selection set closes. null for anything else (a type definition, unbalanced brackets, an
 * unterminated string). */
function operationsOf(query: string): { kind: OperationKind; name: string | null }[] | null {
  const tokens = tokensOf(query);
  if (tokens === null) return null;
  const found: { kind: OperationKind; name: string | null }[] = [];
  let depth = 0;
  let atDefinition = true;
  for (let k = 0; k < tokens.length; k++) {
    const token = tokens[k]!;
    if (depth === 0 && atDefinition) {
      atDefinition = false;
      if (token.value === "{" && token.kind === "punctuator") found.push({ kind: "query", name: null });
      else if (token.kind === "name" && OPERATION_WORDS.has(token.value)) {
        const next = tokens[k + 1];
        found.push({ kind: token.value as OperationKind, name: next?.kind === "name" ? next.value : null });
      } else if (token.kind !== "name" || token.value !== "fragment") return null;
    }
    if (token.kind !== "punctuator") continue;
    if (OPENING.has(token.value)) depth++;
    else if (CLOSING.has(token.value)) {
      depth--;
      if (depth < 0) return null;
      if (depth === 0 && token.value === "}") atDefinition = true;
    }
  }
  return depth === 0 ? found : null;
}

interface Token {
  kind: "name" | "punctuator" | "value";
  value: string;
}

/** GraphQL's lexical tokens, enough to see a document's structure: names, punctuators and
 * values (strings, block strings, numbers); whitespace, commas and comments skipped. null for
 * an unterminated string. */
function tokensOf(source: string): Token[] | null {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === "#") {
      while (i < source.length && source[i] !== "\n" && source[i] !== "\r") i++;
    } else if (" \t\n\r,\uFEFF".includes(c)) {
      i++;
    } else if (c === '"') {
      const end = source.startsWith('"""', i) ? blockStringEnd(source, i + 3) : stringEnd(source, i + 1);
      if (end === null) return null;
      tokens.push({ kind: "value", value: "string" });
      i = end;
    } else if (/[_A-Za-z]/.test(c)) {
      let j = i + 1;
      while (j < source.length && /[_0-9A-Za-z]/.test(source[j]!)) j++;
      tokens.push({ kind: "name", value: source.slice(i, j) });
      i = j;
    } else if (/[-0-9]/.test(c)) {
      let j = i + 1;
      while (j < source.length && /[0-9.eE+\-_A-Za-z]/.test(source[j]!)) j++;
      tokens.push({ kind: "value", value: "number" });
      i = j;
    } else {
      const width = source.startsWith("...", i) ? 3 : 1;
      tokens.push({ kind: "punctuator", value: source.slice(i, i + width) });
      i += width;
    }
  }
  return tokens;
}

/** Where a string that opened before `i` ends (after its closing quote), or null. */
function stringEnd(source: string, i: number): number | null {
  while (i < source.length) {
    const c = source[i]!;
    if (c === "\n" || c === "\r") return null;
    if (c === "\\") i += 2;
    else if (c === '"') return i + 1;
    else i++;
  }
  return null;
}

/** Where a block string that opened before `i` ends (after its closing `"""`), or null. */
function blockStringEnd(source: string, i: number): number | null {
  while (i < source.length) {
    if (source.startsWith('\\"""', i)) i += 4;
    else if (source.startsWith('"""', i)) return i + 3;
    else i++;
  }
  return null;
}

/** Top-level errors, then the errors of every mutation payload. */
function errorsOf(body: unknown): GraphQLErrorBody[] {
  if (typeof body !== "object" || body === null) return [];
  const { data, errors } = body as Body;
  const found = [...(errors ?? [])];
  for (const value of Object.values(data ?? {})) {
    const payload = value as { errors?: unknown } | null;
    if (payload && Array.isArray(payload.errors)) found.push(...(payload.errors as GraphQLErrorBody[]));
  }
  return found;
}

const codeOf = (e: GraphQLErrorBody): string => e.code ?? e.extensions?.code ?? "";

export function backoffDelay(policy: RetryPolicy, attempt: number): number {
  const delay = policy.backoff * 2 ** (attempt - 1);
  return Math.min(policy.maxDelay, delay * (0.75 + Math.random() * 0.5));
}

function askedDelay(answer: Answer, errors: GraphQLErrorBody[]): number | null {
  if (answer.retryAfterHeader) {
    const seconds = Number(answer.retryAfterHeader);
    if (!Number.isNaN(seconds)) return Math.max(0, seconds);
    const at = Date.parse(answer.retryAfterHeader);
    if (!Number.isNaN(at)) return Math.max(0, (at - Date.now()) / 1000);
  }
  for (const e of errors) {
    const value = e.extensions?.retryAfterSeconds;
    if (typeof value === "number") return Math.max(0, value);
  }
  return null;
}

/** Seconds to wait before attempt `attempt + 1`, or null to stop here. */
export function retryDelay(policy: RetryPolicy, attempt: number, answer: Answer, idempotent: boolean): number | null {
  if (attempt >= policy.attempts) return null;
  const errors = errorsOf(answer.body);
  const codes = new Set(errors.map(codeOf));
  const refused = REFUSED_BEFORE_RUNNING.has(answer.status) || codes.has("RATE_LIMITED");
  const waitable = idempotent && [...codes].some((c) => RETRY_IF_IDEMPOTENT.has(c));
  if (!refused && !waitable) return null;
  const asked = askedDelay(answer, errors);
  return asked === null ? backoffDelay(policy, attempt) : Math.min(policy.maxDelay, asked);
}

/** Seconds to wait after a failed fetch, or null: a request that never reached the service
 * (`connected` false) is retried for any operation, one that may have reached it only when
 * it is idempotent. */
export function failureDelay(policy: RetryPolicy, attempt: number, connected: boolean, idempotent: boolean): number | null {
  if (attempt >= policy.attempts || (connected && !idempotent)) return null;
  return backoffDelay(policy, attempt);
}

/** The answer's data; throws the typed error of its first error (a mutation payload's too,
 * unless `payloadErrors` is "return"), or TransportError. */
export function readAnswer<T>(answer: Answer, payloadErrors: "throw" | "return" = "throw"): T {
  const body = answer.body as Body | null;
  if (typeof body !== "object" || body === null || (!("data" in body) && !("errors" in body))) {
    throw new TransportError(`HTTP ${answer.status}: not a GraphQL answer`, "TRANSPORT", { status: answer.status });
  }
  const errors = payloadErrors === "throw" ? errorsOf(body) : (body.errors ?? []);
  if (errors.length > 0) throw errorFrom(errors[0]!, { errors, data: body.data ?? null, status: answer.status });
  if (answer.status < 200 || answer.status >= 300 || !body.data) {
    throw new TransportError(`HTTP ${answer.status} without data`, "TRANSPORT", { status: answer.status });
  }
  return body.data as T;
}
