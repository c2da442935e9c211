// The client: posts a typed document (generated from the schema, or your own) to the service's
// /graphql with the API key, retries as transport.ts decides, and returns typed data or throws
// the typed error. Works wherever `fetch` exists (Node >= 18, browsers).
import { HippographError, TransportError } from "./errors.js";
import { type Answer, DEFAULT_RETRY, failureDelay, isIdempotent, readAnswer, type RetryPolicy, retryDelay } from "./transport.js";

/** A typed document: its text, typed by its result and variables (graphql-codegen's
 * `documentMode: string` output satisfies it). */
export interface Document<TResult, TVariables> {
  toString(): string;
  readonly __apiType?: (variables: TVariables) => TResult;
}

export interface ClientOptions {
  /** The GraphQL endpoint, e.g. http://127.0.0.1:8000/graphql (a path works in a browser). */
  url: string;
  /** Sent as `Authorization: Bearer`; a function is asked on every call. */
  apiKey?: string | (() => string | null | undefined);
  retry?: Partial<RetryPolicy>;
  fetch?: typeof fetch;
  /** A mutation payload's `errors`: thrown as typed errors (default) or returned in the data. */
  payloadErrors?: "throw" | "return";
  /** Waits between attempts (tests pass a fake). */
  sleep?: (seconds: number) => Promise<void>;
}

const UNREACHED = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]);

export class HippographClient {
  readonly url: string;
  readonly retry: RetryPolicy;
  private readonly key: () => string | null | undefined;
  private readonly fetcher: typeof fetch;
  private readonly sleep: (seconds: number) => Promise<void>;
  private readonly payloadErrors: "throw" | "return";

  constructor(options: ClientOptions) {
    this.url = options.url;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    const key = options.apiKey;
    this.key = typeof key === "function" ? key : () => key;
    this.fetcher = options.fetch ?? ((...args) => fetch(...args));
    this.payloadErrors = options.payloadErrors ?? "throw";
    this.sleep = options.sleep ?? ((s) => new Promise((done) => setTimeout(done, s * 1000)));
  }

  /** Runs one operation; resolves with its data or rejects with a HippographError. */
  async request<TResult, TVariables>(document: Document<TResult, TVariables>, variables?: TVariables): Promise<TResult> {
    const query = document.toString();
    const vars = (variables ?? {}) as Record<string, unknown>;
    const idempotent = isIdempotent(query, vars);
    for (let attempt = 1; ; attempt++) {
      let answer: Answer;
      try {
        answer = await this.send(query, vars);
      } catch (error) {
        const code = (error as { cause?: { code?: string } }).cause?.code ?? "";
        const delay = failureDelay(this.retry, attempt, !UNREACHED.has(code), idempotent);
        if (delay === null) {
          throw new TransportError(`${(error as Error).message} ${code}`.trim(), "TRANSPORT");
        }
        await this.sleep(delay);
        continue;
      }
      const delay = retryDelay(this.retry, attempt, answer, idempotent);
      if (delay === null) return readAnswer<TResult>(answer, this.payloadErrors);
      await this.sleep(delay);
    }
  }

  private async send(query: string, variables: Record<string, unknown>): Promise<Answer> {
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    const key = this.key();
    if (key) headers.Authorization = `Bearer ${key}`;
    const reply = await this.fetcher(this.url, { method: "POST", headers, body: JSON.stringify({ query, variables }) });
    const text = await reply.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    return { status: reply.status, retryAfterHeader: reply.headers.get("retry-after"), body };
  }
}

export { HippographError };
