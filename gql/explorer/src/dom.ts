// A tiny DOM builder — h("p", {class: "x"}, "text", child) — and the design system's pieces
// every view uses: badges, score meters, tables, empty/loading states, keyboard lists. No
// framework to ship.
type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | ((e: Event) => void) | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K, attrs: Attrs = {}, ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === "function") el.addEventListener(name.replace(/^on/, ""), value);
    else if (value === true) el.setAttribute(name, "");
    else el.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** A link to another view (hash route), e.g. link("#/entity?agent=demo&key=k", "Clara"). */
export function link(route: string, text: string, label?: string): HTMLAnchorElement {
  return h("a", { href: route, "aria-label": label }, text);
}

export function route(view: string, params: Record<string, string>): string {
  return `#/${view}?${new URLSearchParams(params).toString()}`;
}

export function fmt(value: number | null | undefined, digits = 3): string {
  return value === null || value === undefined ? "–" : value.toFixed(digits);
}

export function when(value: string | null | undefined): string {
  return value ? value.replace("T", " ").replace(/\.\d+/, "").replace("+00:00", "Z") : "–";
}

/** The day of an ISO instant (YYYY-MM-DD, UTC). */
export function day(value: string): string {
  return value.slice(0, 10);
}

/** The value of a datetime-local input as an ISO instant (UTC), or null when empty. */
export function isoOrNull(local: string): string | null {
  return local ? new Date(`${local}Z`).toISOString() : null;
}

export type Tone = "accent" | "ok" | "warn" | "danger" | undefined;

export function badge(text: string, tone?: Tone, label?: string): HTMLSpanElement {
  return h("span", { class: tone ? `badge ${tone}` : "badge", "aria-label": label }, text);
}

/** A score as a bar and its figure (0..1; clamped for the bar). */
export function meter(value: number, label: string): HTMLSpanElement {
  const pct = Math.max(0, Math.min(1, value)) * 100;
  return h("span", { class: "meter" },
    h("span", { class: "meter-track", role: "meter", "aria-label": label, "aria-valuemin": 0,
      "aria-valuemax": 1, "aria-valuenow": value.toFixed(3) },
      h("span", { class: "meter-fill", style: `width:${pct.toFixed(1)}%` })),
    h("span", { "aria-hidden": "true" }, value.toFixed(3)));
}

/** A captioned table with a header row; an empty body shows one "none" row. */
export function table(id: string, caption: string, cols: string[], rows: (string | Node)[][],
  numeric: number[] = []): HTMLElement {
  const cell = (i: number, c: string | Node): HTMLElement =>
    h("td", { class: numeric.includes(i) ? "num" : undefined }, c);
  return scrollRegion(caption, h("table", { id },
    h("caption", {}, caption),
    h("thead", {}, h("tr", { class: "head" }, ...cols.map((c, i) =>
      h("th", { scope: "col", class: numeric.includes(i) ? "num" : undefined }, c)))),
    h("tbody", {}, rows.length ? rows.map((r) => h("tr", {}, ...r.map((c, i) => cell(i, c))))
      : h("tr", {}, h("td", { colspan: cols.length }, "none")))));
}

/** A region that scrolls sideways on narrow screens: focusable, so the keyboard can scroll it. */
export function scrollRegion(label: string, child: HTMLElement): HTMLElement {
  return h("div", { class: "table-wrap", role: "region", "aria-label": label, tabindex: "0" }, child);
}

/** An empty state: what is missing and what to do about it. */
export function emptyState(id: string, title: string, detail?: string | Node): HTMLElement {
  return h("div", { class: "state empty", id, role: "status" }, h("strong", {}, title), detail ?? null);
}

/** The loading state a view shows until its data is there. */
export function loadingState(what = "Loading…"): HTMLElement {
  return h("div", { class: "loading", "aria-busy": "true", role: "status" },
    h("span", { class: "visually-hidden" }, what),
    h("div", { class: "skeleton", "aria-hidden": "true" }),
    h("div", { class: "skeleton", "aria-hidden": "true" }),
    h("div", { class: "skeleton", "aria-hidden": "true" }));
}

/** Arrow keys move the focus between the items of a list (roving tabindex: Tab enters the
 * list once, on its current item); Enter on an item opens its first link. */
export function keyboardList(container: HTMLElement, selector: string): void {
  const items = (): HTMLElement[] => [...container.querySelectorAll<HTMLElement>(selector)];
  items().forEach((el, i) => el.setAttribute("tabindex", i === 0 ? "0" : "-1"));
  container.addEventListener("keydown", (e) => {
    const all = items();
    const current = all.findIndex((el) => el === document.activeElement);
    if (current < 0) return;
    const next = e.key === "ArrowDown" ? current + 1 : e.key === "ArrowUp" ? current - 1
      : e.key === "Home" ? 0 : e.key === "End" ? all.length - 1 : -1;
    if (next >= 0 && next < all.length) {
      e.preventDefault();
      all[current]!.setAttribute("tabindex", "-1");
      all[next]!.setAttribute("tabindex", "0");
      all[next]!.focus();
    } else if (e.key === "Enter") {
      const a = all[current]!.querySelector<HTMLAnchorElement>("a[href]");
      if (a) { e.preventDefault(); a.click(); }
    }
  });
}

/** "Choose an agent first": the state of a view opened without one. */
export function needsAgent(main: HTMLElement): void {
  main.replaceChildren(emptyState("no-agent", "No agent chosen",
    h("span", {}, "Pick one in ", link("#/agents", "Agents"), " first.")));
}
