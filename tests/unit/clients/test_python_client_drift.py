"""The committed Python client is what gql/schema.graphql generates today (the test command
fails on drift: regenerate with `python gql/clients/python/generate.py`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_the_python_client_matches_the_schema() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "gql/clients/python/generate.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
