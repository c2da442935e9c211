"""The operator's PII policy for a structured ``remember`` import (pure).

Every free-text field that is stored goes through :func:`graph.memory.write.guard.redact_text`
before any name is resolved or anything is read or written: entity names, aliases, explicit keys
and profiles; fact texts, subject and entity references, speakers and source contexts; relation
ends; event texts and speakers. References are redacted with the same function as the names
they point at, so a fact whose subject is "bob@example.com" still reaches the entity declared
with that name (now "[REDACTED:email]"). ``reject`` refuses the whole call, naming the first
field (``facts[3].text``), before anything is stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from graph.memory.write.guard import redact_text
from graph.memory.write.models import (
    StructuredEntity,
    StructuredEvent,
    StructuredFact,
    StructuredRelation,
)

__all__ = ["RedactedImport", "redact_import"]


@dataclass(frozen=True)
class RedactedImport:
    entities: list[StructuredEntity]
    facts: list[StructuredFact]
    relations: list[StructuredRelation]
    events: list[StructuredEvent]
    redacted: int  # how many spans were replaced


class _Redactor:
    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.count = 0

    def text(self, value: str, where: str) -> str:
        result = redact_text(value, self.mode, where)
        self.count += len(result.findings)
        return result.text

    def opt(self, value: str | None, where: str) -> str | None:
        return None if value is None else self.text(value, where)

    def many(self, values: Sequence[str], where: str) -> list[str]:
        return [self.text(v, f"{where}[{i}]") for i, v in enumerate(values)]


def redact_import(
    entities: Sequence[StructuredEntity],
    facts: Sequence[StructuredFact],
    relations: Sequence[StructuredRelation],
    events: Sequence[StructuredEvent],
    mode: str,
) -> RedactedImport:
    """Copies of the inputs with every stored free-text field redacted under ``mode``.

    Raises:
        PIIRejected: ``mode`` is ``reject`` and a field holds a clear PII span.
    """
    if mode == "off":
        return RedactedImport(list(entities), list(facts), list(relations), list(events), 0)
    r = _Redactor(mode)
    ents = [
        replace(
            e,
            name=r.text(e.name, f"entities[{i}].name"),
            aliases=r.many(e.aliases, f"entities[{i}].aliases"),
            key=r.opt(e.key, f"entities[{i}].key"),
            profile_text=r.opt(e.profile_text, f"entities[{i}].profile_text"),
        )
        for i, e in enumerate(entities)
    ]
    fcts = [
        replace(
            f,
            text=r.text(f.text, f"facts[{i}].text"),
            subject=r.text(f.subject, f"facts[{i}].subject"),
            entities=r.many(f.entities, f"facts[{i}].entities"),
            speaker=r.opt(f.speaker, f"facts[{i}].speaker"),
            source_context=r.opt(f.source_context, f"facts[{i}].source_context"),
            gloss=r.opt(f.gloss, f"facts[{i}].gloss"),
        )
        for i, f in enumerate(facts)
    ]
    rels = [
        replace(
            x,
            source=r.text(x.source, f"relations[{i}].source"),
            target=r.text(x.target, f"relations[{i}].target"),
        )
        for i, x in enumerate(relations)
    ]
    evs = [
        replace(
            e,
            text=r.text(e.text, f"events[{i}].text"),
            speaker=r.text(e.speaker, f"events[{i}].speaker"),
            thread_id=r.opt(e.thread_id, f"events[{i}].thread_id"),
        )
        for i, e in enumerate(events)
    ]
    return RedactedImport(ents, fcts, rels, evs, r.count)
