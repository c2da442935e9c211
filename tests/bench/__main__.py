"""Run every benchmark at its default (bounded) size: ``make bench`` / ``python -m tests.bench``.

LoCoMo runs when its data file is found (``HIPPOGRAPH_LOCOMO`` or ../shared/bench/locomo/), and
so does the peers benchmark on it (Graphiti in .bench/graphiti-venv, created on first use; if
Graphiti cannot be installed or started the run says why and goes on without it), with its
figures in bench-results/peers.json. The multi-hop benchmark runs bounded (20 MuSiQue
questions, 400 passages, triples mode) when ../shared/bench/multihop/ is found, and the
bilingual one (Pirá, every question language against every memory language) when
../shared/bench/bilingual/ is.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCHES = ["bench_runtime", "bench_write", "bench_retrieve", "bench_api", "bench_jobs", "fuzz_text"]


def main() -> int:
    # Nothing to choose: the parser answers --help (which would otherwise start the whole set).
    argparse.ArgumentParser(
        prog="python -m tests.bench",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    ).parse_args()
    failures = 0
    runs: list[list[str]] = [[f"tests.bench.{name}"] for name in BENCHES]
    locomo = Path(
        os.environ.get("HIPPOGRAPH_LOCOMO", ROOT.parent / "shared/bench/locomo/locomo-dev.json")
    )
    if locomo.is_file():
        runs.append(["tests.bench.locomo", str(locomo)])
        runs.append(
            ["tests.bench.locomo_pipeline", str(locomo), "--conversations", "1", "--turns", "200"]
        )
        runs.append(["tests.bench.peers", str(locomo), "--out", "bench-results/peers.json"])
    else:
        print(f"(LoCoMo data not found at {locomo}; skipping that benchmark)")
    multihop = ROOT.parent / "shared/bench/multihop"
    if (multihop / "musique-openie-gpt35.json").is_file():
        runs.append(
            [
                "tests.bench.multihop",
                "--questions",
                str(multihop / "musique-dev.json"),
                "--corpus",
                str(multihop / "musique-corpus.json"),
                "--openie",
                str(multihop / "musique-openie-gpt35.json"),
                "--mode",
                "triples",
                "--limit-questions",
                "20",
                "--limit-passages",
                "400",
            ]
        )
    bilingual = ROOT.parent / "shared/bench/bilingual"
    if (bilingual / "pira-corpus-mixed.json").is_file():
        runs.append(["tests.bench.bilingual", "--data", str(bilingual)])
    for args in runs:
        print(f"\n===== {' '.join(args)} =====", flush=True)
        failures += subprocess.call([sys.executable, "-m", *args], cwd=ROOT) != 0
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
