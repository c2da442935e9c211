"""Codegen as TypeScript users do it: @graphql-codegen generates typed documents from
gql/schema.graphql + tests/e2e/operations, ``tsc`` type-checks a small client (and rejects a
wrong field), and the compiled client runs against the live API with node."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.e2e.conftest import LiveApi

pytestmark = pytest.mark.e2e

TS = Path(__file__).resolve().parent / "ts"
BIN = TS / "node_modules" / ".bin"


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=TS, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def generated() -> Path:
    assert shutil.which("node"), "node is required for the TypeScript client check"
    assert (BIN / "graphql-codegen").exists(), (
        "npm packages missing: run scripts/bootstrap.sh --test (npm ci in tests/e2e/ts)"
    )
    done = _run(str(BIN / "graphql-codegen"), "--config", "codegen.yml")
    assert done.returncode == 0, done.stdout + done.stderr
    out = TS / "src" / "generated" / "graphql.ts"
    assert "EntityCardDocument" in out.read_text()
    return out


@pytest.fixture(scope="module")
def built(generated: Path) -> Path:
    """The client compiled to dist/ by ``tsc``, which type-checks it on the way (any type error
    is a non-zero exit)."""
    build = _run(str(BIN / "tsc"), "-p", "tsconfig.json")
    assert build.returncode == 0, build.stdout + build.stderr
    return TS / "dist" / "client.js"


def test_client_type_checks_and_wrong_fields_do_not(built: Path) -> None:
    assert built.is_file()  # tsc compiled the client without a type error
    wrong = TS / "src" / "wrong_field.ts"
    wrong.write_text(
        'import type { EntityCardQuery, JobStatus } from "./generated/graphql.js";\n'
        "export const f = (q: EntityCardQuery): string => q.entity?.nickname ?? '';\n"
        'export const s: JobStatus = "pending";\n'
    )
    try:
        bad = _run(str(BIN / "tsc"), "--noEmit", "-p", "tsconfig.json")
    finally:
        wrong.unlink()
    assert bad.returncode != 0 and "nickname" in bad.stdout
    assert '"pending"' in bad.stdout and "JobStatus" in bad.stdout  # strings are not enums


def test_compiled_client_talks_to_the_live_api(
    built: Path, live_api: LiveApi, demo_agent: str
) -> None:
    done = _run("node", str(built), f"{live_api.url}/graphql", live_api.admin_key, demo_agent)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["name"] == "Guilherme Maturana" and summary["activeFacts"] > 0
    assert summary["people"] >= 4
    assert summary["kinds"] and set(summary["kinds"]) == {"PREFERENCE"}
    assert summary["audits"] and summary["adds"] == summary["audits"]
    assert set(summary["jobStatuses"]) <= {"DONE"}
    # Incoming edges name the other end as their source (Helena -[sibling_of]-> Guilherme).
    assert summary["incoming"] and all(
        s.endswith("-> person:guilherme_maturana") for s in summary["incoming"]
    )
