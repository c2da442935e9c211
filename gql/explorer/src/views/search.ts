// Search view: `retrieve` as the agent calls it — a card per ranked fact (its text, a score bar,
// validity, the signals that found it, the hop path), its score breakdown folded away (with each
// feature's contribution when the learned ranker scored it), and the context block exactly as
// the agent receives it.
import { request } from "../api";
import { badge, emptyState, fmt, h, isoOrNull, keyboardList, link, meter, route, when } from "../dom";
import { SearchDocument, type SearchQuery, type SearchQueryVariables } from "../generated/graphql";

type Fact = SearchQuery["retrieve"]["facts"][number];
type Scores = Fact["scores"];
type Explanation = NonNullable<Scores["explanation"]>;

/** "Clara Rezende -works_at-> Vertix": the entities and relations the graph walked. */
function hopPath(agent: string, f: Fact): HTMLElement | null {
  if (!f.hopPath) return null;
  if (!f.hopPath.length) return h("p", { class: "meta hop-path" }, `${f.hops} hop(s), not from an entity named in the query`);
  const parts: (Node | string)[] = [];
  for (const step of f.hopPath) {
    if (step.via) parts.push(step.forward ? ` −${step.via}→ ` : ` ←${step.via}− `);
    parts.push(link(route("entity", { agent, key: step.key }), step.name ?? step.key));
  }
  return h("p", { class: "meta hop-path" }, "path: ", ...parts);
}

/** Each feature's push on the learned score, largest first, as bars left (down) or right (up). */
function contributions(e: Explanation): HTMLElement {
  const top = Math.max(1e-9, ...e.contributions.map((c) => Math.abs(c.contribution)));
  const rows = e.contributions.slice(0, 12).flatMap((c) => {
    const width = `${((Math.abs(c.contribution) / top) * 50).toFixed(1)}%`;
    return [
      h("span", { "data-feature": c.feature }, c.feature, h("span", { class: "muted" }, ` = ${fmt(c.value, 2)}`)),
      h("span", { class: "contrib-bar", "aria-hidden": "true" },
        h("span", { class: c.contribution >= 0 ? "pos" : "neg", style: `width:${width}` })),
      h("span", { class: "num" }, `${c.contribution >= 0 ? "+" : "−"}${fmt(Math.abs(c.contribution), 3)}`),
    ];
  });
  return h("div", { class: "explanation" },
    h("p", { class: "meta" }, `Learned ranker ${e.model} v${e.version}: raw ${fmt(e.raw)} = bias ${fmt(e.bias)} + the contributions below.`),
    h("div", { class: "contrib" }, ...rows));
}

function breakdown(f: Fact, rank: number): HTMLElement {
  const s: Scores = f.scores;
  const parts: [string, number | null | undefined][] = [
    ["semantic", s.semantic], ["keyword", s.keyword], ["graph", s.graph], ["recency", s.recency],
    ["importance", s.importance], ["reranker", s.reranker],
    ["formula", s.formula], ["final", s.final],
  ];
  return h("details", { class: "breakdown" },
    h("summary", {}, `Score breakdown${s.explanation ? " and feature contributions" : ""}`),
    h("table", { class: "scores" },
      h("caption", { class: "visually-hidden" }, `Score breakdown of result ${rank}`),
      h("thead", {}, h("tr", {}, ...parts.map(([n]) => h("th", { scope: "col", class: "num" }, n)))),
      h("tbody", {}, h("tr", {}, ...parts.map(([n, v]) => h("td", { "data-score": n, class: "num" }, fmt(v)))))),
    s.ranker ? h("p", { class: "meta" }, `Ordered by the ${s.ranker === "LEARNED" ? "learned ranker" : "weighted formula"}.`) : null,
    s.explanation ? contributions(s.explanation) : null);
}

function factCard(agent: string, f: Fact, rank: number): HTMLElement {
  const sources = f.sources.length ? f.sources.map((x) => badge(x, "accent")) : [badge("–")];
  return h("li", { class: "card fact", "data-fact": f.id, "data-final": f.scores.final.toFixed(6) },
    h("div", { class: "card-head" },
      h("span", { class: "rank", "aria-hidden": "true" }, `${rank}.`),
      h("p", { class: "card-title" }, link(route("fact", { agent, id: f.id }), f.text, `Fact ${rank}: ${f.text}`)),
      meter(f.scores.final, `Score of result ${rank}`)),
    h("div", { class: "card-row" },
      h("span", { class: "meta" }, "sources "), ...sources,
      f.kind ? badge(f.kind.toLowerCase()) : null,
      f.tier ? badge(`${f.tier.toLowerCase()} tier`, f.tier === "HOT" ? "ok" : undefined) : null,
      f.hops !== null && f.hops !== undefined ? badge(`${f.hops} hop${f.hops === 1 ? "" : "s"}`) : null),
    h("p", { class: "meta validity" }, `valid since ${when(f.validFrom ?? f.createdAt)} · confidence ${fmt(f.confidence, 2)}`,
      f.subjectKey ? [" · about ", link(route("entity", { agent, key: f.subjectKey }), f.subjectKey)] : ""),
    hopPath(agent, f),
    breakdown(f, rank));
}

async function retrieve(variables: SearchQueryVariables): Promise<SearchQuery> {
  return request(SearchDocument, variables);
}

function searchForm(agent: string, q: string, asOf: string): HTMLFormElement {
  const agentIn = h("input", { id: "search-agent", required: true, value: agent, autocomplete: "off" });
  const queryIn = h("input", { id: "search-query", type: "search", required: true, value: q,
    placeholder: "What the agent is about to answer" });
  const asOfIn = h("input", { id: "search-asof", type: "datetime-local", step: "1", value: asOf });
  const form = h("form", { id: "search-form", role: "search", "aria-label": "Retrieve" },
    h("div", { class: "field" }, h("label", { for: "search-agent" }, "Agent"), agentIn),
    h("div", { class: "field grow" }, h("label", { for: "search-query" }, "Query"), queryIn),
    h("div", { class: "field" }, h("label", { for: "search-asof" }, "As of (UTC, empty: now)"), asOfIn),
    h("button", { type: "submit", class: "primary" }, "Retrieve"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const p: Record<string, string> = { agent: agentIn.value.trim(), q: queryIn.value };
    if (asOfIn.value) p.asOf = asOfIn.value;
    location.hash = route("search", p);
  });
  return form;
}

export async function searchView(main: HTMLElement, params: URLSearchParams): Promise<void> {
  const agent = params.get("agent") ?? "";
  const q = params.get("q") ?? "";
  const asOf = params.get("asOf") ?? "";
  const form = searchForm(agent, q, asOf);
  const title = h("h2", {}, "Search", agent ? h("small", {}, ` ${agent}`) : null);
  if (!agent || !q) {
    main.replaceChildren(title, form, emptyState("search-empty", "Ask what the agent is about to answer",
      "The facts retrieve ranks for it appear here, with why each was chosen."));
    (agent ? form.querySelector<HTMLElement>("#search-query") : form.querySelector<HTMLElement>("#search-agent"))?.focus();
    return;
  }
  const { retrieve: r } = await retrieve({ agentId: agent, query: q, asOf: isoOrNull(asOf) });
  const list = h("ol", { id: "results", class: "cards", "aria-label": "Retrieved facts, best first (arrow keys move between them)" },
    r.facts.map((f, i) => factCard(agent, f, i + 1)));
  keyboardList(list, "li.card");
  main.replaceChildren(title, form,
    h("p", { class: "meta", id: "plan", role: "status" }, `${r.facts.length} facts chosen from ${r.totalCandidates} candidates in `,
      `${fmt(r.durationMs, 0)} ms · strategy ${r.plan.strategy}: ${r.plan.reason}`),
    r.facts.length ? list : emptyState("results", "No fact matched.", "Try other words, or a later “as of”."),
    h("h3", {}, `Context block `, h("small", {}, `${r.contextTokens} tokens, as the agent receives it`)),
    h("pre", { id: "context", tabindex: "0", "aria-label": "Context block" }, r.context));
}
