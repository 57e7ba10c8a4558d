"""The traveller's saved places in a plan (issue 21 §2): each must-see becomes a candidate the
day builder prefers — the catalog's own venue when it is the same place, else a place of its own
(``data_source="user"``, hours unknown, planned inside a cautious daytime window at low
confidence). Must-sees come first in the attractions list and carry a bonus in the builder's
score, so they are placed on a day they are open and fit, before any other sight."""

from __future__ import annotations

from engine.errors import InputError
from engine.models import Attraction, IntentV1, VenueType
from engine.models.intent import MustSee
from engine.tools.provenance import stamp
from engine.tools.requests import VenueRequest

ASSUMED_HOURS = "Mo-Su 10:00-17:00"
VISIT_MINUTES = 60


async def must_see_venues(call, intent: IntentV1, toolbox, city,
                          have: list[Attraction]) -> tuple[list[Attraction], list[Attraction]]:
    """The must-sees in the traveller's order: (places to visit, tables to eat at — a saved café
    is a meal, not a visit)."""
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
        venue = venue or own_place(place, city)
        bucket = meals if meal else visits
        if venue.id not in {v.id for v in bucket}:
            bucket.append(venue)
    return visits, meals


def own_place(place: MustSee, city) -> Attraction:
    """A saved place the catalog does not have: what the traveller's file says, nothing more."""
    pid = place.place_id
    return Attraction(id=pid, name=place.name, venue_type=VenueType.other, indoor=None, kid_friendly=None,
                      themes=["culture"], opening_hours=ASSUMED_HOURS, country=city.raw.country,
                      location=place.geo, est_price_usd_cents=0, duration_minutes=VISIT_MINUTES, tz=city.tz,
                      hours_known=False, price_estimated=True,
                      provenance=stamp("places", {"id": pid, "name": place.name, "source": place.source},
                                       data_source="user", ref_id=pid))


def with_must_see_first(must: list[Attraction], attractions: list[Attraction]) -> list[Attraction]:
    ids = {a.id for a in must}
    return [*must, *(a for a in attractions if a.id not in ids)]
