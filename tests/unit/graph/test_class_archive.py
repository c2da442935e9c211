from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from graph.runtime import LocalNeo4j, RuntimeConfig
from graph.runtime.class_archive import (
    KEEP,
    PART_MAX_AGE_S,
    ClassArchive,
    archive_key,
    class_path,
    for_java,
    prune,
)


def _home(root: Path) -> Path:
    """A home with jars in plugins/ and lib/ (and a file that is not a jar)."""
    home = root / "neo4j"
    for folder, names in (("plugins", ["b.jar", "a.jar"]), ("lib", ["z.jar", "m.JAR", "x.txt"])):
        (home / folder).mkdir(parents=True)
        for name in names:
            (home / folder / name).write_text(f"{folder}/{name}")
    return home


def _jdk(root: Path, *, base_archive: bool = True) -> str:
    """A Java layout: bin/java and lib/server/libjvm.so, with or without the base archive."""
    (root / "bin").mkdir(parents=True)
    (root / "lib/server").mkdir(parents=True)
    (root / "bin/java").write_text("")
    (root / "lib/server/libjvm.so").write_text("jvm")
    if base_archive:
        (root / "lib/server/classes.jsa").write_text("base")
    return str(root / "bin/java")


def test_the_class_path_is_each_folder_sorted_relative_to_the_home(tmp_path: Path) -> None:
    home = _home(tmp_path)
    folders = (home / "plugins", home / "conf", home / "lib")  # conf/ does not exist
    assert class_path(home, folders) == ["plugins/a.jar", "plugins/b.jar", "lib/m.JAR", "lib/z.jar"]


def test_homes_linked_from_the_same_jars_share_a_key_and_a_changed_jar_does_not(
    tmp_path: Path,
) -> None:
    first = _home(tmp_path / "one")
    second = tmp_path / "elsewhere" / "neo4j"
    shutil.copytree(first, second, copy_function=os.link)  # hard links, as the cache gives
    jvm = Path(_jdk(tmp_path / "jdk")).parent.parent / "lib/server/libjvm.so"
    folders = ("plugins", "conf", "lib")
    jars = class_path(first, [first / f for f in folders])
    assert jars == class_path(second, [second / f for f in folders])
    key = archive_key(jvm, first, jars)
    assert archive_key(jvm, second, jars) == key

    (second / "lib/z.jar").unlink()
    (second / "lib/z.jar").write_text("lib/z.jar, rebuilt")
    assert archive_key(jvm, second, jars) != key


def test_a_java_without_a_base_archive_gets_none(tmp_path: Path) -> None:
    home = _home(tmp_path)
    with_base = for_java(_jdk(tmp_path / "full"), tmp_path / "cache", home, ["lib/z.jar"])
    assert with_base is not None and with_base.folder == tmp_path / "cache" / "class-archives"
    trimmed = _jdk(tmp_path / "trimmed", base_archive=False)
    assert for_java(trimmed, tmp_path / "cache", home, ["lib/z.jar"]) is None


def test_a_start_writes_an_archive_at_exit_until_one_is_there(tmp_path: Path) -> None:
    archive = ClassArchive(tmp_path / "archives", "k1")
    part = archive.new_part()
    assert part.parent == archive.folder and part.name.startswith("k1.") and part != archive.path
    assert archive.jvm_options(part) == [f"-XX:ArchiveClassesAtExit={part}"]
    assert archive.folder.is_dir()  # the JVM writes into it
    archive.path.write_text("archive")
    assert archive.jvm_options(archive.new_part()) == [f"-XX:SharedArchiveFile={archive.path}"]


@pytest.mark.parametrize(
    ("clean", "content", "kept"),
    [(True, "classes", True), (False, "classes", False), (True, "", False)],
)
def test_only_what_a_clean_exit_wrote_becomes_the_archive(
    tmp_path: Path, clean: bool, content: str, kept: bool
) -> None:
    archive = ClassArchive(tmp_path, "k1")
    part = archive.new_part()
    part.write_text(content)
    assert archive.settle(part, clean=clean) is kept
    assert not part.exists()
    assert archive.path.exists() is kept


def test_prune_keeps_the_newest_archives_and_young_parts(tmp_path: Path) -> None:
    now = time.time()
    for i in range(KEEP + 2):
        path = tmp_path / f"a{i}.jsa"
        path.write_text("x")
        os.utime(path, (now - 100 * i, now - 100 * i))  # a0 is the newest
    old, young = tmp_path / "k.old.part", tmp_path / "k.young.part"
    for path, age in ((old, PART_MAX_AGE_S + 60), (young, 60)):
        path.write_text("x")
        os.utime(path, (now - age, now - age))
    prune(tmp_path, now=now)
    assert sorted(p.name for p in tmp_path.glob("*.jsa")) == [f"a{i}.jsa" for i in range(KEEP)]
    assert young.exists() and not old.exists()


def test_the_server_command_names_its_jars_relative_to_the_home(tmp_path: Path) -> None:
    _home(tmp_path)
    rt = LocalNeo4j(RuntimeConfig(home=tmp_path, password="pw-123456"))
    cmd = rt.command(["-XX:SharedArchiveFile=/x.jsa"])
    assert cmd[cmd.index("-cp") + 1] == "plugins/a.jar:plugins/b.jar:lib/m.JAR:lib/z.jar"
    assert cmd[-4] == "-XX:SharedArchiveFile=/x.jsa"  # JVM options come before the main class


def test_no_archive_without_a_jar_cache_or_when_turned_off(tmp_path: Path) -> None:
    _home(tmp_path)
    java = _jdk(tmp_path / "jdk")
    cached = RuntimeConfig(home=tmp_path, java=java, jar_cache=tmp_path / "cache")
    assert LocalNeo4j(cached).class_archive() is not None
    assert LocalNeo4j(RuntimeConfig(home=tmp_path, java=java)).class_archive() is None
    off = RuntimeConfig(home=tmp_path, java=java, jar_cache=tmp_path / "c", class_archive=False)
    assert LocalNeo4j(off).class_archive() is None


def test_a_server_that_died_leaves_no_archive_and_a_clean_stop_keeps_it(tmp_path: Path) -> None:
    _home(tmp_path)
    config = RuntimeConfig(home=tmp_path, java=_jdk(tmp_path / "jdk"), jar_cache=tmp_path / "c")
    rt = LocalNeo4j(config)
    rt.run_dir.mkdir(parents=True)
    archive = rt.class_archive()
    assert archive is not None
    # A start with no archive yet: the JVM is told to write one, to a part named in run/.
    (option,) = rt._class_archive_options()
    part = Path(option.split("=", 1)[1])
    part.write_text("half an archive")
    # The next start finds that server gone without a stop: its part is dropped.
    (option,) = rt._class_archive_options()
    assert not part.exists() and not archive.path.exists()
    part = Path(option.split("=", 1)[1])
    part.write_text("classes")
    rt._settle_class_archive(clean=True)  # what stop() does after a clean exit
    assert archive.path.read_text() == "classes"
    assert rt._class_archive_options() == [f"-XX:SharedArchiveFile={archive.path}"]


def _slow_to_exit(rt: LocalNeo4j, exit_after_s: float) -> subprocess.Popen[bytes]:
    """A process that looks like the home's server (its main class on the command line) and
    exits ``exit_after_s`` after SIGTERM, as a server writing its archive does."""
    code = (
        "import signal, sys, time\n"
        f"signal.signal(signal.SIGTERM, lambda *_: (time.sleep({exit_after_s}), sys.exit(0)))\n"
        "time.sleep(60)\n"
    )
    main_class = rt.config.server_line.main_class
    proc = subprocess.Popen([sys.executable, "-c", code, main_class])
    rt.run_dir.mkdir(parents=True, exist_ok=True)
    rt.pid_file.write_text(str(proc.pid))
    time.sleep(0.5)  # its handler is set
    return proc


def _reaped(pid: int) -> bool:
    """stop() reaps its own children (the test's process here)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.parametrize("writing", [True, False])
def test_a_server_writing_its_archive_gets_time_to_finish(tmp_path: Path, writing: bool) -> None:
    _home(tmp_path)
    config = RuntimeConfig(home=tmp_path, java=_jdk(tmp_path / "jdk"), jar_cache=tmp_path / "c")
    rt = LocalNeo4j(config)
    proc = _slow_to_exit(rt, 1.5)
    if writing:
        (option,) = rt._class_archive_options()
        Path(option.split("=", 1)[1]).write_text("classes")
    started = time.monotonic()
    assert rt.stop(timeout_s=0.5) is True
    took = time.monotonic() - started
    # Given the extra time the process ends by itself; else it is killed at the deadline.
    assert (took >= 1.5) if writing else (took < 1.4), took
    assert proc.poll() is not None or _reaped(proc.pid)
    archive = rt.class_archive()
    assert archive is not None and archive.path.exists() is writing


def test_a_cache_folder_it_cannot_write_leaves_the_server_without_an_archive(
    tmp_path: Path,
) -> None:
    _home(tmp_path)
    (tmp_path / "not-a-folder").write_text("")
    config = RuntimeConfig(
        home=tmp_path, java=_jdk(tmp_path / "jdk"), jar_cache=tmp_path / "not-a-folder"
    )
    rt = LocalNeo4j(config)
    rt.run_dir.mkdir(parents=True)
    assert rt._class_archive_options() == []
    assert not (rt.run_dir / "class-archive.part").exists()
