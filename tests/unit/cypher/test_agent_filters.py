"""A node a statement reaches over a relationship is checked for its agent in a form no index
answers (``x.agent_id + '' = $agent_id``). Written as ``x.agent_id = $agent_id``, the planner may
instead seek every node of the agent through the ``agent_id`` index and check each one's link
to the node it came from: on some shapes of data (a dense graph of another agent, statistics
sampled before an import) that plan was chosen and read a million rows per call where the
expansion reads a few hundred. The check is textual, so a new statement cannot reintroduce it."""

from __future__ import annotations

import re
from pathlib import Path

CYPHER = Path(__file__).resolve().parents[3] / "cypher"
# A clause that ends the WHERE of the MATCH before it.
_CLAUSE = re.compile(
    r"^\s*(OPTIONAL MATCH|MATCH|WITH|RETURN|CALL|UNWIND|ORDER|LIMIT|MERGE|SET|CREATE|DELETE|"
    r"DETACH|FOREACH|UNION|\})\b"
)
_MATCH = re.compile(r"^\s*(?:OPTIONAL )?MATCH\s+(.*)$")
_NODE = re.compile(r"\((\w+)(?::[\w|]+)?\s*(\{[^}]*\})?\)")


def seekable_agent_checks(text: str) -> list[tuple[int, str]]:
    """(line, variable) of every node that a MATCH reaches over a relationship without a
    property map of its own, and whose agent the following WHERE checks with a plain
    ``= $agent_id``."""
    lines = [line.split("//")[0] for line in text.split("\n")]
    found = []
    for i, line in enumerate(lines):
        match = _MATCH.match(line)
        if not match or ("-[" not in line and "]-" not in line):
            continue
        reached = {m.group(1) for m in _NODE.finditer(match.group(1)) if not m.group(2)}
        where = line.split(" WHERE ", 1)[1] if " WHERE " in line else ""
        for following in lines[i + 1 :]:
            if _CLAUSE.match(following):
                break
            where += " " + following
        found += [
            (i + 1, v)
            for v in sorted(reached)
            if re.search(rf"\b{v}\.agent_id\s*=\s*\$agent_id", where)
        ]
    return found


def test_nodes_reached_over_a_relationship_are_checked_in_the_unseekable_form() -> None:
    offenders = [
        f"{path.relative_to(CYPHER)}:{line} {var}.agent_id"
        for path in sorted(CYPHER.rglob("*.cypher"))
        for line, var in seekable_agent_checks(path.read_text())
    ]
    assert not offenders, offenders


def test_the_check_finds_the_seekable_form() -> None:
    bad = "MATCH (f:Fact)-[:ABOUT]->(e)\nWHERE f.agent_id = $agent_id AND f.valid_to IS NULL\n"
    good = bad.replace("f.agent_id =", "f.agent_id + '' =")
    seeked = "MATCH (sf:Fact {id: x})-[:ABOUT]->(e)\nWHERE sf.agent_id = $agent_id\n"
    assert seekable_agent_checks(bad) == [(1, "f")]
    assert seekable_agent_checks(good) == []
    assert seekable_agent_checks(seeked) == []  # sought by its own key, then checked
