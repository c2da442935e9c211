"""Lifecycle of a second, throwaway local server (own ports and home): start is idempotent,
stop leaves no Java process and its class archive, a half-finished install is detected and
repaired. The same server shows what a fresh home gets: a random password in an owner-only
file (an old install's fixed password is rotated), CORS limited to the server's own origin,
only the APOC routines we call."""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, LiteralString

import httpx
import pytest
from neo4j import GraphDatabase
from neo4j.exceptions import AuthError, ClientError

from cypher import load
from graph.runtime import LocalNeo4j, RuntimeConfig
from graph.runtime.password import (
    LEGACY_PASSWORD,
    change_password,
    pending_path,
    read_secret,
    write_secret,
)
from server.runtime import local_neo4j
from tests.cypher import load_query

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


def _link_or_copy(src: str, dst: str) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


@pytest.fixture(scope="module")
def runtime(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalNeo4j]:
    main = local_neo4j()
    if not any(main.lib.glob("neo4j-5.*.jar")):
        pytest.fail("the main local Neo4j is not installed (scripts/bootstrap.sh does that)")
    home = tmp_path_factory.mktemp("runtime")
    # No password configured: the home's generated one, as for `make run`. The ports sit below
    # Linux's ephemeral range (32768-60999): a client socket of another test can hold a port
    # in that range, and the server then fails to bind it.
    rt = LocalNeo4j(
        RuntimeConfig(
            home=home,
            bolt_port=17687,
            http_port=17474,
            heap="512m",
            pagecache="64m",
            tx_memory="128m",
            with_gds=False,
            # the machine's: this server shares the class archive of the same Java and jars
            jar_cache=main.config.jar_cache,
        )
    )
    # Reuse the jars already resolved from Maven Central instead of resolving them again (hard
    # links where the file system allows: removing one here leaves the main install's).
    for name in ("lib", "plugins"):
        shutil.copytree(getattr(main, name), getattr(rt, name), copy_function=_link_or_copy)
    rt.marker.write_text(rt._fingerprint())
    yield rt
    rt.stop()


@pytest.fixture(scope="module")
def started(runtime: LocalNeo4j) -> LocalNeo4j:
    assert runtime.start() is True
    return runtime


def _login(
    rt: LocalNeo4j, password: str, text: LiteralString = load("schema/components"), **params: object
) -> list[dict[str, Any]]:
    """Log in with ``password`` and run one statement."""
    with (
        GraphDatabase.driver(rt.bolt_uri, auth=("neo4j", password)) as driver,
        driver.session() as session,
    ):
        return session.run(text, params).data()


def test_a_fresh_home_gets_a_random_owner_only_password(started: LocalNeo4j) -> None:
    path = started.password_file
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    password = read_secret(path)
    assert password and len(password) >= 32 and password != LEGACY_PASSWORD
    other = read_secret(local_neo4j().password_file)  # the test server's home, if generated
    assert password != other
    assert _login(started, password)
    with pytest.raises(AuthError):
        _login(started, LEGACY_PASSWORD)


def test_a_configured_password_may_start_with_a_dash(tmp_path: Path) -> None:
    # The admin command that sets the initial password must not read it as an option.
    main = local_neo4j()
    rt = LocalNeo4j(RuntimeConfig(home=tmp_path, password="-starts-with-a-dash-0123456789"))
    rt.lib.parent.mkdir(parents=True)
    rt.lib.symlink_to(main.lib, target_is_directory=True)
    rt.write_config()
    rt._set_initial_password()
    assert (rt.data / "dbms" / "auth.ini").exists()


def test_neo4j_http_answers_cors_only_for_its_own_origin(started: LocalNeo4j) -> None:
    base = f"http://127.0.0.1:{started.config.http_port}"
    for method in ("GET", "OPTIONS"):
        answer = httpx.request(
            method,
            f"{base}/",
            headers={"Origin": "http://evil.example", "Access-Control-Request-Method": "POST"},
        )
        allowed = answer.headers.get("access-control-allow-origin")
        assert allowed == base, (method, allowed)  # never "*" nor the foreign origin


def test_plans_are_remade_at_most_once_a_minute(started: LocalNeo4j) -> None:
    # The server runs the setting (a misspelt one would not start): re-planning every 10 s
    # took ~40 % of Neo4j's CPU under sequential writes to a growing database.
    rows = _login(
        started,
        started.passwords()[0],
        load_query("scale_settings"),
        names=["dbms.cypher.min_replan_interval"],
    )
    assert [r["value"] for r in rows] == ["1m"], rows  # 60s, as the server prints it


def test_apoc_routines_outside_the_allowlist_are_refused(started: LocalNeo4j) -> None:
    password = started.passwords()[0]
    assert str(_login(started, password, load("schema/apoc_version"))[0]["version"]).startswith(
        "5."
    )
    assert _login(started, password, load_query("sleep"), ms=1) == [{"slept": True}]
    with pytest.raises(ClientError, match=r"apoc\.meta\.schema"):
        _login(started, password, load_query("apoc_meta_schema"))


def test_an_old_install_gets_a_random_password_at_its_next_start(started: LocalNeo4j) -> None:
    # Data from before the password file: the server has the old fixed password, no file.
    current = started.passwords()[0]
    change_password(started.bolt_uri, "neo4j", current, LEGACY_PASSWORD)
    started.password_file.unlink()
    assert started.start(log=lambda _m: None) is False  # running: rotated in place
    rotated = read_secret(started.password_file)
    assert rotated and rotated not in (current, LEGACY_PASSWORD)
    assert stat.S_IMODE(started.password_file.stat().st_mode) == 0o600
    assert _login(started, rotated)
    # A rotation interrupted after the server took the new password but before the rename.
    write_secret(pending_path(started.config.home), "pending-password-0123456789abcdef")
    change_password(started.bolt_uri, "neo4j", rotated, "pending-password-0123456789abcdef")
    started.password_file.unlink()
    assert started.start(log=lambda _m: None) is False
    assert read_secret(started.password_file) == "pending-password-0123456789abcdef"
    assert not pending_path(started.config.home).exists()


def test_start_twice_runs_one_server_and_stop_leaves_none(started: LocalNeo4j) -> None:
    runtime = started
    assert runtime.start() is False
    home = runtime.config.neo4j_home
    assert len(_java_processes(home)) == 1
    st = runtime.status()
    assert st.running and st.version and st.version.startswith("5.26.")
    assert runtime.stop() is True
    assert _java_processes(home) == []
    assert runtime.status().running is False
    assert runtime.stop() is False


def test_a_start_maps_the_class_archive_a_clean_stop_left(runtime: LocalNeo4j) -> None:
    """The stop above was clean: this server's class archive is there (written then, or by an
    earlier server of the same Java and jars), and the next start maps it."""
    archive = runtime.class_archive()
    assert archive is not None, "the tests' Java has no base class archive"
    assert archive.path.is_file()
    assert runtime.start(log=lambda _m: None) is True
    try:
        pid = runtime.status().pid
        assert str(archive.path) in Path(f"/proc/{pid}/maps").read_text()
    finally:
        assert runtime.stop() is True


def test_half_finished_install_is_detected_and_repaired(runtime: LocalNeo4j) -> None:
    # Without the jar cache: the repair resolves the jars with Maven, as a first install does.
    runtime = LocalNeo4j(replace(runtime.config, jar_cache=None))
    jar = next(runtime.lib.glob("neo4j-kernel-*.jar"))
    jar.unlink()
    runtime.marker.unlink()  # an interrupted install never wrote its marker
    assert not runtime.is_installed()
    assert runtime.install(log=lambda _m: None) is True
    assert jar.exists() and runtime.is_installed()
    assert runtime.install(log=lambda _m: None) is False  # re-running is a no-op
