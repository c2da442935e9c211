"""Graphiti as a peer: its own virtual environment, its own Neo4j, a child process over JSON lines.

- ``ensure_venv`` creates ``.bench/graphiti-venv`` (git-ignored) on first use with
  ``python -m venv`` and ``pip install graphiti-core==…`` so the product's dependencies stay clean.
- ``PeerNeo4j`` starts a SECOND Neo4j with our runtime (``graph.runtime``) on ports 28687/28474
  in a throw-away home under ``.bench/``. It reuses the jars already assembled by a local install
  (this checkout's ``.hippograph/neo4j`` or the main worktree's) when the runtime accepts them as
  installed, else the runtime installs into the throw-away home. ``stop()`` stops it and
  deletes the home.
- ``GraphitiPeer`` runs ``graphiti_child.py`` in that venv and exchanges one JSON line per call.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from graph.runtime import LocalNeo4j, RuntimeConfig

ROOT = Path(__file__).resolve().parents[3]
BENCH_DIR = ROOT / ".bench"
VENV = BENCH_DIR / "graphiti-venv"
# 0.31.2 needs certifi>=2026.10.19, which the package index here does not have yet.
# graphiti-core 0.31.1 imports httpx without declaring it (its openai dependency no longer
# brings it), hence the second requirement.
GRAPHITI_REQUIREMENTS = ("graphiti-core==0.31.1", "httpx")
CHILD = Path(__file__).with_name("graphiti_child.py")
PASSWORD = "graphiti-bench"


class PeerUnavailable(Exception):
    """Graphiti could not be installed or started; the message carries the exact error."""


def _tail(text: str, lines: int = 15) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])


def ensure_venv(venv: Path = VENV, log: Callable[[str], object] = print) -> Path:
    """The venv's python, with graphiti-core importable (installed on first use)."""
    python = venv / "bin" / "python"
    if not python.exists():
        log(f"creating {venv} for Graphiti (once)")
        proc = subprocess.run(
            [sys.executable, "-m", "venv", str(venv)], capture_output=True, text=True, check=False
        )
        if proc.returncode != 0:
            raise PeerUnavailable(f"python -m venv failed:\n{_tail(proc.stderr)}")
    probe = subprocess.run(
        [str(python), "-c", "import graphiti_core"], capture_output=True, text=True, check=False
    )
    if probe.returncode != 0:
        log(f"pip install {' '.join(GRAPHITI_REQUIREMENTS)} into {venv}")
        proc = subprocess.run(
            [str(python), "-m", "pip", "install", "-q", *GRAPHITI_REQUIREMENTS],
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            raise PeerUnavailable(
                f"pip install {' '.join(GRAPHITI_REQUIREMENTS)} failed:\n"
                f"{_tail(proc.stdout + proc.stderr)}"
            )
    return python


def installed_neo4j_homes(project_home: Path) -> list[Path]:
    """Neo4j installs whose jars may be reused: this checkout's, then the main worktree's."""
    homes = [project_home / "neo4j"]
    proc = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--path-format=absolute", "--git-common-dir"],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode == 0 and proc.stdout.strip():
        homes.append(Path(proc.stdout.strip()).parent / ".hippograph" / "neo4j")
    return [h for h in dict.fromkeys(homes) if (h / ".installed").is_file()]


class PeerNeo4j:
    """The second, throw-away Neo4j that holds Graphiti's graph."""

    def __init__(
        self,
        project_home: Path,
        *,
        bolt_port: int = 28687,
        http_port: int = 28474,
        heap: str = "1g",
        pagecache: str = "1g",
        start_timeout_s: float = 120.0,
    ) -> None:
        BENCH_DIR.mkdir(exist_ok=True)
        self.home = Path(tempfile.mkdtemp(prefix="graphiti-neo4j-", dir=BENCH_DIR))
        self.project_home = project_home
        self.config = RuntimeConfig(
            home=self.home,
            password=PASSWORD,
            bolt_port=bolt_port,
            http_port=http_port,
            heap=heap,
            pagecache=pagecache,
            start_timeout_s=start_timeout_s,
        )
        self.runtime = LocalNeo4j(self.config)
        self.reused: Path | None = None

    @property
    def uri(self) -> str:
        return f"bolt://127.0.0.1:{self.config.bolt_port}"

    def _reuse_jars(self) -> None:
        neo_home = self.config.neo4j_home
        for source in installed_neo4j_homes(self.project_home):
            neo_home.mkdir(parents=True, exist_ok=True)
            for name in ("lib", "plugins"):
                (neo_home / name).symlink_to(source / name, target_is_directory=True)
            shutil.copy2(source / ".installed", neo_home / ".installed")
            if self.runtime.is_installed():
                self.reused = source
                return
            for name in ("lib", "plugins", ".installed"):
                (neo_home / name).unlink()

    def start(self, log: Callable[[str], object] = print) -> None:
        self._reuse_jars()
        if self.reused is None:
            log(f"installing a Neo4j into {self.home} (no reusable install found)")
            self.runtime = LocalNeo4j(
                RuntimeConfig(
                    home=self.home,
                    password=PASSWORD,
                    bolt_port=self.config.bolt_port,
                    http_port=self.config.http_port,
                    heap=self.config.heap,
                    pagecache=self.config.pagecache,
                    with_gds=False,
                    start_timeout_s=self.config.start_timeout_s,
                )
            )
        try:
            self.runtime.start(log)
        except Exception as exc:
            raise PeerUnavailable(f"second Neo4j did not start: {exc}") from exc

    def stop(self) -> None:
        try:
            self.runtime.stop()
        finally:
            shutil.rmtree(self.home, ignore_errors=True)


class GraphitiPeer:
    """Graphiti in its venv, against the second Neo4j, driven over JSON lines."""

    def __init__(
        self,
        project_home: Path,
        log: Callable[[str], object] = print,
        *,
        bolt_port: int = 28687,
        http_port: int = 28474,
        llm_base_url: str | None = None,
        start_timeout_s: float = 120.0,
    ) -> None:
        self.neo4j = PeerNeo4j(
            project_home, bolt_port=bolt_port, http_port=http_port, start_timeout_s=start_timeout_s
        )
        self.log = log
        self.llm_base_url = llm_base_url
        self.proc: asyncio.subprocess.Process | None = None
        self.version = "?"

    async def start(self) -> None:
        python = await asyncio.to_thread(ensure_venv, VENV, self.log)
        await asyncio.to_thread(self.neo4j.start, self.log)
        stderr = (BENCH_DIR / "graphiti-child.log").open("ab")
        self.proc = await asyncio.create_subprocess_exec(
            str(python),
            str(CHILD),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=stderr,
            limit=1 << 24,
        )
        answer = await self.call(
            {
                "op": "init",
                "uri": self.neo4j.uri,
                "user": "neo4j",
                "password": PASSWORD,
                "llm_base_url": self.llm_base_url,
            }
        )
        self.version = str(answer.get("version"))

    async def call(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.proc is not None and self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(request).encode() + b"\n")
        await self.proc.stdin.drain()
        line = await self.proc.stdout.readline()
        if not line:
            log_file = BENCH_DIR / "graphiti-child.log"
            raise PeerUnavailable(
                f"Graphiti child exited ({log_file}):\n"
                f"{_tail(log_file.read_text(errors='replace'), 6)}"
            )
        answer: dict[str, Any] = json.loads(line)
        if not answer.get("ok"):
            raise PeerUnavailable(f"Graphiti {request['op']} failed: {answer.get('error')}")
        return answer

    async def load(
        self, group: str, speakers: list[dict[str, Any]], facts: list[dict[str, Any]]
    ) -> None:
        for start in range(0, len(facts), 5000):
            await self.call(
                {
                    "op": "load",
                    "group": group,
                    "speakers": speakers,
                    "facts": facts[start : start + 5000],
                }
            )

    async def episode(self, group: str, name: str, body: str, when: str) -> float:
        """``add_episode`` of one message; the ms it took."""
        answer = await self.call(
            {"op": "episode", "group": group, "name": name, "body": body, "when": when}
        )
        return float(answer["ms"])

    async def search(
        self, group: str, query: str, vec: list[float], limit: int = 20
    ) -> tuple[list[str], float]:
        answer = await self.call(
            {"op": "search", "group": group, "query": query, "vec": vec, "limit": limit}
        )
        return list(answer["ids"]), float(answer["ms"])

    async def close(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.write(b'{"op": "quit"}\n')
                await self.proc.stdin.drain()
                await asyncio.wait_for(self.proc.wait(), 30)
            except (TimeoutError, OSError, BrokenPipeError):
                self.proc.kill()
        await asyncio.to_thread(self.neo4j.stop)
