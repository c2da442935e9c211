"""Document parsing and chunking (pure), and the URL guard/fetch — which only ever talks to a
server on 127.0.0.1 started by the test itself."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator

import pytest

from graph.memory.documents.fetch import UrlRefused, check_url, fetch_url, is_public_address
from graph.memory.documents.parse import chunk_text, detect_format, parse_document

HTML = """<!doctype html><html><head><title> Trip &amp; Notes </title>
<style>body {color: red}</style><script>alert('x')</script></head>
<body><nav>Home</nav><h1>Porto</h1><p>Clara moved to <b>Porto</b> in March.</p>
<ul><li>Hiking</li><li>Cello</li></ul><template>hidden</template></body></html>"""


def test_html_title_and_text_without_scripts_or_styles() -> None:
    doc = parse_document(HTML, "html")
    assert doc.title == "Trip & Notes"
    assert doc.text == "Home\n\nPorto\n\nClara moved to Porto in March.\n\nHiking\n\nCello"
    assert "alert" not in doc.text and "color" not in doc.text and "hidden" not in doc.text
    assert parse_document("<p>No title here</p>", "html").title == "No title here"
    assert parse_document("<h1>Head</h1><p>x</p>", "html").title == "Head"


def test_markdown_and_text_titles() -> None:
    md = "Intro line\n\n# The Real Title\n\nBody text."
    assert parse_document(md, "markdown").title == "The Real Title"
    assert parse_document("  \n First line\nsecond", "text").title == "First line"
    assert parse_document("x", "text", title="Given").title == "Given"


def test_detect_format() -> None:
    assert detect_format("text/html; charset=utf-8", None, "") == "html"
    assert detect_format(None, "notes.md", "") == "markdown"
    assert detect_format(None, None, "<!DOCTYPE html><html>") == "html"
    assert detect_format(None, None, "## Section\ntext") == "markdown"
    assert detect_format("text/plain", "a.txt", "plain words") == "text"


def test_chunks_cover_the_text_with_overlap_and_clean_boundaries() -> None:
    paragraph = (
        "Clara likes hiking in the mountains near Porto. She goes every weekend. "
        "Rafael prefers the beach and plays the guitar. "
    ) * 3
    text = "\n\n".join(f"## Part {i}\n\n{paragraph}" for i in range(20))
    chunks = chunk_text(text, size=500, overlap=80)
    assert len(chunks) > 10
    assert all(len(c.text) <= 500 for c in chunks)
    assert [c.ord for c in chunks] == list(range(len(chunks)))
    for a, b in itertools.pairwise(chunks):
        assert b.start < a.end  # overlap: the next chunk starts inside the previous one
        assert a.end - b.start <= 80 + 1
        assert text[b.start - 1].isspace() or b.start == 0  # starts on a word boundary
    covered = set()
    for c in chunks:
        covered.update(range(c.start, c.end))
    assert all(i in covered or text[i].isspace() for i in range(len(text)))
    assert sum(c.text.endswith((".", "Part")) or c.text[-1].isalnum() for c in chunks) > 0


def test_chunking_edge_cases() -> None:
    assert chunk_text("") == []
    assert chunk_text("   \n ") == []
    assert [c.text for c in chunk_text("short text")] == ["short text"]
    unbroken = "x" * 1000
    parts = chunk_text(unbroken, size=300, overlap=0)
    assert "".join(p.text for p in parts) == unbroken


@pytest.mark.parametrize(
    "ip,public",
    [
        ("127.0.0.1", False),
        ("10.1.2.3", False),
        ("192.168.0.10", False),
        ("172.16.5.4", False),
        ("169.254.169.254", False),
        ("0.0.0.0", False),
        ("100.64.0.1", False),
        ("::1", False),
        ("fe80::1", False),
        ("fc00::1", False),
        ("::ffff:127.0.0.1", False),
        ("224.0.0.1", False),
        ("8.8.8.8", True),
        ("2606:4700:4700::1111", True),
    ],
)
def test_public_address_classification(ip: str, public: bool) -> None:
    assert is_public_address(ip) is public


def resolver_for(table: dict[str, list[str]]):  # type: ignore[no-untyped-def]
    async def resolve(host: str, port: int) -> list[str]:
        return table[host]

    return resolve


async def test_guard_refuses_private_targets_before_sending_anything() -> None:
    with pytest.raises(UrlRefused, match="private/loopback"):
        await check_url("http://127.0.0.1:9/secret")
    with pytest.raises(UrlRefused, match="private/loopback"):
        await check_url("http://localhost:9/")  # resolved by /etc/hosts, no traffic
    with pytest.raises(UrlRefused, match="private/loopback"):
        await check_url("http://[::1]:9/")
    # every resolved address counts: one private answer among public ones refuses
    mixed = resolver_for({"mixed.example": ["93.184.216.34", "10.0.0.7"]})
    with pytest.raises(UrlRefused):
        await check_url("https://mixed.example/x", resolver=mixed)
    meta = resolver_for({"metadata.example": ["169.254.169.254"]})
    with pytest.raises(UrlRefused):
        await check_url("http://metadata.example/latest", resolver=meta)
    public = resolver_for({"public.example": ["93.184.216.34"]})
    assert await check_url("https://public.example/doc", resolver=public) == ["93.184.216.34"]
    for bad in ("file:///etc/passwd", "ftp://x.example/", "http:///nohost", "javascript:x"):
        with pytest.raises(UrlRefused):
            await check_url(bad)
    assert await check_url("http://127.0.0.1:9/", allow_private=True) == ["127.0.0.1"]


@pytest.fixture
async def loopback_server() -> AsyncIterator[tuple[str, dict[str, bytes]]]:
    """A tiny HTTP server on 127.0.0.1: path → raw response."""
    routes: dict[str, bytes] = {}

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        request = await reader.readuntil(b"\r\n\r\n")
        path = request.split(b" ")[1].decode()
        writer.write(routes.get(path, b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"))
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}", routes
    finally:
        server.close()
        await server.wait_closed()


def response(body: bytes, content_type: str = "text/html; charset=utf-8", extra: str = "") -> bytes:
    head = (
        f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n{extra}\r\n"
    )
    return head.encode() + body


TYPES = ("text/html", "text/", "application/json")


async def test_fetch_to_loopback_is_refused_unless_allowed(
    loopback_server: tuple[str, dict[str, bytes]],
) -> None:
    base, routes = loopback_server
    routes["/doc"] = response(HTML.encode())
    with pytest.raises(UrlRefused, match="private/loopback"):
        await fetch_url(f"{base}/doc", max_bytes=10_000, content_types=TYPES)
    fetched = await fetch_url(
        f"{base}/doc", max_bytes=10_000, content_types=TYPES, allow_private=True
    )
    assert fetched.content_type.startswith("text/html") and "Porto" in fetched.text


async def test_fetch_limits_size_type_and_redirects(
    loopback_server: tuple[str, dict[str, bytes]],
) -> None:
    base, routes = loopback_server
    routes["/big"] = response(b"a" * 5_000, "text/plain")
    routes["/bin"] = response(b"\x00\x01", "application/octet-stream")
    routes["/hop"] = b"HTTP/1.1 302 Found\r\nLocation: /doc\r\nContent-Length: 0\r\n\r\n"
    routes["/doc"] = response(b"<p>ok</p>")
    routes["/loop"] = b"HTTP/1.1 302 Found\r\nLocation: /loop\r\nContent-Length: 0\r\n\r\n"
    kw = {"content_types": TYPES, "allow_private": True}
    with pytest.raises(UrlRefused, match="larger than 1000 bytes"):
        await fetch_url(f"{base}/big", max_bytes=1_000, **kw)  # type: ignore[arg-type]
    with pytest.raises(UrlRefused, match="content type"):
        await fetch_url(f"{base}/bin", max_bytes=1_000, **kw)  # type: ignore[arg-type]
    hopped = await fetch_url(f"{base}/hop", max_bytes=1_000, **kw)  # type: ignore[arg-type]
    assert hopped.url.endswith("/doc") and hopped.text == "<p>ok</p>"
    with pytest.raises(UrlRefused, match="redirects"):
        await fetch_url(f"{base}/loop", max_bytes=1_000, **kw)  # type: ignore[arg-type]
    with pytest.raises(UrlRefused, match="HTTP 404"):
        await fetch_url(f"{base}/missing", max_bytes=1_000, **kw)  # type: ignore[arg-type]


async def test_a_redirect_to_a_private_address_is_refused() -> None:
    """A public page that redirects to the metadata service: the second hop is refused
    (MockTransport: no connection is ever opened)."""
    import httpx

    hops: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        hops.append(f"{request.url} Host={request.headers['host']}")
        return httpx.Response(302, headers={"location": "http://169.254.169.254/latest"})

    public = resolver_for(
        {"public.example": ["93.184.216.34"], "169.254.169.254": ["169.254.169.254"]}
    )
    with pytest.raises(UrlRefused, match="private/loopback"):
        await fetch_url(
            "https://public.example/page",
            max_bytes=1_000,
            content_types=TYPES,
            resolver=public,
            transport=httpx.MockTransport(handler),
        )
    assert hops == ["https://93.184.216.34/page Host=public.example"]  # pinned to the check
