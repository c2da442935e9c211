"""Which URLs a webhook may be sent to: http(s) only, no credentials in the URL, and — unless
the operator allows private targets (``WebhookConfig.allow_private``) — a host whose every
address is public. The address checks are the document fetch guard's
(:func:`graph.memory.documents.fetch.check_url`: loopback, private, link-local, multicast,
reserved and unspecified addresses refused, also inside IPv4-mapped, 6to4 and NAT64 IPv6
forms).

The check runs at registration and again at every delivery: the sender resolves the host
itself, checks every address and connects to the address it checked
(:func:`graph.memory.documents.fetch.pinned_target`), so a name that resolves to a private
address later (DNS rebinding) is never contacted.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from graph.errors import BadInput
from graph.memory.documents.fetch import Resolver, UrlRefused, check_url, system_resolver

__all__ = ["MAX_URL_CHARS", "TargetRefused", "check_target"]

MAX_URL_CHARS = 2_000


class TargetRefused(BadInput):
    """The webhook's URL may not be contacted (scheme, credentials, private address)."""


async def check_target(
    url: str, *, allow_private: bool = False, resolver: Resolver = system_resolver
) -> list[str]:
    """The addresses ``url``'s host resolves to, every one checked.

    Raises:
        TargetRefused: not http(s), credentials in the URL, too long, unresolvable, or an
            address that is not public while ``allow_private`` is off. The message names the
            host, never the addresses.
    """
    if len(url) > MAX_URL_CHARS:
        raise TargetRefused(f"a webhook URL has at most {MAX_URL_CHARS} characters")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise TargetRefused("a webhook URL is http:// or https://")
    if parts.username is not None or parts.password is not None:
        raise TargetRefused(
            "a webhook URL carries no credentials (the signature proves the sender)"
        )
    host = parts.hostname or ""
    try:
        return await check_url(url, allow_private=allow_private, resolver=resolver)
    except UrlRefused as exc:
        if "private" in str(exc):
            raise TargetRefused(
                f"{host!r} resolves to a loopback, private or link-local address; webhooks "
                "may not reach those unless the operator allows it (webhook_allow_private)"
            ) from None
        raise TargetRefused(f"webhook target refused: {exc}") from None
