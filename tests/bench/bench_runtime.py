"""Foundation figures: Neo4j install time (cold and warm Maven cache), cold start time, resident
memory of the Java process after start, and embedder throughput.

    .venv/bin/python -m tests.bench.bench_runtime [--skip-cold]

Uses a throwaway server home and ports (27687/27474, below the ephemeral port range) so it never disturbs the main server.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import tempfile
import time
from pathlib import Path

from graph.providers import HashEmbedder, MiniLMEmbedder
from graph.providers.embedders import find_tokenizer
from graph.runtime import LocalNeo4j, RuntimeConfig
from server.settings import get_settings


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _timed(fn) -> float:  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def bench_neo4j(skip_cold: bool) -> dict[str, float]:
    out: dict[str, float] = {}
    work = Path(tempfile.mkdtemp(prefix="hg-bench-"))
    quiet = lambda _m: None  # noqa: E731
    try:
        if not skip_cold:
            cold = LocalNeo4j(
                RuntimeConfig(
                    home=work / "cold",
                    password="bench-pw-1",
                    with_gds=False,
                    mvn_args=(f"-Dmaven.repo.local={work / 'm2'}",),
                )
            )
            out["install_cold_cache_s"] = _timed(lambda: cold.install(log=quiet))
        warm = LocalNeo4j(
            RuntimeConfig(
                home=work / "warm",
                password="bench-pw-1",
                bolt_port=27687,
                http_port=27474,
                with_gds=False,
            )
        )
        out["install_warm_cache_s"] = _timed(lambda: warm.install(log=quiet))
        out["install_again_noop_s"] = _timed(lambda: warm.install(log=quiet))
        out["cold_start_s"] = _timed(lambda: warm.start(log=quiet))
        pid = warm.status().pid
        assert pid is not None
        time.sleep(2)
        out["rss_after_start_mb"] = _rss_mb(pid)
        out["stop_s"] = _timed(warm.stop)
        out["warm_restart_s"] = _timed(lambda: warm.start(log=quiet))
        warm.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out


def bench_embedder() -> dict[str, float]:
    texts = [
        f"Fact {i}: person {i % 97} moved to city {i % 13} after working at company {i % 7} "
        f"for {i % 9} years"
        for i in range(1024)
    ]
    minilm = MiniLMEmbedder(find_tokenizer(get_settings().home))
    minilm.embed_sync(texts[:32])  # warm-up
    t = _timed(lambda: minilm.embed_sync(texts))
    h = HashEmbedder()
    t_hash = _timed(lambda: asyncio.run(h.embed(texts)))
    return {"minilm_sentences_per_s": len(texts) / t, "hash_sentences_per_s": len(texts) / t_hash}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--skip-cold", action="store_true", help="skip the cold-cache install")
    args = parser.parse_args()
    figures = {**bench_embedder(), **bench_neo4j(args.skip_cold)}
    width = max(map(len, figures))
    for k, v in figures.items():
        print(f"{k:<{width}}  {v:10.2f}")
    if "install_cold_cache_s" in figures:
        ratio = figures["install_cold_cache_s"] / figures["install_warm_cache_s"]
        print(f"{'cold/warm install ratio':<{width}}  {ratio:10.2f}")


if __name__ == "__main__":
    main()
