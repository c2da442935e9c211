"""Lifecycle of a second, throwaway local server (own ports and home): start is idempotent,
stop leaves no Java process, a half-finished install is detected and repaired."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from graph.runtime import LocalNeo4j, RuntimeConfig
from server.runtime import local_neo4j

pytestmark = pytest.mark.neo4j


def _java_processes(home: Path) -> list[int]:
    pids = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmd = (proc / "cmdline").read_bytes()
        except OSError:
            continue
        if b"CommunityEntryPoint" in cmd and f"--home-dir={home}".encode() in cmd:
            pids.append(int(proc.name))
    return pids


@pytest.fixture(scope="module")
def runtime(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalNeo4j]:
    main = local_neo4j()
    if not any(main.lib.glob("neo4j-5.*.jar")):
        pytest.fail("the main local Neo4j is not installed (scripts/bootstrap.sh does that)")
    home = tmp_path_factory.mktemp("runtime")
    rt = LocalNeo4j(RuntimeConfig(home=home, password="lifecycle-pw", bolt_port=37687,
                                  http_port=37474, heap="512m", pagecache="64m", tx_memory="128m",
                                  with_gds=False))
    # Reuse the jars already resolved from Maven Central instead of resolving them again.
    for name in ("lib", "plugins"):
        shutil.copytree(getattr(main, name), getattr(rt, name))
    rt.marker.write_text(rt._fingerprint())
    yield rt
    rt.stop()


def test_start_twice_runs_one_server_and_stop_leaves_none(runtime: LocalNeo4j) -> None:
    assert runtime.start() is True
    assert runtime.start() is False
    home = runtime.config.neo4j_home
    assert len(_java_processes(home)) == 1
    st = runtime.status()
    assert st.running and st.version and st.version.startswith("5.26.")
    assert runtime.stop() is True
    assert _java_processes(home) == []
    assert runtime.status().running is False
    assert runtime.stop() is False


def test_half_finished_install_is_detected_and_repaired(runtime: LocalNeo4j) -> None:
    jar = next(runtime.lib.glob("neo4j-kernel-*.jar"))
    jar.unlink()
    runtime.marker.unlink()  # an interrupted install never wrote its marker
    assert not runtime.is_installed()
    assert runtime.install(log=lambda _m: None) is True
    assert jar.exists() and runtime.is_installed()
    assert runtime.install(log=lambda _m: None) is False  # re-running is a no-op
