"""The local server's password: one random secret per home, kept in a file only its owner reads.

Why: a password shared by every install is no password. Any web page in the user's browser can
open a WebSocket to the local Bolt port and try it. So the first start of a home generates a
random password, writes it to ``<home>/neo4j-password`` (mode 0600) and sets it as the server's
initial password. The CLI, the API, the tests and the scripts read it from there
(``Settings.neo4j_secret``); an explicit ``NEO4J_PASSWORD`` still wins.

A home whose data predates the file still has the old fixed password (:data:`LEGACY_PASSWORD`).
Its first start rotates it. A new random password is written to ``neo4j-password.new``, the
server is told ``ALTER CURRENT USER SET PASSWORD``, and only then is the file renamed into
place. A start interrupted between those steps tries the pending password next time.
"""

from __future__ import annotations

import os
import secrets
import string
from pathlib import Path

import cypher

__all__ = [
    "LEGACY_PASSWORD",
    "PASSWORD_FILE",
    "candidates",
    "change_password",
    "new_password",
    "password_path",
    "pending_path",
    "read_secret",
    "settle",
    "write_secret",
]

PASSWORD_FILE = "neo4j-password"
# The fixed password of installs made before the file existed; only ever tried, never set.
LEGACY_PASSWORD = "hippograph-dev"


def password_path(home: Path) -> Path:
    """Where the local server's password of ``home`` is kept."""
    return home / PASSWORD_FILE


def pending_path(home: Path) -> Path:
    """Where a password being rotated in waits until the server has accepted it."""
    return home / f"{PASSWORD_FILE}.new"


_ALPHABET = string.ascii_letters + string.digits


def new_password() -> str:
    """A random password: 32 letters and digits (190 bits). No punctuation, so it never starts
    with ``-`` and is never read as an option by a command line it is pasted into."""
    return "".join(secrets.choice(_ALPHABET) for _ in range(32))


def read_secret(path: Path) -> str | None:
    """The secret stored at ``path``, or None when there is no such file (or it is empty)."""
    try:
        value = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None
    return value or None


def write_secret(path: Path, value: str) -> None:
    """Write ``value`` to ``path`` with mode 0600, atomically (a reader sees old or new)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(value + "\n")
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, 0o600)  # whatever the umask was
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def candidates(home: Path) -> list[str]:
    """Passwords the server of ``home`` may have, most likely first (at most two)."""
    current = read_secret(password_path(home))
    if current is not None:
        return [current]
    pending = read_secret(pending_path(home))
    return [LEGACY_PASSWORD, *([pending] if pending else [])]


def change_password(uri: str, user: str, old: str, new: str) -> None:
    """Set ``user``'s own password from ``old`` to ``new`` on the server at ``uri``."""
    from neo4j import GraphDatabase

    with (
        GraphDatabase.driver(uri, auth=(user, old)) as driver,
        driver.session(database="system") as session,
    ):
        session.run(cypher.load("admin/change_own_password"), old=old, new=new).consume()


def settle(home: Path, uri: str, live: str) -> str | None:
    """Give the server of ``home`` a random password when it has no password file yet.

    ``live`` is the password the server just accepted. Returns the new password, or None when
    the file already existed (nothing to do).
    """
    if password_path(home).exists():
        return None
    pending = pending_path(home)
    new = read_secret(pending)
    if new is None:
        new = new_password()
        write_secret(pending, new)
    if live != new:
        change_password(uri, "neo4j", live, new)
    os.replace(pending, password_path(home))
    return new
