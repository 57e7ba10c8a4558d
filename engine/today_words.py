"""The Today answer in a traveller's words (issue 36 §1): one heading and labelled lines, the same
for ``tripwright today`` and the app's Today panel."""

from __future__ import annotations

from datetime import date

from engine.models import Activity
from engine.models.today import TodayHours, TodayV1

ROLE_WORDS = {"checkin": "Check in: ", "checkout": "Check out: ", "arrival": "Flight lands: ",
              "departure": "Flight leaves: ", "transfer": "On the way: "}


def long_date(on: date) -> str:
    return f"{on.day} {on:%B %Y}"


def trip_words(t: TodayV1) -> str:
    if t.mode == "road_trip":
        return "Your road trip from " + t.place.replace(" \u2192 ", " to ", 1)
    return f"Your trip to {t.place}"


def not_under_way(t: TodayV1) -> str:
    """"Your trip to Lisbon starts on 10 May 2027" (or ended on …)."""
    if t.at.date() < t.first_day:
        return f"{trip_words(t)} starts on {long_date(t.first_day)}"
    return f"{trip_words(t)} ended on {long_date(t.last_day)}"


def heading(t: TodayV1) -> str:
    if not t.under_way or t.day_index is None or t.day_date is None:
        return not_under_way(t)
    days = (t.last_day - t.first_day).days + 1
    return (f"{t.place} \u2014 day {t.day_index + 1} of {days}, {t.day_date:%a} {long_date(t.day_date)}, "
            f"{t.at:%H:%M} ({t.tz})")


def activity_line(a: Activity | None, *, empty: str) -> str:
    if a is None:
        return empty
    when = f"{a.start:%H:%M}\u2013{a.end:%H:%M}" if a.start and a.end else a.window.label()
    return f"{when}  {ROLE_WORDS.get(a.role, '')}{a.shown_name}"


def hours_line(h: TodayHours) -> str:
    windows = ", ".join(w.label() for w in h.windows)
    today = f"open {windows} that day" if windows else "closed that day"
    parts = []
    if h.open_now is not None:
        parts.append("open now" if h.open_now else "closed now")
    parts.append("open when you arrive" if h.open_at_arrival else "CLOSED when you arrive")
    guess = "" if h.known else " (hours not published: a guess, check before going)"
    note = f" ({h.note})" if h.note else ""
    return f"{', '.join(parts)}; {today}{note}{guess}"


def _duration(minutes: int) -> str:
    return f"{minutes // 60} h {minutes % 60:02d} min" if minutes >= 60 else f"{minutes} min"


def leave_line(t: TodayV1) -> str | None:
    if t.leave_at is None:
        return None
    when = t.leave_at
    if t.leave_date is not None and t.day_date is not None and t.leave_date != t.day_date:
        when += f" on {t.leave_date:%a} {long_date(t.leave_date)}"
    elif t.now is not None and t.now.role == "transfer":
        when += " (you are on your way)"
    elif t.leave_in_minutes is not None:
        minutes = t.leave_in_minutes
        when += " (time to go)" if minutes <= 0 else f" (in {_duration(minutes)})"
    return when


def today_lines(t: TodayV1) -> list[tuple[str, str]]:
    """(label, text) rows after the heading; none when the trip is not under way."""
    if not t.under_way:
        return []
    rows = [("Now", activity_line(t.now, empty="nothing planned right now")),
            ("Next", activity_line(t.next, empty="nothing more on this trip"))]
    leave = leave_line(t)
    if leave is not None:
        rows.append(("Leave at", leave))
    if t.how is not None:
        rows.append(("How", f"{t.how.name}, about {_duration(t.how.minutes)}"))
    if t.hours is not None:
        rows.append(("Open", hours_line(t.hours)))
    if t.weather is not None:
        rows.append(("Weather", t.weather.said + (" (live)" if t.weather.source == "live" else "")))
    for b in t.bookings:
        code = f" \u2014 confirmation {b.confirmation}" if b.confirmation else " \u2014 no confirmation code kept"
        rows.append(("Booking", f"{b.kind} {b.what}{code}"))
    if t.day_index is not None:
        rows.append(("Map", f"day {t.day_index + 1}"))
    return rows
