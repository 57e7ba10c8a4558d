"""The night's bed near each overnight town, from the corridor's OpenStreetMap places (issue 20 §2).

A place to stay within :data:`BED_RADIUS_MILES` of the anchor town's point (``tourism=motel``,
``hotel``, ``guest_house``, ``hostel``, ``camp_site``), preferring what suits the party — motels
and hotels first, a hostel only for one or two grown-ups, a camp site last (it needs gear) —, the
trip's tier when it has one (a road intent has none yet: mid, a 3-star or unrated room), stars
mapped, and nearness. Its price is an **estimate** for one room and one night:
``estimates.hotel_night`` by its stars, else by the tier its kind suggests (a motel or hostel room
budget, the rest the trip's tier), scaled by the country's price level; a camp site
:data:`CAMP_SITE_USD` (US state and national park sites mostly charge $20–50 a night). A hotel the
traveller booked for that night wins over all of them (the planner puts it there:
:mod:`.booked_night`).
"""

from __future__ import annotations

import math
from datetime import date

import numpy as np

from engine.geo import haversine_rad
from engine.models import Tier
from engine.places import estimates
from engine.places.corridor import CorridorData
from engine.places.osm_reader import PlaceRow
from engine.places.osm_tags import stars_of
from engine.places.price_levels import price_level

from .detours import DETOUR_FACTOR
from .plan import Bed, Town

BED_RADIUS_MILES = 5.0
NEAREST_BED_MILES = 35.0  # when the night's town has none: the nearest mapped bed this near is named
CAMP_SITE_USD = 35.0
KIND_PREFERENCE = {"motel": 3.0, "hotel": 3.0, "guest_house": 2.0, "hostel": 1.0, "camp_site": 0.5}
KIND_TIER = {"motel": Tier.budget, "hostel": Tier.budget}
MILE_PENALTY = 0.3


class BedPicker:
    def __init__(self, data: CorridorData, intent) -> None:
        self.data = data
        self.beds: list[PlaceRow] = list(data.beds)
        self._lat = np.radians(np.fromiter((b.lat for b in self.beds), float, len(self.beds)))
        self._lon = np.radians(np.fromiter((b.lon for b in self.beds), float, len(self.beds)))
        self.tier = Tier(getattr(intent, "tier", None) or Tier.mid)
        self.party = intent.travellers
        self.kids = intent.prefs.kid_friendly

    def bed_for(self, anchor: Town, night: date) -> tuple[Bed | None, str]:
        """The night's bed, or why there is none ("" when OpenStreetMap was not asked there)."""
        if not self.data.covers(anchor.lat, anchor.lon, BED_RADIUS_MILES):
            return None, ""
        near = self._near(anchor)
        if not near:
            said = f"no lodging mapped within {BED_RADIUS_MILES:.0f} mi of {anchor.label} (OpenStreetMap)"
            nearest = self._nearest(anchor)
            if nearest is not None:
                place, miles = nearest
                said += (f"; the nearest mapped bed is {place.name} ({place.category.replace('_', ' ')}), "
                         f"{miles:.0f} mi away: about {2 * DETOUR_FACTOR * miles:.0f} mi there and back")
            return None, said
        place, miles = max(near, key=lambda pm: (self._score(*pm), -pm[0].osm_id))
        return self._bed(place, miles, anchor.country or "US"), ""

    def has_bed(self, place: Town) -> bool | None:
        """Whether a bed is mapped within :data:`BED_RADIUS_MILES` of a town; None where
        OpenStreetMap was not asked (nothing known either way)."""
        if not self.data.covers(place.lat, place.lon, BED_RADIUS_MILES):
            return None
        return bool(self._near(place))

    def _nearest(self, anchor: Town) -> tuple[PlaceRow, float] | None:
        found = self._near(anchor, NEAREST_BED_MILES)
        return min(found, key=lambda pm: (pm[1], pm[0].osm_id)) if found else None

    def _near(self, anchor: Town, radius: float = BED_RADIUS_MILES) -> list[tuple[PlaceRow, float]]:
        if not self.beds:
            return []
        lat0, lon0 = math.radians(anchor.lat), math.radians(anchor.lon)
        miles = haversine_rad(lat0, lon0, self._lat, self._lon)
        return [(self.beds[i], float(miles[i])) for i in np.flatnonzero(miles <= radius)]

    def _score(self, p: PlaceRow, miles: float) -> float:
        value = KIND_PREFERENCE.get(p.category, 0.0)
        if p.category == "hostel" and (self.party >= 3 or self.kids):
            value -= 3.0  # a dormitory is no room for a family
        stars = stars_of(p.tags)
        if stars is not None:  # the trip's tier, and a step off it costs as much
            value += 1.0 - abs(estimates.tier_of_stars(stars).rank - self.tier.rank)
        elif self.tier is Tier.mid or (self.tier is Tier.budget and p.category in KIND_TIER):
            value += 0.5  # an unrated motel or hotel is taken as what the trip asks
        value += 0.3 * bool(p.tags.get("website")) + 0.2 * bool(p.tags.get("wikidata"))
        return value - MILE_PENALTY * miles

    def _bed(self, p: PlaceRow, miles: float, country: str) -> Bed:
        level, _ = price_level(country)
        stars = stars_of(p.tags)
        if p.category == "camp_site":
            usd = round(CAMP_SITE_USD * level, 2)
        else:
            usd = estimates.hotel_night(KIND_TIER.get(p.category, self.tier), stars, level)
        return Bed(name=p.name, lat=p.lat, lon=p.lon, kind=p.category, price_usd_cents=int(round(usd * 100)),
                   source_url=p.source_url, ref=p.ref, stars=stars, miles=round(miles, 1))
