from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from graph.runtime import LocalNeo4j, RuntimeConfig, RuntimeError_


def test_config_is_loopback_with_explicit_memory(tmp_path: Path) -> None:
    rt = LocalNeo4j(
        RuntimeConfig(home=tmp_path, password="pw-123456", bolt_port=17000, http_port=17001)
    )
    rt.write_config()
    conf = dict(
        line.split("=", 1)
        for line in (tmp_path / "neo4j/conf/neo4j.conf").read_text().splitlines()
        if "=" in line and not line.startswith("#")
    )
    assert conf["server.default_listen_address"] == "127.0.0.1"
    assert conf["server.bolt.listen_address"] == "127.0.0.1:17000"
    assert conf["server.http.listen_address"] == "127.0.0.1:17001"
    assert conf["server.bolt.tls_level"] == "DISABLED"
    assert conf["server.https.enabled"] == "false"
    assert conf["server.memory.pagecache.size"] == "512m"
    assert "dbms.memory.transaction.total.max" in conf
    assert conf["db.transaction.timeout"] == "120s"  # the server terminates runaway queries
    assert conf["db.tx_log.rotation.retention_policy"] == "1G size"  # bounded disk use
    assert conf["dbms.cypher.min_replan_interval"] == "60s"  # plans not re-made every 10 s
    # written out, so that a setting can change it (50 is Neo4j's own default)
    assert conf["internal.dbms.index.vector.standard_merge_factor"] == "50"
    # a stop does not wait for Bolt's threads to stay idle for 5 s, twice
    assert conf["internal.dbms.bolt.netty_server_shutdown_quiet_period"] == "0"
    # one cached plan per statement and parameter types, whatever the strings' and lists' sizes
    assert conf["internal.cypher.use_parameter_size"] == "false"


def test_the_2026_line_gets_its_own_name_for_the_bolt_quiet_period(tmp_path: Path) -> None:
    LocalNeo4j(RuntimeConfig(home=tmp_path, password="pw-123456", line="2026")).write_config()
    text = (tmp_path / "neo4j/conf/neo4j.conf").read_text()
    assert "\ninternal.dbms.bolt.netty_server_shutdown_quiet_period_duration=0s\n" in text
    assert "netty_server_shutdown_quiet_period=" not in text


@pytest.mark.parametrize(
    ("setting", "value", "line"),
    [
        ("neo4j_vector_merge_factor", 10, "internal.dbms.index.vector.standard_merge_factor=10"),
        ("neo4j_min_replan_interval_s", 3600, "dbms.cypher.min_replan_interval=3600s"),
        ("neo4j_tx_timeout_s", 45, "db.transaction.timeout=45s"),
    ],
)
def test_server_settings_reach_neo4j_conf(
    tmp_path: Path, setting: str, value: float, line: str
) -> None:
    from server.runtime import local_neo4j
    from server.settings import Settings

    local_neo4j(Settings(home=tmp_path, neo4j_dir=None, **{setting: value})).write_config()
    assert f"{line}\n" in (tmp_path / "neo4j/conf/neo4j.conf").read_text()


def test_launch_command_bounds_heap(tmp_path: Path) -> None:
    rt = LocalNeo4j(RuntimeConfig(home=tmp_path, password="pw-123456", heap="1g"))
    cmd = rt.command()
    assert "-Xmx1g" in cmd and "-Xms1g" in cmd
    assert cmd[-3] == "org.neo4j.server.CommunityEntryPoint"
    assert cmd[-2] == f"--home-dir={tmp_path / 'neo4j'}"


def test_launch_command_compiles_with_c2_late_unless_turned_off(tmp_path: Path) -> None:
    from graph.runtime.local_neo4j import LATE_C2

    late = LocalNeo4j(RuntimeConfig(home=tmp_path, password="pw-123456")).command()
    assert set(LATE_C2) <= set(late)
    assert late.index(LATE_C2[0]) < late.index("org.neo4j.server.CommunityEntryPoint")
    default = LocalNeo4j(RuntimeConfig(home=tmp_path, password="pw-123456", late_c2=False))
    assert not set(LATE_C2) & set(default.command())


def test_the_late_c2_setting_reaches_the_runtime(tmp_path: Path) -> None:
    from server.runtime import local_neo4j
    from server.settings import Settings

    assert local_neo4j(Settings(home=tmp_path, neo4j_dir=None)).config.late_c2 is True
    off = local_neo4j(Settings(home=tmp_path, neo4j_dir=None, neo4j_late_c2=False))
    assert off.config.late_c2 is False


def test_not_installed_without_marker(tmp_path: Path) -> None:
    rt = LocalNeo4j(RuntimeConfig(home=tmp_path, password="pw-123456"))
    assert not rt.is_installed()
    assert rt.status().running is False


def test_a_second_runtime_links_the_jars_of_an_installed_one(tmp_path: Path) -> None:
    from graph.runtime.assemble import Assembly

    source = Assembly(RuntimeConfig(tmp_path / "home"))
    for folder in (source.lib, source.plugins):
        folder.mkdir(parents=True)
    (source.lib / "neo4j-5.26.0.jar").write_text("kernel")
    (source.plugins / "apoc-5.26.0.jar").write_text("apoc")
    (source.plugins / "open-gds-2.13.9.jar").write_text("gds")
    source.marker.write_text(source._fingerprint())
    assert source.is_installed()

    second = Assembly(RuntimeConfig(tmp_path / "tests", jars_from=tmp_path / "home", mvn="/none"))
    assert second.install(log=lambda _m: None) is True  # no Maven needed
    assert second.is_installed() and (second.conf / "neo4j.conf").is_file()
    jar = second.lib / "neo4j-5.26.0.jar"
    assert jar.stat().st_ino == (source.lib / "neo4j-5.26.0.jar").stat().st_ino  # a hard link
    assert sorted(p.name for p in second.plugins.iterdir()) == sorted(
        p.name for p in source.plugins.iterdir()
    )
    bare = RuntimeConfig(
        tmp_path / "bare", jars_from=tmp_path / "home", with_gds=False, mvn="/none"
    )
    without_gds = Assembly(bare)
    assert without_gds.install(log=lambda _m: None) is True
    assert [p.name for p in without_gds.plugins.iterdir()] == ["apoc-5.26.0.jar"]
    # Nothing installed to link from: Maven is needed.
    lone = Assembly(RuntimeConfig(tmp_path / "lone", jars_from=tmp_path / "nothing", mvn="/none"))
    with pytest.raises(RuntimeError_, match="Maven"):
        lone.install(log=lambda _m: None)


def test_a_fresh_home_links_the_jars_kept_in_the_jar_cache(tmp_path: Path) -> None:
    from graph.runtime.assemble import CACHED_PER_LINE, Assembly

    cache = tmp_path / "cache"
    first = Assembly(RuntimeConfig(tmp_path / "first", jar_cache=cache))
    for folder in (first.lib, first.plugins):
        folder.mkdir(parents=True)
    (first.lib / "neo4j-5.26.0.jar").write_text("kernel")
    (first.plugins / "apoc-5.26.0.jar").write_text("apoc")
    first._fill_cache(log=lambda _m: None)  # what an install does after Maven
    (entry,) = cache.iterdir()
    assert entry.name.startswith("5.26-")

    second = Assembly(RuntimeConfig(tmp_path / "second", jar_cache=cache, mvn="/none"))
    assert second.install(log=lambda _m: None) is True  # no Maven needed
    assert second.is_installed() and (second.conf / "neo4j.conf").is_file()
    jar = second.lib / "neo4j-5.26.0.jar"
    assert jar.stat().st_ino == (first.lib / "neo4j-5.26.0.jar").stat().st_ino  # a hard link
    assert [p.name for p in second.plugins.iterdir()] == ["apoc-5.26.0.jar"]
    # Other POMs or options, another fingerprint: not taken from this entry.
    other = Assembly(
        RuntimeConfig(tmp_path / "other", jar_cache=cache, with_gds=False, mvn="/none")
    )
    with pytest.raises(RuntimeError_, match="Maven"):
        other.install(log=lambda _m: None)
    # Only the line's most recently used entries are kept.
    for n in range(CACHED_PER_LINE + 1):
        (cache / f"5.26-old{n}").mkdir()
    for n in range(CACHED_PER_LINE + 1):
        os.utime(cache / f"5.26-old{n}", (n, n))
    (cache / "2026-kept").mkdir()
    os.utime(cache / "2026-kept", (0, 0))
    shutil.rmtree(entry)
    first._fill_cache(log=lambda _m: None)
    assert sorted(p.name for p in cache.iterdir()) == sorted(
        ["2026-kept", entry.name, *(f"5.26-old{n}" for n in range(2, CACHED_PER_LINE + 1))]
    )
