"""DNS-rebinding and cross-site protection for every route: a request whose ``Host`` is not a
loopback name, or whose ``Origin`` (sent by browsers) is not a loopback origin, is refused with
403 unless the operator lists that host (``HIPPOGRAPH_ALLOWED_HOSTS``).

Why: a keyless local server (``make run``) trusts whoever reaches 127.0.0.1. A web page can point
its own domain at 127.0.0.1 (DNS rebinding) and then call the API as a same-origin page: its
requests carry ``Host: evil.example``. A page on another site that posts straight to
``http://127.0.0.1:8000`` carries its own ``Origin``. Checking both closes these doors.

When the guard applies (:func:`host_guard_enabled`): always when authentication is off or the
API binds to a loopback address; for an API bound to a public address with API keys, only when
the operator lists hosts (then only those are served), since a key already stops a foreign page.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from server.auth import is_loopback
from server.limits import json_error

__all__ = [
    "HostGuard",
    "WebSocketOriginGuard",
    "host_allowed",
    "host_guard_enabled",
    "origin_allowed",
    "split_host",
]


def split_host(value: str) -> str:
    """The host name of a ``Host`` header value (port and IPv6 brackets removed, lowercase)."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def host_allowed(host_header: str | None, listed: frozenset[str]) -> bool:
    """True when the ``Host`` names a loopback address or a listed host."""
    if not host_header:
        return False
    host = split_host(host_header)
    return is_loopback(host) or host in listed


def origin_allowed(origin: str | None, listed: frozenset[str]) -> bool:
    """True when no ``Origin`` was sent (not a browser's cross-site request) or it is an http(s)
    origin on a loopback or listed host."""
    if origin is None:
        return True
    parts = urlsplit(origin.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return False  # "null" (sandboxed frames, file://) and anything odd
    host = parts.hostname.lower()
    return is_loopback(host) or host in listed


def same_origin(origin: str, host_header: str | None) -> bool:
    """True when a browser ``Origin`` names the host and port the request was sent to."""
    if not host_header:
        return False
    try:
        parts, target = urlsplit(origin.strip()), urlsplit("//" + host_header.strip())
        default = 443 if parts.scheme == "https" else 80
        return (
            parts.scheme in ("http", "https")
            and bool(parts.hostname)
            and parts.hostname == target.hostname
            and (parts.port or default) == (target.port or default)
        )
    except ValueError:
        return False


def host_guard_enabled(auth_disabled: bool, api_host: str, listed: frozenset[str]) -> bool:
    """Whether every request's Host/Origin is checked (see the module docstring)."""
    return auth_disabled or is_loopback(api_host) or bool(listed)


class HostGuard:
    """ASGI middleware refusing foreign ``Host``/``Origin`` headers with a 403 JSON error."""

    def __init__(self, app: ASGIApp, listed: frozenset[str]) -> None:
        self.app = app
        self.listed = listed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        host, origin = headers.get("host"), headers.get("origin")
        if not host_allowed(host, self.listed):
            reason = "host"
        elif not origin_allowed(origin, self.listed):
            reason = "origin"
        else:
            await self.app(scope, receive, send)
            return
        response = json_error(
            403,
            "FORBIDDEN",
            f"This server does not answer for this {reason}; list it in "
            "HIPPOGRAPH_ALLOWED_HOSTS if it is yours.",
            reason=reason,
        )
        await response(scope, receive, send)


class WebSocketOriginGuard:
    """Cross-site WebSocket hijacking: browsers let any page open a WebSocket to any server,
    sending its own ``Origin``. An upgrade whose ``Origin`` is neither the server's own (same
    host and port as ``Host``), a loopback origin nor a listed host is refused with 403, on
    every bind (HostGuard checks HTTP requests only when it applies)."""

    def __init__(self, app: ASGIApp, listed: frozenset[str]) -> None:
        self.app = app
        self.listed = listed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
            origin = headers.get("origin")
            if origin is not None and not (
                origin_allowed(origin, self.listed) or same_origin(origin, headers.get("host"))
            ):
                response = json_error(
                    403,
                    "FORBIDDEN",
                    "WebSocket connections from this origin are refused; list its host in "
                    "HIPPOGRAPH_ALLOWED_HOSTS if it is yours.",
                    reason="origin",
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
