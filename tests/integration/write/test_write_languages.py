"""Memory in the user's language: facts keep the message's language on both paths, profiles
are English, and a move said in Portuguese supersedes a residence said in English."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graph.executor import Executor
from graph.memory.write import WritePipeline
from graph.providers import Embedder
from tests.fakes import ScriptedLLM
from tests.integration.write.helpers import SPEAKER, extraction, user_payload
from tests.integration.write.history import facts_as_of, get_fact, relationships_as_of

pytestmark = pytest.mark.neo4j

INFORMED = "Stage: extract_informed"
MOVE = "Eu me mudei para Lisboa em fevereiro por causa do escritório da Orion Tech."
PT_FACT = "Rafael se mudou para Lisboa em fevereiro por causa do escritório da Orion Tech"
PROFILE = "Rafael lives in Lisbon since February; he moved for the Orion Tech office."


async def test_the_llm_path_keeps_portuguese_facts_and_writes_english_profiles(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    llm = ScriptedLLM(
        by_stage={
            INFORMED: [
                extraction(
                    [("Lisboa", "place"), ("Orion Tech", "organization")],
                    [(SPEAKER, PT_FACT)],
                    [(SPEAKER, "lives_in", "Lisboa")],
                    profiles={SPEAKER: PROFILE},
                )
            ]
        }
    )
    res = await WritePipeline(executor, embedder, llm.chat()).write(agent_id, MOVE, SPEAKER)
    assert res.success, res.error
    [request] = llm.requests
    system = next(m["content"] for m in request["messages"] if m["role"] == "system")
    assert "Keep the language of the message for fact texts" in system
    assert "profiles are always written in English" in system
    assert user_payload(request)["message"].endswith(MOVE)
    [added] = res.facts_added
    fact = await get_fact(executor, agent_id, added.id)
    assert fact["text"] == PT_FACT and fact["language"] == "pt"
    [rafael] = await executor.run(
        "write/match_aliases", {"agent_id": agent_id, "norms": ["rafael"]}
    )
    assert rafael["profile_text"] == PROFILE


@pytest.mark.parametrize("model", ["embedder", "e5"])
async def test_a_portuguese_move_supersedes_an_english_residence_offline(
    executor: Executor, agent_id: str, model: str, request: pytest.FixtureRequest
) -> None:
    pipe = WritePipeline(executor, request.getfixturevalue(model), None)
    assert (await pipe.write(agent_id, "I live in Curitiba.", SPEAKER)).success
    moved = await pipe.write(agent_id, MOVE, SPEAKER)
    assert moved.success
    texts = [f.text for f in moved.facts_added + moved.facts_updated]
    assert texts == [PT_FACT + "."], moved  # the clause whole, in Portuguese
    active = await relationships_as_of(executor, agent_id, datetime.now(UTC))
    lives = {r["target_key"] for r in active if r["type"] == "lives_in"}
    assert lives == {"place:lisboa"}
    now = datetime.now(UTC)
    assert [f["text"] for f in await facts_as_of(executor, agent_id, now)] == [PT_FACT + "."]
