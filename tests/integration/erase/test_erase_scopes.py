"""Erase scopes on the real Neo4j: a fact (its older versions, sources, derived data and
relationship evidence), a whole agent (every node, its id and key scope released), and the
GraphQL mutations (admin only, typed errors) and the CLI."""

from __future__ import annotations

import hashlib
import random
import string
from typing import Any

import pytest
from typer.testing import CliRunner

from gql.permissions import LOCAL_ADMIN, Principal
from graph.agent_deletion import delete_agent_nodes
from graph.errors import NotFound
from graph.executor import Executor
from graph.memory.erase import erase_agent, erase_entity, erase_fact
from graph.memory.jobs import Worker
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation
from graph.providers import HashEmbedder
from server.auth import ApiKeyStore
from server.cli import app
from server.composition import default_handlers
from tests.cypher import load_query
from tests.integration.gql.support import gql, memory_for
from tests.integration.write.history import fact_history

pytestmark = pytest.mark.neo4j


async def _nodes(executor: Executor, agent_id: str) -> int:
    return sum((await _labels(executor, agent_id)).values())


async def _labels(executor: Executor, agent_id: str) -> dict[str, int]:
    rows = await executor.run_text(load_query("agent_counts"), {"agent_id": agent_id}, read=True)
    return {str(r["label"]): int(r["nodes"]) for r in rows}


async def test_erasing_a_fact_takes_its_versions_sources_and_derived_data(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    memory = memory_for(executor, hash_embedder)
    pipe = memory.writer
    a = await pipe.write(agent_id, "I live in Curitiba.", "Rafael", idempotency_key="k1")
    b = await pipe.write(agent_id, "I moved to Lisbon.", "Rafael")
    versions = [a.facts_added[0].id, b.facts_updated[0].id]
    kept = await remember(
        executor,
        hash_embedder,
        agent_id,
        entities=[StructuredEntity(name="Vertix", type="organization")],
        facts=[
            StructuredFact(text="Rafael works at Vertix", subject="Rafael", entities=["Vertix"]),
            StructuredFact(
                text="Rafael joined Vertix in 2020", subject="Rafael", entities=["Vertix"]
            ),
        ],
        relations=[StructuredRelation(source="Rafael", target="Vertix", type="works_at")],
    )
    works, joined = kept.fact_ids
    # One relationship evidenced by two facts, one by a single fact.
    rel_rows = await executor.run_text(
        load_query("set_relation_evidence"),
        {"agent_id": agent_id, "type": "works_at", "evidence": [works, joined]},
    )
    assert len(rel_rows) == 1
    await executor.run(
        "consolidation/upsert_observations",
        {
            "agent_id": agent_id,
            "rows": [
                {
                    "id": f"obs-{agent_id}",
                    "text": "Rafael moves often",
                    "kind": "pattern",
                    "embedding": (await hash_embedder.embed(["x"]))[0],
                    "fact_ids": versions,
                }
            ],
        },
    )

    report = await erase_fact(executor, agent_id, versions[-1], queue=memory.queue)

    assert report.facts == 2 and report.events == 2 and report.observations == 1
    assert report.receipts == 1 and report.audits_scrubbed >= 2
    for fid in versions:
        with pytest.raises(NotFound):
            await fact_history(executor, agent_id, fid)
    assert len(await fact_history(executor, agent_id, works)) == 1  # other facts stay
    audits = await executor.run_text(load_query("erase_audits"), {"agent_id": agent_id}, read=True)
    erased = [x for x in audits if x["fact_id"] in versions]
    assert erased and all(x["text"] is None and x["text_hash"] for x in erased)
    assert any(x["action"] == "ERASE" for x in audits)
    # The relationship evidenced by `works` and `joined`: erasing one keeps it, the other drops it.
    r1 = await erase_fact(executor, agent_id, joined)
    assert (r1.relations_updated, r1.relations_deleted) == (1, 0)
    r2 = await erase_fact(executor, agent_id, works)
    assert (r2.relations_updated, r2.relations_deleted) == (0, 1)
    with pytest.raises(NotFound):
        await erase_fact(executor, agent_id, works)


async def test_erasing_an_agent_deletes_every_node_and_releases_its_id(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    memory = memory_for(executor, hash_embedder)
    store = ApiKeyStore(executor)
    tenant = f"tenant-{agent_id}"
    only, _ = await store.create(tenant, [agent_id])
    both, _ = await store.create(tenant, [agent_id, f"{agent_id}-b"])
    await memory.writer.write(
        agent_id, "Clara Rezende works at Vertix.", "Bruno", idempotency_key="k"
    )
    await memory.write_async(agent_id, "Clara lives in Curitiba.", "Bruno")
    await memory.documents.ingest(agent_id, text="Vertix sells sensors.")
    assert await _nodes(executor, agent_id) > 5
    stored = await _labels(executor, agent_id)
    assert stored["Fact"] and stored["Event"] and stored["Entity"]

    report = await erase_agent(executor, agent_id)

    assert report.nodes == sum(stored.values())
    assert report.keys_changed == 2 and report.keys_revoked == 1
    # What it erased, by kind, not only as a node count.
    erased = {
        "Fact": report.facts,
        "Event": report.events,
        "Entity": report.entities,
        "Document": report.documents,
        "Job": report.jobs,
    }
    assert erased == {k: stored.get(k, 0) for k in erased}, (erased, stored)
    assert await _nodes(executor, agent_id) == 0
    keys = {k.id: k for k in await store.list(tenant)}
    assert keys[only].revoked_at is not None and keys[only].agents == []
    assert keys[both].revoked_at is None and keys[both].agents == [f"{agent_id}-b"]
    assert not await executor.run("tenancy/agent_owner", {"agent_id": agent_id}, read=True)
    await executor.run_text(load_query("delete_keys_of_tenant"), {"tenant": tenant})


async def test_deleting_an_agents_nodes_without_release_keeps_its_keys(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    """The reset of an agent that is loaded again (the demo before the end-to-end tests)."""
    store = ApiKeyStore(executor)
    tenant = f"tenant-{agent_id}"
    only, _ = await store.create(tenant, [agent_id])
    await remember(
        executor,
        hash_embedder,
        agent_id,
        facts=[StructuredFact(text="Clara Rezende works at Vertix", subject="Clara Rezende")],
    )
    report = await delete_agent_nodes(executor, agent_id, release=False)

    assert report.nodes > 0 and (report.keys_changed, report.keys_revoked) == (0, 0)
    assert await _nodes(executor, agent_id) == 0
    keys = {k.id: k for k in await store.list(tenant)}
    assert keys[only].revoked_at is None and keys[only].agents == [agent_id]
    await executor.run_text(load_query("delete_keys_of_tenant"), {"tenant": tenant})


ERASE_FACT = """mutation($a: ID!, $f: ID!) { eraseFact(agentId: $a, factId: $f) {
  summary { scope facts jobContexts auditId } errors { code message } } }"""
ERASE_ENTITY = """mutation($a: ID!, $k: String!) { eraseEntity(agentId: $a, key: $k) {
  summary { facts entities } errors { code } } }"""
ERASE_AGENT = """mutation($a: ID!, $c: String!) { eraseAgent(agentId: $a, confirmAgentId: $c) {
  summary { nodes facts entities events } errors { code message } } }"""


async def test_graphql_erase_is_admin_only_with_typed_errors(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    memory = memory_for(executor, hash_embedder)
    done = await remember(
        executor,
        hash_embedder,
        agent_id,
        entities=[StructuredEntity(name="Clara Rezende", type="person")],
        facts=[
            StructuredFact(text="Clara Rezende works at Vertix", subject="Clara Rezende"),
            StructuredFact(text="Clara Rezende plays chess", subject="Clara Rezende"),
        ],
    )
    first, second = done.fact_ids
    user = Principal(tenant="t", agents=frozenset({agent_id}))
    refused: Any = await gql(memory, ERASE_FACT, {"a": agent_id, "f": first}, principal=user)
    assert refused.errors and refused.errors[0].extensions["code"] == "FORBIDDEN"

    ok = await gql(memory, ERASE_FACT, {"a": agent_id, "f": first}, principal=LOCAL_ADMIN)
    assert ok.errors is None
    assert ok.data["eraseFact"]["summary"]["facts"] == 1
    assert ok.data["eraseFact"]["summary"]["jobContexts"] == 0
    assert ok.data["eraseFact"]["summary"]["auditId"]
    again = await gql(memory, ERASE_FACT, {"a": agent_id, "f": first})
    assert again.data["eraseFact"]["errors"][0]["code"] == "NOT_FOUND"
    missing = await gql(memory, ERASE_ENTITY, {"a": agent_id, "k": "person:nobody"})
    assert missing.data["eraseEntity"]["errors"][0]["code"] == "NOT_FOUND"
    wrong = await gql(memory, ERASE_AGENT, {"a": agent_id, "c": "another"})
    assert wrong.data["eraseAgent"]["errors"][0]["code"] == "BAD_INPUT"
    assert len(await fact_history(executor, agent_id, second)) == 1  # nothing lost
    whole = await gql(memory, ERASE_AGENT, {"a": agent_id, "c": agent_id})
    summary = whole.data["eraseAgent"]["summary"]
    assert summary["nodes"] >= 3 and summary["facts"] == 1 and summary["entities"] == 1


def test_cli_erase_validates_and_asks_first(agent_id: str) -> None:
    runner = CliRunner()
    bad = runner.invoke(app, ["erase", "--agent", agent_id, "--fact", "x", "--all"])
    assert bad.exit_code != 0 and "exactly one" in bad.output
    declined = runner.invoke(app, ["erase", "--agent", agent_id, "--all"], input="n\n")
    assert declined.exit_code == 1 and "nothing erased" in declined.output
    missing = runner.invoke(app, ["erase", "--agent", agent_id, "--fact", "nope", "--yes"])
    assert missing.exit_code == 1 and "not found" in missing.output
    empty = runner.invoke(app, ["erase", "--agent", agent_id, "--all", "--yes"])
    assert empty.exit_code == 0 and "erased: nothing" in empty.output, empty.output


async def test_erasing_a_subject_follows_the_whole_merge_chain(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    """A merged into B, then B into C: erasing C erases A and B too (every level), so not even
    ``entities(includeMerged: true)`` lists them."""
    memory = memory_for(executor, hash_embedder)
    marker = "Qorv" + "".join(random.choices(string.ascii_lowercase, k=8))
    await remember(
        executor,
        hash_embedder,
        agent_id,
        entities=[
            StructuredEntity(name=marker, type="person", profile_text=f"{marker} from Faro"),
            StructuredEntity(name=f"{marker} Zedova", type="person"),
            StructuredEntity(name=f"{marker} Rezende", type="person"),
            StructuredEntity(name="Vertix", type="organization"),
        ],
        facts=[
            StructuredFact(text=f"{marker} grew up in Faro", subject=marker),
            StructuredFact(text="She plays chess", subject=f"{marker} Zedova"),
            StructuredFact(text="Vertix sells sensors", subject="Vertix"),
        ],
    )
    slug = marker.lower()
    a, b, c = f"person:{slug}", f"person:{slug}_zedova", f"person:{slug}_rezende"
    await memory.admin.merge_entities(agent_id, b, a, reason=f"{marker} is {marker} Zedova")
    await memory.admin.merge_entities(agent_id, c, b)

    report = await erase_entity(executor, agent_id, c)

    assert report.entities == 3 and report.facts == 2
    listed = await memory.browse.entities(agent_id, include_merged=True, first=100)
    assert [e.key for e in listed.items] == ["organization:vertix"]
    leftover = await executor.run_text(
        load_query("scan_text"), {"needle": slug, "limit": 100}, read=True
    )
    assert leftover == [], leftover
    # The MERGE audits and the ERASE record keep hashes nobody can check a guessed key against.
    audits = await executor.run_text(load_query("erase_audits"), {"agent_id": agent_id}, read=True)
    guesses = {hashlib.sha256(k.encode()).hexdigest()[:32] for k in (a, b, c)}
    kept = {str(x[f]) for x in audits for f in ("target_id", "text_hash")}
    assert len(audits) >= 3 and not any(g in h for g in guesses for h in kept), audits


async def test_erasing_a_fact_scrubs_its_message_from_later_jobs_context(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    """A later async write carried the erased message as an earlier message (its job payload's
    ``recent_messages``, kept after the job is done): the erase removes it there too, and keeps
    the job and its other context."""
    memory = memory_for(executor, hash_embedder)
    marker = "Qorv" + "".join(random.choices(string.ascii_lowercase, k=8))
    first = f"My neighbour {marker.lower()} moved to Lisbon."
    written = await memory.writer.write(agent_id, first, "Rafael")
    fact_id = written.facts_added[0].id
    done = await memory.write_async(
        agent_id,
        "I adopted a grey cat.",
        "Rafael",
        recent_messages=[f"Rafael: {first}", "Bruno: how is the cat?"],
    )
    worker = Worker(memory.job_deps(), default_handlers(), agent_id=agent_id)
    await worker.run_until_idle()
    pending = await memory.write_async(
        agent_id, "The cat is called Miso.", "Rafael", recent_messages=[first, "ok"]
    )
    assert done.job_id and pending.job_id

    report = await erase_fact(executor, agent_id, fact_id, queue=memory.queue)

    assert report.events == 1 and report.job_contexts == 2
    kept = await memory.queue.get(done.job_id)
    waiting = await memory.queue.get(pending.job_id)
    assert kept is not None and kept.status == "done"
    assert kept.payload["recent_messages"] == ["Bruno: how is the cat?"]
    assert waiting is not None and waiting.status == "pending"
    assert waiting.payload["recent_messages"] == ["ok"]
    leftover = await executor.run_text(
        load_query("scan_text"), {"needle": marker.lower(), "limit": 100}, read=True
    )
    assert leftover == [], leftover
