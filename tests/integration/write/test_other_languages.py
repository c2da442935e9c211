"""Outside English and Portuguese: a handful of Spanish and French messages go through the
offline write path and come back from ``retrieve`` on the default embedder (e5), asked in the
message's language and in English. Nothing is translated; nothing breaks. Spanish messages
become facts (the rules of ``offline.romance``); the offline path has no French rules, so a
French message is kept as the conversation turn it was and found as a snippet."""

from __future__ import annotations

import pytest

from graph.executor import Executor
from graph.memory.read import Retriever
from graph.memory.write import WritePipeline
from graph.providers import Embedder
from tests.integration.write.helpers import SPEAKER

pytestmark = pytest.mark.neo4j

MESSAGES = {
    "es": [
        "Vivo en Madrid con mi hermana Lucía.",
        "Trabajo en Telefónica desde 2019.",
        "Los domingos juego al pádel con mis amigos.",
        "Mi perro se llama Toby y le encanta la playa.",
    ],
    "fr": [
        "J'habite à Lyon depuis trois ans.",
        "Je travaille chez Michelin comme ingénieure.",
        "Le week-end, je fais de la randonnée dans les Alpes.",
        "Mon chat s'appelle Moustache.",
    ],
}
# (language, question, a word of the one fact that answers it)
QUESTIONS = [
    ("es", "¿Dónde trabaja?", "Telefónica"),
    ("es", "What is the dog's name?", "Toby"),
    ("fr", "Où travaille-t-elle ?", "Michelin"),
    ("fr", "What does she do at weekends?", "randonnée"),
]


@pytest.mark.parametrize("language", ["es", "fr"])
async def test_messages_in_another_language_are_kept_and_found(
    executor: Executor, agent_id: str, e5: Embedder, language: str
) -> None:
    pipe = WritePipeline(executor, e5, None)
    for message in MESSAGES[language]:
        result = await pipe.write(agent_id, message, SPEAKER)
        assert result.success, result
        assert result.event_id, message
        if language == "es":
            assert [f.text for f in result.facts_added] == [message]
    retriever = Retriever(executor, e5)
    for asked_in, question, word in QUESTIONS:
        if asked_in != language:
            continue
        found = await retriever.retrieve(agent_id, question)
        ranked = sorted(
            [(f.scores.final, f.text) for f in found.facts]
            + [(e.score, e.text) for e in found.events],
            reverse=True,
        )
        assert ranked and all(text.strip() for _, text in ranked), question
        assert word in " ".join(text for _, text in ranked[:2]), (question, ranked)
