// Fact view: the fact's versions (oldest first) with their validity, what superseded what, and
// forget with a confirmation step.
import { request } from "../api";
import { h, link, route, when } from "../dom";
import { FactViewDocument, ForgetDocument } from "../generated/graphql";

export async function factView(main: HTMLElement, params: URLSearchParams): Promise<void> {
  const agent = params.get("agent") ?? "";
  const id = params.get("id") ?? "";
  const { factHistory } = await request(FactViewDocument, { agentId: agent, id });
  if (!factHistory.length) {
    main.replaceChildren(h("p", { class: "empty" }, `No fact ${id} for ${agent}.`));
    return;
  }
  const supersededBy = new Map<string, string>();
  for (const f of factHistory) for (const old of f.supersedes) supersededBy.set(old, f.id);
  const items = factHistory.map((f) => h("li", { class: f.active ? "active" : "past", "data-fact": f.id },
    h("p", {}, f.id === id ? h("strong", {}, f.text) : link(route("fact", { agent, id: f.id }), f.text)),
    h("p", { class: "meta" }, `valid ${when(f.validFrom)} – ${when(f.validTo)} · stored ${when(f.createdAt)}`,
      f.invalidatedAt ? ` · forgotten ${when(f.invalidatedAt)}` : "",
      f.speaker ? ` · said by ${f.speaker}` : "",
      supersededBy.has(f.id) ? [" · superseded by ", link(route("fact", { agent, id: supersededBy.get(f.id)! }), "a newer version")] : "",
      f.subjectKey ? [" · about ", link(route("entity", { agent, key: f.subjectKey }), f.subjectKey)] : "")));
  const current = factHistory.find((f) => f.id === id);
  const status = h("p", { id: "forget-status", role: "status" });
  const reason = h("input", { id: "forget-reason", placeholder: "why (optional)" });
  const confirm = h("div", { id: "forget-confirm", hidden: true, role: "alertdialog", "aria-labelledby": "forget-q" },
    h("p", { id: "forget-q" }, "Forget this fact? It stays in the history as forgotten and stops being retrieved."),
    h("label", { for: "forget-reason" }, "Reason"), reason,
    h("button", { type: "button", id: "forget-yes", onclick: async () => {
      const { forget } = await request(ForgetDocument, { agentId: agent, factId: id, reason: reason.value || null });
      status.textContent = forget.errors.length ? `${forget.errors[0]!.code}: ${forget.errors[0]!.message}`
        : `Forgotten (${forget.invalidatedRelationships.length} relation(s) invalidated).`;
      confirm.hidden = true;
    } }, "Yes, forget it"),
    h("button", { type: "button", id: "forget-no", onclick: () => { confirm.hidden = true; } }, "Cancel"));
  const forgetBtn = h("button", { type: "button", id: "forget", disabled: !current?.active,
    onclick: () => { confirm.hidden = false; reason.focus(); } }, "Forget…");
  main.replaceChildren(h("h2", {}, "Fact"), h("ol", { id: "versions", "aria-label": "Versions, oldest first" }, items),
    forgetBtn, confirm, status);
}
