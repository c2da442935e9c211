// Entity view: name, aliases, facts about it, current and past relations (as of a chosen
// instant), its neighbourhood graph and a link to its timeline. Without a key: a filterable list
// of the agent's entities.
import { request } from "../api";
import { badge, emptyState, h, isoOrNull, keyboardList, link, needsAgent, route, scrollRegion, when } from "../dom";
import { EntityListDocument, EntityViewDocument, type EntityViewQuery } from "../generated/graphql";
import { neighbourhood } from "./graph";

type Change = NonNullable<EntityViewQuery["entity"]>["history"][number];

/** An instant as the datetime-local value the routes carry (UTC, ms), 1 ms after `at` so the
 * change made at `at` (stored with microseconds) is included. */
function localAfter(at: string): string {
  return new Date(Date.parse(at) + 1).toISOString().slice(0, 23);
}

/** The asOf slider: one stop per instant at which the entity's facts or relations changed
 * (changes of one write share it), oldest first, and "now" last. Arrow keys move it; the view
 * follows on change. */
function asOfSlider(agent: string, key: string, history: Change[], asOfLocal: string): HTMLElement | null {
  const byInstant = new Map<string, Change[]>();
  for (const c of [...history].sort((a, b) => Date.parse(a.at) - Date.parse(b.at))) {
    byInstant.set(c.at, [...(byInstant.get(c.at) ?? []), c]);
  }
  const stops = [...byInstant.entries()];
  if (!stops.length) return null;
  const at = asOfLocal ? Date.parse(`${asOfLocal}Z`) : Infinity;
  let index = stops.length;  // "now"
  if (asOfLocal) {
    index = 0;
    stops.forEach(([t], i) => { if (Date.parse(t) < at) index = i; });
  }
  const label = (i: number): string => {
    if (i >= stops.length) return "now (current memory)";
    const [t, changes] = stops[i]!;
    const first = changes[0]!;
    const more = changes.length > 1 ? ` (+${changes.length - 1} more)` : "";
    return `${when(t)}: ${first.change.toLowerCase().replace("_", " ")} — ${first.text}${more}`;
  };
  const slider = h("input", { id: "asof-slider", type: "range", min: 0, max: stops.length, step: 1,
    value: index, "aria-valuetext": label(index) });
  const shown = h("output", { id: "asof-shown", for: "asof-slider", "aria-live": "polite" }, label(index));
  slider.addEventListener("input", () => {
    const i = Number(slider.value);
    shown.textContent = label(i);
    slider.setAttribute("aria-valuetext", label(i));
  });
  slider.addEventListener("change", () => {
    const i = Number(slider.value);
    const p: Record<string, string> = { agent, key };
    if (i < stops.length) p.asOf = localAfter(stops[i]![0]);
    location.hash = route("entity", p);
  });
  return h("div", { id: "asof-timeline", role: "group", "aria-labelledby": "asof-slider-label" },
    h("label", { for: "asof-slider", id: "asof-slider-label" },
      `Timeline (${history.length} change${history.length === 1 ? "" : "s"}): relations and facts as of`),
    h("div", {}, slider), shown,
    h("div", { id: "asof-ticks", "aria-hidden": "true" }, h("span", {}, when(stops[0]![0])), h("span", {}, "now")));
}

async function entityList(main: HTMLElement, agent: string, text: string): Promise<void> {
  const input = h("input", { id: "entity-filter", type: "search", value: text, placeholder: "a name or alias" });
  const form = h("form", { id: "entity-form", role: "search", "aria-label": "Find an entity" },
    h("div", { class: "field grow" }, h("label", { for: "entity-filter" }, "Find an entity"), input),
    h("button", { type: "submit", class: "primary" }, "Find"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    location.hash = route("entity", { agent, text: input.value });
  });
  const { entities } = await request(EntityListDocument, { agentId: agent, text: text || null });
  const title = h("h2", {}, "Entities", h("small", {}, ` ${agent} · ${entities.totalCount ?? "?"}`));
  if (!entities.edges.length) {
    main.replaceChildren(title, form, emptyState("entity-list", text ? `No entity matches “${text}”` : "No entity yet",
      text ? "Try another name or alias." : "Entities appear once messages or facts name them."));
    return;
  }
  const list = h("ul", { id: "entity-list", class: "cards", "aria-label": "Entities (arrow keys move between them)" },
    entities.edges.map(({ node: n }) => h("li", { class: "card" },
      h("div", { class: "card-head" },
        h("p", { class: "card-title" }, link(route("entity", { agent, key: n.key }), n.name ?? n.key)),
        h("span", { class: "card-row" }, n.type ? badge(n.type, "accent") : null, badge(`${n.mentions ?? 0} mentions`),
          link(route("timeline", { agent, key: n.key }), "Timeline", `Timeline of ${n.name ?? n.key}`))))));
  keyboardList(list, "li.card");
  main.replaceChildren(title, form, list);
}

export async function entityView(main: HTMLElement, params: URLSearchParams): Promise<void> {
  const agent = params.get("agent") ?? "";
  const key = params.get("key") ?? "";
  const asOfLocal = params.get("asOf") ?? "";
  if (!agent) return needsAgent(main);
  if (!key) return entityList(main, agent, params.get("text") ?? "");
  const asOf = isoOrNull(asOfLocal);
  const { entity: e } = await request(EntityViewDocument, { agentId: agent, key, asOf });
  if (!e) {
    main.replaceChildren(emptyState("no-entity", `No entity ${key} for ${agent}.`,
      h("span", {}, "It may have been merged or erased. ", link(route("entity", { agent }), "All entities"))));
    return;
  }
  const asOfIn = h("input", { id: "entity-asof", type: "datetime-local", step: "1", value: asOfLocal });
  const asOfForm = h("form", { id: "entity-asof-form", "aria-label": "Relations as of" },
    h("div", { class: "field" }, h("label", { for: "entity-asof" }, "Relations as of (UTC, empty: now)"), asOfIn),
    h("button", { type: "submit" }, "Show"));
  asOfForm.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const p: Record<string, string> = { agent, key };
    if (asOfIn.value) p.asOf = asOfIn.value;
    location.hash = route("entity", p);
  });
  const slider = asOfSlider(agent, key, e.history, asOfLocal);
  const rel = e.relationships.map((r) => h("tr", { class: r.active ? "active" : "past" },
    h("td", { "aria-label": r.direction === "OUTGOING" ? "outgoing" : "incoming" }, r.direction === "OUTGOING" ? "→" : "←"),
    h("td", {}, r.type),
    h("td", {}, link(route("entity", { agent, key: r.otherKey }), r.otherName ?? r.otherKey)),
    h("td", {}, when(r.validFrom)), h("td", {}, when(r.validTo)),
    h("td", {}, r.active ? badge("current", "ok") : badge("past"))));
  const facts = h("ul", { id: "entity-facts", class: "stack", "aria-label": "Facts (arrow keys move between them)" },
    e.facts.map((f) => h("li", { class: f.active ? "active" : "past" },
      link(route("fact", { agent, id: f.id }), f.text), h("span", { class: "meta" }, ` ${when(f.validFrom)} – ${when(f.validTo)}`))));
  keyboardList(facts, "li");
  const graph = h("div", { id: "graph-holder" });
  main.replaceChildren(
    h("h2", { id: "entity-name" }, e.name ?? e.key, h("small", {}, ` ${e.type ?? ""} · ${e.key}`)),
    h("p", { id: "aliases", class: "meta" }, "Aliases: ", e.aliases.join(", ") || "none"),
    h("div", { class: "actions" }, link(route("timeline", { agent, key }), "Timeline of its facts →")),
    ...(slider ? [h("div", { class: "panel" }, slider)] : []),
    graph,
    asOfForm,
    h("h3", {}, "Relations"),
    scrollRegion("Relations", h("table", { id: "relations" }, h("caption", {}, "Relations, current and past"),
      h("thead", {}, h("tr", { class: "head" }, ...["Direction", "Type", "Other end", "Valid from", "Valid to", "State"]
        .map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, rel.length ? rel : h("tr", {}, h("td", { colspan: 6 }, "none"))))),
    h("h3", {}, "Facts"),
    e.facts.length ? facts : emptyState("entity-facts", "No fact about it yet"),
  );
  await neighbourhood(graph, agent, key, asOf, (k) => {
    location.hash = route("entity", { agent, key: k });
  });
}
