"""Turning a document into a title and plain text, then into overlapping chunks (pure).

HTML goes through the standard library's ``html.parser`` (no extra dependency): the ``<title>``
(or first ``<h1>``) becomes the title, script/style/template content is dropped, block elements
become line breaks. Markdown keeps its text (headings are good chunk boundaries); its title is
the first ``#`` heading. Plain text's title is its first non-empty line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

__all__ = ["Chunk", "ParsedDocument", "chunk_text", "detect_format", "parse_document"]

FORMATS = ("text", "markdown", "html")
_TITLE_MAX = 200
_SKIP = {"script", "style", "noscript", "template", "svg", "head"}
_BLOCK = {
    "p",
    "div",
    "br",
    "li",
    "ul",
    "ol",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "tr",
    "table",
    "section",
    "article",
    "header",
    "footer",
    "blockquote",
    "pre",
    "hr",
    "dd",
    "dt",
    "nav",
    "main",
    "aside",
    "figure",
    "figcaption",
    "form",
    "title",
}


@dataclass(frozen=True)
class ParsedDocument:
    title: str
    text: str
    format: str


@dataclass(frozen=True)
class Chunk:
    ord: int
    text: str
    start: int
    end: int


class _HTMLText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title_parts: list[str] = []
        self.h1_parts: list[str] = []
        self._skip = 0
        self._in_title = False
        self._in_h1 = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":
            self._in_title = True
        elif tag in _SKIP:
            self._skip += 1
        if tag == "h1":
            self._in_h1 = True
        if tag in _BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        elif tag in _SKIP and self._skip:
            self._skip -= 1
        if tag == "h1":
            self._in_h1 = False
        if tag in _BLOCK:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title_parts.append(data)
            return
        if self._skip:
            return
        if self._in_h1:
            self.h1_parts.append(data)
        self.parts.append(data)


def _tidy(text: str) -> str:
    """Collapse runs of spaces, keep paragraph breaks (at most one blank line)."""
    lines = [re.sub(r"[ \t\f\v\r]+", " ", line).strip() for line in text.split("\n")]
    out = "\n".join(lines)
    return re.sub(r"\n{3,}", "\n\n", out).strip()


def _first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:_TITLE_MAX]
    return ""


def detect_format(content_type: str | None, name: str | None, text: str) -> str:
    """Guess text/markdown/html from a content type, a file/URL name, then the content."""
    ct = (content_type or "").lower()
    low = (name or "").lower().split("?")[0]
    if "html" in ct or low.endswith((".html", ".htm", ".xhtml")):
        return "html"
    if "markdown" in ct or low.endswith((".md", ".markdown")):
        return "markdown"
    head = text[:2_000].lstrip().lower()
    if head.startswith(("<!doctype html", "<html")) or "<body" in head:
        return "html"
    if re.search(r"(?m)^#{1,6} \S", text[:5_000]):
        return "markdown"
    return "text"


def _markdown_title(body: str) -> str:
    """The text of the first ``# Title`` line, closing hashes removed (string operations: the
    former lazy-title regex with optional spaces and hashes around it was cubic on a long run
    of ``#``)."""
    for line in body.split("\n"):
        if line.startswith("#") and line[1:2].isspace():
            title = line[1:].strip().rstrip("#").strip()
            if title:
                return title[:_TITLE_MAX]
    return ""


def parse_document(text: str, fmt: str, *, title: str | None = None) -> ParsedDocument:
    """Extract title and plain text.

    Args:
        text: the raw document.
        fmt: "text", "markdown" or "html" (anything else is treated as text).
        title: a caller-given title wins over the extracted one.
    """
    fmt = fmt if fmt in FORMATS else "text"
    text = text.replace("\x00", "")
    if fmt == "html":
        parser = _HTMLText()
        parser.feed(text)
        parser.close()
        body = _tidy("".join(parser.parts))
        found = " ".join("".join(parser.title_parts).split()) or " ".join(
            "".join(parser.h1_parts).split()
        )
        return ParsedDocument(title or found[:_TITLE_MAX] or _first_line(body), body, fmt)
    body = _tidy(text)
    if fmt == "markdown":
        found = _markdown_title(body) or _first_line(body)
        return ParsedDocument(title or found, body, fmt)
    return ParsedDocument(title or _first_line(body), body, fmt)


def _cut(text: str, start: int, hard_end: int, min_end: int) -> int:
    """Best end of a chunk in [min_end, hard_end]: a heading/paragraph break, then a sentence
    end, then whitespace; else the hard end."""
    window = text[min_end:hard_end]
    for pattern in (r"\n#{1,6} ", r"\n\n", r"[.!?][\"')\]]?\s", r"\n", r"\s"):
        found = [m.start() for m in re.finditer(pattern, window)]
        if found:
            pos = min_end + found[-1]
            # keep the sentence's punctuation in this chunk, start the next at the break
            return pos + 1 if pattern.startswith("[.!?]") else pos
    return hard_end


def chunk_text(text: str, size: int = 1_200, overlap: int = 150) -> list[Chunk]:
    """Split text into chunks of at most ``size`` characters that overlap by about ``overlap``.

    Boundaries prefer headings, paragraphs and sentence ends found in the last 40 % of each
    window, so chunks read as whole passages; the overlap starts at a word boundary.
    """
    size = max(50, size)
    overlap = max(0, min(overlap, size // 2))
    chunks: list[Chunk] = []
    start, n = 0, len(text)
    while start < n:
        while start < n and text[start].isspace():
            start += 1
        if start >= n:
            break
        hard_end = min(n, start + size)
        end = hard_end if hard_end == n else _cut(text, start, hard_end, start + int(size * 0.6))
        piece = text[start:end].strip()
        if piece:
            chunks.append(Chunk(len(chunks), piece, start, end))
        if end >= n:
            break
        nxt = max(end - overlap, start + 1)
        # begin the overlap on a word boundary (never past the end of this chunk)
        space = text.find(" ", nxt, end)
        start = space + 1 if overlap and space != -1 else (nxt if overlap else end)
    return chunks
