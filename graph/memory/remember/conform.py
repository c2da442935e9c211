"""An import under the agent's ontology (pure): an import names its types explicitly, so
each must be a declared one (or one of its aliases, or a relation's inverse, which turns the
relation around); a relation's ends must fit its declared types. Anything else refuses the
whole import with every problem listed (``OntologyError``, a ``BAD_INPUT``), before anything
is read or written. Under the open built-in ontology nothing is checked."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from graph.memory.ontology.mapping import fit_ends
from graph.memory.ontology.model import ROOT_TYPE, Ontology, OntologyError
from graph.memory.text import fold, normalize_relation_type, normalize_type
from graph.memory.write.models import StructuredEntity, StructuredRelation

__all__ = ["conform_import"]


def conform_import(
    entities: Sequence[StructuredEntity],
    relations: Sequence[StructuredRelation],
    ontology: Ontology,
) -> tuple[list[StructuredEntity], list[StructuredRelation]]:
    """The import's entities and relations with their types as declared (see the module).

    Raises:
        OntologyError: an undeclared type or an end that does not fit, each listed.
    """
    if ontology.scope == "builtin":
        return list(entities), list(relations)
    problems: list[str] = []
    typed = [_entity(e, i, ontology, problems) for i, e in enumerate(entities)]
    types = {fold(n): e.type for e in typed for n in (e.name, *e.aliases, e.key or "") if n}
    kept = [_relation(r, i, ontology, types, problems) for i, r in enumerate(relations)]
    if problems:
        raise OntologyError(problems)
    return typed, kept


def _entity(
    e: StructuredEntity, i: int, ontology: Ontology, problems: list[str]
) -> StructuredEntity:
    raw = normalize_type(e.type)
    if raw == ROOT_TYPE or ontology.entity_type(raw) is not None:
        return e
    owner = next((t.name for t in ontology.entity_types if raw in t.aliases), None)
    if owner is None:
        problems.append(
            f"entities[{i}] {e.name!r}: type {raw!r} is not in ontology {ontology.name!r}"
        )
        return e
    return replace(e, type=owner)


def _relation(
    r: StructuredRelation, i: int, ontology: Ontology, types: dict[str, str], problems: list[str]
) -> StructuredRelation:
    raw = normalize_relation_type(r.type) or r.type
    declared = ontology.relation_type(raw)
    turned = False
    if declared is None:
        declared = next((d for d in ontology.relation_types if raw in d.aliases), None)
    if declared is None:
        declared = next((d for d in ontology.relation_types if d.inverse == raw), None)
        turned = declared is not None
    if declared is None:
        problems.append(f"relations[{i}]: type {raw!r} is not in ontology {ontology.name!r}")
        return r
    source, target = (r.target, r.source) if turned else (r.source, r.target)
    fit = fit_ends(
        ontology,
        declared.name,
        types.get(fold(source), ROOT_TYPE),
        types.get(fold(target), ROOT_TYPE),
    )
    if not fit.ok:
        problems.append(
            f"relations[{i}] {source!r} → {target!r}: {fit.reason.removesuffix('; dropped')}"
        )
    return replace(r, source=source, target=target, type=declared.name)
