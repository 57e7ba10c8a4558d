"""A road trip's booked lodging (issue 21 §1): the night it was booked for is a fixed anchor.

The hotel's check-in date names the night: check-in on the trip's start date is night 1, the
night after day 1's drive. On the corridor (within the width the planner uses), the booked place
*is* that night's stop: the overnight choice must end that day there and the other nights are
chosen around it. Off the corridor it is still that night's bed and stop — the day's miles count
the way out to it and back — and the plan says how far from the route it lies. A stay of several
nights adds a rest day there for each night after the first. Its facts are the traveller's
(``data_source = "user"``, the confirmation code shown in the itinerary, masked in logs); a
booking outside the trip's nights, or a place the run could not locate, is one line naming it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import date, timedelta

from engine.errors import InputError
from engine.geocode.trust import geodesic_miles
from engine.models.bookings import masked_code

from .detours import DETOUR_FACTOR
from .plan import Bed, RoadDay, Town
from .rest_days import SAME_TOWN_MILES

SAME_PLACE_MILES = 1.0  # a night this near the booked point is spent there (verify)
TOWN_NAME_MILES = 5.0  # a route town this near the booking names the night's stop


@dataclass(frozen=True)
class BookedNight:
    """The booked lodging of a road trip: where, which nights (``first``: the index of the day
    whose drive ends there), and what the traveller said about it."""

    name: str
    lat: float
    lon: float
    checkin: date
    checkout: date
    first: int
    night_usd_cents: int  # one room, one night: the stay's price over its nights (0 when not given)
    confirmation: str = ""
    paid: bool = False

    @property
    def point(self) -> tuple[float, float]:
        return (self.lat, self.lon)

    @property
    def nights(self) -> int:
        return (self.checkout - self.checkin).days

    @property
    def number(self) -> int:
        """The night as the traveller counts them: 1 for the night after day 1."""
        return self.first + 1

    def covers(self, night: date) -> bool:
        return self.checkin <= night < self.checkout

    def said(self) -> str:
        """How logs and messages name it: the confirmation code masked."""
        code = masked_code(self.confirmation)
        return f"{self.name}" + (f" (confirmation {code})" if code else "")

    def bed(self) -> Bed:
        """Its bed: priced as booked a night, nothing when already paid (the trip's costs are what is
        still to pay, as a city trip's budget leaves a paid booking out)."""
        return Bed(name=self.name, lat=self.lat, lon=self.lon, kind="booked",
                   price_usd_cents=0 if self.paid else self.night_usd_cents, estimated=False, data_source="user",
                   confirmation=self.confirmation, paid=self.paid)

    def place(self, towns, country: str, geocoder=None) -> Town:
        """The night's stop at the booked point, named by the town it is in: the corridor's own
        (``towns``, as :class:`.day_stops.DayStopPicker` holds them), else the gazetteer's largest
        place that near; the booking's name when it is in no town."""
        near = min(((geodesic_miles(self.point, (t.town.lat, t.town.lon)), t.town) for t in towns),
                   key=lambda mt: mt[0], default=(None, None))
        town = near[1] if near[0] is not None and near[0] <= TOWN_NAME_MILES else None
        if town is None and getattr(geocoder, "nearby", None) is not None:
            found = geocoder.nearby(self.lat, self.lon, radius_miles=TOWN_NAME_MILES, min_population=500, limit=1)
            town = found[0] if found else None
        return Town(name=town.name if town else self.name, lat=self.lat, lon=self.lon,
                     admin1=getattr(town, "admin1", "") or "", country=town.country if town else country,
                     source="user", note=f"your booking: {self.name}")


def booked_night(intent) -> BookedNight | None:
    """The road intent's booked hotel as a night of the trip, its dates checked; None without one."""
    check_road_bookings(intent)
    hotel = intent.bookings.hotel if intent.bookings else None
    if hotel is None:
        return None
    if hotel.geo is None:
        raise InputError("bookings.hotel.geo", f"where {hotel.name} is: give its coordinates (the booking has "
                                               "only an address; plan online to look it up)")
    nights = (hotel.checkout - hotel.checkin).days
    price = (hotel.price_usd_cents or 0) // max(1, nights)
    return BookedNight(name=hotel.name, lat=hotel.geo.lat, lon=hotel.geo.lon, checkin=hotel.checkin,
                       checkout=hotel.checkout, first=(hotel.checkin - intent.start_date).days,
                       night_usd_cents=price, confirmation=hotel.confirmation or "", paid=hotel.paid)


def booked_nights(intent) -> int:
    """How many nights the road intent's booking holds (0 without one)."""
    hotel = intent.bookings.hotel if getattr(intent, "bookings", None) else None
    return 0 if hotel is None else (hotel.checkout - hotel.checkin).days


def keep_booked_night(intent, night: date) -> None:
    """A map edit that would move the night of ``night`` elsewhere, refused when it is the booked one."""
    hotel = intent.bookings.hotel if getattr(intent, "bookings", None) else None
    if hotel is not None and hotel.checkin <= night < hotel.checkout:
        raise InputError("bookings.hotel", f"the night of {night} is your booking at {hotel.name}: it stays there "
                                           "(change the booking in \u201cI already have\u201d to move it)")


def check_road_bookings(intent) -> None:
    """What a road trip can take of the traveller's bookings, refused before anything runs: one
    lodging, on nights of the trip (the last day ends at the terminus, with no night)."""
    bookings = intent.bookings
    if bookings is None:
        return
    if bookings.flights:
        f = bookings.flights[0]
        raise InputError("bookings.flights", f"flight {f.flight_number} {f.origin}→{f.dest}: a road trip plans no "
                                             "flights; book the drive's lodging only")
    if bookings.events:
        e = bookings.events[0]
        raise InputError("bookings.events", f"event {e.name} ({e.start:%Y-%m-%d %H:%M}): tickets are planned on city "
                                            "trips; on a road trip add its place as a stop on the map")
    hotel = bookings.hotel
    if hotel is None:
        return
    first, last = intent.start_date, intent.start_date + timedelta(days=intent.days - 2)
    if intent.days < 2 or hotel.checkin < first or hotel.checkout > last + timedelta(days=1):
        nights = (f"its nights run {first} to {last} (check-out {last + timedelta(days=1)})" if intent.days >= 2
                  else "a one-day trip has no night")
        raise InputError("bookings.hotel", f"{hotel.name} is booked {hotel.checkin} to {hotel.checkout}, but the "
                                           f"road trip starts {first} and lasts {intent.days} day(s): {nights}")


def booked_point(intent, night: date, stated: tuple[float, float]) -> tuple[float, float] | None:
    """The booking's own point when ``night`` is a booked one and ``stated`` is there (verify takes
    the traveller's point for that night, not the town's); else None."""
    hotel = intent.bookings.hotel if getattr(intent, "bookings", None) else None
    if hotel is None or hotel.geo is None or not hotel.checkin <= night < hotel.checkout:
        return None
    point = (hotel.geo.lat, hotel.geo.lon)
    return point if geodesic_miles(point, stated) <= SAME_PLACE_MILES else None


def booked_spur(intent, corridor, point: tuple[float, float]) -> float:
    """The road out to the booked place from the corridor (:meth:`Pin.spur`) when ``point`` is it,
    else 0: ``tripwright verify`` re-derives a day's miles with it, as the planner counted them."""
    hotel = intent.bookings.hotel if getattr(intent, "bookings", None) else None
    if hotel is None or hotel.geo is None or geodesic_miles(point, (hotel.geo.lat, hotel.geo.lon)) > SAME_PLACE_MILES:
        return 0.0
    return DETOUR_FACTOR * corridor.offset_miles(*point)


def booked_day_message(booked: BookedNight, day_anchor: Town, day_date: date) -> str | None:
    """Why a plan's night is not at the booking (verify), or None when it is."""
    away = geodesic_miles(day_anchor.point, booked.point)
    if away <= SAME_PLACE_MILES:
        return None
    return (f"night of {day_date} is at {day_anchor.label}, {away:.0f} mi from {booked.said()} booked for it")


@dataclass(frozen=True)
class Pin:
    """The booked night among the days that drive: ``index`` counts driving days only (the
    traveller's rest days before it taken out), so the legs can end that day at ``place``."""

    booked: BookedNight
    place: Town
    progress: float
    index: int

    def shifted(self, days: int) -> "Pin":
        return Pin(self.booked, self.place, self.progress, self.index - days)

    def spur(self, place: Town, corridor) -> float:
        """Road miles from the corridor out to the booked place (and as many back the next day):
        a night booked off the route is reached by a road of its own, not on the way."""
        return DETOUR_FACTOR * corridor.offset_miles(*place.point) if place == self.place else 0.0

    def refuse(self, why: str) -> InputError:
        b = self.booked
        return InputError("bookings.hotel", f"{b.name}, booked for night {b.number} ({b.checkin}): {why}")


def pin_for(b: BookedNight, corridor, width: float, stops, country: str, rests: list[Town], out_days: int | None,
            log: list[str]) -> Pin:
    """The booked night as a fixed end of a day; off the corridor it is still that night's stop
    (the day's miles count the way out to it) and ``log`` says how far. ``stops``: the planner's
    :class:`.day_stops.DayStopPicker` (its towns and gazetteer name the place)."""
    place = b.place(stops.towns, country, stops.geocoder)
    p, off = corridor.progress_miles(*place.point), corridor.offset_miles(*place.point)
    rests = [r for r in rests if geodesic_miles(r.point, b.point) > SAME_TOWN_MILES]  # those come after it
    if off > width:
        log.append(f"{b.said()} is {off:.0f} mi from {corridor.name} (corridor {width:.0f} mi): night {b.number} "
                   "is there as booked, its day's miles include the way out and back")
    return Pin(b, place, p, driving_index(b, p, [corridor.progress_miles(*r.point) for r in rests], out_days))


def driving_index(booked: BookedNight, progress: float, rest_progress: list[float], out_days: int | None) -> int:
    """The booked night's day among the driving days: the traveller's rest days come after their
    town's night, so those whose town lies before the booking (all of them, when the booking is on
    a round trip's way back — rest towns are outbound nights) are taken out."""
    before = booked.first - sum(1 for p in rest_progress if p < progress)
    if out_days is not None and before >= out_days:
        return booked.first - len(rest_progress)
    return before


class BookedNights:
    """The planner's part for the booked night (a mixin of :class:`.planner.RoadTripPlanner`,
    reading its ``booked``, ``pin``, ``intent``, ``corridor``, ``stops``, ``origin`` and ``log``)."""

    def _pin(self, p0: float) -> Pin | None:
        """The booked night as a fixed end of a day (:func:`.booked_night.pin_for`)."""
        if self.booked is None:
            return None
        out_days = None if self.intent.trip_type == "one_way" else max(1, math.ceil(self.intent.days / 2))
        return pin_for(self.booked, self.corridor, self.intent.corridor_max_deviation_miles, self.stops,
                       self.origin.country, self._rest_places(), out_days, self.log)

    def _spur(self, place: Town) -> float:
        return 0.0 if self.pin is None else self.pin.spur(place, self.corridor)

    def _booked_rests(self) -> int:
        """The rest days a booked stay adds: a night for each after the first, less the traveller's
        own rest days in that town (they are those nights); the days those give back drive."""
        if self.booked is None or self.booked.nights < 2:
            return 0
        same = sum(1 for r in self._rest_places() if geodesic_miles(r.point, self.booked.point) <= SAME_TOWN_MILES)
        overlap = min(same, self.booked.nights - 1)
        self.intent = self.intent.model_copy(update={"days": self.intent.days + overlap})
        return self.booked.nights - 1 - overlap

    def _unpinned(self, fixed: list) -> list:
        """The fixed nights but a stop or proposed night in the booked town on the way there: the
        booked night is that stop (sleeping there again on a round trip's way back stays)."""
        pin = self.pin
        if pin is None or (self.intent.trip_type != "one_way" and pin.index >= max(1, math.ceil(self.intent.days / 2))
                           and not self._on_loop(self.origin, self.terminus)):
            return fixed
        return [f for f in fixed if geodesic_miles(f[0].point, pin.place.point) > SAME_TOWN_MILES]

    def _past_booking(self, rest: RoadDay) -> RoadDay:
        """A rest day after the booked stay's last night keeps the town, not the booked bed."""
        if rest.bed is None or rest.bed.data_source != "user" or self.booked.covers(rest.date):
            return rest
        return replace(rest, bed=None, bed_note=f"{self.booked.name} is booked until {self.booked.checkout}: "
                                                "this night is not booked")
