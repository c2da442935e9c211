"""The TypeScript client package (gql/clients/typescript) as its users build it — typed
documents generated from the schema, compiled with tsc — and its node tests (scripted retries,
then typed data, pages and typed errors against the live API)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.e2e.conftest import LiveApi

pytestmark = pytest.mark.e2e

PACKAGE = Path(__file__).resolve().parents[2] / "gql" / "clients" / "typescript"
BIN = PACKAGE / "node_modules" / ".bin"


def run(*cmd: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=PACKAGE, capture_output=True, text=True, timeout=600, env=env)


def test_the_package_builds_and_its_tests_pass_against_the_api(
    live_api: LiveApi, demo_agent: str
) -> None:
    assert shutil.which("node"), "node is required for the TypeScript client"
    assert (BIN / "tsc").exists(), (
        "run scripts/bootstrap.sh --test (npm ci in gql/clients/typescript)"
    )
    for step in (
        (str(BIN / "graphql-codegen"), "--config", "codegen.yml"),
        (str(BIN / "tsc"), "-p", "."),
    ):
        done = run(*step)
        assert done.returncode == 0, done.stdout + done.stderr
    env = {
        **os.environ,
        "HIPPOGRAPH_URL": f"{live_api.url}/graphql",
        "HIPPOGRAPH_KEY": live_api.admin_key,
        "HIPPOGRAPH_AGENT": demo_agent,
    }
    done = run("node", "--test", "dist/test/", env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# pass 8" in done.stdout and "# skipped 0" in done.stdout, done.stdout
