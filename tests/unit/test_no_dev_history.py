"""The repository speaks of the product: no tracked file narrates how it was built.

Code, docs and tests say what the product does and why; who ran what when, tracker numbers,
working sessions, the people or roles of the team, their branches and section numbers of an
outside document belong to the version history, not to the files. Changes are described in
CHANGELOG.md, figures in docs/benchmarks.md, the design in docs/architecture.md.

The check reads every file ``git ls-files`` lists, except binary files and data (lock files,
JSON, pictures), and reports each offending line with the rule it breaks.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Each rule: a name and a pattern that only development narration matches. Ordinary words of
# the product and of its test data ("a data engineer", "tech lead", "test helper", a Neo4j
# session, a LoCoMo session_3) must not match.
RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("tracker number", re.compile(r"\bissues?[ -]?#?\d+", re.IGNORECASE)),
    ("tracker number", re.compile(r"(?<![\w&#/:'\"-])#\d{1,4}\b(?![-\w])")),
    (
        "working session",
        re.compile(r"\bsessions?[ -]\d+\b(?! (?:of|in) (?:the )?conversation)", re.IGNORECASE),
    ),
    (
        "working session",
        re.compile(r"\b(?:this|that|next|last|previous|each) session's\b", re.IGNORECASE),
    ),
    (
        "team role",
        re.compile(r"\b(?:the|a|our) lead(?:'s)?\b(?! to\b)(?! engineer(?:ing)?\b)", re.IGNORECASE),
    ),
    ("team role", re.compile(r"\blead (?:engineer|commit|changes)\b", re.IGNORECASE)),
    (
        "team role",
        re.compile(
            r"\bhelpers?(?:'s?)? (?:engineers?|branch(?:es)?|sessions?|"
            r"worktrees?)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "team role",
        re.compile(
            r"\b(?:other|another|every|each|pipeline|helper|fellow|several)"
            r" engineers?\b",
            re.IGNORECASE,
        ),
    ),
    (
        "team role",
        re.compile(
            r"\bengineers?'s? (?:tests?|runs?|branch(?:es)?|work|"
            r"benchmarks?)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "branch name",
        re.compile(
            r"\b[ih]\d{1,2}(?:[a-z]{1,3}-[a-z]+|-[a-z]+|[a-z]{2,8})\b"
            r"(?<!i18n)"
        ),
    ),
    (
        "branch name",
        re.compile(
            r"\b(?:merge|merged) (?:branch )?'?(?:main|[ih]\d{1,2}\w*)'? "
            r"into\b",
            re.IGNORECASE,
        ),
    ),
    ("outside document", re.compile(r"DESIGN\.md|§\s*\d")),
    (
        "outside document",
        re.compile(r"\b(?:stages?|steps?) \d+(?:\s*[-–]\s*\d+)? of the design", re.IGNORECASE),
    ),
    ("machine path", re.compile(r"/work/(?:main|wt|shared|helpers)\b")),
)

# Data, not prose: dependency lock files, JSON, pictures, generated SDL.
SKIP_SUFFIXES = (".json", ".png", ".jpg", ".svg", ".lock", ".graphql", ".jar")
SKIP_FILES = {"tests/unit/test_no_dev_history.py"}


def narration(line: str) -> str | None:
    """The rule ``line`` breaks (with the text that breaks it), or None for product prose."""
    for name, pattern in RULES:
        found = pattern.search(line)
        if found:
            return f"{name}: {found.group(0)!r}"
    return None


def offending_lines(root: Path, paths: list[str]) -> list[str]:
    """``path:line: rule`` for every line of ``paths`` (relative to ``root``) that narrates."""
    out: list[str] = []
    for rel in paths:
        if rel in SKIP_FILES or rel.endswith(SKIP_SUFFIXES):
            continue
        try:
            text = (root / rel).read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            rule = narration(line)
            if rule is not None:
                out.append(f"{rel}:{number}: {rule}")
    return out


def tracked_files() -> list[str]:
    try:
        done = subprocess.run(
            ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True, timeout=60
        )
    except (OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"not a git checkout ({exc})")
    return done.stdout.splitlines()


def test_no_tracked_file_narrates_development() -> None:
    files = tracked_files()
    assert len(files) > 100  # the check read the repository, not an empty listing
    assert offending_lines(ROOT, files) == []


@pytest.mark.parametrize(
    "line",
    [
        "Retry loop (issue 48 item 2): back off on 503",
        '"""Issue 31.4: ``Basket.total`` is cached."""',
        "Fixed in #27 after the review.",
        "notes/PLAN.md: session 9 notes by ticket",
        "CHANGES: session-2 latency table",
        "The lead's benchmark ran overnight.",
        "Three helper engineers in separate worktrees.",
        "The box also runs two other engineers' builds.",
        "Merge branch 'h7-cache' into main",
        "port i4-retry's fix and h9docs' table",
        "Steps 3-5 of DESIGN.md",
        "# the cache warm-up (DESIGN.md §2 step 4)",
        "see stage 2 of the design",
        "datasets under /work/shared/corpora",
    ],
)
def test_narration_is_caught(line: str) -> None:
    assert narration(line) is not None


@pytest.mark.parametrize(
    "line",
    [
        "I work at Vertix as a backend engineer.",
        "Ana was promoted to tech lead",
        "Data engineering lead at Orion Tech",
        '"""Shared helpers for the write-pipeline integration tests."""',
        "// Test helper: create bare facts with embeddings for one agent.",
        '"lay": ("laid", "laid"), "lead": ("led", "led"),',
        "what did it lead to?",
        "text-color-external: #000000;",
        'first_id = observation_id(agent_id, "pattern#0", ids)',
        "evidence like D1:3 in session 2 of the conversation",
        "Executor sessions share execute_query's bookmark manager",
        "[Retrieval quality](#retrieval-quality-locomo)",
        "i18n of the prompts",
    ],
)
def test_product_prose_passes(line: str) -> None:
    assert narration(line) is None


def test_offending_lines_names_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text('"""Retrieval."""\n# fixed for issue 7\n', encoding="utf-8")
    (tmp_path / "b.json").write_text('{"note": "issue 7"}', encoding="utf-8")
    assert offending_lines(tmp_path, ["a.py", "b.json"]) == ["a.py:2: tracker number: 'issue 7'"]
