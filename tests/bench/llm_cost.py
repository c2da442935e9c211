"""LLM cost per message, ours beside Graphiti's ``add_episode``, through ONE scripted endpoint.

Used by ``python -m tests.bench.locomo_pipeline … --scripted-llm [--graphiti]``: the pipeline's
LLM path talks to :class:`~tests.bench.scripted_endpoint.ScriptedEndpoint` under the tag
``hippograph``; with ``--graphiti`` the same turns then go through Graphiti (graphiti-core in
its own venv, its own throw-away Neo4j, see ``tests.bench.peers.graphiti_peer``) whose
OpenAI-compatible client points at the same endpoint under the tag ``graphiti``. Both are
counted by the endpoint the same way (calls, prompt/completion characters, estimated tokens).
"""

from __future__ import annotations

import os
import statistics
import uuid
from pathlib import Path
from typing import Any

from tests.bench.scripted_endpoint import ScriptedEndpoint, TagCounts

__all__ = ["graphiti_episodes", "print_cost_table"]


async def graphiti_episodes(
    endpoint: ScriptedEndpoint,
    project_home: Path,
    convs: list[tuple[str, list[Any]]],
    recent_n: int,
    ports: tuple[int, int],
    bar: Any,
) -> list[float]:
    """Every turn through Graphiti's ``add_episode`` in order (one group per conversation);
    returns ms per message. ``convs``: (conversation id, turns with speaker/text/when)."""
    from tests.bench.peers.graphiti_peer import GraphitiPeer

    peer = GraphitiPeer(
        project_home,
        log=lambda m: print(f"  graphiti: {m}"),
        bolt_port=ports[0],
        http_port=ports[1],
        llm_base_url=endpoint.base_url("graphiti"),
    )
    ms: list[float] = []
    try:
        await peer.start()
        print(f"  graphiti-core {peer.version} on {peer.neo4j.uri}")
        run = uuid.uuid4().hex[:6]
        for conv_id, turns in convs:
            group = f"cost_{conv_id}_{run}".replace("-", "_")
            recent: list[str] = []
            for turn in turns:
                endpoint.current(turn.text, turn.speaker, recent[-recent_n:])
                ms.append(
                    await peer.episode(
                        group, turn.dia_id, f"{turn.speaker}: {turn.text}", turn.when.isoformat()
                    )
                )
                recent.append(f"{turn.speaker}: {turn.text}")
                bar.update(1)
    finally:
        await peer.close()
    return ms


def print_cost_table(
    endpoint: ScriptedEndpoint, n_messages: int, ms: dict[str, list[float]]
) -> None:
    """The per-message cost table of every tag the endpoint saw, and Graphiti ÷ ours."""
    n = max(1, n_messages)
    print(
        f"\nLLM cost per message (scripted endpoint, {n_messages} messages; tokens estimated "
        f"as characters/4; load average {os.getloadavg()[0]:.1f})"
    )
    print(
        f"{'system':<11} {'calls':>6} {'prompt chars':>13} {'prompt tok':>11} "
        f"{'compl. tok':>11} {'ms (median)':>12}"
    )
    rows: dict[str, TagCounts] = dict(sorted(endpoint.counts.items()))
    for tag, c in rows.items():
        med = statistics.median(ms[tag]) if ms.get(tag) else float("nan")
        print(
            f"{tag:<11} {c.calls / n:6.2f} {c.prompt_chars / n:13.0f} "
            f"{c.prompt_tokens / n:11.0f} {c.completion_tokens / n:11.0f} {med:12.0f}"
        )
    for tag, c in rows.items():
        kinds = ", ".join(f"{k} {v / n:.2f}" for k, v in c.by_kind.most_common())
        print(f"  {tag} calls per message by request: {kinds}")
    ours, theirs = rows.get("hippograph"), rows.get("graphiti")
    if ours and theirs and ours.calls and ours.prompt_chars:
        print(
            f"graphiti ÷ hippograph: calls {theirs.calls / ours.calls:.2f}×, prompt characters "
            f"{theirs.prompt_chars / ours.prompt_chars:.2f}×, prompt tokens "
            f"{theirs.prompt_tokens / max(1, ours.prompt_tokens):.2f}×"
        )
