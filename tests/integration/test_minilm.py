"""The MiniLM embedder (the installed ONNX model; no database)."""

from __future__ import annotations

from graph.providers import MiniLMEmbedder
from graph.providers.embedders import find_tokenizer
from server.settings import Settings

FACTS = [
    "Clara Rezende moved to Porto Alegre in 2019 after finishing her degree in Curitiba.",
    "The quarterly budget was approved by the board on Tuesday.",
    "Bruno enjoys playing the guitar on weekends with his friends from the climbing gym.",
]
NAMES = ["Clara Rezende", "Porto Alegre", "Bruno", "Curitiba", "narrator"]


async def test_a_vector_does_not_depend_on_its_batch_and_names_are_computed_once() -> None:
    embedder = MiniLMEmbedder(find_tokenizer(Settings().home))
    alone = [(await embedder.embed([t]))[0] for t in FACTS + NAMES]
    assert embedder.computed == len(FACTS) + len(NAMES)
    fresh = MiniLMEmbedder(find_tokenizer(Settings().home))
    mixed = await fresh.embed(NAMES[::-1] + FACTS + NAMES[:1])
    assert mixed == alone[len(FACTS) :][::-1] + alone[: len(FACTS)] + alone[len(FACTS) :][:1]
    assert fresh.computed == len(FACTS) + len(NAMES)  # a repeated text is computed once
    again = await fresh.embed(NAMES + FACTS[:1])
    assert again == alone[len(FACTS) :] + alone[:1]
    # the names come from the cache; the long fact text is computed again (not cached)
    assert fresh.computed == len(FACTS) + len(NAMES) + 1
