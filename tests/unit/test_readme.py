"""The README stays a first page: at most 350 lines (the rest lives under docs/), and every
relative link and image in it, and in the pages it sends readers to, names a file that exists
(and, for ``#anchors`` into Markdown, a heading there)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_LINES = 350
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def _anchors(markdown: str) -> set[str]:
    """GitHub's heading anchors (lower case, punctuation dropped, spaces to hyphens) and the
    page's own ``<a id="...">`` anchors."""
    out = set(re.findall(r'<a id="([^"]+)"', markdown))
    for line in markdown.splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            out.add(re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", title)))
    return out


def _broken(page: Path) -> list[str]:
    bad = []
    text = page.read_text(encoding="utf-8")
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue  # http(s), mailto: not checked here
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        missing = not file.exists()
        if missing or (
            anchor and file.suffix == ".md" and anchor not in _anchors(file.read_text())
        ):
            bad.append(target)
    return bad


def test_the_readme_is_at_most_350_lines() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"README.md has {lines} lines; move detail into docs/"


def test_the_readmes_links_and_images_resolve() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    broken = {str(p.relative_to(ROOT)): b for p in pages if (b := _broken(p))}
    assert broken == {}
