// A tiny DOM builder: h("p", {class: "x"}, "text", child) — no framework to ship.
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

/** The value of a datetime-local input as an ISO instant (UTC), or null when empty. */
export function isoOrNull(local: string): string | null {
  return local ? new Date(`${local}Z`).toISOString() : null;
}
