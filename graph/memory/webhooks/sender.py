"""The webhook sender: an asyncio loop that dispatches new events into deliveries and sends
the due ones, signed, retried with exponential backoff, dead-lettered after the last attempt.

It runs beside the job worker (``server/worker.py``: in every API process that runs the worker,
and in ``hippograph worker``) and needs no coordination: dispatching takes the cluster's
dispatch lock, and each attempt takes a lease on its delivery in Neo4j (in flight until
``lease_s``, with a fencing token), so any number of senders share the queue, and a sender
that dies mid-attempt — its process killed — leaves a lease that runs out: the next sender
makes the attempt again, with the same delivery id. A receiver may therefore see a delivery
twice and drops the repeat by its ``Hippograph-Delivery`` id.

Each attempt resolves the target again, checks every address (unless private targets are
allowed) and connects to the address it checked; redirects are not followed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from neo4j.exceptions import DriverError, Neo4jError

from graph.errors import GraphError
from graph.executor import Executor, Transaction
from graph.memory.documents.fetch import Resolver, pinned_target, system_resolver
from graph.memory.jobs.jobs_config import WebhookConfig
from graph.memory.jobs.policy import backoff_delay
from graph.memory.jobs.worker import worker_id
from graph.memory.webhooks.dispatch import dispatch
from graph.memory.webhooks.events import delivery_body
from graph.memory.webhooks.signing import signature_header
from graph.memory.webhooks.targets import TargetRefused, check_target

__all__ = ["Attempt", "Outcome", "WebhookSender", "outcome_of"]

log = logging.getLogger("hippograph.webhooks")

_INFRA_ERRORS = (GraphError, Neo4jError, DriverError, OSError)
PURGE_EVERY_S = 600.0
PURGE_BATCH = 1_000
_ERROR_CHARS = 300


@dataclass(frozen=True)
class Attempt:
    """A leased delivery, ready to send."""

    id: str
    token: int
    attempts: int
    max_attempts: int
    lane: str
    url: str
    secret: str
    type: str
    body: bytes

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Attempt:
        d = row["delivery"]
        body = delivery_body(
            delivery_id=str(d["id"]),
            type=str(d["type"]),
            webhook_id=str(d["webhook_id"]),
            agent_id=str(d["agent_id"]),
            tenant=d.get("tenant"),
            at=d["source_at"],
            data=json.loads(d.get("data") or "{}"),
            text=d.get("text"),
            entity_key=d.get("entity_key"),
            merged_entity_key=d.get("merged_entity_key"),
        )
        return cls(
            id=str(d["id"]),
            token=int(d["lease_token"]),
            attempts=int(d["attempts"]),
            max_attempts=int(d["max_attempts"]),
            lane=str(d["lane"]),
            url=str(row["url"]),
            secret=str(row["secret"]),
            type=str(d["type"]),
            body=body,
        )


@dataclass(frozen=True)
class Outcome:
    """What became of one attempt."""

    delivered: bool
    code: int | None = None
    error: str | None = None


def outcome_of(status_code: int) -> Outcome:
    """A 2xx answer delivers; anything else (a redirect included) is a failed attempt."""
    if 200 <= status_code < 300:
        return Outcome(True, status_code)
    if 300 <= status_code < 400:
        return Outcome(False, status_code, f"HTTP {status_code}: redirects are not followed")
    return Outcome(False, status_code, f"HTTP {status_code}")


class WebhookSender:
    """Dispatches and sends until stopped (see module docstring).

    Args:
        executor: the process's executor.
        config: the operator's webhook settings.
        owner: the lease owner's name (default host:pid:random).
        resolver: host name resolution (tests inject one that plays a rebinding DNS).
        transport: an httpx transport (tests); default: real connections.
    """

    def __init__(
        self,
        executor: Executor,
        config: WebhookConfig,
        *,
        owner: str | None = None,
        resolver: Resolver = system_resolver,
        transport: httpx.AsyncBaseTransport | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.executor = executor
        self.config = config
        self.owner = owner or f"webhooks/{worker_id()}"
        self.resolver = resolver
        self.transport = transport
        self.clock = clock
        self.stats: Counter[str] = Counter()
        self._stop = asyncio.Event()
        self._rng = random.Random()
        self._next_purge = 0.0

    async def run(self) -> None:
        """Dispatch, send and purge until :meth:`stop`; a database outage backs off."""
        failures = 0
        while not self._stop.is_set():
            try:
                created = await dispatch(self.executor, self.config)
                self.stats["queued"] += created
                sent = await self.send_due()
                await self._maybe_purge()
                failures = 0
            except _INFRA_ERRORS as exc:  # Neo4j unavailable: try again later
                failures += 1
                log.warning("webhook sender: %s", exc)
                await self._sleep(backoff_delay(failures, rng=self._rng))
                continue
            if not sent and not created:
                await self._sleep(self.config.poll_s)

    async def stop(self) -> None:
        """Stop after the current round (an attempt in flight finishes or times out)."""
        self._stop.set()

    async def send_due(self) -> int:
        """Lease the due deliveries (at most ``batch``) and make one attempt of each, at once;
        returns how many attempts were made."""
        now = datetime.now(UTC)
        due = await self.executor.run(
            "webhooks/due", {"now": now, "limit": self.config.batch}, read=True
        )
        if not due:  # an idle round writes nothing
            return 0
        leased = await self.executor.write(self._lease)
        attempts = [Attempt.from_row(r) for r in leased]
        await asyncio.gather(*(self._attempt(a) for a in attempts))
        return len(attempts)

    async def _lease(self, tx: Transaction) -> list[dict[str, Any]]:
        now = datetime.now(UTC)
        due = await tx.run("webhooks/due", now=now, limit=self.config.batch)
        ids = sorted(str(r["id"]) for r in due)
        if not ids:
            return []
        await tx.run("webhooks/lock_deliveries", ids=ids)
        return await tx.run(
            "webhooks/lease",
            ids=ids,
            owner=self.owner,
            now=now,
            lease_until=now + timedelta(seconds=self.config.lease_s),
        )

    async def _attempt(self, attempt: Attempt) -> None:
        if attempt.attempts > attempt.max_attempts:  # the last attempt's sender died
            await self._finish(attempt, Outcome(False, None, "the last attempt never ended"))
            return
        try:
            outcome = await self.post(attempt)
        except Exception as exc:  # a bug must not stop the sender; the attempt fails
            log.warning("webhook %s: attempt failed: %s", attempt.id, exc, exc_info=True)
            outcome = Outcome(False, None, "internal error")
        await self._finish(attempt, outcome)

    async def post(self, attempt: Attempt) -> Outcome:
        """One signed POST to the attempt's target, to the address its check resolved."""
        try:
            addresses = await check_target(
                attempt.url, allow_private=self.config.allow_private, resolver=self.resolver
            )
        except TargetRefused as exc:
            self.stats["refused"] += 1
            return Outcome(False, None, str(exc)[:_ERROR_CHARS])
        target, host, sni = pinned_target(attempt.url, addresses[0])
        headers = {
            "Content-Type": "application/json",
            "User-Agent": "hippograph-webhooks",
            "Host": host,
            "Hippograph-Delivery": attempt.id,
            "Hippograph-Event": attempt.type,
            "Hippograph-Attempt": str(attempt.attempts),
            "Hippograph-Signature": signature_header(
                attempt.secret, int(self.clock()), attempt.body
            ),
        }
        timeout = self.config.timeout_s
        try:
            async with (
                asyncio.timeout(timeout),
                httpx.AsyncClient(
                    follow_redirects=False,
                    timeout=timeout,
                    transport=self.transport,
                    trust_env=False,
                ) as client,
            ):
                request = client.build_request(
                    "POST",
                    target,
                    content=attempt.body,
                    headers=headers,
                    extensions={"sni_hostname": sni},
                )
                response = await client.send(request)
        except TimeoutError:
            return Outcome(False, None, f"no answer within {timeout:g} s")
        except httpx.HTTPError as exc:
            return Outcome(False, None, f"connection failed ({type(exc).__name__})")
        return outcome_of(response.status_code)

    async def _finish(self, attempt: Attempt, outcome: Outcome) -> None:
        now = datetime.now(UTC)
        last = attempt.attempts >= attempt.max_attempts
        if outcome.delivered or last:
            status = "delivered" if outcome.delivered else "dead"

            async def finish(tx: Transaction) -> bool:
                rows = await tx.run(
                    "webhooks/finish",
                    id=attempt.id,
                    token=attempt.token,
                    status=status,
                    code=outcome.code,
                    error=outcome.error,
                    now=now,
                )
                if rows:
                    await tx.run("webhooks/ensure_head", lanes=[attempt.lane], now=now)
                return bool(rows)

            if await self.executor.write(finish):
                self.stats[status] += 1
            return
        delay = backoff_delay(
            attempt.attempts,
            base_s=self.config.backoff_base_s,
            cap_s=self.config.backoff_cap_s,
            rng=self._rng,
        )
        await self.executor.run(
            "webhooks/retry",
            {
                "id": attempt.id,
                "token": attempt.token,
                "code": outcome.code,
                "error": outcome.error,
                "next_at": now + timedelta(seconds=delay),
            },
        )
        self.stats["retried"] += 1

    async def _maybe_purge(self) -> None:
        if self.config.retention_s <= 0 or time.monotonic() < self._next_purge:
            return
        self._next_purge = time.monotonic() + PURGE_EVERY_S
        cutoff = datetime.now(UTC) - timedelta(seconds=self.config.retention_s)
        rows = await self.executor.run("webhooks/purge", {"cutoff": cutoff, "batch": PURGE_BATCH})
        self.stats["purged"] += int(rows[0]["deleted"]) if rows else 0

    async def _sleep(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stop.wait(), timeout=max(0.0, seconds))
