// Timeline view: an entity's facts over time (valid time: when each became true), superseded,
// retracted and forgotten versions included, grouped by day, oldest first; each links to the
// fact and its version chain. Its relations can be shown beside them.
import { request } from "../api";
import { badge, day, emptyState, h, keyboardList, link, needsAgent, route, when } from "../dom";
import { EntityTimelineDocument, type EntityTimelineQuery } from "../generated/graphql";

type Entity = NonNullable<EntityTimelineQuery["entity"]>;
type Fact = Entity["facts"][number];
type Relation = Entity["relationships"][number];
type Entry = { at: string; node: HTMLElement };

function factEntry(agent: string, f: Fact, successor: Fact | undefined): Entry {
  // Closed without a newer version: retracted (a message contradicted it) or forgotten.
  const state = f.active ? "current" : successor ? "superseded" : f.invalidatedAt ? "retracted" : "ended";
  const tone = f.active ? "ok" : state === "superseded" ? "warn" : undefined;
  const until = f.validTo ?? f.invalidatedAt;
  const node = h("li", { class: f.active ? "began" : "ended", "data-state": state, "data-fact": f.id },
    h("div", { class: "card-row" }, badge("fact"), badge(state, tone),
      h("span", { class: "meta" }, f.active ? `since ${when(f.validFrom ?? f.createdAt)}` : `${when(f.validFrom ?? f.createdAt)} – ${when(until)}`)),
    h("p", { class: f.active ? "entry" : "entry past" }, link(route("fact", { agent, id: f.id }), f.text)),
    successor ? h("p", { class: "meta" }, "superseded by ", link(route("fact", { agent, id: successor.id }), successor.text)) : null);
  return { at: f.validFrom ?? f.createdAt ?? "", node };
}

function relationEntry(agent: string, r: Relation): Entry {
  const arrow = r.direction === "OUTGOING" ? `${r.type} →` : `← ${r.type}`;
  const node = h("li", { class: r.active ? "began" : "ended", "data-state": r.active ? "current" : "ended", "data-relation": r.id ?? "" },
    h("div", { class: "card-row" }, badge("relation"), badge(r.active ? "current" : "ended", r.active ? "ok" : undefined),
      h("span", { class: "meta" }, r.active ? `since ${when(r.validFrom)}` : `${when(r.validFrom)} – ${when(r.validTo)}`)),
    h("p", { class: r.active ? "entry" : "entry past" }, `${arrow} `, link(route("entity", { agent, key: r.otherKey }), r.otherName ?? r.otherKey)));
  return { at: r.validFrom ?? "", node };
}

function entries(agent: string, e: Entity, relations: boolean): Entry[] {
  const byId = new Map(e.facts.map((f) => [f.id, f]));
  const successor = new Map<string, Fact>();
  for (const f of e.facts) for (const old of f.supersedes) if (byId.has(old)) successor.set(old, f);
  const all = e.facts.map((f) => factEntry(agent, f, successor.get(f.id)));
  if (relations) all.push(...e.relationships.map((r) => relationEntry(agent, r)));
  return all.sort((a, b) => Date.parse(a.at || "1970") - Date.parse(b.at || "1970"));
}

export async function timelineView(main: HTMLElement, params: URLSearchParams): Promise<void> {
  const agent = params.get("agent") ?? "";
  const key = params.get("key") ?? "";
  if (!agent) return needsAgent(main);
  if (!key) {
    main.replaceChildren(emptyState("no-key", "No entity chosen",
      h("span", {}, "Open one from ", link(route("entity", { agent }), "Entities"), ".")));
    return;
  }
  const relations = params.get("relations") === "1";
  const { entity: e } = await request(EntityTimelineDocument, { agentId: agent, key });
  if (!e) {
    main.replaceChildren(emptyState("no-entity", `No entity ${key} for ${agent}.`));
    return;
  }
  const toggle = h("input", { type: "checkbox", id: "timeline-relations", checked: relations });
  toggle.addEventListener("change", () => {
    const p: Record<string, string> = { agent, key };
    if (toggle.checked) p.relations = "1";
    location.hash = route("timeline", p);
  });
  const current = e.facts.filter((f) => f.active).length;
  const versions = e.facts.length - current;
  const head = [
    h("h2", { id: "timeline-title" }, `Timeline of ${e.name ?? e.key}`, h("small", {}, ` ${e.type ?? ""} · ${e.key}`)),
    h("p", { class: "meta", id: "timeline-summary" },
      `${current} current fact${current === 1 ? "" : "s"}, ${versions} superseded, retracted or forgotten version${versions === 1 ? "" : "s"}, by when each became true · `,
      link(route("entity", { agent, key }), "entity page")),
    h("p", { class: "check" }, toggle, h("label", { for: "timeline-relations", class: "inline" }, "Show its relations too")),
  ];
  const items = entries(agent, e, relations);
  if (!items.length) {
    main.replaceChildren(...head, emptyState("timeline", "Nothing is known about it yet"));
    return;
  }
  const list = h("ol", { id: "timeline", class: "timeline", "aria-labelledby": "timeline-title" });
  let shown = "";
  for (const item of items) {
    const d = item.at ? day(item.at) : "undated";
    if (d !== shown) {
      shown = d;
      list.append(h("li", { class: "day" }, h("h3", { class: "day-title" }, d)));
    }
    list.append(item.node);
  }
  keyboardList(list, "li[data-state]");
  main.replaceChildren(...head, list);
}
