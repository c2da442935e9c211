// Search view: `retrieve` as the agent calls it — ranked facts with their score breakdown and
// the signals that found them, and the context block exactly as the agent receives it.
import { request } from "../api";
import { fmt, h, isoOrNull, link, route } from "../dom";
import { SearchDocument, type SearchQuery } from "../generated/graphql";

type Fact = SearchQuery["retrieve"]["facts"][number];

/** "Clara Rezende -works_at-> Vertix": the entities and relations the graph walked. */
function hopPath(agent: string, f: Fact): HTMLElement | null {
  if (!f.hopPath) return null;
  if (!f.hopPath.length) return h("p", { class: "meta hop-path" }, `${f.hops} hop(s), not from an entity named in the query`);
  const parts: (Node | string)[] = [];
  for (const step of f.hopPath) {
    if (step.via) parts.push(step.forward ? ` −${step.via}→ ` : ` ←${step.via}− `);
    parts.push(link(route("entity", { agent, key: step.key }), step.name ?? step.key));
  }
  return h("p", { class: "meta hop-path", "aria-label": `Hop path of ${f.hops} hop(s)` }, "path: ", ...parts);
}

function factCard(agent: string, f: Fact, rank: number): HTMLElement {
  const s = f.scores;
  const parts: [string, number | null | undefined][] = [
    ["semantic", s.semantic], ["keyword", s.keyword], ["graph", s.graph], ["recency", s.recency],
    ["importance", s.importance], ["reranker", s.reranker], ["final", s.final],
  ];
  return h("li", { class: "fact", "data-fact": f.id },
    h("p", {}, link(route("fact", { agent, id: f.id }), f.text, `Fact ${rank}: ${f.text}`)),
    h("p", { class: "meta" }, `score ${fmt(f.score)} · tier ${f.tier ?? "–"} · `,
      `sources ${f.sources.join(", ") || "–"}`, f.hops !== null && f.hops !== undefined ? ` · ${f.hops} hop(s)` : "",
      f.subjectKey ? [" · about ", link(route("entity", { agent, key: f.subjectKey }), f.subjectKey)] : ""),
    hopPath(agent, f),
    h("table", { class: "scores" },
      h("caption", {}, `Score breakdown of result ${rank}`),
      h("tr", {}, ...parts.map(([n]) => h("th", { scope: "col" }, n))),
      h("tr", {}, ...parts.map(([n, v]) => h("td", { "data-score": n }, fmt(v))))));
}

export async function searchView(main: HTMLElement, params: URLSearchParams): Promise<void> {
  const agent = params.get("agent") ?? "";
  const q = params.get("q") ?? "";
  const asOf = params.get("asOf") ?? "";
  const agentIn = h("input", { id: "search-agent", required: true, value: agent });
  const queryIn = h("input", { id: "search-query", type: "search", required: true, value: q,
    placeholder: "What the agent is about to answer" });
  const asOfIn = h("input", { id: "search-asof", type: "datetime-local", step: "1", value: asOf });
  const form = h("form", { id: "search-form", role: "search" },
    h("label", { for: "search-agent" }, "Agent"), agentIn,
    h("label", { for: "search-query" }, "Query"), queryIn,
    h("label", { for: "search-asof" }, "As of (UTC, empty: now)"), asOfIn,
    h("button", { type: "submit" }, "Retrieve"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const p: Record<string, string> = { agent: agentIn.value.trim(), q: queryIn.value };
    if (asOfIn.value) p.asOf = asOfIn.value;
    location.hash = route("search", p);
  });
  main.replaceChildren(h("h2", {}, "Search"), form);
  if (!agent || !q) {
    (agent ? queryIn : agentIn).focus();
    return;
  }
  const { retrieve: r } = await request(SearchDocument, { agentId: agent, query: q, asOf: isoOrNull(asOf) });
  main.append(
    h("p", { class: "meta", id: "plan" }, `${r.facts.length} facts chosen from ${r.totalCandidates} candidates in `,
      `${fmt(r.durationMs, 0)} ms · strategy ${r.plan.strategy}: ${r.plan.reason}`),
    r.facts.length ? h("ol", { id: "results" }, r.facts.map((f, i) => factCard(agent, f, i + 1)))
      : h("p", { class: "empty", id: "results" }, "No fact matched."),
    h("h3", {}, `Context block (${r.contextTokens} tokens) as the agent receives it`),
    h("pre", { id: "context", tabindex: "0" }, r.context));
}
