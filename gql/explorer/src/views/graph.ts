// The neighbourhood graph (Cytoscape.js): relation types as edge labels, node colour by entity
// type with a legend; clicking a node (or its button, for the keyboard) expands its neighbours,
// double-clicking opens it. Labels sit on a background of the page's surface colour, so an edge
// crossing one does not garble it, and after every layout a placement pass keeps them apart:
// node labels first (best connected first), then edge labels, each tried at a few offsets and,
// where none is free, hidden until its element is hovered or selected.
import cytoscape from "cytoscape";
import { request } from "../api";
import { h } from "../dom";
import { NeighborhoodDocument, type NeighborhoodQuery } from "../generated/graphql";

const PALETTE = ["#2f6fb3", "#c2571a", "#2e8b57", "#8e44ad", "#b8860b", "#c0392b", "#16a085", "#6b7785"];
const NODE_OFFSETS = [0, 10, -44, 22];
const EDGE_OFFSETS = [0, -11, 11, -22, 22];

type Box = { x1: number; y1: number; x2: number; y2: number };

function overlaps(a: Box, b: Box): boolean {
  return a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;
}

function labelBox(el: cytoscape.SingularElementArgument): Box {
  return el.boundingBox({ includeNodes: false, includeEdges: false, includeLabels: true,
    includeMainLabels: true, includeSourceLabels: false, includeTargetLabels: false, includeOverlays: false });
}

/** The label's box at the first offset where it meets none of ``taken`` (null: none is free). */
function place(el: cytoscape.SingularElementArgument, offsets: number[], taken: Box[]): Box | null {
  for (const dy of offsets) {
    el.style("text-margin-y", el.isNode() ? 4 + dy : dy);
    const bb = labelBox(el);
    if (bb.x2 > bb.x1 && !taken.some((t) => overlaps(t, bb))) return bb;
  }
  return null;
}

/** Keep labels from colliding with each other and with other nodes (see module comment). */
export function placeLabels(cy: cytoscape.Core): void {
  cy.elements().removeClass("label-hidden");
  const bodies = cy.nodes().map((n) => ({ id: n.id(), box: n.boundingBox({ includeLabels: false, includeOverlays: false }) as Box }));
  const labels: Box[] = [];
  cy.nodes().sort((a, b) => b.degree(false) - a.degree(false)).forEach((n) => {
    const bb = place(n, NODE_OFFSETS, labels.concat(bodies.filter((b) => b.id !== n.id()).map((b) => b.box)));
    if (bb) labels.push(bb);
    else n.addClass("label-hidden");
  });
  const obstacles = bodies.map((b) => b.box);
  cy.edges().forEach((e) => {
    const bb = place(e, EDGE_OFFSETS, labels.concat(obstacles));
    if (bb) labels.push(bb);
    else e.addClass("label-hidden");
  });
}

function themeColours(): Record<string, string> {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string): string => css.getPropertyValue(name).trim() || "#888";
  return { surface: v("--surface"), text: v("--text"), muted: v("--text-muted"), line: v("--border"), focus: v("--focus") };
}

function graphStyle(): cytoscape.StylesheetStyle[] {
  const c = themeColours();
  const label = { color: c.text, "text-background-color": c.surface, "text-background-opacity": 0.92,
    "text-background-padding": "2px", "text-background-shape": "roundrectangle" } as const;
  return [
    { selector: "node", style: { label: "data(label)", "background-color": "data(colour)", width: 22, height: 22,
      "font-size": 11, "text-valign": "bottom", "text-halign": "center", "text-margin-y": 4,
      "text-wrap": "ellipsis", "text-max-width": "120px", ...label } },
    { selector: "node.center", style: { "border-width": 3, "border-color": c.text, width: 28, height: 28 } },
    { selector: "edge", style: { label: "data(label)", "font-size": 9, "curve-style": "bezier",
      "target-arrow-shape": "triangle", "text-rotation": "autorotate", width: 1.5, "line-color": c.muted,
      "target-arrow-color": c.muted, ...label, color: c.muted } },
    { selector: ".label-hidden", style: { "text-opacity": 0, "text-background-opacity": 0 } },
    { selector: ".label-hidden.hover, .label-hidden:selected", style: { "text-opacity": 1, "text-background-opacity": 0.92 } },
  ];
}

export async function neighbourhood(
  parent: HTMLElement, agent: string, key: string, asOf: string | null, onOpen: (key: string) => void,
): Promise<void> {
  const box = h("div", { id: "graph", role: "img", "aria-label": `Neighbourhood graph of ${key}` });
  const legend = h("ul", { id: "legend", "aria-label": "Legend: entity types" });
  const expanders = h("div", { id: "expanders", role: "group", "aria-label": "Expand a node" });
  const section = h("section", { class: "panel", "aria-labelledby": "graph-title" },
    h("h3", { id: "graph-title" }, "Neighbourhood ", h("small", {}, "click a node to expand it, double-click to open it")),
    box, legend, h("p", { class: "meta", id: "expanders-help" }, "Expand a node with the keyboard:"), expanders);
  parent.append(section);  // Cytoscape measures its container: attach it first
  const colours = new Map<string, string>();
  const colour = (type: string): string => {
    if (!colours.has(type)) {
      colours.set(type, PALETTE[colours.size % PALETTE.length]!);
      legend.append(h("li", {}, h("span", { class: "swatch", style: `background:${colours.get(type)}` }), type));
    }
    return colours.get(type)!;
  };
  const cy = cytoscape({ container: box, style: graphStyle(), wheelSensitivity: 0.2 });
  cy.on("mouseover", "node, edge", (evt) => evt.target.addClass("hover"));
  cy.on("mouseout", "node, edge", (evt) => evt.target.removeClass("hover"));
  const expanded = new Set<string>();
  const add = (g: NeighborhoodQuery["neighborhood"]): void => {
    for (const n of g.nodes) {
      if (cy.getElementById(n.id).nonempty()) continue;
      const type = n.type ?? "entity";
      cy.add({ group: "nodes", data: { id: n.id, label: n.label, type, colour: colour(type) } });
      expanders.append(h("button", { type: "button", class: "small", "data-node": n.id,
        onclick: () => void expand(n.id) }, `Expand ${n.label}`));
    }
    for (const e of g.edges) {
      if (cy.getElementById(e.id).empty()) {
        cy.add({ group: "edges", data: { id: e.id, source: e.source, target: e.target, label: e.label } });
      }
    }
    const layout = cy.layout({ name: "cose", animate: false, nodeDimensionsIncludeLabels: true,
      idealEdgeLength: () => 110, nodeRepulsion: () => 12000, padding: 24 } as cytoscape.LayoutOptions);
    layout.one("layoutstop", () => placeLabels(cy));
    layout.run();
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
  placeLabels(cy);
  // Tests read the graph and the boxes of the labels shown.
  const w = window as unknown as { explorerGraph: unknown; explorerLabelBoxes: () => Box[] };
  w.explorerGraph = cy;
  w.explorerLabelBoxes = () => cy.elements().filter((el) => !el.hasClass("label-hidden") && Boolean(el.data("label")))
    .map((el) => labelBox(el));
}
