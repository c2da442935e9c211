"""Proof of erase on the real Neo4j: a unique marker goes in through every input path (a
message, earlier messages, remember, a document's text and URL, a forget reason, a thread id, a
job subject, entities merged into the subject through a chain of merges); erasing the subject it
names leaves no property of any node or relationship in the whole database holding it, the audit
records keep no hash a guess of the subject could be checked against, and the agent's other
facts retrieve as before. Erasing a fact does the same for its message, also where a later async
write kept it as an earlier message; an erase empties the process's caches of embedded text."""

from __future__ import annotations

import hashlib
import http.server
import random
import string
import threading
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from graph.executor import Executor
from graph.memory.erase import erase_target
from graph.memory.facade import Memory
from graph.memory.jobs import Worker
from graph.memory.maintenance.kinds import maintenance_spec
from graph.memory.read.rerank import EmbeddingRescorer
from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation
from graph.providers import Embedder, HashEmbedder
from server.composition import default_handlers
from server.settings import Settings
from tests.cypher import load_query
from tests.integration.gql.support import load_story, memory_for

pytestmark = pytest.mark.neo4j

QUESTIONS = ("Where does Clara Rezende work?", "Where does Clara live?", "Vertix office")


def _marker() -> str:
    return "Zylv" + "".join(random.choices(string.ascii_lowercase, k=8))


@pytest.fixture
def served(request: pytest.FixtureRequest) -> Iterator[tuple[str, dict[str, bytes]]]:
    """A loopback HTTP server answering the documents the test puts in its dict."""
    pages: dict[str, bytes] = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = pages.get(self.path)
            self.send_response(200 if body is not None else 404)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.end_headers()
            self.wfile.write(body or b"")

        def log_message(self, *args: object) -> None:
            return None

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", pages
    server.shutdown()


async def _scan(executor: Executor, needle: str) -> list[dict[str, object]]:
    return await executor.run_text(
        load_query("scan_text"), {"needle": needle.lower(), "limit": 10_000}, read=True
    )


async def _no_checkable_hash(executor: Executor, agent_id: str, guesses: list[str]) -> None:
    """No audit record of the agent keeps a plain sha256 of a guess (a key, a name)."""
    audits = await executor.run_text(load_query("erase_audits"), {"agent_id": agent_id}, read=True)
    assert any(a["action"] == "ERASE" for a in audits)
    kept = " ".join(str(a[f]) for a in audits for f in ("target_id", "text_hash"))
    for guess in guesses:
        assert hashlib.sha256(guess.encode()).hexdigest()[:32] not in kept, guess


async def _run_jobs(memory: Memory, agent_id: str) -> int:
    worker = Worker(memory.job_deps(), default_handlers(), agent_id=agent_id)
    return await worker.run_until_idle()


async def _retrieved(memory: Memory, agent_id: str) -> dict[str, list[tuple[str, str]]]:
    return {
        q: [(f.id, f.text) for f in (await memory.retriever.retrieve(agent_id, q)).facts]
        for q in QUESTIONS
    }


async def test_erasing_a_subject_leaves_no_trace_of_it_anywhere(
    executor: Executor,
    hash_embedder: HashEmbedder,
    agent_id: str,
    served: tuple[str, dict[str, bytes]],
) -> None:
    marker = _marker()
    key = f"person:{marker.lower()}"
    memory = memory_for(executor, hash_embedder, settings=Settings(url_fetch_allow_private=True))
    base, pages = served

    # The agent's other memory, which must survive untouched.
    await load_story(executor, hash_embedder, agent_id)
    await memory.writer.write(
        agent_id, "Clara Rezende goes swimming every Tuesday.", "Bruno", thread_id="chat-clara"
    )

    # The marker, through every input path.
    await memory.admin.remember(
        agent_id,
        entities=[
            StructuredEntity(name=marker, type="person", aliases=[f"{marker}inho"]),
            StructuredEntity(name=f"{marker} Senior", type="person", profile_text="retired"),
            StructuredEntity(name=f"{marker} Junior", type="person"),
        ],
        facts=[
            StructuredFact(text=f"{marker} speaks four languages", subject=marker),
            StructuredFact(
                text=f"{marker} is a friend of Clara Rezende",
                subject=marker,
                entities=["Clara Rezende"],
            ),
        ],
        relations=[StructuredRelation(source=marker, target="Clara Rezende", type="friend_of")],
    )
    written = await memory.writer.write(
        agent_id,
        f"{marker} works at the Lisbon aquarium.",
        "Bruno",
        thread_id=f"chat-{marker}",
        idempotency_key=f"msg-{marker}",
    )
    assert written.success
    await memory.write_async(
        agent_id,
        f"{marker} adopted a grey cat named Miso.",
        "Bruno",
        recent_messages=[f"Bruno: have you met {marker}?"],
    )
    await memory.documents.ingest(
        agent_id,
        text=f"# Notes\n\n{marker} studied marine biology in Porto. {marker} dives on weekends.",
    )
    pages[f"/{marker}.txt"] = f"Profile\n\n{marker} grew up in Faro.".encode()
    await memory.documents.ingest(agent_id, url=f"{base}/{marker}.txt")
    await memory.queue.enqueue(maintenance_spec("profile", agent_id, key))
    await _run_jobs(memory, agent_id)
    forgotten = [
        f
        for f in (await memory.browse.facts(agent_id, entity_key=key)).items
        if "languages" in f.text
    ]
    await memory.admin.forget(agent_id, forgotten[0].id, f"{marker} asked to drop it")
    # A merge chain into the subject: Senior into Junior, then Junior into the subject.
    senior, junior = f"{key}_senior", f"{key}_junior"
    await memory.admin.merge_entities(agent_id, junior, senior, reason=f"{marker} is one person")
    await memory.admin.merge_entities(agent_id, key, junior)
    before = await _retrieved(memory, agent_id)
    found = await _scan(executor, marker)
    # Every path did store the marker somewhere (else the proof below would prove nothing).
    labels = {(r["label"], r["key"]) for r in found}
    for expected in [
        ("Event", "text"),
        ("Event", "thread_id"),
        ("Fact", "text"),
        ("Entity", "name"),
        ("Alias", "text"),
        ("Audit", "reason"),
        ("Job", "payload"),
        ("Job", "subject"),
        ("Document", "url"),
        ("Chunk", "text"),
        ("WriteReceipt", "result"),
    ]:
        assert expected in labels, (expected, sorted(labels))

    written_at = datetime.now(UTC)
    then = await memory.retriever.retrieve(agent_id, f"{marker} languages", as_of=written_at)
    assert marker.lower() in then.context.lower()  # time travel showed it before the erase

    report = await memory.erase(erase_target(agent_id, entity_key=key))

    assert report.facts >= 5 and report.events >= 3 and report.documents == 2
    assert report.entities >= 3  # the subject, both entities of its merge chain, orphans
    leftover = await _scan(executor, marker)
    assert leftover == [], leftover
    listed = await memory.browse.entities(agent_id, include_merged=True, first=100)
    assert not {key, junior, senior} & {e.key for e in listed.items}
    await _no_checkable_hash(executor, agent_id, [key, junior, senior, marker])
    after = await _retrieved(memory, agent_id)
    # Every other fact a question found is still found. Their order may change: the erased
    # subject was a neighbour of the people they name (a friend of Clara), and graph signals
    # weigh a fact against its neighbourhood, so the ranking is now the one without it.
    for question, hits in before.items():
        others = [i for i, text in hits if marker.lower() not in text.lower()]
        assert others, question
        assert set(others) <= {i for i, _ in after[question]}, question
    # Time travel to before the erase does not bring the text back either.
    past = await memory.retriever.retrieve(agent_id, f"{marker} languages", as_of=written_at)
    assert marker.lower() not in past.context.lower()


async def test_erasing_a_fact_leaves_no_trace_of_its_message_anywhere(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str
) -> None:
    """The fact's message was also kept as an earlier message by later async writes (in their
    job payloads, done and pending): the erase takes it from there too, and the jobs stay."""
    marker = _marker().lower()
    memory = memory_for(executor, hash_embedder)
    message = f"My neighbour {marker} moved to Lisbon in May."
    written = await memory.writer.write(agent_id, message, "Rafael", idempotency_key=marker)
    done = await memory.write_async(
        agent_id, "I adopted a grey cat.", "Rafael", recent_messages=[f"Rafael: {message}"]
    )
    await _run_jobs(memory, agent_id)
    pending = await memory.write_async(
        agent_id, "The cat is called Miso.", "Rafael", recent_messages=[message, "nice!"]
    )
    labels = {(r["label"], r["key"]) for r in await _scan(executor, marker)}
    assert {("Event", "text"), ("Fact", "text"), ("Job", "payload")} <= labels, labels

    report = await memory.erase(erase_target(agent_id, fact_id=written.facts_added[0].id))

    assert report.job_contexts == 2 and report.events == 1
    assert await _scan(executor, marker) == []
    for accepted in (done, pending):
        job = await memory.queue.get(accepted.job_id or "")
        assert job is not None and job.payload["event_id"] == accepted.event_id
    await _no_checkable_hash(executor, agent_id, [written.facts_added[0].id, message])


async def test_an_erase_empties_the_process_caches_of_embedded_text(
    executor: Executor, embedder: Embedder, agent_id: str
) -> None:
    """The embedder's cache (names, by a keyed digest: no text) and the re-scorer's cache of fact
    vectors hold nothing after an erase in this process."""
    marker = _marker()
    memory = memory_for(executor, embedder)
    rescorer = EmbeddingRescorer(HashEmbedder(64))
    memory.retriever.rescorer = rescorer
    await memory.admin.remember(
        agent_id,
        entities=[StructuredEntity(name=marker, type="person")],
        facts=[StructuredFact(text=f"{marker} speaks four languages", subject=marker)],
    )
    await embedder.embed([marker])
    await rescorer.warm([f"{marker} speaks four languages"])
    cache = getattr(embedder, "_cache", None)
    assert cache and all(isinstance(k, bytes) for k in cache)
    assert marker not in repr(list(cache)) and rescorer._cache

    await memory.erase(erase_target(agent_id, entity_key=f"person:{marker.lower()}"))

    assert not getattr(embedder, "_cache", None) and not rescorer._cache
