"""No regex or input can freeze the loop.

Unit tests check shapes and correctness only (no timing): every pattern of graph/, gql/ and
server/ passes the static shape check (tests/regex_shapes.py), the checker rejects the shapes
that were found super-linear, and the rewritten matchers give the same answers as the old
patterns on random inputs. The CPU budget per call lives in ``python -m tests.bench.fuzz_text``.
"""

from __future__ import annotations

import random
import re

import pytest

from graph.memory.read import planner
from graph.memory.write.guard import scan_pii
from graph.providers.openai_chat import parse_json_text
from tests.regex_shapes import collect_patterns, problems

# Patterns that were replaced by linear ones, with the rule each breaks.
OLD_PATTERNS = {
    "casual query": (rf"^(?:(?:{planner._CASUAL_WORDS})\s*)+$", "nested"),
    "email": (r"\b[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}\b", "rescan"),
    "markdown title": (r"(?m)^#\s+(.+?)\s*#*\s*$", "adjacent"),
    "entity hint": (r"^(?P<name>[^()]+?)\s*\((?P<hint>[^)]*)\)\s*$", "adjacent"),
    "portuguese name": (
        r"((?:[A-ZÀ-Ý][\wÀ-ÿ\-]+)(?:\s+(?:d[aoe]s?\s+)?[A-ZÀ-Ý][\wÀ-ÿ\-]+)*)"
        r"\s+(?:mora|vive)",
        "nested",
    ),
    "code fence": (r"^\s*```(?:json)?\s*|\s*```\s*$", "rescan"),
    "think block": (r"<think>.*?</think>", "scan"),
    "aggregation": (r"\b(?:list|show)\b.*?\b(?:my|all)\s+(\w+)", "scan"),
}


def test_every_pattern_in_the_service_has_a_linear_shape() -> None:
    found = collect_patterns()
    assert len(found) >= 30  # the collector really sees the modules' patterns
    bad = {
        where: sorted(problems(p, anchored))
        for where, p, anchored in found
        if problems(p, anchored)
    }
    assert bad == {}


@pytest.mark.parametrize("name", sorted(OLD_PATTERNS))
def test_the_checker_rejects_the_old_super_linear_shapes(name: str) -> None:
    pattern, rule = OLD_PATTERNS[name]
    assert rule in problems(pattern)


def test_checker_accepts_plain_linear_shapes() -> None:
    for ok in (
        r"\w+",
        r"\s+",
        r"[^\w\s]",
        r"\b\d{3}-\d{2}-\d{4}\b",
        r"^[a-z][a-z0-9_]{0,63}$",
        r"(?<![\w.])[\w.]+@\w+",
        r"\b(?:\d[ \-]?){12,18}\d\b",
    ):
        assert problems(ok) == set(), ok


def test_casual_matcher_agrees_with_the_old_regex_on_random_strings() -> None:
    old = re.compile(OLD_PATTERNS["casual query"][0])
    rng = random.Random(12)
    pieces = ["k", "kk", "hi", "ok", "oi", "thanks", "thank you", " ", "x", "ha", "lol", "o"]
    for _ in range(3_000):
        folded = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 6))).strip()
        folded = " ".join(folded.split())
        assert planner._casual_run(folded) == bool(old.match(folded)) or not folded, folded


def test_hostile_casual_queries_are_answered() -> None:
    assert planner.casual_plan("k" * 22 + " x") is None  # 0.75 s and doubling before the fix
    assert planner.casual_plan("k" * 4_000) is None  # over the small-talk length
    assert planner.casual_plan("kkkk kkk") is not None
    assert planner.casual_plan("Oi, tudo bem?") is not None


def test_aggregation_agrees_with_the_old_regex_on_random_strings() -> None:
    old = re.compile(
        r"\b(?:who are|what are|which are|list|show|name|tell me|enumerate|quais sao|quem sao|"
        r"quais|liste|listar|lista|mostre|mostra|me diga|cite)\b.*?\b(?:my|all my|all|meus|"
        r"minhas|todos os meus|todas as minhas|todos os|todas as|os|as)\s+(\w+)"
    )
    rng = random.Random(7)
    words = [
        "list",
        "show",
        "my",
        "all",
        "friends",
        "os",
        "amigos",
        "tell",
        "me",
        "who",
        "are",
        "projects",
        "quais",
        "sao",
        "x",
        "as",
    ]
    for _ in range(3_000):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 8)))
        m = old.search(text)
        expected = m.group(1) if m else None
        trigger = planner._AGG_TRIGGER.search(text)
        got = planner._AGG_NOUN.search(text, trigger.end()) if trigger else None
        assert (got.group(1) if got else None) == expected, text


def test_pii_patterns_still_find_what_they_should_on_hostile_text() -> None:
    noise = "a." * 3_000 + " eyJ-" * 500 + " " + "1 " * 2_000
    text = (
        noise + " mail me at ana.silva@example.com, token eyJhbGciOiJIUzI1.eyJzdWIiOiIx"
        "MjM0.SflKxwRJSMeKKF2QT4fw"
    )
    out = scan_pii(text, "redact")
    assert {f.kind for f in out.findings} == {"email", "jwt"}
    assert "ana.silva@example.com" not in out.text and "[REDACTED:jwt]" in out.text
    assert scan_pii("a.b.c" * 2_000 + "@", "redact").findings == []


def test_llm_output_cleaning_keeps_its_meaning() -> None:
    assert parse_json_text('<think>plan</think>```json\n{"a": 1}\n```') == {"a": 1}
    assert parse_json_text("<think>" * 5_000 + '{"b": 2}') == {"b": 2}
    assert parse_json_text('<THINK>x</Think> {"c": 3}') == {"c": 3}
