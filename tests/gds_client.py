"""Graph Data Science (GDS) through the official ``graphdatascience`` client, for the test that
checks the optional OpenGDS plugin (the product calls GDS procedures through Cypher only).

The local server may carry the OpenGDS plugin (see ``graph/runtime/gds/pom.xml``). OpenGDS has no
Arrow Flight server and no ``gds.debug.arrow`` procedure, which the client's constructor probes
unless told not to. We always pass ``arrow=False`` (plain Bolt); client releases that still probe
get ``ArrowInfo.create`` replaced by a "disabled" answer for the duration of the constructor.
"""

from __future__ import annotations

import importlib
import logging
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any
from unittest import mock

if TYPE_CHECKING:
    from graphdatascience import GraphDataScience

__all__ = ["connect_gds"]

log = logging.getLogger(__name__)

# Where ``ArrowInfo`` lives across client releases (2.x first, then 1.x).
_ARROW_INFO_MODULES = (
    "graphdatascience.arrow_client.arrow_info",
    "graphdatascience.query_runner.arrow_info",
)


def _is_arrow_probe_error(exc: BaseException) -> bool:
    """Tell whether ``exc`` is the failure of the client's ``gds.debug.arrow`` probe."""
    text = f"{getattr(exc, 'code', '')} {getattr(exc, 'message', '')} {exc}"
    return "gds.debug.arrow" in text or "ProcedureNotFound" in text


def _disabled_arrow_info(arrow_info_cls: Any) -> Any:
    """Build an ``ArrowInfo`` saying that no Arrow server runs, whatever its fields are."""
    values = {"listenAddress": "", "enabled": False, "running": False, "versions": []}
    fields = getattr(arrow_info_cls, "__dataclass_fields__", values)
    return arrow_info_cls(**{name: values[name] for name in fields if name in values})


def _patch_arrow_probe(stack: ExitStack) -> None:
    """Make every known ``ArrowInfo.create`` answer "disabled" until ``stack`` closes."""
    for name in _ARROW_INFO_MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        cls = module.ArrowInfo
        answer = _disabled_arrow_info(cls)
        probe = staticmethod(lambda *_args, _answer=answer: _answer)
        stack.enter_context(mock.patch.object(cls, "create", probe))


def connect_gds(
    uri: str, user: str, password: str, database: str = "neo4j"
) -> GraphDataScience | None:
    """Connect the ``graphdatascience`` client to a Neo4j server that may have GDS.

    Args:
        uri: Bolt URI of the server, e.g. ``bolt://127.0.0.1:7687``.
        user: Database user.
        password: Password of ``user``.
        database: Database the client queries.

    Returns:
        A connected client (Bolt only, no Arrow, no progress bars); the caller should
        ``close()`` it. None when the server has no GDS plugin or the ``graphdatascience``
        package is not installed.

    Raises:
        Exception: Whatever the client raises when the server cannot be reached or the
            credentials are wrong (``graphdatascience`` wraps these as ``UnableToConnectError``).
    """
    try:
        from graphdatascience import GraphDataScience
        from graphdatascience.error.gds_not_installed import GdsNotFound
    except ImportError:
        log.info("graphdatascience is not installed (pip install 'hippograph[gds]')")
        return None

    def build() -> GraphDataScience:
        return GraphDataScience(
            uri,
            auth=(user, password),
            database=database,
            arrow=False,
            aura_ds=False,  # skips the client's extra connection that detects Aura
            show_progress=False,  # no tqdm bars in a service
        )

    try:
        try:
            return build()
        except Exception as exc:  # older clients probe gds.debug.arrow even with arrow=False
            if not _is_arrow_probe_error(exc):
                raise
            log.debug("retrying without the Arrow probe: %s", exc)
            with ExitStack() as stack:
                _patch_arrow_probe(stack)
                return build()
    except GdsNotFound:
        log.info("no Graph Data Science plugin on %s", uri)
        return None
