"""What every booking reader shares: the one-line error, the checks a booked flight or hotel must
pass whatever file it came from, airport clocks, and prices in USD.

A value that cannot be right — an airport code with no scheduled flights, an arrival before the
departure, a date years away, a stay of months — is an ``InputError("bookings", …)`` naming the
file, the booking (its flight number or hotel, the confirmation code masked) and the field: the
traveller fixes the file or types the booking, and nothing half-read is planned.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import NoReturn
from zoneinfo import ZoneInfo

from pydantic import ValidationError

from engine.errors import InputError
from engine.models.bookings import BookedEvent, BookedFlight, BookedHotel, masked_code
from engine.models.common import Geo

FIELD = "bookings"
PAST_DAYS = 366  # a booking older than a year is not a trip to plan
FUTURE_DAYS = 2 * 366  # airlines sell ~11 months ahead, hotels up to two years
MAX_FLIGHT_HOURS = 30  # the longest scheduled flight is under 19 h; a booked leg is one flight
MAX_NIGHTS = 90
MAX_CODE_CHARS = 32
_NUMBER = re.compile(r"^\s*([A-Z]{2}|[A-Z][0-9]|[0-9][A-Z])?\s*-?\s*0*(\d{1,4})([A-Z]?)\s*$")
_CODE = re.compile(r"^[A-Z]{3}$")


def fail(label: str, message: str) -> NoReturn:
    """The one error of a booking import: ``bookings: <file>: <what is wrong>``, one line."""
    raise InputError(FIELD, " ".join(f"{label}: {message}".split())) from None


def quoted(text: object, limit: int = 40) -> str:
    value = " ".join(str(text).split())
    return repr(value if len(value) <= limit else value[: limit - 1] + "…")


@dataclass
class Context:
    """One file's reading: its label for error lines, the day bookings are judged from, and the
    notes its summary carries (a price left unconverted, text cut short)."""

    label: str
    today: date
    notes: list[str] = field(default_factory=list)
    legs: bool = False  # read train and bus tickets as legs between stays (a multi-city trip)

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)


@dataclass(frozen=True)
class Price:
    amount: float
    currency: str


def flight_number(raw: object, airline_code: str | None) -> str | None:
    """``"202"`` + ``"TP"`` → ``"TP 202"``; ``"TP0202"`` → ``"TP 202"``; None when it is not one."""
    m = _NUMBER.match(str(raw or "").upper())
    if m is None:
        return None
    prefix = m.group(1) or (airline_code or "").strip().upper()
    if not re.fullmatch(r"[A-Z]{2}|[A-Z][0-9]|[0-9][A-Z]", prefix):
        return None
    return f"{prefix} {int(m.group(2))}{m.group(3)}"


def airport_zone(ctx: Context, what: str, code: object, role: str) -> tuple[str, str]:
    """(IATA code, its zone); an unknown code names the booking and the field."""
    from engine.catalog.airports import airport_info

    text = str(code or "").strip().upper()
    if not text:
        fail(ctx.label, f"{what}: no {role} airport")
    info = airport_info(text) if _CODE.match(text) else None
    if info is None:
        fail(ctx.label, f"{what}: {role} airport {quoted(text, 12)} is not an IATA code of an airport "
                        "with scheduled flights")
    return info.iata, info.tz


def on_clock(moment: datetime, zone: str) -> datetime:
    """A moment on the airport's clock: a wall time as written there, or an offset moved onto it."""
    tz = ZoneInfo(zone)
    return moment.replace(tzinfo=tz) if moment.tzinfo is None else moment.astimezone(tz)


def check_day(ctx: Context, what: str, day: date, role: str, *, slack: int = 0) -> None:
    """``slack``: days of leeway for a date read before it is moved onto an airport's clock (which
    may move it a day), so a year-9999 date is refused before any conversion can overflow."""
    span = timedelta(days=slack)
    if not ctx.today - timedelta(days=PAST_DAYS) - span <= day <= ctx.today + timedelta(days=FUTURE_DAYS) + span:
        fail(ctx.label, f"{what}: {role} {day.isoformat()} is not a date a trip from {ctx.today.isoformat()} "
                        "can use (more than a year ago or two years ahead)")


def confirmation(ctx: Context, what: str, raw: object) -> str | None:
    text = " ".join(str(raw or "").split())
    if len(text) > MAX_CODE_CHARS:
        fail(ctx.label, f"{what}: the confirmation code is longer than {MAX_CODE_CHARS} characters")
    return text or None


def make_flight(ctx: Context, what: str, *, carrier: str | None, number: str | None, origin: object,
                dest: object, departure: datetime, arrival: datetime, code: object = None,
                price: Price | None = None, source: str) -> BookedFlight:
    """A booked flight from values already read; ``what`` names it until its number is known."""
    if number is None:
        fail(ctx.label, f"{what}: no flight number (e.g. 'TP 202')")
    conf = confirmation(ctx, what, code)
    what = f"flight {number}" + (f" ({masked_code(conf)})" if conf else "")
    origin_code, origin_zone = airport_zone(ctx, what, origin, "departure")
    dest_code, dest_zone = airport_zone(ctx, what, dest, "arrival")
    if origin_code == dest_code:
        fail(ctx.label, f"{what}: departure and arrival airports are both {origin_code}")
    check_day(ctx, what, departure.date(), "departure", slack=1)  # before a zone moves it past year 9999
    check_day(ctx, what, arrival.date(), "arrival", slack=2)
    leaves, lands = on_clock(departure, origin_zone), on_clock(arrival, dest_zone)
    check_day(ctx, what, leaves.date(), "departure")
    if lands <= leaves:
        fail(ctx.label, f"{what}: arrival {_shown(lands)} {dest_code} is not after departure "
                        f"{_shown(leaves)} {origin_code}")
    if lands - leaves > timedelta(hours=MAX_FLIGHT_HOURS):
        hours = (lands - leaves).total_seconds() / 3600
        fail(ctx.label, f"{what}: arrival is {hours:.0f} hours after departure; one flight takes at most "
                        f"{MAX_FLIGHT_HOURS}")
    name = " ".join((carrier or number.split()[0]).split())[:80]
    return _built(ctx, what, BookedFlight, carrier=name, flight_number=number, origin=origin_code,
                  dest=dest_code, departure=leaves, arrival=lands, confirmation=conf,
                  price_usd_cents=usd_cents(ctx, what, price), source=source)


def _shown(moment: datetime) -> str:
    return f"{moment:%Y-%m-%d %H:%M} (UTC{moment.isoformat()[-6:]})"


def make_hotel(ctx: Context, what: str, *, name: object, address: object = "", geo: tuple | None = None,
               checkin: date, checkout: date, code: object = None, price: Price | None = None,
               source: str) -> BookedHotel:
    shown = " ".join(str(name or "").split())[:200]
    if not shown:
        fail(ctx.label, f"{what}: no hotel name")
    conf = confirmation(ctx, what, code)
    what = f"hotel {quoted(shown)}" + (f" ({masked_code(conf)})" if conf else "")
    check_day(ctx, what, checkin, "check-in")
    if checkout <= checkin:
        fail(ctx.label, f"{what}: check-out {checkout.isoformat()} is not after check-in {checkin.isoformat()}")
    if (checkout - checkin).days > MAX_NIGHTS:
        fail(ctx.label, f"{what}: {(checkout - checkin).days} nights; a stay of at most {MAX_NIGHTS} is planned")
    return _built(ctx, what, BookedHotel, name=shown, address=" ".join(str(address or "").split())[:300],
                  geo=_geo(ctx, what, geo), checkin=checkin, checkout=checkout, confirmation=conf,
                  price_usd_cents=usd_cents(ctx, what, price), source=source)


def make_event(ctx: Context, what: str, *, name: object, venue: object = "", address: object = "",
               geo: tuple | None = None, start, end=None, code: object = None, price: Price | None = None,
               source: str) -> BookedEvent:
    shown = " ".join(str(name or "").split())[:200]
    if not shown:
        fail(ctx.label, f"{what}: no event name")
    conf = confirmation(ctx, what, code)
    what = f"event {quoted(shown)}" + (f" ({masked_code(conf)})" if conf else "")
    for moment, label in ((start, "startDate"), (end, "endDate")):
        if moment is not None and moment.tzinfo is None:
            fail(ctx.label, f"{what}: {label} {moment.isoformat()} has no UTC offset")
    check_day(ctx, what, start.date(), "start")
    if end is not None:
        check_day(ctx, what, end.date(), "end", slack=MAX_NIGHTS)
    if end is not None and end <= start:
        fail(ctx.label, f"{what}: it ends ({end.isoformat()}) before it starts ({start.isoformat()})")
    return _built(ctx, what, BookedEvent, name=shown, venue=" ".join(str(venue or "").split())[:200],
                  address=" ".join(str(address or "").split())[:300], geo=_geo(ctx, what, geo), start=start,
                  end=end, confirmation=conf, price_usd_cents=usd_cents(ctx, what, price), source=source)


def _geo(ctx: Context, what: str, geo: tuple | None) -> Geo | None:
    if geo is None:
        return None
    try:
        lat, lon = (float(v) for v in geo)
    except (TypeError, ValueError):
        fail(ctx.label, f"{what}: its coordinates {quoted(geo)} are not numbers")
    if not (math.isfinite(lat) and math.isfinite(lon) and abs(lat) <= 90 and abs(lon) <= 180):
        fail(ctx.label, f"{what}: its coordinates {lat}, {lon} are outside -90…90 / -180…180")
    return Geo(lat=lat, lon=lon)


def _built(ctx: Context, what: str, model, **values):
    try:
        return model(**values)
    except ValidationError as exc:  # the readers check first; this names anything they missed
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "value"
        fail(ctx.label, f"{what}: {where}: {first['msg']}")


def usd_cents(ctx: Context, what: str, price: Price | None) -> int | None:
    """USD as given; another currency at the fixture rate as of today (T-1) when there is one,
    else no price and a note in the summary."""
    if price is None:
        return None
    if not (math.isfinite(price.amount) and 0 <= price.amount < 10_000_000):
        ctx.note(f"{what}: price {quoted(price.amount, 20)} not read")
        return None
    cur = price.currency.strip().upper()
    if cur == "USD":
        return round(price.amount * 100)
    rate = _usd_rate(cur, ctx.today) if re.fullmatch(r"[A-Z]{3}", cur) else None
    if rate is None:
        ctx.note(f"price in {quoted(cur, 8)} not converted (no exchange rate): enter it in USD")
        return None
    ctx.note(f"{cur} prices converted at {rate:g} USD")
    return round(price.amount * rate * 100)


def _usd_rate(currency: str, today: date) -> float | None:
    from engine.catalog import load_raw
    from engine.tools.fx import FixtureFX
    from engine.tools.requests import FXRequest

    raw = load_raw().fx
    if currency not in raw.weekly:
        return None
    return FixtureFX(raw).rate(FXRequest(from_currency=currency, as_of=today)).rate


def price_of(amount: object, currency: object) -> Price | None:
    """A schema.org or printed amount: ``1234.5``, ``"1,234.50"``, ``"1234,50"``; None when absent
    or unreadable (an unreadable price is no price, not an error)."""
    if amount is None or isinstance(amount, bool) or not currency:
        return None
    if isinstance(amount, (int, float)):
        return Price(float(amount), str(currency))
    text = re.sub(r"[^\d.,]", "", str(amount))
    if re.fullmatch(r"\d{1,3}(,\d{3})+(\.\d+)?", text):
        text = text.replace(",", "")
    elif re.fullmatch(r"\d{1,3}(\.\d{3})+(,\d+)?", text):
        text = text.replace(".", "").replace(",", ".")
    elif re.fullmatch(r"\d+,\d{1,2}", text):
        text = text.replace(",", ".")
    try:
        return Price(float(text), str(currency))
    except ValueError:
        return None
