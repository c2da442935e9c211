// Live view: the agent's newest facts, kept current without reloading — facts written through
// any API process appear as they are stored; updated, retracted and forgotten ones leave the
// list; a change log below says what happened (never the text of a forgotten or erased fact).
import { request } from "../api";
import { watchChanges, type Change, type WatchState } from "../changes";
import { h, link, needsAgent, route, when } from "../dom";
import { RecentFactsDocument } from "../generated/graphql";

const SHOWN = 30;
const LOGGED = 50;
const STATES: Record<WatchState, string> = {
  connecting: "Connecting…",
  live: "Live: new facts appear here as they are stored.",
  retrying: "Connection lost; reconnecting (nothing will be missed)…",
  refused: "Live updates refused",
};

function factItem(agent: string, id: string, text: string, at: string | null | undefined): HTMLElement {
  return h("li", { class: "fact", "data-fact": id },
    link(route("fact", { agent, id }), text), h("span", { class: "meta" }, ` · ${when(at)}`));
}

async function loadFacts(agent: string, list: HTMLElement): Promise<void> {
  const { facts } = await request(RecentFactsDocument, { agentId: agent, first: SHOWN });
  list.replaceChildren(...facts.edges.map(({ node: f }) => factItem(agent, f.id, f.text, f.validFrom)));
}

function apply(agent: string, change: Change, list: HTMLElement, log: HTMLElement): void {
  const item = (id: string | null | undefined): Element | null =>
    id ? list.querySelector(`[data-fact="${CSS.escape(id)}"]`) : null;
  if ((change.kind === "FACT_ADDED" || change.kind === "FACT_UPDATED") && change.factId && !item(change.factId)) {
    list.prepend(factItem(agent, change.factId, change.text ?? "(text not shown)", change.at));
    while (list.children.length > SHOWN) list.lastElementChild!.remove();
  }
  if (change.kind === "FACT_UPDATED") item(change.previousFactId)?.remove();
  if (change.kind === "FACT_INVALIDATED" || change.kind === "FACT_FORGOTTEN") item(change.factId)?.remove();
  if (change.kind === "ERASED") void loadFacts(agent, list);
  const what = change.kind === "ENTITY_MERGED" ? `${change.mergedEntityKey ?? "an entity"} → ${change.entityKey ?? ""}`
    : change.kind === "ERASED" ? `${change.scope ?? ""} erased` : change.text ?? change.factId ?? "";
  log.prepend(h("li", { "data-kind": change.kind }, h("span", { class: "meta" }, `${when(change.at)} · `),
    h("strong", {}, change.kind.replace("_", " ").toLowerCase()), ` ${what}`));
  while (log.children.length > LOGGED) log.lastElementChild!.remove();
}

export async function liveView(main: HTMLElement, params: URLSearchParams): Promise<void> {
  const agent = params.get("agent") ?? "";
  if (!agent) return needsAgent(main);
  const status = h("p", { id: "live-status", class: "status", role: "status", "data-state": "connecting" }, STATES.connecting);
  const list = h("ol", { id: "live-facts", class: "stack", "aria-label": `Newest facts of ${agent}` });
  const log = h("ol", { id: "live-changes", class: "stack", "aria-label": "Changes seen on this page" });
  main.replaceChildren(h("h2", {}, "Live", h("small", {}, ` ${agent}`)), status, h("div", { class: "panel" }, list),
    h("h3", {}, "Changes"), h("div", { class: "panel" }, log));
  // Subscribe first, then list: a fact stored in between arrives as a change (deduplicated).
  const stop = watchChanges(agent, (change) => apply(agent, change, list, log), (state, detail) => {
    status.dataset.state = state;
    status.textContent = detail ? `${STATES[state]}: ${detail}` : STATES[state];
  });
  window.addEventListener("hashchange", stop, { once: true });
  await loadFacts(agent, list);
}
