// The service's error codes as errors: every failure of a call is a HippographError whose
// subclass names its code, so callers catch what they can handle (`instanceof RateLimited`).

export interface GraphQLErrorBody {
  message?: string;
  code?: string; // a mutation payload's error
  field?: string | null;
  extensions?: { code?: string; retryAfterSeconds?: number; [key: string]: unknown };
}

export class HippographError extends Error {
  /** The service's machine-readable code (`extensions.code`), or TRANSPORT. */
  readonly code: string;
  /** The rest of what the service said (e.g. `retryAfterSeconds`). */
  readonly extensions: Record<string, unknown>;
  /** The input field at fault, when a mutation named one. */
  readonly field: string | null;
  /** Every error of the answer. */
  readonly errors: GraphQLErrorBody[];
  /** What the answer held besides (a mutation's payload, partial query data). */
  readonly data: unknown;
  readonly status: number | null;

  constructor(
    message: string,
    code: string,
    details: { extensions?: Record<string, unknown>; field?: string | null; errors?: GraphQLErrorBody[]; data?: unknown; status?: number | null } = {},
  ) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.extensions = details.extensions ?? {};
    this.field = details.field ?? null;
    this.errors = details.errors ?? [];
    this.data = details.data ?? null;
    this.status = details.status ?? null;
  }

  /** Seconds the service asked to wait before retrying, when it said. */
  get retryAfter(): number | null {
    const value = this.extensions.retryAfterSeconds;
    return typeof value === "number" ? value : null;
  }
}

/** The request or one of its arguments was rejected; fix it (not retried). */
export class BadInput extends HippographError {}
/** The named entity, fact, job or candidate does not exist. */
export class NotFound extends HippographError {}
/** The API key is missing, unknown, or may not use this agent. */
export class Forbidden extends HippographError {}
/** Too many requests for this key (retried until the attempts run out). */
export class RateLimited extends HippographError {}
/** Neo4j or a provider is unreachable (retried when retrying cannot write twice). */
export class Unavailable extends HippographError {}
/** A write with this idempotency key is still running (retried: the same result comes back). */
export class InProgress extends HippographError {}
/** The agent's vectors come from another embedding model than the server's. */
export class EmbedderMismatch extends HippographError {}
/** An unexpected server error (details are in the server's log). */
export class Internal extends HippographError {}
/** No usable answer: the connection failed, or the reply was not a GraphQL response. */
export class TransportError extends HippographError {}

const BY_CODE: Record<string, new (...args: ConstructorParameters<typeof HippographError>) => HippographError> = {
  BAD_INPUT: BadInput,
  NOT_FOUND: NotFound,
  FORBIDDEN: Forbidden,
  RATE_LIMITED: RateLimited,
  UNAVAILABLE: Unavailable,
  IN_PROGRESS: InProgress,
  EMBEDDER_MISMATCH: EmbedderMismatch,
  INTERNAL: Internal,
};

/** The error for one GraphQL error (top-level or a mutation payload's). */
export function errorFrom(
  error: GraphQLErrorBody,
  details: { errors?: GraphQLErrorBody[]; data?: unknown; status?: number | null } = {},
): HippographError {
  const code = error.code ?? error.extensions?.code ?? "INTERNAL";
  const Kind = BY_CODE[code] ?? HippographError;
  return new Kind(error.message ?? code, code, {
    extensions: error.extensions ?? {},
    field: error.field ?? null,
    errors: details.errors ?? [error],
    data: details.data,
    status: details.status ?? null,
  });
}
