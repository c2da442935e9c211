"""Options of a frozen configuration and their per-call overrides, for both pipelines.

An option is a dataclass field; its allowed values are declared beside its default
(:func:`option`: a range, or a set of choices), so one generic check (:func:`check_ranges`)
covers defaults, the operator's settings and every override. :func:`overridden` turns a
caller's overrides into validated changes the same way for ``retrieve`` (``RetrieveConfig``)
and ``write`` (``WriteConfig``): unknown names, options only the operator sets, wrong types,
values above the server's for the options that may only be lowered, and values out of range
all raise :class:`~graph.errors.ConfigError` (a ``BadInput``: GraphQL's ``BAD_INPUT``, the CLI's
usage error), with a message that names the option and what it takes. Pure: no I/O.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from graph.errors import ConfigError

__all__ = ["Range", "check_ranges", "coerce", "option", "overridden", "range_of"]


@dataclass(frozen=True)
class Range:
    """Allowed values of a number (or of every value of a mapping of numbers): ``lo``..``hi``,
    either end open (excluded) or None (unbounded)."""

    lo: float | None = None
    hi: float | None = None
    lo_open: bool = False
    hi_open: bool = False

    def holds(self, value: Any) -> bool:
        if isinstance(value, Mapping):
            return all(self.holds(v) for v in value.values())
        lo_ok = self.lo is None or (value > self.lo if self.lo_open else value >= self.lo)
        hi_ok = self.hi is None or (value < self.hi if self.hi_open else value <= self.hi)
        return bool(lo_ok and hi_ok)

    def text(self, integer: bool) -> str:
        """How an error message states the range: ``1..500``, ``in [0, 1)``, ``> 0``."""
        lo, hi = _num(self.lo), _num(self.hi)
        if self.hi is None:
            return f"> {lo}" if self.lo_open else f">= {lo}"
        if self.lo is None:
            return f"< {hi}" if self.hi_open else f"<= {hi}"
        if integer and not (self.lo_open or self.hi_open):
            return f"{lo}..{hi}"
        return f"in {'(' if self.lo_open else '['}{lo}, {hi}{')' if self.hi_open else ']'}"


def _num(value: float | None) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def option(
    default: Any = dataclasses.MISSING,
    lo: float | None = None,
    hi: float | None = None,
    *,
    lo_open: bool = False,
    hi_open: bool = False,
    choices: Iterable[str] | None = None,
    keys: Iterable[str] | None = None,
    factory: Callable[[], Any] | None = None,
    note: str = "",
) -> Any:
    """A dataclass field whose allowed values sit beside its default: a range (``lo``/``hi``,
    open ends with ``lo_open``/``hi_open``), ``choices`` (a string's values) or ``keys`` (the
    names a mapping may hold); ``note`` is added to the range's error message."""
    metadata: dict[str, Any] = {}
    if lo is not None or hi is not None:
        metadata["range"] = Range(lo, hi, lo_open, hi_open)
    if choices is not None:
        metadata["choices"] = tuple(choices)
    if keys is not None:
        metadata["keys"] = tuple(keys)
    if note:
        metadata["note"] = note
    if factory is not None:
        return dataclasses.field(default_factory=factory, metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


def range_of(field: dataclasses.Field[Any]) -> Range | None:
    """The range declared beside a field, if any."""
    found = field.metadata.get("range")
    return found if isinstance(found, Range) else None


def check_ranges(config: Any) -> None:
    """Every option of a dataclass (and of the dataclasses it holds) within its declared range
    and choices.

    Raises:
        ConfigError: the first option outside them.
    """
    for field in dataclasses.fields(config):
        value = getattr(config, field.name)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            check_ranges(value)
        else:
            _check_value(field, value)


def _check_value(field: dataclasses.Field[Any], value: Any) -> None:
    choices = field.metadata.get("choices")
    if choices is not None and value not in choices:
        raise ConfigError(f"{field.name} must be one of {choices}, got {value!r}")
    keys = field.metadata.get("keys")
    if keys is not None and isinstance(value, Mapping):
        unknown = sorted(k for k in value if k not in keys)
        if unknown:
            raise ConfigError(
                f"{field.name} has no entry {unknown[0]!r} (known: {', '.join(keys)})"
            )
    bounds = range_of(field)
    if bounds is not None and not bounds.holds(value):
        integer = isinstance(value, int) and not isinstance(value, bool)
        note = field.metadata.get("note", "")
        raise ConfigError(
            f"{field.name} must be {bounds.text(integer)}{f' ({note})' if note else ''}"
        )


def coerce(kind: str, field: dataclasses.Field[Any], current: Any, value: Any) -> Any:
    """An override's value in the type of the option's current value (an int is a number, a
    list of strings a tuple, a mapping merges into the current one).

    Raises:
        ConfigError: a value of another type.
    """
    name = f"{kind} option {field.name!r}"
    if isinstance(current, bool):
        if not isinstance(value, bool):
            raise ConfigError(f"{name} must be a boolean")
        return value
    if isinstance(current, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{name} must be an integer")
        return value
    if isinstance(current, float):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(f"{name} must be a number")
        return float(value)
    if isinstance(current, str):
        if not isinstance(value, str):
            raise ConfigError(f"{name} must be a string")
        return value
    if isinstance(current, tuple):
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{name} must be a list of strings")
        return tuple(value)
    if isinstance(current, Mapping):
        return _merged(name, field, current, value)
    raise ConfigError(f"{name} cannot be overridden")


def _merged(
    name: str, field: dataclasses.Field[Any], current: Mapping[str, Any], value: Any
) -> Any:
    if not isinstance(value, Mapping):
        raise ConfigError(f"{name} must be an object")
    keys = field.metadata.get("keys")
    merged = dict(current)
    for key, inner in value.items():
        if keys is not None and key not in keys:
            raise ConfigError(f"{field.name} has no entry {key!r} (known: {', '.join(keys)})")
        if isinstance(inner, bool) or not isinstance(inner, int | float):
            raise ConfigError(f"{name}: {key!r} must be a number")
        merged[key] = float(inner)
    return merged


def overridden(
    kind: str,
    overrides: Mapping[str, Any],
    fields: Mapping[str, tuple[dataclasses.Field[Any], Any]],
    *,
    ceilings: Iterable[str] = (),
    operator_only: Iterable[str] = (),
) -> dict[str, Any]:
    """The validated changes ``overrides`` make to a configuration whose options are
    ``fields`` (name → its field and its current, i.e. the server's, value).

    Raises:
        ConfigError: an unknown option, one only the operator sets, a wrongly typed value, a
            value above the server's for an option in ``ceilings``, or one out of range.
    """
    fixed, capped = set(operator_only), set(ceilings)
    changes: dict[str, Any] = {}
    for key, value in overrides.items():
        if key not in fields:
            raise ConfigError(f"unknown {kind} option {key!r}")
        if key in fixed:
            raise ConfigError(
                f"{kind} option {key!r} is set by the operator and cannot be overridden per call"
            )
        field, current = fields[key]
        new = coerce(kind, field, current, value)
        if key in capped and new > current:
            raise ConfigError(
                f"{kind} option {key!r} may not exceed the server's value {current!r}, got {new!r}"
            )
        _check_value(field, new)
        changes[key] = new
    return changes
