"""Document ingest: parse (text/markdown/HTML), chunk with overlap, embed, extract per chunk,
and a guarded, bounded URL fetch."""

from graph.memory.documents.fetch import FetchedDocument, UrlRefused, check_url, fetch_url
from graph.memory.documents.ingest import (
    DocumentAccepted,
    chunk_extract_handler,
    document_ingest_handler,
    ingest_document,
)
from graph.memory.documents.lookups import DocumentProgress, document_progress, search_chunks
from graph.memory.documents.parse import Chunk, ParsedDocument, chunk_text, parse_document

__all__ = [
    "Chunk",
    "DocumentAccepted",
    "DocumentProgress",
    "FetchedDocument",
    "ParsedDocument",
    "UrlRefused",
    "check_url",
    "chunk_extract_handler",
    "chunk_text",
    "document_ingest_handler",
    "document_progress",
    "fetch_url",
    "ingest_document",
    "parse_document",
    "search_chunks",
]
