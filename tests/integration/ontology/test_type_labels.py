"""Entity type labels on a real Neo4j: an entity whose type the ontology in force declares
carries it as a label (Browser colours by label). Written entities get it under the built-in
and an operator's ontology, applying an ontology relabels what is stored, an import keeps the
labels right (a changed type moves its label), the served style colours the types of the
ontologies a key may see (none stored without one), and a type named like one of the product's
own labels is refused."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from graph.errors import BadInput
from graph.executor import Executor
from graph.memory.ontology import OntologyError, parse_ontology, parse_ontology_text
from graph.memory.ontology.label_names import type_label
from graph.memory.ontology.service import define_ontology
from graph.memory.ontology.store import apply_ontology
from graph.memory.transfer import export_agent, import_agent
from graph.providers import Embedder
from graph.schema import ONCE_BACKFILLS
from server.auth import ApiKeyStore
from server.browser_guide import browser_guide_routes, type_colours
from server.settings import Settings
from tests.cypher import load_query
from tests.integration.gql.support import gql, load_story, memory_for

pytestmark = pytest.mark.neo4j

SUPPORT = """
name: labelled-support
entity_types:
  - {name: person}
  - {name: customer, parent: person, aliases: [client]}
  - {name: product, aliases: [headset, device]}
  - {name: support_ticket, aliases: [ticket], identifier: true}
relation_types:
  - {name: owns, source: customer, target: product, aliases: [bought]}
  - {name: reported, source: customer, target: support_ticket, aliases: [opened]}
"""
ADMIN_KEY = "admin-" + "k" * 32
WRITE = """mutation($a: ID!, $m: String!) { write(agentId: $a, speakerName: "Maria Souza",
  message: $m) { outcome { success } errors { code message } } }"""


async def _labels(executor: Executor, agent_id: str) -> dict[str, set[str]]:
    rows = await executor.run_text(
        "MATCH (e:Entity {agent_id: $a}) RETURN e.key AS key, labels(e) AS labels",
        {"a": agent_id},
    )
    return {r["key"]: set(r["labels"]) - {"Entity"} for r in rows}


async def _write(memory: Any, agent_id: str, message: str) -> None:
    res = await gql(memory, WRITE, {"a": agent_id, "m": message})
    assert res.errors is None and res.data["write"]["errors"] == [], res


def test_a_label_is_the_type_in_pascal_case() -> None:
    assert type_label("support_ticket") == "SupportTicket"
    assert type_label("person") == "Person"


async def test_written_entities_carry_the_operators_type_labels(
    executor: Executor, embedder: Embedder, agent_id: str
) -> None:
    await define_ontology(executor, "agent", agent_id, parse_ontology_text(SUPPORT))
    memory = memory_for(executor, embedder)
    await _write(memory, agent_id, "Maria Souza bought the X200 Headset.")
    await _write(memory, agent_id, "Maria Souza opened Ticket TCK-1042.")
    labels = await _labels(executor, agent_id)
    by_type = {key.split(":")[0]: found for key, found in labels.items()}
    assert by_type["product"] == {"Product"}
    assert by_type["support_ticket"] == {"SupportTicket"}
    assert by_type["person"] == {"Person"}  # the speaker, by rule


async def test_the_built_in_types_are_labelled_and_an_open_type_is_not(
    executor: Executor, hash_embedder: Embedder, agent_id: str
) -> None:
    keys = await load_story(executor, hash_embedder, agent_id)  # remember: Curitiba is a "city"
    labels = await _labels(executor, agent_id)
    assert labels[keys["Clara Rezende"]] == {"Person"}
    assert labels[keys["Vertix"]] == {"Organization"}
    assert labels[keys["Curitiba"]] == set()  # kept as it came by the open built-in ontology
    memory = memory_for(executor, hash_embedder)
    await _write(memory, agent_id, "Maria Souza moved to Lisbon.")
    labels = await _labels(executor, agent_id)
    assert labels["place:lisbon"] == {"Place"}


async def test_applying_an_ontology_relabels_the_stored_entities(
    executor: Executor, hash_embedder: Embedder, agent_id: str
) -> None:
    keys = await load_story(executor, hash_embedder, agent_id)
    document = {
        "name": "cities",
        "entity_types": ["person", "city"],
        "relation_types": [],
    }
    await define_ontology(executor, "agent", agent_id, parse_ontology(document))
    labels = await _labels(executor, agent_id)
    assert labels[keys["Clara Rezende"]] == {"Person"}
    assert labels[keys["Curitiba"]] == {"City"}
    assert labels[keys["Vertix"]] == set()  # no longer declared: its label went
    await define_ontology(executor, "agent", agent_id, None)  # back to the built-in one
    labels = await _labels(executor, agent_id)
    assert labels[keys["Vertix"]] == {"Organization"} and labels[keys["Curitiba"]] == set()


async def test_an_import_keeps_labels_right_and_a_changed_type_moves_its_label(
    executor: Executor, hash_embedder: Embedder, agent_id: str, other_agent: str
) -> None:
    keys = await load_story(executor, hash_embedder, agent_id)
    records = [
        r
        async for r in export_agent(
            executor, agent_id, embedder_name=hash_embedder.name, dimensions=384
        )
    ]
    await import_agent(executor, hash_embedder, other_agent, records)
    assert await _labels(executor, other_agent) == await _labels(executor, agent_id)
    vertix = next(r for r in records if r["kind"] == "entity" and r["key"] == keys["Vertix"])
    vertix["props"]["type"] = "place"  # the same entity, re-imported with another type
    await import_agent(executor, hash_embedder, other_agent, records)
    assert (await _labels(executor, other_agent))[keys["Vertix"]] == {"Place"}


async def test_the_served_style_colours_the_types_of_the_keys_tenant(
    executor: Executor, hash_embedder: Embedder, agent_id: str, other_agent: str, tenant: str
) -> None:
    store = ApiKeyStore(executor)
    elsewhere = f"tenant-{uuid.uuid4().hex[:8]}"
    _, key = await store.create(tenant, [agent_id])  # claims agent_id for the tenant
    await store.create(elsewhere, [other_agent])
    try:
        await define_ontology(executor, "agent", agent_id, parse_ontology_text(SUPPORT))
        own = {"name": "t", "entity_types": ["warehouse"], "relation_types": []}
        await define_ontology(executor, "tenant", tenant, parse_ontology(own))
        foreign = {"name": "o", "entity_types": ["submarine"], "relation_types": []}
        await define_ontology(executor, "agent", other_agent, parse_ontology(foreign))
        settings = Settings(auth_disabled=False, admin_api_key=ADMIN_KEY)
        app = Starlette(routes=browser_guide_routes(settings))
        app.state.memory = memory_for(executor, hash_embedder)
        app.state.key_store = store
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:

            async def style(headers: dict[str, str]) -> str:
                answer = await client.get("/browser-guide/hippograph.grass", headers=headers)
                assert answer.status_code == 200, answer.text
                return answer.text

            public = await style({})
            keyed = await style({"Authorization": f"Bearer {key}"})
            same = await style({"X-API-Key": key})
            admin = await style({"X-API-Key": ADMIN_KEY})
            wrong = await client.get("/browser-guide/hippograph.grass", headers={"X-API-Key": "x"})
    finally:
        for name in (tenant, elsewhere):
            await executor.run_text(load_query("delete_keys_of_tenant"), {"tenant": name})
    assert "node.Person {" in public and "node.Place {" in public  # the built-in types
    assert not {"SupportTicket", "Warehouse", "Submarine"} & set(_styled(public))
    assert keyed == same
    assert {"SupportTicket", "Customer", "Warehouse"} <= set(_styled(keyed))
    assert "Submarine" not in _styled(keyed)  # another tenant's agent
    assert {"SupportTicket", "Warehouse", "Submarine"} <= set(_styled(admin))
    assert wrong.status_code == 401
    for label in ("SupportTicket", "Customer", "Product", "Person", "Place"):
        color, border = type_colours(label)
        rule = keyed.split(f"node.{label} {{", 1)[1].split("\n}", 1)[0]
        assert f"color: {color};" in rule and f"border-color: {border};" in rule
        assert 'caption: "{name}";' in rule
    assert "node.Event {" in keyed and keyed.count("node.Event {") == 1  # the message's own


def _styled(grass: str) -> list[str]:
    """The labels a style sheet has a rule for."""
    return re.findall(r"^node\.(\w+) \{", grass, re.M)


async def test_a_type_named_like_a_product_label_is_refused(
    executor: Executor, hash_embedder: Embedder, agent_id: str
) -> None:
    document = {"name": "clash", "entity_types": ["fact", "job", "ticket"], "relation_types": []}
    with pytest.raises(OntologyError) as refused:
        parse_ontology(document)
    assert isinstance(refused.value, BadInput)
    assert [p.split(":")[0] for p in refused.value.problems] == [
        "entity type 'fact'",
        "entity type 'job'",
    ]
    mutation = """mutation($a: ID!, $d: String!) { defineOntology(agentId: $a, document: $d) {
      errors { code message } } }"""
    text = '{"name": "clash", "entity_types": ["fact", "job"]}'
    res = await gql(memory_for(executor, hash_embedder), mutation, {"a": agent_id, "d": text})
    errors = res.data["defineOntology"]["errors"]
    assert errors[0]["code"] == "BAD_INPUT" and "'Job'" in errors[0]["message"]


async def test_the_migration_labels_built_in_types_outside_operators_ontologies(
    executor: Executor, agent_id: str, other_agent: str
) -> None:
    create = (
        "UNWIND $keys AS key CREATE (:Entity {agent_id: $a, key: key, type: split(key, ':')[0]})"
    )
    keys = ["person:ana", "pet:rex", "city:porto", "event:party"]
    await executor.run_text(create, {"a": agent_id, "keys": keys})
    await executor.run_text(create, {"a": other_agent, "keys": ["person:rui"]})
    document = {"name": "own", "entity_types": ["person"], "relation_types": []}
    await apply_ontology(executor, "agent", other_agent, parse_ontology(document))  # no relabel
    batch, params = ONCE_BACKFILLS["schema/v013_entity_type_labels"]
    while (await executor.run(batch, {**params, "batch": 2}))[0]["updated"]:
        pass
    assert await _labels(executor, agent_id) == {
        "person:ana": {"Person"},
        "pet:rex": {"Pet"},
        "city:porto": set(),  # not a built-in type
        "event:party": set(),  # :Event is a message's label
    }
    assert await _labels(executor, other_agent) == {"person:rui": set()}  # its apply labels it


async def test_a_tenants_ontology_relabels_its_agents_but_not_one_with_its_own(
    executor: Executor, hash_embedder: Embedder, agent_id: str, other_agent: str, tenant: str
) -> None:
    claim = "MERGE (o:AgentTenant {agent_id: $agent_id}) SET o.tenant = $tenant"
    for agent in (agent_id, other_agent):
        await executor.run_text(claim, {"agent_id": agent, "tenant": tenant})
        await load_story(executor, hash_embedder, agent)
    own = {"name": "own", "entity_types": ["person"], "relation_types": []}
    await define_ontology(executor, "agent", other_agent, parse_ontology(own))
    cities = {"name": "cities", "entity_types": ["city", "organization"], "relation_types": []}
    mutation = """mutation($t: String!, $d: String) { defineTenantOntology(tenant: $t,
      document: $d) { errors { code } } }"""
    memory = memory_for(executor, hash_embedder)
    done = await gql(memory, mutation, {"t": tenant, "d": json.dumps(cities)})
    assert done.data["defineTenantOntology"]["errors"] == []
    assert sorted(map(sorted, (await _labels(executor, agent_id)).values())) == [
        [],
        ["City"],
        ["Organization"],
    ]
    assert sorted(map(sorted, (await _labels(executor, other_agent)).values())) == [
        [],
        [],
        ["Person"],
    ]
