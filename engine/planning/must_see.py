"""The traveller's saved places in a plan (issue 21 §2): each must-see becomes a candidate the
day builder prefers — the catalog's own venue when it is the same place, else a place of its own
(``data_source="user"``, hours unknown, planned inside a cautious daytime window at low
confidence). Must-sees come first in the attractions list and carry a bonus in the builder's
score, so they are placed on a day they are open and fit, before any other sight."""

from __future__ import annotations

from engine.errors import InputError
from engine.models import Attraction, IntentV1, VenueType
from engine.models.intent import MustSee
from engine.models.place import ASSUMED_HOURS, Place
from engine.models.visit_time import VISIT_MINUTES, visit_minutes
from engine.tools.provenance import stamp
from engine.tools.requests import VenueRequest


async def must_see_venues(call, intent: IntentV1, toolbox, city,
                          have: list[Attraction]) -> tuple[list[Attraction], list[Attraction]]:
    """The must-sees in the traveller's order: (places to visit, tables to eat at — a saved café
    is a meal, not a visit; so is a place of one's own that OpenStreetMap says is a café)."""
    by_id = {a.id: a for a in have}
    visits: list[Attraction] = []
    meals: list[Attraction] = []
    for i, place in enumerate(intent.prefs.must_see):
        venue, meal = by_id.get(place.place_id), False
        if venue is None and place.venue_id:
            venue = await call("attractions", toolbox.attractions.by_id,
                               VenueRequest(city=city.name, venue_id=place.venue_id))
            if venue is None:
                venue, meal = toolbox.dining.by_id(city.name, place.venue_id), True
            if venue is None:
                raise InputError(f"prefs.must_see[{i}].venue_id",
                                 f"{place.venue_id!r} is not a known venue or restaurant in {city.name}")
        if venue is None:
            venue, meal = own_place(place, city), place.osm is not None and place.osm.kind == "food"
        bucket = meals if meal else visits
        if venue.id not in {v.id for v in bucket}:
            bucket.append(venue)
    return visits, meals


def own_place(place: MustSee, city) -> Attraction:
    """A saved place the catalog does not have: what the traveller's file says, and — when
    OpenStreetMap knows it (``place.osm``) — its hours, kind and link from there."""
    pid = place.place_id
    if place.osm is not None:
        return _from_osm(place, city)
    return Attraction(id=pid, name=place.name, venue_type=VenueType.other, indoor=None, kid_friendly=None,
                      themes=["culture"], opening_hours=ASSUMED_HOURS["sight"], country=city.raw.country,
                      location=place.geo, est_price_usd_cents=0, duration_minutes=VISIT_MINUTES, tz=city.tz,
                      hours_known=False, price_estimated=True,
                      provenance=stamp("places", {"id": pid, "name": place.name, "source": place.source},
                                       data_source="user", ref_id=pid))


def with_must_see_first(must: list[Attraction], attractions: list[Attraction]) -> list[Attraction]:
    ids = {a.id for a in must}
    return [*must, *(a for a in attractions if a.id not in ids)]


def _from_osm(place: MustSee, city) -> Attraction:
    """The saved place as the Place OpenStreetMap gave (its hours, kind, link), at the traveller's pin."""
    from engine.places.pack_city import hours_of, street_address
    osm = _osm_place(place)
    rule, known, _ = hours_of(osm, city.raw.country)
    themes = ["food"] if osm.kind == "food" else (list(osm.themes) or ["culture"])
    return Attraction(id=place.place_id, name=place.name, venue_type=osm.venue_type, indoor=osm.indoor,
                      kid_friendly=None, themes=themes, opening_hours=rule, country=city.raw.country,
                      location=place.geo, est_price_usd_cents=0, duration_minutes=visit_minutes(osm),
                      tz=city.tz,
                      hours_known=known, price_estimated=True, address=street_address(osm.tags),
                      provenance=stamp("overpass", {"id": osm.ref, "name": osm.name, "tags": osm.tags},
                                       data_source="osm", ref_id=place.place_id, source_url=osm.source_url))


def _osm_place(place: MustSee) -> Place:
    """``place.osm`` as a Place: itself, or — in an intent written before it was kept — the stored
    row read through the OSM reader, at the traveller's pin."""
    osm = place.osm
    if isinstance(osm, Place):
        return osm
    from engine.places.osm_reader import stored_place
    assert osm is not None
    return stored_place(osm.osm_type, osm.osm_id, osm.kind, osm.key, osm.category, osm.name, place.geo.lat,
                        place.geo.lon, osm.tags)
