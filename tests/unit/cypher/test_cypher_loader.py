from __future__ import annotations

import re
from pathlib import Path

import pytest

import cypher

CYPHER_ROOT = Path(cypher.__file__).parent


def test_load_returns_file_text() -> None:
    assert "RETURN 1 AS ok" in cypher.load("schema/ping")


@pytest.mark.parametrize("name", ["../etc/passwd", "schema/../x", "Schema/Ping", "", "a b"])
def test_load_refuses_malformed_names(name: str) -> None:
    with pytest.raises(cypher.CypherNotFound):
        cypher.load(name)


def test_load_unknown_name() -> None:
    with pytest.raises(cypher.CypherNotFound):
        cypher.load("schema/does_not_exist")


def test_script_splits_statements() -> None:
    parts = cypher.load_script("schema/v001_constraints")
    assert len(parts) > 20
    assert all(not p.endswith(";") for p in parts)
    assert any(p.startswith("CREATE FULLTEXT INDEX fact_text") for p in parts)


@pytest.mark.parametrize("value", ["lives_in", "Person", "a1"])
def test_identifiers_accepted(value: str) -> None:
    assert cypher.validate_identifier(value) == value


@pytest.mark.parametrize("value", ["", "1abc", "x`) DETACH DELETE n //", "a b", "a-b", "x" * 65])
def test_identifiers_refused(value: str) -> None:
    with pytest.raises(ValueError):
        cypher.validate_identifier(value)


def test_every_cypher_file_has_a_header_and_no_string_formatting() -> None:
    files = sorted(CYPHER_ROOT.rglob("*.cypher"))
    assert files
    for path in files:
        lines = path.read_text().splitlines()
        header = [ln for ln in lines[:4] if ln.startswith("//")]
        assert len(header) >= 3, f"{path}: needs a 3-line // header"
        assert any("params:" in ln for ln in header), f"{path}: header lacks params line"
        assert any("returns:" in ln for ln in header), f"{path}: header lacks returns line"
        body = "\n".join(ln for ln in lines if not ln.lstrip().startswith("//"))
        assert not re.search(r"\{[a-z_]+\}(?!\s*\))", body.replace("{}", "")) or "$" in body, path


PACKAGES = ("graph", "gql", "server", "seed")  # graph/ includes graph/runtime


def _python_files() -> list[Path]:
    root = CYPHER_ROOT.parent
    files = [p for pkg in PACKAGES for p in (root / pkg).rglob("*.py")]
    assert any("runtime" in p.parts for p in files)  # the local Neo4j runtime is covered
    return files


def test_python_code_holds_no_cypher() -> None:
    root = CYPHER_ROOT.parent
    pattern = re.compile(
        r"[\"'](MATCH|MERGE|UNWIND|CREATE|CALL db\.|CALL dbms\.|CALL apoc\.|"
        r"CALL gds\.)[ (]"
    )
    offenders = [str(p.relative_to(root)) for p in _python_files() if pattern.search(p.read_text())]
    assert offenders == []


# Statement names built at run time (``f"schema/vector_{label}"``) and the saved Neo4j Browser
# queries (a kit for people, listed with ``cypher.names("browser")``).
DYNAMIC = re.compile(
    r"^(schema/vector_[a-z_]+|schema/drop_[a-z]+_vector_index|browser/[a-z0-9_]+)$"
)
NAME = re.compile(r"[\"']([a-z0-9_]+(?:/[a-z0-9_]+)+)[\"']")


def test_every_statement_name_resolves_and_every_file_has_a_caller() -> None:
    shipped = {
        str(p.relative_to(CYPHER_ROOT))[: -len(".cypher")] for p in CYPHER_ROOT.rglob("*.cypher")
    }
    folders = {p.name for p in CYPHER_ROOT.iterdir() if p.is_dir()}
    used: dict[str, str] = {}
    for path in _python_files():
        for match in NAME.finditer(path.read_text()):
            if match.group(1).split("/")[0] in folders:
                used[match.group(1)] = str(path)
    missing = {name: where for name, where in used.items() if name not in shipped}
    assert missing == {}, "names without a .cypher file"
    uncalled = sorted(n for n in shipped if n not in used and not DYNAMIC.match(n))
    assert uncalled == [], "cypher files no production code runs (test-only ones go to tests/)"
    assert any(DYNAMIC.match(n) for n in shipped)


def test_test_only_cypher_is_outside_the_package_and_called() -> None:
    from tests.cypher import ROOT

    assert not (CYPHER_ROOT / "test").exists()
    sources = "\n".join(p.read_text() for p in ROOT.parent.rglob("*.py"))
    for path in sorted(ROOT.glob("*.cypher")):
        header = [ln for ln in path.read_text().splitlines()[:4] if ln.startswith("//")]
        assert len(header) >= 3, f"{path}: needs a 3-line // header"
        assert f'load_query("{path.stem}")' in sources, f"{path.name} has no caller"
