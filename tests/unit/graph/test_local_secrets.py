"""The local server's secrets stay the owner's: the initial password reaches the admin command
in an owner-only argument file (never on its command line, readable in /proc by every user),
`hippograph up` does not print it, and the data, log and run folders are 0700."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from graph.runtime import LocalNeo4j, RuntimeConfig
from graph.runtime.local_neo4j import argfile_quote
from server.settings import Settings

SECRET = '-Pw with "quotes" and \\ slash'


def test_the_initial_password_never_goes_on_a_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rt = LocalNeo4j(RuntimeConfig(home=tmp_path, password=SECRET))
    rt.write_config()
    seen: dict[str, Any] = {}

    def run(cmd: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        seen["cmd"] = cmd
        arg = Path(cmd[-1].removeprefix("@"))
        seen["mode"] = stat.S_IMODE(arg.stat().st_mode)
        seen["text"] = arg.read_text()
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(subprocess, "run", run)
    rt._set_initial_password()

    assert not any("Pw" in part for part in seen["cmd"])
    assert seen["cmd"][-2:-1] == ["--"] and seen["cmd"][-1].startswith("@")
    assert seen["mode"] == 0o600
    assert seen["text"].strip() == argfile_quote(SECRET)
    assert not Path(seen["cmd"][-1][1:]).exists()  # deleted right after


def test_argfile_quoting_keeps_every_character() -> None:
    assert argfile_quote('a"b\\c') == '"a\\"b\\\\c"'
    assert argfile_quote("-x y") == '"-x y"'


def test_data_log_and_run_folders_are_owner_only_whatever_the_umask(tmp_path: Path) -> None:
    rt = LocalNeo4j(RuntimeConfig(home=tmp_path))
    old = os.umask(0)
    try:
        rt.write_config()
        os.chmod(rt.data, 0o777)  # an older install: fixed at the next start
        rt.write_config()
    finally:
        os.umask(old)
    for folder in (rt.data, rt.logs, rt.run_dir):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder


def test_up_does_not_print_the_password(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import server.cli.serve as serve
    import server.runtime
    from server.cli import app

    settings = Settings(_env_file=None, home=tmp_path, neo4j_dir=None, neo4j_password=SECRET)

    class Started:
        def start(self, log: Any = print) -> bool:
            return True

    monkeypatch.setattr(serve, "get_settings", lambda: settings)
    monkeypatch.setattr(serve, "_serve", lambda *a, **k: None)
    monkeypatch.setattr(server.runtime, "local_neo4j", lambda s=None: Started())
    out = CliRunner().invoke(app, ["up", "--no-seed"])
    assert out.exit_code == 0, out.output
    assert "Neo4j Browser" in out.output and "hippograph neo4j password" in out.output
    assert "Pw with" not in out.output
