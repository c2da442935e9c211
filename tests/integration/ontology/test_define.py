"""Defining an ontology on a real Neo4j: versions per agent and tenant, dry runs, typed
refusals, admin only, the check of what is stored, and the CLI that does the same."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gql.permissions import Principal
from graph.executor import Executor
from graph.memory.facade import Memory
from server.cli import app as cli
from tests.integration.gql.support import gql

pytestmark = pytest.mark.neo4j

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "docs" / "examples" / "support-ontology.yaml"
DOCUMENT = EXAMPLE.read_text(encoding="utf-8")

SHOW = """query($a: ID!) { ontology(agentId: $a) {
  name version scope strict entityTypes { name parent aliases }
  relationTypes { name source target singleValued supersedes inverse aliases } } }"""
DEFINE = """mutation($a: ID!, $d: String, $dry: Boolean! = false) {
  defineOntology(agentId: $a, document: $d, dryRun: $dry) {
    version changed changes agentsCounted ontology { name version scope }
    findings { kind type count detail examples } errors { code message } } }"""
DEFINE_TENANT = """mutation($t: String!, $d: String) {
  defineTenantOntology(tenant: $t, document: $d) { version changed errors { code message } } }"""
CLAIM = "MERGE (o:AgentTenant {agent_id: $agent_id}) SET o.tenant = $tenant"


async def _show(services: Memory, agent_id: str) -> dict[str, Any]:
    result = await gql(services, SHOW, {"a": agent_id})
    assert result.errors is None, result.errors
    return result.data["ontology"]


async def _define(services: Memory, agent_id: str, document: str | None, **kw: Any) -> Any:
    result = await gql(services, DEFINE, {"a": agent_id, "d": document, **kw})
    assert result.errors is None, result.errors
    return result.data["defineOntology"]


async def test_a_new_agent_has_the_open_builtin_ontology(services: Memory, agent_id: str) -> None:
    shown = await _show(services, agent_id)
    assert (shown["name"], shown["version"], shown["scope"], shown["strict"]) == (
        "built-in", 0, "builtin", False,
    )  # fmt: skip
    lives_in = next(r for r in shown["relationTypes"] if r["name"] == "lives_in")
    assert lives_in["singleValued"] and lives_in["supersedes"]


async def test_a_dry_run_says_what_changes_and_stores_nothing(
    services: Memory, agent_id: str
) -> None:
    dry = await _define(services, agent_id, DOCUMENT, dry=True)
    assert dry["errors"] == [] and not dry["changed"] and dry["version"] == 1
    assert "+ relation type owns" in dry["changes"] and "- relation type lives_in" in dry["changes"]
    assert (await _show(services, agent_id))["version"] == 0


async def test_defining_makes_versions_and_the_same_document_makes_none(
    services: Memory, agent_id: str
) -> None:
    first = await _define(services, agent_id, DOCUMENT)
    assert first["errors"] == [] and first["changed"] and first["version"] == 1
    assert first["ontology"] == {"name": "customer-support", "version": 1, "scope": "agent"}
    again = await _define(services, agent_id, DOCUMENT)
    assert not again["changed"] and again["version"] == 1
    shown = await _show(services, agent_id)
    customer = next(t for t in shown["entityTypes"] if t["name"] == "customer")
    assert customer == {
        "name": "customer",
        "parent": "person",
        "aliases": ["client", "buyer", "user"],
    }
    owns = next(r for r in shown["relationTypes"] if r["name"] == "owns")
    assert owns["inverse"] == "owned_by" and owns["source"] == ["customer"]
    changed = await _define(services, agent_id, DOCUMENT.replace("strict", "#") + "strict: false\n")
    assert changed["changed"] and changed["version"] == 2
    reset = await _define(services, agent_id, None)
    assert reset["changed"] and reset["version"] == 3
    assert (await _show(services, agent_id))["scope"] == "builtin"


async def test_a_bad_document_is_refused_with_its_problems_and_stores_nothing(
    services: Memory, agent_id: str
) -> None:
    bad = await _define(services, agent_id, "name: x\nrelation_types: [{name: r, source: nobody}]")
    assert bad["errors"][0]["code"] == "BAD_INPUT" and bad["version"] == 0
    assert "source type 'nobody' is not declared" in bad["errors"][0]["message"]
    hostile = await _define(
        services, agent_id, 'name: "x\'}) DETACH DELETE n //"\nentity_types: ["\\udce9"]'
    )
    assert hostile["errors"][0]["code"] == "BAD_INPUT"
    assert (await _show(services, agent_id))["version"] == 0


async def test_only_admin_keys_define_ontologies(
    services: Memory, agent_id: str, tenant: str
) -> None:
    reader = Principal(tenant=tenant, agents=frozenset({agent_id}))
    refused = await gql(services, DEFINE, {"a": agent_id, "d": DOCUMENT}, principal=reader)
    assert refused.errors and refused.errors[0].extensions["code"] == "FORBIDDEN"
    refused = await gql(services, DEFINE_TENANT, {"t": tenant, "d": DOCUMENT}, principal=reader)
    assert refused.errors and refused.errors[0].extensions["code"] == "FORBIDDEN"


async def test_an_agent_inherits_its_tenants_ontology_and_its_own_wins(
    services: Memory, executor: Executor, agent_id: str, tenant: str
) -> None:
    await executor.run_text(CLAIM, {"agent_id": agent_id, "tenant": tenant})
    defined = (await gql(services, DEFINE_TENANT, {"t": tenant, "d": DOCUMENT})).data
    assert defined["defineTenantOntology"]["version"] == 1
    shown = await _show(services, agent_id)
    assert (shown["name"], shown["scope"]) == ("customer-support", "tenant")
    own = DOCUMENT.replace("name: customer-support", "name: desk-only", 1)
    await _define(services, agent_id, own)
    assert (await _show(services, agent_id))["name"] == "desk-only"
    back = await _define(services, agent_id, None)
    assert back["ontology"]["scope"] == "tenant" and back["changes"] != []


async def test_the_check_lists_what_is_stored_outside_the_ontology_and_keeps_it(
    services: Memory, agent_id: str, story: dict[str, str]
) -> None:
    facts = "query($a: ID!) { facts(agentId: $a, first: 50) { edges { node { id } } } }"
    before = (await gql(services, facts, {"a": agent_id})).data["facts"]["edges"]
    applied = await _define(services, agent_id, DOCUMENT)
    found = {(f["kind"], f["type"]): f for f in applied["findings"]}
    assert ("relation_type", "works_at") in found and ("entity_type", "organization") in found
    assert found[("relation_type", "works_at")]["examples"]  # the relationships' ids
    assert applied["agentsCounted"] == 1
    after = (await gql(services, facts, {"a": agent_id})).data["facts"]["edges"]
    assert after == before and len(after) > 0


async def test_erasing_an_agent_removes_its_ontology_versions(
    services: Memory, executor: Executor, agent_id: str
) -> None:
    await _define(services, agent_id, DOCUMENT)
    erase = """mutation($a: ID!, $c: String!) {
      eraseAgent(agentId: $a, confirmAgentId: $c) { errors { code } } }"""
    assert (await gql(services, erase, {"a": agent_id, "c": agent_id})).data["eraseAgent"][
        "errors"
    ] == []
    left = await executor.run_text(
        "MATCH (o:Ontology {scope: 'agent', scope_id: $a}) RETURN count(o) AS n", {"a": agent_id}
    )
    assert left[0]["n"] == 0


def test_the_cli_checks_applies_shows_and_resets(agent_id: str, tmp_path: Path) -> None:
    runner = CliRunner()
    checked = runner.invoke(cli, ["ontology", "check", str(EXAMPLE), "--agent", agent_id])
    assert checked.exit_code == 0, checked.output
    assert "+ relation type owns" in checked.output and "would not fit: none" in checked.output
    applied = runner.invoke(cli, ["ontology", "apply", str(EXAMPLE), "--agent", agent_id])
    assert applied.exit_code == 0 and "is version 1 of agent" in applied.output, applied.output
    shown = runner.invoke(cli, ["ontology", "show", "--agent", agent_id, "--json"])
    assert shown.exit_code == 0 and '"name": "customer-support"' in shown.output
    history = runner.invoke(cli, ["ontology", "show", "--agent", agent_id, "--history"])
    assert "customer-support  cli" in history.output
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nentity_types: [{name: a, parent: b}]\n", encoding="utf-8")
    refused = runner.invoke(cli, ["ontology", "apply", str(bad), "--agent", agent_id])
    assert refused.exit_code != 0 and "parent 'b' is not declared" in refused.output
    both = runner.invoke(cli, ["ontology", "show", "--agent", agent_id, "--tenant", "t"])
    assert both.exit_code != 0 and "exactly one of --agent or --tenant" in both.output
    reset = runner.invoke(cli, ["ontology", "reset", "--agent", agent_id])
    assert reset.exit_code == 0 and "reset: version 2" in reset.output, reset.output
