"""Static shape check of regular expressions: the shapes that make Python's backtracking engine
super-linear are rejected (used by tests/unit/test_regex_linear.py).

Rules (each names a shape; a pattern passing all three runs in time linear in the input for
search/finditer, up to the constant of its bounded repeats):

- ``nested``: an unbounded repeat inside another repeat, or any repeat inside an unbounded one
  (``(?:k\\s*)+``, ``(?:\\s+\\w+)*``) — exponential or polynomial backtracking.
- ``adjacent``: an unbounded repeat followed (optional and zero-width items in between) by
  another unbounded repeat whose characters overlap (``.+?\\s*#*\\s*$``) — polynomial.
- ``rescan``: an unanchored pattern whose first consuming item is an unbounded repeat that can
  be followed by a failure, with no guard making the match start only at the beginning of a
  run (a negative lookbehind, or ``\\b`` when the repeat matches word characters only) —
  every position of a long run rescans the rest of it: quadratic.
- ``scan``: an unanchored pattern with an unbounded repeat over (nearly) every character
  (``.*?``, ``[\\s\\S]*``, ``[^x]+``) followed by something that can fail (``<a>.*?</a>``,
  ``trigger.*?word``): every occurrence of what precedes it rescans the rest of the text.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:  # Python 3.11+
    from re import _constants as C  # type: ignore[attr-defined]
    from re import _parser as P  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    import sre_constants as C  # type: ignore[no-redef]
    import sre_parse as P  # type: ignore[no-redef]

__all__ = ["Finding", "collect_patterns", "problems"]

ROOT = Path(__file__).resolve().parent.parent
UNBOUNDED = C.MAXREPEAT
REPEATS = {
    C.MAX_REPEAT,
    C.MIN_REPEAT,
    *([C.POSSESSIVE_REPEAT] if hasattr(C, "POSSESSIVE_REPEAT") else []),
}
ZERO_WIDTH = {C.AT, C.ASSERT, C.ASSERT_NOT}
ALPHABET = [chr(i) for i in range(0, 0x300)] + ["\u2019", "\u00a0", "\u3000"]
_CATEGORY = {
    C.CATEGORY_DIGIT: lambda c: (c.isdigit() and c.isascii()) or bool(re.match(r"\d", c)),
    C.CATEGORY_NOT_DIGIT: lambda c: not re.match(r"\d", c),
    C.CATEGORY_SPACE: lambda c: bool(re.match(r"\s", c)),
    C.CATEGORY_NOT_SPACE: lambda c: not re.match(r"\s", c),
    C.CATEGORY_WORD: lambda c: bool(re.match(r"\w", c)),
    C.CATEGORY_NOT_WORD: lambda c: not re.match(r"\w", c),
}


@dataclass(frozen=True)
class Finding:
    where: str
    pattern: str
    rule: str


def _char_test(op: Any, av: Any, flags: int) -> Callable[[str], bool] | None:
    """A membership test for a single-character item, or None (not a single character)."""
    fold = (lambda c: c.lower()) if flags & re.IGNORECASE else (lambda c: c)
    if op == C.LITERAL:
        return lambda c: fold(c) == fold(chr(av))
    if op == C.NOT_LITERAL:
        return lambda c: fold(c) != fold(chr(av))
    if op == C.ANY:
        return (lambda c: True) if flags & re.DOTALL else (lambda c: c != "\n")
    if op == C.IN:
        negate = bool(av) and av[0][0] == C.NEGATE
        tests: list[Callable[[str], bool]] = []
        for iop, iav in av[1:] if negate else av:
            if iop == C.LITERAL:
                tests.append(lambda c, v=iav: fold(c) == fold(chr(v)))
            elif iop == C.RANGE:
                tests.append(
                    lambda c, lo=iav[0], hi=iav[1]: (
                        lo <= ord(c) <= hi or lo <= ord(fold(c)[:1] or "\0") <= hi
                    )
                )
            elif iop == C.CATEGORY:
                tests.append(_CATEGORY.get(iav, lambda c: True))
            else:
                tests.append(lambda c: True)
        if negate:
            return lambda c: not any(t(c) for t in tests)
        return lambda c: any(t(c) for t in tests)
    return None


def _first_set(items: list[Any], flags: int) -> set[str]:
    """Characters that can start ``items`` (over ALPHABET; everything when unknown)."""
    for op, av in items:
        if op in ZERO_WIDTH:
            continue
        test = _char_test(op, av, flags)
        if test is not None:
            return {c for c in ALPHABET if test(c)}
        if op == C.SUBPATTERN:
            return _first_set(list(av[-1]), flags)
        if op in REPEATS:
            first = _first_set(list(av[2]), flags)
            return first if av[0] > 0 else set(ALPHABET)
        if op == C.BRANCH:
            out: set[str] = set()
            for branch in av[1]:
                out |= _first_set(list(branch), flags)
            return out
        return set(ALPHABET)
    return set()


def _has_repeat(items: Any, unbounded_only: bool) -> bool:
    for op, av in items:
        if op in REPEATS:
            if av[1] == UNBOUNDED or (not unbounded_only and av[1] > 1):
                return True
            if _has_repeat(av[2], unbounded_only):
                return True
        elif (
            (op == C.SUBPATTERN and _has_repeat(av[-1], unbounded_only))
            or (op == C.BRANCH and any(_has_repeat(b, unbounded_only) for b in av[1]))
            or (op == getattr(C, "ATOMIC_GROUP", None) and _has_repeat(av, unbounded_only))
        ):
            return True
    return False


def _flatten(items: Any) -> list[Any]:
    """The sequence with (unrepeated) groups expanded in place, so that what follows a group
    is seen as following its last item."""
    out: list[Any] = []
    for op, av in items:
        if op == C.SUBPATTERN:
            out.extend(_flatten(av[-1]))
        else:
            out.append((op, av))
    return out


def _walk(items: Any, flags: int, out: set[str]) -> None:
    items = _flatten(items)
    for i, (op, av) in enumerate(items):
        if op in REPEATS:
            _lo, hi, body = av
            if hi > 1 and (
                _has_repeat(body, unbounded_only=True)
                or (hi == UNBOUNDED and _has_repeat(body, unbounded_only=False))
            ):
                out.add("nested")
            if hi == UNBOUNDED:
                first = _first_set(list(body), flags)
                for nop, nav in items[i + 1 :]:
                    if nop in ZERO_WIDTH:
                        continue
                    if nop not in REPEATS:
                        break
                    if nav[1] == UNBOUNDED and first & _first_set(list(nav[2]), flags):
                        out.add("adjacent")
                        break
                    if nav[0] > 0:
                        break
                    # an optional item (min 0): what follows it is adjacent too
            _walk(body, flags, out)
        elif op == C.BRANCH:
            for branch in av[1]:
                _walk(branch, flags, out)
        elif op in (C.ASSERT, C.ASSERT_NOT):
            _walk(av[1], flags, out)


def _consuming(items: list[Any]) -> list[Any]:
    """Top-level items with leading groups flattened."""
    out: list[Any] = []
    for op, av in items:
        if op == C.SUBPATTERN and not out:
            out.extend(_consuming(list(av[-1])))
        else:
            out.append((op, av))
    return out


def _rescan(items: list[Any], flags: int, anchored: bool) -> bool:
    if len(items) == 1 and items[0][0] == C.BRANCH:
        return any(_rescan(list(b), flags, anchored) for b in items[0][1][1])
    guard: str | None = None
    seq = _consuming(items)
    for i, (op, av) in enumerate(seq):
        if op == C.AT:
            if av in (C.AT_BEGINNING, C.AT_BEGINNING_STRING):
                return False
            if av == C.AT_BOUNDARY:
                guard = "boundary"
            continue
        if op == C.ASSERT_NOT and av[0] == -1:
            guard = "lookbehind"
            continue
        if op in (C.ASSERT, C.ASSERT_NOT):
            continue
        if anchored or op not in REPEATS or av[1] != UNBOUNDED:
            return False
        rest = [x for x in seq[i + 1 :] if x[0] not in ZERO_WIDTH or x[1] != C.AT_END]
        if not rest:
            return False  # the repeat is the whole match: it fails only on a run under its min
        if guard == "lookbehind":
            return False
        word = {c for c in ALPHABET if re.match(r"\w", c)}
        return not (guard == "boundary" and _first_set(list(av[2]), flags) <= word)
    return False


def _can_fail(rest: list[Any]) -> bool:
    for op, av in rest:
        if op == C.AT and av in (C.AT_END, C.AT_END_STRING):
            return False
        if op == C.BRANCH:
            return not any(b and not _can_fail(_flatten(b)) for b in av[1])
        if op in ZERO_WIDTH:
            continue
        return True
    return False


def _scan(items: list[Any], flags: int, anchored: bool) -> bool:
    if anchored:
        return False
    if len(items) == 1 and items[0][0] == C.BRANCH:
        return any(_scan(list(b), flags, anchored) for b in items[0][1][1])
    flat = _flatten(items)
    if (flat and flat[0] == (C.AT, C.AT_BEGINNING)) or flat[:1] == [(C.AT, C.AT_BEGINNING_STRING)]:
        return False
    for i, (op, av) in enumerate(flat):
        if op in REPEATS and av[1] == UNBOUNDED:
            wide = len(_first_set(list(av[2]), flags)) >= 0.9 * len(ALPHABET)
            if wide and _can_fail(flat[i + 1 :]):
                return True
    return False


def problems(pattern: str | re.Pattern[str], anchored: bool = False) -> set[str]:
    """The rules ``pattern`` breaks (empty set: linear shape)."""
    if isinstance(pattern, re.Pattern):
        source, flags = pattern.pattern, pattern.flags
    else:
        source, flags = pattern, 0
    parsed = P.parse(source, flags)
    flags |= parsed.state.flags
    out: set[str] = set()
    _walk(parsed, flags, out)
    if _rescan(list(parsed), flags, anchored):
        out.add("rescan")
    if _scan(list(parsed), flags, anchored):
        out.add("scan")
    return out


def _patterns_in(value: Any, depth: int = 0) -> Iterator[re.Pattern[str]]:
    if isinstance(value, re.Pattern):
        yield value
    elif depth < 3 and isinstance(value, tuple | list):
        for v in value:
            yield from _patterns_in(v, depth + 1)
    elif depth < 3 and isinstance(value, dict):
        for v in value.values():
            yield from _patterns_in(v, depth + 1)


_RE_FUNCS = {
    "compile": False,
    "search": False,
    "findall": False,
    "finditer": False,
    "sub": False,
    "subn": False,
    "split": False,
    "match": True,
    "fullmatch": True,
}


def collect_patterns(
    packages: tuple[str, ...] = ("graph", "gql", "server"),
) -> list[tuple[str, str | re.Pattern[str], bool]]:
    """(where, pattern, anchored) for every compiled module-level pattern and every inline
    ``re.<func>("literal", …)`` call in the packages."""
    found: list[tuple[str, str | re.Pattern[str], bool]] = []
    for package in packages:
        pkg = importlib.import_module(package)
        names = [package] + [m.name for m in pkgutil.walk_packages(pkg.__path__, package + ".")]
        for name in names:
            module = importlib.import_module(name)
            for attr, value in vars(module).items():
                if attr.startswith("__"):
                    continue
                for pat in _patterns_in(value):
                    if isinstance(pat.pattern, str):
                        found.append((f"{name}.{attr}", pat, False))
            path = getattr(module, "__file__", None)
            if not path:
                continue
            tree = ast.parse(Path(path).read_text())
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == "re"
                    and node.func.attr in _RE_FUNCS
                    and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)
                ):
                    found.append(
                        (f"{name}:{node.lineno}", node.args[0].value, _RE_FUNCS[node.func.attr])
                    )
    return found
