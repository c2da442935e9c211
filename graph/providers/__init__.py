"""Providers the pipelines depend on, behind small protocols: embedders and chat LLMs.

Concrete providers are constructed only at the composition root (``server/``, CLI, seed, tests)
and injected; library code never builds an OpenAI client by itself.
"""

from graph.providers.base import (
    ChatLLM,
    Embedder,
    LLMError,
    LLMResponse,
    TokenUsage,
    embed_queries,
    read_options,
    similarity_floor,
)
from graph.providers.embedders import E5Embedder, HashEmbedder, MiniLMEmbedder, OpenAIEmbedder
from graph.providers.openai_chat import OpenAIChat

__all__ = [
    "ChatLLM",
    "E5Embedder",
    "Embedder",
    "HashEmbedder",
    "LLMError",
    "LLMResponse",
    "MiniLMEmbedder",
    "OpenAIChat",
    "OpenAIEmbedder",
    "TokenUsage",
    "embed_queries",
    "read_options",
    "similarity_floor",
]
