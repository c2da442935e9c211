"""The OpenAI Agents example, run as a person runs it without a model key: it says what it needs
and exits with status 2, no traceback, before it contacts anything."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

EXAMPLE = (
    Path(__file__).resolve().parents[3]
    / "gql"
    / "clients"
    / "python"
    / "examples"
    / "openai_agents_memory.py"
)


def test_the_agents_example_without_a_key_says_what_it_needs() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "http://127.0.0.1:9/graphql"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "OPENAI_API_KEY" in done.stderr and "OPENAI_BASE_URL" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout
