"""The write pipeline's LLM path against the real Neo4j with scripted model answers."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime

import pytest

from graph.executor import Executor
from graph.memory.write import WritePipeline
from graph.providers import Embedder
from tests.cypher import load_query
from tests.fakes import ScriptedLLM
from tests.integration.write.helpers import (
    CLARA_ENTITIES,
    CLARA_FACTS,
    CLARA_MESSAGE,
    CLARA_RELATIONS,
    SPEAKER,
    counts,
    extraction,
    informed,
    reconcile_with,
    speaker_link,
    user_payload,
)
from tests.integration.write.history import facts_as_of, get_fact, relationships_as_of

pytestmark = pytest.mark.neo4j

INFORMED = "Stage: extract_informed"
RECONCILE = "Stage: reconcile"


async def test_clara_informed_path_one_call(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    llm = ScriptedLLM(
        by_stage={
            INFORMED: [
                extraction(
                    CLARA_ENTITIES,
                    CLARA_FACTS,
                    CLARA_RELATIONS,
                    profiles={
                        "Clara Rezende": "Software engineer; head of engineering at Orion Tech."
                    },
                    emotion={"label": "Joy", "intensity": 0.6, "energy": 0.7},
                )
            ]
        }
    )
    pipe = WritePipeline(executor, embedder, llm.chat())
    res = await pipe.write(agent_id, CLARA_MESSAGE, SPEAKER)
    assert res.success, res.error
    assert llm.calls == 1 and res.llm_calls == 1
    assert res.tokens_used.input == 100 and res.tokens_used.total == 150
    assert len(res.facts_added) == 3
    assert len(res.relations) == 3
    assert len(res.entities_resolved) == 4
    c = await counts(executor, agent_id)
    assert (c["entities"], c["facts"], c["relations"], c["events"]) == (4, 3, 3, 1)
    assert c["from_event"] == 3
    # "Clara Rezende left Vertix" links both Clara (primary) and Vertix.
    assert c["about"] >= 6
    # The relationship's evidence is the fact that mentions both ends.
    ev = (
        await executor.run_text(
            load_query("history_event_by_id"), {"agent_id": agent_id, "event_id": res.event_id}
        )
    )[0]["event"]
    assert (ev["emotion"], ev["intensity"], ev["text"]) == ("joy", 0.6, CLARA_MESSAGE)
    [clara] = await executor.run(
        "write/match_aliases", {"agent_id": agent_id, "norms": ["clara rezende"]}
    )
    assert clara["profile_text"].startswith("Software engineer")
    by_type = {r["type"]: r for r in res.relations}
    left = next(f for f in res.facts_added if f.text == "Clara Rezende left Vertix")
    assert by_type["former_employee_of"]["evidence_fact_id"] == left.id


async def test_clara_fallback_path_three_calls(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    llm = ScriptedLLM(
        by_stage={
            INFORMED: ["this is not JSON {"],
            "Stage: extract_entities": [
                {"entities": [{"name": n, "type": t} for n, t in CLARA_ENTITIES]}
            ],
            "Stage: extract_facts": [extraction(facts=CLARA_FACTS)],
            "Stage: extract_relations": [extraction(relations=CLARA_RELATIONS)],
        }
    )
    res = await WritePipeline(executor, embedder, llm.chat()).write(
        agent_id, CLARA_MESSAGE, SPEAKER, verbose=True
    )
    assert res.success, res.error
    # 1 failed informed call + the 3 fallback calls (entity scan, facts ‖ relations).
    assert llm.calls == 4 and res.llm_calls == 4
    fallback_calls = [r for r in llm.requests if INFORMED not in r["messages"][0]["content"]]
    assert len(fallback_calls) == 3
    assert res.trace is not None
    assert any(
        s.get("stage") == "fallback_extraction" and s["relation_retry_triggered"] is False
        for s in res.trace
    )
    c = await counts(executor, agent_id)
    assert (c["entities"], c["facts"], c["relations"]) == (4, 3, 3)


async def test_fallback_retries_relations_once(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    llm = ScriptedLLM(
        by_stage={
            INFORMED: ["nope"],
            "Stage: extract_entities": [
                {"entities": [{"name": n, "type": t} for n, t in CLARA_ENTITIES]}
            ],
            "Stage: extract_facts": [extraction(facts=CLARA_FACTS)],
            "Stage: extract_relations": [{"relations": []}, extraction(relations=CLARA_RELATIONS)],
        }
    )
    res = await WritePipeline(executor, embedder, llm.chat()).write(
        agent_id, CLARA_MESSAGE, SPEAKER, verbose=True
    )
    assert llm.calls == 5
    assert len(res.relations) == 3
    assert res.trace and any(s.get("relation_retry_triggered") for s in res.trace)


async def test_move_supersedes_and_cascades(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    llm = ScriptedLLM(
        by_stage={
            INFORMED: [
                speaker_link("Rafael lives in Curitiba", "lives_in", "Curitiba", "place"),
                informed(
                    speaker_link("Rafael lives in São Paulo now", "lives_in", "São Paulo", "place"),
                    {"Rafael lives in São Paulo now": ("UPDATE", "Rafael lives in Curitiba")},
                ),
            ]
        }
    )
    pipe = WritePipeline(executor, embedder, llm.chat())
    first = await pipe.write(agent_id, "I live in Curitiba", SPEAKER)
    between = datetime.now(UTC)
    await asyncio.sleep(0.05)
    second = await pipe.write(agent_id, "I moved to São Paulo", SPEAKER)
    assert first.success and second.success
    # Extraction and reconciliation in ONE call per message: the second call saw the known
    # fact under a short id and answered UPDATE on it.
    assert llm.calls == 2 and second.llm_calls == 1
    shown = user_payload(llm.requests[1])["known_facts"]
    assert [(f["id"], f["about"], f["text"]) for f in shown] == [
        ("F1", SPEAKER, "Rafael lives in Curitiba")
    ]
    old_id = first.facts_added[0].id
    assert [u.target_id for u in second.facts_updated] == [old_id]
    old = await get_fact(executor, agent_id, old_id)
    assert old["valid_to"] is not None and old["invalidated_at"] is not None
    c = await counts(executor, agent_id)
    assert c["supersedes"] == 1 and c["active_facts"] == 1
    now_rels = await relationships_as_of(executor, agent_id, datetime.now(UTC))
    assert [(r["type"], r["target_key"]) for r in now_rels] == [("lives_in", "place:sao_paulo")]
    then_rels = await relationships_as_of(executor, agent_id, between)
    assert [(r["type"], r["target_key"]) for r in then_rels] == [("lives_in", "place:curitiba")]
    then = await facts_as_of(executor, agent_id, between)
    assert [f["text"] for f in then] == ["Rafael lives in Curitiba"]


async def test_alias_resolves_without_fuzzy_or_llm(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    llm = ScriptedLLM(
        by_stage={
            INFORMED: [
                extraction(
                    [("Guilherme Maturana", "person")],
                    [("Guilherme Maturana", "Guilherme Maturana is a product designer")],
                    aliases={"Guilherme Maturana": ["Guili"]},
                ),
                extraction(
                    [("Guili", "person")], [("Guili", "Guili said the project is on track")]
                ),
            ]
        }
    )
    pipe = WritePipeline(executor, embedder, llm.chat())
    await pipe.write(agent_id, "My friend Guili (Guilherme Maturana) is a designer", SPEAKER)
    res = await pipe.write(agent_id, "Guili said the project is on track", SPEAKER)
    assert llm.calls == 2  # one extraction per message, no resolve_entities call
    [guili] = [e for e in res.entities_resolved if e["name"] == "Guili"]
    assert guili["method"] == "alias" and guili["key"] == "person:guilherme_maturana"
    c = await counts(executor, agent_id)
    assert c["entities"] == 1 and c["aliases"] == 2 and c["alias_links"] == 2
    assert res.facts_added[0].subject_key == "person:guilherme_maturana"


async def test_twenty_concurrent_writes_one_entity(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    answer = extraction(
        [("Beatriz Souza", "person")],
        [("Beatriz Souza", "Beatriz Souza is a product designer")],
        aliases={"Beatriz Souza": ["Bia"]},
    )
    llm = ScriptedLLM(by_stage={INFORMED: [answer] * 20})
    pipe = WritePipeline(executor, embedder, llm.chat())
    results = await asyncio.gather(
        *[
            pipe.write(agent_id, f"Bia (Beatriz Souza) is a product designer #{i}", SPEAKER)
            for i in range(20)
        ]
    )
    assert all(r.success for r in results), [r.error for r in results]
    c = await counts(executor, agent_id)
    assert c["entities"] == 1
    assert c["aliases"] == 2 and c["alias_links"] == 2
    assert c["events"] == 20


async def test_repeat_is_noop_with_reinforcement(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    answer = speaker_link("Rafael works at Acme", "works_at", "Acme", "organization")
    llm = ScriptedLLM(by_stage={INFORMED: [answer, answer]})
    pipe = WritePipeline(executor, embedder, llm.chat())
    first = await pipe.write(agent_id, "I work at Acme", SPEAKER)
    second = await pipe.write(agent_id, "I work at Acme", SPEAKER)
    assert llm.calls == 2  # the NOOP needs no reconcile call (similarity ≥ 0.98)
    assert [u.target_id for u in second.facts_unchanged] == [first.facts_added[0].id]
    fact = await get_fact(executor, agent_id, first.facts_added[0].id)
    assert fact["reinforcement_count"] == 2
    c = await counts(executor, agent_id)
    assert c["facts"] == 1 and c["relations"] == 1


async def test_no_longer_works_is_delete(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    llm = ScriptedLLM(
        by_stage={
            INFORMED: [
                speaker_link("Rafael works at Acme", "works_at", "Acme", "organization"),
                informed(
                    extraction(
                        [("Acme", "organization")], [(SPEAKER, "Rafael no longer works at Acme")]
                    ),
                    {"Rafael no longer works at Acme": ("DELETE", "Rafael works at Acme")},
                ),
            ]
        }
    )
    pipe = WritePipeline(executor, embedder, llm.chat())
    first = await pipe.write(agent_id, "I work at Acme", SPEAKER)
    second = await pipe.write(agent_id, "I no longer work at Acme", SPEAKER)
    assert [d.id for d in second.facts_deleted] == [first.facts_added[0].id]
    assert not second.facts_added and llm.calls == 2
    c = await counts(executor, agent_id)
    assert c["active_facts"] == 0 and c["active_relations"] == 0


async def test_hallucinated_targets_and_empty_reasons_dropped(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    second = extraction(
        [("Acme", "organization")],
        [
            (SPEAKER, "Rafael works at Acme Corp as a developer"),
            (SPEAKER, "Rafael enjoys hiking in the mountains"),
        ],
    )
    second["facts"][0].update(action="UPDATE", target_id="F99", reason="moved")
    second["facts"][1].update(action="DELETE", target_id="F1", reason="")
    llm = ScriptedLLM(
        by_stage={
            INFORMED: [
                extraction(
                    [("Acme", "organization")],
                    [(SPEAKER, "Rafael works at Acme"), (SPEAKER, "Rafael enjoys hiking")],
                ),
                second,
            ]
        }
    )
    pipe = WritePipeline(executor, embedder, llm.chat())
    await pipe.write(agent_id, "I work at Acme and enjoy hiking", SPEAKER)
    res = await pipe.write(agent_id, "I work at Acme Corp as a developer, I hike", SPEAKER)
    assert res.success
    assert not res.facts_updated and not res.facts_deleted
    assert len(res.facts_added) == 2  # dropped decisions fall back to ADD
    assert any("not a candidate" in w for w in res.warnings)
    assert any("without a reason" in w for w in res.warnings)
    assert llm.calls == 2  # no reconcile call: the shown candidates were judged already
    c = await counts(executor, agent_id)
    assert c["active_facts"] == 4


async def test_unseen_candidate_uses_rules_or_second_call(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    """A fact candidate in the ambiguous band that the informed call was not shown: the rules
    decide (one call per message) unless ``llm_calls_for_unseen`` asks for the reconcile call."""
    llm = ScriptedLLM(
        by_stage={
            INFORMED: [
                extraction([], [(SPEAKER, "Rafael works at Acme")]),
                extraction([], [(SPEAKER, "Rafael works at Acme Corp as a developer")]),
                extraction([], [(SPEAKER, "Rafael works at Acme Corp as an engineer")]),
            ],
            RECONCILE: [reconcile_with("UPDATE", "promoted")],
        }
    )
    pipe = WritePipeline(executor, embedder, llm.chat())
    first = await pipe.write(agent_id, "I work at Acme", SPEAKER)
    hide = {"informed_extraction_topk": 0}  # nothing shown to the informed call
    second = await pipe.write(
        agent_id, "I work at Acme Corp as a developer", SPEAKER, config_overrides=hide
    )
    assert llm.calls == 2 and second.llm_calls == 1
    assert [f.text for f in second.facts_added] == ["Rafael works at Acme Corp as a developer"]
    assert second.facts_added[0].reason == "distinct enough"  # the offline rules decided
    third = await pipe.write(
        agent_id,
        "I work at Acme Corp as an engineer",
        SPEAKER,
        config_overrides={**hide, "llm_calls_for_unseen": True},
    )
    assert llm.calls == 4 and third.llm_calls == 2
    [update] = third.facts_updated
    assert update.target_id in {first.facts_added[0].id, second.facts_added[0].id}


async def test_llm_timeout_keeps_event(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    import httpx

    llm = ScriptedLLM(replies=[httpx.ReadTimeout("t")])
    res = await WritePipeline(executor, embedder, llm.chat()).write(
        agent_id, "I live in Curitiba", SPEAKER
    )
    # An LLM outage is not a success: the result says so, the event is kept
    # and stays pending for the orphan sweep.
    assert not res.success and res.event_id
    assert res.error and "LLM unavailable" in res.error
    assert any("LLM" in w for w in res.warnings)
    assert llm.calls == 1
    c = await counts(executor, agent_id)
    assert c["events"] == 1 and c["facts"] == 0 and c["entities"] == 0
    rows = await executor.run_text(load_query("pending_events"), {"agent_id": agent_id}, read=True)
    assert [r["id"] for r in rows] == [res.event_id]


async def test_invalid_json_twice(executor: Executor, agent_id: str, embedder: Embedder) -> None:
    llm = ScriptedLLM(replies=["not json", "<think>hmm</think> still not json"])
    res = await WritePipeline(executor, embedder, llm.chat()).write(
        agent_id, "I live in Curitiba", SPEAKER
    )
    assert res.success is False and res.error and "extraction failed" in res.error
    assert res.event_id is not None and llm.calls == 2
    c = await counts(executor, agent_id)
    assert c["events"] == 1
    assert (c["facts"], c["entities"], c["aliases"], c["relations"]) == (0, 0, 0, 0)


async def test_output_hardening(executor: Executor, agent_id: str, embedder: Embedder) -> None:
    answer = extraction(
        [("Acme", "organization")],
        [(SPEAKER, "too short"), (SPEAKER, "Rafael works at Acme " + "x" * 3000)],
    )
    answer["facts"][1]["kind"] = "gossip"
    fenced = "<think>let me think</think>\n```json\n" + __import__("json").dumps(answer) + "\n```"
    llm = ScriptedLLM(by_stage={INFORMED: [fenced]})
    res = await WritePipeline(executor, embedder, llm.chat()).write(
        agent_id, "I work at Acme", SPEAKER
    )
    assert res.success
    assert len(res.facts_added) == 1 and len(res.facts_added[0].text) == 2000
    assert any("shorter than" in w for w in res.warnings)
    assert any("truncated" in w for w in res.warnings)
    assert any("coerced" in w for w in res.warnings)


async def test_ambiguous_entity_goes_to_llm(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    def pick(body: dict) -> dict:
        items = __import__("json").loads(body["messages"][1]["content"])["items"]
        return {
            "matches": [
                {"index": it["index"], "key": it["candidates"][0]["key"], "reason": "same person"}
                for it in items
            ]
        }

    llm = ScriptedLLM(
        by_stage={
            INFORMED: [
                extraction(
                    [("Guilherme Maturana", "person")],
                    [("Guilherme Maturana", "Guilherme Maturana is a designer")],
                ),
                extraction(
                    [("G. Maturana", "person")], [("G. Maturana", "G. Maturana likes jazz")]
                ),
                extraction([("Zé Carioca", "person")], [("Zé Carioca", "Zé Carioca likes samba")]),
            ],
            "Stage: resolve_entities": [
                pick,
                {"matches": [{"index": 0, "key": None, "reason": "different"}]},
            ],
        }
    )
    pipe = WritePipeline(executor, embedder, llm.chat())
    band = {"fuzzy_threshold": 0.999, "fuzzy_low_threshold": -1.0, "llm_calls_for_unseen": True}
    await pipe.write(agent_id, "Guilherme Maturana is a designer", SPEAKER)
    res = await pipe.write(agent_id, "G. Maturana likes jazz", SPEAKER, config_overrides=band)
    [g] = res.entities_resolved
    assert (g["method"], g["key"]) == ("llm", "person:guilherme_maturana")
    res = await pipe.write(agent_id, "Zé Carioca likes samba", SPEAKER, config_overrides=band)
    [z] = res.entities_resolved
    assert (z["method"], z["key"], z["is_new"]) == ("new", "person:ze_carioca", True)
    assert llm.calls == 5
    c = await counts(executor, agent_id)
    assert c["entities"] == 2


async def test_relation_without_fact_gets_mirror_fact(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    llm = ScriptedLLM(
        by_stage={
            INFORMED: [
                extraction(
                    [("Mom", "person"), ("Curitiba", "place")],
                    [(SPEAKER, "Rafael is going to visit his mom next week")],
                    [("Mom", "lives_in", "Curitiba")],
                )
            ]
        }
    )
    res = await WritePipeline(executor, embedder, llm.chat()).write(
        agent_id, "I'm going to Curitiba to visit my mom", SPEAKER
    )
    mirror = [f for f in res.facts_added if f.text == "Rafael's mom lives in Curitiba"]
    assert len(mirror) == 1 and mirror[0].confidence == 0.60
    assert res.relations[0]["evidence_fact_id"] == mirror[0].id
    assert res.relations[0]["source_key"] == "person:rafael_s_mom"
    fact = await get_fact(executor, agent_id, mirror[0].id)
    assert fact["source_context"] == "inferred_from_relation"


async def test_huge_recent_messages_are_bounded_before_any_prompt(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    """recentMessages are context: at most ``recent_messages_max`` of them, each cut to
    ``recent_message_chars``, reach the extraction prompt, however many and long they are."""
    llm = ScriptedLLM(
        by_stage={INFORMED: [extraction(CLARA_ENTITIES, CLARA_FACTS, CLARA_RELATIONS)]}
    )
    recent = [f"earlier message {i}: " + "blah " * 40_000 for i in range(200)]
    res = await WritePipeline(executor, embedder, llm.chat()).write(
        agent_id, CLARA_MESSAGE, SPEAKER, recent_messages=recent
    )
    assert res.success, res.error
    prompt = json.dumps(llm.requests[0]["messages"])
    assert "earlier message 199" in prompt and "earlier message 100" not in prompt
    assert len(prompt) < 5 * 2_000 + 20_000  # five cut messages, the message, the instructions
