"""``hippograph serve``: the uvicorn it starts bounds WebSocket messages like request bodies;
several API processes run under uvicorn's own command line (whose spawned workers do not
re-import the CLI before answering the supervisor's health check); before serving it prints
every address and what each is for."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from starlette.routing import BaseRoute
from typer.testing import CliRunner

from server.app import create_app
from server.cli import app, serve
from server.runtime import addresses
from server.settings import Settings


def test_one_process_bounds_websocket_frames_like_bodies(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda *_args, **kwargs: seen.update(kwargs))
    serve._serve(Settings(auth_disabled=True, max_body_bytes=123_456), 1)
    assert seen["ws_max_size"] == 123_456


def test_several_processes_run_under_uvicorns_own_command_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen: dict[str, Any] = {}

    def execvpe(file: str, args: list[str], env: dict[str, str]) -> None:
        seen.update(file=file, args=args, env=env)

    monkeypatch.setattr(os, "execvpe", execvpe)
    serve._serve(
        Settings(auth_disabled=True, max_body_bytes=123_456, api_port=8123, home=tmp_path), 2
    )
    args = seen["args"]
    # The spawned workers' main module is uvicorn's, not the hippograph script (the CLI).
    assert seen["file"] == sys.executable and args[1:4] == [
        "-m",
        "uvicorn",
        "server.app:create_app",
    ]
    assert "hippograph" not in " ".join(args[1:])
    option = {args[i]: args[i + 1] for i in range(4, len(args) - 1) if args[i].startswith("--")}
    assert option["--workers"] == "2" and option["--port"] == "8123"
    assert option["--ws-max-size"] == "123456"
    assert int(option["--timeout-worker-healthcheck"]) >= 30  # uvicorn's 5 s killed slow starts
    assert seen["env"]["HIPPOGRAPH_API_PROCESSES"] == "2"
    assert seen["env"]["HIPPOGRAPH_AUTH_DISABLED"] == "true"
    # the workers' shared start-up folder (they warm up in turn and report ready together)
    assert Path(seen["env"]["HIPPOGRAPH_API_GROUP_DIR"]) == tmp_path / "run" / f"api-{os.getpid()}"


def _paths(routes: list[BaseRoute]) -> set[str]:
    return {str(getattr(r, "path", "")) for r in routes}


def test_every_printed_api_address_is_a_route_of_the_app() -> None:
    settings = Settings(auth_disabled=True, api_port=8123)
    served = _paths(create_app(settings).routes)
    api = [a for a in addresses(settings) if a.url.startswith("http://127.0.0.1:8123")]
    paths = {a.url.removeprefix("http://127.0.0.1:8123") for a in api}
    assert paths >= {"/graphql", "/explorer", "/mcp", "/healthz", "/readyz", "/metrics"}
    assert paths <= served, paths - served
    assert all(a.why for a in addresses(settings))


def test_serve_prints_every_address_before_serving(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serve, "_serve", lambda settings, workers: print("SERVING"))
    monkeypatch.setenv("HIPPOGRAPH_AUTH_DISABLED", "true")
    out = CliRunner().invoke(app, ["serve", "--port", "8123"]).output
    assert out.index("SERVING") > max(
        out.index(f"http://127.0.0.1:8123{path}")
        for path in ("/graphql", "/explorer", "/mcp", "/healthz", "/readyz", "/metrics")
    ), out
    assert "GraphiQL" in out and "explorer" in out.lower() and "MCP" in out and "metrics" in out
