"""A stay's city before its pack is joined: the one-city intent the city_pack node fits (a catalog
city's own airports and zone, placeholders otherwise — as the form sends them), and where the stay
is once the city is in the catalog."""

from __future__ import annotations

from datetime import date

from engine.errors import InputError
from engine.models import Geo, IntentV1, MultiCityIntent
from engine.models.intent import StayIntent

from .stays import StayPlace, stay_offsets

# what a city without a pack yet is sent with (as the form does: engine.frontend.PENDING_*), until
# the city_pack node puts in the pack city's own
PENDING_AIRPORT = "XXX"
PENDING_TZ = "UTC"


def city_target(catalog, name: str) -> tuple[str, list[str], str]:
    if catalog.has_city(name):
        city = catalog.city(name)
        return city.name, list(city.airports), city.tz
    return name, [PENDING_AIRPORT], PENDING_TZ


def provisional_intent(intent: MultiCityIntent, k: int, catalog) -> StayIntent:
    city, airports, tz = city_target(catalog, intent.stays[k].city)
    asked = [c for c in intent.stays[k].airports if c in airports or airports == [PENDING_AIRPORT]]
    airports = asked or airports  # the stay's own choice first
    first = date.fromordinal(intent.start_date.toordinal() + stay_offsets(intent)[k])
    last = date.fromordinal(first.toordinal() + intent.stays[k].nights)
    if intent.origin_airport in airports:
        raise InputError("origin_airport", f"{intent.origin_airport} is {city}'s own airport; "
                                           "choose the airport you fly from")
    return StayIntent.model_validate({"city": city, "date_window": {"start": first, "end": last, "tz": tz},
                                    "budget_usd_cents": intent.budget_usd_cents, "airports": airports,
                                    "origin_airport": intent.origin_airport, "travellers": intent.travellers})


def stay_place(k: int, fitted: IntentV1, catalog, intent: MultiCityIntent | None = None) -> StayPlace:
    """Where stay ``k`` is; an airport the traveller's booked flight lands at (the first stay) or
    leaves from (the last, flying home from it) comes first: the stay's plan uses that one."""
    city = catalog.city(fitted.city)
    center = city.center
    airports = list(fitted.airports) or list(city.airports)
    booked = intent.bookings.flights if intent is not None and intent.bookings is not None else []
    last = intent is not None and k == len(intent.stays) - 1 and intent.return_from == "last"
    used = [f.dest for f in booked if k == 0 and f.dest in city.airports]
    used += [f.origin for f in booked if last and f.origin in city.airports]
    airports = list(dict.fromkeys([*used[:1], *airports]))
    return StayPlace(index=k, city=city.name, airports=airports, tz=city.tz, geo=Geo(lat=center.lat, lon=center.lon))
