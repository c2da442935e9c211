"""The composition root: builds the executor and providers from settings, once per process."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from graph.executor import Executor, connect
from graph.providers import (
    ChatLLM,
    Embedder,
    HashEmbedder,
    MiniLMEmbedder,
    OpenAIChat,
    OpenAIEmbedder,
)
from graph.providers.embedders import find_tokenizer
from server.settings import Settings

__all__ = ["Services", "build_embedder", "build_llm", "build_services"]


@dataclass
class Services:
    """Everything a request or job needs; owned by the app lifespan (or a CLI command)."""

    settings: Settings
    executor: Executor
    embedder: Embedder
    llm: ChatLLM | None
    extras: dict[str, Any] = field(default_factory=dict)

    @property
    def llm_mode(self) -> str:
        return "openai-compatible" if self.llm is not None else "offline"

    @property
    def writer(self) -> Any:
        """The process-wide ``WritePipeline`` (None while the write pipeline is not built)."""
        if "writer" not in self.extras:
            self.extras["writer"] = _build_pipeline(
                "graph.memory.write", "WritePipeline", "graph.memory.write.config", "WriteConfig",
                self, {"mode": self.settings.write_mode,
                       "mutations_frozen": self.settings.mutations_frozen,
                       "pii_mode": self.settings.pii_mode,
                       "max_message_chars": self.settings.max_message_chars},
            )
        return self.extras["writer"]

    @property
    def retriever(self) -> Any:
        """The process-wide ``Retriever`` (None while the read pipeline is not built)."""
        if "retriever" not in self.extras:
            self.extras["retriever"] = _build_pipeline(
                "graph.memory.read", "Retriever", "graph.memory.read.config", "RetrieveConfig",
                self, {},
            )
        return self.extras["retriever"]

    async def close(self) -> None:
        await self.executor.close()


def _build_pipeline(module: str, cls_name: str, config_module: str, config_name: str,
                    services: Services, config_fields: dict[str, Any]) -> Any:
    """Construct a pipeline once per process; None when its package is not importable yet
    (the API then answers UNAVAILABLE for that operation instead of failing to start)."""
    import importlib

    try:
        cls = getattr(importlib.import_module(module), cls_name)
        config_cls = getattr(importlib.import_module(config_module), config_name)
    except (ImportError, AttributeError):
        return None
    known = set(getattr(config_cls, "__dataclass_fields__", {}))
    config = config_cls(**{k: v for k, v in config_fields.items() if k in known})
    return cls(services.executor, services.embedder, services.llm, config)


def _openai_client(settings: Settings) -> Any:
    import openai

    key = settings.llm_api_key.get_secret_value() if settings.llm_api_key else "not-needed"
    return openai.AsyncOpenAI(
        base_url=settings.llm_base_url, api_key=key, max_retries=0, timeout=settings.llm_timeout_s
    )


def build_embedder(settings: Settings) -> Embedder:
    if settings.embedder == "hash":
        return HashEmbedder(settings.embedding_dimensions)
    if settings.embedder == "openai":
        return OpenAIEmbedder(
            _openai_client(settings), settings.embedding_model, settings.embedding_dimensions
        )
    return MiniLMEmbedder(find_tokenizer(settings.home))


def build_llm(settings: Settings) -> ChatLLM | None:
    """The OpenAI-compatible chat provider, or None (offline mode) when no endpoint is set."""
    if not settings.llm_enabled:
        return None
    return OpenAIChat(
        _openai_client(settings),
        settings.model_for,
        timeout_s=settings.llm_timeout_s,
        max_retries=settings.llm_max_retries,
    )


def build_services(settings: Settings, *, embedder: Embedder | None = None,
                   llm: ChatLLM | None = None) -> Services:
    executor: Executor = connect(
        settings.bolt_uri,
        settings.neo4j_user,
        settings.neo4j_password.get_secret_value(),
        settings.neo4j_database,
        tx_timeout_s=settings.neo4j_tx_timeout_s,
    )
    return Services(
        settings=settings,
        executor=executor,
        embedder=embedder or build_embedder(settings),
        llm=llm if llm is not None else build_llm(settings),
    )
