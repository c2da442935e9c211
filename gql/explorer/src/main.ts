// The memory explorer: hash-routed views over the GraphQL API (agents, search, entity, fact,
// live, review, ontology). Each view renders into <main>; errors (a refused scope, a bad key) are shown in place.
import "./style.css";
import { ApiError, apiKey, setApiKey } from "./api";
import { h } from "./dom";
import { agentsView } from "./views/agents";
import { entityView } from "./views/entity";
import { factView } from "./views/fact";
import { liveView } from "./views/live";
import { ontologyView } from "./views/ontology";
import { reviewView } from "./views/review";
import { searchView } from "./views/search";

type View = (main: HTMLElement, params: URLSearchParams) => Promise<void>;

const VIEWS: Record<string, View> = {
  agents: agentsView,
  search: searchView,
  entity: entityView,
  fact: factView,
  live: liveView,
  review: reviewView,
  ontology: ontologyView,
};

function keyForm(): HTMLElement {
  const input = h("input", {
    id: "api-key", type: "password", autocomplete: "off", placeholder: "hg_… (empty when auth is off)",
  });
  input.value = apiKey();
  const form = h("form", { id: "key-form", "aria-label": "API key" },
    h("label", { for: "api-key" }, "API key"), input,
    h("button", { type: "submit", id: "key-save" }, "Use key"));
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
  const hint = code === "FORBIDDEN" ? " This API key does not grant that agent or operation."
    : code === "UNAUTHENTICATED" ? " Enter a valid API key above." : "";
  main.replaceChildren(h("p", { class: "error", role: "alert", "data-code": code },
    `${code}: ${message}${hint}`));
}

async function render(): Promise<void> {
  const main = document.getElementById("view") as HTMLElement;
  const [path = "", query = ""] = location.hash.replace(/^#\/?/, "").split("?");
  const name = path in VIEWS ? path : "agents";
  const params = new URLSearchParams(query);
  document.querySelectorAll<HTMLAnchorElement>("nav a").forEach((a) => {
    a.toggleAttribute("aria-current", a.dataset.view === name);
    const agent = params.get("agent");
    if (agent && a.dataset.view !== "agents") a.href = `#/${a.dataset.view}?agent=${encodeURIComponent(agent)}`;
  });
  main.replaceChildren(h("p", { class: "loading", "aria-live": "polite" }, "Loading…"));
  main.dataset.view = name;
  main.removeAttribute("data-ready");
  main.removeAttribute("data-rendered-ms");
  try {
    await VIEWS[name]!(main, params);
  } catch (err) {
    showError(main, err);
  }
  main.dataset.renderedMs = performance.now().toFixed(0);  // since navigation start (bench)
  main.dataset.ready = "1";
}

function start(): void {
  const nav = h("nav", { "aria-label": "Views" },
    ...Object.keys(VIEWS).filter((v) => v !== "fact" && v !== "entity").map((v) =>
      h("a", { href: `#/${v}`, "data-view": v }, v[0]!.toUpperCase() + v.slice(1))));
  document.body.replaceChildren(
    h("header", {}, h("h1", {}, "Hippograph explorer"), nav, keyForm()),
    h("main", { id: "view", tabindex: "-1" }),
  );
  window.addEventListener("hashchange", () => void render());
  void render();
}

start();
