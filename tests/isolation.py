"""The test command's isolation check: the database `make run` serves is the same after the
tests as before.

    python -m tests.isolation snapshot FILE   # before the tests, with `make run`'s settings
    python -m tests.isolation check FILE      # after them: exit 1 and say what changed

``scripts/test.sh`` runs both around everything it runs, with the environment `make run` has
(the tests themselves use their own server: scripts/test-env.sh). When `make run`'s server is
running, the snapshot is what its database holds per agent (nodes per label, their properties
and relationships; job bookkeeping left out): an agent the tests wrote, or a change to one of
the user's agents, fails the check. When it is not running, the snapshot is its data folder
(files and their newest change): a test that started that server, or wrote into its files,
fails the check. With NEO4J_URI set the tests use that server: nothing is checked.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from graph.executor import connected
from server.runtime import local_neo4j
from server.settings import Settings
from tests.cypher import load_query

__all__ = ["compare", "snapshot"]


def _files(folder: Path) -> dict[str, Any]:
    files = [p for p in folder.rglob("*") if p.is_file()] if folder.is_dir() else []
    return {
        "files": len(files),
        "newest_change": max((p.stat().st_mtime_ns for p in files), default=0),
    }


async def snapshot(settings: Settings) -> dict[str, Any]:
    """What `make run`'s local server holds now (see the module)."""
    if not settings.local_neo4j:
        return {"checked": False}
    server = local_neo4j(settings)
    if server._pid() is None:
        return {"checked": True, "running": False, "data": _files(server.data)}
    async with connected(
        settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret(), settings.neo4j_database
    ) as ex:
        rows = await ex.run_text(load_query("database_fingerprint"), read=True)
    agents: dict[str, dict[str, list[int]]] = {}
    for r in rows:
        agents.setdefault(str(r["agent"]), {})[str(r["label"])] = [
            int(r["nodes"]),
            int(r["properties"]),
            int(r["rels"]),
        ]
    return {"checked": True, "running": True, "agents": agents}


def compare(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What changed between two snapshots, one line each (pure; empty: nothing)."""
    if not before.get("checked") or not after.get("checked"):
        return []
    if before["running"] != after["running"]:
        was = "running" if before["running"] else "stopped"
        now = "running" if after["running"] else "stopped"
        return [f"`make run`'s Neo4j was {was} before the tests and is {now} after them"]
    if not before["running"]:
        if before["data"] != after["data"]:
            return [f"`make run`'s Neo4j data folder changed: {before['data']} -> {after['data']}"]
        return []
    old, new = before["agents"], after["agents"]
    out = [f"new agent in `make run`'s database: {a!r} {new[a]}" for a in sorted(new.keys() - old)]
    out += [f"agent gone from `make run`'s database: {a!r}" for a in sorted(old.keys() - new)]
    out += [
        f"agent changed in `make run`'s database: {a!r} {old[a]} -> {new[a]}"
        for a in sorted(old.keys() & new.keys())
        if old[a] != new[a]
    ]
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("snapshot", "check"):
        print(__doc__)
        return 2
    command, path = argv[0], Path(argv[1])
    now = asyncio.run(snapshot(Settings()))
    if command == "snapshot":
        path.write_text(json.dumps(now))
        if now.get("checked"):
            state = "running" if now["running"] else "not running"
            print(f"`make run`'s Neo4j is {state}: it is compared after the tests")
        return 0
    changes = compare(json.loads(path.read_text()), now)
    for line in changes:
        print(line)
    if not changes and now.get("checked"):
        print("`make run`'s database is as it was before the tests")
    return 1 if changes else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
