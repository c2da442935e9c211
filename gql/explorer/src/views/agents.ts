// Agents view: the agents this key may read, with the size of each memory.
import { request } from "../api";
import { h, link, route } from "../dom";
import { AgentsDocument } from "../generated/graphql";

export async function agentsView(main: HTMLElement): Promise<void> {
  const { agents } = await request(AgentsDocument, {});
  if (!agents.length) {
    main.replaceChildren(h("p", { class: "empty" }, "This key may not read any agent yet."));
    return;
  }
  const rows = agents.map((a) => h("tr", { "data-agent": a.agentId },
    h("th", { scope: "row" }, a.agentId),
    h("td", {}, a.facts), h("td", {}, a.entities), h("td", {}, a.relations), h("td", {}, a.events),
    h("td", {}, link(route("search", { agent: a.agentId }), "Search", `Search ${a.agentId}`), " ",
      link(route("live", { agent: a.agentId }), "Live", `Live changes of ${a.agentId}`), " ",
      link(route("review", { agent: a.agentId }), "Review", `Review ${a.agentId}`))));
  main.replaceChildren(h("h2", {}, "Agents"), h("table", { id: "agents" },
    h("caption", {}, "Agents this API key may read"),
    h("thead", {}, h("tr", {}, ...["Agent", "Facts", "Entities", "Relations", "Events", "Open"]
      .map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, rows)));
}
