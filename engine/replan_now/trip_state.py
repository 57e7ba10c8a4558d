"""A saved city trip ready to re-plan: its plan, the tool answers it was planned with (as-of
its own planning day, as ``tripwright verify`` re-derives them: ``engine/verify_saved.py``) and
the toolbox that gave them. The version's stored plan is used as it is; an older version
saved without one is re-derived from the catalog (``engine/planning/integrity.py``)."""

from __future__ import annotations

import asyncio
import dataclasses
from dataclasses import dataclass

from engine.errors import InputError
from engine.models import IntentV1, ItineraryV1, PlanV1


@dataclass(frozen=True)
class TripState:
    itinerary: ItineraryV1
    plan: PlanV1
    inputs: object  # PlannerInputs: the city's places, flights, hotels, weather, and their facts
    toolbox: object  # the tools (FX provenance for the new version; bookings: the new intent's answers)

    @property
    def intent(self) -> IntentV1:
        return self.itinerary.intent

    @property
    def facts(self):
        return self.inputs.facts

    def with_intent(self, intent: IntentV1) -> "TripState":
        """The same trip for ``intent`` (a booking imported mid-trip): its tool answers asked again."""
        from engine.planning.inputs import gather
        inputs = asyncio.run(gather(intent, self.toolbox))
        return dataclasses.replace(self, itinerary=self.itinerary.model_copy(update={"intent": intent}),
                                   inputs=inputs)


def load_trip_state(itinerary: ItineraryV1, plan: PlanV1 | None = None, catalog=None) -> TripState:
    """The trip of a saved ``itinerary`` (and the plan saved with it, when there is one)."""
    if itinerary.intent.mode != "city":
        raise InputError("trip", "re-planning from now works on city trips; a road trip is re-planned "
                                 "from the map or its form")
    from engine.catalog import default_catalog
    from engine.planning.inputs import gather
    from engine.tools.toolbox import build_toolbox
    from engine.verify_saved import planning_day, with_cached_pack

    day, _notes = planning_day(itinerary)
    catalog = with_cached_pack(catalog or default_catalog(), itinerary.intent.city, day)
    toolbox = build_toolbox(catalog, today=day)
    inputs = asyncio.run(gather(itinerary.intent, toolbox))
    if plan is None:
        from engine.planning.integrity import rederive_city
        redone = rederive_city(itinerary, inputs.facts, toolbox)
        if redone.plan is None:
            raise InputError("trip", "the saved version's days are not its trip's dates; it cannot be re-planned")
        plan, inputs = redone.plan, dataclasses.replace(inputs, facts=redone.facts)
    return TripState(itinerary=itinerary, plan=plan, inputs=inputs, toolbox=toolbox)


__all__ = ["TripState", "load_trip_state"]
