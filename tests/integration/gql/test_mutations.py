"""Mutations through the schema against the real pipelines (offline mode) and Neo4j."""

from __future__ import annotations

import pytest

from graph.executor import Executor
from graph.memory.facade import Memory
from graph.providers import HashEmbedder
from tests.cypher import load_query
from tests.integration.gql.support import gql, memory_for

pytestmark = pytest.mark.neo4j

REMEMBER = """mutation($a: ID!) { remember(agentId: $a,
  entities: [{name: "Ana Souza", type: "person", aliases: ["Aninha"]},
             {name: "Recife", type: "city"}],
  facts: [{text: "Ana Souza lives in Recife", subject: "Ana Souza", entities: ["Recife"]}],
  relations: [{source: "Ana Souza", target: "Recife", type: "lives in"}]) {
  summary { entitiesCreated factsAdded factsUnchanged relations factIds }
  errors { code message } } }"""


@pytest.fixture
def pipelines(executor: Executor, hash_embedder: HashEmbedder) -> Memory:
    return memory_for(executor, hash_embedder)


async def test_remember_is_idempotent_and_forget_cascades(pipelines: Memory, agent_id: str) -> None:
    first = (await gql(pipelines, REMEMBER, {"a": agent_id})).data["remember"]
    assert first["errors"] == [] and first["summary"]["factsAdded"] == 1
    again = (await gql(pipelines, REMEMBER, {"a": agent_id})).data["remember"]["summary"]
    assert again["factsAdded"] == 0 and again["factsUnchanged"] == 1
    fact_id = first["summary"]["factIds"][0]
    forgot = await gql(
        pipelines,
        """mutation($a: ID!, $f: ID!) { forget(agentId: $a, factId: $f,
        reason: "wrong city") { factId invalidatedRelationships errors { code } } }""",
        {"a": agent_id, "f": fact_id},
    )
    assert forgot.data["forget"]["factId"] == fact_id
    twice = await gql(
        pipelines,
        """mutation($a: ID!, $f: ID!) { forget(agentId: $a, factId: $f)
        { factId errors { code message } } }""",
        {"a": agent_id, "f": fact_id},
    )
    assert twice.data["forget"]["errors"][0]["code"] == "NOT_FOUND"
    audit = await gql(
        pipelines,
        "query($a: ID!) { auditLog(agentId: $a, action: FORGET) { action factId reason } }",
        {"a": agent_id},
    )
    assert audit.data["auditLog"] == [
        {"action": "FORGET", "factId": fact_id, "reason": "wrong city"}
    ]


async def test_write_then_retrieve_offline(pipelines: Memory, agent_id: str) -> None:
    res = await gql(
        pipelines,
        """mutation($a: ID!) { write(agentId: $a, speakerName: "Marina",
        message: "I moved to Lisbon last month and I work at Orion Tech now.") {
        outcome { success eventId factsAdded { text } mode } errors { code message } } }""",
        {"a": agent_id},
    )
    payload = res.data["write"]
    assert payload["errors"] == [] and payload["outcome"]["success"] is True
    assert payload["outcome"]["eventId"]
    found = await gql(
        pipelines,
        """query($a: ID!) { retrieve(agentId: $a,
        query: "Where does Marina live?") { context plan { strategy } facts { text score } } }""",
        {"a": agent_id},
    )
    assert found.errors is None
    events = await gql(
        pipelines,
        "query($a: ID!) { events(agentId: $a) { edges { node { text speaker } } } }",
        {"a": agent_id},
    )
    assert events.data["events"]["edges"][0]["node"]["speaker"] == "Marina"


async def test_write_bad_input_is_a_payload_error(pipelines: Memory, agent_id: str) -> None:
    res = await gql(
        pipelines,
        """mutation($a: ID!) { write(agentId: $a, speakerName: "X",
        message: "hello there", configOverrides: {no_such_option: 1}) {
        outcome { success } errors { code message } } }""",
        {"a": agent_id},
    )
    assert res.errors is None
    assert res.data["write"]["outcome"] is None
    assert res.data["write"]["errors"][0]["code"] == "BAD_INPUT"


async def test_merge_entities_and_resolve_candidate(
    pipelines: Memory, executor: Executor, agent_id: str
) -> None:
    await gql(
        pipelines,
        """mutation($a: ID!) { remember(agentId: $a, entities: [
        {name: "Guilherme Maturana", type: "person"}, {name: "Guilherme Maturanna", type: "person"},
        {name: "Gui M", type: "person"}],
        facts: [{text: "Guilherme Maturanna plays the cello", subject: "Guilherme Maturanna"}])
        { errors { code } } }""",
        {"a": agent_id},
    )
    rows = [
        {
            "id": f"{agent_id}-mc1",
            "keep_key": "person:guilherme_maturana",
            "drop_key": "person:guilherme_maturanna",
            "confidence": 0.9,
            "reason": "spelling",
        },
        {
            "id": f"{agent_id}-mc2",
            "keep_key": "person:guilherme_maturana",
            "drop_key": "person:gui_m",
            "confidence": 0.6,
            "reason": "initials",
        },
    ]
    await executor.run(
        "consolidation/upsert_merge_candidates", {"agent_id": agent_id, "rows": rows}
    )
    open_list = await gql(
        pipelines,
        "query($a: ID!) { mergeCandidates(agentId: $a) { id keepName dropName } }",
        {"a": agent_id},
    )
    assert [c["id"] for c in open_list.data["mergeCandidates"]] == [r["id"] for r in rows]
    resolve = """mutation($a: ID!, $id: ID!, $ok: Boolean!) { resolveMergeCandidate(agentId: $a,
        id: $id, accept: $ok) { status merge { keepKey factsResubjected } errors { code } } }"""
    accepted = await gql(pipelines, resolve, {"a": agent_id, "id": rows[0]["id"], "ok": True})
    assert accepted.data["resolveMergeCandidate"]["status"] == "MERGED"
    assert accepted.data["resolveMergeCandidate"]["merge"]["factsResubjected"] == 1
    rejected = await gql(pipelines, resolve, {"a": agent_id, "id": rows[1]["id"], "ok": False})
    assert rejected.data["resolveMergeCandidate"] == {
        "status": "REJECTED",
        "merge": None,
        "errors": [],
    }
    again = await gql(pipelines, resolve, {"a": agent_id, "id": rows[1]["id"], "ok": True})
    assert again.data["resolveMergeCandidate"]["errors"] == [{"code": "BAD_INPUT"}]
    merged = await gql(
        pipelines,
        """query($a: ID!) { entity(agentId: $a,
        key: "person:guilherme_maturanna") { mergedInto } }""",
        {"a": agent_id},
    )
    assert merged.data["entity"]["mergedInto"] == "person:guilherme_maturana"
    direct = await gql(
        pipelines,
        """mutation($a: ID!) { mergeEntities(agentId: $a,
        keepKey: "person:x", dropKey: "person:y") { merge { keepKey } errors { code } } }""",
        {"a": agent_id},
    )
    assert direct.data["mergeEntities"]["errors"] == [{"code": "NOT_FOUND"}]


async def test_ingest_document_and_run_job_are_pollable(pipelines: Memory, agent_id: str) -> None:
    res = await gql(
        pipelines,
        """mutation($a: ID!) { ingestDocument(agentId: $a,
        text: "# Trip notes\\nWe visited Porto and Braga in May.", format: MARKDOWN) {
        documentId jobId created errors { code } } }""",
        {"a": agent_id},
    )
    doc = res.data["ingestDocument"]
    assert doc["errors"] == [] and doc["jobId"]
    job = await gql(
        pipelines,
        "query($a: ID!, $id: ID!) { job(agentId: $a, id: $id) { id kind status } }",
        {"a": agent_id, "id": doc["jobId"]},
    )
    assert job.data["job"]["kind"] == "DOCUMENT_INGEST" and job.data["job"]["status"] == "PENDING"
    run = await gql(
        pipelines,
        """mutation($a: ID!) { runJob(agentId: $a, kind: CONSOLIDATE) {
        jobId created errors { code } } }""",
        {"a": agent_id},
    )
    assert run.data["runJob"]["created"] is True
    # A whole-agent job ignores its subject: other subjects find the same pending job.
    for subject in ("a", "b", "c"):
        again = await gql(
            pipelines,
            """mutation($a: ID!, $s: String) { runJob(agentId: $a,
            kind: CONSOLIDATE, subject: $s) { jobId created } }""",
            {"a": agent_id, "s": subject},
        )
        assert again.data["runJob"] == {"jobId": run.data["runJob"]["jobId"], "created": False}
    jobs = await gql(
        pipelines, "query($a: ID!) { jobs(agentId: $a, status: PENDING) { kind } }", {"a": agent_id}
    )
    assert {j["kind"] for j in jobs.data["jobs"]} == {"DOCUMENT_INGEST", "CONSOLIDATE"}
    bad = await gql(
        pipelines,
        """mutation($a: ID!) { ingestDocument(agentId: $a) {
        jobId errors { code } } }""",
        {"a": agent_id},
    )
    assert bad.data["ingestDocument"]["errors"] == [{"code": "BAD_INPUT"}]


async def test_remember_lists_are_capped_before_any_work(
    pipelines: Memory,
    executor: Executor,
    agent_id: str,
) -> None:
    """Through the API one remember call carries at most 1,000 items per list (and 100 per
    nested list); a bigger call is refused whole with a typed error, nothing stored."""
    many = """mutation($a: ID!, $f: [FactInput!]) { remember(agentId: $a, facts: $f) {
      summary { factsAdded } errors { code message } } }"""
    facts = [{"text": f"Fact number {i} about Ana", "subject": "Ana"} for i in range(1_001)]
    out = (await gql(pipelines, many, {"a": agent_id, "f": facts})).data["remember"]
    assert out["summary"] is None
    assert out["errors"][0]["code"] == "BAD_INPUT"
    assert "at most 1000 facts" in out["errors"][0]["message"]
    wide = [
        {
            "text": "Ana knows everyone",
            "subject": "Ana",
            "entities": [f"Person {i}" for i in range(101)],
        }
    ]
    out = (await gql(pipelines, many, {"a": agent_id, "f": wide})).data["remember"]
    assert (
        out["errors"][0]["code"] == "BAD_INPUT"
        and "at most 100 entities" in out["errors"][0]["message"]
    )
    assert (
        await executor.run_text(load_query("count_agent_facts"), {"agent_id": agent_id}, read=True)
    )[0]["facts"] == 0
    ok = (await gql(pipelines, many, {"a": agent_id, "f": facts[:1_000]})).data["remember"]
    assert ok["errors"] == [] and ok["summary"]["factsAdded"] == 1_000


async def test_write_with_a_key_still_in_progress_is_a_typed_error(
    pipelines: Memory, executor: Executor, hash_embedder: HashEmbedder, agent_id: str
) -> None:
    import asyncio

    from graph.memory.write import WritePipeline
    from tests.integration.write.test_no_lost_message import DiesAtCommit

    with pytest.raises(asyncio.CancelledError):  # a writer that died after its claim
        await WritePipeline(DiesAtCommit(executor), hash_embedder, None).write(
            agent_id, "I live in Curitiba.", "Rafael", idempotency_key="gk-1"
        )
    out = (
        await gql(
            pipelines,
            """mutation($a: ID!) { write(agentId: $a,
        message: "I live in Curitiba.", speakerName: "Rafael", idempotencyKey: "gk-1") {
        outcome { success } errors { code message } } }""",
            {"a": agent_id},
        )
    ).data["write"]
    assert out["outcome"] is None
    assert [e["code"] for e in out["errors"]] == ["IN_PROGRESS"]
    assert "retry" in out["errors"][0]["message"]


async def test_write_with_the_llm_down_says_so(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str
) -> None:
    import httpx

    from tests.fakes import ScriptedLLM

    down = ScriptedLLM(replies=[httpx.ConnectError("refused")] * 5)
    memory = memory_for(executor, hash_embedder, llm=down.chat())
    out = (
        await gql(
            memory,
            """mutation($a: ID!) { write(agentId: $a,
        message: "I live in Curitiba.", speakerName: "Rafael") {
        outcome { success error eventId warnings } errors { code } } }""",
            {"a": agent_id},
        )
    ).data["write"]
    assert out["errors"] == []
    outcome = out["outcome"]
    assert outcome["success"] is False and outcome["eventId"]
    assert "LLM unavailable" in outcome["error"] and "kept" in outcome["error"]
