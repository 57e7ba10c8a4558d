"""Train and bus tickets between the stays of a multi-city trip (issue 33 §2): schema.org
``TrainReservation``/``BusReservation`` markup and a calendar file's train or bus event become
``BookedLeg`` facts — their times and price fix the leg. Read only when the caller asks
(``legs=True``): a one-city trip has no leg to put them in, so there they stay counted as skipped.

``TrainReservation``: ``reservationFor`` is a ``TrainTrip`` — ``trainNumber``, ``trainName``,
``provider`` (an ``Organization``), ``departureStation``/``arrivalStation`` (a ``TrainStation``
with ``name``), ``departureTime``/``arrivalTime`` (ISO 8601 with the offset). ``BusReservation``:
a ``BusTrip`` — ``busNumber``, ``busName``, ``provider``, ``departureBusStop``/``arrivalBusStop``
(a ``BusStop`` or ``BusStation``), the same times. Both: ``reservationNumber``, ``totalPrice`` with
``priceCurrency`` (as for flights and hotels, ``values.py``).

A calendar event is a train or a bus when its SUMMARY names one ("Train", "Zug", "Comboio", "Treno",
"Shinkansen", an operator's service — "Alfa Pendular", "Frecciarossa", "TGV", "ICE", "Eurostar"… —
or "Bus", "Coach", "FlixBus") and a route between two stations ("from A to B", "A → B", "A - B");
DTSTART/DTEND with their TZID.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any, Literal

from engine.models.bookings import masked_code
from engine.models.multi_city import BookedLeg

from .values import Context, Price, _built, check_day, confirmation, fail, quoted, usd_cents

MAX_RIDE_HOURS = 48  # the longest scheduled trains and coaches with one ticket run about two days
MAX_SUMMARY_CHARS = 300  # a calendar event's title is read this far (the route patterns stay linear-ish)
GroundMode = Literal["train", "bus"]
GROUND_RESERVATIONS: dict[str, GroundMode] = {"TrainReservation": "train", "BusReservation": "bus"}

_TRAIN_WORDS = (r"train|trains|zug|bahn|rail|railway|comboio|treno|tren|trein|shinkansen|nozomi|hikari|kodama|"
                r"frecciarossa|frecciargento|italo|alfa pendular|intercidades|intercity|eurostar|thalys|ouigo|"
                r"tgv|ice|ave|avlo|alvia|railjet|nightjet|ktx")
_BUS_WORDS = r"bus|coach|flixbus|alsa|autocarro|autobus|autobús|megabus|blablacar bus|rede expressos"
_KIND = re.compile(rf"(?i)\b(?:(?P<train>{_TRAIN_WORDS})|(?P<bus>{_BUS_WORDS}))\b")
_NUMBER = re.compile(r"\b(?P<number>(?:[A-Z]{1,5}|Nozomi|Hikari|Kodama|Frecciarossa|Italo)\s?\d{1,5})\b")
_RIGHT_AFTER = re.compile(r"\s*(?P<number>(?:[A-Z]{1,5}\s?)?\d{1,5})\b")  # "Train AP 123", "Bus 601"
_FROM_TO = re.compile(r"(?i)\bfrom\s+(?P<a>.+?)\s+to\s+(?P<b>.+?)\s*$")
_ARROW = re.compile(r"^(?P<a>.+?)\s*(?:→|->|>|›|\s[-–—]\s)\s*(?P<b>.+?)\s*$")
_LABEL = re.compile(r"(?i)^(?:your\s+)?(?:ticket|journey|trip|ride|reservation|booking)\b\s*:?\s*")


def make_leg(ctx: Context, what: str, *, mode: GroundMode, operator: str, number: str, from_name: object,
             to_name: object, departure: datetime, arrival: datetime, code: object = None,
             price: Price | None = None, source: str) -> BookedLeg:
    """A booked train or bus from values already read; every impossible value is one line."""
    start, end = _name(from_name), _name(to_name)
    if not start or not end:
        fail(ctx.label, f"{what}: no {'departure' if not start else 'arrival'} station")
    conf = confirmation(ctx, what, code)
    what = f"{what}" + (f" ({masked_code(conf)})" if conf else "")
    for moment, role in ((departure, "departure"), (arrival, "arrival")):
        if moment.tzinfo is None:
            fail(ctx.label, f"{what}: {role} {moment.isoformat()} has no UTC offset (write it like "
                            f"2027-06-18T09:39:00+01:00)")
    check_day(ctx, what, departure.date(), "departure")
    if arrival <= departure:
        fail(ctx.label, f"{what}: arrival {arrival.isoformat()} is not after departure {departure.isoformat()}")
    if arrival - departure > timedelta(hours=MAX_RIDE_HOURS):
        fail(ctx.label, f"{what}: arrival is {(arrival - departure).total_seconds() / 3600:.0f} hours after "
                        f"departure; one ticket rides at most {MAX_RIDE_HOURS}")
    if start.casefold() == end.casefold():
        fail(ctx.label, f"{what}: it leaves from and arrives at {quoted(start)}")
    return _built(ctx, what, BookedLeg, mode=mode, operator=" ".join(operator.split())[:80],
                  number=" ".join(number.split())[:16], from_name=start[:120], to_name=end[:120],
                  departure=departure, arrival=arrival, confirmation=conf,
                  price_usd_cents=usd_cents(ctx, what, price), source=source)


def _name(value: object) -> str:
    return " ".join(str(value or "").split())


# -- schema.org ------------------------------------------------------------------------------------
def reservation_leg(ctx: Context, res: dict, mode: GroundMode, n: int, source: str, *, one, text, moment,
                    price) -> BookedLeg:
    """A ``TrainReservation``/``BusReservation`` (dicts from JSON-LD or microdata) as a leg.
    ``one``, ``text``, ``moment``, ``price``: the markup helpers of ``schema_org.py``."""
    trip = one(res.get("reservationFor"))
    if mode == "train":
        number, name = text(trip.get("trainNumber")), text(trip.get("trainName"))
        start, end = one(trip.get("departureStation")), one(trip.get("arrivalStation"))
    else:
        number, name = text(trip.get("busNumber")), text(trip.get("busName"))
        start, end = one(trip.get("departureBusStop")), one(trip.get("arrivalBusStop"))
    provider = one(trip.get("provider")) or one(res.get("provider"))
    label = number or name
    what = f"{mode} {label}" if label else f"{mode} reservation {n}"
    return make_leg(ctx, what, mode=mode, operator=text(provider.get("name")) or text(trip.get("provider")),
                    number=number or name, from_name=text(start.get("name")) or text(trip.get("departureStation")),
                    to_name=text(end.get("name")) or text(trip.get("arrivalStation")),
                    departure=moment(ctx, what, trip.get("departureTime"), "departureTime"),
                    arrival=moment(ctx, what, trip.get("arrivalTime"), "arrivalTime"),
                    code=text(res.get("reservationNumber") or res.get("reservationId")), price=price(res),
                    source=source)


# -- calendar files --------------------------------------------------------------------------------
def calendar_leg(ctx: Context, summary: str, location: str, start: Any, end: Any, n: int, code: str | None,
                 source: str) -> BookedLeg | None:
    """A calendar event's train or bus, or None when the event is not one."""
    summary = summary[:MAX_SUMMARY_CHARS]
    kind = _KIND.search(summary)
    if kind is None:
        return None
    mode: GroundMode = "train" if kind.group("train") else "bus"
    number_match = _RIGHT_AFTER.match(summary[kind.end():]) or _NUMBER.search(summary)
    number = number_match.group("number") if number_match else ""
    route = _route(summary, number)
    if route is None:
        return None
    what = f"{mode} {number}".strip() + f" (event {n})"
    if not isinstance(start, datetime) or not isinstance(end, datetime):
        fail(ctx.label, f"{what}: its event has no departure and arrival times (DTSTART/DTEND)")
    return make_leg(ctx, what, mode=mode, operator="", number=number, from_name=route[0] or location,
                    to_name=route[1], departure=start, arrival=end, code=code, source=source)


def _route(summary: str, number: str) -> tuple[str, str] | None:
    """The two stations the summary names, kind words and the number taken out."""
    rest = summary
    if number:
        rest = rest.replace(number, " ")
    rest = _KIND.sub(" ", rest)
    rest = " ".join(rest.split()).strip(" :,-–—")
    rest = _LABEL.sub("", rest).strip(" :,-–—")
    for pattern in (_FROM_TO, _ARROW):
        m = pattern.search(rest)
        if m:
            a, b = (m.group("a").strip(" :,-–—"), m.group("b").strip(" :,-–—"))
            if a and b:
                return a, b
    return None
