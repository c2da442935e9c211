"""Versioned prompt files, one per LLM stage (``<stage>.v<N>.md``), read via importlib.resources.

``load("extract_informed")`` returns the newest version; ``load("extract_informed", 1)`` a given
one. Prompts are package data, so a prompt change is a reviewed code change.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

__all__ = ["FACT_CHARS", "PromptNotFound", "clip", "load", "version_of"]

# The most of one stored fact a prompt carries (rerank pool, consolidation cluster, profile): an
# imported fact may hold 12,000 characters and these prompts put dozens of facts in one request;
# the model needs each fact's gist, not all of it.
FACT_CHARS = 1_000


def clip(text: str, limit: int = FACT_CHARS) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis marks a cut)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


_FILE = re.compile(r"^(?P<stage>[a-z0-9_]+)\.v(?P<version>\d+)\.md$")


class PromptNotFound(LookupError):
    """No prompt file for that stage/version."""


def _versions(stage: str) -> dict[int, str]:
    out: dict[int, str] = {}
    for entry in resources.files(__package__).iterdir():
        m = _FILE.match(entry.name)
        if m and m.group("stage") == stage:
            out[int(m.group("version"))] = entry.name
    return out


@cache
def version_of(stage: str) -> int:
    """Newest version number available for ``stage``."""
    versions = _versions(stage)
    if not versions:
        raise PromptNotFound(stage)
    return max(versions)


@cache
def load(stage: str, version: int | None = None) -> str:
    """Text of the prompt for ``stage`` (newest version unless ``version`` is given)."""
    versions = _versions(stage)
    chosen = version if version is not None else (max(versions) if versions else None)
    if chosen is None or chosen not in versions:
        raise PromptNotFound(f"{stage} v{version}")
    return (resources.files(__package__) / versions[chosen]).read_text(encoding="utf-8").strip()
