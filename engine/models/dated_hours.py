"""Opening hours by date from an OpenStreetMap ``opening_hours`` rule (opening-hours-py).

A rule says what a weekly table cannot: the last Sunday of a month (``Su[-1]``), public holidays
(``PH off``, by the venue's country), seasons (``Nov-Mar off``), one-off closures
(``2022 Apr 01-2026 Mar 30 off``). Parsing and evaluating a rule is far too slow for the verifier's
hot path, so each distinct rule is parsed once per process (``dated_hours`` is cached, and the
catalog's schema parses every fixture rule at load) and each date is evaluated once, then served
from a per-rule memo: a check is two dict lookups.

an `opening_hours` rule evaluated by date (opening-hours-py): one parse per distinct rule and country, each
date evaluated once and memoised (windows + the rule's comment), why a date is closed (`blackout_date` /
`closed_day` / `closed_season`); `Attraction.windows_on(date)` reads it, so the day builder, repair, the
verifier and the synthesizer agree by date
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from functools import lru_cache
from typing import NamedTuple

import opening_hours

from .common import TimeWindow

MIDNIGHT = time(0, 0)
END_OF_DAY = time(23, 59)  # a window open until 24:00 ends at 23:59 (the engine's convention)
RULE_ERRORS = (opening_hours.ParserError, opening_hours.UnknownCountryError)
NEIGHBOUR_WEEKS = 4  # how far a closure looks for the same weekday open, to call it one date's closure
MEMO_DATES = 4096  # dates remembered per rule before starting over (a long-running app plans many trips)


class Day(NamedTuple):
    """One date's opening windows, the rule's comment for that date ('' when none) and the
    windows as plain (start, end) clock pairs for the verifier's hot path."""

    windows: tuple[TimeWindow, ...]
    note: str
    spans: tuple[tuple[time, time], ...]


class DatedHours:
    """A parsed rule with a memo of evaluated dates. ``unknown`` in a rule counts as closed:
    a plan never relies on hours nobody can promise."""

    __slots__ = ("rule", "country", "_parsed", "_days", "_reasons")

    def __init__(self, rule: str, country: str | None = None) -> None:
        self.rule = rule
        self.country = country
        self._parsed = opening_hours.OpeningHours(rule, country=country) if country \
            else opening_hours.OpeningHours(rule)
        self._days: dict[date, Day] = {}
        self._reasons: dict[date, str] = {}

    def day(self, on: date) -> Day:
        found = self._days.get(on)
        if found is None:
            if len(self._days) >= MEMO_DATES:
                self._days.clear()
                self._reasons.clear()
            found = self._days[on] = self._evaluate(on)
        return found

    def windows_on(self, on: date) -> tuple[TimeWindow, ...]:
        found = self._days.get(on)
        return (found or self.day(on)).windows

    def covers(self, on: date, start: time, end: time) -> bool:
        """Whether one window of the date holds [start, end] (both ends inclusive)."""
        found = self._days.get(on) or self.day(on)
        for opens, closes in found.spans:
            if opens <= start and end <= closes:
                return True
        return False

    def closed_reason(self, on: date) -> str:
        """Why a date has no window: ``blackout_date`` (the same weekday opens within a few weeks:
        a holiday, a Sunday that is not the month's last),
        ``closed_day`` (that weekday is closed in the weeks around) or ``closed_season`` (closed
        every day of the surrounding weeks: a season, a renovation)."""
        reason = self._reasons.get(on)
        if reason is None:
            reason = self._reasons[on] = self._classify(on)
        return reason

    def _classify(self, on: date) -> str:
        weeks = [on + timedelta(weeks=k) for k in range(-NEIGHBOUR_WEEKS, NEIGHBOUR_WEEKS + 1) if k]
        if any(self.windows_on(d) for d in weeks):
            return "blackout_date"
        around = (on + timedelta(days=k) for k in range(-7 * NEIGHBOUR_WEEKS, 7 * NEIGHBOUR_WEEKS + 1))
        return "closed_day" if any(self.windows_on(d) for d in around) else "closed_season"

    def _evaluate(self, on: date) -> Day:
        start = datetime.combine(on, MIDNIGHT)
        end = start + timedelta(days=1)
        windows, notes = [], []
        for opens, closes, state, comment in self._parsed.intervals(start, end):
            if comment and comment not in notes:
                notes.append(comment)
            first, last = max(opens, start).time(), END_OF_DAY if closes >= end else closes.time()
            if state == opening_hours.State.OPEN and first < last:
                windows.append(TimeWindow(start=first, end=last))
        return Day(tuple(windows), "; ".join(notes), tuple((w.start, w.end) for w in windows))


@lru_cache(maxsize=None)  # one entry per distinct (rule, country): a few hundred for the fixtures
def dated_hours(rule: str, country: str | None = None) -> DatedHours:
    """The shared, memoised evaluator of ``rule`` (raises ``SyntaxError`` for a bad rule)."""
    return DatedHours(rule, country)
