"""A city pack as the planner's city: its Places with the facts they are planned with.

A pack city says of itself what a fixture city does (``CityBase``: name, country, currency, fares…)
and holds its places as ``CityPlace`` (``engine/catalog/city_places.py``) — the shape a fixture
city's rows are read into — so the tools build the planner's inputs the same way for both.

Only a shortlist goes to the planner (the best-ranked sights, meals and beds, spread over the
city): it never needs thousands. Each row keeps where its facts came from — the place and its
hours from OSM (``data_source="osm"``), prices estimated by the country's price level unless
OSM tags them (``fee=no``, ``charge=12 EUR``), hours unknown as a state (``hours_known=False``:
planned only when needed, at low confidence, under a cautious daytime window). Prices are USD
(the estimates' currency); the city's own currency is kept for display.
"""

from __future__ import annotations

import heapq
import re
from datetime import date
from typing import Literal

from pydantic import ConfigDict, Field

from engine.catalog.city_places import MEAL_MINUTES, CityPlace
from engine.catalog.schema import CityBase, RawAirport, RawTransit
from engine.models import Geo
from engine.models.dated_hours import RULE_ERRORS, dated_hours
from engine.models.place import ASSUMED_HOURS, Place
from engine.models.tool_results import WEEKDAYS
from engine.models.visit_time import visit_minutes

from . import estimates
from .osm_reader import PlaceRow, open_when_untagged, reread
from .osm_tags import (BREAKFAST_WORD, SNACK_WORD, admission_kind, cuisines_of, meal_use, meal_use_of_label,
                       stars_of)
from .pack import CityPack
from .ranking import best_known
from .price_levels import price_level, published_admission

SHORTLIST = {"sight": 120, "food": 120, "bed": 48}
CELL_DEG = 0.01  # ~1 km: a place in a cell already picked from loses a little rank (spread)
SPREAD_PENALTY = 0.6
ALWAYS_OPEN = '24/7 "always open: an outdoor place with no gate and no opening hours in OpenStreetMap"'
BREAKFAST_HOURS = "Mo-Su 07:00-14:00"  # a diner with no published hours: mornings, never a dinner
LAST_TRANSIT = "23:30"  # no timetable in OSM: a cautious last departure, said to be estimated
_CHARGE = re.compile(r"^\s*(?P<amount>\d+(?:[.,]\d{1,2})?)\s*(?P<cur>[A-Z]{3}|€|\$|£)\s*$")
_SYMBOLS = {"€": "EUR", "$": "USD", "£": "GBP"}


class PackCity(CityBase):
    """A city from OpenStreetMap: as few places as the city has, any tiers it has."""

    model_config = ConfigDict(arbitrary_types_allowed=True)  # ``CityPlace``: built here, not parsed

    venues: list[CityPlace] = Field(min_length=1)
    restaurants: list[CityPlace] = Field(default_factory=list)
    hotels: list[CityPlace] = Field(min_length=1)
    local_currency: str = Field(pattern=r"^[A-Z]{3}$")
    osm_base: str = ""
    fetched_on: date
    price_level: float
    price_level_note: str
    over_cap: int = 0  # elements of the answer past the per-kind cap, left out by rank (issue 35)
    famous: list[str] = Field(default_factory=list)  # its best-known sights, best first (``ranking.best_known``)


def pack_city(pack: CityPack, *, name: str, rates_to_usd: dict[str, float]) -> PackCity:
    level, level_note = price_level(pack.country)
    fetched = pack.fetched_at.date()
    sights, foods, beds = ([row.place() for row in shortlist(pack.of_kind(kind), SHORTLIST[kind])]
                           for kind in ("sight", "food", "bed"))
    fares = estimates.transit_fares(level)
    return PackCity(
        city=name, slug=pack.slug, aliases=_aliases(pack, name), country=pack.country, tz=pack.tz,
        currency="USD", local_currency=pack.currency, center=Geo(lat=pack.center_lat, lon=pack.center_lon),
        airports=[a.iata for a in pack.airports], daily_spend=estimates.daily_spend(level),
        transit=_transit(pack, fares), osm_base=pack.osm_base, fetched_on=fetched,
        venues=[_venue(p, pack.country, level, rates_to_usd, fetched) for p in sights],
        restaurants=[_restaurant(p, pack.country, level, fetched) for p in foods],
        hotels=[_hotel(p, level) for p in beds], price_level=level, price_level_note=level_note,
        over_cap=pack.dropped.get("over_the_cap", 0), famous=best_known(sights))


def pack_airports(pack: CityPack) -> dict[str, RawAirport]:
    return {a.iata: RawAirport(iata=a.iata, name=a.name, city=pack.name, tz=a.tz, geo=Geo(lat=a.lat, lon=a.lon))
            for a in pack.airports}


def shortlist(places: list[PlaceRow], limit: int) -> list[PlaceRow]:
    """The best ``limit`` places, spread: each one taken from a ~1 km cell costs the cell's
    later places a little rank, so one dense quarter cannot fill every day."""
    # Only the best 4 × limit (+ the first pick, the best of all) can ever be taken: the tail can
    # never win. Then the best score each time, the earlier row among equals (as ``max`` over the
    # sorted rows gives it), from a heap: a score only falls (its cell picked from), so an entry
    # found stale at the top goes back with its score now. A big city's pack holds tens of thousands.
    best = heapq.nsmallest(4 * limit + 1, places, key=lambda p: (-p.rank, p.osm_id))
    cells = [_cell(p) for p in best]
    heap = [(-p.rank, i) for i, p in enumerate(best)]
    heapq.heapify(heap)
    taken: list[PlaceRow] = []
    per_cell: dict[tuple[int, int], int] = {}
    while heap and len(taken) < limit:
        stored, i = heapq.heappop(heap)
        score = best[i].rank - SPREAD_PENALTY * per_cell.get(cells[i], 0)
        if -stored != score:
            heapq.heappush(heap, (-score, i))
            continue
        taken.append(best[i])
        per_cell[cells[i]] = per_cell.get(cells[i], 0) + 1
    return taken


def _cell(p: PlaceRow) -> tuple[int, int]:
    return int(p.lat // CELL_DEG), int(p.lon // CELL_DEG)


def hours_of(p: Place, country: str) -> tuple[str, bool, str | None]:
    """(rule, known, note) of a pack's or a saved place's Place: OSM's own rule when it parses; an
    outdoor place with no gate is always open; anything else has unknown hours, planned inside a
    cautious window."""
    rule = p.hours or ""
    if rule:
        try:
            dated_hours(rule, country)
            return rule, True, None
        except RULE_ERRORS:
            return ASSUMED_HOURS[p.kind], False, f"OSM hours {rule[:60]!r} could not be read"
    if open_when_untagged(reread(p.tags, p.name, p.key, p.category), p.tags):
        return ALWAYS_OPEN, True, "no opening_hours in OSM: an outdoor place with no gate, treated as always open"
    return ASSUMED_HOURS[p.kind], False, "no opening hours in OpenStreetMap"


def _venue(p: Place, country: str, level: float, rates: dict[str, float], fetched: date) -> CityPlace:
    rule, known, note = hours_of(p, country)
    price, estimated = _admission(p, level, rates, country)
    return CityPlace(place=p, geo=Geo(lat=p.lat, lon=p.lon), opening_hours=rule, hours_known=known, price=price,
                     price_estimated=estimated, minutes=visit_minutes(p), kid_friendly=p.kid_friendly,
                     themes=tuple(p.themes) or ("culture",),
                     verified_on=fetched, note=note, address=street_address(p.tags))


def _admission(p: Place, level: float, rates: dict[str, float], country: str = "") -> tuple[float, bool]:
    """OSM's ``fee=no`` (the Place's price 0) or ``charge`` when tagged (converted when the currency is
    known); else the published level of the country for the kind of place (a temple in Japan, a
    cathedral in Spain, a national museum) when the place is paid by its kind or marked paid; else
    the estimate for the kind of place."""
    if p.price == 0.0:
        return 0.0, False
    m = _CHARGE.match(p.tags.get("charge", ""))
    if m:
        cur = _SYMBOLS.get(m["cur"], m["cur"])
        rate = rates.get(cur)
        if rate is not None:
            return round(float(m["amount"].replace(",", ".")) * rate, 2), False
    kind = admission_kind(p.category, p.tags)
    paid = p.tags.get("fee") == "yes" or estimates.admission(p.category, level) > 0
    published = published_admission(country, kind) if paid else None
    if published is not None and published[1] in rates:
        return round(published[0] * rates[published[1]], 2), True
    price = estimates.admission(p.category, level)
    if price == 0 and p.tags.get("fee") == "yes":  # paid, amount not tagged
        price = estimates.paid_admission(kind, level)
    return price, True


def _restaurant(p: Place, country: str, level: float, fetched: date) -> CityPlace:
    """A place to eat, its cuisine label saying what it is for (``osm_tags.meal_use``): a café's or a
    bakery's label says "café" (the planner keeps them for breakfast or a snack), a diner's says
    "breakfast" and, with no published hours, it is assumed open mornings only — never a dinner."""
    rule, known, note = hours_of(p, country)
    use = meal_use(p.category, p.tags)
    cafe = use == "snack"
    meals: list[Literal["lunch", "dinner"]] = ["lunch"] if use != "meal" else ["lunch", "dinner"]
    price = estimates.meal("lunch" if use != "meal" else "dinner", level, cafe=cafe)
    cuisine = next(iter(cuisines_of(p.tags)), "").replace("_", " ") or p.category.replace("_", " ")
    word = {"snack": SNACK_WORD, "breakfast": BREAKFAST_WORD}.get(use)
    if word is not None and meal_use_of_label(cuisine) != use:
        cuisine = f"{cuisine} {word}" if cuisine not in ("cafe", "restaurant", "food court") else word
    if use == "breakfast" and not known:
        rule, note = BREAKFAST_HOURS, "no opening hours in OpenStreetMap: a breakfast place, assumed open mornings"
    return CityPlace(place=p, geo=Geo(lat=p.lat, lon=p.lon), opening_hours=rule, hours_known=known,
                     price=max(price, 1.0), price_estimated=True, minutes=MEAL_MINUTES, kid_friendly=bool(p.kid_friendly),
                     verified_on=fetched, note=note, address=street_address(p.tags), meals=tuple(meals),
                     cuisine=cuisine[:32])


def _hotel(p: Place, level: float) -> CityPlace:
    stars = stars_of(p.tags)
    tier = estimates.tier_of_stars(stars if stars or p.category in ("hotel", "apartment") else 2)
    return CityPlace(place=p, geo=Geo(lat=p.lat, lon=p.lon), opening_hours="", hours_known=False,
                     price=estimates.hotel_night(tier, stars, level), price_estimated=True, minutes=0,
                     kid_friendly=p.category != "hostel", address=street_address(p.tags), tier=tier,
                     checkin="15:00-24:00", checkout="07:00-11:00")


def street_address(tags: dict[str, str]) -> str | None:
    """OSM's ``addr:housenumber`` and ``addr:street`` as one line ("29 Rue de Poitou"), or None."""
    street = tags.get("addr:street", "").strip()
    if not street:
        return None
    number = tags.get("addr:housenumber", "").strip()
    return f"{number} {street}"[:200].strip()


def _transit(pack: CityPack, fares: dict) -> RawTransit:
    return RawTransit(metro_last_departure={d: LAST_TRANSIT for d in WEEKDAYS}, metro_fare=fares["metro"],
                      bus_fare=fares["bus"], taxi_base=fares["taxi_base"], taxi_per_km=fares["taxi_per_km"],
                      airport_transfer={a.iata: fares["airport_transfer"] for a in pack.airports},
                      source_url="", verified_on=pack.fetched_at.date(), estimated=True,
                      note="estimated from the country's price level; no timetable: last departure assumed "
                           f"{LAST_TRANSIT}")


def _aliases(pack: CityPack, name: str) -> list[str]:
    names = {pack.name, pack.label, pack.slug.replace("_", " "), f"{pack.name}, {pack.country}"}
    return sorted(n.lower() for n in names if n and n != name)


def pack_decision(city: PackCity):
    """What the planner assumed of a city read from OpenStreetMap, said once in the itinerary."""
    from engine.models import Decision
    open_always = sum(v.opening_hours == ALWAYS_OPEN for v in city.venues)
    unknown = sum(not v.hours_known for v in city.venues) + sum(not r.hours_known for r in city.restaurants)
    return Decision(node="city_pack", alternatives_considered=len(city.venues) + len(city.restaurants) + len(city.hotels),
                    selected=city.city, rationale=(
        f"Places from OpenStreetMap (data as of {city.osm_base or 'unknown'}, fetched {city.fetched_on}): "
        f"the best {len(city.venues)} sights, {len(city.restaurants)} places to eat and {len(city.hotels)} to stay. "
        f"{open_always} outdoor places with no opening hours (viewpoints, squares, parks without gates) are "
        f"treated as always open; {unknown} places with no published hours are planned only when needed, at low "
        f"confidence. Prices OSM does not tag, flights and fares are estimated ({city.price_level_note}: "
        f"{city.price_level:.2f} × US prices)." + (
            f" OpenStreetMap's answer held more places than were asked for: the {city.over_cap:,} ranked "
            "lowest of their kind were left out." if city.over_cap else "")))
