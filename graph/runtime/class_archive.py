"""Java class-data sharing (CDS) for the local server: the classes a server loaded, kept in an
archive that its later starts map instead of reading, parsing and verifying them again.

One archive per Java and set of jars, in the machine's jar cache beside the jars it describes,
so every home linked from the same cached jars (`make run`'s, the tests', the drills') shares
it. For that the server's class path names its jars relative to the home (the server runs in
it), sorted: Java 17 takes an archive only for the class path it was made with, entry for entry.

A start that finds no archive for its key asks the JVM to write one when it exits
(``-XX:ArchiveClassesAtExit``), to a file of its own; a clean stop moves that file into place
(atomically: a server starting meanwhile never maps half an archive); a server that died
leaves nothing behind. The JVM checks an archive before it maps it (its own build, the jars'
sizes and times) and runs without one it cannot use.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["WRITE_S", "ClassArchive", "class_path", "for_java", "prune"]

FOLDER = "class-archives"  # in the jar cache
KEEP = 4  # archives kept per cache (140-300 MB each): the lines and plugin sets in use
WRITE_S = 120.0  # more time a stopping server gets to write its archive (10-30 s here)
PART_MAX_AGE_S = 24 * 3600  # a part older than this belongs to a server that never stopped


def class_path(home: Path, folders: Sequence[Path]) -> list[str]:
    """The jars of ``folders`` (each inside ``home``), relative to ``home``: folder by folder
    in the given order, each sorted by name (what ``folder/*`` would give, in a fixed order)."""
    jars: list[str] = []
    for folder in folders:
        if folder.is_dir():
            names = sorted(p.name for p in folder.iterdir() if p.suffix.lower() == ".jar")
            jars += [os.path.relpath(folder / name, home) for name in names]
    return jars


def _stamp(path: Path) -> str:
    st = path.stat()
    return f"{st.st_size}:{st.st_mtime_ns}"


def archive_key(jvm: Path, home: Path, jars: Sequence[str]) -> str:
    """What an archive is valid for: the JVM library (its path, size and time: an upgraded JDK
    gets a new archive) and each jar's name, size and time (hard links share them, so homes
    linked from the same cached jars share a key)."""
    digest = hashlib.sha256(f"{jvm}|{_stamp(jvm)}".encode())
    for jar in jars:
        digest.update(f"\n{jar}|{_stamp(home / jar)}".encode())
    return digest.hexdigest()[:20]


def _libjvm(java: str) -> Path | None:
    """The JVM library of a ``java`` executable, when it has the base archive that an archive
    of the application's classes is layered on (a trimmed runtime may have none)."""
    server = Path(os.path.realpath(java)).parent.parent / "lib" / "server"
    if (server / "classes.jsa").is_file() and (server / "libjvm.so").is_file():
        return server / "libjvm.so"
    return None


@dataclass(frozen=True)
class ClassArchive:
    """The archive of one Java and set of jars (``path``, present once a server made it)."""

    folder: Path
    key: str

    @property
    def path(self) -> Path:
        return self.folder / f"{self.key}.jsa"

    def new_part(self) -> Path:
        """A file of its own for a server to write the archive to when it exits."""
        return self.folder / f"{self.key}.{secrets.token_hex(4)}.part"

    def jvm_options(self, part: Path) -> list[str]:
        """Map the archive when there is one, else write one to ``part`` at exit."""
        if self.path.is_file():
            return [f"-XX:SharedArchiveFile={self.path}"]
        self.folder.mkdir(parents=True, exist_ok=True)
        return [f"-XX:ArchiveClassesAtExit={part}"]

    def settle(self, part: Path, *, clean: bool) -> bool:
        """After the server that wrote to ``part`` is gone: keep what a clean exit wrote (True),
        drop anything else."""
        if clean and part.is_file() and part.stat().st_size > 0:
            os.replace(part, self.path)
            prune(self.folder)
            return True
        part.unlink(missing_ok=True)
        return False


def for_java(java: str, cache: Path, home: Path, jars: Sequence[str]) -> ClassArchive | None:
    """The archive for a server on ``java`` with ``jars`` (relative to ``home``), kept in the
    jar cache ``cache``; None when that Java cannot layer one."""
    jvm = _libjvm(java)
    if jvm is None:
        return None
    return ClassArchive(cache / FOLDER, archive_key(jvm, home, jars))


def prune(folder: Path, keep: int = KEEP, now: float | None = None) -> None:
    """Keep the ``keep`` most recently made archives, and parts younger than a day."""
    now = time.time() if now is None else now
    archives = sorted(folder.glob("*.jsa"), key=_mtime, reverse=True)
    for old in archives[keep:]:
        old.unlink(missing_ok=True)
    for part in folder.glob("*.part"):
        if now - _mtime(part) > PART_MAX_AGE_S:
            part.unlink(missing_ok=True)


def _mtime(path: Path) -> float:
    """A file's time; one that another process removed meanwhile counts as new (kept)."""
    try:
        return path.stat().st_mtime
    except FileNotFoundError:
        return time.time()
