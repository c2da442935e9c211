"""Maintenance jobs against the real Neo4j with planted data: consolidation into observations
(with a "used to X, now Y" change), duplicate-entity candidates, profiles, decay/importance,
causal links, and the same work driven through queued jobs and a worker."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graph.executor import Executor
from graph.memory.browse import merge_candidates
from graph.memory.jobs import JobDeps, JobSpec, MaintenanceConfig, Worker
from graph.memory.maintenance.causal import causes_of, effects_of
from graph.memory.maintenance.consolidate import consolidate_agent, list_observations
from graph.memory.maintenance.duplicates import detect_duplicates
from graph.memory.maintenance.importance import decay_agent, rescore_agent
from graph.memory.maintenance.profiles import refresh_profiles
from graph.memory.read import Retriever
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredFact
from graph.providers import Embedder
from server.composition import default_handlers
from tests.cypher import load_query

pytestmark = pytest.mark.neo4j

NO_AUTO = MaintenanceConfig(merge_auto_threshold=1.01)


async def plant(executor: Executor, embedder: Embedder, agent_id: str) -> dict[str, str]:
    """A small memory: a hiking cluster, a move (superseded fact), a near-duplicate person,
    an expired temporal fact and a causal link. Returns fact ids by short name."""
    past = datetime.now(UTC) - timedelta(days=30)
    yesterday = datetime.now(UTC) - timedelta(days=1)
    ids = {
        n: f"{agent_id}-{n}"
        for n in (
            "hike1",
            "hike2",
            "hike3",
            "job",
            "guitar",
            "lisbon",
            "porto",
            "vacation",
            "promotion",
        )
    }
    entities = [
        StructuredEntity("Clara Rezende", "person", aliases=["Clara"]),
        StructuredEntity("Clara Resende", "person"),
        StructuredEntity("Rafael Costa", "person"),
        StructuredEntity("Acme", "organization"),
    ]
    facts = [
        StructuredFact(
            "Clara Rezende loves hiking in the mountains.",
            "Clara Rezende",
            id=ids["hike1"],
            importance=0.6,
        ),
        StructuredFact(
            "Clara Rezende goes hiking in the mountains every weekend.",
            "Clara Rezende",
            id=ids["hike2"],
        ),
        StructuredFact(
            "Clara Rezende bought new hiking boots for mountain trails.",
            "Clara Rezende",
            id=ids["hike3"],
        ),
        StructuredFact(
            "Clara Rezende works at Acme as a software engineer.",
            "Clara Rezende",
            entities=["Acme"],
            id=ids["job"],
        ),
        StructuredFact(
            "Rafael Costa plays the guitar in a jazz band.", "Rafael Costa", id=ids["guitar"]
        ),
        StructuredFact(
            "Clara Rezende lives in Lisbon.",
            "Clara Rezende",
            id=ids["lisbon"],
            valid_from=past,
            valid_to=yesterday,
            created_at=past,
        ),
        StructuredFact("Clara Rezende lives in Porto.", "Clara Rezende", id=ids["porto"]),
        StructuredFact(
            "Rafael Costa is on vacation in Spain.",
            "Rafael Costa",
            id=ids["vacation"],
            temporal_class="temporal",
            valid_until=yesterday,
        ),
        StructuredFact(
            "Clara Rezende got a promotion at Acme.",
            "Clara Rezende",
            entities=["Acme"],
            id=ids["promotion"],
        ),
    ]
    await remember(executor, embedder, agent_id, entities=entities, facts=facts)
    await executor.run(
        "write/link_supersedes",
        {"agent_id": agent_id, "rows": [{"new_id": ids["porto"], "old_id": ids["lisbon"]}]},
    )
    await executor.run(
        "write/link_causes",
        {
            "agent_id": agent_id,
            "rows": [{"cause_id": ids["promotion"], "effect_id": ids["porto"], "strength": 0.8}],
        },
    )
    return ids


async def test_consolidation_makes_observations_with_sources_and_changes(
    executor: Executor, embedder: Embedder, agent_id: str
) -> None:
    ids = await plant(executor, embedder, agent_id)
    first = await consolidate_agent(executor, embedder, None, agent_id)
    assert first.clusters >= 1 and first.changes == 1 and first.created >= 2
    observations = await list_observations(executor, agent_id)
    patterns = [o for o in observations if o["kind"] == "pattern"]
    assert patterns, observations
    hiking = [o for o in patterns if "hiking" in o["text"]]
    assert hiking and {ids["hike1"], ids["hike2"]} <= set(hiking[0]["fact_ids"])
    assert ids["guitar"] not in hiking[0]["fact_ids"]  # unrelated facts stay apart
    change = [o for o in observations if o["kind"] == "change"]
    assert [o["text"] for o in change] == [
        "Clara Rezende used to live in Lisbon, now lives in Porto."
    ]
    assert set(change[0]["fact_ids"]) == {ids["lisbon"], ids["porto"]}
    # unchanged memory: nothing new, nothing removed, no duplicates
    again = await consolidate_agent(executor, embedder, None, agent_id)
    assert again.created == 0 and again.removed == 0
    assert len(await list_observations(executor, agent_id)) == len(observations)
    # the read side finds observations through their embedding
    vector = (await embedder.embed(["Does Clara like hiking?"]))[0]
    rows = await executor.run(
        "read/observations",
        {"agent_id": agent_id, "vector": vector, "min_score": 0.2, "as_of": None, "limit": 3},
    )
    assert rows and "hiking" in rows[0]["text"]
    # and the read pipeline shows them as observed patterns
    result = await Retriever(executor, embedder).retrieve(agent_id, "Does Clara like hiking?")
    assert any("hiking" in o.text for o in result.observations), result.context
    assert "Observed patterns" in result.context


async def test_planted_near_duplicate_entity_becomes_a_merge_candidate(
    executor: Executor, embedder: Embedder, agent_id: str
) -> None:
    await plant(executor, embedder, agent_id)
    found = await detect_duplicates(executor, agent_id, NO_AUTO)
    assert found["candidates"] >= 1 and found["new"] >= 1 and found["merged"] == 0
    rows = await merge_candidates(executor, agent_id, limit=10)
    pairs = {frozenset((r.keep_key, r.drop_key)): r for r in rows}
    clara = pairs.get(frozenset(("person:clara_rezende", "person:clara_resende")))
    assert clara is not None, rows
    assert clara.status == "open" and (clara.confidence or 0) >= 0.8 and clara.reason
    assert clara.keep_key == "person:clara_rezende"  # the one with facts and an alias
    assert not any("rafael" in k and "clara" in " ".join(p) for p in pairs for k in p)
    # re-running does not duplicate candidates
    again = await detect_duplicates(executor, agent_id, NO_AUTO)
    assert again["new"] == 0
    rows2 = await merge_candidates(executor, agent_id, limit=10)
    assert len(rows2) == len(rows)


async def test_profiles_summarise_top_facts_and_only_refresh_on_news(
    executor: Executor, embedder: Embedder, agent_id: str
) -> None:
    ids = await plant(executor, embedder, agent_id)
    first = await refresh_profiles(executor, None, agent_id)
    assert first["refreshed"] >= 3 and first["llm"] == 0
    rows = await executor.run_text(
        load_query("consolidation_profiles"),
        {"agent_id": agent_id, "keys": ["person:clara_rezende"]},
        read=True,
    )
    profile = rows[0]["profile_text"]
    assert profile.startswith("Clara Rezende (person).")
    assert "hiking" in profile and "Porto" in profile and "Lisbon" not in profile  # active only
    assert rows[0]["profile_refreshed_at"] is not None and rows[0]["profile_source"] == "offline"
    assert (await refresh_profiles(executor, None, agent_id))["refreshed"] == 0
    await remember(
        executor,
        embedder,
        agent_id,
        facts=[StructuredFact("Clara Rezende adopted a dog named Tico.", "Clara Rezende")],
    )
    news = await refresh_profiles(executor, None, agent_id)
    assert news["refreshed"] == 1
    assert ids  # planted


async def test_decay_flags_expired_temporal_facts_and_importance_ranks_them_lower(
    executor: Executor, embedder: Embedder, agent_id: str
) -> None:
    ids = await plant(executor, embedder, agent_id)
    assert await decay_agent(executor, agent_id) == {"flagged": 1, "unflagged": 0}
    assert await decay_agent(executor, agent_id) == {"flagged": 0, "unflagged": 0}
    result = await rescore_agent(executor, agent_id, use_gds=False)
    assert result["facts_rescored"] == 8 and result["centrality"] == "degree"
    rows = await executor.run_text(
        load_query("consolidation_fact_scores"),
        {"agent_id": agent_id, "ids": [ids["vacation"], ids["guitar"], ids["hike1"]]},
        read=True,
    )
    by_id = {r["id"]: r for r in rows}
    vacation, guitar = by_id[ids["vacation"]], by_id[ids["guitar"]]
    assert vacation["stale"] and not guitar["stale"]
    assert vacation["importance"] < guitar["importance"]
    assert vacation["importance_base"] == guitar["importance_base"] == 0.5
    # re-scoring twice does not compound (it always starts from importance_base)
    await rescore_agent(executor, agent_id, use_gds=False)
    rows2 = await executor.run_text(
        load_query("consolidation_fact_scores"),
        {"agent_id": agent_id, "ids": [ids["vacation"], ids["guitar"]]},
        read=True,
    )
    assert {r["id"]: r["importance"] for r in rows2} == {
        r["id"]: r["importance"] for r in rows if r["id"] in {ids["vacation"], ids["guitar"]}
    }


async def test_causal_links_are_queryable_both_ways(
    executor: Executor, embedder: Embedder, agent_id: str
) -> None:
    ids = await plant(executor, embedder, agent_id)
    causes = await causes_of(executor, agent_id, ids["porto"])
    assert [(c.fact_id, c.strength, c.active) for c in causes] == [(ids["promotion"], 0.8, True)]
    effects = await effects_of(executor, agent_id, ids["promotion"])
    assert [e.text for e in effects] == ["Clara Rezende lives in Porto."]
    assert await causes_of(executor, agent_id, ids["promotion"]) == []
    assert await effects_of(executor, "someone-else", ids["promotion"]) == []


async def test_maintenance_kinds_run_as_jobs(
    executor: Executor, embedder: Embedder, agent_id: str, fast_deps: JobDeps
) -> None:
    await plant(executor, embedder, agent_id)
    deps = JobDeps(
        executor=executor, queue=fast_deps.queue, embedder=embedder, config=fast_deps.config
    )
    handlers = default_handlers(with_extraction=False)
    kinds = ["decay", "importance", "profile", "consolidate", "dedup_entities"]
    queued = await deps.queue.enqueue_many([JobSpec(kind=k, agent_id=agent_id) for k in kinds])
    worker = Worker(deps, handlers, agent_id=agent_id)
    assert await worker.run_until_idle() == len(kinds)
    jobs = {j.kind: j for j in await deps.queue.list_jobs(agent_id=agent_id)}
    assert {k: jobs[k].status for k in kinds} == dict.fromkeys(kinds, "done")
    plugins = (await executor.run("schema/procedures_like", read=True))[0]
    # PageRank through GDS when the plugin is loaded, degree centrality otherwise.
    centrality = "pagerank" if plugins["gds"] else "degree"
    assert jobs["decay"].result == {
        "flagged": 1,
        "unflagged": 0,
        "facts_rescored": 8,
        "centrality": centrality,
    }
    assert jobs["consolidate"].result and jobs["consolidate"].result["observations"] >= 2
    assert jobs["dedup_entities"].result and jobs["dedup_entities"].result["candidates"] >= 1
    assert all(e.created for e in queued)


async def test_near_certain_duplicates_are_merged_automatically(
    executor: Executor, embedder: Embedder, agent_id: str
) -> None:
    await plant(executor, embedder, agent_id)
    await remember(
        executor,
        embedder,
        agent_id,
        entities=[StructuredEntity("Rafael  Costa!", "person", key="person:rafael_costa_2")],
        facts=[StructuredFact("Rafael Costa teaches music at a school.", "person:rafael_costa_2")],
    )
    cfg = MaintenanceConfig(merge_auto_threshold=0.95)
    found = await detect_duplicates(executor, agent_id, cfg)
    assert found["merged"] == 1, found
    rows = await merge_candidates(executor, agent_id, status="merged", limit=10)
    assert [(r.keep_key, r.drop_key) for r in rows] == [
        ("person:rafael_costa", "person:rafael_costa_2")
    ]
    # the dropped entity is kept (history) but no longer a duplicate candidate
    again = await detect_duplicates(executor, agent_id, cfg)
    assert again["merged"] == 0 and again["entities"] == found["entities"] - 1
    facts = await executor.run_text(
        load_query("consolidation_agent_facts"), {"agent_id": agent_id}, read=True
    )
    moved = [f for f in facts if f["text"] == "Rafael Costa teaches music at a school."]
    assert [f["subject_key"] for f in moved] == ["person:rafael_costa"]


async def test_manual_resolution_of_merge_candidates(
    executor: Executor, embedder: Embedder, agent_id: str
) -> None:
    from graph.errors import BadInput
    from graph.memory.curation.review import resolve_merge_candidate

    await plant(executor, embedder, agent_id)
    await detect_duplicates(executor, agent_id, NO_AUTO)
    (clara,) = [
        c
        for c in await merge_candidates(executor, agent_id, status="open")
        if "clara" in c.keep_key
    ]
    rejected = await resolve_merge_candidate(executor, agent_id, clara.id, accept=False)
    assert rejected.status == "rejected"
    with pytest.raises(BadInput):
        await resolve_merge_candidate(executor, agent_id, clara.id, accept=True)
    await detect_duplicates(executor, agent_id, NO_AUTO)  # a rejection is never re-opened
    assert [c.status for c in await merge_candidates(executor, agent_id) if c.id == clara.id] == [
        "rejected"
    ]


async def test_llm_wording_for_profiles_and_observations(
    executor: Executor, embedder: Embedder, agent_id: str
) -> None:
    from tests.fakes import ScriptedLLM

    await plant(executor, embedder, agent_id)

    def profile_reply(body: dict[str, object]) -> dict[str, str]:
        return {"profile": "A person who likes the outdoors."}

    script = ScriptedLLM(
        by_stage={
            "Stage: profile": [profile_reply] * 10 + ["not json at all"],
            "Stage: consolidate": [
                {
                    "observations": [
                        {"text": "Clara Rezende is an avid mountain hiker.", "kind": "habit"},
                        {"text": "   ", "kind": "pattern"},
                    ]
                }
            ]
            * 10,
        }
    )
    llm = script.chat()
    profiles = await refresh_profiles(
        executor, llm, agent_id, keys=["person:clara_rezende", "person:rafael_costa"]
    )
    assert profiles == {"refreshed": 2, "llm": 2, "offline": 0}
    rows = await executor.run_text(
        load_query("consolidation_profiles"),
        {"agent_id": agent_id, "keys": ["person:clara_rezende"]},
        read=True,
    )
    assert rows[0]["profile_text"] == "A person who likes the outdoors."
    assert rows[0]["profile_source"] == "llm"
    sent = [r for r in script.requests if "Stage: profile" in r["messages"][0]["content"]]
    assert "hiking" in sent[0]["messages"][1]["content"]  # the facts were in the prompt
    result = await consolidate_agent(executor, embedder, llm, agent_id)
    assert result.llm_calls == result.clusters >= 1
    texts = {o["text"]: o["kind"] for o in await list_observations(executor, agent_id)}
    assert texts["Clara Rezende is an avid mountain hiker."] == "habit"
    assert "   " not in texts  # blank LLM items are dropped
    # an unusable answer falls back to the offline profile
    await remember(
        executor,
        embedder,
        agent_id,
        facts=[StructuredFact("Clara Rezende adopted a dog named Tico.", "Clara Rezende")],
    )
    script.by_stage["Stage: profile"] = ["not json at all"]
    fallback = await refresh_profiles(executor, llm, agent_id, keys=["person:clara_rezende"])
    assert fallback == {"refreshed": 1, "llm": 0, "offline": 1}
