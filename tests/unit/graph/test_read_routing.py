"""``Neo4jExecutor`` marks reads as reads, so a routing driver (``neo4j://``) sends them to a
cluster's secondaries: ``run(read=True)`` is an auto-commit statement in a READ session (or, with
``autocommit_reads=False``, ``execute_query`` with ``routing_=READ``); ``read()`` is a READ session's
``execute_read``. Every session shares ``execute_query``'s bookmark manager, so a read after one
of this process's writes waits until a secondary has applied it."""

from __future__ import annotations

from typing import Any

from neo4j import READ_ACCESS, WRITE_ACCESS, RoutingControl
from neo4j.exceptions import TransientError

from graph.executor import Neo4jExecutor


class Result:
    def __aiter__(self) -> Any:
        return self

    async def __anext__(self) -> Any:
        raise StopAsyncIteration


class Session:
    def __init__(self, driver: Driver, mode: Any, bookmarks: Any) -> None:
        self.driver, self.mode, self.bookmarks = driver, mode, bookmarks

    async def __aenter__(self) -> Session:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        return None

    async def run(self, query: Any, params: Any) -> Result:
        self.driver.log.append(("run", self.mode, self.bookmarks))
        if self.driver.transient > 0:
            self.driver.transient -= 1
            raise TransientError("a reader restarted")
        return Result()

    async def execute_read(self, unit: Any) -> str:
        self.driver.log.append(("execute_read", self.mode, self.bookmarks))
        return "r"

    async def execute_write(self, unit: Any) -> str:
        self.driver.log.append(("execute_write", self.mode, self.bookmarks))
        return "w"


class Driver:
    def __init__(self, transient: int = 0) -> None:
        self.log: list[Any] = []
        self.transient = transient
        self.execute_query_bookmark_manager = object()

    async def execute_query(self, query: Any, **kwargs: Any) -> Any:
        self.log.append(("execute_query", kwargs["routing_"]))
        return [], None, None

    def session(self, **kwargs: Any) -> Session:
        return Session(self, kwargs.get("default_access_mode"), kwargs.get("bookmark_manager"))


async def test_reads_are_routed_as_reads_and_share_the_bookmarks() -> None:
    driver = Driver()
    bookmarks = driver.execute_query_bookmark_manager
    ex = Neo4jExecutor(driver, "neo4j")  # type: ignore[arg-type]
    assert await ex.run("schema/ping", read=True) == []
    await ex.run("schema/ping")
    assert await ex.read(lambda tx: None) == "r"  # type: ignore[arg-type,return-value]
    assert await ex.write(lambda tx: None) == "w"  # type: ignore[arg-type,return-value]
    assert driver.log == [
        ("run", READ_ACCESS, bookmarks),
        ("execute_query", RoutingControl.WRITE),
        ("execute_read", READ_ACCESS, bookmarks),
        ("execute_write", WRITE_ACCESS, bookmarks),
    ]
    managed = Driver()
    await Neo4jExecutor(managed, "neo4j", autocommit_reads=False).run(  # type: ignore[arg-type]
        "schema/ping", read=True
    )
    assert managed.log == [("execute_query", RoutingControl.READ)]


async def test_auto_commit_reads_are_retried_on_transient_errors() -> None:
    driver = Driver(transient=2)
    assert await Neo4jExecutor(driver, "neo4j").run("schema/ping", read=True) == []  # type: ignore[arg-type]
    assert [e[0] for e in driver.log] == ["run", "run", "run"]
