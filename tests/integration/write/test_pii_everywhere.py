"""The operator's PII policy covers every stored text and every LLM prompt, not only
the message of ``write``: structured ``remember`` (through GraphQL), document content and
chunks (ingest + chunk extraction jobs), and the recent messages sent to the LLM as context
(sync and async writes). Each test looks in Neo4j (every property of the agent's nodes) and in
the request bodies the scripted model received through the real ``openai`` client."""

from __future__ import annotations

import json
from typing import Any

import pytest

from graph.executor import Executor
from graph.memory.jobs import DocumentConfig, JobDeps, JobQueue, JobsConfig, Worker, WorkerConfig
from graph.memory.jobs.async_write import write_async
from graph.memory.remember import remember
from graph.memory.write import PIIRejected, WriteConfig, WritePipeline
from graph.memory.write.models import StructuredEntity, StructuredFact, StructuredRelation
from graph.providers import HashEmbedder
from server.composition import default_handlers
from server.settings import Settings
from tests.cypher import load_query
from tests.fakes import ScriptedLLM
from tests.integration.gql.support import gql, memory_for
from tests.integration.write.helpers import SPEAKER, extraction

pytestmark = pytest.mark.neo4j

CARD = "4111 1111 1111 1111"
EMAIL = "eve.secret@example.com"
# The card as written and with its spaces removed: "4111" alone also occurs in hex digests and
# ids (about one 32-digit content hash in 2,000 holds it).
SECRETS = ("4111 1111", "4111111111111111", "eve.secret", "example.com")


async def stored_values(executor: Executor, agent_id: str) -> list[tuple[str, str, str]]:
    rows = await executor.run_text(
        load_query("agent_text_values"), {"agent_id": agent_id}, read=True
    )
    return [(r["label"], r["key"], json.dumps(r["value"], default=str)) for r in rows]


def leaks(values: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    return [v for v in values if any(s in v[2] for s in SECRETS)]


def prompts_leak(llm: ScriptedLLM) -> list[str]:
    bodies = [json.dumps(body) for body in llm.requests]
    return [b[:300] for b in bodies if any(s in b for s in SECRETS)]


REMEMBER = """mutation($a: ID!, $e: [EntityInput!], $f: [FactInput!], $r: [RelationInput!]) {
  remember(agentId: $a, entities: $e, facts: $f, relations: $r) {
    summary { factsAdded warnings }
    errors { code message } } }"""


def _remember_vars(agent_id: str) -> dict[str, Any]:
    return {
        "a": agent_id,
        "e": [
            {
                "name": f"Eve {EMAIL}",
                "type": "person",
                "aliases": [EMAIL, "Eve"],
                "key": f"person:{EMAIL}",
            }
        ],
        "f": [
            {
                "text": f"Eve pays with card {CARD} and mails {EMAIL}",
                "subject": f"Eve {EMAIL}",
                "entities": [f"Bob {EMAIL}"],
            }
        ],
        "r": [{"source": f"Eve {EMAIL}", "target": f"Bob {EMAIL}", "type": "knows"}],
    }


async def test_remember_redacts_every_stored_field(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    memory = memory_for(executor, hash_embedder)  # pii_mode "redact" (the default setting)
    res = await gql(memory, REMEMBER, _remember_vars(agent_id))
    assert res.errors is None, res.errors
    summary = res.data["remember"]["summary"]
    assert summary["factsAdded"] == 1
    assert any("redacted" in w for w in summary["warnings"])
    values = await stored_values(executor, agent_id)
    assert any(label == "Fact" for label, _, _ in values)
    assert leaks(values) == []
    texts = [v for label, k, v in values if label == "Fact" and k == "text"]
    assert "[REDACTED:credit_card]" in texts[0] and "[REDACTED:email]" in texts[0]
    # the subject reference still reaches the entity declared with the same (redacted) name
    ents = [v for label, k, v in values if label == "Entity" and k == "key"]
    assert len(ents) == 2, ents  # Eve (declared) and Bob (from a reference)


async def test_remember_in_reject_mode_stores_nothing(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    memory = memory_for(executor, hash_embedder, settings=Settings(pii_mode="reject"))
    res = await gql(memory, REMEMBER, _remember_vars(agent_id))
    assert res.data["remember"]["errors"][0]["code"] == "BAD_INPUT"
    assert "entities[0].name" in res.data["remember"]["errors"][0]["message"]
    assert await stored_values(executor, agent_id) == []
    with pytest.raises(PIIRejected):
        await remember(
            executor,
            hash_embedder,
            agent_id,
            pii_mode="reject",
            facts=[StructuredFact(text=f"card {CARD}", subject="Eve")],
        )
    assert await stored_values(executor, agent_id) == []


DOC = f"""# Contacts

Eve Martins lives in Porto and works at Acme as an engineer.
Her e-mail is {EMAIL} and her card number is {CARD}.
"""


def _deps(
    executor: Executor, embedder: HashEmbedder, llm: ScriptedLLM, pii_mode: str = "redact"
) -> JobDeps:
    cfg = JobsConfig(
        worker=WorkerConfig(poll_interval_s=0.05, reaper_interval_s=5.0), documents=DocumentConfig()
    )
    writer = WritePipeline(executor, embedder, llm.chat(), WriteConfig(pii_mode=pii_mode))
    return JobDeps(
        executor=executor,
        queue=JobQueue(executor),
        embedder=embedder,
        llm=None,
        config=cfg,
        writer=writer,
    )


async def test_document_content_chunks_and_extraction_prompts_are_redacted(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    llm = ScriptedLLM(
        replies=[
            extraction([("Eve Martins", "person")], [("Eve Martins", "Eve Martins lives in Porto")])
        ]
    )
    deps = _deps(executor, hash_embedder, llm)
    memory = memory_for(executor, hash_embedder)
    accepted = await memory.documents.ingest(
        agent_id, text=DOC, title=f"Notes of {EMAIL}", fmt="markdown"
    )
    # Before the worker runs, the registered document holds the raw content: redacted.
    pending = await stored_values(executor, agent_id)
    assert any(k == "raw_content" for _, k, _ in pending)
    assert leaks(pending) == []
    worker = Worker(deps, default_handlers(), agent_id=agent_id)
    assert await worker.run_until_idle() == 2  # ingest + one chunk extraction
    assert llm.calls >= 1
    assert prompts_leak(llm) == []
    values = await stored_values(executor, agent_id)
    assert any(label == "Chunk" for label, _, _ in values)
    assert leaks(values) == []
    progress = await memory.documents.progress(agent_id, accepted.document_id)
    assert progress.complete


async def test_document_in_reject_mode_is_refused(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    memory = memory_for(executor, hash_embedder, settings=Settings(pii_mode="reject"))
    with pytest.raises(PIIRejected):
        await memory.documents.ingest(agent_id, text=DOC)
    assert await stored_values(executor, agent_id) == []


RECENT = [f"Eve: my card is {CARD}", f"Eve: write to me at {EMAIL}", "Eve: see you in Porto"]


async def test_recent_messages_reach_the_llm_redacted(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    for mode in ("redact", "reject"):
        llm = ScriptedLLM(replies=[extraction()])
        pipe = WritePipeline(executor, hash_embedder, llm.chat(), WriteConfig(pii_mode=mode))
        res = await pipe.write(
            agent_id, "I moved to Lisbon last week.", SPEAKER, recent_messages=RECENT
        )
        assert res.success, res.error
        assert llm.calls >= 1
        assert prompts_leak(llm) == [], mode
        assert "[REDACTED:credit_card]" in json.dumps(llm.requests[0])
        assert "Porto" in json.dumps(llm.requests[0])  # the context itself is still sent
    assert leaks(await stored_values(executor, agent_id)) == []


async def test_async_write_keeps_no_pii_in_the_job_or_the_prompt(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    llm = ScriptedLLM(replies=[extraction()])
    deps = _deps(executor, hash_embedder, llm)
    accepted = await write_async(
        executor,
        deps.queue,
        agent_id,
        "I moved to Lisbon.",
        SPEAKER,
        embedder=hash_embedder,
        recent_messages=RECENT,
    )
    assert accepted.job_id
    assert leaks(await stored_values(executor, agent_id)) == []  # the job payload included
    worker = Worker(deps, default_handlers(), agent_id=agent_id)
    assert await worker.run_until_idle() == 1
    assert llm.calls >= 1 and prompts_leak(llm) == []
    assert leaks(await stored_values(executor, agent_id)) == []


def test_structured_inputs_are_not_mutated() -> None:
    # redaction works on copies: the caller's objects keep what the caller sent
    from graph.memory.remember.redact import redact_import

    ent = StructuredEntity(name=f"Eve {EMAIL}")
    rel = StructuredRelation(source=EMAIL, target="Bob", type="knows")
    out = redact_import([ent], [], [rel], [], "redact")
    assert ent.name == f"Eve {EMAIL}" and out.entities[0].name == "Eve [REDACTED:email]"
    assert out.relations[0].source == "[REDACTED:email]" and out.redacted == 2


async def test_a_speaker_name_holding_pii_is_redacted(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    llm = ScriptedLLM(replies=[extraction()])
    pipe = WritePipeline(executor, hash_embedder, llm.chat(), WriteConfig(pii_mode="redact"))
    res = await pipe.write(agent_id, "I moved to Lisbon last week.", EMAIL)
    assert res.success, res.error
    assert prompts_leak(llm) == []
    assert leaks(await stored_values(executor, agent_id)) == []


FACTS_OF_EVE = [
    StructuredFact("Eve lives in Porto", "Eve"),
    StructuredFact("Eve works at Acme", "Eve"),
]


async def test_the_retrieve_query_reaches_the_reranker_redacted(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    from graph.memory.read import Retriever

    await remember(executor, hash_embedder, agent_id, facts=FACTS_OF_EVE)

    def scores(body: dict[str, Any]) -> dict[str, Any]:
        user = next(m["content"] for m in body["messages"] if m["role"] == "user")
        return {"scores": [{"i": f["i"], "score": 1.0} for f in json.loads(user)["facts"]]}

    llm = ScriptedLLM(by_stage={"relevance judge": [scores]})
    retriever = Retriever(executor, hash_embedder, llm.chat(), pii_mode="redact")
    result = await retriever.retrieve(
        agent_id, f"Where does Eve live? Answer to {EMAIL}, card {CARD}", options={"min_score": 0.0}
    )
    assert result.trace["rerank"]["status"] == "ok"
    assert llm.calls == 1 and prompts_leak(llm) == []
    assert "[REDACTED:email]" in json.dumps(llm.requests[0])


FORGET = """mutation($a: ID!, $f: ID!, $r: String) {
  forget(agentId: $a, factId: $f, reason: $r) { errors { code message } } }"""
MERGE = """mutation($a: ID!, $k: String!, $d: String!, $r: String) {
  mergeEntities(agentId: $a, keepKey: $k, dropKey: $d, reason: $r) { errors { code } } }"""
RUN_JOB = """mutation($a: ID!, $s: String) {
  runJob(agentId: $a, kind: PROFILE, subject: $s) { jobId errors { code message } } }"""
WRITE = """mutation($a: ID!, $t: String, $b: Boolean) {
  write(agentId: $a, speakerName: "Eve", message: "I moved to Lisbon.", threadId: $t,
        async: $b) { outcome { success } errors { code message } } }"""


async def test_reasons_thread_ids_and_job_subjects_are_redacted(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    memory = memory_for(executor, hash_embedder)  # pii_mode "redact" (the default setting)
    stored = await remember(
        executor,
        hash_embedder,
        agent_id,
        facts=FACTS_OF_EVE,
        entities=[StructuredEntity("Eve", "person"), StructuredEntity("Evie", "person")],
    )
    for query, variables in [
        (FORGET, {"f": stored.fact_ids[0], "r": f"asked by {EMAIL}"}),
        (MERGE, {"k": "person:eve", "d": "person:evie", "r": f"same person, see {EMAIL}"}),
        (RUN_JOB, {"s": f"person:{EMAIL}"}),
        (WRITE, {"t": f"thread-{EMAIL}", "b": False}),
        (WRITE, {"t": f"thread-{EMAIL}-async", "b": True}),
    ]:
        res = await gql(memory, query, {"a": agent_id, **variables})
        assert res.errors is None, res.errors
        payload = next(iter(res.data.values()))
        assert not payload.get("errors"), (query, payload)
    values = await stored_values(executor, agent_id)
    assert {label for label, _, _ in values} >= {"Audit", "Job", "Event"}
    assert leaks(values) == []


async def test_labels_in_reject_mode_are_refused_and_nothing_is_stored(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    memory = memory_for(executor, hash_embedder, settings=Settings(pii_mode="reject"))
    for query, variables in [
        (RUN_JOB, {"s": f"person:{EMAIL}"}),
        (WRITE, {"t": f"thread-{EMAIL}", "b": True}),
    ]:
        res = await gql(memory, query, {"a": agent_id, **variables})
        payload = next(iter(res.data.values()))
        assert [e["code"] for e in payload["errors"]] == ["BAD_INPUT"], payload
    assert await stored_values(executor, agent_id) == []


async def test_a_document_url_carrying_a_secret_is_refused(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    """A URL is fetched as given, so it cannot be redacted: one holding credentials or a
    clear PII span is refused (BAD_INPUT) in redact and reject mode, nothing stored."""
    from graph.errors import BadInput

    memory = memory_for(executor, hash_embedder)
    for url in (
        f"https://files.example.org/export?owner={EMAIL}",
        "https://eve:hunter2@files.example.org/notes.txt",
        "https://files.example.org/doc?key=sk-live-abcdefghijklmnop1234",
    ):
        with pytest.raises(BadInput, match="URL"):
            await memory.documents.ingest(agent_id, url=url)
    assert await stored_values(executor, agent_id) == []
