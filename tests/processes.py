"""Child processes of tests and benchmarks: the API's uvicorn command line and a stop that
cannot hang."""

from __future__ import annotations

import subprocess
import sys
from typing import Any


def api_command(port: int) -> list[str]:
    """``uvicorn server.app:create_app --factory`` on ``127.0.0.1:port``, logging warnings only."""
    return [
        sys.executable,
        "-m",
        "uvicorn",
        "server.app:create_app",
        "--factory",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--log-level",
        "warning",
    ]


def stop(proc: subprocess.Popen[Any], timeout_s: float = 30) -> bool:
    """Send ``proc`` SIGTERM and wait up to ``timeout_s``; kill it if it is still running then.
    True when it stopped on SIGTERM."""
    proc.terminate()
    try:
        proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        return False
    return True
