"""Install, start, stop and inspect a local Neo4j 5.26 server without Docker or a tarball.

The jars come from Maven Central through the two POMs beside this file (``server/`` for the
server with Browser, ``plugins/`` for APOC, ``gds/`` for the optional OpenGDS plugin). The server
is launched directly with ``org.neo4j.server.CommunityEntryPoint`` so that heap limits are ours.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cypher
from graph.runtime import password as secret

__all__ = ["LocalNeo4j", "RuntimeConfig", "RuntimeError_", "Status"]

POM_DIR = Path(__file__).resolve().parent
MAIN_CLASS = "org.neo4j.server.CommunityEntryPoint"
# The APOC procedures and functions the code calls (cypher/, tests/cypher/); no other is loaded.
APOC_USED = ("apoc.version", "apoc.util.sleep")
JVM_OPENS = (
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
)


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
    with_gds: bool = True
    # Neo4j Browser: hosts it may fetch guides/styles from, and commands run after connecting.
    browser_allowlist: str = ""
    browser_post_connect_cmd: str = ""
    mvn_args: tuple[str, ...] = ()  # e.g. ("-Dmaven.repo.local=/tmp/m2",) for a cold-cache run
    java: str = field(default_factory=lambda: shutil.which("java") or "java")
    mvn: str = field(default_factory=lambda: shutil.which("mvn") or "mvn")

    @property
    def neo4j_home(self) -> Path:
        return self.home / "neo4j"


@dataclass(frozen=True)
class Status:
    installed: bool
    running: bool
    pid: int | None
    bolt_uri: str
    browser_url: str
    version: str | None = None


class LocalNeo4j:
    """Lifecycle of the embedded server. Every method is idempotent."""

    def __init__(self, config: RuntimeConfig) -> None:
        self.config = config
        h = config.neo4j_home
        self.lib, self.plugins, self.conf = h / "lib", h / "plugins", h / "conf"
        self.data, self.logs, self.run_dir = h / "data", h / "logs", h / "run"
        self.marker = h / ".installed"
        self.pid_file = self.run_dir / "hippograph-neo4j.pid"
        self._live_password: str | None = None  # the password the last successful login used

    # ---------------------------------------------------------------- install
    def _fingerprint(self) -> str:
        digest = hashlib.sha256()
        for pom in sorted(POM_DIR.glob("*/pom.xml")):
            digest.update(pom.read_bytes())
        digest.update(str(self.config.with_gds).encode())
        return digest.hexdigest()

    def is_installed(self) -> bool:
        return (
            self.marker.is_file()
            and self.marker.read_text().strip() == self._fingerprint()
            and any(self.lib.glob("neo4j-5.*.jar"))
        )

    def install(self, log: Callable[[str], object] = print) -> bool:
        """Resolve the jars into ``<home>/neo4j``. Returns False when it was already installed.

        A missing or stale marker (an interrupted or older install) wipes lib/ and plugins/ and
        resolves again; data/ is never touched.
        """
        if self.is_installed():
            self.write_config()
            return False
        if self._pid() is not None:
            log("Neo4j is running from an older install; stop it to re-install (kept as is)")
            return False
        if shutil.which(self.config.mvn) is None and not Path(self.config.mvn).exists():
            raise RuntimeError_("Maven (mvn) is required to assemble Neo4j; install it first")
        self.marker.unlink(missing_ok=True)
        for folder in (self.lib, self.plugins):
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
        self._copy_dependencies("server", self.lib, log)
        self._copy_dependencies("plugins", self.plugins, log)
        if self.config.with_gds and (POM_DIR / "gds" / "pom.xml").is_file():
            try:
                self._build_gds(log)
            except RuntimeError_ as exc:  # GDS is optional: record and go on
                log(f"GDS plugin not built ({exc}); continuing without GDS")
        self.write_config()
        self.marker.write_text(self._fingerprint())
        return True

    def _mvn(self, pom: str, *goals: str, log: Callable[[str], object]) -> None:
        cmd = [self.config.mvn, "-B", "-q", *self.config.mvn_args,
               "-f", str(POM_DIR / pom / "pom.xml"), *goals]
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
        """(Re)write neo4j.conf and apoc.conf; loopback only, explicit memory, TLS off."""
        c = self.config
        for d in (self.conf, self.data, self.logs, self.run_dir):
            d.mkdir(parents=True, exist_ok=True)
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
            # Only the APOC routines the code calls are loaded; GDS needs full access.
            "dbms.security.procedures.unrestricted": "gds.*",
            "dbms.security.procedures.allowlist": ",".join((*APOC_USED, "gds.*")),
            # CORS: only pages of this server's own origin (Browser) may read HTTP answers.
            "dbms.security.http_access_control_allow_origin": self.http_origin,
            "dbms.usage_report.enabled": "false",
            "db.logs.query.enabled": "OFF",
            "client.allow_telemetry": "false",  # Browser: no product analytics
        }
        if c.browser_allowlist:
            lines["browser.remote_content_hostname_whitelist"] = c.browser_allowlist
        if c.browser_post_connect_cmd:
            lines["browser.post_connect_cmd"] = c.browser_post_connect_cmd
        text = "# Written by `hippograph neo4j install`; edits are overwritten.\n"
        text += "".join(f"{k}={v}\n" for k, v in lines.items())
        (self.conf / "neo4j.conf").write_text(text)
        (self.conf / "apoc.conf").write_text("apoc.export.file.enabled=false\n")

    @property
    def http_origin(self) -> str:
        return f"http://127.0.0.1:{self.config.http_port}"

    @property
    def password_file(self) -> Path:
        """The generated password of this home (unused when the config names a password)."""
        return secret.password_path(self.config.home)

    def passwords(self) -> list[str]:
        """Passwords to log in with, most likely first."""
        if self.config.password is not None:
            return [self.config.password]
        return secret.candidates(self.config.home)

    def _set_initial_password(self) -> None:
        if (self.data / "dbms").exists():
            return  # only takes effect before the first start
        if self.config.password is None and not self.password_file.exists():
            # The file first: a crash after it leaves a password that is known, not lost.
            secret.write_secret(self.password_file, secret.new_password())
        env = {**os.environ, "NEO4J_HOME": str(self.config.neo4j_home), "NEO4J_CONF": str(self.conf)}
        cmd = [
            self.config.java, "-cp", f"{self.lib}/*",
            "org.neo4j.server.startup.Neo4jAdminCommand",
            "dbms", "set-initial-password", self.passwords()[0],
        ]  # fmt: skip
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            raise RuntimeError_(f"set-initial-password failed: {proc.stderr.strip()[-500:]}")

    # ---------------------------------------------------------------- lifecycle
    def _pid(self) -> int | None:
        try:
            pid = int(self.pid_file.read_text().strip())
        except (FileNotFoundError, ValueError):
            return None
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        except PermissionError:
            return pid
        cmdline = Path(f"/proc/{pid}/cmdline")
        if cmdline.exists() and MAIN_CLASS.encode() not in cmdline.read_bytes():
            return None  # pid reused by something else
        return pid

    def command(self) -> list[str]:
        c = self.config
        classpath = os.pathsep.join(f"{d}/*" for d in (self.plugins, self.conf, self.lib))
        return [
            c.java, "-cp", classpath,
            f"-Xms{c.heap}", f"-Xmx{c.heap}", "-XX:+UseG1GC", "-XX:+ExitOnOutOfMemoryError",
            "-Dfile.encoding=UTF-8", *JVM_OPENS,
            MAIN_CLASS, f"--home-dir={c.neo4j_home}", f"--config-dir={self.conf}",
        ]  # fmt: skip

    def start(self, log: Callable[[str], object] = print) -> bool:
        """Start the server and wait until Bolt answers. Returns False if it was running."""
        if self._pid() is not None:
            self.wait_ready()
            self._settle_password(log)
            return False
        if not self.is_installed():
            self.install(log)
        self.write_config()
        self._set_initial_password()
        console = (self.logs / "console.log").open("ab")
        proc = subprocess.Popen(
            self.command(),
            stdout=console,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            cwd=self.config.neo4j_home,
        )
        self.pid_file.write_text(str(proc.pid))
        try:
            self.wait_ready(proc)
        except RuntimeError_:
            self.stop()
            raise
        self._settle_password(log)
        return True

    def _settle_password(self, log: Callable[[str], object]) -> None:
        """A home without a password file (data from before it existed) gets a random one."""
        if self.config.password is None and self._live_password is not None:
            new = secret.settle(self.config.home, self.bolt_uri, self._live_password)
            if new is not None:
                self._live_password = new
                log(f"The local Neo4j password is now a random one, kept in {self.password_file}")

    @property
    def bolt_uri(self) -> str:
        return f"bolt://127.0.0.1:{self.config.bolt_port}"

    def wait_ready(self, proc: subprocess.Popen[bytes] | None = None) -> str:
        """Poll ``RETURN 1`` over Bolt until it answers; return the server version.

        Each poll tries :meth:`passwords` in order. A server that refuses all of them is up,
        so waiting longer would not help: that is an error at once (and few failed logins
        keep Neo4j's lock-out after repeated failures away).
        """
        from neo4j import GraphDatabase
        from neo4j.exceptions import AuthError, Neo4jError, ServiceUnavailable

        deadline = time.monotonic() + self.config.start_timeout_s
        uri = self.bolt_uri
        last: Exception | None = None
        while time.monotonic() < deadline:
            if proc is not None and proc.poll() is not None:
                raise RuntimeError_(f"Neo4j exited with {proc.returncode}:\n{self.log_tail(30)}")
            for password in self.passwords():
                try:
                    # A plain auto-commit query: the driver's managed-transaction retries would
                    # turn each poll into a multi-second back-off.
                    with (
                        GraphDatabase.driver(uri, auth=("neo4j", password)) as drv,
                        drv.session() as session,
                    ):
                        record = session.run(cypher.load("schema/components")).single()
                    self._live_password = password
                    return str(record["version"]) if record else "unknown"
                except AuthError:
                    continue
                except (ServiceUnavailable, OSError, Neo4jError) as exc:
                    last = exc
                    break
            else:
                where = ("the configured password" if self.config.password is not None
                         else f"the password in {self.password_file}")
                raise RuntimeError_(f"Neo4j on {uri} refuses {where}; set NEO4J_PASSWORD to "
                                    "the server's password")
            time.sleep(0.25)
        raise RuntimeError_(f"Neo4j did not answer on {uri} in time: {last}\n{self.log_tail(30)}")

    def stop(self, timeout_s: float = 60.0) -> bool:
        """Stop the server (SIGTERM, then SIGKILL after ``timeout_s``). False if not running."""
        pid = self._pid()
        if pid is None:
            self.pid_file.unlink(missing_ok=True)
            return False
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if not _alive(pid):
                break
            time.sleep(0.2)
        else:
            os.kill(pid, signal.SIGKILL)
            while _alive(pid):
                time.sleep(0.1)
        self.pid_file.unlink(missing_ok=True)
        return True

    def status(self) -> Status:
        pid = self._pid()
        version = None
        if pid is not None:
            try:
                version = self.wait_ready() if self.config.start_timeout_s else None
            except RuntimeError_:
                version = None
        return Status(
            installed=self.is_installed(),
            running=pid is not None,
            pid=pid,
            bolt_uri=self.bolt_uri,
            browser_url=f"http://127.0.0.1:{self.config.http_port}/browser/",
            version=version,
        )

    def log_tail(self, lines: int = 50) -> str:
        out = []
        for name in ("neo4j.log", "console.log"):
            path = self.logs / name
            if path.is_file():
                out.extend(path.read_text(errors="replace").splitlines()[-lines:])
        return "\n".join(out[-lines:])


def _alive(pid: int) -> bool:
    try:
        waited, _ = os.waitpid(pid, os.WNOHANG)
        if waited == pid:
            return False
    except ChildProcessError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and ") Z" in stat.read_text())


if __name__ == "__main__":  # pragma: no cover - debugging aid
    sys.exit("use `hippograph neo4j …`")
