"""LangChain on Hippograph (``pip install 'hippograph-client[langchain]'``):
:class:`HippographRetriever` is a LangChain retriever over one agent's memory — each document is
a fact ``retrieve`` ranked, its text as the page content and its id, score, validity, subject
and evidence in the metadata — so chains and agents read the memory like any other retriever.

    retriever = HippographRetriever(client=HippographClient(url), agent_id="ana", k=5)
    docs = retriever.invoke("Where does Ana live?")

The retriever reads only: memories are written through ``write`` (the client, MCP, or the
LangGraph store), where extraction, versioning and supersession happen.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict

from hippograph_client.aio.client import AsyncHippographClient
from hippograph_client.ranked import fact_metadata
from hippograph_client.sync.client import HippographClient

__all__ = ["HippographRetriever", "to_document"]


def to_document(fact: Any) -> Document:
    """One ranked fact as a LangChain document."""
    return Document(page_content=fact.text, id=fact.id, metadata=fact_metadata(fact))


class HippographRetriever(BaseRetriever):
    """The ``k`` facts of ``agent_id``'s memory that best answer a query (``as_of``: the
    memory as it was then). ``client`` serves ``invoke``, ``aclient`` ``ainvoke``."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    agent_id: str
    client: HippographClient | None = None
    aclient: AsyncHippographClient | None = None
    k: int = 5
    as_of: datetime | None = None

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        if self.client is None:
            raise RuntimeError("HippographRetriever(client=HippographClient(...)) for invoke")
        found = self.client.retrieve(
            self.agent_id, query, as_of=self.as_of, options={"topkFacts": self.k}
        )
        return [to_document(f) for f in found.facts]

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun
    ) -> list[Document]:
        if self.aclient is None:
            raise RuntimeError("HippographRetriever(aclient=AsyncHippographClient(...))")
        found = await self.aclient.retrieve(
            self.agent_id, query, as_of=self.as_of, options={"topkFacts": self.k}
        )
        return [to_document(f) for f in found.facts]
