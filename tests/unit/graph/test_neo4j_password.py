"""The local server's password is generated per home, kept in a 0600 file and read from there
by everything that logs in; an explicit NEO4J_PASSWORD wins; the server's neo4j.conf limits
APOC to the routines the code calls and CORS to the server's own origin."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from graph.runtime import LocalNeo4j, RuntimeConfig
from graph.runtime.password import (
    LEGACY_PASSWORD,
    candidates,
    new_password,
    password_path,
    pending_path,
    read_secret,
    write_secret,
)
from server.settings import Settings


def test_new_passwords_are_long_and_random() -> None:
    drawn = {new_password() for _ in range(50)}
    assert len(drawn) == 50
    assert all(len(p) >= 32 for p in drawn) and LEGACY_PASSWORD not in drawn


def test_new_passwords_are_letters_and_digits_only() -> None:
    # A leading "-" would be read as an option by the admin command (and by cypher-shell -p).
    assert all(new_password().isalnum() for _ in range(2_000))


def test_the_secret_file_is_owner_only_whatever_the_umask(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        write_secret(tmp_path / "home" / "secret", "s3cret")
    finally:
        os.umask(old)
    path = tmp_path / "home" / "secret"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert read_secret(path) == "s3cret"
    write_secret(path, "other")  # replaced atomically, still 0600, no temporary file left
    assert read_secret(path) == "other" and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert sorted(p.name for p in path.parent.iterdir()) == ["secret"]


def test_candidates_prefer_the_file_then_the_old_password_then_a_pending_one(
    tmp_path: Path,
) -> None:
    assert candidates(tmp_path) == [LEGACY_PASSWORD]  # data from before the file existed
    write_secret(pending_path(tmp_path), "pending-pw")  # a rotation interrupted half-way
    assert candidates(tmp_path) == [LEGACY_PASSWORD, "pending-pw"]
    write_secret(password_path(tmp_path), "current-pw")
    assert candidates(tmp_path) == ["current-pw"]


def test_settings_read_the_file_and_an_explicit_password_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NEO4J_PASSWORD", raising=False)
    monkeypatch.delenv("HIPPOGRAPH_NEO4J_PASSWORD", raising=False)
    s = Settings(_env_file=None, home=tmp_path, neo4j_dir=None)
    assert s.neo4j_password is None and s.neo4j_secret() == LEGACY_PASSWORD
    write_secret(s.neo4j_password_file, "generated-pw")
    assert s.neo4j_secret() == "generated-pw"  # read at each call: the first start writes it
    monkeypatch.setenv("NEO4J_PASSWORD", "explicit-pw")
    assert Settings(_env_file=None, home=tmp_path, neo4j_dir=None).neo4j_secret() == "explicit-pw"


def test_the_runtime_uses_the_file_unless_a_password_is_configured(tmp_path: Path) -> None:
    from server.runtime import local_neo4j

    rt = local_neo4j(Settings(_env_file=None, home=tmp_path, neo4j_dir=None, neo4j_password=None))
    assert rt.config.password is None and rt.password_file == password_path(tmp_path)
    write_secret(rt.password_file, "generated-pw")
    assert rt.passwords() == ["generated-pw"]
    fixed = LocalNeo4j(RuntimeConfig(home=tmp_path, password="fixed-pw"))
    assert fixed.passwords() == ["fixed-pw"]


def _conf(tmp_path: Path) -> dict[str, str]:
    text = (tmp_path / "neo4j/conf/neo4j.conf").read_text()
    return dict(
        line.split("=", 1) for line in text.splitlines() if "=" in line and not line.startswith("#")
    )


def test_conf_limits_apoc_and_cors(tmp_path: Path) -> None:
    LocalNeo4j(RuntimeConfig(home=tmp_path, http_port=17001)).write_config()
    conf = _conf(tmp_path)
    assert conf["dbms.security.http_access_control_allow_origin"] == "http://127.0.0.1:17001"
    allowed = conf["dbms.security.procedures.allowlist"].split(",")
    assert "apoc.*" not in allowed and "apoc.version" in allowed
    assert all(not name.startswith("apoc.") or "*" not in name for name in allowed)
    assert "apoc" not in conf["dbms.security.procedures.unrestricted"]


def test_every_apoc_routine_the_code_calls_is_allowed() -> None:
    import re

    from graph.runtime.assemble import APOC_USED

    root = Path(__file__).resolve().parents[3]
    called = set()
    for folder in ("cypher", "tests/cypher"):
        for path in (root / folder).rglob("*.cypher"):
            if path.stem == "apoc_meta_schema":
                continue  # the one the allow-list test expects to be refused
            body = "\n".join(
                line for line in path.read_text().splitlines() if not line.lstrip().startswith("//")
            )
            called |= set(re.findall(r"\bapoc(?:\.\w+)+", body))
    assert called and called <= set(APOC_USED)
