// Ontology view: the entity and relation types the agent's memory is made of (its own
// ontology, its tenant's, or the open built-in one), what each means, and how they connect.
import { request } from "../api";
import { h, needsAgent, table } from "../dom";
import { OntologyViewDocument } from "../generated/graphql";

const names = (list: string[]): string => (list.length ? list.join(", ") : "any");

export async function ontologyView(main: HTMLElement, params: URLSearchParams): Promise<void> {
  const agent = params.get("agent") ?? "";
  if (!agent) return needsAgent(main);
  const { ontology: o } = await request(OntologyViewDocument, { agentId: agent });
  const kind = o.scope === "builtin" ? "the open built-in ontology: extracted types are kept as they come"
    : `the ${o.scope}'s ontology, version ${o.version}: undeclared types are ${o.strict ? "mapped or dropped" : "kept"}`;
  main.replaceChildren(
    h("h2", {}, "Ontology", h("small", {}, ` ${agent}`)),
    h("p", { id: "ontology-summary", class: "panel" }, h("strong", {}, o.name), ` — ${kind}.`),
    h("p", { id: "ontology-description" }, o.description),
    table("entity-types", "Entity types", ["Type", "Kind of", "Meaning", "Also called", "Same entity when"],
      o.entityTypes.map((t) => [h("code", {}, t.name), t.parent ?? "thing", t.description, t.aliases.join(", "),
        t.identifier ? "the same name (an identifier)" : "the same or a similar name"])),
    table("relation-types", "Relation types", ["Type", "From", "To", "Values", "Read back as", "Meaning", "Also called"],
      o.relationTypes.map((r) => [h("code", {}, r.name), names(r.source), names(r.target),
        r.singleValued ? (r.supersedes ? "one (a new one replaces it)" : "one (the first stays)") : "many",
        r.inverse ?? "", r.description, r.aliases.join(", ")])));
}
