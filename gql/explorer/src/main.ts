// The memory explorer: hash-routed views over the GraphQL API (agents, search, entities with
// their graph and timeline, facts, live changes, review, ontology, webhooks). Each view renders
// into <main> after a loading state; errors (a refused scope, a bad key, an outage) are shown in
// place with a way to try again. Keyboard: Tab order follows the page, "/" focuses the view's
// search field, Escape closes an open confirmation, arrow keys move within lists.
import "./style.css";
import { ApiError, apiKey, setApiKey } from "./api";
import { h, loadingState } from "./dom";
import { applyTheme, themeToggle } from "./theme";
import { agentsView } from "./views/agents";
import { entityView } from "./views/entity";
import { factView } from "./views/fact";
import { liveView } from "./views/live";
import { ontologyView } from "./views/ontology";
import { reviewView } from "./views/review";
import { searchView } from "./views/search";
import { timelineView } from "./views/timeline";
import { webhooksView } from "./views/webhooks";

type View = (main: HTMLElement, params: URLSearchParams) => Promise<void>;

const VIEWS: Record<string, View> = {
  agents: agentsView,
  search: searchView,
  entity: entityView,
  timeline: timelineView,
  fact: factView,
  live: liveView,
  review: reviewView,
  ontology: ontologyView,
  webhooks: webhooksView,
};
// The views the navigation offers (the others are reached from them).
const NAV: [string, string][] = [
  ["agents", "Agents"], ["search", "Search"], ["entity", "Entities"], ["live", "Live"],
  ["review", "Review"], ["ontology", "Ontology"], ["webhooks", "Webhooks"],
];
const TITLES: Record<string, string> = { timeline: "Timeline", fact: "Fact" };

function keyForm(): HTMLElement {
  const input = h("input", {
    id: "api-key", type: "password", autocomplete: "off", placeholder: "API key (hg_…)",
    title: "An API key; leave it empty when auth is off",
  });
  input.value = apiKey();
  const form = h("form", { id: "key-form", "aria-label": "API key" },
    h("label", { for: "api-key", class: "visually-hidden" }, "API key"), input,
    h("button", { type: "submit", id: "key-save", class: "small" }, "Use key"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    setApiKey(input.value.trim());
    location.hash = "#/agents";
    void render();
  });
  return form;
}

export function showError(main: HTMLElement, err: unknown): void {
  const code = err instanceof ApiError ? err.code : "ERROR";
  const message = err instanceof Error ? err.message : String(err);
  const hint = code === "FORBIDDEN" ? "This API key does not grant that agent or operation."
    : code === "UNAUTHENTICATED" ? "Enter a valid API key above."
      : code === "UNAVAILABLE" || code.startsWith("HTTP_") ? "The service or its database is not reachable right now."
        : "";
  const retry = h("button", { type: "button", id: "retry", class: "small", onclick: () => void render() }, "Try again");
  main.replaceChildren(h("div", { class: "error", role: "alert", "data-code": code },
    `${code}: ${message}`, hint ? h("span", { class: "hint" }, hint) : null,
    h("div", { class: "actions" }, retry)));
}

function markNav(name: string, params: URLSearchParams): void {
  const agent = params.get("agent");
  document.querySelectorAll<HTMLAnchorElement>("nav.views a").forEach((a) => {
    const here = a.dataset.view === name || (name === "timeline" && a.dataset.view === "entity")
      || (name === "fact" && a.dataset.view === "search");
    a.toggleAttribute("aria-current", here);
    if (here) a.setAttribute("aria-current", "page");
    const view = a.dataset.view ?? "";
    a.href = agent && view !== "agents" && view !== "webhooks" ? `#/${view}?agent=${encodeURIComponent(agent)}` : `#/${view}`;
  });
}

async function render(): Promise<void> {
  const main = document.getElementById("view") as HTMLElement;
  const [path = "", query = ""] = location.hash.replace(/^#\/?/, "").split("?");
  const name = path in VIEWS ? path : "agents";
  const params = new URLSearchParams(query);
  markNav(name, params);
  const label = NAV.find(([v]) => v === name)?.[1] ?? TITLES[name] ?? name;
  document.title = `${label} · Hippograph explorer`;
  main.replaceChildren(loadingState(`Loading ${label.toLowerCase()}…`));
  main.dataset.view = name;
  main.setAttribute("aria-busy", "true");
  main.removeAttribute("data-ready");
  main.removeAttribute("data-rendered-ms");
  try {
    await VIEWS[name]!(main, params);
  } catch (err) {
    showError(main, err);
  }
  main.removeAttribute("aria-busy");
  main.dataset.renderedMs = performance.now().toFixed(0);  // since navigation start (bench)
  main.dataset.ready = "1";
}

function onKey(e: KeyboardEvent): void {
  const target = e.target as HTMLElement | null;
  const typing = target?.closest("input, textarea, select, [contenteditable]");
  if (e.key === "Escape") {
    const open = document.querySelector<HTMLElement>(".confirm:not([hidden])");
    if (open) {
      e.preventDefault();
      open.hidden = true;
      document.querySelector<HTMLElement>(`[aria-controls="${open.id}"]`)?.focus();
    }
  } else if (e.key === "/" && !typing) {
    const field = document.querySelector<HTMLInputElement>("#view input[type=search]");
    if (field) { e.preventDefault(); field.focus(); }
  }
}

function start(): void {
  applyTheme();
  const nav = h("nav", { class: "views", "aria-label": "Views" },
    ...NAV.map(([v, text]) => h("a", { href: `#/${v}`, "data-view": v }, text)));
  const skip = h("a", { class: "skip", href: "#/", onclick: (e: Event) => {
    e.preventDefault();
    document.getElementById("view")?.focus();
  } }, "Skip to content");
  document.body.replaceChildren(
    skip,
    h("header", { class: "top" }, h("div", { class: "top-inner" },
      h("h1", { class: "brand" }, h("span", { class: "brand-mark", "aria-hidden": "true" }), "Hippograph"),
      nav, h("div", { class: "top-tools" }, keyForm(), themeToggle()))),
    h("main", { id: "view", tabindex: "-1" }),
  );
  window.addEventListener("hashchange", () => void render());
  document.addEventListener("keydown", onKey);
  void render();
}

start();
