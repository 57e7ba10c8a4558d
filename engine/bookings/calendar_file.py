"""Calendar files (``.ics``) from airlines and hotels, read with ``icalendar``.

A flight: a VEVENT whose SUMMARY (else DESCRIPTION) names a flight number ("TP 202", "TP202") and
two airports — "JFK-LIS", "JFK → LIS", "JFK to LIS", or two codes in parentheses, "New York
(JFK) - Lisbon (LIS)" — each an IATA code of a scheduled airport; DTSTART/DTEND with their TZID
(UTC moved onto the airport's clock; a floating time read on it). A hotel stay: an event whose
words say so ("hotel", "check-in", "stay", …), all-day (DTEND is the check-out day, RFC 5545's
exclusive end) or timed; a separate "check-out" event of the same place closes a check-in event
that has none. The confirmation code is the one a DESCRIPTION labels ("Booking reference:
4F7K2Q"). A train or bus, when the caller asks for legs (``ground_legs.py``). Anything else is
counted as skipped. Files over ``MAX_BYTES`` or with more than
``MAX_EVENTS`` events are refused: an airline's file is a few KB.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any

from .ground_legs import calendar_leg
from .result import Collected
from .values import Context, fail, flight_number, make_flight, make_hotel

MAX_BYTES = 1024 * 1024
MAX_EVENTS = 200
_FLIGHT = re.compile(r"\b([A-Z]{2}|[A-Z][0-9]|[0-9][A-Z])\s?-?(\d{1,4}[A-Z]?)\b")
_PAIR = re.compile(r"\b([A-Z]{3})\s*(?:-|–|—|→|->|>|›|\bto\b)\s*([A-Z]{3})\b")
_PAREN = re.compile(r"\(([A-Z]{3})\)")
_HOTEL = re.compile(r"(?i)\b(hotel|check-?\s?in|lodging|accommodation|stay|hostel|resort|guesthouse|inn|b&b)\b")
_CHECKOUT = re.compile(r"(?i)\bcheck-?\s?out\b")
_LEADING_LABEL = re.compile(r"^(?:hotel stay|stay|check-?\s?in|check-?\s?out|reservation|booking)\s*(?:at|:|-|–|—|from)?\s*",
                            re.IGNORECASE)
_TRAILING_LABEL = re.compile(r"\s*[-–—:(]\s*(?:check-?\s?in|stay|reservation|booking)\)?$", re.IGNORECASE)
_CODE = re.compile(r"(?i)(?:booking reference|booking ref\.?|confirmation(?: code| number| no\.?)?|record locator"
                   r"|reservation (?:code|number)|PNR)\s*[:#]?\s*(?-i:([A-Z0-9]{5,12}))\b")


def read_calendar(data: bytes, ctx: Context, found: Collected, source: str) -> None:
    from icalendar import Calendar

    if len(data) > MAX_BYTES:
        fail(ctx.label, f"is larger than {MAX_BYTES // 1024} KB; a booking's calendar file is a few KB")
    try:
        events = Calendar.from_ical(data).walk("VEVENT")
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        fail(ctx.label, f"is not a readable calendar file ({type(exc).__name__})")
    if len(events) > MAX_EVENTS:
        fail(ctx.label, f"holds {len(events)} events; a booking's calendar file holds a few")
    checkouts = [e for e in events if _CHECKOUT.search(_summary(e)) and not _is_checkin(e)]
    closing = {id(e) for e in checkouts}
    for n, event in enumerate(events, 1):
        if id(event) in closing:
            continue
        if _flight(ctx, event, n, found, source) or (ctx.legs and _ground(ctx, event, n, found, source)):
            continue
        if not _stay(ctx, event, n, found, source, checkouts):
            found.skip("calendar event (not a flight or hotel)")


def _prop(event, key: str) -> str:
    """A text property (the first, when a broken file repeats it)."""
    value = event.get(key, "")
    return str(value[0] if isinstance(value, list) and value else value)


def _words(event) -> str:
    return " ".join(_prop(event, k) for k in ("SUMMARY", "DESCRIPTION", "LOCATION"))


def _summary(event) -> str:
    return " ".join(_prop(event, "SUMMARY").split())


def _is_checkin(event) -> bool:
    return bool(re.search(r"(?i)\bcheck-?\s?in\b", _summary(event)))


def _flight(ctx: Context, event, n: int, found: Collected, source: str) -> bool:
    summary, description = _prop(event, "SUMMARY"), _prop(event, "DESCRIPTION")
    for text in (summary, f"{summary}\n{description}"):
        number, pair = _number(text), _airports(text)
        if number and pair:
            break
    else:
        return False
    start, end = _when(event, "DTSTART"), _when(event, "DTEND")
    what = f"flight {number} (event {n})"
    if not isinstance(start, datetime) or not isinstance(end, datetime):
        fail(ctx.label, f"{what}: its event has no departure and arrival times (DTSTART/DTEND)")
    found.add_flight(make_flight(ctx, what, carrier=None, number=number, origin=pair[0], dest=pair[1],
                                 departure=start, arrival=end, code=_code(description or summary),
                                 source=source))
    return True


def _ground(ctx: Context, event, n: int, found: Collected, source: str) -> bool:
    leg = calendar_leg(ctx, _summary(event), _prop(event, "LOCATION"), _when(event, "DTSTART"),
                       _when(event, "DTEND"), n, _code(_prop(event, "DESCRIPTION")), source)
    if leg is None:
        return False
    found.add_leg(leg)
    return True


def _number(text: str) -> str | None:
    for m in _FLIGHT.finditer(text):
        number = flight_number(f"{m.group(1)}{m.group(2)}", None)
        if number:
            return number
    return None


def _airports(text: str) -> tuple[str, str] | None:
    """The route's two codes, known airports first; a pair written as one with an unknown code is
    still returned, so the error names it rather than the event being skipped."""
    from engine.catalog.airports import airport_info

    parens = list(dict.fromkeys(_PAREN.findall(text)))
    pairs = [(a, b) for a, b in _PAIR.findall(text) if a != b] + ([tuple(parens[:2])] if len(parens) >= 2 else [])
    known = [p for p in pairs if airport_info(p[0]) and airport_info(p[1])]
    return (known or pairs or [None])[0]


def _stay(ctx: Context, event, n: int, found: Collected, source: str, checkouts: list) -> bool:
    summary = _summary(event)
    if not _HOTEL.search(summary) or re.search(r"(?i)\bflight\b", summary) or _number(summary):
        return False
    name = _place_name(event)
    start, end = _when(event, "DTSTART"), _when(event, "DTEND")
    if not name or not isinstance(start, date):
        return False
    checkin = _day_of(start)
    checkout = _day_of(end) if isinstance(end, date) else None
    if checkout is None or checkout <= checkin:
        closing = [_day_of(_when(c, "DTSTART")) for c in checkouts
                   if isinstance(_when(c, "DTSTART"), date) and name.casefold() in _words(c).casefold()]
        checkout = min((d for d in closing if d > checkin), default=None)
    if checkout is None:  # not a night anywhere: a reminder ("check-in opens"), not a stay
        return False
    found.add_hotel(make_hotel(ctx, f"hotel event {n}", name=name, address=_prop(event, "LOCATION"),
                               geo=_geo(ctx, event, name),
                               checkin=checkin, checkout=checkout,
                               code=_code(_prop(event, "DESCRIPTION")), source=source))
    return True


def _place_name(event) -> str:
    summary = _summary(event)
    name = _TRAILING_LABEL.sub("", _LEADING_LABEL.sub("", summary)).strip(" -–—:")
    return name or _prop(event, "LOCATION").split(",")[0].strip()


def _geo(ctx: Context, event, name: str) -> tuple | None:
    if "GEO" not in event:
        return None
    try:
        geo = event.get("GEO")
        return geo.latitude, geo.longitude
    except (ValueError, AttributeError):  # icalendar's BrokenCalendarProperty is a ValueError
        fail(ctx.label, f"hotel {name!r}: its GEO is not 'latitude;longitude'")


def _when(event, key: str) -> Any:
    """DTSTART or DTEND as a date or datetime (DTEND from DTSTART + DURATION when that is how the
    event says it); None when absent or unreadable."""
    try:
        if key == "DTEND" and key not in event and "DURATION" in event:
            start, length = _when(event, "DTSTART"), event.decoded("DURATION")
            return start + length if start is not None and isinstance(length, timedelta) else None
        value = event.decoded(key) if key in event else None
    except (ValueError, KeyError, TypeError, OverflowError):
        return None
    return value if isinstance(value, (date, datetime)) else None


def _day_of(moment: date) -> date:
    return moment.date() if isinstance(moment, datetime) else moment


def _code(text: str) -> str | None:
    m = _CODE.search(text)
    return m.group(1) if m else None
