"""Guard, PII, hostile input, modes, idempotency, dry run and round trips of ``write``."""

from __future__ import annotations

import asyncio

import pytest

from graph.errors import WriteInProgress
from graph.executor import Executor
from graph.memory.write import ConfigError, PIIRejected, WriteConfig, WritePipeline, WriteResult
from graph.providers import Embedder, HashEmbedder
from tests.cypher import load_query
from tests.fakes import RecordingExecutor, ScriptedLLM
from tests.integration.write.helpers import SPEAKER, counts, extraction, informed, speaker_link
from tests.integration.write.history import get_fact

pytestmark = pytest.mark.neo4j

INFORMED = "Stage: extract_informed"


async def test_empty_message_stores_nothing(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    llm = ScriptedLLM()
    res = await WritePipeline(executor, hash_embedder, llm.chat()).write(
        agent_id, "  \n\t ", SPEAKER
    )
    assert res.success and res.event_id is None and llm.calls == 0
    assert (await counts(executor, agent_id))["events"] == 0


async def test_one_megabyte_message_is_truncated(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    llm = ScriptedLLM(by_stage={INFORMED: [extraction()]})
    res = await WritePipeline(executor, hash_embedder, llm.chat()).write(
        agent_id, "word " * 210_000, SPEAKER
    )
    assert res.success
    assert any("truncated" in w for w in res.warnings)
    rows = await executor.run("write/match_keys", {"agent_id": agent_id, "keys": []})
    assert rows == []
    sent = llm.requests[0]["messages"][1]["content"]
    assert len(sent) < 13_000


async def test_credit_card_redacted_before_storage(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    captured: list[str] = []

    def reply(body: dict) -> dict:
        captured.append(body["messages"][1]["content"])
        return extraction()

    llm = ScriptedLLM(by_stage={INFORMED: [reply]})
    res = await WritePipeline(executor, hash_embedder, llm.chat()).write(
        agent_id, "My card is 4111 1111 1111 1111, charge it", SPEAKER
    )
    assert res.success and any("redacted" in w for w in res.warnings)
    assert "4111" not in captured[0] and "[REDACTED:credit_card]" in captured[0]
    rows = await executor.run_text(load_query("history_agent_counts"), {"agent_id": agent_id})
    assert rows[0]["events"] == 1


async def test_api_key_in_reject_mode(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    llm = ScriptedLLM()
    pipe = WritePipeline(executor, hash_embedder, llm.chat(), WriteConfig(pii_mode="reject"))
    with pytest.raises(PIIRejected):
        await pipe.write(agent_id, "use key sk-proj-abcdefghijklmnopqrstuvwx123 for prod", SPEAKER)
    assert llm.calls == 0
    assert all(v == 0 for v in (await counts(executor, agent_id)).values())


async def test_hostile_input_is_data(executor: Executor, agent_id: str, embedder: Embedder) -> None:
    evil = "x'}) DETACH DELETE n //"
    answer = extraction(
        [(evil, "person"), ("Acme`) DROP", "organization")],
        [(evil, f"{evil} works at Acme`) DROP"), (evil, "caf\udce9 is nice ok")],
        [
            (evil, "works `at`; MATCH (n) DETACH DELETE n", "Acme`) DROP"),
            (evil, "has space", "Acme`) DROP"),
            (evil, "`", "Acme`) DROP"),
        ],
    )
    llm = ScriptedLLM(by_stage={INFORMED: [answer]})
    pipe = WritePipeline(executor, embedder, llm.chat())
    res = await pipe.write(agent_id, f"{evil} caf\udce9 \x00\x07 works at Acme", evil)
    assert res.success, res.error
    types = sorted(r["type"] for r in res.relations)
    assert types == ["has_space", "works_at_match_n_detach_delete_n"]
    assert any("not usable" in w for w in res.warnings)
    c = await counts(executor, agent_id)
    assert c["events"] == 1 and c["facts"] == 2 and c["entities"] == 2
    texts = [f.text for f in res.facts_added]
    assert any("\ufffd" in t for t in texts)
    # The rest of the database is intact: the schema meta node still answers.
    assert (await executor.run("schema/get_version", read=True))[0]["version"] >= 1


async def test_shadow_mode_writes_only_audits(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    llm = ScriptedLLM(
        by_stage={
            INFORMED: [speaker_link("Rafael works at Acme", "works_at", "Acme", "organization")]
        }
    )
    pipe = WritePipeline(executor, embedder, llm.chat(), WriteConfig(mode="shadow"))
    res = await pipe.write(agent_id, "I work at Acme", SPEAKER)
    assert res.success and res.event_id is None
    c = await counts(executor, agent_id)
    assert c["audits"] == 1
    assert sum(v for k, v in c.items() if k != "audits") == 0


async def test_controlled_mode_applies_add_and_blocks_update(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    llm = ScriptedLLM(
        by_stage={
            INFORMED: [
                speaker_link("Rafael lives in Curitiba", "lives_in", "Curitiba", "place"),
                informed(
                    extraction(
                        [("São Paulo", "place")],
                        [
                            (SPEAKER, "Rafael lives in São Paulo now"),
                            (SPEAKER, "Rafael adopted a cat named Mingau"),
                        ],
                        [(SPEAKER, "lives_in", "São Paulo")],
                    ),
                    {"Rafael lives in São Paulo now": ("UPDATE", "Rafael lives in Curitiba")},
                ),
            ]
        }
    )
    pipe = WritePipeline(executor, embedder, llm.chat())
    first = await pipe.write(agent_id, "I live in Curitiba", SPEAKER)
    res = await pipe.write(
        agent_id,
        "I moved to São Paulo and adopted a cat, Mingau",
        SPEAKER,
        config_overrides={"mode": "controlled"},
    )
    assert res.success
    assert [f.text for f in res.facts_added] == ["Rafael adopted a cat named Mingau"]
    assert not res.facts_updated
    old = await get_fact(executor, agent_id, first.facts_added[0].id)
    assert old.get("valid_to") is None  # the UPDATE was blocked
    audits = await executor.run_text(
        load_query("history_audits"), {"agent_id": agent_id, "limit": 20}, read=True
    )
    blocked = [a for a in audits if not a["applied"]]
    assert [(a["action"], a["blocked_reason"]) for a in blocked] == [("UPDATE", "controlled_mode")]
    c = await counts(executor, agent_id)
    assert c["active_relations"] == 1  # Curitiba stays; São Paulo not linked


async def test_mutations_frozen_keeps_event_only(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    # The operator freezes mutations (a per-call override may not).
    res = await WritePipeline(
        executor, hash_embedder, None, WriteConfig(mutations_frozen=True)
    ).write(agent_id, "I live in Curitiba.", SPEAKER)
    assert res.success and any("not applied" in w for w in res.warnings)
    c = await counts(executor, agent_id)
    assert (c["events"], c["facts"], c["entities"], c["audits"]) == (1, 0, 0, 1)


async def test_idempotency_key_never_duplicates(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    pipe = WritePipeline(executor, hash_embedder, None)
    first = await pipe.write(agent_id, "I live in Curitiba.", SPEAKER, idempotency_key="m-1")
    again = await pipe.write(agent_id, "I live in Curitiba.", SPEAKER, idempotency_key="m-1")
    assert again.event_id == first.event_id
    assert [f.id for f in again.facts_added] == [f.id for f in first.facts_added]
    c = await counts(executor, agent_id)
    assert (c["events"], c["facts"], c["receipts"]) == (1, 1, 1)
    both = await asyncio.gather(
        *[pipe.write(agent_id, "I like jazz.", SPEAKER, idempotency_key="m-2") for _ in range(3)],
        return_exceptions=True,
    )
    assert sum(1 for r in both if isinstance(r, WriteResult) and r.success) >= 1
    # the others either waited for the first one's receipt or got the typed "in progress"
    assert all(isinstance(r, WriteResult | WriteInProgress) for r in both)
    assert (await counts(executor, agent_id))["events"] == 2


async def test_idempotency_keys_are_hashed_not_truncated(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    pipe = WritePipeline(executor, hash_embedder, None)
    prefix = "batch-2026-11-23/" + "x" * 300  # two keys equal on their first 300 characters
    first = await pipe.write(
        agent_id, "I live in Curitiba.", SPEAKER, idempotency_key=prefix + "/message-1"
    )
    second = await pipe.write(
        agent_id, "I like jazz.", SPEAKER, idempotency_key=prefix + "/message-2"
    )
    assert second.event_id != first.event_id and second.facts_added
    c = await counts(executor, agent_id)
    assert (c["events"], c["receipts"]) == (2, 2)
    again = await pipe.write(
        agent_id, "I like jazz.", SPEAKER, idempotency_key=prefix + "/message-2"
    )
    assert again.event_id == second.event_id  # the same full key is still the same write


async def test_dry_run_persists_nothing(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    res = await WritePipeline(executor, hash_embedder, None).write(
        agent_id, "I live in Curitiba.", SPEAKER, dry_run=True, idempotency_key="k"
    )
    assert res.success and res.dry_run and res.facts_added and res.event_id is None
    assert all(v == 0 for v in (await counts(executor, agent_id)).values())


async def test_config_overrides_are_type_checked(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    pipe = WritePipeline(executor, hash_embedder, None)
    with pytest.raises(ConfigError):
        await pipe.write(agent_id, "hi there", SPEAKER, config_overrides={"nope": 1})
    with pytest.raises(ConfigError):
        await pipe.write(
            agent_id, "hi there", SPEAKER, config_overrides={"fuzzy_threshold": "high"}
        )
    with pytest.raises(ConfigError):
        await pipe.write(agent_id, "hi there", SPEAKER, config_overrides={"mode": "yolo"})
    assert (await counts(executor, agent_id))["events"] == 0


async def test_low_confidence_facts_are_not_written(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    answer = extraction([("Acme", "organization")], [(SPEAKER, "Rafael might work at Acme")])
    answer["facts"][0]["confidence"] = 0.4
    llm = ScriptedLLM(by_stage={INFORMED: [answer]})
    res = await WritePipeline(executor, hash_embedder, llm.chat()).write(
        agent_id, "maybe I work at Acme?", SPEAKER
    )
    assert res.success and not res.facts_added
    assert (await counts(executor, agent_id))["facts"] == 0


async def test_round_trips_per_message_are_bounded(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    rec = RecordingExecutor(executor)
    llm = ScriptedLLM(
        by_stage={
            INFORMED: [
                extraction(
                    [("Curitiba", "place"), ("Acme", "organization"), ("Ana", "person")],
                    [
                        (SPEAKER, "Rafael lives in Curitiba"),
                        (SPEAKER, "Rafael works at Acme"),
                        (SPEAKER, "Rafael is married to Ana"),
                    ],
                    [
                        (SPEAKER, "lives_in", "Curitiba"),
                        (SPEAKER, "works_at", "Acme"),
                        (SPEAKER, "married_to", "Ana"),
                        ("Ana", "works_at", "Acme"),
                    ],
                )
            ]
            * 2
        }
    )
    pipe = WritePipeline(rec, embedder, llm.chat())
    await pipe.write(agent_id, "I live in Curitiba, work at Acme and married Ana", SPEAKER)
    # event + context read + entity candidates + fact candidates + ONE write transaction
    assert rec.round_trips == 5
    rec.reset()
    await pipe.write(
        agent_id, "I live in Curitiba, work at Acme and married Ana", SPEAKER, idempotency_key="rt"
    )
    assert rec.round_trips == 5  # the idempotency claim shares the event's transaction
    assert llm.calls == 2  # one LLM call per message


async def test_already_logged_event_is_not_duplicated(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    from graph.memory.remember import remember
    from graph.memory.write import StructuredEvent

    await remember(
        executor,
        hash_embedder,
        agent_id,
        events=[StructuredEvent("I live in Curitiba.", SPEAKER, id="ev-async")],
    )
    res = await WritePipeline(executor, hash_embedder, None).write(
        agent_id, "I live in Curitiba.", SPEAKER, event_id="ev-async", idempotency_key="job-1"
    )
    assert res.success and res.event_id == "ev-async"
    c = await counts(executor, agent_id)
    assert (c["events"], c["facts"], c["from_event"]) == (1, 1, 1)
