"""Verifying a saved itinerary (``tripwright verify``): re-derive its facts as-of its own planning
day, then run the verifiers over what was re-derived, never over what the file claims."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import date

from engine.catalog.catalog import Catalog, default_catalog
from engine.errors import InputError
from engine.models import ItineraryV1, Violation

from engine.verify.mismatch import mismatch


@dataclass(frozen=True)
class SavedVerdict:
    violations: list[Violation]  # blocking first
    notes: list[str] = field(default_factory=list)  # how the check was made (e.g. an assumed date)

    @property
    def blocking(self) -> list[Violation]:
        return [v for v in self.violations if v.blocking]


def planning_day(itin: ItineraryV1) -> tuple[date, list[str]]:
    """The day whose FX and prices the plan used; older files (no ``planning_date``) fall back to
    the day they were written, which is the planning day unless ``--today`` was given."""
    if itin.planning_date is not None:
        return itin.planning_date, []
    day = itin.created_at.date()
    return day, [f"itinerary has no planning_date (written before it was recorded): prices and FX "
                 f"re-derived as-of its created_at day {day}"]


def verify_saved(itin: ItineraryV1, catalog: Catalog | None = None) -> SavedVerdict:
    """``catalog`` defaults to the embedded fixtures, loaded only when needed (a US road trip
    needs no FX and no city data)."""
    day, notes = planning_day(itin)
    if itin.intent.mode == "multi_city":
        from engine.verify.chain_integrity import verify_saved_chain
        return SavedVerdict(verify_saved_chain(itin, _place_lookup(catalog or default_catalog(), day)), notes + [
            "multi-city: the days, legs, booked tickets, costs, each stay's places and the chain re-checked; "
            "each stay's prices and times are not re-derived from the catalog"])
    if itin.intent.mode == "road_trip":
        from engine.roadtrip.integrity import verify_saved_road
        return SavedVerdict(verify_saved_road(itin, catalog, day), notes)
    return SavedVerdict(_verify_city(itin, with_cached_pack(catalog or default_catalog(), itin.intent.city, day), day),
                        notes)


def _place_lookup(catalog: Catalog, day: date):
    """``known(city, activity)`` over the catalog with each city's cached pack joined on first use."""
    seen: dict[str, Catalog] = {}

    def known(city: str, act) -> bool | None:
        if city not in seen:
            seen[city] = with_cached_pack(catalog, city, day)
        found = seen[city]
        if not found.has_city(city):
            return None
        place = found.city(city)
        return any(look(act.ref) is not None for look in (place.venue, place.hotel, place.restaurant))
    return known


def with_cached_pack(catalog: Catalog, city: str, day: date) -> Catalog:
    """A city no fixture covers is checked against its cached OSM pack (never fetched here)."""
    if catalog.has_city(city):
        return catalog
    from engine.places.catalog_link import catalog_with
    from engine.places.pack_store import PackStore
    pack = PackStore().find(city)
    return catalog_with(catalog, pack, today=day)[0] if pack is not None else catalog


def _verify_city(itin: ItineraryV1, catalog: Catalog, day: date) -> list[Violation]:
    from engine.planning.inputs import gather
    from engine.planning.integrity import rederive_city
    from engine.tools.toolbox import build_toolbox
    from engine.verify import verify_plan

    toolbox = build_toolbox(catalog, today=day)
    try:
        facts = asyncio.run(gather(itin.intent, toolbox)).facts
    except InputError as exc:  # the intent parsed, but the catalog does not back it (e.g. an airport)
        return [mismatch("intent", f"intent.{exc.field}: {exc.message}")]
    redone = rederive_city(itin, facts, toolbox)
    checked = verify_plan(redone.plan, itin.intent, redone.facts) if redone.plan is not None else []
    return sorted(redone.violations + checked, key=lambda v: not v.blocking)
