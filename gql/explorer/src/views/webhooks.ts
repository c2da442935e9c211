// Webhooks view (admin keys): the registered endpoints with their deliveries' counts, and the
// deliveries themselves by state — queued, due, in flight, delivered, dead-lettered — newest
// first. Registering and removing is the operator's CLI or GraphQL (`hippograph webhook add`).
import { request } from "../api";
import { badge, emptyState, h, link, route, table, when, type Tone } from "../dom";
import { ViewerDocument, WebhooksDocument, type WebhookDeliveryStatus } from "../generated/graphql";

const STATUSES: [WebhookDeliveryStatus | "", string][] = [
  ["", "All"], ["QUEUED", "Queued"], ["PENDING", "Due or retrying"], ["LEASED", "In flight"],
  ["DELIVERED", "Delivered"], ["DEAD", "Dead letters"],
];
const TONE: Record<string, Tone> = { DELIVERED: "ok", DEAD: "danger", PENDING: "warn", LEASED: "accent" };

function filter(current: string): HTMLElement {
  const select = h("select", { id: "delivery-status" },
    ...STATUSES.map(([value, label]) => h("option", { value, selected: value === current }, label)));
  const form = h("form", { id: "delivery-filter", "aria-label": "Deliveries by state" },
    h("div", { class: "field" }, h("label", { for: "delivery-status" }, "Deliveries"), select),
    h("button", { type: "submit" }, "Show"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    location.hash = select.value ? route("webhooks", { status: select.value }) : "#/webhooks";
  });
  return form;
}

export async function webhooksView(main: HTMLElement, params: URLSearchParams): Promise<void> {
  const { viewer } = await request(ViewerDocument, {});
  const title = h("h2", {}, "Webhooks");
  if (!viewer.admin) {
    main.replaceChildren(title, emptyState("webhooks-admin", "Webhooks need an admin key",
      "They are the operator's: enter an admin API key above (or run the explorer with auth off on loopback)."));
    return;
  }
  const wanted = (params.get("status") ?? "") as WebhookDeliveryStatus | "";
  const r = await request(WebhooksDocument, { status: wanted || null, limit: 100 });
  const hooks = r.webhooks.length
    ? table("webhooks", "Registered webhooks", ["Webhook", "For", "URL", "Events", "Pending", "Delivered", "Dead", "Since"],
      r.webhooks.map((w) => [h("code", {}, w.id), w.scope === "TENANT" ? `tenant ${w.tenant ?? ""}` : `agent ${w.agentId ?? ""}`,
        w.url, w.events.map((e) => e.toLowerCase().replace("_", ".")).join(", "), String(w.pending), String(w.delivered),
        String(w.dead), when(w.createdAt)]), [4, 5, 6])
    : emptyState("webhooks", "No webhook registered",
      h("span", {}, "Register one with ", h("code", {}, "hippograph webhook add URL --agent ID"), " (docs/webhooks.md)."));
  const deliveries = r.webhookDeliveries.length
    ? table("deliveries", "Deliveries, newest first", ["Event", "Agent", "State", "Attempts", "Answer", "Next attempt", "Queued"],
      r.webhookDeliveries.map((d) => [d.event ? d.event.toLowerCase().replace("_", ".") : "?",
        link(route("search", { agent: d.agentId }), d.agentId),
        badge((d.status ?? "?").toLowerCase(), TONE[d.status ?? ""]),
        `${d.attempts} / ${d.maxAttempts}`, d.lastStatusCode ? `HTTP ${d.lastStatusCode}` : d.lastError ?? "–",
        d.status === "DELIVERED" || d.status === "DEAD" ? "–" : when(d.nextAttemptAt), when(d.createdAt)]), [3])
    : emptyState("deliveries", wanted ? "No delivery in this state" : "No delivery yet");
  main.replaceChildren(title, h("p", { class: "meta" },
    "Memory events POSTed to operators' endpoints, signed, in order per agent; retried, then dead-lettered."),
    hooks, h("h3", {}, "Deliveries"), filter(wanted), deliveries);
}
