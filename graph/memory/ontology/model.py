"""What an ontology is: entity types and relation types, read from an operator's document.

An ontology says what a domain is made of. Entity types form a tree (``parent``) under the
implicit root ``thing``; relation types name the entity types their ends may have, whether a
subject holds one value or many, whether a newer value replaces the old one, and the name of
the same relation read the other way (``inverse``). ``aliases`` are other names the
extraction may give a type (an LLM's "client" for ``customer``, the offline extractor's verb
"bought" for ``owns``): the editable table every extraction path is mapped through.

The built-in ontology (``builtin.BUILTIN``) is *open*: every type an extraction gives is kept
as it is, as before ontologies existed. An operator's ontology is *strict* by default: a type it
does not declare is mapped to the nearest declared one or dropped, with a warning
(``conform``). Everything here is pure; ``parse_ontology`` refuses a bad document with every
problem listed (up to ``MAX_PROBLEMS``).

The work a document costs is bounded by its size: YAML anchors and aliases are refused (a
130 KB document of aliases would otherwise stand for millions of names), a YAML list or
mapping larger than any a document may hold is refused as it is read, a list longer than its
limit is refused before any of its items is validated, and the walk stops at ``MAX_PROBLEMS``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

from graph.errors import BadInput
from graph.memory.ontology.label_names import label_problems
from graph.memory.text import normalize_relation_type, slugify

__all__ = [
    "ROOT_TYPE",
    "EntityType",
    "Ontology",
    "OntologyError",
    "RelationType",
    "parse_ontology",
    "parse_ontology_text",
    "prompt_view",
]

ROOT_TYPE = "thing"
MAX_DOCUMENT_CHARS = 256_000
MAX_ENTITY_TYPES = 200
MAX_RELATION_TYPES = 500
MAX_DESCRIPTION_CHARS = 500
MAX_ALIASES = 50
MAX_PROBLEMS = 100
# The longest list and the largest mapping any document may hold (relation_types; a relation
# type's keys, with room for a few unknown ones to be named): a YAML text is refused as it is
# read once it goes past them.
MAX_LIST_ITEMS = max(MAX_ENTITY_TYPES, MAX_RELATION_TYPES, MAX_ALIASES)
MAX_MAPPING_KEYS = 32
_NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")

_TOP_KEYS = {"name", "description", "strict", "entity_types", "relation_types"}
_ENTITY_KEYS = {"name", "description", "parent", "aliases", "identifier"}
_RELATION_KEYS = {
    "name",
    "description",
    "source",
    "target",
    "single_valued",
    "supersedes",
    "inverse",
    "aliases",
}


class OntologyError(BadInput):
    """An ontology document was refused; ``problems`` lists each one as ``where: what``."""

    def __init__(self, problems: list[str]) -> None:
        shown = "; ".join(problems[:10]) + (
            f"; … {len(problems) - 10} more" if len(problems) > 10 else ""
        )
        super().__init__(f"invalid ontology: {shown}")
        self.problems = list(problems)


class _Problems(list[str]):
    """The problems found so far. At ``MAX_PROBLEMS`` the document is refused at once: a
    document that wrong gains nothing from the rest of the walk, which would only cost time."""

    def append(self, problem: str) -> None:
        super().append(problem)
        if len(self) >= MAX_PROBLEMS:
            raise OntologyError([*self, f"document: stopped after {MAX_PROBLEMS} problems"])


@dataclass(frozen=True)
class EntityType:
    """A kind of entity. ``parent`` is a declared type or None (then the root, ``thing``).
    ``identifier``: its names are identifiers (ticket numbers, SKUs): a mention is the same
    entity only when its name or an alias is the same, never because it looks alike
    ("TCK-1042" and "TCK-1043" are two tickets)."""

    name: str
    description: str = ""
    parent: str | None = None
    aliases: tuple[str, ...] = ()
    identifier: bool = False


@dataclass(frozen=True)
class RelationType:
    """A kind of relationship between two entities, read ``source -[name]-> target``.

    ``source`` / ``target``: the entity types the ends may have (a subtype counts as its
    ancestors); empty means any. ``single_valued``: a source holds at most one active target.
    ``supersedes`` (single-valued only): a new target closes the old one (``lives_in``);
    False keeps the first target and refuses a different one. ``inverse``: the name of the same
    relation read from the target; an extraction that uses it is stored turned around, as one
    relationship, so closing it closes both readings.
    """

    name: str
    description: str = ""
    source: tuple[str, ...] = ()
    target: tuple[str, ...] = ()
    single_valued: bool = False
    supersedes: bool = True
    inverse: str | None = None
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ontology:
    """Entity and relation types of one scope (the built-in one, a tenant's or an agent's).

    ``version`` is 0 for the built-in ontology; a stored one counts from 1 in its scope.
    """

    name: str
    entity_types: tuple[EntityType, ...] = ()
    relation_types: tuple[RelationType, ...] = ()
    description: str = ""
    strict: bool = True
    version: int = 0
    scope: str = ""  # "builtin", or where it is stored: "tenant" / "agent" ("": a document)
    scope_id: str = ""
    _entities: dict[str, EntityType] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )
    _relations: dict[str, RelationType] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )

    def __post_init__(self) -> None:
        self._entities.update({t.name: t for t in self.entity_types})
        self._relations.update({r.name: r for r in self.relation_types})

    def entity_type(self, name: str) -> EntityType | None:
        return self._entities.get(name)

    def relation_type(self, name: str) -> RelationType | None:
        return self._relations.get(name)

    def declares_entity(self, name: str) -> bool:
        return name == ROOT_TYPE or name in self._entities

    def ancestors(self, name: str) -> Iterator[str]:
        """``name``, its parent, … up to the root ``thing``."""
        seen: set[str] = set()
        current: str | None = name
        while current is not None and current not in seen:
            seen.add(current)
            yield current
            declared = self._entities.get(current)
            current = declared.parent if declared is not None else None
        if ROOT_TYPE not in seen:
            yield ROOT_TYPE

    def is_a(self, name: str, ancestor: str) -> bool:
        return ancestor in self.ancestors(name)

    def subtypes(self, name: str) -> tuple[str, ...]:
        """Every declared type below ``name`` (its children, theirs, …), not ``name`` itself."""
        return tuple(
            t.name for t in self.entity_types if t.name != name and self.is_a(t.name, name)
        )

    def with_subtypes(self, names: Iterable[str]) -> frozenset[str]:
        """``names`` (as stored: lowercase slugs) with every declared type below them."""
        wanted = {slugify(n) for n in names}
        return frozenset(wanted.union(*(self.subtypes(n) for n in wanted)))

    def single_valued(self) -> tuple[str, ...]:
        return tuple(r.name for r in self.relation_types if r.single_valued)

    def document(self) -> dict[str, Any]:
        """The ontology as a document ``parse_ontology`` reads back (stored, exported, shown)."""
        return {
            "name": self.name,
            "description": self.description,
            "strict": self.strict,
            "entity_types": [_entity_document(t) for t in self.entity_types],
            "relation_types": [_relation_document(r) for r in self.relation_types],
        }

    def digest(self) -> str:
        """A hash of the document: applying an unchanged ontology makes no new version."""
        text = json.dumps(self.document(), sort_keys=True, ensure_ascii=False)
        return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def _entity_document(t: EntityType) -> dict[str, Any]:
    return {
        "name": t.name,
        "description": t.description,
        "parent": t.parent,
        "aliases": list(t.aliases),
        "identifier": t.identifier,
    }


def _relation_document(r: RelationType) -> dict[str, Any]:
    return {
        "name": r.name,
        "description": r.description,
        "source": list(r.source),
        "target": list(r.target),
        "single_valued": r.single_valued,
        "supersedes": r.supersedes,
        "inverse": r.inverse,
        "aliases": list(r.aliases),
    }


def parse_ontology_text(text: str, *, fmt: str = "auto") -> Ontology:
    """Read an ontology from YAML or JSON text (``fmt``: "yaml", "json" or "auto").

    Raises:
        OntologyError: the text is too long, not YAML/JSON, uses YAML aliases, or the document
            is invalid.
    """
    if len(text) > MAX_DOCUMENT_CHARS:
        raise OntologyError([f"document: longer than {MAX_DOCUMENT_CHARS} characters"])
    try:
        if fmt == "json" or (fmt == "auto" and text.lstrip().startswith("{")):
            data = json.loads(text)
        else:
            data = _load_yaml(text)
    except OntologyError:
        raise
    except ValueError as exc:  # json.JSONDecodeError and yaml.YAMLError's parse errors
        raise OntologyError(
            [f"document: not valid {fmt if fmt != 'auto' else 'YAML/JSON'}: {exc}"]
        ) from None
    except Exception as exc:  # yaml raises its own error family
        raise OntologyError([f"document: not valid YAML: {str(exc)[:200]}"]) from None
    return parse_ontology(data)


class _BoundedLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """PyYAML's safe loader (libyaml's parser when PyYAML has it) that refuses, while it reads
    the text, a list or a mapping larger than any a document may hold: a 255 KB list of 85,000
    names is refused at its 501st item, not after all of them were built."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self._keys: dict[int, int] = {}  # a mapping node's id → keys read so far

    def descend_resolver(self, parent: Any, index: Any) -> Any:
        # The composer calls it before each node it composes: ``index`` is an item's position
        # in a sequence, None for a mapping's key.
        if isinstance(parent, yaml.SequenceNode) and isinstance(index, int):
            if index >= MAX_LIST_ITEMS:
                raise OntologyError([f"document: a list of more than {MAX_LIST_ITEMS} items"])
        elif isinstance(parent, yaml.MappingNode) and index is None:
            self._keys[id(parent)] = self._keys.get(id(parent), 0) + 1
            if self._keys[id(parent)] > MAX_MAPPING_KEYS:
                raise OntologyError([f"document: a mapping of more than {MAX_MAPPING_KEYS} keys"])
        return super().descend_resolver(parent, index)


def _load_yaml(text: str) -> Any:
    """YAML text as data (:class:`_BoundedLoader`), refusing anchors and aliases before
    anything is built: an alias stands for a whole value again, and a few of them can stand
    for millions of items (merge keys, ``<<: *base``, are aliases too)."""
    loader = _BoundedLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if "&" in text:  # an alias needs an anchor: without one there is nothing to look for
            _refuse_aliases(node)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def _refuse_aliases(root: Any) -> None:
    """Walk the composed nodes once; a node reached twice is an alias (the composer hands the
    anchored node out again for every ``*name``, and for an alias of itself)."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            raise OntologyError(
                [
                    "document: YAML anchors and aliases (&name, *name, <<: *name) are not "
                    "accepted; write each value out"
                ]
            )
        seen.add(id(node))
        value = node.value
        if isinstance(value, list):
            for item in value:
                stack.extend(item if isinstance(item, tuple) else (item,))


def parse_ontology(data: Any, *, stored: bool = False) -> Ontology:
    """Validate an ontology document (a mapping) into an :class:`Ontology`.

    Names are lowercase snake_case ("Customer" becomes "customer"); every reference (a parent,
    a relation's ends, an inverse) must name a declared type; no name, alias or inverse is
    used twice; unknown keys are refused (a misspelt ``singel_valued`` would otherwise be
    ignored); an entity type's label (``label_names.type_label``) is not one of the product's own
    labels nor another type's (``stored``: a version stored before that rule is read as it is;
    such a type simply gets no label).

    Raises:
        OntologyError: with every problem found (the first ``MAX_PROBLEMS`` of them).
    """
    problems = _Problems()
    if not isinstance(data, Mapping):
        raise OntologyError(["document: must be a mapping with entity_types and relation_types"])
    _unknown_keys(data, _TOP_KEYS, "document", problems)
    name = _text(data.get("name"), "name", problems, required=True, limit=80)
    entities = [
        _parse_entity(item, i, problems)
        for i, item in enumerate(_items(data, "entity_types", MAX_ENTITY_TYPES, problems))
    ]
    relations = [
        _parse_relation(item, i, problems)
        for i, item in enumerate(_items(data, "relation_types", MAX_RELATION_TYPES, problems))
    ]
    entity_types = tuple(t for t in entities if t is not None)
    relation_types = tuple(r for r in relations if r is not None)
    _check_entity_references(entity_types, problems)
    _check_relation_references(entity_types, relation_types, problems)
    _check_names_unique(entity_types, relation_types, problems)
    if not stored:
        for problem in label_problems(t.name for t in entity_types):
            problems.append(problem)
    strict = data.get("strict", True)
    if not isinstance(strict, bool):
        problems.append("strict: must be true or false")
    if problems:
        raise OntologyError(problems)
    return Ontology(
        name=name,
        entity_types=entity_types,
        relation_types=relation_types,
        description=_text(data.get("description"), "description", problems),
        strict=bool(strict),
    )


def _items(data: Mapping[str, Any], key: str, limit: int, problems: list[str]) -> list[Any]:
    """The list under ``key``; none of its items when it is longer than ``limit`` (refused
    before they are read: their number, not their content, is what is wrong)."""
    value = data.get(key, [])
    if value is None:
        return []
    if not isinstance(value, list):
        problems.append(f"{key}: must be a list")
        return []
    if len(value) > limit:
        problems.append(f"{key}: more than {limit}")
        return []
    return value


def _unknown_keys(
    item: Mapping[str, Any], allowed: set[str], where: str, problems: list[str]
) -> None:
    for key in sorted(set(map(str, item)) - allowed):
        problems.append(f"{where}: unknown key {key!r} (allowed: {', '.join(sorted(allowed))})")


def _text(
    value: Any,
    where: str,
    problems: list[str],
    *,
    required: bool = False,
    limit: int = MAX_DESCRIPTION_CHARS,
) -> str:
    if value is None or value == "":
        if required:
            problems.append(f"{where}: required")
        return ""
    if not isinstance(value, str):
        problems.append(f"{where}: must be text")
        return ""
    if len(value) > limit:
        problems.append(f"{where}: longer than {limit} characters")
    return value.strip()[:limit]


def _type_name(value: Any, where: str, problems: list[str], *, relation: bool = False) -> str:
    """A type name as stored: lowercase snake_case ("Customer" → "customer")."""
    if not isinstance(value, str) or not value.strip():
        problems.append(f"{where}: a name is required")
        return ""
    name = (normalize_relation_type(value) if relation else slugify(value)) or ""
    if not _NAME.match(name):
        problems.append(f"{where}: {value!r} is not usable as a type name (letters, digits, _)")
        return ""
    return name


def _names(
    value: Any, where: str, problems: list[str], *, relation: bool = False
) -> tuple[str, ...]:
    """A list of type names (a single name is a list of one)."""
    if value is None:
        return ()
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list):
        problems.append(f"{where}: must be a name or a list of names")
        return ()
    if len(items) > MAX_ALIASES:
        problems.append(f"{where}: more than {MAX_ALIASES} names")
        return ()
    names = [
        _type_name(v, f"{where}[{i}]", problems, relation=relation) for i, v in enumerate(items)
    ]
    return tuple(dict.fromkeys(n for n in names if n))


def _parse_entity(item: Any, i: int, problems: list[str]) -> EntityType | None:
    where = f"entity_types[{i}]"
    if isinstance(item, str):
        item = {"name": item}
    if not isinstance(item, Mapping):
        problems.append(f"{where}: must be a mapping (name, description, parent, aliases)")
        return None
    _unknown_keys(item, _ENTITY_KEYS, where, problems)
    name = _type_name(item.get("name"), f"{where}.name", problems)
    parent = item.get("parent")
    identifier = item.get("identifier", False)
    if not isinstance(identifier, bool):
        problems.append(f"{where}.identifier: must be true or false")
    return EntityType(
        name=name,
        description=_text(item.get("description"), f"{where}.description", problems),
        parent=_type_name(parent, f"{where}.parent", problems) or None if parent else None,
        aliases=_names(item.get("aliases"), f"{where}.aliases", problems),
        identifier=identifier is True,
    )


def _parse_relation(item: Any, i: int, problems: list[str]) -> RelationType | None:
    where = f"relation_types[{i}]"
    if not isinstance(item, Mapping):
        problems.append(f"{where}: must be a mapping (name, source, target, …)")
        return None
    _unknown_keys(item, _RELATION_KEYS, where, problems)
    flags = {}
    for key, default in (("single_valued", False), ("supersedes", True)):
        value = item.get(key, default)
        if not isinstance(value, bool):
            problems.append(f"{where}.{key}: must be true or false")
            value = default
        flags[key] = value
    inverse = item.get("inverse")
    return RelationType(
        name=_type_name(item.get("name"), f"{where}.name", problems, relation=True),
        description=_text(item.get("description"), f"{where}.description", problems),
        source=_names(item.get("source"), f"{where}.source", problems),
        target=_names(item.get("target"), f"{where}.target", problems),
        single_valued=flags["single_valued"],
        supersedes=flags["supersedes"],
        inverse=_type_name(inverse, f"{where}.inverse", problems, relation=True) or None
        if inverse
        else None,
        aliases=_names(item.get("aliases"), f"{where}.aliases", problems, relation=True),
    )


def _check_entity_references(entities: tuple[EntityType, ...], problems: list[str]) -> None:
    declared = {t.name for t in entities} | {ROOT_TYPE}
    parents = {t.name: t.parent for t in entities}
    for t in entities:
        if t.parent is not None and t.parent not in declared:
            problems.append(f"entity type {t.name!r}: parent {t.parent!r} is not declared")
        seen = {t.name}
        current = t.parent
        while current is not None and current in parents:
            if current in seen:
                problems.append(f"entity type {t.name!r}: its parents form a circle")
                break
            seen.add(current)
            current = parents[current]


def _check_relation_references(
    entities: tuple[EntityType, ...], relations: tuple[RelationType, ...], problems: list[str]
) -> None:
    declared = {t.name for t in entities} | {ROOT_TYPE}
    by_name = {r.name: r for r in relations}
    for r in relations:
        for end in ("source", "target"):
            for name in getattr(r, end):
                if name not in declared:
                    problems.append(
                        f"relation type {r.name!r}: {end} type {name!r} is not declared"
                    )
        if r.supersedes is False and not r.single_valued:
            problems.append(
                f"relation type {r.name!r}: supersedes applies to single-valued types only"
            )
        other = by_name.get(r.inverse or "")
        if other is not None and other.name != r.name and other.inverse != r.name:
            problems.append(
                f"relation type {r.name!r}: its inverse {r.inverse!r} is a type of its own "
                f"whose inverse is not {r.name!r}"
            )


def _check_names_unique(
    entities: tuple[EntityType, ...], relations: tuple[RelationType, ...], problems: list[str]
) -> None:
    """No entity-type name or alias twice; no relation name, inverse or alias twice (a type and
    its declared inverse may name each other)."""
    owner: dict[str, str] = {}
    for t in entities:
        for name in (t.name, *t.aliases):
            if name in owner and owner[name] != t.name:
                problems.append(
                    f"entity type name {name!r} is used by {owner[name]!r} and {t.name!r}"
                )
            owner.setdefault(name, t.name)
    rel_owner: dict[str, str] = {}
    declared = {r.name for r in relations}
    for r in relations:
        names = [r.name, *r.aliases]
        if r.inverse and r.inverse not in declared:
            names.append(r.inverse)
        for name in names:
            if name in rel_owner and rel_owner[name] != r.name:
                problems.append(
                    f"relation type name {name!r} is used by {rel_owner[name]!r} and {r.name!r}"
                )
            rel_owner.setdefault(name, r.name)


def prompt_view(ontology: Ontology) -> dict[str, Any]:
    """The ontology as the extraction prompts show it: names, meanings, parents and ends."""
    return {
        "name": ontology.name,
        "entity_types": [
            {
                k: v
                for k, v in (("name", t.name), ("description", t.description), ("parent", t.parent))
                if v
            }
            for t in ontology.entity_types
        ],
        "relation_types": [
            {
                k: v
                for k, v in (
                    ("name", r.name),
                    ("description", r.description),
                    ("source", list(r.source)),
                    ("target", list(r.target)),
                )
                if v
            }
            for r in ontology.relation_types
        ],
    }
