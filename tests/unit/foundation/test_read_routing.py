"""``Neo4jExecutor`` marks reads as reads: ``run(read=True)`` → ``routing_=READ`` (a routing
driver sends it to a secondary), ``read()`` → a READ-mode session and ``execute_read``; and its
sessions share ``execute_query``'s bookmark manager (causal reads after writes in a cluster)."""

from __future__ import annotations

from typing import Any

from neo4j import READ_ACCESS, RoutingControl

from graph.executor import Neo4jExecutor


class Session:
    def __init__(self, log: list[Any], mode: Any, bookmarks: Any) -> None:
        self.log, self.mode, self.bookmarks = log, mode, bookmarks

    async def __aenter__(self) -> Session:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        return None

    async def execute_read(self, unit: Any) -> str:
        self.log.append(("execute_read", self.mode, self.bookmarks))
        return "r"

    async def execute_write(self, unit: Any) -> str:
        self.log.append(("execute_write", self.mode, self.bookmarks))
        return "w"


class Driver:
    def __init__(self) -> None:
        self.log: list[Any] = []
        self.execute_query_bookmark_manager = object()

    async def execute_query(self, query: Any, **kwargs: Any) -> Any:
        self.log.append(("execute_query", kwargs["routing_"]))
        return [], None, None

    def session(self, **kwargs: Any) -> Session:
        return Session(self.log, kwargs.get("default_access_mode"), kwargs.get("bookmark_manager"))


async def test_reads_are_routed_as_reads() -> None:
    driver = Driver()
    ex = Neo4jExecutor(driver, "neo4j")  # type: ignore[arg-type]
    await ex.run("schema/ping", read=True)
    await ex.run("schema/ping")
    assert await ex.read(lambda tx: None) == "r"  # type: ignore[arg-type,return-value]
    assert await ex.write(lambda tx: None) == "w"  # type: ignore[arg-type,return-value]
    bookmarks = driver.execute_query_bookmark_manager  # reads after writes see them (cluster)
    assert driver.log == [("execute_query", RoutingControl.READ),
                          ("execute_query", RoutingControl.WRITE),
                          ("execute_read", READ_ACCESS, bookmarks), ("execute_write", None, bookmarks)]
