"""``hippograph serve --workers 2``: two API processes on one port, each told it holds half of
the per-key rate budget, so the cluster grants at most the configured figure. Started as a
person starts it (the ``hippograph`` console script), no worker process dies on the way: the
supervisor's health check is answered while the workers import and warm up."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.e2e.conftest import free_port, wait_healthy
from tests.processes import stop

ROOT = Path(__file__).resolve().parents[2]


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry.name))
    return out


def test_serve_workers_runs_n_processes_sharing_the_rate_budget(tmp_path: Path) -> None:
    port = free_port()
    admin = "hg_workers_" + secrets.token_urlsafe(32)
    env = {k: v for k, v in os.environ.items() if not k.startswith("HIPPOGRAPH_LLM")}
    env.update(
        {
            "HIPPOGRAPH_ADMIN_API_KEY": admin,
            "HIPPOGRAPH_RATE_LIMIT_PER_MINUTE": "4",
            "HIPPOGRAPH_WORKER_ENABLED": "false",
            "PYTHONPATH": str(ROOT),
        }
    )
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                str(Path(sys.executable).with_name("hippograph")),
                "serve",
                "--port",
                str(port),
                "--workers",
                "2",
            ],
            env=env,
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc, timeout_s=90)
        workers = [
            p
            for p in _children(proc.pid)
            if b"spawn_main" in Path(f"/proc/{p}/cmdline").read_bytes()
        ]
        assert len(workers) == 2, workers
        codes = []
        for _ in range(12):  # a new connection each time: the kernel picks the process
            with httpx.Client(headers={"Authorization": f"Bearer {admin}"}) as client:
                codes.append(
                    client.post(f"{url}/graphql", json={"query": "{ __typename }"}).status_code
                )
        granted = codes.count(200)
        # 4 per minute over 2 processes: each grants 2, so 2 to 4 in all, never more.
        assert 2 <= granted <= 4 and set(codes) == {200, 429}, codes
    finally:
        if not stop(proc):
            pytest.fail("serve did not stop on SIGTERM")
    said = log.read_text(errors="replace")
    assert "died" not in said and "not ready in time" not in said, said
