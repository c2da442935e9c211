"""Peers benchmark: Hippograph vs Graphiti vs vector / BM25 / RRF on the same LoCoMo facts.

    .venv/bin/python -m tests.bench.peers ../shared/bench/locomo/locomo-dev.json

Per conversation (one agent / one Graphiti group each) the ``observation`` facts are loaded into
(a) Hippograph (structured ``remember`` as ``tests.bench.locomo``; ranked by ``Retriever``,
offline, no rerank), (b) Graphiti (graphiti-core in its own venv ``.bench/graphiti-venv``, its
graph in a second throw-away Neo4j on 28687; facts as EntityEdges speaker → fact node with
valid_at = session date, the same MiniLM vectors handed over, no LLM; ranked by its default
``search()``: BM25 + cosine + RRF over edges), (c) exact vector top-k (cosine, Neo4j),
(d) BM25 (Neo4j full-text, the keyword query of ``tests.bench.locomo``), (e) RRF (k=60) of
(c) and (d). Two modes: facts only, and facts + turns (every turn an Event; Graphiti stays
facts-only because ``search()`` returns only edges). Metric: evidence recall@5/10/20 and MRR by
dia_id for questions of categories 1-4, p50/p95 ms per query. Then latency with the first
conversation's facts padded by suffixed copies to ``--sizes`` facts in one agent (latency only).
The dataset is read from its path and never copied.
"""
