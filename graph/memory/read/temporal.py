"""Time expressions in a query (pure): "on 13 October 2023", "in May 2023", "in June",
"in 2022", "last year", "yesterday" → a time window that facts (``valid_from``) and events
(``occurred_at``) are matched against, so "what did Melanie paint in July 2023?" lifts what was
said or true in that month.

Absolute dates stand alone; relative ones ("last year", "last month", "yesterday",
"last week") are taken relative to ``now`` (``as_of`` or the current time). A month without a
year matches that month of any year. The window is a boost in the ranking, never a filter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from graph.memory.text import fold

__all__ = ["TimeWindow", "query_window"]

_MONTHS = {
    "january": 1,
    "february": 2,
    "march": 3,
    "april": 4,
    "may": 5,
    "june": 6,
    "july": 7,
    "august": 8,
    "september": 9,
    "october": 10,
    "november": 11,
    "december": 12,
    "janeiro": 1,
    "fevereiro": 2,
    "marco": 3,
    "abril": 4,
    "maio": 5,
    "junho": 6,
    "julho": 7,
    "agosto": 8,
    "setembro": 9,
    "outubro": 10,
    "novembro": 11,
    "dezembro": 12,
}
_M = "|".join(sorted(_MONTHS, key=len, reverse=True))
# "october 13 2023", "13 october 2023", "25 may 2022", "13 de outubro de 2023" (folded text:
# no commas); day 1-31, year 4 digits.
_DAY_MONTH_YEAR = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)? (?:de )?({_M}) (?:de )?(\d{{4}})\b")
_MONTH_DAY_YEAR = re.compile(rf"\b({_M}) (\d{{1,2}})(?:st|nd|rd|th)? (\d{{4}})\b")
_MONTH_YEAR = re.compile(rf"\b(?:in |em |during |durante )?({_M}) (?:de |of )?(\d{{4}})\b")
_MONTH = re.compile(rf"\b(?:in|em|during|durante|last|this|no mes de|em) ({_M})\b")
_YEAR = re.compile(r"\b(?:in|em|during|durante|since|of) ((?:19|20)\d\d)\b")
_RELATIVE = {
    "yesterday": "yesterday",
    "ontem": "yesterday",
    "last week": "last_week",
    "semana passada": "last_week",
    "last month": "last_month",
    "mes passado": "last_month",
    "last year": "last_year",
    "ano passado": "last_year",
}
_RELATIVE_RE = re.compile(r"\b(" + "|".join(_RELATIVE) + r")\b")


@dataclass(frozen=True)
class TimeWindow:
    """A closed date range, or a month of any year (``month`` set, ``start``/``end`` None)."""

    start: date | None = None
    end: date | None = None
    month: int | None = None
    text: str = ""

    def contains(self, when: datetime | None) -> bool:
        if when is None:
            return False
        day = when.date()
        if self.start is not None and self.end is not None:
            return self.start <= day <= self.end
        return self.month is not None and day.month == self.month


def _month_end(year: int, month: int) -> date:
    first_next = date(year + (month == 12), month % 12 + 1, 1)
    return first_next - timedelta(days=1)


def _safe_day(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def query_window(query: str, now: datetime) -> TimeWindow | None:
    """The first time expression of the query as a window, or None (pure)."""
    text = fold(query)
    if m := _DAY_MONTH_YEAR.search(text):
        d = _safe_day(int(m.group(3)), _MONTHS[m.group(2)], int(m.group(1)))
        if d is not None:  # a day ±1 (time zones, "the evening of")
            return TimeWindow(d - timedelta(days=1), d + timedelta(days=1), text=m.group(0))
    if m := _MONTH_DAY_YEAR.search(text):
        d = _safe_day(int(m.group(3)), _MONTHS[m.group(1)], int(m.group(2)))
        if d is not None:
            return TimeWindow(d - timedelta(days=1), d + timedelta(days=1), text=m.group(0))
    if m := _MONTH_YEAR.search(text):
        year, month = int(m.group(2)), _MONTHS[m.group(1)]
        return TimeWindow(date(year, month, 1), _month_end(year, month), text=m.group(0))
    if m := _YEAR.search(text):
        year = int(m.group(1))
        return TimeWindow(date(year, 1, 1), date(year, 12, 31), text=m.group(0))
    if m := _MONTH.search(text):
        return TimeWindow(month=_MONTHS[m.group(1)], text=m.group(0))
    if m := _RELATIVE_RE.search(text):
        today = now.date()
        kind = _RELATIVE[m.group(1)]
        if kind == "yesterday":
            return TimeWindow(today - timedelta(days=1), today - timedelta(days=1), text=m.group(0))
        if kind == "last_week":
            return TimeWindow(today - timedelta(days=7), today, text=m.group(0))
        if kind == "last_month":
            last = today.replace(day=1) - timedelta(days=1)
            return TimeWindow(last.replace(day=1), last, text=m.group(0))
        return TimeWindow(date(today.year - 1, 1, 1), date(today.year - 1, 12, 31), text=m.group(0))
    return None
