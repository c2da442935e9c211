"""Contract of the public schema: documented, guarded, exported."""

from __future__ import annotations

from graphql import GraphQLInputObjectType, GraphQLObjectType
from strawberry.permission import PermissionExtension

from gql.export import SDL_PATH, current_sdl
from gql.mutations import Mutation
from gql.permissions import AgentAccess
from gql.queries import Query
from gql.schema import schema


def test_every_type_field_and_argument_is_described() -> None:
    missing = []
    for name, type_ in schema._schema.type_map.items():
        if name.startswith("__") or not isinstance(
            type_, GraphQLObjectType | GraphQLInputObjectType
        ):
            continue
        if not type_.description:
            missing.append(name)
        for field_name, field in type_.fields.items():
            if not field.description:
                missing.append(f"{name}.{field_name}")
            for arg_name, arg in getattr(field, "args", {}).items():
                if not arg.description:
                    missing.append(f"{name}.{field_name}({arg_name})")
    assert missing == []


def test_every_field_taking_agent_id_has_the_agent_permission() -> None:
    for root in (Query, Mutation):
        for field in root.__strawberry_definition__.fields:  # type: ignore[attr-defined]
            names = {a.python_name for a in field.arguments}
            guarded = any(
                isinstance(ext, PermissionExtension)
                and any(isinstance(p, AgentAccess) for p in ext.permissions)
                for ext in field.extensions
            )
            assert guarded == ("agent_id" in names), field.name


def test_committed_sdl_matches_the_code() -> None:
    assert SDL_PATH.read_text() == current_sdl(), "run `python -m gql.export`"
