"""Document ingest of a 1 MB markdown file through the REAL pipeline (offline extractor, MiniLM
embedder): chunking, chunk embedding, one extraction job per chunk, progress, then retrieval of
facts from the document. Prints time, chunks/s, facts and whether the checks hold.

    .venv/bin/python -m tests.bench.bench_documents [--bytes 1000000] [--workers 2] [--keep]
"""

from __future__ import annotations

import argparse
import asyncio
import time
import uuid

from graph.agent_deletion import delete_agent
from graph.executor import connect
from graph.memory.documents import document_progress, ingest_document
from graph.memory.jobs import DocumentConfig, JobDeps, JobQueue, JobsConfig, WorkerConfig
from graph.memory.jobs.worker import Worker
from graph.memory.read import Retriever
from graph.memory.write import WritePipeline
from graph.progress import progress_bar
from graph.providers import MiniLMEmbedder
from graph.providers.embedders import find_tokenizer
from graph.schema import ensure_schema
from server.composition import default_handlers
from server.settings import get_settings
from tests.cypher import load_query
from tests.integration.jobs.markdown_gen import make_markdown


async def run(size: int, n_workers: int, keep: bool) -> int:
    s = get_settings()
    ex = connect(s.bolt_uri, s.neo4j_user, s.neo4j_secret(), s.neo4j_database)
    embedder = MiniLMEmbedder(find_tokenizer(s.home))
    await ensure_schema(ex, embedder.dimensions)
    agent = f"bench-doc-{uuid.uuid4().hex[:8]}"
    cfg = JobsConfig(
        worker=WorkerConfig(poll_interval_s=0.05, reaper_interval_s=5.0),
        documents=DocumentConfig(chunk_chars=4_000, chunk_overlap=300),
    )
    deps = JobDeps(
        executor=ex,
        queue=JobQueue(ex),
        embedder=embedder,
        config=cfg,
        writer=WritePipeline(ex, embedder, None),
    )
    text = make_markdown(size)
    t0 = time.perf_counter()
    accepted = await ingest_document(
        ex,
        deps.queue,
        agent,
        text=text,
        fmt="markdown",
        source="chronicle.md",
        config=cfg.documents,
    )
    handlers = {
        k: h for k, h in default_handlers().items() if k in ("document_ingest", "chunk_extract")
    }
    workers = [Worker(deps, handlers, agent_id=agent) for _ in range(n_workers)]
    tasks = [asyncio.create_task(w.run()) for w in workers]
    bar = progress_bar(total=100, desc="ingest 1 MB", unit="%")
    try:
        while True:
            progress = await document_progress(ex, agent, accepted.document_id)
            bar.n = round(progress.fraction * 100)
            bar.refresh()
            if progress.complete:
                break
            await asyncio.sleep(1.0)
    finally:
        bar.close()
        await asyncio.gather(*(w.stop() for w in workers))
        await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - t0
    retriever = Retriever(ex, embedder, None)
    result = await retriever.retrieve(agent, "Where does Clara Rezende live?")
    facts = await ex.run_text(load_query("count_agent_facts"), {"agent_id": agent}, read=True)
    n_facts = int(facts[0]["facts"])
    hit = any("Clara Rezende" in f.text and "lives in" in f.text for f in result.facts)
    print(f"bytes                 {len(text.encode()):>10}")
    print(f"chunks                {progress.chunks:>10}")
    print(f"elapsed_s             {elapsed:>10.1f}")
    print(f"chunks_per_s          {progress.chunks / elapsed:>10.2f}")
    print(f"active_facts          {n_facts:>10}")
    print(
        f"retrieval_check       {'ok' if hit else 'FAILED':>10}  (a 'Clara Rezende lives in …' fact among the results)"
    )
    print(f"top_fact              {result.facts[0].text if result.facts else '-'}")
    if not keep:
        await delete_agent(ex, agent)
    await ex.close()
    return 0 if hit and progress.complete and n_facts > 0 else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bytes", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep the agent's data afterwards")
    args = parser.parse_args()
    raise SystemExit(asyncio.run(run(args.bytes, args.workers, args.keep)))


if __name__ == "__main__":
    main()
