"""A saved trip read on one of its days (issue 36 §1): ``read_today(itinerary, now)`` → ``TodayV1``.

Pure: the itinerary and a clock in, an answer out; nothing is asked of a tool here and the
itinerary is never changed. What needs the tools — the next place's opening hours, a first
visit's leg from the hotel, the live forecast — is passed in by ``engine/today_sources.py``.

- **Under way**: today (``now`` read in each day's zone: the trip's, or a road-trip day's own
  ``tz``) is one of the itinerary's dates.
- **Now**: the activity with ``start ≤ now < end`` (a transfer too: "on the way"); omitted rows never.
- **Next**: the first visit, meal, check-in/out or flight starting after ``now`` (tomorrow's
  first, when today's are done).
- **Leave at**: the next activity's start minus the transfer the plan has before it (a city
  plan's "Metro transfer", a road trip's "Drive to …"); for a departing flight, the transfer's own
  start (the plan keeps the airport buffer there). No transfer before a day's first visit from
  the hotel: the leg ``hotel_leg`` gives (the transit tool the plan used), else no leave time.
- **Open**: the next place's windows on its date (``venue`` gives its ``Attraction``, whose
  ``windows_on`` reads the venue's ``opening_hours`` rule by date).
- **Weather**: a live forecast when one is given, else the plan's own weather claim for the day.
- **Bookings**: today's flights (leaving or landing today), the hotel while today is within its
  stay, today's booked events — from ``intent.bookings``, with their confirmation codes.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Callable
from zoneinfo import ZoneInfo

from engine.clocks import wall_moment, wall_span
from engine.errors import InputError
from engine.models import Activity, Attraction, DayItinerary, Geo, ItineraryV1, TransitLeg, WeatherDay
from engine.models.dated_hours import END_OF_DAY
from engine.models.today import TodayBooking, TodayHours, TodayLeg, TodayV1, TodayWeather

VenueFn = Callable[[Activity], "Attraction | None"]
HotelLegFn = Callable[[Geo, Geo, date], "TransitLeg | None"]
NOT_NEXT = ("transfer", "omitted")  # rows that are never "what is next"
VENUE_ROLES = ("activity", "meal")
MODES = ("walk", "metro", "bus", "taxi")


def trip_zone(itin: ItineraryV1, day: DayItinerary) -> ZoneInfo:
    """The zone a day's clock reads in: the day's own (road trips), else the trip's."""
    if day.tz:
        return ZoneInfo(day.tz)
    intent = itin.intent
    if intent.mode == "city":
        return ZoneInfo(intent.date_window.tz)
    found = next((a.start_tz for a in day.activities if a.start_tz), None)
    return ZoneInfo(found or "UTC")


def today_index(itin: ItineraryV1, now: datetime) -> int | None:
    """The index of the day whose date is ``now``'s date in that day's zone, or None."""
    _aware(now)
    for i, day in enumerate(itin.days):
        if now.astimezone(trip_zone(itin, day)).date() == day.date:
            return i
    return None


def on_trip_clock(itin: ItineraryV1, given: datetime) -> datetime:
    """``given`` as an aware moment: kept when it has an offset; a plain local time is read on the
    clock of the trip's day of that date (a road trip's own zone that day), else the first day's."""
    if given.tzinfo is not None and given.utcoffset() is not None:
        return given
    if not itin.days:
        raise InputError("itinerary", "this trip has no days to read")
    day = next((d for d in itin.days if d.date == given.date()), itin.days[0])
    return wall_moment(given.date(), given.time(), trip_zone(itin, day))


def day_place(day: DayItinerary, itin: ItineraryV1) -> Geo | None:
    """Where the day's weather is asked: a road day's overnight stop, else its first place."""
    if day.anchor is not None and day.anchor.geo is not None:
        return day.anchor.geo
    found = next((a.geo for a in day.activities if a.geo is not None and a.kind.value != "flight"), None)
    return found or next((a.geo for d in itin.days for a in d.activities if a.role == "checkin" and a.geo), None)


def trip_place(itin: ItineraryV1) -> str:
    intent = itin.intent
    return intent.city if intent.mode == "city" else f"{intent.origin} \u2192 {intent.terminus}"


def read_today(itin: ItineraryV1, now: datetime, *, venue: VenueFn | None = None,
               hotel_leg: HotelLegFn | None = None, live_weather: WeatherDay | None = None) -> TodayV1:
    """What the trip is doing at ``now`` (an aware datetime; a naive one is an ``InputError``)."""
    _aware(now)
    if not itin.days:
        raise InputError("itinerary", "this trip has no days to read")
    first, last = itin.days[0], itin.days[-1]
    di = today_index(itin, now)
    if di is None:
        zone = trip_zone(itin, first)
        return TodayV1(at=now.astimezone(zone), under_way=False, mode=itin.intent.mode, place=trip_place(itin),
                       first_day=first.date, last_day=last.date, tz=zone.key)
    day = itin.days[di]
    zone = trip_zone(itin, day)
    spans = _spans(itin)
    current = next((a for a, s, e, _ in spans if s <= now < e and a.role != "omitted"), None)
    following = next(((a, s, d) for a, s, _, d in spans if s > now and a.role not in NOT_NEXT and a is not current),
                     None)
    leave = how = hours = None
    leave_date = None
    if following is not None:
        nxt, start, nday = following
        how = _leg_before(itin, nday, nxt, hotel_leg)
        leave = _leave_moment(nday, nxt, start, how)
        leave_date = leave.date() if leave is not None else None
        found = venue(nxt) if venue is not None and nxt.role in VENUE_ROLES else None
        if found is not None:
            hours = _hours(found, start, now, today=nday is day)
    return TodayV1(at=now.astimezone(zone), under_way=True, mode=itin.intent.mode, place=trip_place(itin),
                   first_day=first.date, last_day=last.date, tz=zone.key, day_index=di, day_date=day.date, now=current,
                   next=following[0] if following else None,
                   leave_at=f"{leave:%H:%M}" if leave is not None else None, leave_date=leave_date,
                   leave_in_minutes=_minutes_until(now, leave) if leave is not None else None,
                   how=how, hours=hours, weather=_weather(itin, day, live_weather), bookings=_bookings(itin, day.date))


def _aware(now: datetime) -> None:
    if now.tzinfo is None or now.utcoffset() is None:
        raise InputError("now", "give the time with its UTC offset, e.g. 2027-06-16T10:40:00+02:00")


def _spans(itin: ItineraryV1) -> list[tuple[Activity, datetime, datetime, DayItinerary]]:
    """Every activity with its true start and end (older files without them: the window on the
    day's clock), in time order."""
    rows: list[tuple[Activity, datetime, datetime, DayItinerary]] = []
    for day in itin.days:
        zone = trip_zone(itin, day)
        for a in day.activities:
            start, end = (a.start, a.end) if a.start is not None and a.end is not None \
                else wall_span(day.date, a.window, zone)
            rows.append((a, start, end, day))
    rows.sort(key=lambda r: (r[1].astimezone(UTC), r[0].role != "transfer"))
    return rows


def _rows_before(day: DayItinerary, nxt: Activity) -> list[Activity]:
    """The day's rows before ``nxt`` (omitted rows left out)."""
    at = next(i for i, a in enumerate(day.activities) if a is nxt)
    return [a for a in day.activities[:at] if a.role != "omitted"]


def _leg_before(itin: ItineraryV1, day: DayItinerary, nxt: Activity, hotel_leg: HotelLegFn | None) -> TodayLeg | None:
    """The transfer the plan has right before ``nxt`` on its day; for a day's first visit (the
    plan writes no morning ride from the hotel), the leg ``hotel_leg`` gives."""
    before = _rows_before(day, nxt)
    if before and before[-1].role == "transfer":
        t = before[-1]
        return TodayLeg(name=t.name, mode=_mode(t), minutes=t.window.minutes, notes=t.notes)
    if before or hotel_leg is None or nxt.geo is None or nxt.role not in VENUE_ROLES:
        return None
    hotel = next((a.geo for d in itin.days for a in d.activities if a.role == "checkin" and a.geo), None)
    leg = hotel_leg(hotel, nxt.geo, day.date) if hotel is not None else None
    if leg is None or leg.duration_seconds <= 0:
        return None
    mode = leg.mode.value
    return TodayLeg(name=f"{mode.title()} from the hotel", mode=mode, minutes=max(1, leg.duration_seconds // 60),
                    notes=f"{mode}, {leg.distance_m / 1000:.1f} km, about {leg.duration_seconds // 60} min",
                    from_plan=False)


def _mode(transfer: Activity) -> str | None:
    """The leg's mode as the plan wrote it: a city transfer's note opens with it ("metro, 1.3
    km, …"); a road trip's transfers are drives."""
    word = transfer.notes.split(",", 1)[0].strip().lower()
    if word in MODES:
        return word
    return "drive" if transfer.name.startswith("Drive") else None


def _leave_moment(day: DayItinerary, nxt: Activity, start: datetime, how: TodayLeg | None) -> datetime | None:
    if how is None:
        return None
    if nxt.role == "departure" and how.from_plan:  # the plan's own leaving time keeps the airport buffer
        transfer = _rows_before(day, nxt)[-1]
        if transfer.start is not None:
            return transfer.start
    return (start.astimezone(UTC) - timedelta(minutes=how.minutes)).astimezone(start.tzinfo)


def _minutes_until(now: datetime, then: datetime) -> int:
    return int((then.astimezone(UTC) - now.astimezone(UTC)).total_seconds() // 60)


def _hours(place: Attraction, start: datetime, now: datetime, *, today: bool) -> TodayHours:
    """The place's windows on the date of ``start``; open at ``now`` (when it is that day) and at ``start``."""
    on = start.date()
    arrive = start.timetz().replace(tzinfo=None)
    here_now = now.astimezone(start.tzinfo).time().replace(second=0, microsecond=0)
    windows = list(place.windows_on(on))
    return TodayHours(known=place.hours_known, windows=windows,
                      open_now=_open_at(place, on, here_now) if today else None,
                      open_at_arrival=_open_at(place, on, arrive.replace(second=0, microsecond=0)),
                      note=place.note_on(on))


def _open_at(place: Attraction, on: date, at: time) -> bool:
    """Some window of the date (none on a blackout date) holds ``at``; a window open to 24:00
    ends at 23:59 by the engine's convention and holds that last minute too."""
    return any(w.start <= at < w.end or at == w.end == END_OF_DAY for w in place.windows_on(on))


def _weather(itin: ItineraryV1, day: DayItinerary, live: WeatherDay | None) -> TodayWeather | None:
    if live is not None and live.provenance.data_source in ("real", "cache") and not live.typical:
        from engine.tools.weather import weather_credit
        return TodayWeather(said=f"Forecast: {live.precip_prob:.0%} chance of rain, {live.temp_c_low:.0f}\u2013"
                                 f"{live.temp_c_high:.0f} \u00b0C{weather_credit(live.provenance)}",
                            source="live", precip_prob=live.precip_prob, temp_c_low=live.temp_c_low,
                            temp_c_high=live.temp_c_high)
    stamp = f" {day.date.isoformat()}: "
    claim = next((c.claim for c in itin.citations if stamp in c.claim and "chance of rain" in c.claim), None)
    if claim is not None:
        return TodayWeather(said=claim, source="plan")
    if live is not None:
        label = "Typical weather" if live.typical else "Forecast"
        return TodayWeather(said=f"{label}: {live.precip_prob:.0%} chance of rain, {live.temp_c_low:.0f}\u2013"
                                 f"{live.temp_c_high:.0f} \u00b0C", source="typical", precip_prob=live.precip_prob,
                            temp_c_low=live.temp_c_low, temp_c_high=live.temp_c_high)
    return None


def _bookings(itin: ItineraryV1, on: date) -> list[TodayBooking]:
    held = itin.intent.bookings
    if held is None:
        return []
    out = []
    for f in held.flights:
        if f.source == "delay":  # a late flight kept at its new time (engine/replan_now/delay.py), no booking held
            continue
        if on in (f.departure.date(), f.arrival.date()):
            out.append(TodayBooking(kind="flight", what=f"{f.flight_number} {f.origin}\u2192{f.dest} "
                                                        f"{f.departure:%H:%M}\u2013{f.arrival:%H:%M}",
                                    confirmation=f.confirmation))
    hotel = held.hotel
    if hotel is not None and hotel.checkin <= on <= hotel.checkout:
        when = " (check-in)" if on == hotel.checkin else " (check-out)" if on == hotel.checkout else ""
        out.append(TodayBooking(kind="hotel", what=hotel.name + when, confirmation=hotel.confirmation))
    for e in held.events:
        if e.start.date() == on:
            out.append(TodayBooking(kind="event", what=f"{e.name} {e.start:%H:%M}", confirmation=e.confirmation))
    return out
