"""Every ```graphql block in README.md and docs/*.md runs against the seeded demo agent over
the live API; only blocks that demonstrate errors (named ``TooLarge``...) may fail, and then
only with a typed code."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from tests.e2e.conftest import LiveApi

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"```graphql\n(.*?)```", re.S)
EXPECTED_ERRORS = {"TooLarge": "BAD_INPUT"}
# Blocks that name a public host: without DNS (the tests run offline) the only payload error
# they may answer is that the host cannot be resolved.
OFFLINE_REFUSALS = {"RegisterWebhook": "cannot resolve 'hooks.example.com'"}


def examples() -> list[tuple[str, str]]:
    found = []
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        if doc.exists():
            for i, block in enumerate(BLOCK.findall(doc.read_text())):
                found.append((f"{doc.name}#{i}", block))
    return found


def _name(op: str) -> str | None:
    m = re.search(r"\b(?:query|mutation)\s+(\w+)", op)
    return m.group(1) if m else None


def test_there_are_examples() -> None:
    assert len(examples()) >= 8


@pytest.mark.parametrize(("where", "op"), examples(), ids=[w for w, _ in examples()])
def test_example_runs(live_api: LiveApi, where: str, op: str) -> None:
    resp = httpx.post(
        f"{live_api.url}/graphql", json={"query": op}, headers=live_api.headers, timeout=120
    )
    assert resp.status_code == 200, resp.text
    body = resp.json()
    expected = EXPECTED_ERRORS.get(_name(op) or "")
    if expected:
        assert body["errors"][0]["extensions"]["code"] == expected
        return
    assert "errors" not in body, (where, body)
    for value in (body["data"] or {}).values():
        assert value is not None, (where, body)
        if isinstance(value, dict) and "errors" in value:
            refusal = OFFLINE_REFUSALS.get(_name(op) or "")
            errors = [e for e in value["errors"] if not (refusal and refusal in e["message"])]
            assert errors == [], (where, value)
