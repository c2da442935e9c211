// Light and dark themes: the system's choice (prefers-color-scheme) until the person picks one
// with the header's toggle, kept in localStorage for this site only.
import { h } from "./dom";

const STORE = "hippograph.theme";
type Theme = "light" | "dark";

function systemTheme(): Theme {
  return window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

export function currentTheme(): Theme {
  const chosen = localStorage.getItem(STORE);
  return chosen === "dark" || chosen === "light" ? chosen : systemTheme();
}

export function applyTheme(): void {
  const chosen = localStorage.getItem(STORE);
  if (chosen === "dark" || chosen === "light") document.documentElement.dataset.theme = chosen;
  else delete document.documentElement.dataset.theme;
}

/** The toggle button "Dark theme", pressed while the dark theme is on. */
export function themeToggle(): HTMLButtonElement {
  const button = h("button", { type: "button", id: "theme-toggle", class: "icon" });
  const label = (): void => {
    const dark = currentTheme() === "dark";
    button.setAttribute("aria-pressed", String(dark));
    button.setAttribute("aria-label", "Dark theme");
    button.title = dark ? "Dark theme (on)" : "Dark theme (off)";
    button.replaceChildren(h("span", { "aria-hidden": "true" }, dark ? "☾" : "☀"));
  };
  button.addEventListener("click", () => {
    localStorage.setItem(STORE, currentTheme() === "dark" ? "light" : "dark");
    applyTheme();
    label();
  });
  label();
  return button;
}
