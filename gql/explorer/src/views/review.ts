// Review view: open merge candidates, background jobs and the audit trail of writes.
import { request } from "../api";
import { badge, fmt, h, link, needsAgent, route, table, when } from "../dom";
import { ResolveMergeDocument, ReviewDocument } from "../generated/graphql";

export async function reviewView(main: HTMLElement, params: URLSearchParams): Promise<void> {
  const agent = params.get("agent") ?? "";
  if (!agent) return needsAgent(main);
  const r = await request(ReviewDocument, { agentId: agent });
  const ent = (key: string, name?: string | null): Node => link(route("entity", { agent, key }), name ?? key);
  const status = h("p", { id: "review-status", class: "status", role: "status" });
  const decide = (id: string, keep: string, drop: string, accept: boolean): HTMLButtonElement =>
    h("button", { type: "button", class: accept ? "small primary" : "small", "data-merge": id, "data-accept": String(accept),
      "aria-label": `${accept ? "Accept" : "Reject"} merging ${drop} into ${keep}`,
      onclick: async () => {
        if (!window.confirm(accept ? `Merge ${drop} into ${keep}? Its facts and relations move to ${keep}.`
          : `Reject merging ${drop} into ${keep}?`)) return;
        const { resolveMergeCandidate: r } = await request(ResolveMergeDocument, { agentId: agent, id, accept });
        const said = r.errors.length ? `${r.errors[0]!.code}: ${r.errors[0]!.message}` : `Candidate ${r.status ?? ""}.`;
        if (!r.errors.length) await reviewView(main, params);
        document.getElementById("review-status")!.textContent = said;
      } }, accept ? "Accept" : "Reject");
  main.replaceChildren(h("h2", {}, "Review", h("small", {}, ` ${agent}`)), status,
    table("merges", "Merge candidates", ["Keep", "Drop", "Confidence", "Reason", "Status", "Decide"],
      r.mergeCandidates.map((m) => [ent(m.keepKey, m.keepName), ent(m.dropKey, m.dropName), fmt(m.confidence, 2),
        m.reason ?? "", m.status ?? "", m.status === "OPEN"
          ? h("span", {}, decide(m.id, m.keepKey, m.dropKey, true), " ", decide(m.id, m.keepKey, m.dropKey, false)) : ""])),
    table("jobs", "Jobs", ["Kind", "Status", "Progress", "Created", "Last error"],
      r.jobs.map((j) => [j.kind ?? "", badge((j.status ?? "").toLowerCase(), j.status === "DEAD" ? "danger" : j.status === "DONE" ? "ok" : undefined),
        fmt(j.progress, 2), when(j.createdAt), j.lastError ?? ""])),
    table("audit", "Audit trail", ["When", "Action", "Mode", "Applied", "Reason", "Fact"],
      r.auditLog.map((a) => [when(a.createdAt), a.action ?? "", a.mode ?? "", String(a.applied ?? ""), a.reason ?? "",
        a.factId ? link(route("fact", { agent, id: a.factId }), "open") : ""])));
}
