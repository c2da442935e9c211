"""Pure helpers: text normalisation, guard, PII, config overrides, prompts."""

from __future__ import annotations

import pytest

from graph.memory import prompts
from graph.memory.text import (
    clean_text,
    content_hash,
    entity_key,
    fold,
    normalize,
    normalize_relation_type,
    slugify,
    word_ngrams,
)
from graph.memory.write import ConfigError, PIIRejected, WriteConfig, apply_overrides
from graph.memory.write.guard import guard_message, scan_pii


def test_normalize_fold_slug_key() -> None:
    assert normalize("  Clara   REZENDE, left!  ") == "clara rezende left"
    assert fold("São Paulo") == "sao paulo"
    assert slugify("São Paulo!") == "sao_paulo"
    assert entity_key("Clara Rezende", "Person") == "person:clara_rezende"
    assert entity_key("東京", "place").startswith("place:x")
    assert entity_key("Acme", None) == "thing:acme"


def test_relation_type_normalisation() -> None:
    assert normalize_relation_type("works at") == "works_at"
    assert normalize_relation_type("`x`") == "x"
    assert normalize_relation_type("Married-To") == "married_to"
    assert normalize_relation_type("123") is None
    assert normalize_relation_type("`") is None
    assert normalize_relation_type("a" * 100) == "a" * 64


def test_content_hash_is_stable_and_scoped() -> None:
    h = content_hash("a1", "person:x", "likes tea")
    assert len(h) == 32 and h == content_hash("a1", "person:x", "likes tea")
    assert h != content_hash("a2", "person:x", "likes tea")


def test_clean_text_handles_broken_utf8_and_controls() -> None:
    assert clean_text("caf\udce9") == "caf\ufffd"
    assert clean_text("a\x00b\x07c\nd") == "abc\nd"


def test_word_ngrams() -> None:
    assert word_ngrams("Clara Rezende left", 2) == [
        "clara",
        "rezende",
        "left",
        "clara rezende",
        "rezende left",
    ]


def test_guard() -> None:
    assert guard_message("   ", 100).empty
    assert guard_message(None, 100).empty
    g = guard_message("x" * 50, 10)
    assert g.text == "x" * 10 and "truncated" in g.warnings[0]


def test_pii_redacts_clear_spans() -> None:
    out = scan_pii("card 4111 1111 1111 1111 mail a.b@c.io ssn 123-45-6789", "redact")
    assert "4111" not in out.text and "a.b@c.io" not in out.text and "6789" not in out.text
    assert {f.kind for f in out.findings} == {"credit_card", "email", "ssn"}
    # Not a Luhn-valid number: left alone.
    assert scan_pii("order 1234 5678 9012 3456", "redact").text == "order 1234 5678 9012 3456"
    assert scan_pii("key sk-abcdefghijklmnopqrstu1", "redact").text == "key [REDACTED:api_key]"
    assert scan_pii("my password is hunter2", "redact").text == "my password is [REDACTED:password]"
    assert scan_pii("card 4111 1111 1111 1111", "off").findings == []


def test_pii_rejects() -> None:
    with pytest.raises(PIIRejected):
        scan_pii("key sk-abcdefghijklmnopqrstu1", "reject")
    with pytest.raises(PIIRejected):  # announced secret without a clear span
        scan_pii("I will send you my password tomorrow", "redact")
    assert scan_pii("I live in Curitiba", "reject").findings == []


def test_config_overrides_type_checked() -> None:
    base = WriteConfig()
    assert base.min_fact_confidence_for_write == 0.55 and base.mode == "full"
    cfg = apply_overrides(
        base, {"fuzzy_threshold": 1, "mode": "shadow", "single_valued_relations": ["lives_in"]}
    )
    assert cfg.fuzzy_threshold == 1.0 and cfg.mode == "shadow"
    assert cfg.single_valued_relations == ("lives_in",)
    assert apply_overrides(base, None) is base
    for bad in (
        {"nope": 1},
        {"fuzzy_threshold": "x"},
        {"enable_llm_resolution": 1},
        {"max_facts": 2.5},
        {"mode": "yolo"},
        {"max_facts": True},
    ):
        with pytest.raises(ConfigError):
            apply_overrides(base, bad)


def test_prompts_are_versioned_files() -> None:
    for stage in (
        "extract_informed",
        "extract_entities",
        "extract_facts",
        "extract_relations",
        "resolve_entities",
        "reconcile",
    ):
        text = prompts.load(stage)
        assert f"Stage: {stage}" in text and prompts.version_of(stage) >= 1
    informed = prompts.load("extract_informed", 1)
    assert "ALL factual information" in informed and "subject-centric" in informed
    assert "language of the message" in informed and "English" in informed
    # v2: extraction and reconciliation in one answer, against the shown known facts' ids.
    assert "known_facts" in prompts.load("extract_informed", 2)
    assert "gloss_en" not in prompts.load("extract_informed", 2)
    # v3: v2 and an English gloss of every fact not in English.
    assert prompts.version_of("extract_informed") == 3
    newest = prompts.load("extract_informed")
    assert "known_facts" in newest and "target_id" in newest and "gloss_en" in newest
    with pytest.raises(prompts.PromptNotFound):
        prompts.load("extract_informed", 99)


def test_detect_language_and_dates() -> None:
    from datetime import UTC, datetime

    from graph.memory.text import detect_language
    from graph.memory.write.extract.extraction import harden, parse_datetime

    assert detect_language("Rafael lives in the city") == "en"
    assert detect_language("Eu moro em Curitiba") == "pt"
    assert detect_language("Clara Rezende") is None
    assert parse_datetime("2025-03-01") == datetime(2025, 3, 1, tzinfo=UTC)
    assert parse_datetime("2025-03-01T10:00:00Z") == datetime(2025, 3, 1, 10, tzinfo=UTC)
    assert parse_datetime("next week") is None
    warnings: list[str] = []
    ex = harden(
        {
            "facts": [
                {
                    "subject": "R",
                    "text": "Rafael is on call this week",
                    "temporal_class": "temporal",
                    "valid_until": "soon",
                }
            ]
        },
        warnings=warnings,
    )
    assert ex is not None and ex.facts[0].valid_until is None
    assert ex.facts[0].temporal_class == "temporal" and "valid_until" in warnings[0]
