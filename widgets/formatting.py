"""Display helpers shared by the panels: money, clock times, durations, distances, tooltips.

Pure functions returning plain text; no widget imports, so they are cheap to test alone.
"""

from __future__ import annotations

import html
import re
from datetime import date, datetime, time
from zoneinfo import ZoneInfo

from engine.models import TimeWindow
from engine.settings import DISTANCE_UNITS

KM_PER_MILE = 1.609344

MINUS = "\u2212"  # a real minus sign lines up with the digits, a hyphen does not
EN_DASH = "\u2013"
# No strftime on the paint path: with PySide6 loaded each call costs ~20 µs (it imports ``time``
# through PySide's import hook), and a painted itinerary asks for hundreds (issue 14 §3).
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def money(cents: int | None, *, blank_zero: bool = False) -> str:
    """``123456`` → ``"$1,234.56"``; negative amounts get a minus sign before the dollar."""
    if cents is None or (blank_zero and cents == 0):
        return ""
    sign = MINUS if cents < 0 else ""
    cents = abs(int(cents))
    return f"{sign}${cents // 100:,}.{cents % 100:02d}"


def money_delta(cents: int) -> str:
    """A change in cost: ``"+$12.00"``, ``"−$190.29"``, ``"±$0.00"``."""
    if cents == 0:
        return "\u00b1$0.00"
    return ("+" if cents > 0 else "") + money(cents)


def minutes_delta(minutes: int) -> str:
    """A change in travel time: ``"+10 min"``, ``"−5 min"``."""
    if minutes == 0:
        return "\u00b10 min"
    return f"{'+' if minutes > 0 else MINUS}{abs(minutes)} min"


def duration_ms(ms: float | int | None) -> str:
    """``34`` → ``"34 ms"``, ``1234`` → ``"1.2 s"``, ``125000`` → ``"2 min 05 s"``."""
    if ms is None:
        return ""
    if ms < 1000:
        return f"{int(round(ms))} ms"
    seconds = ms / 1000
    if seconds < 60:
        return f"{seconds:.1f} s"
    whole = int(seconds)
    return f"{whole // 60} min {whole % 60:02d} s"


def age(seconds: float) -> str:
    """How long ago: ``"0.4 s"``, ``"12 s"``, ``"3 min"``."""
    if seconds < 10:
        return f"{max(seconds, 0.0):.1f} s"
    if seconds < 120:
        return f"{int(seconds)} s"
    return f"{int(seconds // 60)} min"


def event_clock(ts: datetime) -> str:
    """An event timestamp as local wall-clock time with milliseconds (runs last ~0.5 s)."""
    local = ts.astimezone() if ts.tzinfo is not None else ts
    return f"{local.hour:02d}:{local.minute:02d}:{local.second:02d}.{local.microsecond // 1000:03d}"


def clock(t: time) -> str:
    return f"{t.hour:02d}:{t.minute:02d}"


def window(w: TimeWindow) -> str:
    """``"09:30–10:30"`` with an en dash."""
    return f"{clock(w.start)}{EN_DASH}{clock(w.end)}"


def when(activity, day: date, day_tz: str | None) -> str:
    """An activity's true span: ``"17:05–19:30 EDT"`` for a flight landing in another zone,
    ``"20:35 EDT (−1 d)–09:50"`` for one that left the day before; the window for old itineraries."""
    if activity.start is None or activity.end is None:
        return window(activity.window)
    start = _moment(activity.start, activity.start_tz, day, day_tz)
    return f"{start}{EN_DASH}{_moment(activity.end, activity.end_tz, day, day_tz)}"


def when_cell(activity, day: date, day_tz: str | None) -> str:
    """``when`` for a narrow column: a moment on another day says its weekday ("Mon 20:35–09:50"),
    one in another zone its zone ("17:05–19:30 EDT"); the tooltip has the whole ``when``."""
    if activity.start is None or activity.end is None:
        return window(activity.window)
    ends = [_cell_moment(m, tz, day, day_tz) for m, tz in ((activity.start, activity.start_tz),
                                                              (activity.end, activity.end_tz))]
    return EN_DASH.join(ends)


def _cell_moment(moment: datetime, tz: str | None, day: date, day_tz: str | None) -> str:
    local = moment.astimezone(ZoneInfo(tz)) if tz else moment
    if local.date() != day:
        return f"{WEEKDAYS[local.weekday()]} {clock(local)}"
    if tz and day_tz and tz != day_tz:
        return f"{clock(local)} {local.tzname()}"
    return clock(local)


def _moment(moment: datetime, tz: str | None, day: date, day_tz: str | None) -> str:
    local = moment.astimezone(ZoneInfo(tz)) if tz else moment
    text = clock(local)
    if tz and day_tz and tz != day_tz:
        text += f" {local.tzname()}"
    shift = (local.date() - day).days
    return text + (f" ({shift:+d} d)".replace("-", "−") if shift else "")


def day_label(d: date) -> str:
    """``"Tue 2027-06-15"``: the weekday first, since that is what trips are planned around."""
    return f"{WEEKDAYS[d.weekday()]} {d.year:04d}-{d.month:02d}-{d.day:02d}"


def short_day_label(d: date) -> str:
    """``"Tue 15 Jun"`` for tree rows, where the year is in the panel's title."""
    return f"{WEEKDAYS[d.weekday()]} {d.day} {MONTHS[d.month - 1]}"


def miles(value: float | None) -> str:
    return "" if value is None else f"{value:,.0f} mi"


def check_distance_unit(unit: str) -> str:
    """``unit`` if it is one the settings offer; a typo fails where it is set, not at a paint."""
    if unit not in DISTANCE_UNITS:
        raise ValueError(f"unknown distance unit {unit!r}; expected one of {', '.join(DISTANCE_UNITS)}")
    return unit


def distance(value_miles: float | None, unit: str = "mi") -> str:
    """A distance the engine gives in miles, shown in the user's unit: ``"1,234 mi"``, ``"1,986 km"``."""
    check_distance_unit(unit)
    if value_miles is None:
        return ""
    return miles(value_miles) if unit == "mi" else f"{value_miles * KM_PER_MILE:,.0f} km"


_MILES_IN_TEXT = re.compile(r"(\d[\d,]*(?:\.\d+)?) mi\b")


def distances_in_text(text: str, unit: str = "mi") -> str:
    """Engine prose ("fuel for 2227 mi") with its miles shown in the user's unit."""
    check_distance_unit(unit)
    if unit == "mi":
        return text
    return _MILES_IN_TEXT.sub(lambda m: distance(float(m.group(1).replace(",", "")), unit), text)


def to_unit(value_miles: float, unit: str) -> float:
    return value_miles if check_distance_unit(unit) == "mi" else value_miles * KM_PER_MILE


def from_unit(value: float, unit: str) -> float:
    return value if check_distance_unit(unit) == "mi" else value / KM_PER_MILE


def hours(value: float | None) -> str:
    """Driving hours as ``"5 h 20 min"``."""
    if value is None:
        return ""
    total = int(round(value * 60))
    return f"{total // 60} h {total % 60:02d} min"


def percent(part: float, whole: float) -> str:
    return "" if not whole else f"{100.0 * part / whole:.0f}%"


def plain_tooltip(text: str) -> str:
    """A tooltip that shows ``text`` literally.

    QToolTip guesses rich text with ``Qt::mightBeRichText``, so a place called
    ``<img src=x>`` would be interpreted; escaping it inside an explicit rich-text
    paragraph shows it as typed (and lets long notes wrap).
    """
    if not text:
        return ""
    body = html.escape(text, quote=False).replace("\n", "<br>")
    return f"<p style='white-space:pre-wrap'>{body}</p>"


def model_usage(usage) -> str:
    """One model call's figures for the progress table, e.g. ``1200+300 tok · $0.0004``."""
    if usage is None:
        return ""
    cost = f"${usage.cost_usd:.4f}" if usage.cost_usd is not None else "unpriced"
    return f"{usage.prompt_tokens}+{usage.completion_tokens} tok \u00b7 {cost}"


def model_calls(calls) -> str:
    """The run's model nodes together: ``Model: draft, summarize · 2400+600 tokens · $0.0008``."""
    nodes = list(dict.fromkeys(node for node, _ in calls))
    tokens_in = sum(u.prompt_tokens for _, u in calls)
    tokens_out = sum(u.completion_tokens for _, u in calls)
    costs = [u.cost_usd for _, u in calls]
    cost = "cost unknown" if None in costs else f"${sum(costs):.4f}"
    return f"Model: {', '.join(nodes)} \u00b7 {tokens_in}+{tokens_out} tokens \u00b7 {cost}"
