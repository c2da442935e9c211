// Agents view: the agents this key may read, a page at a time (server-side: agentPage), found
// by a part of their id, with the size of each memory and where to go from there.
import { request } from "../api";
import { emptyState, h, keyboardList, link, route, scrollRegion } from "../dom";
import { AgentPageDocument } from "../generated/graphql";

const PAGE = 25;

function pageRoute(q: string, after: string[]): string {
  const p: Record<string, string> = {};
  if (q) p.q = q;
  if (after.length) p.after = after.join(",");
  return route("agents", p);
}

export async function agentsView(main: HTMLElement, params: URLSearchParams): Promise<void> {
  const q = params.get("q") ?? "";
  // The cursors of the pages before this one (the last is this page's `after`).
  const trail = (params.get("after") ?? "").split(",").filter(Boolean);
  const { agentPage: page, viewer } = await request(AgentPageDocument,
    { search: q || null, first: PAGE, after: trail[trail.length - 1] ?? null });
  const input = h("input", { id: "agent-search", type: "search", value: q, placeholder: "part of an agent id",
    "aria-describedby": "agent-count" });
  const form = h("form", { id: "agent-form", role: "search", "aria-label": "Find agents" },
    h("div", { class: "field grow" }, h("label", { for: "agent-search" }, "Find an agent"), input),
    h("button", { type: "submit", class: "primary" }, "Find"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    location.hash = pageRoute(input.value.trim(), []);
  });
  const first = trail.length * PAGE + 1;
  const count = page.totalCount
    ? `${first}–${first + page.items.length - 1} of ${page.totalCount} agent${page.totalCount === 1 ? "" : "s"}`
    : "no agent";
  const scope = viewer.admin ? "every agent (admin key or the local operator)"
    : viewer.allAgents ? "every agent of this key's tenant" : "the agents this key names";
  const head = [h("h2", {}, "Agents"), h("p", { class: "meta" }, `Showing ${scope}.`), form,
    h("p", { id: "agent-count", class: "meta", role: "status" }, count)];
  if (!page.items.length) {
    main.replaceChildren(...head, q ? emptyState("agents-empty", `No agent matches “${q}”`, "Try another part of its id.")
      : emptyState("agents-empty", "This key may not read any agent yet.", "Write or remember something first, or use another key."));
    return;
  }
  const rows = page.items.map((a) => h("tr", { "data-agent": a.agentId },
    h("th", { scope: "row" }, a.agentId),
    h("td", { class: "num" }, a.facts), h("td", { class: "num" }, a.entities),
    h("td", { class: "num opt" }, a.relations), h("td", { class: "num opt" }, a.events),
    h("td", {}, h("span", { class: "actions" },
      link(route("search", { agent: a.agentId }), "Search", `Search ${a.agentId}`),
      link(route("entity", { agent: a.agentId }), "Entities", `Entities of ${a.agentId}`),
      link(route("live", { agent: a.agentId }), "Live", `Live changes of ${a.agentId}`),
      link(route("review", { agent: a.agentId }), "Review", `Review ${a.agentId}`)))));
  const body = h("tbody", {}, rows);
  const tableEl = scrollRegion("Agents", h("table", { id: "agents" },
    h("caption", {}, "Agents and the size of their memory"),
    h("thead", {}, h("tr", {}, ...["Agent", "Facts", "Entities", "Relations", "Events", "Open"]
      .map((c, i) => h("th", { scope: "col", class: i > 2 && i < 5 ? "num opt" : i > 0 && i < 5 ? "num" : undefined }, c)))),
    body));
  keyboardList(body, "tr");
  const prev = trail.length ? link(pageRoute(q, trail.slice(0, -1)), "← Previous page") : null;
  const next = page.hasNextPage && page.endCursor
    ? link(pageRoute(q, [...trail, page.endCursor]), "Next page →") : null;
  prev?.setAttribute("id", "agents-prev");
  next?.setAttribute("id", "agents-next");
  main.replaceChildren(...head, tableEl,
    h("nav", { class: "pager", "aria-label": "Agent pages" }, h("span", {}, prev ?? ""), h("span", {}, next ?? "")));
}
