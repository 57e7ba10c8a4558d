"""What a booking file becomes: ``BookingsImport`` — the ``Bookings`` value, the kind of file, how
it was read, what was left out by reason, and notes — and ``Collected``, which gathers a reader's
bookings (the same flight once however many passengers the mail lists) and logs the outcome with
confirmation codes masked and no names, e-mail addresses or phone numbers."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

import structlog

from engine.models.bookings import (MAX_BOOKED_EVENTS, MAX_BOOKED_FLIGHTS, BookedEvent, BookedFlight, BookedHotel,
                                   Bookings, masked_code)
from engine.models.multi_city import MAX_STAYS, BookedLeg

from .values import Context, fail

log = structlog.get_logger("tripwright.bookings")

Source = Literal["email", "html", "ics", "pdf", "text"]
ReadBy = Literal["markup", "calendar", "model"]
_SOURCE_NAMES = {"email": "e-mail", "html": "web page", "ics": "calendar file", "pdf": "PDF", "text": "text"}
_READ_BY = {"markup": "schema.org markup", "calendar": "calendar events", "model": "read by the model"}


@dataclass(frozen=True)
class BookingsImport:
    """A file's bookings. ``skipped``: what it holds that is not planned, by reason
    (``{"TrainReservation": 1, "malformed JSON-LD": 1}``); ``notes``: what the summary must say
    (a price left unconverted, text cut short)."""

    bookings: Bookings
    source: Source
    read_by: ReadBy
    skipped: dict[str, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    legs: tuple[BookedLeg, ...] = ()  # trains and buses between stays, read when asked (``legs=True``)

    def summary(self) -> str:
        """One line for a terminal or a status bar; confirmation codes masked, no names."""
        parts = [f"{_SOURCE_NAMES[self.source]} ({_READ_BY[self.read_by]})"]
        flights = self.bookings.flights
        if flights:
            listed = ", ".join(flight_line(f) for f in flights)
            parts.append(f"{len(flights)} flight{'s' if len(flights) > 1 else ''}: {listed}")
        if self.bookings.hotel is not None:
            parts.append(hotel_line(self.bookings.hotel))
        parts.extend(event_line(e) for e in self.bookings.events)
        parts.extend(leg_line(leg) for leg in self.legs)
        if self.skipped:
            parts.append("skipped: " + ", ".join(f"{k} {n}" for k, n in sorted(self.skipped.items())))
        parts.extend(self.notes)
        return "; ".join(parts)


def flight_line(f: BookedFlight) -> str:
    code = f" [{masked_code(f.confirmation)}]" if f.confirmation else ""
    return f"{f.flight_number} {f.origin}→{f.dest} {f.departure:%Y-%m-%d %H:%M}{code}"


def hotel_line(h: BookedHotel) -> str:
    nights = (h.checkout - h.checkin).days
    code = f" [{masked_code(h.confirmation)}]" if h.confirmation else ""
    return f"hotel {h.name} {h.checkin.isoformat()}→{h.checkout.isoformat()} ({nights} night{'s' * (nights > 1)}){code}"


def event_line(e: BookedEvent) -> str:
    code = f" [{masked_code(e.confirmation)}]" if e.confirmation else ""
    where = f" at {e.venue}" if e.venue else ""
    return f"event {e.name}{where} {e.start:%Y-%m-%d %H:%M}{code}"


def leg_line(leg: BookedLeg) -> str:
    code = f" [{masked_code(leg.confirmation)}]" if leg.confirmation else ""
    number = f" {leg.number}" if leg.number else ""
    return f"{leg.mode}{number} {leg.from_name}→{leg.to_name} {leg.departure:%Y-%m-%d %H:%M}{code}"


class Collected:
    """A reader's findings in file order: flights once each (by number and departure), hotel
    stays once each, and what was skipped."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.flights: dict[tuple[str, object], BookedFlight] = {}
        self.hotels: dict[tuple[str, object, object], BookedHotel] = {}
        self.events: dict[tuple[str, object], BookedEvent] = {}
        self.legs: dict[tuple[str, str, object], BookedLeg] = {}
        self.skipped: Counter[str] = Counter()

    @property
    def empty(self) -> bool:
        return not self.flights and not self.hotels and not self.events and not self.legs

    def add_event(self, event: BookedEvent) -> None:
        self.events.setdefault((event.name.casefold(), event.start), event)

    def add_flight(self, flight: BookedFlight) -> None:
        self.flights.setdefault((flight.flight_number.replace(" ", ""), flight.departure), flight)

    def add_leg(self, leg: BookedLeg) -> None:
        self.legs.setdefault((leg.mode, leg.number.replace(" ", ""), leg.departure), leg)

    def add_hotel(self, hotel: BookedHotel) -> None:
        self.hotels.setdefault((hotel.name.casefold(), hotel.checkin, hotel.checkout), hotel)

    def skip(self, reason: str, count: int = 1) -> None:
        if count > 0:
            self.skipped[reason] += count

    def result(self, source: Source, read_by: ReadBy) -> BookingsImport:
        if self.empty:
            why = "; ".join(f"{k}: {n}" for k, n in sorted(self.skipped.items()))
            kinds = "flight, hotel, event, train or bus" if self.ctx.legs else "flight, hotel or event"
            fail(self.ctx.label, f"holds no {kinds} booking" + (f" ({why})" if why else ""))
        flights = _shared_totals(sorted(self.flights.values(), key=lambda f: f.departure), self.ctx)
        if len(flights) > MAX_BOOKED_FLIGHTS:
            fail(self.ctx.label, f"holds {len(flights)} flights; at most {MAX_BOOKED_FLIGHTS} are planned from one trip")
        hotels = sorted(self.hotels.values(), key=lambda h: h.checkin)
        self.skip("more hotel stays (one a trip is planned)", len(hotels) - 1)
        events = sorted(self.events.values(), key=lambda e: e.start)
        if len(events) > MAX_BOOKED_EVENTS:
            fail(self.ctx.label, f"holds {len(events)} events; at most {MAX_BOOKED_EVENTS} are planned from one trip")
        legs = sorted(self.legs.values(), key=lambda leg: leg.departure)
        if len(legs) > MAX_STAYS:
            fail(self.ctx.label, f"holds {len(legs)} train and bus tickets; a trip of at most {MAX_STAYS} stays "
                                 f"has at most {MAX_STAYS} legs")
        found = BookingsImport(bookings=Bookings(flights=flights, hotel=hotels[0] if hotels else None, events=events),
                               source=source, read_by=read_by, skipped=dict(self.skipped),
                               notes=tuple(self.ctx.notes), legs=tuple(legs))
        log.info("bookings_read", source=source, read_by=read_by,
                 flights=[f"{f.flight_number} {f.origin}-{f.dest}" for f in flights],
                 hotel=bool(hotels), events=len(events), legs=[f"{g.mode} {g.number}" for g in legs],
                 codes=sorted({masked_code(b.confirmation) for b in [*flights, *hotels, *events, *legs]
                                                   if b.confirmation}),
                 skipped=dict(self.skipped))
        return found


def _shared_totals(flights: list[BookedFlight], ctx: Context) -> list[BookedFlight]:
    """A booking's total repeated on each of its flights (airlines mark up every leg with the
    reservation's ``totalPrice``) is split between them, so the trip counts it once."""
    groups: dict[tuple[str, int], list[int]] = {}
    for i, f in enumerate(flights):
        if f.confirmation and f.price_usd_cents is not None:
            groups.setdefault((f.confirmation, f.price_usd_cents), []).append(i)
    out = list(flights)
    for (code, total), members in groups.items():
        if len(members) < 2:
            continue
        share, rest = divmod(total, len(members))
        for k, i in enumerate(members):
            out[i] = out[i].model_copy(update={"price_usd_cents": share + (1 if k < rest else 0)})
        ctx.note(f"one price of booking {masked_code(code)} split between its {len(members)} flights")
    return out
