"""A city's places as the planner reads them, whatever their source (issue 30 §1).

A ``CityPlace`` is a :class:`~engine.models.place.Place` (what the source says: identity, kind,
names, point, the source's hours or none, fame, provenance) plus the facts a city plan is made
with, decided once where the city is read:

- ``opening_hours``: the rule planned with, and ``hours_known`` — False when nobody published
  hours and the rule is a cautious assumption;
- ``price`` in the city's currency (admission, a meal per person, a night), and
  ``price_estimated`` when no source gave it;
- ``minutes``: a visit's usual length; ``themes`` it is planned for;
- a restaurant's ``meals`` and ``cuisine``, a bed's ``tier`` and check-in/out windows;
- ``verified_on``, ``note`` and ``address`` for the itinerary.

Both sources give the same shape: a fixture city's rows (``schema.RawVenue`` …, the on-disk
format) are read into it here (``places_of``); a city pack's Places are turned into it in
``engine/places/pack_city.py`` (its sights directly; its places to eat and stay still through
the row their pricing builds, ``eatery``/``bed`` with the pack's own Place). The attractions, dining and lodging tools build the planner's
``Attraction``/``Lodging`` from it, one function each, for both.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from engine.models import Geo, Tier
from engine.models.place import Place

from .schema import CityBase, RawCity, RawHotel, RawRestaurant, RawVenue

MEAL_MINUTES = 75  # a sit-down meal, as the planner schedules it


@dataclass(frozen=True, slots=True)
class CityPlace:
    """One sight, place to eat or place to stay of a city, with the facts it is planned with."""

    place: Place
    geo: Geo
    opening_hours: str  # the rule planned with ("" for a place to stay)
    hours_known: bool  # False: no published hours; ``opening_hours`` is an assumption
    price: float  # in the city's currency: admission, a meal per person or a night
    price_estimated: bool
    minutes: int  # a visit's usual length
    kid_friendly: bool | None  # as planned: a place to eat nobody said of is not, a hostel is not
    themes: tuple[str, ...] = ()
    verified_on: date | None = None
    note: str | None = None
    address: str | None = None
    meals: tuple[str, ...] = ()  # a place to eat: "lunch", "dinner"
    cuisine: str = ""
    tier: Tier | None = None  # a place to stay: its tier and its windows ("15:00-24:00")
    checkin: str = ""
    checkout: str = ""

    @property
    def id(self) -> str:
        return self.place.ref

    @property
    def name(self) -> str:
        return self.place.name

    @property
    def kind(self) -> str:
        return self.place.kind

    @property
    def names(self) -> dict[str, str]:
        """Its name in every language its source gives (a saved place matches any of them)."""
        return self.place.names

    @property
    def indoor(self) -> bool | None:
        return self.place.indoor

    @property
    def data_source(self) -> str:
        return self.place.data_source

    @property
    def source_url(self) -> str:
        return self.place.source_url


def places_of(raw: CityBase) -> tuple[list[CityPlace], list[CityPlace], list[CityPlace]]:
    """A city's (sights, places to eat, places to stay): a fixture city's rows read into
    ``CityPlace``; a city that holds them already (a pack) gives its own."""
    if isinstance(raw, RawCity):
        return [sight(v) for v in raw.venues], [eatery(r) for r in raw.restaurants], [bed(h) for h in raw.hotels]
    return list(raw.venues), list(raw.restaurants), list(raw.hotels)  # type: ignore[attr-defined]


def sight(v: RawVenue) -> CityPlace:
    """A fixture's venue row (its price in the city's currency: a planning fact, not the Place's USD)."""
    place = Place(ref=v.id, kind="sight", name=v.name, lat=v.geo.lat, lon=v.geo.lon,
                  hours=v.opening_hours if v.hours_known else None, price_estimated=v.price_estimated,
                  indoor=v.indoor, kid_friendly=v.kid_friendly, venue_type=v.venue_type.value,
                  themes=tuple(v.themes), minutes=v.duration_minutes, data_source=v.data_source,
                  source_url=v.source_url, names=v.names)
    return CityPlace(place=place, geo=v.geo, opening_hours=v.opening_hours, hours_known=v.hours_known,
                     price=v.price, price_estimated=v.price_estimated, minutes=v.duration_minutes,
                     kid_friendly=v.kid_friendly, themes=tuple(v.themes), verified_on=v.verified_on,
                     note=v.note, address=v.address)


def eatery(r: RawRestaurant) -> CityPlace:
    """A fixture's restaurant row with the Place it describes."""
    place = Place(ref=r.id, kind="food", name=r.name, lat=r.geo.lat, lon=r.geo.lon,
                  hours=r.opening_hours if r.hours_known else None, price_estimated=r.price_estimated,
                  kid_friendly=r.kid_friendly, minutes=MEAL_MINUTES, data_source=r.data_source,
                  source_url=r.source_url, names=r.names)
    return CityPlace(place=place, geo=r.geo, opening_hours=r.opening_hours, hours_known=r.hours_known,
                     price=r.price_per_person, price_estimated=r.price_estimated, minutes=MEAL_MINUTES,
                     kid_friendly=r.kid_friendly, verified_on=r.verified_on, note=r.note, address=r.address,
                     meals=tuple(r.meals), cuisine=r.cuisine)


def bed(h: RawHotel) -> CityPlace:
    """A fixture's place-to-stay row with the Place it describes."""
    place = Place(ref=h.id, kind="bed", name=h.name, lat=h.geo.lat, lon=h.geo.lon,
                  price_estimated=h.price_estimated, kid_friendly=h.kid_friendly, data_source=h.data_source,
                  source_url=h.source_url, names=h.names)
    return CityPlace(place=place, geo=h.geo, opening_hours="", hours_known=False, price=h.price_per_night,
                     price_estimated=h.price_estimated, minutes=0, kid_friendly=h.kid_friendly, address=h.address,
                     tier=h.tier, checkin=h.checkin, checkout=h.checkout)
