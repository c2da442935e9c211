// Live changes of an agent's memory: the memoryChanged subscription over graphql-transport-ws
// (graphql-ws) on this server's /graphql, the tab's API key sent in connection_init. A dropped
// connection is resumed from the last change's cursor, so nothing is missed; a change sent
// again on resume (same id) is dropped here.
import { createClient, type Client } from "graphql-ws";
import { apiKey } from "./api";
import { MemoryChangedDocument, type MemoryChangedSubscription } from "./generated/graphql";

export type Change = MemoryChangedSubscription["memoryChanged"];
export type WatchState = "connecting" | "live" | "retrying" | "refused";

const RETRY_MS = 2000;

function socketUrl(): string {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/graphql`;
}

/** Watch `agentId`'s changes until the returned function is called. `onState` hears whether
 * the stream is live; `refused` (a bad key, another tenant's agent) ends it with the message. */
export function watchChanges(
  agentId: string,
  onChange: (change: Change) => void,
  onState: (state: WatchState, detail?: string) => void,
): () => void {
  let stopped = false;
  let since: string | null = null;
  let unsubscribe: (() => void) | null = null;
  let retry: number | undefined;
  const seen = new Set<string>();
  const client: Client = createClient({
    url: socketUrl(),
    lazy: true,
    retryAttempts: 0,  // resumed below with `since`, not replayed from the start
    keepAlive: 20_000,  // a ping every 20 s keeps proxies from closing a quiet socket
    connectionParams: () => (apiKey() ? { Authorization: `Bearer ${apiKey()}` } : {}),
    on: { connected: () => onState("live") },
  });
  const again = (): void => {
    if (stopped) return;
    onState("retrying");
    retry = window.setTimeout(run, RETRY_MS);
  };
  function run(): void {
    onState("connecting");
    unsubscribe = client.subscribe<MemoryChangedSubscription>(
      { query: MemoryChangedDocument.toString(), variables: { agentId, since } },
      {
        next: (result) => {
          const change = result.data?.memoryChanged;
          if (result.errors?.length) {
            const e = result.errors[0]!;
            onState("refused", `${String(e.extensions?.code ?? "ERROR")}: ${e.message}`);
            stopped = true;
            return;
          }
          if (!change) return;
          since = change.cursor;
          if (seen.has(change.id)) return;
          seen.add(change.id);
          onChange(change);
        },
        error: (err: unknown) => {
          if (Array.isArray(err)) {  // GraphQL errors: refused for good (key, tenant, input)
            const e = err[0] as { message?: string; extensions?: { code?: string } } | undefined;
            onState("refused", `${e?.extensions?.code ?? "ERROR"}: ${e?.message ?? ""}`);
            stopped = true;
          } else if (err instanceof CloseEvent && err.code >= 4400 && err.code < 4500 && err.code !== 4429) {
            onState("refused", err.reason || `closed (${err.code})`);
            stopped = true;
          } else {
            again();
          }
        },
        complete: again,
      },
    );
  }
  run();
  return () => {
    stopped = true;
    window.clearTimeout(retry);
    unsubscribe?.();
    void client.dispose();
  };
}
