// What the client decides about an answer, apart from any I/O: whether to retry and after how
// long (retryDelay), and what the answer means (readAnswer: the data, or the typed error).
// Retrying never writes twice: an answer refused before the operation ran (HTTP 429 / 503, or
// RATE_LIMITED) is retried for any operation; UNAVAILABLE and IN_PROGRESS met while a mutation
// ran only when it carries an idempotencyKey (the service then answers the first result).
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

export function isIdempotent(query: string, variables: Record<string, unknown> | undefined): boolean {
  return !query.trimStart().startsWith("mutation") || Boolean(variables?.idempotencyKey);
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
