from __future__ import annotations

import pytest

from server.settings import Settings


def test_defaults_are_embedded_offline_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in (
        "NEO4J_URI",
        "HIPPOGRAPH_LLM_BASE_URL",
        "HIPPOGRAPH_LLM_API_KEY",
        "HIPPOGRAPH_NEO4J_BOLT_PORT",
        "HIPPOGRAPH_API_HOST",
    ):
        monkeypatch.delenv(var, raising=False)
    s = Settings(_env_file=None)
    assert s.local_neo4j and s.bolt_uri == "bolt://127.0.0.1:7687"
    assert not s.llm_enabled
    assert s.api_host == "127.0.0.1"


def test_neo4j_uri_env_means_remote(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NEO4J_URI", "neo4j://db.example:7687")
    s = Settings(_env_file=None)
    assert not s.local_neo4j and s.bolt_uri == "neo4j://db.example:7687"


def test_secrets_are_masked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HIPPOGRAPH_LLM_API_KEY", "sk-very-secret")
    monkeypatch.setenv("NEO4J_PASSWORD", "pw-very-secret")
    s = Settings(_env_file=None)
    assert s.llm_enabled
    masked = s.masked()
    assert masked["llm_api_key"] == "***" and masked["neo4j_password"] == "***"
    assert "sk-very-secret" not in repr(s) and "pw-very-secret" not in repr(s)


def test_stage_model_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HIPPOGRAPH_LLM_MODEL", "base")
    monkeypatch.setenv("HIPPOGRAPH_LLM_MODEL_RERANK", "small")
    s = Settings(_env_file=None)
    assert s.model_for("rerank") == "small" and s.model_for("extraction") == "base"


def test_admin_key_has_a_minimum_length(monkeypatch: pytest.MonkeyPatch) -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="at least 32 characters"):
        Settings(admin_api_key="hunter2")
    monkeypatch.setenv("HIPPOGRAPH_ADMIN_API_KEY", "short-admin-key")
    with pytest.raises(ValidationError, match="HIPPOGRAPH_ADMIN_API_KEY must be at least 32"):
        Settings()
    assert Settings(admin_api_key="k" * 32).admin_api_key is not None


def test_trusted_proxies_must_be_addresses(monkeypatch: pytest.MonkeyPatch) -> None:
    from pydantic import ValidationError

    monkeypatch.setenv("HIPPOGRAPH_TRUSTED_PROXIES", "10.0.0.0/8, proxy.example")
    with pytest.raises(ValidationError, match=r"'proxy\.example' is not an IP"):
        Settings(_env_file=None)
    assert Settings(trusted_proxies="10.0.0.0/8, ::1").trusted_proxies


def test_neo4j_dir_moves_only_the_local_server(tmp_path) -> None:
    home, tests = tmp_path / "home", tmp_path / "test-neo4j"
    s = Settings(_env_file=None, home=home, neo4j_dir=tests)
    assert s.neo4j_home == tests and s.default_neo4j_home == home
    assert s.neo4j_password_file.parent == tests
    line = s.model_copy(update={"neo4j_line": "2026"})
    assert line.neo4j_home == tests / "line-2026" and line.default_neo4j_home == home / "line-2026"
    assert Settings(_env_file=None, home=home, neo4j_dir=None).neo4j_home == home
