"""The extraction under the agent's ontology (pure): entity and relation types mapped onto the
declared ones, relations turned around when the answer named the inverse, relation ends typed
from the relation when the extraction left them untyped, and what cannot be mapped dropped —
each with a warning, never silently (``graph/memory/ontology/mapping`` decides).

Both extraction paths pass through here, after normalisation, so an LLM's "client" and the
offline extractor's "bought" meet the same declared types. Under the open built-in ontology
nothing changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Protocol, TypeVar

from graph.memory.ontology.mapping import fit_ends, map_entity_type, map_relation_type
from graph.memory.ontology.model import ROOT_TYPE, Ontology
from graph.memory.text import fold
from graph.memory.write.extract.extraction import ExtractedEntity, ExtractedRelation, Extraction

__all__ = ["conform", "fit_resolved"]


def conform(ex: Extraction, ontology: Ontology, warnings: list[str]) -> Extraction:
    """``ex`` with its types mapped onto ``ontology`` (see the module); ``warnings`` gets one
    line per mapping, refinement or drop."""
    if ontology.scope == "builtin":
        return ex
    entities = [_typed(e, ontology, warnings) for e in ex.entities]
    types = {fold(a): e.type for e in entities for a in e.aliases}
    types.update({fold(e.name): e.type for e in entities})
    relations: list[ExtractedRelation] = []
    for rel in ex.relations:
        kept = _relation(rel, ontology, types, warnings)
        if kept is not None:
            relations.append(kept)
    # Ends refined by a relation: listed entities take the refined type, unlisted ends join.
    entities = [replace(e, type=types[fold(e.name)]) for e in entities]
    listed = {fold(n) for e in entities for n in (e.name, *e.aliases)}
    for rel in relations:
        for end in (rel.source, rel.target):
            etype = types.get(fold(end), ROOT_TYPE)
            if fold(end) not in listed and etype != ROOT_TYPE:
                entities.append(ExtractedEntity(end, etype))
                listed.add(fold(end))
    return replace(ex, entities=entities, relations=relations)


def _typed(e: ExtractedEntity, ontology: Ontology, warnings: list[str]) -> ExtractedEntity:
    decision = map_entity_type(ontology, e.type, e.name)
    if decision.reason:
        warnings.append(f"ontology: {decision.reason}")
    return e if decision.type == e.type else replace(e, type=decision.type)


def _relation(
    rel: ExtractedRelation, ontology: Ontology, types: dict[str, str], warnings: list[str]
) -> ExtractedRelation | None:
    """The relation under the ontology, or None (dropped, with the reason in ``warnings``).
    An end the extraction did not type gets the type the relation asks for (in ``types``)."""
    decision = map_relation_type(ontology, rel.type)
    if decision.reason:
        warnings.append(f"ontology: {decision.reason}")
    if decision.type is None:
        return None
    source, target = (rel.target, rel.source) if decision.turned else (rel.source, rel.target)
    fit = fit_ends(
        ontology,
        decision.type,
        types.get(fold(source), ROOT_TYPE),
        types.get(fold(target), ROOT_TYPE),
    )
    if fit.reason:
        warnings.append(f"ontology: {source} → {target}: {fit.reason}")
    if not fit.ok:
        return None
    if fit.source:
        types[fold(source)] = fit.source
    if fit.target:
        types[fold(target)] = fit.target
    return replace(rel, source=source, target=target, type=decision.type)


class _Relation(Protocol):
    source_key: str
    target_key: str
    type: str


R = TypeVar("R", bound=_Relation)


def fit_resolved(
    relations: list[R], type_of: Mapping[str, str], ontology: Ontology, warnings: list[str]
) -> list[R]:
    """The relations whose resolved ends fit their declared types. An end resolved to a
    stored entity keeps its stored type, which may be more general than the relation asks (a
    ``person`` for a ``customer``): that fits; another type does not (a warning says which)."""
    if ontology.scope == "builtin":
        return relations
    kept: list[R] = []
    for rel in relations:
        source = type_of.get(rel.source_key, ROOT_TYPE)
        target = type_of.get(rel.target_key, ROOT_TYPE)
        fit = fit_ends(ontology, rel.type, source, target)
        if fit.ok:
            kept.append(rel)
        else:
            warnings.append(f"ontology: {rel.source_key} → {rel.target_key}: {fit.reason}")
    return kept
