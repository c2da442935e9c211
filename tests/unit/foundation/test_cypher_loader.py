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


def test_python_code_holds_no_cypher() -> None:
    root = CYPHER_ROOT.parent
    pattern = re.compile(r"[\"'](MATCH|MERGE|UNWIND|CREATE|CALL db\.)[ (]")
    offenders = [
        str(p.relative_to(root))
        for pkg in ("graph", "gql", "server", "seed")
        for p in (root / pkg).rglob("*.py")
        if pattern.search(p.read_text())
    ]
    assert offenders == []
