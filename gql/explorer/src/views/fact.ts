// Fact view: the fact's versions (oldest first) with their validity, what superseded what, the
// evidence (the messages it came from) and the relations that cascade from it; forget and, for
// an admin key, erase — each behind a confirmation step.
import { request } from "../api";
import { badge, emptyState, h, link, route, scrollRegion, when } from "../dom";
import { EraseFactDocument, FactViewDocument, ForgetDocument, type FactViewQuery } from "../generated/graphql";

type Version = FactViewQuery["factHistory"][number];

function confirmBox(id: string, question: string, extra: Node[], yes: string, onYes: () => Promise<void>): HTMLElement {
  const box = h("div", { id: `${id}-confirm`, class: "confirm", hidden: true, role: "alertdialog", "aria-labelledby": `${id}-q` },
    h("p", { id: `${id}-q` }, question), ...extra,
    h("div", { class: "actions" },
      h("button", { type: "button", class: "danger", id: `${id}-yes`, onclick: async () => { box.hidden = true; await onYes(); } }, yes),
      h("button", { type: "button", id: `${id}-no`, onclick: () => {
        box.hidden = true;
        document.getElementById(id)?.focus();
      } }, "Cancel")));
  return box;
}

function evidence(f: Version): HTMLElement {
  return h("section", { class: "panel", "aria-labelledby": "evidence-title" }, h("h3", { id: "evidence-title" }, "Evidence"),
    f.evidence.length
      ? h("ul", { id: "evidence" }, f.evidence.map((e) => h("li", { "data-event": e.id },
        h("blockquote", {}, e.text),
        h("p", { class: "meta" }, `${e.speaker ?? "someone"} · ${when(e.occurredAt)}`,
          e.threadId ? ` · thread ${e.threadId}` : "", e.source ? ` · ${e.source}` : ""))))
      : h("p", { id: "evidence", class: "state empty" }, "No stored message: the fact was imported or its message was erased."));
}

function cascades(agent: string, f: Version): HTMLElement {
  const ent = (key: string, name?: string | null): Node => link(route("entity", { agent, key }), name ?? key);
  return h("section", { class: "panel", "aria-labelledby": "cascades-title" },
    h("h3", { id: "cascades-title" }, "Relations that cascade from it"),
    h("p", { class: "meta" }, "Forgetting this fact ends those of them no other active fact supports."),
    f.cascades.length
      ? scrollRegion("Relations this fact is evidence for", h("table", { id: "cascades" }, h("caption", {}, "Relations this fact is evidence for"),
        h("thead", {}, h("tr", { class: "head" }, ...["Source", "Type", "Target", "Valid from", "Valid to", "State"].map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", {}, f.cascades.map((r) => h("tr", { class: r.active ? "active" : "past" },
          h("td", {}, ent(r.sourceKey, r.sourceName)), h("td", {}, r.type), h("td", {}, ent(r.targetKey, r.targetName)),
          h("td", {}, when(r.validFrom)), h("td", {}, when(r.validTo)), h("td", {}, r.active ? "current" : "past"))))))
      : h("p", { id: "cascades", class: "meta" }, "None: no relation rests on this fact."));
}

export async function factView(main: HTMLElement, params: URLSearchParams): Promise<void> {
  const agent = params.get("agent") ?? "";
  const id = params.get("id") ?? "";
  const { factHistory, viewer } = await request(FactViewDocument, { agentId: agent, id });
  if (!factHistory.length) {
    main.replaceChildren(emptyState("no-fact", `No fact ${id} for ${agent}.`, "It may have been erased."));
    return;
  }
  const supersededBy = new Map<string, string>();
  for (const f of factHistory) for (const old of f.supersedes) supersededBy.set(old, f.id);
  const items = factHistory.map((f) => h("li", { class: f.active ? "card active" : "card past", "data-fact": f.id },
    h("div", { class: "card-head" },
      h("p", { class: "card-title" }, f.id === id ? h("strong", {}, f.text) : link(route("fact", { agent, id: f.id }), f.text)),
      f.active ? badge("current", "ok") : f.invalidatedAt ? badge("forgotten", "warn") : badge("superseded")),
    h("p", { class: "meta" }, `valid ${when(f.validFrom)} – ${when(f.validTo)} · stored ${when(f.createdAt)}`,
      f.invalidatedAt ? ` · forgotten ${when(f.invalidatedAt)}` : "",
      f.speaker ? ` · said by ${f.speaker}` : "",
      supersededBy.has(f.id) ? [" · superseded by ", link(route("fact", { agent, id: supersededBy.get(f.id)! }), "a newer version")] : "",
      f.subjectKey ? [" · about ", link(route("entity", { agent, key: f.subjectKey }), f.subjectKey)] : "")));
  const current = factHistory.find((f) => f.id === id) ?? factHistory[factHistory.length - 1]!;
  const status = h("p", { id: "forget-status", class: "status", role: "status" });
  const reason = h("input", { id: "forget-reason", placeholder: "why (optional)" });
  const forgetBox = confirmBox("forget", "Forget this fact? It stays in the history as forgotten and stops being retrieved.",
    [h("div", { class: "field" }, h("label", { for: "forget-reason" }, "Reason"), reason)], "Yes, forget it", async () => {
      const { forget } = await request(ForgetDocument, { agentId: agent, factId: id, reason: reason.value || null });
      status.textContent = forget.errors.length ? `${forget.errors[0]!.code}: ${forget.errors[0]!.message}`
        : `Forgotten (${forget.invalidatedRelationships.length} relation(s) invalidated).`;
    });
  const forgetBtn = h("button", { type: "button", id: "forget", disabled: !current.active, "aria-controls": "forget-confirm",
    onclick: () => { forgetBox.hidden = false; reason.focus(); } }, "Forget…");
  // Erase needs an admin key: others see the button disabled and why.
  const eraseBox = confirmBox("erase",
    "Erase this fact for good? Its older versions, the messages it came from and what was derived from it are deleted; this cannot be undone.",
    [], "Yes, erase it for good", async () => {
      const { eraseFact: r } = await request(EraseFactDocument, { agentId: agent, factId: id });
      status.textContent = r.errors.length ? `${r.errors[0]!.code}: ${r.errors[0]!.message}`
        : `Erased (${r.summary?.facts ?? 0} fact version(s), ${r.summary?.events ?? 0} message(s), `
          + `${r.summary?.relationsDeleted ?? 0} relation(s) deleted).`;
      if (!r.errors.length) eraseBtn.disabled = forgetBtn.disabled = true;
    });
  const eraseBtn = h("button", { type: "button", id: "erase", class: "danger", disabled: !viewer.admin, "aria-controls": "erase-confirm",
    "aria-describedby": viewer.admin ? undefined : "erase-why",
    onclick: () => { eraseBox.hidden = false; (document.getElementById("erase-no") as HTMLElement).focus(); } }, "Erase…");
  const why = viewer.admin ? null
    : h("p", { id: "erase-why", class: "meta" }, "Erasing needs an admin API key; this key may forget but not erase.");
  main.replaceChildren(h("h2", {}, "Fact", h("small", {}, ` ${agent} · ${factHistory.length} version${factHistory.length === 1 ? "" : "s"}`)),
    h("ol", { id: "versions", class: "cards", "aria-label": "Versions, oldest first" }, items),
    evidence(current), cascades(agent, current),
    h("div", { class: "actions" }, forgetBtn, " ", eraseBtn), ...(why ? [why] : []), forgetBox, eraseBox, status);
}
