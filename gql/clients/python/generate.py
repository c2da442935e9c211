"""Generates the Python client from gql/schema.graphql: one operation per root field (every
argument a variable, every field a client can select without arguments, to a bounded depth),
then ariadne-codegen turns the operations into typed async and sync clients on the bases in
``bases/`` (retries, typed errors). ``--check`` regenerates into a temporary folder and fails
when the committed files differ (the test command runs it).

    python gql/clients/python/generate.py [--check]
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from graphql import (
    GraphQLArgument,
    GraphQLField,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLSchema,
    build_schema,
    get_named_type,
    is_list_type,
    is_non_null_type,
)
from graphql.pyutils import Undefined

HERE = Path(__file__).resolve().parent
SCHEMA = HERE.parents[1] / "schema.graphql"
OPERATIONS = HERE.parent / "operations"  # shared with the TypeScript client
PACKAGE = "hippograph_client"
FLAVOURS = {"aio": ("AsyncHippographClient", True), "sync": ("HippographClient", False)}
MAX_DEPTH = 4  # object levels below the root field (the server refuses documents deeper than 12)


def required(arg: GraphQLArgument) -> bool:
    return is_non_null_type(arg.type) and arg.default_value is Undefined


def listed(field: GraphQLField) -> bool:
    kind = field.type
    return is_list_type(kind.of_type if isinstance(kind, GraphQLNonNull) else kind)


def selection(
    kind: GraphQLObjectType, depth: int, path: tuple[str, ...], in_list: bool
) -> list[str]:
    """Every field of ``kind`` that needs no argument: scalars and enums always, objects while
    the depth lasts and the type does not repeat along the path (no cycles). Inside a list,
    object fields that take arguments (an entity's facts, relationships, history) are left to
    their own query, so a page costs what its rows cost."""
    lines: list[str] = []
    for name, field in kind.fields.items():
        if any(required(a) for a in field.args.values()):
            continue
        target = get_named_type(field.type)
        if not isinstance(target, GraphQLObjectType):
            lines.append(name)
            continue
        if depth >= MAX_DEPTH or target.name in path or (in_list and field.args):
            continue
        inner = selection(target, depth + 1, (*path, target.name), in_list or listed(field))
        if inner:
            lines.append(f"{name} {{ {' '.join(inner)} }}")
    return lines


def variable(name: str, arg: GraphQLArgument) -> str:
    """``$name: Type`` for an argument; one with a default is optional for the caller (the
    variable is left out when not given, so the server's default applies)."""
    declared = str(arg.type)
    if arg.default_value is not Undefined and declared.endswith("!"):
        declared = declared[:-1]
    return f"${name}: {declared}"


def operation(keyword: str, name: str, field: GraphQLField) -> str:
    """One operation named after its root field (``entities`` → ``Entities``)."""
    op_name = name[0].upper() + name[1:]
    variables = ", ".join(variable(n, a) for n, a in field.args.items())
    arguments = ", ".join(f"{n}: ${n}" for n in field.args)
    head = f"{keyword} {op_name}" + (f"({variables})" if variables else "")
    call = name + (f"({arguments})" if arguments else "")
    target = get_named_type(field.type)
    body = ""
    if isinstance(target, GraphQLObjectType):
        fields = selection(target, 1, (target.name,), listed(field))
        body = " { " + " ".join(fields) + " }"
    return f"{head} {{\n  {call}{body}\n}}\n"


def operations(schema: GraphQLSchema) -> dict[str, str]:
    """File name → document, for every query and mutation field. Subscriptions are left out
    on purpose: they run over a WebSocket (graphql-transport-ws), which these HTTP clients do
    not speak; subscribe with a WebSocket GraphQL client (README: "Watch memory change")."""
    out: dict[str, str] = {}
    for keyword, root in (("query", schema.query_type), ("mutation", schema.mutation_type)):
        assert root is not None
        for name, field in root.fields.items():
            out[f"{keyword}_{name}.graphql"] = operation(keyword, name, field)
    return out


def codegen_config(out: Path, flavour: str, operations_dir: Path) -> str:
    client_name, is_async = FLAVOURS[flavour]
    base = "AsyncBase" if is_async else "SyncBase"
    return (
        "[tool.ariadne-codegen]\n"
        f'schema_path = "{SCHEMA}"\n'
        f'queries_path = "{operations_dir}"\n'
        f'target_package_name = "{flavour}"\n'
        f'target_package_path = "{out}"\n'
        f'client_name = "{client_name}"\n'
        f"async_client = {'true' if is_async else 'false'}\n"
        f'base_client_name = "{base}"\n'
        f'base_client_file_path = "{HERE / "bases" / (flavour + "_base.py")}"\n'
        'include_comments = "none"\n'
        'plugins = ["ariadne_codegen.contrib.shorter_results.ShorterResultsPlugin"]\n'
        "[tool.ariadne-codegen.scalars.DateTime]\n"
        'type = "datetime.datetime"\n'
        "[tool.ariadne-codegen.scalars.JSON]\n"
        'type = "typing.Any"\n'
    )


def generate(root: Path, ops_dir: Path) -> None:
    """Operations into ``ops_dir``, clients into ``root/hippograph_client/{aio,sync}``."""
    schema = build_schema(SCHEMA.read_text())
    shutil.rmtree(ops_dir, ignore_errors=True)
    ops_dir.mkdir(parents=True)
    for name, text in operations(schema).items():
        (ops_dir / name).write_text(text)
    exe = Path(sys.executable).with_name("ariadne-codegen")
    for flavour in FLAVOURS:
        target = root / PACKAGE
        shutil.rmtree(target / flavour, ignore_errors=True)
        with tempfile.TemporaryDirectory() as tmp:
            config = Path(tmp) / "codegen.toml"
            config.write_text(codegen_config(target, flavour, ops_dir))
            done = subprocess.run(
                [str(exe), "--config", str(config), "client"],
                capture_output=True,
                text=True,
                timeout=300,
            )
        if done.returncode != 0:
            raise SystemExit(done.stdout + done.stderr)


def differences(left: Path, right: Path) -> list[str]:
    """Relative paths that differ between two trees (missing on either side included)."""
    cmp = filecmp.dircmp(left, right, ignore=["__pycache__"])
    out = [*cmp.left_only, *cmp.right_only, *cmp.diff_files, *cmp.funny_files]
    for sub in cmp.common_dirs:
        out += [f"{sub}/{p}" for p in differences(left / sub, right / sub)]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail when the files are stale")
    args = parser.parse_args()
    if not args.check:
        generate(HERE, OPERATIONS)
        print(f"generated {HERE / PACKAGE} (aio, sync) and {OPERATIONS}")
        return
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp)
        shutil.copytree(
            HERE / PACKAGE,
            fresh / PACKAGE,
            ignore=shutil.ignore_patterns("aio", "sync", "__pycache__"),
        )
        generate(fresh, fresh / "operations")
        stale = [f"operations/{p}" for p in differences(OPERATIONS, fresh / "operations")]
        for flavour in FLAVOURS:
            stale += [
                f"{PACKAGE}/{flavour}/{p}"
                for p in differences(HERE / PACKAGE / flavour, fresh / PACKAGE / flavour)
            ]
    if stale:
        raise SystemExit(
            "the Python client is stale; run python gql/clients/python/generate.py:\n  "
            + "\n  ".join(stale)
        )
    print("the Python client is up to date")


if __name__ == "__main__":
    main()
