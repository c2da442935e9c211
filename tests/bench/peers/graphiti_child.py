"""Graphiti side of the peers benchmark: runs INSIDE the Graphiti virtual environment.

Started by :mod:`tests.bench.peers.graphiti_peer` as ``<venv>/bin/python graphiti_child.py``; it
imports only the standard library and ``graphiti_core`` (never the project). It speaks JSON lines:
one request per stdin line, one answer per stdout line (``{"ok": true, ...}`` or
``{"ok": false, "error": "..."}``). Requests:

- ``{"op": "init", "uri", "user", "password"}``: connect, build Graphiti's indices.
- ``{"op": "load", "group", "speakers": [{"name", "vec"}], "facts": [{"id", "text", "speaker", "valid_at",
  "vec"}]}``: each fact becomes an EntityEdge speaker → fact node (``valid_at`` = the
  session date, ``fact_embedding`` = the vector handed over),
  saved with Graphiti's own bulk writer. No LLM: the clients below raise if anything calls them.
- ``{"op": "init", ..., "llm_base_url"}``: as above, but Graphiti's own OpenAI-compatible
  client (``OpenAIGenericClient``, json_schema structured output) talks to that endpoint (the
  LLM cost benchmark's scripted endpoint) and embeddings come from a local hash embedder.
- ``{"op": "episode", "group", "name", "body", "when"}``: ``Graphiti.add_episode`` of one
  message (``EpisodeType.message``); answers the ms spent.
- ``{"op": "search", "group", "query", "vec", "limit"}``: ``Graphiti.search()`` (its default
  BM25 + cosine + RRF edge search); answers the edge uuids (= our fact ids) and the ms spent.
- ``{"op": "quit"}``.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

os.environ.setdefault("GRAPHITI_TELEMETRY_ENABLED", "false")

from graphiti_core import Graphiti  # type: ignore[import-not-found]
from graphiti_core.cross_encoder.client import CrossEncoderClient  # type: ignore
from graphiti_core.edges import EntityEdge  # type: ignore
from graphiti_core.embedder.client import EmbedderClient  # type: ignore
from graphiti_core.llm_client.client import LLMClient  # type: ignore
from graphiti_core.nodes import EntityNode  # type: ignore
from graphiti_core.utils.bulk_utils import add_nodes_and_edges_bulk  # type: ignore

CHUNK = 2000
OUT = sys.stdout
sys.stdout = sys.stderr  # only answers go to the parent's pipe; any stray print goes to the log


class NoLLM(LLMClient):  # type: ignore[misc]
    """The benchmark loads facts directly: any LLM call is a bug, so it fails loudly."""

    async def _generate_response(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        raise RuntimeError("Graphiti tried to call an LLM during the peers benchmark")


class NoCrossEncoder(CrossEncoderClient):  # type: ignore[misc]
    async def rank(self, query: str, passages: list[str]) -> list[tuple[str, float]]:
        raise RuntimeError("Graphiti tried to call a cross-encoder during the peers benchmark")


class LookupEmbedder(EmbedderClient):  # type: ignore[misc]
    """Hands back the MiniLM vectors the parent computed (the same ones Hippograph uses)."""

    def __init__(self) -> None:
        self.vectors: dict[str, list[float]] = {}

    async def create(self, input_data: str | Iterable[Any]) -> list[float]:
        text = input_data if isinstance(input_data, str) else next(iter(input_data))
        try:
            return self.vectors[text]
        except KeyError:
            raise KeyError(f"no vector handed over for {text!r}") from None

    async def create_batch(self, input_data_list: list[str]) -> list[list[float]]:
        return [await self.create(t) for t in input_data_list]


class HashEmbedder(EmbedderClient):  # type: ignore[misc]
    """Deterministic local vectors (the LLM cost benchmark measures LLM calls, not recall)."""

    DIM = 64

    async def create(self, input_data: str | Iterable[Any]) -> list[float]:
        import hashlib
        import math

        text = input_data if isinstance(input_data, str) else str(next(iter(input_data)))
        vec = [0.0] * self.DIM
        for word in text.lower().split():
            h = hashlib.sha256(word.encode()).digest()
            vec[h[0] % self.DIM] += 1.0 if h[1] % 2 else -1.0
        norm = math.sqrt(sum(v * v for v in vec)) or 1.0
        return [v / norm for v in vec]

    async def create_batch(self, input_data_list: list[str]) -> list[list[float]]:
        return [await self.create(t) for t in input_data_list]


class Child:
    def __init__(self) -> None:
        self.graphiti: Any = None
        self.embedder = LookupEmbedder()
        self.speaker_uuid: dict[tuple[str, str], str] = {}

    async def init(self, req: dict[str, Any]) -> dict[str, Any]:
        llm: Any = NoLLM(None)
        embedder: Any = self.embedder
        if req.get("llm_base_url"):
            from graphiti_core.llm_client.config import LLMConfig  # type: ignore
            from graphiti_core.llm_client.openai_generic_client import (  # type: ignore
                OpenAIGenericClient,
            )

            llm = OpenAIGenericClient(
                LLMConfig(
                    api_key="scripted",
                    model="scripted",
                    small_model="scripted",
                    base_url=req["llm_base_url"],
                )
            )
            embedder = HashEmbedder()
        self.graphiti = Graphiti(
            req["uri"],
            req["user"],
            req["password"],
            llm_client=llm,
            embedder=embedder,
            cross_encoder=NoCrossEncoder(),
        )
        await self.graphiti.build_indices_and_constraints()
        import graphiti_core  # type: ignore[import-not-found]

        version = getattr(graphiti_core, "__version__", None)
        if version is None:
            from importlib.metadata import version as dist_version

            version = dist_version("graphiti-core")
        return {"version": version}

    async def load(self, req: dict[str, Any]) -> dict[str, Any]:
        group, now = req["group"], datetime.now(UTC)
        nodes: list[Any] = []
        for speaker in req["speakers"]:
            name = speaker["name"]
            if (group, name) not in self.speaker_uuid:
                node = EntityNode(
                    name=name,
                    group_id=group,
                    labels=["Entity"],
                    created_at=now,
                    name_embedding=speaker["vec"],
                )
                self.speaker_uuid[(group, name)] = node.uuid
                nodes.append(node)
        edges: list[Any] = []
        for f in req["facts"]:
            vec = f["vec"]
            when = datetime.fromisoformat(f["valid_at"]) if f.get("valid_at") else None
            target = EntityNode(
                name=f["text"][:200],
                group_id=group,
                labels=["Entity"],
                created_at=when or now,
                name_embedding=vec,
            )
            nodes.append(target)
            edges.append(
                EntityEdge(
                    uuid=f["id"],
                    group_id=group,
                    name="OBSERVED",
                    source_node_uuid=self.speaker_uuid[(group, f["speaker"])],
                    target_node_uuid=target.uuid,
                    fact=f["text"],
                    fact_embedding=vec,
                    created_at=when or now,
                    valid_at=when,
                )
            )
        for start in range(0, max(len(nodes), len(edges)), CHUNK):
            await add_nodes_and_edges_bulk(
                self.graphiti.driver,
                [],
                [],
                nodes[start : start + CHUNK],
                edges[start : start + CHUNK],
                self.embedder,
            )
        return {"n": len(edges)}

    async def episode(self, req: dict[str, Any]) -> dict[str, Any]:
        from graphiti_core.nodes import EpisodeType  # type: ignore

        started = time.perf_counter()
        await self.graphiti.add_episode(
            name=req["name"],
            episode_body=req["body"],
            source=EpisodeType.message,
            source_description="conversation message",
            reference_time=datetime.fromisoformat(req["when"]),
            group_id=req["group"],
        )
        return {"ms": (time.perf_counter() - started) * 1000}

    async def search(self, req: dict[str, Any]) -> dict[str, Any]:
        self.embedder.vectors[req["query"].replace("\n", " ")] = req["vec"]
        started = time.perf_counter()
        edges = await self.graphiti.search(
            req["query"], group_ids=[req["group"]], num_results=req.get("limit", 20)
        )
        ms = (time.perf_counter() - started) * 1000
        return {"ids": [e.uuid for e in edges], "ms": ms}

    async def serve(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            line = await loop.run_in_executor(None, sys.stdin.readline)
            if not line:
                break
            req = json.loads(line)
            if req["op"] == "quit":
                break
            try:
                answer = {"ok": True, **(await getattr(self, req["op"])(req))}
            except Exception as exc:  # reported to the parent, which stops the run
                answer = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
            OUT.write(json.dumps(answer) + "\n")
            OUT.flush()
        if self.graphiti is not None:
            await self.graphiti.close()


if __name__ == "__main__":
    asyncio.run(Child().serve())
