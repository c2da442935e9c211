"""One thin async executor over the official Neo4j driver.

Every query in the code base runs through :class:`Executor`: named statements come from
``cypher/`` via the loader, parameters are always passed separately, reads are routed to readers,
and multi-statement writes use one managed transaction (retried by the driver on transient
errors). :class:`Executor` is the protocol everyone types against; :class:`Neo4jExecutor` is
the driver-backed implementation, and decorators (``server.breaker.BreakerExecutor``, the
tests' ``RecordingExecutor``) wrap any ``Executor`` instead of subclassing it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from typing import Any, LiteralString, Protocol, TypeVar

import neo4j
from neo4j import AsyncDriver, AsyncGraphDatabase, AsyncManagedTransaction, RoutingControl
from neo4j.exceptions import (
    ClientError,
    ConnectionAcquisitionTimeoutError,
    DriverError,
    Neo4jError,
    ServiceUnavailable,
    SessionExpired,
    TransientError,
)

import cypher
from graph.errors import GraphBusy, GraphTimeout, GraphUnavailable

__all__ = [
    "DEFAULT_TX_TIMEOUT_S",
    "Executor",
    "Neo4jExecutor",
    "Transaction",
    "connect",
    "quiet_params",
    "row_of",
    "to_python",
]

DEFAULT_TX_TIMEOUT_S = 120.0  # also written as db.transaction.timeout for the local server
READ_ATTEMPTS = 3  # auto-commit reads: tries on a transient error or a lost reader


def _timed_out(exc: Neo4jError) -> bool:
    return "TransactionTimedOut" in (exc.code or "") or "Terminated" in (exc.code or "")


T = TypeVar("T")
Row = dict[str, Any]

_TEMPORAL = (neo4j.time.DateTime, neo4j.time.Date, neo4j.time.Time)
# Values a row hands over as they are (the driver's own Python types).
_PLAIN = frozenset({str, int, float, bool, type(None), bytes})


def to_python(value: Any) -> Any:
    """Neo4j temporal values → ``datetime``/``date``/``time``, inside maps and lists too; a
    node → its properties, a relationship → ``(start properties, type, end properties)``, a
    path → ``[node, type, node, …]`` (what ``Record.data`` makes of them).

    Every row leaves the executor converted, so no caller ever sees a ``neo4j.time`` or graph
    value. The walk dispatches on the exact type and returns maps and lists that hold only
    plain values as they are. The driver's generic ``Record.data`` walk (several ``isinstance``
    checks against abstract classes per value) followed by a second walk took a third of the
    client's CPU per ``retrieve``, whose rows hold a few thousand values.
    """
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is dict:
        if _PLAIN.issuperset(map(type, value.values())):
            return value
        return {k: v if type(v) in _PLAIN else to_python(v) for k, v in value.items()}
    if kind is list:
        if _PLAIN.issuperset(map(type, value)):
            return value
        return [v if type(v) in _PLAIN else to_python(v) for v in value]
    if kind in _TEMPORAL:
        return value.to_native()
    if isinstance(value, neo4j.graph.Node):
        return to_python(dict(value))
    if isinstance(value, neo4j.graph.Relationship):
        start, end = value.start_node, value.end_node
        return (
            to_python(dict(start)) if start is not None else None,
            type(value).__name__,
            to_python(dict(end)) if end is not None else None,
        )
    if isinstance(value, neo4j.graph.Path):
        out = [to_python(value.start_node)]
        for rel, node in zip(value.relationships, value.nodes[1:], strict=True):
            out += [type(rel).__name__, to_python(node)]
        return out
    return value


def row_of(record: neo4j.Record) -> Row:
    """One record as a dict of converted values (:func:`to_python`)."""
    return {k: to_python(v) for k, v in record.items()}


class _Floats(list[Any]):
    """A list of floats (a vector) whose ``repr`` is short. The driver formats every RUN's
    parameters for its debug log before it knows the log is off (``" ".join(map(repr, ...))``):
    writing 2,000 vectors of 384 floats spent ~1.2 s of CPU in ``float.__repr__`` per statement,
    most of a bulk import's statement time. It is packed like any list."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"<{len(self)} floats>"


def quiet_params(value: Any) -> Any:
    """``value`` with its lists of floats, inside maps and lists, made :class:`_Floats` (same
    values, cheap to format); what holds none is returned as it is, not copied.

    Only formatting is at stake, so the walk is cheap rather than exhaustive: a list is
    recognised by its first value, and a list of maps or lists (UNWIND rows) is walked only
    when its first row holds a vector.
    """
    kind = type(value)
    if kind is dict:
        out = None
        for k, v in value.items():
            if type(v) is list or type(v) is dict:
                q = quiet_params(v)
                if q is not v:
                    if out is None:
                        out = dict(value)
                    out[k] = q
        return value if out is None else out
    if kind is list and value:
        head = type(value[0])
        if head is float:
            return _Floats(value)
        if (head is dict or head is list) and quiet_params(value[0]) is not value[0]:
            return [quiet_params(v) for v in value]
    return value


@dataclass
class Transaction:
    """A write transaction handed to a unit of work; ``run`` takes a statement name."""

    tx: AsyncManagedTransaction
    statements: list[str] = field(default_factory=list)

    async def run(self, name: str, **params: Any) -> list[Row]:
        self.statements.append(name)
        result = await self.tx.run(cypher.load(name), quiet_params(params))
        return [row_of(record) async for record in result]


class Executor(Protocol):
    """What the code base needs to run Cypher (see :class:`Neo4jExecutor`)."""

    async def run(
        self, name: str, params: dict[str, Any] | None = None, *, read: bool = False
    ) -> list[Row]:
        """Run the named statement ``cypher/<name>.cypher``; rows as dicts."""
        ...

    async def run_text(
        self, query: LiteralString, params: dict[str, Any] | None = None, *, read: bool = False
    ) -> list[Row]:
        """Run a literal statement (schema scripts, test fixtures)."""
        ...

    async def write(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        """Run ``work`` in one managed write transaction."""
        ...

    async def read(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        """Run ``work`` in one read transaction."""
        ...

    async def ping(self) -> bool:
        """True when Neo4j answers."""
        ...

    async def close(self) -> None:
        """Release the driver."""
        ...


class Neo4jExecutor:
    """Runs named Cypher statements against one database over the official driver."""

    def __init__(
        self,
        driver: AsyncDriver,
        database: str = "neo4j",
        tx_timeout_s: float | None = DEFAULT_TX_TIMEOUT_S,
        *,
        autocommit_reads: bool = True,
    ) -> None:
        self.driver = driver
        self.database = database
        self.tx_timeout_s = tx_timeout_s  # sent with every transaction; Neo4j terminates it
        self.round_trips = 0
        # Sessions share execute_query's bookmarks: in a cluster, a read routed to a secondary
        # after one of this process's writes (either path) waits until that write is applied.
        self.bookmarks = getattr(driver, "execute_query_bookmark_manager", None)
        self.autocommit_reads = autocommit_reads

    @contextmanager
    def _typed_errors(self, *may_time_out: type[Neo4jError]) -> Iterator[None]:
        """Raise the driver's failures as the graph's typed errors: no free connection
        (GraphBusy), no reachable server (GraphUnavailable), and an error of ``may_time_out``
        that is Neo4j ending the transaction at its timeout (GraphTimeout)."""
        try:
            yield
        except ConnectionAcquisitionTimeoutError as exc:
            raise GraphBusy(f"no free Neo4j connection: {exc}") from exc
        except (ServiceUnavailable, SessionExpired, OSError) as exc:
            raise GraphUnavailable(f"Neo4j unavailable: {exc}") from exc
        except may_time_out as exc:
            if _timed_out(exc):
                raise GraphTimeout(f"transaction timed out after {self.tx_timeout_s} s") from exc
            raise

    async def run(
        self, name: str, params: dict[str, Any] | None = None, *, read: bool = False
    ) -> list[Row]:
        """Run ``cypher/<name>.cypher`` in its own auto-retried transaction; rows as dicts
        (temporal values already Python ``datetime``s, see :func:`to_python`)."""
        return await self.run_text(cypher.load(name), params, read=read)

    async def run_text(
        self, query: LiteralString, params: dict[str, Any] | None = None, *, read: bool = False
    ) -> list[Row]:
        """Run a literal statement (schema scripts); prefer :meth:`run` with a name."""
        self.round_trips += 1
        with self._typed_errors(ClientError, TransientError):
            if read and self.autocommit_reads:
                records = await self._autocommit_read(query, quiet_params(params or {}))
            else:
                records, _, _ = await self.driver.execute_query(
                    neo4j.Query(query, timeout=self.tx_timeout_s),
                    parameters_=quiet_params(params or {}),
                    routing_=RoutingControl.READ if read else RoutingControl.WRITE,
                    database_=self.database,
                )
        return [row_of(r) for r in records]

    async def _autocommit_read(self, query: LiteralString, params: dict[str, Any]) -> list[Any]:
        """One read statement as an auto-commit transaction in a READ session (routed to a
        reader): RUN and PULL in one round trip, where a managed transaction adds a COMMIT
        round trip (~13 % of an API process's busy time serving ``retrieve``, profiled). A
        read is idempotent, so transient failures and a lost reader are retried here, as the
        driver would retry a managed transaction."""
        for attempt in range(READ_ATTEMPTS):
            try:
                async with self.driver.session(
                    database=self.database,
                    default_access_mode=neo4j.READ_ACCESS,
                    bookmark_manager=self.bookmarks,
                ) as session:
                    result = await session.run(
                        neo4j.Query(query, timeout=self.tx_timeout_s), params
                    )
                    return [record async for record in result]
            except (TransientError, SessionExpired) as exc:
                if attempt + 1 >= READ_ATTEMPTS or (
                    isinstance(exc, TransientError) and _timed_out(exc)
                ):
                    raise
                await asyncio.sleep(0.05 * 2**attempt)
        raise AssertionError("unreachable")

    async def write(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        """Run ``work`` in ONE managed write transaction (the driver retries transient errors,
        so ``work`` must be idempotent up to its own commit)."""
        return await self._managed(work, read=False)

    async def read(self, work: Callable[[Transaction], Awaitable[T]]) -> T:
        """Run ``work`` in one read transaction (routed to a reader in a cluster)."""
        return await self._managed(work, read=True)

    async def _managed(self, work: Callable[[Transaction], Awaitable[T]], *, read: bool) -> T:
        """``work`` in one managed transaction of a session in read or write mode."""
        self.round_trips += 1

        @neo4j.unit_of_work(timeout=self.tx_timeout_s)
        async def unit(tx: AsyncManagedTransaction) -> T:
            return await work(Transaction(tx))

        with self._typed_errors(ClientError):
            async with self.driver.session(
                database=self.database,
                default_access_mode=neo4j.READ_ACCESS if read else neo4j.WRITE_ACCESS,
                bookmark_manager=self.bookmarks,
            ) as session:
                if read:
                    return await session.execute_read(unit)
                return await session.execute_write(unit)

    async def ping(self) -> bool:
        try:
            await self.run("schema/ping", read=True)
            return True
        except (GraphUnavailable, Neo4jError, DriverError):
            return False

    async def close(self) -> None:
        await self.driver.close()


def connect(
    uri: str,
    user: str,
    password: str,
    database: str = "neo4j",
    tx_timeout_s: float | None = DEFAULT_TX_TIMEOUT_S,
) -> Neo4jExecutor:
    """Build an executor with a pooled async driver (no I/O until the first query); every
    transaction carries ``tx_timeout_s`` (Neo4j terminates it after that long)."""
    driver = AsyncGraphDatabase.driver(
        uri,
        auth=(user, password),
        max_connection_pool_size=50,
        connection_acquisition_timeout=10.0,
        max_transaction_retry_time=15.0,
        liveness_check_timeout=30.0,
        notifications_min_severity="OFF",
    )
    return Neo4jExecutor(driver, database, tx_timeout_s)


@asynccontextmanager
async def connected(
    uri: str, user: str, password: str, database: str = "neo4j"
) -> AsyncIterator[Neo4jExecutor]:
    """``async with connected(...) as ex:`` for scripts and tests."""
    ex = connect(uri, user, password, database)
    try:
        yield ex
    finally:
        await ex.close()
