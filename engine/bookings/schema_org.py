"""schema.org reservations (from JSON-LD or microdata, as dicts) → booked flights and hotels.

``FlightReservation``: ``reservationFor`` is a ``Flight`` — ``flightNumber`` (with or without the
airline's code), ``airline.iataCode``/``name``, ``departureAirport``/``arrivalAirport`` (an
``Airport`` with ``iataCode``, or the code itself), ``departureTime``/``arrivalTime`` (ISO 8601;
without an offset the time is read on the airport's clock). ``LodgingReservation``:
``reservationFor`` is a ``LodgingBusiness`` — ``name``, ``address`` (a ``PostalAddress`` made one
line), ``geo`` — and ``checkinTime``/``checkoutTime`` (or Google's older ``checkinDate``/
``checkoutDate``), read as the dates written. Both: ``reservationNumber``, ``totalPrice`` (or
``price``, or a ``PriceSpecification``) with ``priceCurrency``.

Containers are opened (a list, ``@graph``, a ``ReservationPackage``'s ``subReservation``), at most
``MAX_NODES`` nodes ``MAX_DEPTH`` deep. ``EventReservation``: ``reservationFor`` is an ``Event`` —
``name``, ``startDate`` (with its offset), ``endDate``, ``location`` (a ``Place`` with ``name``,
``address``, ``geo``); one with no place at all is counted as skipped (it cannot be put on a map).
``TrainReservation``/``BusReservation``: legs between stays when the caller asks for them
(``ground_legs.py``). Any other reservation (rental car, …, and trains and buses otherwise) is
counted by its type and not planned; a cancelled one is counted as such.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from .ground_legs import GROUND_RESERVATIONS, reservation_leg
from .result import Collected
from .values import Context, fail, flight_number, make_event, make_flight, make_hotel, price_of, quoted

MAX_NODES = 2000
MAX_DEPTH = 10
PLANNED = ("FlightReservation", "LodgingReservation", "EventReservation")


def read_reservations(items: list[Any], ctx: Context, found: Collected, source: str) -> int:
    """Adds the items' flights and hotel stays to ``found``; the number of reservations of any
    kind the markup states (0: the file has no booking markup at all)."""
    count = 0
    for res in reservations(items, found):
        count += 1
        kinds = types_of(res)
        if "Cancelled" in _text(res.get("reservationStatus")):
            found.skip("cancelled reservation")
        elif "FlightReservation" in kinds:
            found.add_flight(_flight(ctx, res, count, source))
        elif "LodgingReservation" in kinds:
            found.add_hotel(_hotel(ctx, res, count, source))
        elif "EventReservation" in kinds:
            event = _event(ctx, res, count, source)
            if event is None:
                found.skip("EventReservation without a place")
            else:
                found.add_event(event)
        elif ctx.legs and kinds & GROUND_RESERVATIONS.keys():
            mode = GROUND_RESERVATIONS[sorted(kinds & GROUND_RESERVATIONS.keys())[0]]
            found.add_leg(reservation_leg(ctx, res, mode, count, source, one=_one, text=_text, moment=_moment,
                                          price=_price))
        else:
            found.skip(sorted(kinds)[0])
    return count


def reservations(items: list[Any], found: Collected) -> list[dict]:
    """Every node whose type ends in ``Reservation``, containers opened, in document order."""
    out: list[dict] = []
    stack: list[tuple[Any, int]] = [(item, 0) for item in reversed(items)]
    seen = 0
    while stack:
        node, depth = stack.pop()
        seen += 1
        if seen > MAX_NODES or depth > MAX_DEPTH:
            found.skip("markup past the size cap")
            break
        if isinstance(node, list):
            stack.extend((n, depth + 1) for n in reversed(node))
        elif isinstance(node, dict):
            inner = node.get("@graph", node.get("subReservation"))
            if any(k.endswith("Reservation") and k != "ReservationPackage" for k in types_of(node)):
                out.append(node)
            elif inner is not None:
                stack.append((inner, depth + 1))
    return out


def types_of(node: dict) -> set[str]:
    raw = node.get("@type") or node.get("type") or ""
    names = raw if isinstance(raw, list) else [raw]
    return {str(n).rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1] for n in names if n}


def _flight(ctx: Context, res: dict, n: int, source: str):
    trip = _one(res.get("reservationFor"))
    airline = _one(trip.get("airline")) or _one(trip.get("provider")) or _one(res.get("provider"))
    code = _text(airline.get("iataCode")) or None
    raw_number = _text(trip.get("flightNumber"))
    number = flight_number(raw_number, code)
    what = f"flight {number}" if number else f"flight reservation {n}"
    if number is None and raw_number.isdigit() and not code:
        fail(ctx.label, f"{what}: flight number {quoted(raw_number, 12)} without its airline's code (airline.iataCode)")
    if number is None and raw_number:
        fail(ctx.label, f"{what}: flight number {quoted(raw_number, 12)} is not one (e.g. 'TP 202')")
    return make_flight(ctx, what, carrier=_text(airline.get("name")) or code, number=number,
                       origin=_airport(trip.get("departureAirport")), dest=_airport(trip.get("arrivalAirport")),
                       departure=_moment(ctx, what, trip.get("departureTime"), "departureTime"),
                       arrival=_moment(ctx, what, trip.get("arrivalTime"), "arrivalTime"),
                       code=_text(res.get("reservationNumber") or res.get("reservationId")),
                       price=_price(res), source=source)


def _hotel(ctx: Context, res: dict, n: int, source: str):
    place = _one(res.get("reservationFor"))
    name = _text(place.get("name"))
    what = f"hotel {quoted(name)}" if name else f"hotel reservation {n}"
    return make_hotel(ctx, what, name=name, address=_address(place.get("address")), geo=_geo(place.get("geo")),
                      checkin=_day(ctx, what, res.get("checkinTime") or res.get("checkinDate"), "checkinTime"),
                      checkout=_day(ctx, what, res.get("checkoutTime") or res.get("checkoutDate"), "checkoutTime"),
                      code=_text(res.get("reservationNumber") or res.get("reservationId")),
                      price=_price(res), source=source)


def _event(ctx: Context, res: dict, n: int, source: str):
    """The booked event, or None when the markup gives it no place (no location at all)."""
    event = _one(res.get("reservationFor"))
    name = _text(event.get("name"))
    what = f"event {quoted(name)}" if name else f"event reservation {n}"
    place = _one(event.get("location"))
    venue, address, geo = _text(place.get("name")), _address(place.get("address")), _geo(place.get("geo"))
    if not (venue or address or geo):
        return None
    end = event.get("endDate")
    return make_event(ctx, what, name=name, venue=venue, address=address, geo=geo,
                      start=_moment(ctx, what, event.get("startDate"), "startDate"),
                      end=_moment(ctx, what, end, "endDate") if _text(end) else None,
                      code=_text(res.get("reservationNumber") or res.get("reservationId")),
                      price=_price(res), source=source)


def _moment(ctx: Context, what: str, value: Any, prop: str) -> datetime:
    text = _text(value)
    if not text:
        fail(ctx.label, f"{what}: no {prop}")
    if "T" not in text.upper() and " " not in text.strip():
        fail(ctx.label, f"{what}: {prop} {quoted(text, 30)} has no time of day")
    try:
        return datetime.fromisoformat(text.strip())
    except ValueError:
        fail(ctx.label, f"{what}: {prop} {quoted(text, 30)} is not an ISO 8601 date and time")


def _day(ctx: Context, what: str, value: Any, prop: str) -> date:
    text = _text(value).strip()
    if not text:
        fail(ctx.label, f"{what}: no {prop}")
    try:
        return datetime.fromisoformat(text).date() if len(text) > 10 else date.fromisoformat(text)
    except ValueError:
        fail(ctx.label, f"{what}: {prop} {quoted(text, 30)} is not an ISO 8601 date")


def _airport(value: Any) -> str:
    node = _one(value)
    return _text(node.get("iataCode")) if node else _text(value)


def _address(value: Any) -> str:
    node = _one(value)
    if not node:
        return _text(value)
    country = _one(node.get("addressCountry"))
    town = " ".join(p for p in (_text(node.get("postalCode")), _text(node.get("addressLocality"))) if p)
    parts = (_text(node.get("streetAddress")), town, _text(node.get("addressRegion")),
             _text(country.get("name")) if country else _text(node.get("addressCountry")))
    return ", ".join(p for p in parts if p)


def _geo(value: Any) -> tuple | None:
    node = _one(value)
    if not node or node.get("latitude") in (None, "") or node.get("longitude") in (None, ""):
        return None
    return node.get("latitude"), node.get("longitude")


def _price(res: dict):
    amount = res.get("totalPrice", res.get("price"))
    spec = _one(amount)
    if spec:
        return price_of(spec.get("price"), _text(spec.get("priceCurrency") or res.get("priceCurrency")))
    return price_of(_first(amount), _text(res.get("priceCurrency")))


def _first(value: Any) -> Any:
    return value[0] if isinstance(value, list) and value else value


def _one(value: Any) -> dict:
    """A property's (first) item, or {} when it holds none."""
    value = _first(value)
    return value if isinstance(value, dict) else {}


def _text(value: Any) -> str:
    value = _first(value)
    if isinstance(value, bool) or value is None or isinstance(value, (dict, list)):
        return ""
    return " ".join(str(value).split())[:500]
