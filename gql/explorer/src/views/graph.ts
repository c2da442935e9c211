// The neighbourhood graph (Cytoscape.js): relation types as edge labels, node colour by entity
// type with a legend; clicking a node (or its button, for the keyboard) expands its neighbours.
import cytoscape from "cytoscape";
import { request } from "../api";
import { h } from "../dom";
import { NeighborhoodDocument, type NeighborhoodQuery } from "../generated/graphql";

const PALETTE = ["#2f6fb3", "#c2571a", "#2e8b57", "#8e44ad", "#b8860b", "#c0392b", "#16a085", "#555"];

export async function neighbourhood(
  parent: HTMLElement, agent: string, key: string, asOf: string | null, onOpen: (key: string) => void,
): Promise<void> {
  const box = h("div", { id: "graph", role: "img", "aria-label": `Neighbourhood graph of ${key}` });
  const legend = h("ul", { id: "legend", "aria-label": "Legend: entity types" });
  const expanders = h("div", { id: "expanders", "aria-label": "Expand a node" });
  const section = h("section", { "aria-labelledby": "graph-title" },
    h("h3", { id: "graph-title" }, "Neighbourhood (click a node to expand it, double-click to open it)"),
    box, legend, expanders);
  parent.append(section);  // Cytoscape measures its container: attach it first
  const colours = new Map<string, string>();
  const colour = (type: string): string => {
    if (!colours.has(type)) {
      colours.set(type, PALETTE[colours.size % PALETTE.length]!);
      legend.append(h("li", {}, h("span", { class: "swatch", style: `background:${colours.get(type)}` }), type));
    }
    return colours.get(type)!;
  };
  const cy = cytoscape({
    container: box,
    style: [
      { selector: "node", style: { label: "data(label)", "background-color": "data(colour)", "font-size": 11 } },
      { selector: "node.center", style: { "border-width": 3, "border-color": "#111" } },
      { selector: "edge", style: {
        label: "data(label)", "font-size": 9, "curve-style": "bezier", "target-arrow-shape": "triangle",
        "text-rotation": "autorotate", width: 1.5, "line-color": "#999", "target-arrow-color": "#999" } },
    ],
  });
  const expanded = new Set<string>();
  const add = (g: NeighborhoodQuery["neighborhood"]): void => {
    for (const n of g.nodes) {
      if (cy.getElementById(n.id).nonempty()) continue;
      const type = n.type ?? "entity";
      cy.add({ group: "nodes", data: { id: n.id, label: n.label, type, colour: colour(type) } });
      expanders.append(h("button", { type: "button", "data-node": n.id,
        onclick: () => void expand(n.id) }, `Expand ${n.label}`));
    }
    for (const e of g.edges) {
      if (cy.getElementById(e.id).empty()) {
        cy.add({ group: "edges", data: { id: e.id, source: e.source, target: e.target, label: e.label } });
      }
    }
    cy.layout({ name: "cose", animate: false }).run();
  };
  const expand = async (id: string): Promise<void> => {
    if (expanded.has(id)) return;
    expanded.add(id);
    const { neighborhood } = await request(NeighborhoodDocument, { agentId: agent, key: id, hops: 1, asOf });
    add(neighborhood);
    box.dataset.nodes = String(cy.nodes().length);
  };
  cy.on("tap", "node", (evt) => void expand(evt.target.id() as string));
  cy.on("dbltap", "node", (evt) => onOpen(evt.target.id() as string));
  await expand(key);
  cy.getElementById(key).addClass("center");
  (window as unknown as { explorerGraph: unknown }).explorerGraph = cy;  // tests read the graph
}
