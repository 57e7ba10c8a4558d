"""Model output is input too: every value the model read from a confirmation must be in it.

``grounded(answer, text)`` lists what is not: a flight number (as "TP 202", "TP202", "TP-0202"),
an airport code, a confirmation code, a hotel's name, each word of its address, an airline's name
— all as whole words, case-, accent- and spacing-blind; a clock time as the text writes one
("22:30", "22.30", "22h30", "10:30 PM"); a date as ISO, numbers ("15/06/2027", "06/15/27") or
with an English month name ("15 Jun 2027", "June 15th", "15JUN"). An arrival date the text does
not print may be the departure's day or up to two days after it (tickets print "10:35 +1").
A train or bus ticket (``rides``, read for a multi-city trip): its number, stations, operator,
dates, times and code the same way. A model that invents a flight number is refused, never planned.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date, timedelta

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
_DASHES = str.maketrans({"‐": "-", "‑": "-", "–": "-", "—": "-", "’": "'", "‘": "'", "“": '"', "”": '"'})
_W = "0-9a-z"


def fold(text: str) -> str:
    """Lower case, accents dropped, dashes and quotes plain, whitespace single spaces."""
    plain = unicodedata.normalize("NFKD", text.translate(_DASHES))
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


def has_words(hay: str, value: str) -> bool:
    needle = fold(value)
    return bool(needle) and re.search(rf"(?<![{_W}]){re.escape(needle)}(?![{_W}])", hay) is not None


def has_flight(hay: str, number: str) -> bool:
    m = re.fullmatch(r"([A-Z0-9]{2})\s?0*(\d{1,4})([A-Z]?)", number.strip().upper())
    if m is None:
        return False
    prefix, digits, suffix = (g.lower() for g in m.groups())
    return re.search(rf"(?<![{_W}]){prefix}\s?-?0*{digits}{suffix}(?![{_W}])", hay) is not None


def has_time(hay: str, clock: str) -> bool:
    hour, minute = (int(p) for p in clock.split(":"))
    forms = [rf"(?<![\d:.]){hour:d}[:.h]{minute:02d}(?!\d)(?!\s?[ap]\.?m)",
             rf"(?<![\d:.])0{hour:d}[:.h]{minute:02d}(?!\d)" if hour < 10 else None]
    half = "p" if hour >= 12 else "a"
    forms.append(rf"(?<![\d:.])0?{(hour % 12) or 12:d}[:.]{minute:02d}\s?{half}\.?m\b")
    return any(re.search(f, hay) for f in forms if f)


def has_date(hay: str, day: date) -> bool:
    d, m, y = day.day, day.month, day.year
    month = MONTHS[m - 1]
    names = f"(?:{month}|{month[:3]}\\.?{'|sept' if m == 9 else ''})"
    nth = r"(?:st|nd|rd|th)?"
    forms = (rf"{y}-{m:02d}-{d:02d}",
             rf"(?<!\d)0?{d}[/.\-]0?{m}[/.\-](?:{y}|{y % 100:02d})(?!\d)",
             rf"(?<!\d)0?{m}[/.\-]0?{d}[/.\-](?:{y}|{y % 100:02d})(?!\d)",
             rf"(?<!\d)0?{d}{nth}\s?(?:of )?{names}(?![a-z])",
             rf"(?<![a-z]){names},?\s?0?{d}{nth}(?!\d)")
    return any(re.search(f, hay) for f in forms)


def grounded(answer, text: str) -> list[str]:
    """What in ``answer`` (a ``text_booking.BookingRead``) is not in ``text``; [] when all is.
    Lines name the field and, except for confirmation codes, the value."""
    hay = fold(text)
    problems: list[str] = []
    for i, f in enumerate(answer.flights):
        at = f"flights[{i}]"
        _check(problems, has_flight(hay, f.flight_number), f"{at}.flight_number {f.flight_number!r}")
        for role in ("origin", "dest"):
            _check(problems, has_words(hay, getattr(f, role)), f"{at}.{role} {getattr(f, role)!r}")
        if f.airline is not None:
            prefix = f.flight_number.replace(" ", "")[:2]
            _check(problems, has_words(hay, f.airline) or f.airline.strip().upper() == prefix,
                   f"{at}.airline {f.airline!r}")
        _check(problems, has_date(hay, date.fromisoformat(f.departure_date)), f"{at}.departure_date {f.departure_date}")
        _check(problems, _arrival_day(hay, f), f"{at}.arrival_date {f.arrival_date}")
        for clock in ("departure_time", "arrival_time"):
            _check(problems, has_time(hay, getattr(f, clock)), f"{at}.{clock} {getattr(f, clock)}")
        _code(problems, hay, f.confirmation, f"{at}.confirmation")
    if answer.hotel is not None:
        _hotel(problems, hay, answer.hotel)
    for i, r in enumerate(getattr(answer, "rides", ())):
        _ride(problems, hay, r, f"rides[{i}]")
    return problems


def _ride(problems: list[str], hay: str, r, at: str) -> None:
    """A train or bus ticket: its number, stations, operator, dates, times and code as printed."""
    _check(problems, has_words(hay, r.number), f"{at}.number {r.number!r}")
    for role in ("from_station", "to_station"):
        _check(problems, has_words(hay, getattr(r, role)), f"{at}.{role} {getattr(r, role)!r}")
    if r.operator is not None:
        _check(problems, has_words(hay, r.operator), f"{at}.operator {r.operator!r}")
    _check(problems, has_date(hay, date.fromisoformat(r.departure_date)), f"{at}.departure_date {r.departure_date}")
    _check(problems, _arrival_day(hay, r), f"{at}.arrival_date {r.arrival_date}")
    for clock in ("departure_time", "arrival_time"):
        _check(problems, has_time(hay, getattr(r, clock)), f"{at}.{clock} {getattr(r, clock)}")
    _code(problems, hay, r.confirmation, f"{at}.confirmation")


def _hotel(problems: list[str], hay: str, h) -> None:
    _check(problems, has_words(hay, h.name), f"hotel.name {h.name!r}")
    if h.address:
        missing = [w for w in re.findall(rf"[{_W}]+", fold(h.address)) if not has_words(hay, w)]
        _check(problems, not missing, f"hotel.address word(s) {', '.join(missing[:3])!r}")
    for key in ("checkin_date", "checkout_date"):
        _check(problems, has_date(hay, date.fromisoformat(getattr(h, key))), f"hotel.{key} {getattr(h, key)}")
    _code(problems, hay, h.confirmation, "hotel.confirmation")


def _arrival_day(hay: str, f) -> bool:
    arrival, departure = date.fromisoformat(f.arrival_date), date.fromisoformat(f.departure_date)
    return has_date(hay, arrival) or departure <= arrival <= departure + timedelta(days=2)


def _code(problems: list[str], hay: str, code: str | None, where: str) -> None:
    if code is not None:
        _check(problems, has_words(hay, code), where)  # the code itself stays out of every line


def _check(problems: list[str], ok: bool, what: str) -> None:
    if not ok:
        problems.append(f"{what} does not appear in the text")
