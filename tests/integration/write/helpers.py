"""Shared helpers for the write-pipeline integration tests."""

from __future__ import annotations

import json
from typing import Any

from graph.executor import Executor
from tests.cypher import load_query

SPEAKER = "Rafael"


async def counts(executor: Executor, agent_id: str) -> dict[str, int]:
    rows = await executor.run_text(
        load_query("history_agent_counts"), {"agent_id": agent_id}, read=True
    )
    return {k: int(v) for k, v in rows[0].items()}


def user_payload(body: dict[str, Any]) -> dict[str, Any]:
    """The JSON the pipeline sent as the user message of a scripted request."""
    content = next(m["content"] for m in body["messages"] if m["role"] == "user")
    return json.loads(content)


def reconcile_with(action: str, reason: str = "scripted decision") -> Any:
    """A scripted reconcile reply: ``action`` on the best candidate of every fact."""

    def reply(body: dict[str, Any]) -> dict[str, Any]:
        facts = user_payload(body)["facts"]
        return {
            "decisions": [
                {
                    "index": f["index"],
                    "action": action,
                    "target_id": f["existing"][0]["id"],
                    "reason": reason,
                }
                for f in facts
            ]
        }

    return reply


def extraction(
    entities: list[tuple[str, str]] | None = None,
    facts: list[tuple[str, str]] | None = None,
    relations: list[tuple[str, str, str]] | None = None,
    aliases: dict[str, list[str]] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """An informed-extraction answer from compact tuples."""
    aliases = aliases or {}
    return {
        "entities": [
            {"name": n, "type": t, "aliases": aliases.get(n, [])} for n, t in entities or []
        ],
        "facts": [
            {
                "subject": s,
                "text": t,
                "confidence": 0.95,
                "action": "ADD",
                "importance_category": "specific_event",
                "kind": "fact",
            }
            for s, t in facts or []
        ],
        "relations": [{"source": s, "type": r, "target": t} for s, r, t in relations or []],
        **extra,
    }


def speaker_link(text: str, relation: str, target: str, kind: str) -> dict[str, Any]:
    """An informed-extraction answer: one fact ``text`` about the speaker and the relation
    speaker -``relation``-> ``target``, an entity of type ``kind``."""
    return extraction([(target, kind)], [(SPEAKER, text)], [(SPEAKER, relation, target)])


def informed(answer: dict[str, Any], decisions: dict[str, tuple[str, str]]) -> Any:
    """A scripted informed-extraction reply (prompt v2) whose facts carry reconciliation
    actions: ``decisions`` maps a new fact's text to (action, known fact text); the reply
    targets that known fact by the short id the pipeline showed in ``known_facts``."""

    def reply(body: dict[str, Any]) -> dict[str, Any]:
        known = {f["text"]: f["id"] for f in user_payload(body)["known_facts"]}
        out = json.loads(json.dumps(answer))
        for fact in out["facts"]:
            if fact["text"] in decisions:
                action, old = decisions[fact["text"]]
                fact.update(action=action, target_id=known[old], reason=f"scripted {action}")
        return out

    return reply


CLARA_MESSAGE = (
    "Clara Rezende saiu da Vertix e foi pra Orion Tech como head de engenharia. "
    "O Thiago Nogueira a contratou pessoalmente."
)
CLARA_ENTITIES = [
    ("Clara Rezende", "person"),
    ("Vertix", "organization"),
    ("Orion Tech", "organization"),
    ("Thiago Nogueira", "person"),
]
CLARA_FACTS = [
    ("Clara Rezende", "Clara Rezende left Vertix"),
    ("Clara Rezende", "Clara Rezende joined Orion Tech as head of engineering"),
    ("Thiago Nogueira", "Thiago Nogueira personally hired Clara Rezende"),
]
CLARA_RELATIONS = [
    ("Clara Rezende", "former_employee_of", "Vertix"),
    ("Clara Rezende", "works_at", "Orion Tech"),
    ("Thiago Nogueira", "hired", "Clara Rezende"),
]
